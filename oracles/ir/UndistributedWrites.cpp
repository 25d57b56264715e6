//===- UndistributedWrites.cpp - Writes every thread makes alike ----------===//
//
// The undistributed-write oracle of IrChecks.h: in a kernel of more than one
// thread, a write to global or workgroup memory whose address is the same for
// every thread is a race (and, when the values differ, a wrong result that
// depends on scheduling). "Same for every thread" is the absence of thread
// dependence, computed by ThreadDependence below: a forward propagation over
// SSA def-use, structured control flow and CFG branches, from thread ids to a
// fixed point, of the set of block dimensions (x, y, z) each value depends
// on. A write is distributed when its address, together with the
// single-thread guards around it, covers every dimension of more than one
// thread. A backward slice per store (SliceAnalysis) would stop at block
// arguments without saying which launch argument or loop value it met, and
// would be quadratic in the number of stores; the forward pass is linear per
// sweep and answers every write of the kernel at once.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/IrChecks.h"

#include "oracles/ir/Kernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

using namespace mlir;
using namespace sift::oracle::detail;

namespace sift::oracle {

namespace {

/// Sets of block dimensions: bit d for dimension d (x = 0, y = 1, z = 2).
using Dims = unsigned;
constexpr Dims kAllDims = 0b111;

/// "x", "x, z", ...
std::string describeDims(Dims dims) {
  std::string out;
  for (unsigned d = 0; d < 3; ++d)
    if (dims & (1u << d))
      out += std::string(out.empty() ? "" : ", ") + "xyz"[d];
  return out;
}

/// Which values of one kernel differ between the threads of a workgroup, and
/// along which dimensions of the block.
class ThreadDependence {
public:
  ThreadDependence(const Kernel &kernel, std::array<int64_t, 3> block)
      : kernel_(kernel) {
    for (unsigned d = 0; d < 3; ++d)
      if (block[d] > 1)
        varying_ |= 1u << d;
    seed();
    while (sweep()) {
    }
  }

  /// The dimensions of more than one thread.
  Dims varying() const { return varying_; }

  /// The dimensions along which `value` differs between threads.
  Dims dims(Value value) const {
    auto it = dims_.find(value);
    return it == dims_.end() ? 0 : it->second;
  }
  Dims dims(ValueRange values) const {
    Dims out = 0;
    for (Value value : values)
      out |= dims(value);
    return out;
  }
  bool depends(Value value) const { return dims(value) != 0; }

private:
  void mark(Value value, Dims added) {
    added &= varying_;
    if (!value || !added)
      return;
    Dims &slot = dims_[value];
    if ((slot | added) != slot) {
      slot |= added;
      changed_ = true;
    }
  }
  void markAll(ValueRange values, Dims added) {
    for (Value value : values)
      mark(value, added);
  }
  /// The bit of block dimension `dimension` (all for out-of-range ones).
  static Dims bit(int64_t dimension) {
    return dimension >= 0 && dimension < 3 ? 1u << dimension : kAllDims;
  }

  void seed();
  bool sweep();
  void visitBranch(BranchOpInterface branch);
  void visitRegionOp(Operation *op);
  /// The dimensions of the values that terminators (without successors) of
  /// `op`'s regions yield.
  Dims yielded(Operation *op) const;

  const Kernel &kernel_;
  Dims varying_ = 0;
  llvm::DenseMap<Value, Dims> dims_;
  llvm::DenseMap<Operation *, Dims> divergentBranches_;
  bool changed_ = false;
};

void ThreadDependence::seed() {
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel_.op)) {
    gpu::KernelDim3 ids = launch.getThreadIds();
    mark(ids.x, bit(0));
    mark(ids.y, bit(1));
    mark(ids.z, bit(2));
  }
  kernel_.body->walk([&](Operation *op) {
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
      mark(tid, bit(static_cast<int64_t>(tid.getDimension())));
    } else if (auto gid = dyn_cast<gpu::GlobalIdOp>(op)) {
      mark(gid, bit(static_cast<int64_t>(gid.getDimension())));
    } else if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op) ||
               op->getName().getStringRef() == "llvm.atomicrmw") {
      // Each thread gets the value before its own update: an atomic's
      // result tells threads apart (a slot taken from a counter).
      mark(op->getResult(0), kAllDims);
    } else if (isa<gpu::LaneIdOp>(op)) {
      // A lane id is a linear id modulo the warp size: taken as depending on
      // every dimension (see the limitations in IrChecks.h).
      mark(op->getResult(0), kAllDims);
    } else if (auto parallel = dyn_cast<scf::ParallelOp>(op)) {
      auto mapping = op->getAttrOfType<ArrayAttr>("mapping");
      if (!mapping)
        return;
      for (auto [i, attr] : llvm::enumerate(mapping)) {
        auto dim = dyn_cast<gpu::ParallelLoopDimMappingAttr>(attr);
        if (!dim || i >= parallel.getInductionVars().size())
          continue;
        auto processor = static_cast<int64_t>(dim.getProcessor());
        auto threadX = static_cast<int64_t>(gpu::Processor::ThreadX);
        auto threadZ = static_cast<int64_t>(gpu::Processor::ThreadZ);
        if (processor >= threadX && processor <= threadZ)
          mark(parallel.getInductionVars()[i], bit(processor - threadX));
      }
    } else if (auto forall = dyn_cast<scf::ForallOp>(op)) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (!mapping)
        return;
      for (auto [i, attr] : llvm::enumerate(*mapping)) {
        if (i >= forall.getInductionVars().size())
          break;
        Value iv = forall.getInductionVars()[i];
        if (auto thread = dyn_cast<gpu::GPUThreadMappingAttr>(attr))
          mark(iv, thread.isLinearMapping() ? kAllDims
                                            : bit(thread.getMappingId()));
        else if (isa<gpu::GPULaneMappingAttr>(attr))
          mark(iv, kAllDims);
      }
    } else if (op->getNumResults() == 1) {
      // Thread ids already lowered to NVVM / ROCDL.
      StringRef name = op->getName().getStringRef();
      if (name == "nvvm.read.ptx.sreg.laneid") {
        mark(op->getResult(0), kAllDims);
        return;
      }
      for (StringRef prefix : {"nvvm.read.ptx.sreg.tid.", "rocdl.workitem.id."})
        if (name.starts_with(prefix)) {
          StringRef suffix = name.drop_front(prefix.size());
          mark(op->getResult(0), suffix == "x"   ? bit(0)
                                 : suffix == "y" ? bit(1)
                                 : suffix == "z" ? bit(2)
                                                 : kAllDims);
        }
    }
  });
}

bool ThreadDependence::sweep() {
  changed_ = false;
  kernel_.body->walk([&](Operation *op) {
    if (op->getNumRegions() != 0) {
      visitRegionOp(op);
      return;
    }
    markAll(op->getResults(), dims(op->getOperands()));
    if (auto branch = dyn_cast<BranchOpInterface>(op))
      visitBranch(branch);
  });
  return changed_;
}

void ThreadDependence::visitBranch(BranchOpInterface branch) {
  Operation *op = branch.getOperation();
  llvm::SmallVector<bool> forwarded(op->getNumOperands(), false);
  for (unsigned i = 0, e = op->getNumSuccessors(); i < e; ++i) {
    SuccessorOperands operands = branch.getSuccessorOperands(i);
    Block *dest = op->getSuccessor(i);
    OperandRange values = operands.getForwardedOperands();
    unsigned produced = operands.getProducedOperandCount();
    for (unsigned j = 0; j < values.size(); ++j) {
      forwarded[values.getBeginOperandIndex() + j] = true;
      if (produced + j < dest->getNumArguments())
        mark(dest->getArgument(produced + j), dims(values[j]));
    }
  }
  if (op->getNumSuccessors() < 2)
    return;
  Dims condition = 0;
  for (OpOperand &operand : op->getOpOperands())
    if (!forwarded[operand.getOperandNumber()])
      condition |= dims(operand.get());
  Dims &done = divergentBranches_[op];
  if ((done | condition) == done)
    return;
  done |= condition;
  // Threads part ways here: any block they may reach again together
  // receives values that differ per thread (a conservative stand-in for the
  // iterated dominance frontier).
  llvm::SmallPtrSet<Block *, 8> seen;
  llvm::SmallVector<Block *> work(op->getSuccessors().begin(),
                                  op->getSuccessors().end());
  while (!work.empty()) {
    Block *block = work.pop_back_val();
    if (!seen.insert(block).second)
      continue;
    markAll(block->getArguments(), condition);
    for (Block *next : block->getSuccessors())
      work.push_back(next);
  }
}

Dims ThreadDependence::yielded(Operation *op) const {
  Dims out = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (!block.empty() && block.back().getNumSuccessors() == 0 &&
          block.back().hasTrait<OpTrait::IsTerminator>())
        out |= dims(block.back().getOperands());
  return out;
}

void ThreadDependence::visitRegionOp(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    Dims control = dims(loop.getLowerBound()) | dims(loop.getUpperBound()) |
                   dims(loop.getStep());
    mark(loop.getInductionVar(), control);
    Operation *yield = loop.getBody()->getTerminator();
    for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i) {
      Dims carried =
          control | dims(loop.getInitArgs()[i]) | dims(yield->getOperand(i));
      mark(loop.getRegionIterArgs()[i], carried);
      mark(loop.getResult(i), carried);
    }
    return;
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    scf::ConditionOp condition = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();
    Block *before = loop.getBeforeBody();
    Block *after = loop.getAfterBody();
    // A trip count that differs per thread makes every carried value differ.
    Dims control = dims(condition.getCondition());
    for (unsigned i = 0, e = loop.getInits().size(); i < e; ++i)
      mark(before->getArgument(i),
           control | dims(loop.getInits()[i]) |
               (i < yield.getNumOperands() ? dims(yield.getOperand(i)) : 0));
    for (auto [i, value] : llvm::enumerate(condition.getArgs())) {
      mark(after->getArgument(i), control | dims(value));
      mark(loop.getResult(i), control | dims(value));
    }
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    Dims control = dims(branch.getCondition());
    for (unsigned i = 0, e = branch.getNumResults(); i < e; ++i) {
      Dims result = control;
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          result |= dims(region->front().getTerminator()->getOperand(i));
      mark(branch.getResult(i), result);
    }
    return;
  }
  Dims operands = dims(op->getOperands());
  if (auto parallel = dyn_cast<scf::ParallelOp>(op)) {
    for (unsigned i = 0, e = parallel.getNumLoops(); i < e; ++i)
      mark(parallel.getInductionVars()[i],
           dims(parallel.getLowerBound()[i]) |
               dims(parallel.getUpperBound()[i]) | dims(parallel.getStep()[i]));
    markAll(op->getResults(), operands | yielded(op));
    return;
  }
  if (auto forall = dyn_cast<scf::ForallOp>(op)) {
    markAll(forall.getInductionVars(), operands);
    markAll(op->getResults(), operands | yielded(op));
    return;
  }
  // Any other region op: coarse but on the safe side.
  Dims all = operands | yielded(op);
  markAll(op->getResults(), all);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      markAll(block.getArguments(), all);
}

/// Where a written memref lives, as far as races go.
enum class Target { Global, Workgroup, PerThread };

Target classify(Value memref, const Kernel &kernel) {
  Value value = memref;
  for (int step = 0; step < 64; ++step) {
    if (memoryKindOf(value.getType()) == MemoryKind::Private)
      return Target::PerThread;
    Operation *def = value.getDefiningOp();
    if (!def)
      break;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::MemorySpaceCastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    break;
  }
  bool workgroup = memoryKindOf(value.getType()) == MemoryKind::Workgroup;
  if (Operation *def = value.getDefiningOp()) {
    if (!kernel.op->isProperAncestor(def)) // Captured by a gpu.launch.
      return workgroup ? Target::Workgroup : Target::Global;
    if (isa<memref::AllocaOp>(def))
      return workgroup ? Target::Workgroup : Target::PerThread;
    // A heap buffer per thread (a malloc-in-kernel finding of its own).
    if (isa<memref::AllocOp, memref::ReallocOp>(def))
      return Target::PerThread;
  } else if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel.op)) {
    for (BlockArgument attribution : func.getPrivateAttributions())
      if (attribution == value)
        return Target::PerThread;
  }
  return workgroup ? Target::Workgroup : Target::Global;
}

/// The operands that say where `op` writes, other than the memref itself.
/// For unknown ops: every operand (no finding is better than a wrong one).
OperandRange addressOperands(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getIndices();
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return store.getIndices();
  if (auto store = dyn_cast<vector::MaskedStoreOp>(op))
    return store.getIndices();
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return write.getIndices();
  if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    return store.getMapOperands();
  if (isa<memref::CopyOp, DestinationStyleOpInterface>(op))
    return op->getOperands().take_front(0);
  return op->getOperands();
}

/// The block dimensions that `condition` pins to one thread when it holds
/// (`onTrue`) or fails: `tid == c`, `tid < 1`, `tid <= 0`, conjunctions of
/// them; `tid != c` and disjunctions of them on the false side. A pinned
/// value pins every dimension it depends on.
Dims pinnedDims(Value condition, bool onTrue, const ThreadDependence &threads,
                int depth = 0) {
  if (!condition || depth > 8)
    return 0;
  if (onTrue) {
    if (auto conjunction = condition.getDefiningOp<arith::AndIOp>())
      return pinnedDims(conjunction.getLhs(), true, threads, depth + 1) |
             pinnedDims(conjunction.getRhs(), true, threads, depth + 1);
  } else if (auto disjunction = condition.getDefiningOp<arith::OrIOp>()) {
    return pinnedDims(disjunction.getLhs(), false, threads, depth + 1) |
           pinnedDims(disjunction.getRhs(), false, threads, depth + 1);
  }
  auto compare = condition.getDefiningOp<arith::CmpIOp>();
  if (!compare)
    return 0;
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  using P = arith::CmpIPredicate;
  P predicate = compare.getPredicate();
  if (predicate == (onTrue ? P::eq : P::ne)) {
    // One side uniform, the other thread-dependent.
    Dims l = threads.dims(lhs), r = threads.dims(rhs);
    return (l == 0) != (r == 0) ? (l | r) : 0;
  }
  std::optional<int64_t> bound = evaluateConstant(rhs);
  if (!onTrue || !bound)
    return 0;
  if (((predicate == P::ult || predicate == P::slt) && *bound == 1) ||
      ((predicate == P::ule || predicate == P::sle) && *bound == 0))
    return threads.dims(lhs);
  return 0;
}

/// Checks the writes of one kernel entry of known block size.
class WriteChecker {
public:
  WriteChecker(const Kernel &kernel, std::array<int64_t, 3> block)
      : kernel_(kernel), block_(block), threads_(kernel, block) {}

  void run(std::vector<IrFinding> &out) {
    kernel_.body->walk([&](Operation *op) {
      if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op))
        return;
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects)
        return;
      llvm::SmallVector<MemoryEffects::EffectInstance> list;
      effects.getEffects(list);
      for (const MemoryEffects::EffectInstance &effect : list) {
        if (!isa<MemoryEffects::Write>(effect.getEffect()))
          continue;
        OpOperand *operand = effect.getEffectValue<OpOperand *>();
        if (!operand || !isa<BaseMemRefType>(operand->get().getType()))
          continue;
        Target target = classify(operand->get(), kernel_);
        if (target == Target::PerThread)
          continue;
        Dims address =
            threads_.dims(operand->get()) | threads_.dims(addressOperands(op));
        if ((address & threads_.varying()) == threads_.varying())
          continue;
        Dims covered = address | guardedDims(op);
        if ((covered & threads_.varying()) == threads_.varying())
          continue;
        out.push_back({Verdict::UndistributedWrite, kernel_.name,
                       describe(op, target, address), op->getLoc()});
        break;
      }
    });
  }

private:
  std::string describe(Operation *op, Target target, Dims address) const {
    std::string block = std::to_string(block_[0]) + "x" +
                        std::to_string(block_[1]) + "x" +
                        std::to_string(block_[2]);
    std::string message =
        op->getName().getStringRef().str() + " writes " +
        (target == Target::Workgroup ? "workgroup" : "global") +
        " memory at an address that ";
    if (address == 0)
      return message + "does not depend on the thread id, in a block of " +
             block + " threads: every thread writes the same location";
    return message + "depends on the thread id along " + describeDims(address) +
           " only, in a block of " + block +
           " threads: threads that differ along " +
           describeDims(threads_.varying() & ~address) +
           " write the same location";
  }

  /// The dimensions pinned by the single-thread guards the write runs
  /// under: enclosing `scf.if`s, and `cf.cond_br` edges into blocks that
  /// dominate it.
  Dims guardedDims(Operation *op) {
    Dims pinned = 0;
    for (Operation *current = op; current && current != kernel_.op;
         current = current->getParentOp()) {
      Region *region = current->getParentRegion();
      if (!region)
        break;
      if (auto branch = dyn_cast<scf::IfOp>(region->getParentOp()))
        pinned |= pinnedDims(branch.getCondition(),
                             region == &branch.getThenRegion(), threads_);
      if (!region->hasOneBlock())
        pinned |= guardedDimsInCfg(current->getBlock());
    }
    return pinned;
  }

  Dims guardedDimsInCfg(Block *block) {
    if (!dominance_)
      dominance_ = std::make_unique<DominanceInfo>(kernel_.op);
    Dims pinned = 0;
    for (Block *current = block; current;) {
      if (Block *pred = current->getSinglePredecessor()) {
        if (auto branch = dyn_cast<cf::CondBranchOp>(pred->getTerminator())) {
          bool onTrue = branch.getTrueDest() == current;
          bool onFalse = branch.getFalseDest() == current;
          if (onTrue != onFalse)
            pinned |= pinnedDims(branch.getCondition(), onTrue, threads_);
        }
      }
      DominanceInfoNode *node = dominance_->getNode(current);
      if (!node || !node->getIDom())
        break;
      current = node->getIDom()->getBlock();
    }
    return pinned;
  }

  const Kernel &kernel_;
  std::array<int64_t, 3> block_;
  ThreadDependence threads_;
  std::unique_ptr<DominanceInfo> dominance_;
};

} // namespace

void detail::checkUndistributedWritesIn(const Kernel &kernel,
                                        std::vector<IrFinding> &out) {
  if (!kernel.isEntry || !kernel.blockSize)
    return;
  std::array<int64_t, 3> block = *kernel.blockSize;
  if (block[0] * block[1] * block[2] <= 1)
    return;
  WriteChecker(kernel, block).run(out);
}

std::vector<IrFinding> checkUndistributedWrites(Operation *root) {
  std::vector<IrFinding> out;
  for (const Kernel &kernel : collectKernels(root))
    checkUndistributedWritesIn(kernel, out);
  return out;
}

std::vector<IrFinding> checkUndistributedWrites(ModuleOp module) {
  return checkUndistributedWrites(module.getOperation());
}

} // namespace sift::oracle
