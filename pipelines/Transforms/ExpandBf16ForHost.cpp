//===- ExpandBf16ForHost.cpp - bf16 without libgcc's helpers --------------===//
//
// A host library may not call `__truncsfbf2` (Debian 12's libgcc has no
// bf16 helpers), and LLVM's x86 back end may keep a chain of promoted bf16
// ops in f32 without rounding between them. Here every arith and math op
// on bf16 becomes the op on f32 between an exact extf and one truncf (so
// each op rounds, as SEMANTICS.md asks; MLIR's
// arith-emulate-unsupported-floats converts whole chains to f32 and rounds
// only at the end), and the bf16 <-> f32 casts are expanded into integer
// ops (MLIR's bf16 expansion patterns only: the rest of arith-expand would
// also rewrite minimumf and maximumf into a compare and a select that
// ignore the sign of zero, where LLVM's minimum and maximum order -0 below
// +0 as arith documents).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "sift-expand-bf16-for-host"

namespace sift {
#define GEN_PASS_DEF_EXPANDBF16FORHOST
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

bool isBf16(Type type) { return getElementTypeOrSelf(type).isBF16(); }

/// `type` with f32 for its bf16 elements.
Type toF32(Type type) {
  Type f32 = Float32Type::get(type.getContext());
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(f32);
  return f32;
}

/// An op computed in f32 when bf16: not the casts and constants (the
/// expansion below handles the casts), not select and bitcast (no
/// arithmetic), not negf and absf (sign-bit operations, exact in bf16).
bool needsF32(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, arith::SelectOp,
          arith::BitcastOp, arith::NegFOp, math::AbsFOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isBf16) ||
         llvm::any_of(op->getResultTypes(), isBf16);
}

/// `op` on f32: its bf16 operands widened (exact), each bf16 result
/// rounded back once (arith.truncf: to nearest even), as a bf16 op does.
void computeInF32(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(isBf16(v.getType())
                           ? arith::ExtFOp::create(b, loc, toF32(v.getType()), v)
                                 .getResult()
                           : v);
  SmallVector<Type> types;
  for (Type t : op->getResultTypes())
    types.push_back(isBf16(t) ? toF32(t) : t);
  OperationState state(loc, op->getName(), operands, types, op->getAttrs());
  Operation *wide = b.create(state);
  for (auto [old, computed] : llvm::zip(op->getResults(), wide->getResults()))
    old.replaceAllUsesWith(
        isBf16(old.getType())
            ? arith::TruncFOp::create(b, loc, old.getType(), computed)
                  .getResult()
            : computed);
  op->erase();
}

/// extf bf16 -> f64 as bf16 -> f32 -> f64 (both exact), which the bf16
/// expansion patterns take.
void widenThroughF32(arith::ExtFOp ext) {
  if (!isBf16(ext.getIn().getType()) ||
      !getElementTypeOrSelf(ext.getType()).isF64())
    return;
  OpBuilder b(ext);
  Value f32 = arith::ExtFOp::create(b, ext.getLoc(),
                                    toF32(ext.getIn().getType()), ext.getIn());
  ext.getOut().replaceAllUsesWith(
      arith::ExtFOp::create(b, ext.getLoc(), ext.getType(), f32).getResult());
  ext->erase();
}

struct ExpandBf16ForHostPass final
    : sift::impl::ExpandBf16ForHostBase<ExpandBf16ForHostPass> {
  void runOnOperation() override {
    SmallVector<Operation *> wide;
    SmallVector<arith::ExtFOp> extensions;
    getOperation()->walk([&](Operation *op) {
      if (needsF32(op))
        wide.push_back(op);
      else if (auto ext = dyn_cast<arith::ExtFOp>(op))
        extensions.push_back(ext);
    });
    for (Operation *op : wide)
      computeInF32(op);
    for (arith::ExtFOp ext : extensions)
      widenThroughF32(ext);
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    // No folding: an extf of a truncf is a rounding, not a no-op.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace
