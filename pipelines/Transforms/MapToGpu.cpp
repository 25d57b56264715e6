//===- MapToGpu.cpp - Apply lowering configs to parallel loops ------------===//
//
// The "apply" half for loops: each scf.parallel carrying a
// #sift.lowering_config is tiled into a workgroup loop, a thread loop and,
// when a thread computes more than one point, a per-thread loop, and gets
// GPU mapping attributes (innermost dimension on x). Upstream's
// convert-parallel-loops-to-gpu then turns the nest into a gpu.launch.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "sift-map-to-gpu"

namespace sift {
#define GEN_PASS_DEF_MAPTOGPU
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// Maps the loop's dimensions to `first` + 0/1/2 for the innermost three
/// (x = innermost) and sequential for the rest; `first` = BlockX, ThreadX or
/// Sequential (all sequential).
LogicalResult mapLoop(scf::ParallelOp loop, gpu::Processor first) {
  MLIRContext *context = loop.getContext();
  int64_t rank = loop.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t axis = rank - 1 - d;
    gpu::Processor processor = gpu::Processor::Sequential;
    if (first != gpu::Processor::Sequential && axis < 3)
      processor = static_cast<gpu::Processor>(static_cast<uint64_t>(first) +
                                              axis);
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        context, processor, identity, identity));
  }
  return gpu::setMappingAttr(loop, mapping);
}

/// `sizes` padded with 1s (or cut) to `rank` entries.
SmallVector<int64_t> fitted(ArrayRef<int64_t> sizes, int64_t rank) {
  SmallVector<int64_t> result(sizes.begin(), sizes.end());
  result.resize(rank, 1);
  return result;
}

/// Fault dist-undistributed-write: at the end of the thread loop body, every
/// thread of the workgroup stores its own first thread index, converted to
/// the element type, to the first element of the first buffer the nest
/// stores to: an address that does not depend on the thread, so the threads
/// race and the element ends up with whichever index was written last
/// (convert-parallel-loops-to-gpu allows no side effects between the
/// workgroup and the thread loop, so the write sits in the latter).
void injectUndistributedWrite(scf::ParallelOp workgroups,
                              scf::ParallelOp threads) {
  // The first store to a whole, non-empty buffer (static, identity layout)
  // defined outside the nest, so the kernel still takes plain buffers.
  memref::StoreOp store;
  threads.walk([&](memref::StoreOp s) {
    auto type = cast<MemRefType>(s.getMemRef().getType());
    if (!store && type.hasStaticShape() && type.getNumElements() > 0 &&
        type.getLayout().isIdentity() &&
        !workgroups.getRegion().isAncestor(s.getMemRef().getParentRegion()))
      store = s;
  });
  if (!store)
    return;
  Value buffer = store.getMemRef();
  auto type = cast<MemRefType>(buffer.getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return;
  OpBuilder b = OpBuilder::atBlockTerminator(threads.getBody());
  Location loc = threads.getLoc();
  Value thread = threads.getInductionVars().front();
  Value asInt = arith::IndexCastOp::create(
      b, loc,
      isa<IntegerType>(element) ? element : Type(b.getI64Type()), thread);
  Value value = isa<FloatType>(element)
                    ? Value(arith::SIToFPOp::create(b, loc, element, asInt))
                    : asInt;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> first(type.getRank(), zero);
  memref::StoreOp::create(b, loc, value, buffer, first);
}

/// The parallel-loop processor of a forall mapping attribute.
std::optional<gpu::Processor> processorOf(Attribute attr) {
  if (auto block = dyn_cast<gpu::GPUBlockMappingAttr>(attr))
    return static_cast<gpu::Processor>(
        static_cast<uint64_t>(gpu::Processor::BlockX) +
        static_cast<uint64_t>(block.getMappingId()) -
        static_cast<uint64_t>(gpu::MappingId::DimX));
  if (auto thread = dyn_cast<gpu::GPUThreadMappingAttr>(attr))
    return static_cast<gpu::Processor>(
        static_cast<uint64_t>(gpu::Processor::ThreadX) +
        static_cast<uint64_t>(thread.getMappingId()) -
        static_cast<uint64_t>(gpu::MappingId::DimX));
  return std::nullopt;
}

/// A bufferized scf.forall mapped to blocks or threads becomes an
/// scf.parallel with the same bounds, body and mapping.
LogicalResult forallToParallel(RewriterBase &rewriter, scf::ForallOp forall) {
  if (forall.getNumResults() != 0)
    return forall.emitOpError("must be bufferized before sift-map-to-gpu");
  std::optional<ArrayAttr> mappingAttr = forall.getMapping();
  if (!mappingAttr || mappingAttr->size() != forall.getRank())
    return forall.emitOpError("needs a GPU mapping for every dimension");
  MLIRContext *context = forall.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (Attribute attr : *mappingAttr) {
    std::optional<gpu::Processor> processor = processorOf(attr);
    if (!processor)
      return forall.emitOpError("has a mapping that is neither #gpu.block "
                                "nor #gpu.thread: ")
             << attr;
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        context, *processor, identity, identity));
  }
  Location loc = forall.getLoc();
  rewriter.setInsertionPoint(forall);
  auto values = [&](ArrayRef<OpFoldResult> folds) {
    SmallVector<Value> result;
    for (OpFoldResult fold : folds)
      result.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, fold));
    return result;
  };
  // Launch sizes must be constant: a partial tile's bound (an affine.min)
  // becomes its constant maximum, and the body is guarded by the real bound.
  SmallVector<Value> uppers = values(forall.getMixedUpperBound());
  SmallVector<Value> guards(uppers.size());
  for (auto [i, upper] : llvm::enumerate(uppers)) {
    if (getConstantIntValue(upper))
      continue;
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(upper),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound))
      return forall.emitOpError("has a bound with no constant maximum; the "
                                "launch size would not be constant");
    guards[i] = upper;
    upper = arith::ConstantIndexOp::create(rewriter, loc, *bound);
  }
  auto loop = scf::ParallelOp::create(
      rewriter, loc, values(forall.getMixedLowerBound()), uppers,
      values(forall.getMixedStep()));
  Block *from = forall.getBody();
  Block *to = loop.getBody();
  for (auto [oldIv, newIv] :
       llvm::zip(from->getArguments(), to->getArguments()))
    rewriter.replaceAllUsesWith(oldIv, newIv);
  rewriter.eraseOp(from->getTerminator());
  Block *target = to;
  Value inBounds;
  rewriter.setInsertionPointToStart(to);
  for (auto [i, guard] : llvm::enumerate(guards)) {
    if (!guard)
      continue;
    Value below = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::slt,
                                        to->getArgument(i), guard);
    inBounds = inBounds ? arith::AndIOp::create(rewriter, loc, inBounds, below)
                                .getResult()
                        : below;
  }
  if (inBounds) {
    auto ifOp = scf::IfOp::create(rewriter, loc, inBounds,
                                  /*withElseRegion=*/false);
    target = ifOp.thenBlock();
  }
  target->getOperations().splice(Block::iterator(target->getTerminator()),
                                 from->getOperations());
  rewriter.eraseOp(forall);
  return gpu::setMappingAttr(loop, mapping);
}

struct MapToGpuPass final : sift::impl::MapToGpuBase<MapToGpuPass> {
  using MapToGpuBase::MapToGpuBase;

  void runOnOperation() override {
    // Mapped foralls (tileandfuse), innermost first.
    SmallVector<scf::ForallOp> foralls;
    getOperation().walk([&](scf::ForallOp forall) { foralls.push_back(forall); });
    IRRewriter forallRewriter(&getContext());
    for (scf::ForallOp forall : foralls)
      if (failed(forallToParallel(forallRewriter, forall)))
        return signalPassFailure();

    SmallVector<scf::ParallelOp> loops;
    WalkResult walk = getOperation().walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->hasAttr(gpu::getMappingAttrName()))
        return WalkResult::advance();
      if (!loop->hasAttr("sift.lowering_config")) {
        loop.emitError("parallel loop has no sift.lowering_config; strategy "
                       "selection must see every op");
        return WalkResult::interrupt();
      }
      loops.push_back(loop);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    for (scf::ParallelOp loop : loops) {
      auto config =
          loop->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      if (!config) {
        loop.emitError("sift.lowering_config is not a #sift.lowering_config");
        return signalPassFailure();
      }
      int64_t rank = loop.getNumLoops();
      if (static_cast<int64_t>(config.getWorkgroupTile().size()) > rank) {
        loop.emitError("the lowering config tiles ")
            << config.getWorkgroupTile().size() << " dimensions but the loop "
            << "has " << rank;
        return signalPassFailure();
      }
      SmallVector<int64_t> workgroupTile =
          fitted(config.getWorkgroupTile().asArrayRef(), rank);
      SmallVector<int64_t> threadTile =
          fitted(config.getThreadTile().asArrayRef(), rank);
      auto [workgroups, inWorkgroup] =
          scf::tileParallelLoop(loop, workgroupTile, /*noMinMaxBounds=*/true);
      workgroups->removeAttr("sift.lowering_config");
      scf::ParallelOp threads = inWorkgroup;
      scf::ParallelOp perThread;
      if (llvm::any_of(threadTile, [](int64_t t) { return t > 1; })) {
        auto [threadLoop, pointLoop] = scf::tileParallelLoop(
            inWorkgroup, threadTile, /*noMinMaxBounds=*/true);
        threads = threadLoop;
        perThread = pointLoop;
      }
      if (injectUndistributedWrite)
        ::injectUndistributedWrite(workgroups, threads);
      if (failed(mapLoop(workgroups, gpu::Processor::BlockX)) ||
          failed(mapLoop(threads, gpu::Processor::ThreadX)) ||
          (perThread &&
           failed(mapLoop(perThread, gpu::Processor::Sequential)))) {
        loop.emitError("cannot map the tiled loops to the GPU");
        return signalPassFailure();
      }
    }
    // Fold the tiles' bound arithmetic to constants (launch sizes must be
    // constant) without canonicalizing the loops themselves, which would
    // inline one-iteration loops and drop their mapping.
    RewritePatternSet noPatterns(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(noPatterns))))
      return signalPassFailure();
  }
};

} // namespace
