//===- HostEntryAbi.cpp - The runtime's host ABI for a lowered program ----===//
//
// The cpu runtime calls `void sift_dispatch_0(void **bindings)`. This pass
// builds that function in the LLVM dialect: it loads each bare buffer pointer
// from the bindings array and calls the lowered entry. Every other defined
// function becomes internal, so a program's `main` can never be resolved to
// (or interpose on) the host process's symbols.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "sift-host-entry-abi"

namespace sift {
#define GEN_PASS_DEF_HOSTENTRYABI
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct HostEntryAbiPass final
    : sift::impl::HostEntryAbiBase<HostEntryAbiPass> {
  using HostEntryAbiBase::HostEntryAbiBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!callee) {
      module.emitError("no LLVM function @") << entry << " to wrap";
      return signalPassFailure();
    }
    LLVM::LLVMFunctionType calleeType = callee.getFunctionType();
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    for (auto [i, param] : llvm::enumerate(calleeType.getParams()))
      if (param != ptrType) {
        callee.emitError("host ABI needs bare pointer arguments, but #")
            << i << " is " << param;
        return signalPassFailure();
      }
    if (!isa<LLVM::LLVMVoidType>(calleeType.getReturnType())) {
      callee.emitError("host ABI needs an entry without results");
      return signalPassFailure();
    }
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::Internal);

    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = callee.getLoc();
    auto wrapperType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(&getContext()), {ptrType});
    auto wrapper = LLVM::LLVMFuncOp::create(b, loc, symbol, wrapperType);
    Block *body = wrapper.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    Value bindings = wrapper.getArgument(0);
    SmallVector<Value> args;
    for (unsigned i = 0, e = calleeType.getNumParams(); i < e; ++i) {
      Value slot = LLVM::GEPOp::create(
          b, loc, ptrType, ptrType, bindings,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      args.push_back(LLVM::LoadOp::create(b, loc, ptrType, slot));
    }
    LLVM::CallOp::create(b, loc, callee, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }
};

} // namespace
