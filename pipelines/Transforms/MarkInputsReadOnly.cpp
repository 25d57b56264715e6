//===- MarkInputsReadOnly.cpp - Keep the caller's input buffers intact ----===//
//
// Marks tensor arguments of public functions `bufferization.writable = false`
// so bufferization never writes into buffers the runtime owns as inputs.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "sift-mark-inputs-read-only"

namespace sift {
#define GEN_PASS_DEF_MARKINPUTSREADONLY
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct MarkInputsReadOnlyPass final
    : sift::impl::MarkInputsReadOnlyBase<MarkInputsReadOnlyPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    auto readOnly = BoolAttr::get(context, false);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<TensorType>(func.getArgument(i).getType()))
          func.setArgAttr(
              i, bufferization::BufferizationDialect::kWritableAttrName,
              readOnly);
    }
  }
};

} // namespace
