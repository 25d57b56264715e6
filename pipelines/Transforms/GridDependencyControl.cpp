//===- GridDependencyControl.cpp - Kernels that wait for the grid ---------===//
//
// A plan's dispatches run one after another on one queue. Launched plainly,
// a kernel's workgroups are only scheduled once the kernel before it has
// finished and the driver has seen it finish. On sm_90 and later, a kernel
// launched with programmatic stream serialization (the runtime's choice,
// runtime/cuda) is scheduled as soon as every workgroup of the kernel
// before it has exited, and must itself wait (griddepcontrol.wait) before
// it touches memory: the wait returns once every earlier grid has finished
// and its writes are visible. The launch's own latency then overlaps the
// end of the kernel before it (on the H200, sort [1, 2^20] f32's twelve
// launches went from 0.063 to 0.051 ms).
//
// This pass begins every kernel of an nvptx module for such a chip with the
// wait, before any other instruction. A kernel launched without the
// attribute runs it as a no-op; the runtime launches a kernel
// programmatically only when its PTX waits. The kernels do not ask for an
// earlier launch of the next one (griddepcontrol.launch_dependents): asked
// for at a kernel's start, it let the next kernel's workgroups take their
// places while this one ran, and a detection head of seven launches took
// 8 % longer.
//
// The fault pdl-wait-at-exit puts the wait before the kernel's returns
// instead: its accesses may then touch memory that the kernel before it
// has not finished with.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace sift {
#define GEN_PASS_DEF_GRIDDEPENDENCYCONTROL
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// The compute capability of an "sm_XY" or "sm_XYa" chip (0 if none).
int computeCapability(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return 0;
  unsigned value = 0;
  StringRef digits =
      chip.take_while([](char c) { return c >= '0' && c <= '9'; });
  if (digits.empty() || digits.getAsInteger(10, value))
    return 0;
  return static_cast<int>(value);
}

struct GridDependencyControlPass final
    : sift::impl::GridDependencyControlBase<GridDependencyControlPass> {
  using GridDependencyControlBase::GridDependencyControlBase;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.empty())
      return;
    for (Attribute attr : targets) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm || computeCapability(nvvm.getChip()) < 90)
        return;
    }
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal() ||
          !func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
        continue;
      Location loc = func.getLoc();
      if (!injectWaitAtExit) {
        OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
        NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
        continue;
      }
      // Fault pdl-wait-at-exit: the wait before each return instead.
      func.walk([&](LLVM::ReturnOp ret) {
        OpBuilder b(ret);
        NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
      });
    }
  }
};

} // namespace
