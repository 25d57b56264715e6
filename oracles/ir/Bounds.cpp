//===- Bounds.cpp - Out-of-bounds memory accesses in kernels --------------===//
//
// checkOutOfBounds: the loads and stores of a kernel whose index can leave a
// statically shaped memref. Each index of each access goes through up to
// three steps, so that a finding is never a guess:
//
//   1. Intervals. The range of the index from the ranges of what it is
//      computed from (thread and block ids from the kernel's known sizes,
//      loop induction variables from their bounds and steps), narrowed by
//      the comparisons of the enclosing `scf.if`s with the index itself (or
//      the same computation done again, as the pipelines do). Cheap, and
//      enough for most accesses: in range is done. An index computed from
//      what step 3 cannot evaluate (loaded values, kernel arguments) is done
//      too: nothing could confirm a finding.
//   2. A bound. MLIR's ValueBoundsConstraintSet gathers the backward slice
//      of the index into a constraint set: arith/affine/scf ops through
//      their ValueBoundsOpInterface models, and here, through the stop
//      condition, what those models do not know or bound loosely (ids, loop
//      induction variables, selects, min and max), then the conditions of
//      the enclosing `scf.if`s as constraints, relations between values
//      included (`%i + %j < 16` bounds `%j + %i`). The closed constant
//      bound decides: in range is done. The set over-approximates, so a
//      bound out of range is only a suspicion.
//   3. A witness. A suspicion is confirmed by executing the access's
//      address computation on concrete thread ids, block ids and iterations
//      of the enclosing loops (corners first, then everything, within a step
//      budget), enclosing `scf.if`/`affine.if` conditions evaluated exactly:
//      only an execution that reaches the access with an index out of range
//      is a finding, and the furthest such index is the one the message
//      names.
//
// Everything else errs towards no finding: accesses reached through
// unstructured control flow, inside `scf.while` or region ops this file does
// not know, or whose index or guards depend on loaded values, kernel
// arguments or loop-carried values; kernels whose thread or block counts
// are unknown when the index needs them; device functions.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/IrChecks.h"

#include "oracles/ir/Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ExtensibleRTTI.h"
#include "llvm/Support/MathExtras.h"

#include <chrono>
#include <limits>
#include <map>
#include <vector>

using namespace mlir;
using namespace sift::oracle::detail;
using presburger::BoundType;

namespace sift::oracle {

namespace {

/// Values one constraint set may visit before it stops adding constraints
/// (the rest of the slice is then unconstrained: a looser bound, never a
/// wrong one).
constexpr unsigned kMaxSliceValues = 160;
/// Points (assignments of ids and iterations) one witness search may visit.
constexpr int64_t kMaxWitnessSteps = 1 << 14;
/// Nesting of the expressions the witness search evaluates.
constexpr unsigned kMaxDepth = 64;
/// Wall-clock time one checkOutOfBounds call may take; accesses after it
/// are not checked.
constexpr std::chrono::milliseconds kTimeBudget{250};

//===----------------------------------------------------------------------===//
// Kernels, ids and the scopes around an access
//===----------------------------------------------------------------------===//

/// Thread and block ids by their position: thread x, y, z, block x, y, z.
enum IdKind : unsigned { kThreadX = 0, kBlockX = 3, kNumIds = 6 };

/// What a kernel knows of its ids.
struct KernelInfo {
  gpu::LaunchOp launch; ///< Null unless the kernel is a gpu.launch body.
  std::optional<std::array<int64_t, 3>> blockSize;
  std::optional<std::array<int64_t, 3>> gridSize;

  /// Threads (id < 3) or blocks (id >= 3) along the id's dimension.
  std::optional<int64_t> extent(unsigned id) const {
    const auto &sizes = id < kBlockX ? blockSize : gridSize;
    if (!sizes)
      return std::nullopt;
    return (*sizes)[id % 3];
  }
};

std::optional<std::array<int64_t, 3>> sizesOf(std::optional<int64_t> x,
                                              std::optional<int64_t> y,
                                              std::optional<int64_t> z) {
  if (!x || !y || !z)
    return std::nullopt;
  return std::array<int64_t, 3>{*x, *y, *z};
}

std::optional<std::array<int64_t, 3>> sizesOf(DenseI32ArrayAttr attr) {
  if (!attr || attr.size() != 3)
    return std::nullopt;
  return std::array<int64_t, 3>{attr[0], attr[1], attr[2]};
}

KernelInfo kernelInfo(const Kernel &kernel) {
  KernelInfo info;
  info.blockSize = kernel.blockSize;
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel.op)) {
    info.launch = launch;
    info.gridSize = sizesOf(evaluateConstant(launch.getGridSizeX()),
                            evaluateConstant(launch.getGridSizeY()),
                            evaluateConstant(launch.getGridSizeZ()));
  } else if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel.op)) {
    info.gridSize = sizesOf(func.getKnownGridSizeAttr());
  } else {
    info.gridSize = sizesOf(
        kernel.op->getAttrOfType<DenseI32ArrayAttr>("gpu.known_grid_size"));
  }
  return info;
}

Value component(const gpu::KernelDim3 &dims, unsigned d) {
  return d == 0 ? dims.x : d == 1 ? dims.y : dims.z;
}

/// A body argument of a gpu.launch: its id (thread or block), or its size.
struct LaunchArgument {
  unsigned id;  ///< kThreadX + d or kBlockX + d.
  bool isSize;  ///< The block or grid size along d, not the id.
  Value extent; ///< The launch operand of that size.
};

std::optional<LaunchArgument> launchArgument(gpu::LaunchOp launch,
                                             BlockArgument arg) {
  if (arg.getOwner() != &launch.getBody().front())
    return std::nullopt;
  gpu::KernelDim3 blockOperands = launch.getBlockSizeOperandValues();
  gpu::KernelDim3 gridOperands = launch.getGridSizeOperandValues();
  for (unsigned d = 0; d < 3; ++d) {
    if (arg == component(launch.getThreadIds(), d))
      return LaunchArgument{kThreadX + d, false, component(blockOperands, d)};
    if (arg == component(launch.getBlockSize(), d))
      return LaunchArgument{kThreadX + d, true, component(blockOperands, d)};
    if (arg == component(launch.getBlockIds(), d))
      return LaunchArgument{kBlockX + d, false, component(gridOperands, d)};
    if (arg == component(launch.getGridSize(), d))
      return LaunchArgument{kBlockX + d, true, component(gridOperands, d)};
  }
  return std::nullopt;
}

unsigned dimensionIndex(gpu::Dimension dim) {
  return static_cast<unsigned>(dim);
}

/// One loop or guard around an access.
struct Scope {
  enum Kind { Loop, If, AffineIf } kind;
  Operation *op;
  bool thenBranch = true; ///< If, AffineIf: the access is in the then-region.
};

/// The loops and guards between the kernel and an access, outermost first.
/// Null when the access is reached in a way this file does not follow
/// (unstructured control flow, scf.while, unknown region ops).
std::optional<SmallVector<Scope, 6>> scopesOf(Operation *access,
                                              const Kernel &kernel) {
  SmallVector<Scope, 6> scopes;
  Operation *op = access;
  while (true) {
    Block *block = op->getBlock();
    if (!block || !block->isEntryBlock())
      return std::nullopt;
    Operation *parent = block->getParentOp();
    if (!parent)
      return std::nullopt;
    if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, affine::AffineForOp>(
            parent)) {
      scopes.push_back({Scope::Loop, parent});
    } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      scopes.push_back(
          {Scope::If, parent, block->getParent() == &ifOp.getThenRegion()});
    } else if (auto ifOp = dyn_cast<affine::AffineIfOp>(parent)) {
      scopes.push_back({Scope::AffineIf, parent,
                        block->getParent() == &ifOp.getThenRegion()});
    } else if (parent != kernel.op &&
               !isa<scf::ExecuteRegionOp, memref::AllocaScopeOp>(parent)) {
      return std::nullopt;
    }
    if (parent == kernel.op)
      break;
    op = parent;
  }
  std::reverse(scopes.begin(), scopes.end());
  return scopes;
}

/// A loop's induction variables with their bounds: the max of `lower`'s
/// results, the min of `upper`'s (exclusive), and a step.
struct LoopBounds {
  AffineMap lower, upper;
  SmallVector<Value> lowerOperands, upperOperands;
  OpFoldResult step;
};

AffineMap symbolMap(MLIRContext *ctx) {
  return AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx));
}

/// A bound as a one-result map: s0 of the value, or the constant.
void asMap(OpFoldResult bound, AffineMap &map, SmallVectorImpl<Value> &ops,
           MLIRContext *ctx) {
  if (std::optional<int64_t> constant = getConstantIntValue(bound)) {
    map = AffineMap::getConstantMap(*constant, ctx);
    return;
  }
  map = symbolMap(ctx);
  ops.push_back(cast<Value>(bound));
}

/// The bounds of `iv` when it is an induction variable of `loop` that the
/// checks model (scf.for with a signed comparison, scf.parallel,
/// scf.forall, affine.for).
std::optional<LoopBounds> loopBounds(Operation *loop, BlockArgument iv) {
  MLIRContext *ctx = loop->getContext();
  LoopBounds bounds;
  unsigned i = iv.getArgNumber();
  auto fromValues = [&](OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
    asMap(lb, bounds.lower, bounds.lowerOperands, ctx);
    asMap(ub, bounds.upper, bounds.upperOperands, ctx);
    bounds.step = step;
    return bounds;
  };
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    if (iv != forOp.getInductionVar() || forOp.getUnsignedCmp())
      return std::nullopt;
    return fromValues(forOp.getLowerBound(), forOp.getUpperBound(),
                      forOp.getStep());
  }
  if (auto parallel = dyn_cast<scf::ParallelOp>(loop)) {
    if (i >= parallel.getNumLoops())
      return std::nullopt;
    return fromValues(parallel.getLowerBound()[i], parallel.getUpperBound()[i],
                      parallel.getStep()[i]);
  }
  if (auto forall = dyn_cast<scf::ForallOp>(loop)) {
    if (i >= forall.getRank())
      return std::nullopt;
    return fromValues(forall.getMixedLowerBound()[i],
                      forall.getMixedUpperBound()[i], forall.getMixedStep()[i]);
  }
  if (auto forOp = dyn_cast<affine::AffineForOp>(loop)) {
    if (iv != forOp.getInductionVar())
      return std::nullopt;
    bounds.lower = forOp.getLowerBoundMap();
    bounds.upper = forOp.getUpperBoundMap();
    bounds.lowerOperands = llvm::to_vector(forOp.getLowerBoundOperands());
    bounds.upperOperands = llvm::to_vector(forOp.getUpperBoundOperands());
    bounds.step = Builder(ctx).getIndexAttr(forOp.getStepAsInt());
    return bounds;
  }
  return std::nullopt;
}

/// The induction variables of a loop scope.
SmallVector<Value> inductionVariables(Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return {forOp.getInductionVar()};
  if (auto parallel = dyn_cast<scf::ParallelOp>(loop))
    return llvm::to_vector(parallel.getInductionVars());
  if (auto forall = dyn_cast<scf::ForallOp>(loop))
    return forall.getInductionVars();
  if (auto forOp = dyn_cast<affine::AffineForOp>(loop))
    return {forOp.getInductionVar()};
  return {};
}

/// The constant result of a one-result constant map.
std::optional<int64_t> constantOf(AffineMap map) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  if (auto constant = dyn_cast<AffineConstantExpr>(map.getResult(0)))
    return constant.getValue();
  return std::nullopt;
}

/// One index of an access, as a one-result map of operands.
struct Index {
  unsigned dim;  ///< The memref dimension.
  AffineMap map; ///< One result.
  SmallVector<Value> operands;
  int64_t size;       ///< The dimension's size.
  int64_t extent = 1; ///< Elements the access touches from the index on.
};

//===----------------------------------------------------------------------===//
// Step 1: intervals
//===----------------------------------------------------------------------===//

/// A closed range of values.
struct Range {
  int64_t lo, hi;
};

std::optional<Range> addRanges(Range a, Range b) {
  Range r;
  if (llvm::AddOverflow(a.lo, b.lo, r.lo) ||
      llvm::AddOverflow(a.hi, b.hi, r.hi))
    return std::nullopt;
  return r;
}

std::optional<Range> mulRanges(Range a, Range b) {
  int64_t products[4];
  if (llvm::MulOverflow(a.lo, b.lo, products[0]) ||
      llvm::MulOverflow(a.lo, b.hi, products[1]) ||
      llvm::MulOverflow(a.hi, b.lo, products[2]) ||
      llvm::MulOverflow(a.hi, b.hi, products[3]))
    return std::nullopt;
  return Range{*std::min_element(products, products + 4),
               *std::max_element(products, products + 4)};
}

std::optional<int64_t> floorDiv(int64_t a, int64_t b);
std::optional<int64_t> ceilDiv(int64_t a, int64_t b);

/// `a` divided by a range of positive divisors, rounding down (up when
/// `ceil`): monotone in `a`, so the ends come from the ends.
std::optional<Range> divideRange(Range a, Range b, bool ceil) {
  if (b.lo <= 0)
    return std::nullopt;
  auto div = [&](int64_t x, int64_t y) {
    return ceil ? ceilDiv(x, y) : floorDiv(x, y);
  };
  std::optional<int64_t> lo1 = div(a.lo, b.lo), lo2 = div(a.lo, b.hi);
  std::optional<int64_t> hi1 = div(a.hi, b.lo), hi2 = div(a.hi, b.hi);
  if (!lo1 || !lo2 || !hi1 || !hi2)
    return std::nullopt;
  return Range{std::min(*lo1, *lo2), std::max(*hi1, *hi2)};
}

/// The remainder of a non-negative range by a range of positive divisors.
std::optional<Range> remainderRange(Range a, Range b) {
  if (a.lo < 0 || b.lo <= 0)
    return std::nullopt;
  if (b.lo == b.hi && a.hi - a.lo < b.lo && a.lo % b.lo <= a.hi % b.lo)
    return Range{a.lo % b.lo, a.hi % b.lo};
  return Range{0, std::min(a.hi, b.hi - 1)};
}

/// What an enclosing guard says of a value at every execution of an access
/// under it: `value` is in [lo, hi].
struct GuardFact {
  Value value;
  Range range;
};

/// The same value: `a` itself, or a pure op of the same kind on the same
/// operands (the pipelines compute an index and the value its guard
/// compares separately: `%i = addi %t, %o` and `%g = addi %t, %o`).
bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  return x && y && x->getNumRegions() == 0 && isPure(x) &&
         cast<OpResult>(a).getResultNumber() ==
             cast<OpResult>(b).getResultNumber() &&
         OperationEquivalence::isEquivalentTo(
             x, y, OperationEquivalence::exactValueMatch, nullptr,
             OperationEquivalence::IgnoreLocations);
}

/// Interval bounds of index values: a sound, cheap first look that proves
/// most accesses in bounds before a constraint set is built. Ranges are
/// memoized per kernel (they do not depend on the access); the guards of an
/// access narrow the ranges of its indices (GuardFact).
class Intervals {
public:
  explicit Intervals(const KernelInfo &info) : info_(info) {}

  std::optional<Range> of(Value value, unsigned depth = 0) {
    auto it = memo_.find(value);
    if (it != memo_.end())
      return it->second;
    std::optional<Range> range =
        depth > kMaxIntervalDepth ? std::nullopt : compute(value, depth);
    memo_[value] = range;
    return range;
  }

  /// The range of one index of an access under guards that say `facts`.
  std::optional<Range> ofIndex(const Index &index, ArrayRef<GuardFact> facts) {
    SmallVector<Range> ranges;
    for (Value operand : index.operands) {
      Range range =
          of(operand).value_or(Range{std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max()});
      for (const GuardFact &fact : facts) {
        if (!sameValue(fact.value, operand))
          continue;
        range.lo = std::max(range.lo, fact.range.lo);
        range.hi = std::min(range.hi, fact.range.hi);
      }
      if (range.lo == std::numeric_limits<int64_t>::min() ||
          range.hi == std::numeric_limits<int64_t>::max())
        return std::nullopt;
      ranges.push_back(range);
    }
    return ofExpr(index.map.getResult(0), ranges, index.map.getNumDims());
  }

  /// Adds to `facts` what holds where `cond` is `holds`: comparisons of
  /// index values with values of known range, in conjunctions (or failed
  /// disjunctions).
  void assume(Value cond, bool holds, SmallVectorImpl<GuardFact> &facts,
              unsigned depth = 0) {
    Operation *def = cond.getDefiningOp();
    if (!def || depth > 8)
      return;
    if (isa<arith::AndIOp, arith::OrIOp>(def)) {
      if (holds == isa<arith::AndIOp>(def)) {
        assume(def->getOperand(0), holds, facts, depth + 1);
        assume(def->getOperand(1), holds, facts, depth + 1);
      }
      return;
    }
    if (isa<arith::XOrIOp>(def)) {
      for (unsigned i = 0; i < 2; ++i)
        if (matchPattern(def->getOperand(i), m_One()))
          assume(def->getOperand(1 - i), !holds, facts, depth + 1);
      return;
    }
    auto cmp = dyn_cast<arith::CmpIOp>(def);
    if (!cmp || !cmp.getLhs().getType().isIndex())
      return;
    using P = arith::CmpIPredicate;
    P pred =
        holds ? cmp.getPredicate() : arith::invertPredicate(cmp.getPredicate());
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    // As lhs < rhs or lhs <= rhs.
    if (pred == P::sgt || pred == P::sge || pred == P::ugt || pred == P::uge) {
      std::swap(lhs, rhs);
      pred = pred == P::sgt   ? P::slt
             : pred == P::sge ? P::sle
             : pred == P::ugt ? P::ult
                              : P::ule;
    }
    std::optional<Range> l = of(lhs), r = of(rhs);
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    switch (pred) {
    case P::eq:
      if (r)
        facts.push_back({lhs, *r});
      if (l)
        facts.push_back({rhs, *l});
      return;
    case P::slt:
    case P::sle: {
      int64_t strict = pred == P::slt ? 1 : 0;
      if (r && r->hi != kMin)
        facts.push_back({lhs, Range{kMin, r->hi - strict}});
      if (l && l->lo != kMax)
        facts.push_back({rhs, Range{l->lo + strict, kMax}});
      return;
    }
    case P::ult:
    case P::ule:
      // Unsigned: lhs is non-negative when rhs is.
      if (r && r->lo >= 0)
        facts.push_back({lhs, Range{0, r->hi - (pred == P::ult ? 1 : 0)}});
      return;
    default: return;
    }
  }

  /// The range of `expr` on operands of ranges `operands` (the first
  /// `numDims` of them dimensions).
  std::optional<Range> ofExpr(AffineExpr expr, ArrayRef<Range> operands,
                              unsigned numDims) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return Range{constant.getValue(), constant.getValue()};
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return dim.getPosition() < numDims
                 ? std::optional<Range>(operands[dim.getPosition()])
                 : std::nullopt;
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return numDims + symbol.getPosition() < operands.size()
                 ? std::optional<Range>(
                       operands[numDims + symbol.getPosition()])
                 : std::nullopt;
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return std::nullopt;
    std::optional<Range> a = ofExpr(binary.getLHS(), operands, numDims);
    std::optional<Range> b = ofExpr(binary.getRHS(), operands, numDims);
    if (!a || !b)
      return std::nullopt;
    switch (expr.getKind()) {
    case AffineExprKind::Add: return addRanges(*a, *b);
    case AffineExprKind::Mul: return mulRanges(*a, *b);
    case AffineExprKind::FloorDiv: return divideRange(*a, *b, false);
    case AffineExprKind::CeilDiv: return divideRange(*a, *b, true);
    case AffineExprKind::Mod:
      if (b->lo <= 0)
        return std::nullopt;
      if (a->lo >= 0)
        return remainderRange(*a, *b);
      return Range{0, b->hi - 1};
    default: return std::nullopt;
    }
  }

private:
  static constexpr unsigned kMaxIntervalDepth = 32;

  std::optional<Range> ofMap(AffineMap map, ValueRange operands, unsigned depth,
                             bool min, bool max) {
    SmallVector<Range> ranges;
    for (Value operand : operands) {
      std::optional<Range> r = of(operand, depth + 1);
      if (!r)
        return std::nullopt;
      ranges.push_back(*r);
    }
    std::optional<Range> result;
    for (AffineExpr expr : map.getResults()) {
      std::optional<Range> r = ofExpr(expr, ranges, map.getNumDims());
      if (!r)
        return std::nullopt;
      if (!result)
        result = r;
      else if (min)
        result =
            Range{std::min(result->lo, r->lo), std::min(result->hi, r->hi)};
      else if (max)
        result =
            Range{std::max(result->lo, r->lo), std::max(result->hi, r->hi)};
      else
        return std::nullopt;
    }
    return result;
  }

  std::optional<Range> idRange(unsigned id, std::optional<APInt> upperBound) {
    std::optional<int64_t> extent = info_.extent(id);
    if (!extent && upperBound)
      extent = upperBound->getSExtValue();
    if (!extent || *extent <= 0)
      return std::nullopt;
    return Range{0, *extent - 1};
  }

  std::optional<Range> inductionVariable(Operation *loop, BlockArgument iv,
                                         unsigned depth) {
    std::optional<LoopBounds> bounds = loopBounds(loop, iv);
    if (!bounds)
      return std::nullopt;
    std::optional<Range> lb =
        ofMap(bounds->lower, bounds->lowerOperands, depth, false, true);
    std::optional<Range> ub =
        ofMap(bounds->upper, bounds->upperOperands, depth, true, false);
    if (!lb || !ub)
      return std::nullopt;
    Range range{lb->lo, ub->hi - 1};
    std::optional<int64_t> step = getConstantIntValue(bounds->step);
    if (lb->lo == lb->hi && ub->lo == ub->hi && step && *step > 0 &&
        range.lo <= range.hi) {
      int64_t stride = *step;
      range.hi = range.lo + (range.hi - range.lo) / stride * stride;
    }
    return range;
  }

  std::optional<Range> compute(Value value, unsigned depth) {
    if (!value.getType().isIndex())
      return std::nullopt;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!arg.getOwner()->isEntryBlock() || !owner)
        return std::nullopt;
      if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
        std::optional<LaunchArgument> what = launchArgument(launch, arg);
        if (!what)
          return std::nullopt;
        std::optional<Range> extent = of(what->extent, depth + 1);
        if (!extent || extent->lo <= 0)
          return std::nullopt;
        return what->isSize ? *extent : Range{0, extent->hi - 1};
      }
      if (llvm::is_contained(inductionVariables(owner), value))
        return inductionVariable(owner, arg, depth);
      return std::nullopt;
    }
    Operation *def = value.getDefiningOp();
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return Range{constant.getSExtValue(), constant.getSExtValue()};
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
      return idRange(kThreadX + dimensionIndex(tid.getDimension()),
                     tid.getUpperBound());
    if (auto bid = dyn_cast<gpu::BlockIdOp>(def))
      return idRange(kBlockX + dimensionIndex(bid.getDimension()),
                     bid.getUpperBound());
    if (auto apply = dyn_cast<affine::AffineApplyOp>(def))
      return ofMap(apply.getAffineMap(), apply.getMapOperands(), depth, false,
                   false);
    if (auto min = dyn_cast<affine::AffineMinOp>(def))
      return ofMap(min.getMap(), min.getOperands(), depth, true, false);
    if (auto max = dyn_cast<affine::AffineMaxOp>(def))
      return ofMap(max.getMap(), max.getOperands(), depth, false, true);
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
             arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
             arith::RemSIOp, arith::RemUIOp, arith::MinSIOp, arith::MaxSIOp,
             arith::SelectOp>(def))
      return std::nullopt;
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      std::optional<Range> t = of(select.getTrueValue(), depth + 1);
      std::optional<Range> f =
          t ? of(select.getFalseValue(), depth + 1) : std::nullopt;
      if (!t || !f)
        return std::nullopt;
      return Range{std::min(t->lo, f->lo), std::max(t->hi, f->hi)};
    }
    std::optional<Range> a = of(def->getOperand(0), depth + 1);
    std::optional<Range> b =
        a ? of(def->getOperand(1), depth + 1) : std::nullopt;
    if (!a || !b)
      return std::nullopt;
    if (isa<arith::AddIOp>(def))
      return addRanges(*a, *b);
    if (isa<arith::SubIOp>(def)) {
      if (b->lo == std::numeric_limits<int64_t>::min())
        return std::nullopt;
      return addRanges(*a, Range{-b->hi, -b->lo});
    }
    if (isa<arith::MulIOp>(def))
      return mulRanges(*a, *b);
    if (isa<arith::MinSIOp>(def))
      return Range{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
    if (isa<arith::MaxSIOp>(def))
      return Range{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(def)) {
      // Truncation and floor agree on non-negative dividends.
      if (!isa<arith::FloorDivSIOp>(def) && a->lo < 0)
        return std::nullopt;
      return divideRange(*a, *b, false);
    }
    if (isa<arith::CeilDivSIOp>(def))
      return divideRange(*a, *b, true);
    return remainderRange(*a, *b); // remsi, remui
  }

  const KernelInfo &info_;
  DenseMap<Value, std::optional<Range>> memo_;
};

//===----------------------------------------------------------------------===//
// Step 2: bounds through ValueBoundsConstraintSet
//===----------------------------------------------------------------------===//

/// The constraints of one access: its indices as columns, their backward
/// slices, the enclosing guards.
class AccessConstraints
    : public llvm::RTTIExtends<AccessConstraints, ValueBoundsConstraintSet> {
public:
  static char ID;

  /// `visited` counts the values this set and the sets it nests visit.
  AccessConstraints(MLIRContext *ctx, const KernelInfo &info, unsigned &visited)
      : RTTIExtends(
            ctx,
            [this](Value value, std::optional<int64_t> dim,
                   ValueBoundsConstraintSet &) { return stopAt(value, dim); }),
        info_(info), visited_(visited) {}

  /// Adds a column for `map`'s (single) result on `operands` and the
  /// constraints of their slices; returns the column.
  int64_t addIndex(AffineMap map, ValueRange operands) {
    ValueDimList list;
    for (Value operand : operands)
      list.emplace_back(operand, std::nullopt);
    return populateConstraints(map, list);
  }

  /// Adds what holds where `cond` is `holds` (conjunctions of index
  /// comparisons; disjunctions when they fail; `xor true`).
  void assume(Value cond, bool holds, unsigned depth = 0) {
    Operation *def = cond.getDefiningOp();
    if (!def || depth > 8)
      return;
    if (isa<arith::AndIOp>(def)) {
      if (holds) {
        assume(def->getOperand(0), true, depth + 1);
        assume(def->getOperand(1), true, depth + 1);
      }
      return;
    }
    if (isa<arith::OrIOp>(def)) {
      if (!holds) {
        assume(def->getOperand(0), false, depth + 1);
        assume(def->getOperand(1), false, depth + 1);
      }
      return;
    }
    if (isa<arith::XOrIOp>(def)) {
      for (unsigned i = 0; i < 2; ++i)
        if (matchPattern(def->getOperand(i), m_One()))
          assume(def->getOperand(1 - i), !holds, depth + 1);
      return;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
      if (!cmp.getLhs().getType().isIndex())
        return;
      compare(holds ? cmp.getPredicate()
                    : arith::invertPredicate(cmp.getPredicate()),
              cmp.getLhs(), cmp.getRhs());
    }
  }

  /// The closed constant bound of column `pos`, if it fits in 64 bits.
  std::optional<int64_t> constantBound(BoundType type, int64_t pos) const {
    std::optional<llvm::DynamicAPInt> bound = cstr.getConstantBound(type, pos);
    if (!bound || *bound > std::numeric_limits<int64_t>::max() ||
        *bound < std::numeric_limits<int64_t>::min())
      return std::nullopt;
    return static_cast<int64_t>(*bound);
  }

private:
  /// `lhs pred rhs` as constraints. Unsigned comparisons count only where
  /// the smaller side is provably non-negative: then they are the signed
  /// ones.
  void compare(arith::CmpIPredicate pred, Value lhs, Value rhs) {
    using P = arith::CmpIPredicate;
    AffineExpr l = getExpr(lhs);
    AffineExpr r = getExpr(rhs);
    processWorklist();
    switch (pred) {
    case P::slt: bound(lhs) < r; return;
    case P::sle: bound(lhs) <= r; return;
    case P::sgt: bound(lhs) > r; return;
    case P::sge: bound(lhs) >= r; return;
    case P::eq: bound(lhs) == r; return;
    case P::ne: return;
    case P::ult:
    case P::ule:
      if (!nonNegative(rhs))
        return;
      bound(lhs) >= 0;
      if (pred == P::ult)
        bound(lhs) < r;
      else
        bound(lhs) <= r;
      return;
    case P::ugt:
    case P::uge:
      if (!nonNegative(lhs))
        return;
      bound(rhs) >= 0;
      if (pred == P::ugt)
        bound(rhs) < l;
      else
        bound(rhs) <= l;
      return;
    }
  }

  bool nonNegative(Value value) {
    std::optional<int64_t> lower = constantBound(BoundType::LB, getPos(value));
    return lower && *lower >= 0;
  }

  /// The stop condition: counts the values visited, and bounds itself what
  /// ValueBoundsOpInterface models do not (or not tightly enough).
  bool stopAt(Value value, std::optional<int64_t> dim) {
    if (++visited_ > kMaxSliceValues)
      return true;
    if (dim)
      return false;
    if (!value.getType().isIndex())
      return true;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!arg.getOwner()->isEntryBlock() || !owner)
        return true;
      if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
        constrainLaunchArgument(launch, arg);
        return true;
      }
      if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, affine::AffineForOp>(
              owner) &&
          llvm::is_contained(inductionVariables(owner), value)) {
        constrainInductionVariable(owner, arg);
        return true;
      }
      return false;
    }
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<gpu::GPUDialect>(def->getDialect())) {
      constrainGpuOp(def);
      return true;
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      constrainSelect(select);
      return true;
    }
    if (isa<arith::MinSIOp, arith::MaxSIOp, affine::AffineMinOp,
            affine::AffineMaxOp>(def)) {
      constrainMinMax(def);
      return true;
    }
    return false;
  }

  /// The closed constant bound (LB when `lower`) of `value`, or of each
  /// result of `map` on `value`s, assuming `cond` is `holds`, in a nested
  /// set: uncorrelated with this one's columns, so only for constants.
  std::optional<int64_t> nestedBound(AffineMap map, ValueRange operands,
                                     bool lower, Value cond = Value(),
                                     bool holds = true) {
    AccessConstraints nested(builder.getContext(), info_, visited_);
    int64_t column = nested.addIndex(map, operands);
    if (cond)
      nested.assume(cond, holds);
    return nested.constantBound(lower ? BoundType::LB : BoundType::UB, column);
  }

  /// The min (`lower`) or max of the constant bounds of `values` (or of the
  /// results of `map` on them), all of which must be bounded.
  std::optional<int64_t> outerBound(ValueRange values, AffineMap map,
                                    bool lower) {
    MLIRContext *ctx = builder.getContext();
    SmallVector<std::pair<AffineMap, SmallVector<Value>>> terms;
    if (map) {
      for (unsigned i = 0; i < map.getNumResults(); ++i)
        terms.push_back({map.getSubMap({i}), llvm::to_vector(values)});
    } else {
      for (Value value : values)
        terms.push_back({symbolMap(ctx), {value}});
    }
    std::optional<int64_t> result;
    for (auto &[termMap, operands] : terms) {
      std::optional<int64_t> b = nestedBound(termMap, operands, lower);
      if (!b)
        return std::nullopt;
      result = !result ? *b
               : lower ? std::min(*result, *b)
                       : std::max(*result, *b);
    }
    return result;
  }

  /// `select %c, %t, %f`: between the bounds of %t where %c holds and of %f
  /// where it does not (`select %i < 16, %i, 15` is at most 15).
  void constrainSelect(arith::SelectOp select) {
    Value cond = select.getCondition();
    if (!cond.getType().isInteger(1))
      return;
    MLIRContext *ctx = builder.getContext();
    Value value = select.getResult();
    for (bool lower : {false, true}) {
      std::optional<int64_t> t =
          nestedBound(symbolMap(ctx), select.getTrueValue(), lower, cond, true);
      std::optional<int64_t> f = nestedBound(
          symbolMap(ctx), select.getFalseValue(), lower, cond, false);
      if (!t || !f)
        continue;
      if (lower)
        bound(value) >= std::min(*t, *f);
      else
        bound(value) <= std::max(*t, *f);
    }
  }

  /// arith.minsi, affine.min (maxsi, max): below (above) each operand or
  /// result, and above (below) the least (greatest) of their constant
  /// bounds.
  void constrainMinMax(Operation *op) {
    bool isMin = isa<arith::MinSIOp, affine::AffineMinOp>(op);
    AffineMap map;
    if (auto min = dyn_cast<affine::AffineMinOp>(op))
      map = min.getMap();
    else if (auto max = dyn_cast<affine::AffineMaxOp>(op))
      map = max.getMap();
    else
      map = AffineMap::get(0, 2,
                           {getAffineSymbolExpr(0, op->getContext()),
                            getAffineSymbolExpr(1, op->getContext())},
                           op->getContext());
    SmallVector<Value> operands = llvm::to_vector(op->getOperands());
    Value value = op->getResult(0);
    for (AffineExpr result : map.getResults()) {
      AffineExpr expr = boundExpr(result, operands, map.getNumDims());
      if (isMin)
        bound(value) <= expr;
      else
        bound(value) >= expr;
    }
    std::optional<int64_t> side = outerBound(operands, map, isMin);
    if (side && isMin)
      bound(value) >= *side;
    else if (side)
      bound(value) <= *side;
  }

  /// Ties every value of thread or block id `id` to one column.
  void canonicalize(unsigned id, Value value) {
    Value &first = ids_[id];
    if (!first) {
      first = value;
      return;
    }
    bound(value) == getExpr(first);
  }

  void constrainLaunchArgument(gpu::LaunchOp launch, BlockArgument arg) {
    std::optional<LaunchArgument> what = launchArgument(launch, arg);
    if (!what)
      return;
    AffineExpr extent = getExpr(what->extent);
    if (what->isSize) {
      bound(arg) == extent;
      return;
    }
    bound(arg) >= 0;
    bound(arg) < extent;
    canonicalize(what->id, arg);
  }

  void constrainId(Value value, unsigned id, std::optional<APInt> upperBound) {
    std::optional<int64_t> extent = info_.extent(id);
    if (!extent && upperBound)
      extent = upperBound->getSExtValue();
    if (extent) {
      bound(value) >= 0;
      bound(value) < *extent;
    }
    canonicalize(id, value);
  }

  void constrainGpuOp(Operation *op) {
    Value value = op->getResult(0);
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      return constrainId(value, kThreadX + dimensionIndex(tid.getDimension()),
                         tid.getUpperBound());
    if (auto bid = dyn_cast<gpu::BlockIdOp>(op))
      return constrainId(value, kBlockX + dimensionIndex(bid.getDimension()),
                         bid.getUpperBound());
    if (auto dim = dyn_cast<gpu::BlockDimOp>(op)) {
      if (auto extent =
              info_.extent(kThreadX + dimensionIndex(dim.getDimension())))
        bound(value) == *extent;
      return;
    }
    if (auto dim = dyn_cast<gpu::GridDimOp>(op)) {
      if (auto extent =
              info_.extent(kBlockX + dimensionIndex(dim.getDimension())))
        bound(value) == *extent;
      return;
    }
    if (auto gid = dyn_cast<gpu::GlobalIdOp>(op)) {
      unsigned d = dimensionIndex(gid.getDimension());
      std::optional<int64_t> threads = info_.extent(kThreadX + d);
      std::optional<int64_t> blocks = info_.extent(kBlockX + d);
      if (threads && blocks) {
        bound(value) >= 0;
        bound(value) < (*threads) * (*blocks);
      }
    }
  }

  AffineExpr boundExpr(AffineExpr result, ArrayRef<Value> operands,
                       unsigned numDims) {
    SmallVector<AffineExpr> dims, symbols;
    for (auto [i, operand] : llvm::enumerate(operands))
      (i < numDims ? dims : symbols).push_back(getExpr(operand));
    return result.replaceDimsAndSymbols(dims, symbols);
  }

  void constrainInductionVariable(Operation *loop, BlockArgument iv) {
    std::optional<LoopBounds> bounds = loopBounds(loop, iv);
    if (!bounds)
      return;
    for (AffineExpr lower : bounds->lower.getResults())
      bound(iv) >=
          boundExpr(lower, bounds->lowerOperands, bounds->lower.getNumDims());
    for (AffineExpr upper : bounds->upper.getResults())
      bound(iv) <
          boundExpr(upper, bounds->upperOperands, bounds->upper.getNumDims());
    // Constant bounds: the last iteration, not the upper bound minus one.
    std::optional<int64_t> lb = constantOf(bounds->lower);
    std::optional<int64_t> ub = constantOf(bounds->upper);
    std::optional<int64_t> step = getConstantIntValue(bounds->step);
    if (lb && ub && step && *step > 0 && *lb < *ub) {
      int64_t stride = *step;
      int64_t last = *lb + (*ub - 1 - *lb) / stride * stride;
      bound(iv) <= last;
    }
  }

  const KernelInfo &info_;
  unsigned &visited_;
  std::array<Value, kNumIds> ids_;
};

char AccessConstraints::ID = 0;

//===----------------------------------------------------------------------===//
// Step 3: a witness, by evaluation
//===----------------------------------------------------------------------===//

unsigned widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth() <= 64 ? integer.getWidth() : 0;
  return 0;
}

/// `value`'s low `width` bits, sign-extended: how values are held here.
int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(value);
  uint64_t mask = (uint64_t(1) << width) - 1;
  value &= mask;
  if (value >> (width - 1))
    value |= ~mask;
  return static_cast<int64_t>(value);
}

uint64_t zeroExtend(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

std::optional<int64_t> floorDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<int64_t> ceilDiv(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
    return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/// `expr` on dimension values `dims` and symbol values `symbols`; nullopt on
/// overflow or division by zero.
std::optional<int64_t> evaluateAffine(AffineExpr expr, ArrayRef<int64_t> dims,
                                      ArrayRef<int64_t> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size()
               ? std::optional<int64_t>(dims[dim.getPosition()])
               : std::nullopt;
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbol.getPosition() < symbols.size()
               ? std::optional<int64_t>(symbols[symbol.getPosition()])
               : std::nullopt;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return std::nullopt;
  std::optional<int64_t> a = evaluateAffine(binary.getLHS(), dims, symbols);
  std::optional<int64_t> b = evaluateAffine(binary.getRHS(), dims, symbols);
  if (!a || !b)
    return std::nullopt;
  int64_t result;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    if (llvm::AddOverflow(*a, *b, result))
      return std::nullopt;
    return result;
  case AffineExprKind::Mul:
    if (llvm::MulOverflow(*a, *b, result))
      return std::nullopt;
    return result;
  case AffineExprKind::FloorDiv: return floorDiv(*a, *b);
  case AffineExprKind::CeilDiv: return ceilDiv(*a, *b);
  case AffineExprKind::Mod: {
    if (*b <= 0)
      return std::nullopt;
    int64_t r = *a % *b;
    return r < 0 ? r + *b : r;
  }
  default: return std::nullopt;
  }
}

/// `expr` on `operands`, the first `numDims` of them dimensions.
std::optional<int64_t> evaluateAffineOn(AffineExpr expr,
                                        ArrayRef<int64_t> operands,
                                        unsigned numDims) {
  return evaluateAffine(expr, operands.take_front(numDims),
                        operands.drop_front(numDims));
}

/// The ops whose results the evaluator computes.
bool isEvaluable(Operation *op) {
  return isa<arith::ConstantOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
             arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::FloorDivSIOp, arith::RemSIOp,
             arith::RemUIOp, arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp,
             arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp, arith::CmpIOp,
             arith::SelectOp, arith::IndexCastOp, arith::IndexCastUIOp,
             arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             affine::AffineApplyOp, affine::AffineMinOp, affine::AffineMaxOp,
             gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
             gpu::GlobalIdOp>(op) &&
         op->getNumResults() == 1 && widthOf(op->getResult(0).getType()) != 0;
}

/// Whether values can be evaluated on a point (constants, known ids, loop
/// induction variables and the ops isEvaluable lists): what step 2 needs of
/// an index. Memoized per kernel.
class Evaluability {
public:
  explicit Evaluability(const KernelInfo &info) : info_(info) {}

  bool of(Value value, unsigned depth = 0) {
    auto it = memo_.find(value);
    if (it != memo_.end())
      return it->second;
    bool result = depth <= kMaxDepth && compute(value, depth);
    memo_[value] = result;
    return result;
  }

private:
  bool compute(Value value, unsigned depth) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!arg.getOwner()->isEntryBlock() || !owner)
        return false;
      if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
        std::optional<LaunchArgument> what = launchArgument(launch, arg);
        return what && info_.extent(what->id);
      }
      return llvm::is_contained(inductionVariables(owner), value) &&
             loopBounds(owner, arg);
    }
    Operation *def = value.getDefiningOp();
    if (!isEvaluable(def))
      return false;
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
      return info_.extent(kThreadX + dimensionIndex(tid.getDimension()))
          .has_value();
    if (auto bid = dyn_cast<gpu::BlockIdOp>(def))
      return info_.extent(kBlockX + dimensionIndex(bid.getDimension()))
          .has_value();
    if (auto dim = dyn_cast<gpu::BlockDimOp>(def))
      return info_.extent(kThreadX + dimensionIndex(dim.getDimension()))
          .has_value();
    if (auto dim = dyn_cast<gpu::GridDimOp>(def))
      return info_.extent(kBlockX + dimensionIndex(dim.getDimension()))
          .has_value();
    if (auto gid = dyn_cast<gpu::GlobalIdOp>(def)) {
      unsigned d = dimensionIndex(gid.getDimension());
      return info_.extent(kThreadX + d) && info_.extent(kBlockX + d);
    }
    return llvm::all_of(def->getOperands(),
                        [&](Value operand) { return of(operand, depth + 1); });
  }

  const KernelInfo &info_;
  DenseMap<Value, bool> memo_;
};

/// Evaluates index computations on one point: values for the thread and
/// block ids and for the induction variables of the enclosing loops.
class Evaluator {
public:
  explicit Evaluator(const KernelInfo &info) : info_(info) {}

  /// Whether `value` can be evaluated from constants, the ids and `ivs`;
  /// sets the ids it reads in `ids`.
  bool scan(Value value, const DenseSet<Value> &ivs,
            std::array<bool, kNumIds> &ids) {
    SmallVector<std::pair<Value, unsigned>> worklist = {{value, 0}};
    while (!worklist.empty()) {
      auto [next, depth] = worklist.pop_back_val();
      if (depth > kMaxDepth)
        return false;
      if (!scanned_.insert(next).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(next)) {
        if (ivs.contains(arg))
          continue;
        if (!info_.launch)
          return false;
        std::optional<LaunchArgument> what = launchArgument(info_.launch, arg);
        if (!what || !info_.extent(what->id))
          return false;
        if (!what->isSize)
          ids[what->id] = true;
        continue;
      }
      Operation *def = next.getDefiningOp();
      if (!isEvaluable(def))
        return false;
      if (std::optional<unsigned> id = idOf(def)) {
        // Ids and sizes need the size; a global id, both ids' sizes.
        SmallVector<unsigned, 2> needed;
        if (*id < 2 * kNumIds)
          needed.push_back(*id % kNumIds);
        else
          needed = {kThreadX + *id - 2 * kNumIds, kBlockX + *id - 2 * kNumIds};
        for (unsigned need : needed) {
          if (!info_.extent(need))
            return false;
          if (*id < kNumIds || *id >= 2 * kNumIds)
            ids[need] = true;
        }
        continue;
      }
      for (Value operand : def->getOperands())
        worklist.push_back({operand, depth + 1});
    }
    return true;
  }

  /// Whether a scan reached `value`.
  bool reads(Value value) const { return scanned_.contains(value); }

  /// Starts a new point.
  void reset() { cache_.clear(); }

  std::optional<int64_t> value(Value value, unsigned depth = 0);

  std::array<int64_t, kNumIds> ids{};
  DenseMap<Value, int64_t> ivs;

private:
  /// For gpu id ops: the id (< kNumIds), the size of the id's dimension
  /// (kNumIds + id), or a global id (2 * kNumIds + d).
  static std::optional<unsigned> idOf(Operation *op) {
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      return kThreadX + dimensionIndex(tid.getDimension());
    if (auto bid = dyn_cast<gpu::BlockIdOp>(op))
      return kBlockX + dimensionIndex(bid.getDimension());
    if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
      return kNumIds + kThreadX + dimensionIndex(dim.getDimension());
    if (auto dim = dyn_cast<gpu::GridDimOp>(op))
      return kNumIds + kBlockX + dimensionIndex(dim.getDimension());
    if (auto gid = dyn_cast<gpu::GlobalIdOp>(op))
      return 2 * kNumIds + dimensionIndex(gid.getDimension());
    return std::nullopt;
  }

  std::optional<int64_t> compute(Value value, unsigned depth);

  const KernelInfo &info_;
  DenseSet<Value> scanned_;
  DenseMap<Value, int64_t> cache_;
};

std::optional<int64_t> Evaluator::value(Value value, unsigned depth) {
  if (depth > kMaxDepth)
    return std::nullopt;
  auto cached = cache_.find(value);
  if (cached != cache_.end())
    return cached->second;
  std::optional<int64_t> result = compute(value, depth);
  if (result)
    cache_[value] = *result;
  return result;
}

std::optional<int64_t> Evaluator::compute(Value value, unsigned depth) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto iv = ivs.find(arg);
    if (iv != ivs.end())
      return iv->second;
    if (!info_.launch)
      return std::nullopt;
    std::optional<LaunchArgument> what = launchArgument(info_.launch, arg);
    if (!what)
      return std::nullopt;
    return what->isSize ? info_.extent(what->id)
                        : std::optional<int64_t>(ids[what->id]);
  }
  Operation *def = value.getDefiningOp();
  if (!isEvaluable(def))
    return std::nullopt;
  unsigned width = widthOf(value.getType());
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getBitWidth() > 64 ? std::nullopt
                                       : std::optional<int64_t>(signExtend(
                                             constant.getZExtValue(), width));
  if (std::optional<unsigned> id = idOf(def)) {
    if (*id < kNumIds)
      return ids[*id];
    if (*id < 2 * kNumIds)
      return info_.extent(*id - kNumIds);
    unsigned d = *id - 2 * kNumIds;
    std::optional<int64_t> threads = info_.extent(kThreadX + d);
    if (!threads)
      return std::nullopt;
    return ids[kBlockX + d] * *threads + ids[kThreadX + d];
  }
  SmallVector<int64_t, 4> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> v = this->value(operand, depth + 1);
    if (!v)
      return std::nullopt;
    operands.push_back(*v);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    ArrayRef<int64_t> all(operands);
    return evaluateAffineOn(map.getResult(0), all, map.getNumDims());
  }
  if (isa<affine::AffineMinOp, affine::AffineMaxOp>(def)) {
    AffineMap map = isa<affine::AffineMinOp>(def)
                        ? cast<affine::AffineMinOp>(def).getMap()
                        : cast<affine::AffineMaxOp>(def).getMap();
    ArrayRef<int64_t> all(operands);
    std::optional<int64_t> best;
    for (AffineExpr result : map.getResults()) {
      std::optional<int64_t> v =
          evaluateAffineOn(result, all, map.getNumDims());
      if (!v)
        return std::nullopt;
      if (!best || (isa<affine::AffineMinOp>(def) ? *v < *best : *v > *best))
        best = v;
    }
    return best;
  }
  if (auto select = dyn_cast<arith::SelectOp>(def)) {
    if (!select.getCondition().getType().isInteger(1))
      return std::nullopt;
    return operands[0] != 0 ? operands[1] : operands[2];
  }
  unsigned operandWidth = widthOf(def->getOperand(0).getType());
  if (operandWidth == 0)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp>(def))
    return signExtend(static_cast<uint64_t>(operands[0]), width);
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(def))
    return signExtend(zeroExtend(operands[0], operandWidth), width);
  int64_t a = operands[0], b = operands[1];
  uint64_t ua = zeroExtend(a, width), ub = zeroExtend(b, width);
  auto wrap = [&](uint64_t v) { return signExtend(v, width); };
  int64_t minimum = signExtend(uint64_t(1) << (width - 1), width);
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    unsigned cmpWidth = operandWidth;
    uint64_t ca = zeroExtend(a, cmpWidth), cb = zeroExtend(b, cmpWidth);
    bool result = false;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq: result = a == b; break;
    case arith::CmpIPredicate::ne: result = a != b; break;
    case arith::CmpIPredicate::slt: result = a < b; break;
    case arith::CmpIPredicate::sle: result = a <= b; break;
    case arith::CmpIPredicate::sgt: result = a > b; break;
    case arith::CmpIPredicate::sge: result = a >= b; break;
    case arith::CmpIPredicate::ult: result = ca < cb; break;
    case arith::CmpIPredicate::ule: result = ca <= cb; break;
    case arith::CmpIPredicate::ugt: result = ca > cb; break;
    case arith::CmpIPredicate::uge: result = ca >= cb; break;
    }
    return result ? -1 : 0;
  }
  if (isa<arith::AddIOp>(def))
    return wrap(ua + ub);
  if (isa<arith::SubIOp>(def))
    return wrap(ua - ub);
  if (isa<arith::MulIOp>(def))
    return wrap(ua * ub);
  if (isa<arith::DivSIOp, arith::RemSIOp>(def)) {
    if (b == 0 || (a == minimum && b == -1))
      return std::nullopt;
    return isa<arith::DivSIOp>(def) ? a / b : a % b;
  }
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(def)) {
    if (ub == 0)
      return std::nullopt;
    if (isa<arith::DivUIOp>(def))
      return wrap(ua / ub);
    if (isa<arith::RemUIOp>(def))
      return wrap(ua % ub);
    return wrap(ua / ub + (ua % ub != 0 ? 1 : 0));
  }
  if (isa<arith::CeilDivSIOp, arith::FloorDivSIOp>(def)) {
    if (a == minimum && b == -1)
      return std::nullopt;
    return isa<arith::CeilDivSIOp>(def) ? ceilDiv(a, b) : floorDiv(a, b);
  }
  if (isa<arith::MinSIOp>(def))
    return std::min(a, b);
  if (isa<arith::MaxSIOp>(def))
    return std::max(a, b);
  if (isa<arith::MinUIOp>(def))
    return wrap(std::min(ua, ub));
  if (isa<arith::MaxUIOp>(def))
    return wrap(std::max(ua, ub));
  if (isa<arith::AndIOp>(def))
    return wrap(ua & ub);
  if (isa<arith::OrIOp>(def))
    return wrap(ua | ub);
  if (isa<arith::XOrIOp>(def))
    return wrap(ua ^ ub);
  if (isa<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(def)) {
    if (ub >= width)
      return std::nullopt; // poison
    if (isa<arith::ShLIOp>(def))
      return wrap(ua << ub);
    if (isa<arith::ShRUIOp>(def))
      return wrap(ua >> ub);
    return a >> ub;
  }
  return std::nullopt;
}

/// What an access does out of range along one index.
struct Excursion {
  bool over;     ///< Past the end (else before the start).
  int64_t bound; ///< Step 2's bound: nothing beyond it can be witnessed.
  std::optional<int64_t> witnessed; ///< The furthest index witnessed.
};

/// Searches executions of an access for indices out of range: the points
/// of the kernel's ids and of the enclosing loops' iterations at which the
/// enclosing guards hold.
class WitnessSearch {
public:
  WitnessSearch(const KernelInfo &info, ArrayRef<Scope> scopes,
                ArrayRef<Index> indices, SmallVectorImpl<Excursion> &excursions)
      : info_(info), scopes_(scopes), indices_(indices),
        excursions_(excursions), evaluator_(info) {}

  /// Runs the search; false when the access's indices or guards cannot be
  /// evaluated.
  bool run() {
    if (!plan())
      return false;
    // Corners first (every id and iteration at its first or last value),
    // then all points in an order that starts from both ends.
    cornersOnly_ = true;
    search(0);
    if (!done() && !exhausted()) {
      cornersOnly_ = false;
      search(0);
    }
    return true;
  }

private:
  struct Level {
    enum Kind { Id, Iv, Guard } kind;
    unsigned id = 0; ///< Id: which.
    const Scope *scope = nullptr;
    Value iv;         ///< Iv: the induction variable.
    bool used = true; ///< Iv: read by an index, a guard or a loop bound.
    std::optional<LoopBounds> bounds;
  };

  bool plan() {
    DenseSet<Value> ivs;
    for (const Scope &scope : scopes_)
      if (scope.kind == Scope::Loop)
        for (Value iv : inductionVariables(scope.op))
          ivs.insert(iv);
    std::array<bool, kNumIds> ids{};
    SmallVector<Value> roots;
    for (const Index &index : indices_)
      roots.append(index.operands.begin(), index.operands.end());
    SmallVector<Level> scopeLevels;
    for (const Scope &scope : scopes_) {
      if (scope.kind == Scope::Loop) {
        for (Value iv : inductionVariables(scope.op)) {
          std::optional<LoopBounds> bounds =
              loopBounds(scope.op, cast<BlockArgument>(iv));
          if (!bounds)
            return false;
          roots.append(bounds->lowerOperands);
          roots.append(bounds->upperOperands);
          if (auto step = dyn_cast<Value>(bounds->step))
            roots.push_back(step);
          Level level;
          level.kind = Level::Iv;
          level.scope = &scope;
          level.iv = iv;
          level.bounds = std::move(bounds);
          scopeLevels.push_back(std::move(level));
        }
      } else {
        if (scope.kind == Scope::If)
          roots.push_back(cast<scf::IfOp>(scope.op).getCondition());
        else
          llvm::append_range(roots,
                             cast<affine::AffineIfOp>(scope.op).getOperands());
        Level level;
        level.kind = Level::Guard;
        level.scope = &scope;
        scopeLevels.push_back(std::move(level));
      }
    }
    for (Value root : roots)
      if (!evaluator_.scan(root, ivs, ids))
        return false;
    for (unsigned id = 0; id < kNumIds; ++id) {
      if (!ids[id])
        continue;
      Level level;
      level.kind = Level::Id;
      level.id = id;
      levels_.push_back(level);
    }
    for (Level &level : scopeLevels)
      if (level.kind == Level::Iv)
        level.used = evaluator_.reads(level.iv);
    levels_.append(scopeLevels.begin(), scopeLevels.end());
    return true;
  }

  bool exhausted() const { return steps_ > kMaxWitnessSteps; }

  /// Every excursion witnessed as far as step 1 allows.
  bool done() const {
    return llvm::all_of(excursions_, [](const Excursion &e) {
      return e.witnessed && *e.witnessed == e.bound;
    });
  }

  /// The value of a loop bound (max of lower, min of upper results).
  std::optional<int64_t> loopBound(AffineMap map, ArrayRef<Value> operands,
                                   bool lower) {
    SmallVector<int64_t> values;
    for (Value operand : operands) {
      std::optional<int64_t> v = evaluator_.value(operand);
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    }
    ArrayRef<int64_t> all(values);
    std::optional<int64_t> best;
    for (AffineExpr result : map.getResults()) {
      std::optional<int64_t> v =
          evaluateAffineOn(result, all, map.getNumDims());
      if (!v)
        return std::nullopt;
      if (!best || (lower ? *v > *best : *v < *best))
        best = v;
    }
    return best;
  }

  /// Whether the guard of `scope` lets the access run at this point.
  std::optional<bool> guardHolds(const Scope &scope) {
    bool holds;
    if (scope.kind == Scope::If) {
      std::optional<int64_t> cond =
          evaluator_.value(cast<scf::IfOp>(scope.op).getCondition());
      if (!cond)
        return std::nullopt;
      holds = *cond != 0;
    } else {
      auto ifOp = cast<affine::AffineIfOp>(scope.op);
      IntegerSet set = ifOp.getIntegerSet();
      SmallVector<int64_t> values;
      for (Value operand : ifOp.getOperands()) {
        std::optional<int64_t> v = evaluator_.value(operand);
        if (!v)
          return std::nullopt;
        values.push_back(*v);
      }
      holds = true;
      for (auto [constraint, isEq] :
           llvm::zip(set.getConstraints(), set.getEqFlags())) {
        std::optional<int64_t> v =
            evaluateAffineOn(constraint, values, set.getNumDims());
        if (!v)
          return std::nullopt;
        holds = holds && (isEq ? *v == 0 : *v >= 0);
      }
    }
    return holds == scope.thenBranch;
  }

  /// Checks the access at the current point.
  void visit() {
    for (auto [index, excursion] : llvm::zip(indices_, excursions_)) {
      SmallVector<int64_t> values;
      bool known = true;
      for (Value operand : index.operands) {
        std::optional<int64_t> v = evaluator_.value(operand);
        if (!v) {
          known = false;
          break;
        }
        values.push_back(*v);
      }
      if (!known)
        continue;
      std::optional<int64_t> v = evaluateAffineOn(
          index.map.getResult(0), values, index.map.getNumDims());
      if (!v)
        continue;
      if (excursion.over) {
        int64_t last = *v + index.extent - 1;
        if (last >= index.size &&
            (!excursion.witnessed || last > *excursion.witnessed))
          excursion.witnessed = last;
      } else if (*v < 0 &&
                 (!excursion.witnessed || *v < *excursion.witnessed)) {
        excursion.witnessed = *v;
      }
    }
  }

  /// The order in which the n values of a level are tried: both ends first.
  static int64_t nth(int64_t k, int64_t n) {
    return k % 2 == 0 ? n - 1 - k / 2 : k / 2;
  }

  void search(unsigned depth) {
    if (done() || exhausted())
      return;
    ++steps_;
    evaluator_.reset();
    if (depth == levels_.size())
      return visit();
    Level &level = levels_[depth];
    if (level.kind == Level::Guard) {
      std::optional<bool> holds = guardHolds(*level.scope);
      if (holds && *holds)
        search(depth + 1);
      return;
    }
    int64_t first = 0, step = 1, count;
    if (level.kind == Level::Id) {
      count = *info_.extent(level.id);
    } else {
      std::optional<int64_t> lb = loopBound(
          level.bounds->lower, level.bounds->lowerOperands, /*lower=*/true);
      std::optional<int64_t> ub = loopBound(
          level.bounds->upper, level.bounds->upperOperands, /*lower=*/false);
      std::optional<int64_t> s = getConstantIntValue(level.bounds->step);
      if (!s)
        s = evaluator_.value(cast<Value>(level.bounds->step));
      if (!lb || !ub || !s || *s <= 0)
        return;
      first = *lb;
      step = *s;
      count = *ub > *lb ? (*ub - *lb - 1) / *s + 1 : 0;
    }
    // An iteration nothing reads the induction variable of only needs to
    // exist.
    int64_t tries = !level.used    ? std::min<int64_t>(count, 1)
                    : cornersOnly_ ? std::min<int64_t>(count, 2)
                                   : count;
    for (int64_t k = 0; k < tries && !done() && !exhausted(); ++k) {
      int64_t value = first + nth(k, count) * step;
      if (level.kind == Level::Id)
        evaluator_.ids[level.id] = value;
      else
        evaluator_.ivs[level.iv] = value;
      evaluator_.reset();
      search(depth + 1);
    }
  }

  const KernelInfo &info_;
  ArrayRef<Scope> scopes_;
  ArrayRef<Index> indices_;
  SmallVectorImpl<Excursion> &excursions_;
  Evaluator evaluator_;
  SmallVector<Level> levels_;
  bool cornersOnly_ = true;
  int64_t steps_ = 0;
};

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

/// Checks the accesses of one kernel; stops at its first finding or when
/// `deadline` passes. False when the deadline passed.
bool checkKernel(const Kernel &kernel,
                 std::chrono::steady_clock::time_point deadline,
                 std::vector<IrFinding> &out) {
  KernelInfo info = kernelInfo(kernel);
  Intervals intervals(info);
  Evaluability evaluable(info);
  std::map<BoundKey, std::optional<int64_t>> bounds;
  bool inTime = true;
  kernel.body->walk([&](Operation *op) -> WalkResult {
    std::optional<Access> access = accessOf(op);
    if (!access)
      return WalkResult::advance();
    if (std::chrono::steady_clock::now() > deadline) {
      inTime = false;
      return WalkResult::interrupt();
    }
    std::optional<SmallVector<Scope, 6>> scopes = scopesOf(op, kernel);
    if (!scopes)
      return WalkResult::advance();

    // Step 1: intervals settle most indices. Those they do not are in
    // doubt, unless no execution could be evaluated (an index computed from
    // loaded values): step 3 could then never confirm a finding.
    SmallVector<GuardFact> facts;
    for (const Scope &scope : *scopes)
      if (scope.kind == Scope::If)
        intervals.assume(cast<scf::IfOp>(scope.op).getCondition(),
                         scope.thenBranch, facts);
    SmallVector<Index> suspicious;
    SmallVector<Excursion> excursions;
    for (const Index &index : access->indices) {
      if (!llvm::all_of(index.operands,
                        [&](Value v) { return evaluable.of(v); }))
        continue;
      std::optional<Range> range = intervals.ofIndex(index, facts);
      if (range && range->hi < range->lo)
        return WalkResult::advance(); // Never executed (an empty loop).
      if (!range || range->hi + index.extent > index.size) {
        suspicious.push_back(index);
        excursions.push_back({true, 0, {}});
      }
      if (!range || range->lo < 0) {
        suspicious.push_back(index);
        excursions.push_back({false, 0, {}});
      }
    }
    if (suspicious.empty())
      return WalkResult::advance();

    // Step 2: bounds, with the enclosing guards, of what is in doubt. The
    // guards are those of the access's block: bounds are shared by the
    // accesses of a block that use the same index.
    auto keyOf = [&](const Index &index, const Excursion &excursion) {
      BoundKey key = {op->getBlock(), index.map.getAsOpaquePointer(),
                      reinterpret_cast<const void *>(
                          static_cast<uintptr_t>(excursion.over))};
      for (Value operand : index.operands)
        key.push_back(operand.getAsOpaquePointer());
      return key;
    };
    SmallVector<unsigned> uncached;
    for (unsigned i = 0; i < suspicious.size(); ++i)
      if (!bounds.count(keyOf(suspicious[i], excursions[i])))
        uncached.push_back(i);
    if (!uncached.empty()) {
      unsigned visited = 0;
      AccessConstraints constraints(op->getContext(), info, visited);
      SmallVector<int64_t> columns;
      for (unsigned i : uncached)
        columns.push_back(
            constraints.addIndex(suspicious[i].map, suspicious[i].operands));
      for (const Scope &scope : *scopes)
        if (scope.kind == Scope::If)
          constraints.assume(cast<scf::IfOp>(scope.op).getCondition(),
                             scope.thenBranch);
      for (auto [i, column] : llvm::zip(uncached, columns))
        bounds[keyOf(suspicious[i], excursions[i])] = constraints.constantBound(
            excursions[i].over ? BoundType::UB : BoundType::LB, column);
    }
    unsigned kept = 0;
    for (unsigned i = 0; i < suspicious.size(); ++i) {
      Excursion &excursion = excursions[i];
      std::optional<int64_t> bound = bounds[keyOf(suspicious[i], excursion)];
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
    if (suspicious.empty())
      return WalkResult::advance();

    // Step 3: a witness.
    WitnessSearch search(info, *scopes, suspicious, excursions);
    if (!search.run())
      return WalkResult::advance();
    for (auto [index, excursion] : llvm::zip(suspicious, excursions)) {
      if (!excursion.witnessed)
        continue;
      out.push_back({Verdict::OutOfBounds, kernel.name,
                     describe(*access, index, *excursion.witnessed),
                     op->getLoc()});
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return inTime;
}

} // namespace

std::vector<IrFinding> checkOutOfBounds(Operation *root) {
  std::vector<IrFinding> out;
  auto deadline = std::chrono::steady_clock::now() + kTimeBudget;
  for (const Kernel &kernel : collectKernels(root)) {
    // Device functions run only if called: their accesses are left to the
    // kernels that call them.
    if (!kernel.isEntry)
      continue;
    if (!checkKernel(kernel, deadline, out))
      return out;
  }
  for (const Kernel &loop : collectMappedLoops(root))
    if (!checkKernel(loop, deadline, out))
      return out;
  return out;
}

std::vector<IrFinding> checkOutOfBounds(ModuleOp module) {
  return checkOutOfBounds(module.getOperation());
}

} // namespace sift::oracle
