//===- PromoteTemporaries.cpp - Per-thread temporaries in private memory ---===//
//
// The memory-space policy of the tileandfuse pipeline: a heap allocation
// inside a thread-mapped loop is a per-thread temporary and belongs in
// private memory (a memref.alloca), never on a kernel's heap (malloc).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define DEBUG_TYPE "sift-promote-temporaries"

namespace sift {
#define GEN_PASS_DEF_PROMOTETEMPORARIES
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// True when `op` sits inside an scf.forall mapped to GPU threads.
bool insideThreadLoop(Operation *op) {
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>()) {
    std::optional<ArrayAttr> mapping = forall.getMapping();
    if (mapping && llvm::any_of(*mapping, [](Attribute attr) {
          return isa<gpu::GPUThreadMappingAttr>(attr);
        }))
      return true;
  }
  return false;
}

/// Replaces every use of `from` by `to` (same shape, another memory space):
/// views are rebuilt on `to` so their types carry the new space; other
/// users take the buffer as it is.
LogicalResult retarget(RewriterBase &rewriter, Value from, Value to) {
  for (OpOperand &use : llvm::make_early_inc_range(from.getUses())) {
    Operation *user = use.getOwner();
    if (isa<memref::DeallocOp>(user)) {
      rewriter.eraseOp(user);
      continue;
    }
    if (auto view = dyn_cast<memref::SubViewOp>(user)) {
      rewriter.setInsertionPoint(view);
      auto newView = memref::SubViewOp::create(
          rewriter, view.getLoc(), to, view.getMixedOffsets(),
          view.getMixedSizes(), view.getMixedStrides());
      if (failed(retarget(rewriter, view.getResult(), newView.getResult())))
        return failure();
      rewriter.eraseOp(view);
      continue;
    }
    if (isa<ViewLikeOpInterface>(user))
      return user->emitOpError("views a per-thread temporary in a way the "
                               "memory-space policy cannot retarget");
    rewriter.modifyOpInPlace(user, [&] { use.set(to); });
  }
  return success();
}

struct PromoteTemporariesPass final
    : sift::impl::PromoteTemporariesBase<PromoteTemporariesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) {
      if (insideThreadLoop(alloc) && !alloc.getType().getMemorySpace())
        allocs.push_back(alloc);
    });
    IRRewriter rewriter(&getContext());
    auto privateSpace = gpu::AddressSpaceAttr::get(
        &getContext(), gpu::GPUDialect::getPrivateAddressSpace());
    for (memref::AllocOp alloc : allocs) {
      MemRefType type = alloc.getType();
      // A partial tile's temporary has dynamic sizes: allocate the largest
      // tile (a constant bound of each size) and use a view of the real one.
      SmallVector<int64_t> shape(type.getShape());
      SmallVector<OpFoldResult> sizes;
      unsigned dynamicIndex = 0;
      for (auto [d, size] : llvm::enumerate(shape)) {
        if (!ShapedType::isDynamic(size)) {
          sizes.push_back(rewriter.getIndexAttr(size));
          continue;
        }
        Value dynamic = alloc.getDynamicSizes()[dynamicIndex++];
        FailureOr<int64_t> bound =
            ValueBoundsConstraintSet::computeConstantBound(
                presburger::BoundType::UB,
                ValueBoundsConstraintSet::Variable(dynamic),
                /*stopCondition=*/nullptr, /*closedUB=*/true);
        if (failed(bound)) {
          alloc.emitOpError("a per-thread temporary needs a bounded size for "
                            "private memory, found ")
              << type;
          return signalPassFailure();
        }
        size = *bound;
        sizes.push_back(dynamic);
      }
      auto privateType = MemRefType::get(shape, type.getElementType(),
                                         MemRefLayoutAttrInterface(),
                                         privateSpace);
      rewriter.setInsertionPoint(alloc);
      Value buffer = memref::AllocaOp::create(rewriter, alloc.getLoc(),
                                              privateType,
                                              alloc.getAlignmentAttr());
      if (!type.hasStaticShape()) {
        SmallVector<OpFoldResult> zeros(shape.size(),
                                        rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> ones(shape.size(), rewriter.getIndexAttr(1));
        buffer = memref::SubViewOp::create(rewriter, alloc.getLoc(), buffer,
                                           zeros, sizes, ones);
      }
      if (failed(retarget(rewriter, alloc.getResult(), buffer)))
        return signalPassFailure();
      rewriter.eraseOp(alloc);
    }
  }
};

} // namespace
