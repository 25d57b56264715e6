//===- Bounds.cpp - Out-of-bounds memory accesses in kernels --------------===//
//
// checkOutOfBounds: the loads and stores of a kernel whose index can leave a
// statically shaped memref. Each index of each access goes through up to
// three steps, so that a finding is never a guess:
//
//   1. Intervals (BoundsIntervals.cpp). The range of the index from the
//      ranges of what it is computed from (thread and block ids from the
//      kernel's known sizes, loop induction variables from their bounds and
//      steps), narrowed by the comparisons of the enclosing `scf.if`s with
//      the index itself (or the same computation done again, as the
//      pipelines do). Cheap, and enough for most accesses: in range is done.
//      An index computed from what step 3 cannot evaluate (loaded values,
//      kernel arguments) is done too: nothing could confirm a finding.
//   2. A bound (BoundsConstraints.cpp). MLIR's ValueBoundsConstraintSet
//      gathers the backward slice of the index into a constraint set:
//      arith/affine/scf ops through their ValueBoundsOpInterface models, and
//      here, through the stop condition, what those models do not know or
//      bound loosely (ids, loop induction variables, selects, min and max),
//      then the conditions of the enclosing `scf.if`s as constraints,
//      relations between values included (`%i + %j < 16` bounds `%j + %i`).
//      The closed constant bound decides: in range is done. The set
//      over-approximates, so a bound out of range is only a suspicion.
//   3. A witness (BoundsEvaluator.cpp, BoundsWitness.cpp). A suspicion is
//      confirmed by executing the access's address computation on concrete
//      thread ids, block ids and iterations of the enclosing loops (corners
//      first, then everything, within a step budget), enclosing
//      `scf.if`/`affine.if` conditions evaluated exactly: only an execution
//      that reaches the access with an index out of range is a finding, and
//      the furthest such index is the one the message names.
//
// Everything else errs towards no finding: accesses reached through
// unstructured control flow, inside `scf.while` or region ops this check
// does not know, or whose index or guards depend on loaded values, kernel
// arguments or loop-carried values; kernels whose thread or block counts
// are unknown when the index needs them; device functions.
//
// This file is the driver: the accesses of each kernel, through the steps
// in turn. BoundsSteps.h declares the steps; BoundsContext(.h/.cpp) holds
// what they share (a kernel's ids, the loops and guards around an access,
// loop bounds, an access's indices).
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/IrChecks.h"

#include "oracles/ir/BoundsContext.h"
#include "oracles/ir/BoundsSteps.h"
#include "oracles/ir/Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/SmallVector.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace mlir;
using namespace sift::oracle::detail;
using presburger::BoundType;

namespace sift::oracle::bounds {

namespace {

/// Wall-clock time one checkOutOfBounds call may take; accesses after it
/// are not checked.
constexpr std::chrono::milliseconds kTimeBudget{250};

//===----------------------------------------------------------------------===//
// Accesses
//===----------------------------------------------------------------------===//

/// A load or store of a memref with at least one static dimension.
struct Access {
  Operation *op;
  MemRefType type;
  SmallVector<Index> indices; ///< The static dimensions only.
  VectorType vector;          ///< vector.load/store: the vector.
};

std::optional<Access> accessOf(Operation *op) {
  Value memref;
  SmallVector<Value> indices;
  AffineMap map;
  VectorType vector;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    memref = load.getMemRef();
    indices = llvm::to_vector(load.getIndices());
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    memref = store.getMemRef();
    indices = llvm::to_vector(store.getIndices());
  } else if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
    memref = rmw.getMemref();
    indices = llvm::to_vector(rmw.getIndices());
  } else if (auto load = dyn_cast<vector::LoadOp>(op)) {
    memref = load.getBase();
    indices = llvm::to_vector(load.getIndices());
    vector = load.getVectorType();
  } else if (auto store = dyn_cast<vector::StoreOp>(op)) {
    memref = store.getBase();
    indices = llvm::to_vector(store.getIndices());
    vector = store.getVectorType();
  } else if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    memref = load.getMemRef();
    indices = llvm::to_vector(load.getMapOperands());
    map = load.getAffineMap();
  } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
    memref = store.getMemRef();
    indices = llvm::to_vector(store.getMapOperands());
    map = store.getAffineMap();
  } else {
    return std::nullopt;
  }
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || type.getRank() == 0)
    return std::nullopt;
  if (vector && (vector.isScalable() || vector.getRank() > type.getRank()))
    return std::nullopt;
  if (map && map.getNumResults() != static_cast<unsigned>(type.getRank()))
    return std::nullopt;
  if (!map && indices.size() != static_cast<size_t>(type.getRank()))
    return std::nullopt;
  Access access{op, type, {}, vector};
  MLIRContext *ctx = op->getContext();
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.isDynamicDim(d))
      continue;
    Index index;
    index.dim = d;
    index.size = type.getDimSize(d);
    if (map) {
      index.map = map.getSubMap({static_cast<unsigned>(d)});
      index.operands = indices;
    } else {
      index.map = symbolMap(ctx);
      index.operands = {indices[d]};
    }
    int64_t fromEnd = type.getRank() - d;
    if (vector && fromEnd <= vector.getRank())
      index.extent = vector.getDimSize(vector.getRank() - fromEnd);
    access.indices.push_back(std::move(index));
  }
  if (access.indices.empty())
    return std::nullopt;
  return access;
}

std::string describe(const Access &access, const Index &index,
                     int64_t reached) {
  std::string text = access.op->getName().getStringRef().str();
  if (access.vector)
    text += " of " + printType(access.vector);
  text += " index " + std::to_string(index.dim) + " of " +
          printType(access.type) + " can reach " + std::to_string(reached) +
          " (size " + std::to_string(index.size) + ")";
  return text;
}

/// Step 2's bound of an index side in a block: the block, the index's map
/// and operands, the side.
using BoundKey = std::vector<const void *>;

/// The check of one kernel's accesses: its facts, intervals and
/// evaluability, and the bounds step 2 found, shared by the accesses of a
/// block that use the same index.
class KernelCheck {
public:
  explicit KernelCheck(const Kernel &kernel)
      : kernel(kernel), info(kernelInfo(kernel)), intervals(info),
        evaluable(info) {}

  /// Checks access `op`; interrupts at a finding (added to `out`).
  WalkResult visit(Operation *op, const Access &access,
                   std::vector<IrFinding> &out) {
    std::optional<SmallVector<Scope, 6>> scopes = scopesOf(op, kernel);
    if (!scopes)
      return WalkResult::advance();
    SmallVector<Index> suspicious;
    SmallVector<Excursion> excursions;
    if (!inDoubt(access, *scopes, suspicious, excursions))
      return WalkResult::advance();
    keepBeyondBounds(op, *scopes, suspicious, excursions);
    if (suspicious.empty())
      return WalkResult::advance();
    // Step 3: a witness.
    if (!searchWitness(info, *scopes, suspicious, excursions))
      return WalkResult::advance();
    for (auto [index, excursion] : llvm::zip(suspicious, excursions)) {
      if (!excursion.witnessed)
        continue;
      out.push_back({Verdict::OutOfBounds, kernel.name,
                     describe(access, index, *excursion.witnessed),
                     op->getLoc()});
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  }

private:
  /// Step 1: intervals settle most indices. Those they do not are in doubt
  /// (into `suspicious`, with the side of each excursion), unless no
  /// execution could be evaluated (an index computed from loaded values):
  /// step 3 could then never confirm a finding. False when nothing is in
  /// doubt or the access never runs (an empty loop).
  bool inDoubt(const Access &access, ArrayRef<Scope> scopes,
               SmallVector<Index> &suspicious,
               SmallVector<Excursion> &excursions) {
    SmallVector<GuardFact> facts;
    for (const Scope &scope : scopes)
      if (scope.kind == Scope::If)
        intervals.assume(cast<scf::IfOp>(scope.op).getCondition(),
                         scope.thenBranch, facts);
    for (const Index &index : access.indices) {
      if (!llvm::all_of(index.operands,
                        [&](Value v) { return evaluable.of(v); }))
        continue;
      std::optional<Range> range = intervals.ofIndex(index, facts);
      if (range && range->hi < range->lo)
        return false; // Never executed (an empty loop).
      if (!range || range->hi + index.extent > index.size) {
        suspicious.push_back(index);
        excursions.push_back({true, 0, {}});
      }
      if (!range || range->lo < 0) {
        suspicious.push_back(index);
        excursions.push_back({false, 0, {}});
      }
    }
    return !suspicious.empty();
  }

  /// Step 2's key of an index side at access `op`.
  static BoundKey keyOf(Operation *op, const Index &index,
                        const Excursion &excursion) {
    BoundKey key = {op->getBlock(), index.map.getAsOpaquePointer(),
                    reinterpret_cast<const void *>(
                        static_cast<uintptr_t>(excursion.over))};
    for (Value operand : index.operands)
      key.push_back(operand.getAsOpaquePointer());
    return key;
  }

  /// Step 2: bounds, with the enclosing guards, of what is in doubt; keeps
  /// the sides whose bound leaves the buffer (an unbounded one has nothing
  /// to confirm). The guards are those of the access's block: bounds are
  /// shared by the accesses of a block that use the same index.
  void keepBeyondBounds(Operation *op, ArrayRef<Scope> scopes,
                        SmallVector<Index> &suspicious,
                        SmallVector<Excursion> &excursions) {
    SmallVector<unsigned> uncached;
    for (unsigned i = 0; i < suspicious.size(); ++i)
      if (!bounds.count(keyOf(op, suspicious[i], excursions[i])))
        uncached.push_back(i);
    if (!uncached.empty()) {
      unsigned visited = 0;
      AccessConstraints constraints(op->getContext(), info, visited);
      SmallVector<int64_t> columns;
      for (unsigned i : uncached)
        columns.push_back(
            constraints.addIndex(suspicious[i].map, suspicious[i].operands));
      for (const Scope &scope : scopes)
        if (scope.kind == Scope::If)
          constraints.assume(cast<scf::IfOp>(scope.op).getCondition(),
                             scope.thenBranch);
      for (auto [i, column] : llvm::zip(uncached, columns))
        bounds[keyOf(op, suspicious[i], excursions[i])] =
            constraints.constantBound(
                excursions[i].over ? BoundType::UB : BoundType::LB, column);
    }
    unsigned kept = 0;
    for (unsigned i = 0; i < suspicious.size(); ++i) {
      Excursion &excursion = excursions[i];
      std::optional<int64_t> bound =
          bounds[keyOf(op, suspicious[i], excursion)];
      if (!bound)
        continue; // Unbounded: nothing to confirm.
      if (excursion.over) {
        excursion.bound = *bound + suspicious[i].extent - 1;
        if (excursion.bound < suspicious[i].size)
          continue;
      } else {
        excursion.bound = *bound;
        if (excursion.bound >= 0)
          continue;
      }
      suspicious[kept] = suspicious[i];
      excursions[kept] = excursion;
      ++kept;
    }
    suspicious.truncate(kept);
    excursions.truncate(kept);
  }

  const Kernel &kernel;
  KernelInfo info;
  Intervals intervals;
  Evaluability evaluable;
  std::map<BoundKey, std::optional<int64_t>> bounds;
};

/// Checks the accesses of one kernel; stops at its first finding or when
/// `deadline` passes. False when the deadline passed.
bool checkKernel(const Kernel &kernel,
                 std::chrono::steady_clock::time_point deadline,
                 std::vector<IrFinding> &out) {
  KernelCheck check(kernel);
  bool inTime = true;
  kernel.body->walk([&](Operation *op) -> WalkResult {
    std::optional<Access> access = accessOf(op);
    if (!access)
      return WalkResult::advance();
    if (std::chrono::steady_clock::now() > deadline) {
      inTime = false;
      return WalkResult::interrupt();
    }
    return check.visit(op, *access, out);
  });
  return inTime;
}

} // namespace

} // namespace sift::oracle::bounds

namespace sift::oracle {

std::vector<IrFinding> checkOutOfBounds(Operation *root) {
  std::vector<IrFinding> out;
  auto deadline = std::chrono::steady_clock::now() + bounds::kTimeBudget;
  for (const Kernel &kernel : collectKernels(root)) {
    // Device functions run only if called: their accesses are left to the
    // kernels that call them.
    if (!kernel.isEntry)
      continue;
    if (!bounds::checkKernel(kernel, deadline, out))
      return out;
  }
  for (const Kernel &loop : collectMappedLoops(root))
    if (!bounds::checkKernel(loop, deadline, out))
      return out;
  return out;
}

std::vector<IrFinding> checkOutOfBounds(ModuleOp module) {
  return checkOutOfBounds(module.getOperation());
}

} // namespace sift::oracle
