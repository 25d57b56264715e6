//===- DedupeKernels.cpp - One kernel module for launches of the same code ===//
//
// Kernel outlining gives every gpu.launch its own gpu.module, so launches
// that run the same code on other buffers (the scans of a radix sort's
// passes, its middle passes' count and scatter kernels) are compiled, and
// checked by the oracles, once each. Two kernel modules are the same when
// their contents print the same without locations: their kernels then
// take the same arguments in the same order and do the same with them, so
// each launch may run either. The first module of each kind stays; the
// launches of the others point at it and the others go.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "sift-dedupe-kernels"

namespace sift {
#define GEN_PASS_DEF_DEDUPEKERNELS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// What a kernel module holds, as text: its ops (not the module itself,
/// whose name differs) in the generic form, without locations.
std::string contentsOf(gpu::GPUModuleOp kernels) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().useLocalScope();
  // Attributes of the module itself (targets, once attached) count too.
  for (NamedAttribute attr : kernels->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      os << attr.getName() << '=' << attr.getValue() << ';';
  for (Operation &op : kernels.getBody()->getOperations()) {
    op.print(os, flags);
    os << '\n';
  }
  return text;
}

struct DedupeKernelsPass final
    : sift::impl::DedupeKernelsBase<DedupeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<gpu::GPUModuleOp> firstOf;
    DenseMap<StringAttr, StringAttr> sameAs;
    SmallVector<gpu::GPUModuleOp> duplicates;
    for (auto kernels : module.getOps<gpu::GPUModuleOp>()) {
      auto [it, inserted] = firstOf.try_emplace(contentsOf(kernels), kernels);
      if (inserted)
        continue;
      sameAs[kernels.getNameAttr()] = it->second.getNameAttr();
      duplicates.push_back(kernels);
    }
    if (duplicates.empty())
      return;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto it = sameAs.find(launch.getKernelModuleName());
      if (it == sameAs.end())
        return;
      launch.setKernelAttr(SymbolRefAttr::get(
          it->second, {FlatSymbolRefAttr::get(launch.getKernelName())}));
    });
    // Nothing else may still name a module that goes.
    for (gpu::GPUModuleOp kernels : duplicates) {
      if (!SymbolTable::symbolKnownUseEmpty(kernels, module)) {
        kernels.emitError("kernel module @")
            << kernels.getName()
            << " is the same as another but still used after its launches "
               "moved";
        return signalPassFailure();
      }
      kernels.erase();
    }
  }
};

} // namespace
