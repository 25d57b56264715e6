//===- HostEntryAbi.cpp - The runtime's host ABI for a lowered program ----===//
//
// The cpu runtime calls `void sift_dispatch_0(void **bindings)`. This pass
// builds that function in the LLVM dialect: for each buffer of the recorded
// dispatch plan it loads the base pointer from the bindings array and passes
// the expanded memref descriptor (allocated and aligned pointer, offset 0,
// static sizes, row-major strides) to the lowered entry. Building the
// descriptor here, rather than using bare-pointer arguments, keeps buffers
// with a zero-sized dimension legal. Every other defined function becomes
// internal, so a program's `main` can never interpose on the host's symbols.
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

struct HostEntryAbiPass final : sift::impl::HostEntryAbiBase<HostEntryAbiPass> {
  using HostEntryAbiBase::HostEntryAbiBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
    if (!callee) {
      module.emitError("the entry @")
          << entry << " was not lowered to an LLVM function";
      return signalPassFailure();
    }
    auto plan = module->getAttrOfType<DictionaryAttr>("sift.dispatch_plan");
    auto buffers = plan ? plan.getAs<ArrayAttr>("buffers") : nullptr;
    if (!buffers) {
      module.emitError("the host ABI needs the sift.dispatch_plan buffers");
      return signalPassFailure();
    }
    SmallVector<SmallVector<int64_t>> shapes;
    size_t expectedParams = 0;
    for (Attribute attr : buffers) {
      auto dict = dyn_cast<DictionaryAttr>(attr);
      auto shape = dict ? dict.getAs<DenseI64ArrayAttr>("shape") : nullptr;
      if (!shape) {
        module.emitError("a sift.dispatch_plan buffer has no shape");
        return signalPassFailure();
      }
      shapes.emplace_back(shape.asArrayRef());
      expectedParams += 3 + 2 * shape.size();
    }
    LLVM::LLVMFunctionType calleeType = callee.getFunctionType();
    if (calleeType.getNumParams() != expectedParams ||
        !isa<LLVM::LLVMVoidType>(calleeType.getReturnType())) {
      callee.emitError("the entry takes ")
          << calleeType.getNumParams() << " parameters and returns "
          << calleeType.getReturnType() << ", but the host ABI of "
          << buffers.size() << " buffers needs " << expectedParams
          << " descriptor fields and no result";
      return signalPassFailure();
    }
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::Internal);

    MLIRContext *context = &getContext();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = callee.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto i64 = b.getI64Type();
    auto wrapperType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context), {ptrType});
    auto wrapper = LLVM::LLVMFuncOp::create(b, loc, symbol, wrapperType);
    Block *body = wrapper.addEntryBlock(b);
    b.setInsertionPointToStart(body);
    auto constant = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
    };
    Value bindings = wrapper.getArgument(0);
    SmallVector<Value> args;
    for (auto [i, shape] : llvm::enumerate(shapes)) {
      Value slot =
          LLVM::GEPOp::create(b, loc, ptrType, ptrType, bindings,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value base = LLVM::LoadOp::create(b, loc, ptrType, slot);
      args.append({base, base, constant(0)});
      for (int64_t size : shape)
        args.push_back(constant(size));
      SmallVector<int64_t> strides(shape.size(), 1);
      for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
        strides[d] = strides[d + 1] * shape[d + 1];
      for (int64_t stride : strides)
        args.push_back(constant(stride));
    }
    for (auto [i, arg, param] : llvm::enumerate(args, calleeType.getParams()))
      if (arg.getType() != param) {
        callee.emitError("parameter #")
            << i << " of the entry is " << param << ", the host ABI passes "
            << arg.getType();
        return signalPassFailure();
      }
    LLVM::CallOp::create(b, loc, callee, args);
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  }
};

} // namespace
