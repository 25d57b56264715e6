//===- DistinctResultBuffers.cpp - One allocation per returned buffer -----===//
//
// After bufferization a function may return one buffer as two results (two
// outputs of zero elements fold to one allocation). buffer-results-to-out-
// params, with hoist-static-allocs, turns each returned allocation into its
// out-param by erasing it, and crashes on the second result that names the
// erased allocation. This pass copies every repeated result into an
// allocation of its own first.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

#define DEBUG_TYPE "sift-distinct-result-buffers"

namespace sift {
#define GEN_PASS_DEF_DISTINCTRESULTBUFFERS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct DistinctResultBuffersPass final
    : sift::impl::DistinctResultBuffersBase<DistinctResultBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type || seen.insert(value).second)
          continue;
        // Static shapes only: a dynamic one is never hoisted (and keeps
        // its copy to the out-param).
        if (!type.hasStaticShape())
          continue;
        Location loc = ret.getLoc();
        Value fresh = memref::AllocOp::create(
            b, loc, MemRefType::get(type.getShape(), type.getElementType()));
        memref::CopyOp::create(b, loc, value, fresh);
        operand.set(fresh);
      }
    });
  }
};

} // namespace
