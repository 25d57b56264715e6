//===- MergeKernelModules.cpp - One kernel module a program ---------------===//
//
// Kernel outlining gives every launch a gpu.module of its own, and every
// module is compiled alone: LLVM's back end once per module, and on a GPU
// host ptxas or the driver's JIT once per module, each with a fixed cost
// (ptxas: about 10 ms of CPU for a module of one small kernel). This pass
// moves the kernels of a program's modules into its first, each kernel
// renamed where its name is taken, and points the launches at them.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"

#define DEBUG_TYPE "sift-merge-kernel-modules"

namespace sift {
#define GEN_PASS_DEF_MERGEKERNELMODULES
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct MergeKernelModulesPass final
    : sift::impl::MergeKernelModulesBase<MergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> all(module.getOps<gpu::GPUModuleOp>());
    if (all.size() < 2)
      return;
    gpu::GPUModuleOp first = all.front();
    SymbolTable symbols(first);
    // (module, symbol) -> the symbol's name in `first`.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> moved;
    for (gpu::GPUModuleOp kernels : ArrayRef(all).drop_front()) {
      if (kernels.getTargetsAttr() != first.getTargetsAttr()) {
        kernels.emitError("kernel modules with other targets cannot merge");
        return signalPassFailure();
      }
      for (Operation &op :
           llvm::make_early_inc_range(kernels.getBody()->getOperations())) {
        auto name =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
        if (!name) {
          op.emitError("a kernel module's op without a symbol cannot merge");
          return signalPassFailure();
        }
        op.remove();
        // Renames `op` when its name is taken in `first`.
        StringAttr now = symbols.insert(&op);
        moved[{kernels.getNameAttr(), name}] = now;
      }
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it =
          moved.find({launch.getKernelModuleName(), launch.getKernelName()});
      if (it != moved.end())
        launch.setKernelAttr(SymbolRefAttr::get(
            first.getNameAttr(), {FlatSymbolRefAttr::get(it->second)}));
    });
    for (gpu::GPUModuleOp kernels : ArrayRef(all).drop_front()) {
      if (!SymbolTable::symbolKnownUseEmpty(kernels, module)) {
        kernels.emitError("kernel module @")
            << kernels.getName() << " is still used after its kernels moved";
        return signalPassFailure();
      }
      kernels.erase();
    }
  }
};

} // namespace
