//===- DropUnusedLibdevice.cpp - libdevice only where a kernel calls it ---===//
//
// CUDA's libdevice (the `__nv_` math functions) is linked into an nvptx
// kernel module only when the module declares one of its functions: MLIR's
// serializer otherwise parses the whole bitcode library for every module.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace sift {
#define GEN_PASS_DEF_DROPUNUSEDLIBDEVICE
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct DropUnusedLibdevicePass final
    : sift::impl::DropUnusedLibdeviceBase<DropUnusedLibdevicePass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets)
      return;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.isExternal() && func.getSymName().starts_with("__nv_"))
        return;
    SmallVector<Attribute> without;
    bool changed = false;
    for (Attribute attr : targets) {
      auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr);
      if (!nvvm || !nvvm.getLink()) {
        without.push_back(attr);
        continue;
      }
      without.push_back(NVVM::NVVMTargetAttr::get(
          &getContext(), nvvm.getO(), nvvm.getTriple(), nvvm.getChip(),
          nvvm.getFeatures(), nvvm.getFlags(), /*linkFiles=*/nullptr,
          nvvm.getVerifyTarget()));
      changed = true;
    }
    if (changed)
      module.setTargetsAttr(ArrayAttr::get(&getContext(), without));
  }
};

} // namespace
