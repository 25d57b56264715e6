//===- RecordDispatchPlan.cpp - The host plan of a cpu program ------------===//
//
// Writes the `sift.dispatch_plan` module attribute from the tensor signature
// of the entry function: its arguments are the input buffers and its results
// the output buffers, bound in that order (buffer-results-to-out-params
// appends the results as trailing arguments in the same order, and
// sift-host-entry-abi loads them from the bindings array in that order).
//
// Attribute form:
//   sift.dispatch_plan = {
//     buffers = [{element = f32, shape = array<i64: 4, 8>, role = "input",
//                 index = 0 : i64}, ...],
//     dispatches = [{symbol = "sift_dispatch_0",
//                    bindings = array<i64: 0, 1>}]}
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "sift-record-dispatch-plan"

namespace sift {
#define GEN_PASS_DEF_RECORDDISPATCHPLAN
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct RecordDispatchPlanPass final
    : sift::impl::RecordDispatchPlanBase<RecordDispatchPlanPass> {
  using RecordDispatchPlanBase::RecordDispatchPlanBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func) {
      module.emitError("no entry function @") << entry << " to dispatch";
      return signalPassFailure();
    }
    Builder b(&getContext());
    SmallVector<Attribute> buffers;
    auto addBuffer = [&](Type type, StringRef role, int64_t index) -> bool {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape()) {
        func.emitError("the dispatch plan needs statically shaped tensors, "
                       "but ")
            << role << " #" << index << " has type " << type;
        return false;
      }
      buffers.push_back(b.getDictionaryAttr({
          b.getNamedAttr("element", TypeAttr::get(tensor.getElementType())),
          b.getNamedAttr("shape", b.getDenseI64ArrayAttr(tensor.getShape())),
          b.getNamedAttr("role", b.getStringAttr(role)),
          b.getNamedAttr("index", b.getI64IntegerAttr(index)),
      }));
      return true;
    };
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (!addBuffer(type, "input", i))
        return signalPassFailure();
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (!addBuffer(type, "output", i))
        return signalPassFailure();
    SmallVector<int64_t> bindings;
    for (int64_t i = 0, e = buffers.size(); i < e; ++i)
      bindings.push_back(i);
    Attribute dispatch = b.getDictionaryAttr({
        b.getNamedAttr("symbol", b.getStringAttr("sift_dispatch_0")),
        b.getNamedAttr("bindings", b.getDenseI64ArrayAttr(bindings)),
    });
    module->setAttr(
        "sift.dispatch_plan",
        b.getDictionaryAttr({
            b.getNamedAttr("buffers", b.getArrayAttr(buffers)),
            b.getNamedAttr("dispatches", b.getArrayAttr({dispatch})),
        }));
  }
};

} // namespace
