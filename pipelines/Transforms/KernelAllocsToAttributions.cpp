//===- KernelAllocsToAttributions.cpp - Kernel buffers as attributions ----===//
//
// The last step of the GPU memory-space policy, on outlined kernels: a
// workgroup memref.alloc would lower to a per-thread malloc (upstream MLIR
// has no in-kernel lowering to shared memory), so it becomes a workgroup
// attribution of its gpu.func; a private memref.alloca inside loops would
// become a dynamic stack allocation, so it becomes a private attribution.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-kernel-allocs-to-attributions"

namespace sift {
#define GEN_PASS_DEF_KERNELALLOCSTOATTRIBUTIONS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// The alignment (bytes) of every attribution: the widest vector access
/// (v4 of 32-bit or v2 of 64-bit) either backend forms.
constexpr int64_t kAttributionAlignment = 16;

/// The gpu address space of `type`, if it has one.
std::optional<gpu::AddressSpace> addressSpaceOf(MemRefType type) {
  if (auto space =
          dyn_cast_if_present<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

struct KernelAllocsToAttributionsPass final
    : sift::impl::KernelAllocsToAttributionsBase<
          KernelAllocsToAttributionsPass> {
  using KernelAllocsToAttributionsBase::KernelAllocsToAttributionsBase;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>()) {
      SmallVector<Operation *> moved;
      func.walk([&](Operation *op) {
        auto alloc = dyn_cast<memref::AllocOp>(op);
        auto alloca = dyn_cast<memref::AllocaOp>(op);
        if (alloc && alloc.getType().hasStaticShape() &&
            !injectWgAllocAsMalloc &&
            addressSpaceOf(alloc.getType()) == gpu::AddressSpace::Workgroup)
          moved.push_back(op);
        if (alloca && alloca.getType().hasStaticShape() &&
            addressSpaceOf(alloca.getType()) == gpu::AddressSpace::Private)
          moved.push_back(op);
      });
      for (Operation *op : moved) {
        Value buffer = op->getResult(0);
        BlockArgument attribution =
            isa<memref::AllocOp>(op)
                ? func.addWorkgroupAttribution(buffer.getType(), op->getLoc())
                : func.addPrivateAttribution(buffer.getType(), op->getLoc());
        // An explicit alignment: without one LLVM's middle end assumes the
        // preferred alignment (16 bytes for arrays over 128 bits) and
        // vectorizes accesses, while the NVPTX printer declares the
        // element type's (4 for f32): `st.shared.v4` then faults with a
        // misaligned address (fault wg-unaligned keeps that).
        if (!injectWgUnaligned) {
          auto align = IntegerAttr::get(
              IntegerType::get(&getContext(), 64), kAttributionAlignment);
          if (isa<memref::AllocOp>(op))
            func.setWorkgroupAttributionAttr(
                func.getNumWorkgroupAttributions() - 1,
                LLVM::LLVMDialect::getAlignAttrName(), align);
          else
            func.setPrivateAttributionAttr(
                func.getNumPrivateAttributions() - 1,
                LLVM::LLVMDialect::getAlignAttrName(), align);
        }
        for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
          if (isa<memref::DeallocOp>(user))
            rewriter.eraseOp(user);
        rewriter.replaceAllUsesWith(buffer, attribution);
        rewriter.eraseOp(op);
      }
    }
  }
};

} // namespace
