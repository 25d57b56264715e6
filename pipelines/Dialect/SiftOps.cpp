//===- SiftOps.cpp - Verifiers, effects and canonicalizations of sift ops -===//
//
// Everything about sift.sort and sift.topk that is not an interface model:
// the verifiers (each rule has a message and a test in
// test/Dialect/invalid.mlir), memory effects (pure on tensors, read/write on
// memrefs) and the canonicalization that drops unused sort results.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace sift;

#define GET_OP_CLASSES
#include "pipelines/Dialect/SiftOps.cpp.inc"

namespace {

/// True for the element types sift ops order: integers and floats.
bool isOrderableElementType(Type type) {
  return isa<IntegerType, FloatType>(type);
}

/// Shared check of the tensor/memref split of a DPS op: tensor inits give one
/// result each, with the same type; memref inits give no results.
LogicalResult verifyResultsMatchInits(Operation *op, ValueRange inits,
                                      TypeRange results) {
  bool tensors = isa<RankedTensorType>(inits.front().getType());
  for (Value init : inits)
    if (isa<RankedTensorType>(init.getType()) != tensors)
      return op->emitOpError(
          "expects all outs to be tensors or all to be memrefs");
  if (!tensors) {
    if (!results.empty())
      return op->emitOpError("on memrefs must not have results, found ")
             << results.size();
    return success();
  }
  if (results.size() != inits.size())
    return op->emitOpError("expects one result per outs operand (")
           << inits.size() << "), found " << results.size();
  for (auto [i, init, result] : llvm::enumerate(inits, results))
    if (init.getType() != result)
      return op->emitOpError("result #")
             << i << " has type " << result << " but outs #" << i
             << " has type " << init.getType();
  return success();
}

/// Read/write effects on memref operands; none on tensors.
void addMemrefEffects(
    Operation *op, ValueRange reads, ValueRange writes,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    if (llvm::is_contained(writes, operand.get()))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// SortOp
//===----------------------------------------------------------------------===//

LogicalResult SortOp::verify() {
  if (getOutputs().empty())
    return emitOpError("expects at least one outs operand");
  auto keyType = getKeyType();
  if (keyType.getRank() < 1)
    return emitOpError("expects operands of rank >= 1, found rank 0");
  int64_t dim = getDimension();
  if (dim < 0 || dim >= keyType.getRank())
    return emitOpError("sort dimension ")
           << dim << " is out of range for rank " << keyType.getRank();
  // Tiles may have dynamic sizes elsewhere; a row's length is static.
  if (keyType.isDynamicDim(dim))
    return emitOpError("the sorted dimension ")
           << dim << " must have a static size, found " << keyType;
  if (!isOrderableElementType(keyType.getElementType()))
    return emitOpError("key element type must be an integer or a float, found ")
           << keyType.getElementType();
  for (auto [i, operand] : llvm::enumerate(getOutputs())) {
    auto type = cast<ShapedType>(operand.getType());
    if (type.getShape() != keyType.getShape())
      return emitOpError("outs #")
             << i << " has shape " << type << " but the key has " << keyType;
  }
  if (failed(verifyResultsMatchInits(*this, getOutputs(),
                                     getResults().getTypes())))
    return failure();
  if (getOrder() && hasComparator())
    return emitOpError(
        "has both a named order and a comparator region; give one");
  if (!getOrder() && !hasComparator())
    return emitOpError("needs a named order (ascending, descending) or a "
                       "comparator region");
  return success();
}

LogicalResult SortOp::verifyRegions() {
  if (!hasComparator())
    return success();
  Region &region = getComparator();
  if (!region.hasOneBlock())
    return emitOpError("comparator region must have exactly one block");
  Block &block = region.front();
  Type keyElement = getKeyType().getElementType();
  if (block.getNumArguments() != 2 ||
      block.getArgument(0).getType() != keyElement ||
      block.getArgument(1).getType() != keyElement)
    return emitOpError("comparator region must take two arguments of the key "
                       "element type ")
           << keyElement;
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return emitOpError("comparator region must end with sift.yield");
  if (yield.getValues().size() != 1 ||
      !yield.getValues().front().getType().isInteger(1))
    return emitOpError("comparator region must yield exactly one i1");
  return success();
}

void SortOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addMemrefEffects(*this, getOutputs(), getOutputs(), effects);
}

namespace {

/// Drops operands of a tensor sort whose results are unused. The key (operand
/// 0) decides the order and is kept even when its result is unused; an op
/// with no used result is removed by the dead-code rules instead, since a
/// sort on tensors has no side effects.
struct DropUnusedSortResults final : OpRewritePattern<SortOp> {
  explicit DropUnusedSortResults(MLIRContext *context)
      : OpRewritePattern(context) {
    // Fault tf-keep-unused-results disables this pattern by name.
    setDebugName(sift::kDropUnusedSortResultsPattern);
  }

  LogicalResult matchAndRewrite(SortOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->use_empty())
      return failure();
    SmallVector<unsigned> kept = {0};
    for (unsigned i = 1, e = op.getNumResults(); i < e; ++i)
      if (!op.getResult(i).use_empty())
        kept.push_back(i);
    if (kept.size() == op.getNumResults())
      return failure();

    SmallVector<Value> outputs;
    SmallVector<Type> types;
    for (unsigned i : kept) {
      outputs.push_back(op.getOutputs()[i]);
      types.push_back(op.getResult(i).getType());
    }
    auto newOp = SortOp::create(rewriter, op.getLoc(), types, outputs,
                                op.getDimensionAttr(), op.getOrderAttr());
    rewriter.inlineRegionBefore(op.getComparator(), newOp.getComparator(),
                                newOp.getComparator().end());
    SmallVector<Value> replacements(op.getNumResults(), nullptr);
    for (auto [newIndex, oldIndex] : llvm::enumerate(kept))
      replacements[oldIndex] = newOp.getResult(newIndex);
    // Unused results get no replacement; give them the original outs so the
    // replacement list is complete (they have no uses).
    for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
      if (!replacements[i])
        replacements[i] = op.getOutputs()[i];
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

/// Folds tensor.cast producers of a sort's outs into it (more static
/// types), casting the results back. It runs before the tensor dialect's
/// generic pattern for destination-style ops (higher benefit), which clones
/// through mlir::clone and crashes on the empty comparator region of a
/// named-order sort when a rewriter listener is attached (upstream
/// OpBuilder::cloneRegionBefore dereferences the first block).
struct FoldTensorCastIntoSort final : OpRewritePattern<SortOp> {
  FoldTensorCastIntoSort(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(SortOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        !tensor::hasFoldableTensorCastOperand(op))
      return failure();
    SmallVector<Type> unused;
    SmallVector<Value> operands = tensor::getUpdatedOperandsAfterCastOpFolding(
        cast<DestinationStyleOpInterface>(op.getOperation()), unused);
    // Every operand of a sort is an init: result i has operand i's type.
    SmallVector<Type> newTypes;
    for (Value operand : operands)
      newTypes.push_back(operand.getType());
    Operation *newOp =
        sift::cloneWithOperands(rewriter, op, newTypes, operands);
    SmallVector<Value> replacements;
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), newOp->getResults()))
      replacements.push_back(
          oldResult.getType() == newResult.getType()
              ? Value(newResult)
              : Value(tensor::CastOp::create(rewriter, op.getLoc(),
                                             oldResult.getType(), newResult)));
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void SortOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<DropUnusedSortResults, FoldTensorCastIntoSort>(context);
}

//===----------------------------------------------------------------------===//
// TopkOp
//===----------------------------------------------------------------------===//

LogicalResult TopkOp::verify() {
  auto inputType = getInputType();
  auto valuesType = cast<ShapedType>(getValuesInit().getType());
  auto indicesType = cast<ShapedType>(getIndicesInit().getType());
  if (inputType.getRank() < 1)
    return emitOpError("expects an input of rank >= 1, found rank 0");
  int64_t dim = getDimension();
  if (dim < 0 || dim >= inputType.getRank())
    return emitOpError("top-k dimension ")
           << dim << " is out of range for rank " << inputType.getRank();
  // Tiles may have dynamic sizes elsewhere; a row's length is static.
  if (inputType.isDynamicDim(dim))
    return emitOpError("the selected dimension ")
           << dim << " must have a static size, found " << inputType;
  if (!isOrderableElementType(inputType.getElementType()))
    return emitOpError("input element type must be an integer or a float, "
                       "found ")
           << inputType.getElementType();
  int64_t n = inputType.getDimSize(dim);
  int64_t k = getK();
  if (k < 0 || k > n)
    return emitOpError("k = ") << k << " must be in [0, " << n
                               << "], the size of dimension " << dim;
  if (isa<RankedTensorType>(inputType) != isa<RankedTensorType>(valuesType) ||
      isa<RankedTensorType>(inputType) != isa<RankedTensorType>(indicesType))
    return emitOpError(
        "expects input and outs to be all tensors or all memrefs");
  SmallVector<int64_t> expectedShape(inputType.getShape());
  expectedShape[dim] = k;
  if (valuesType.getShape() != ArrayRef<int64_t>(expectedShape) ||
      valuesType.getElementType() != inputType.getElementType())
    return emitOpError("values output must have the input's shape with "
                       "dimension ")
           << dim << " of size " << k
           << " and the input's element type, found " << valuesType;
  if (indicesType.getShape() != ArrayRef<int64_t>(expectedShape) ||
      !indicesType.getElementType().isInteger(64))
    return emitOpError("indices output must be i64 with the values' shape, "
                       "found ")
           << indicesType;
  return verifyResultsMatchInits(*this, getDpsInits(),
                                 getResults().getTypes());
}

void TopkOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addMemrefEffects(*this, getOperands(), getDpsInits(), effects);
}

//===----------------------------------------------------------------------===//
// NmsOp and NmsPerClassOp
//===----------------------------------------------------------------------===//

namespace {

/// True for the element types NMS computes on (in f32): f16, bf16 and f32.
bool isNmsFloat(Type type) {
  return type.isF16() || type.isBF16() || type.isF32();
}

/// `a == b` where both are known; a dynamic size matches anything.
bool sameSize(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// The attribute rules sift.nms and sift.nms_per_class share.
LogicalResult verifyNmsAttributes(Operation *op, APFloat iou,
                                  std::optional<APFloat> scoreThreshold,
                                  int64_t centerPointBox) {
  float t = iou.convertToFloat();
  if (!(t >= 0.0f && t <= 1.0f))
    return op->emitOpError("iou_threshold must be in [0, 1], found ") << t;
  if (scoreThreshold && scoreThreshold->isNaN())
    return op->emitOpError("score_threshold must not be NaN");
  if (centerPointBox != 0 && centerPointBox != 1)
    return op->emitOpError("center_point_box must be 0 or 1, found ")
           << centerPointBox;
  return success();
}

/// boxes [B, N, 4] and scores [B, C, N] (scores may be the sorted scores
/// of sift.nms_per_class), each f16, bf16 or f32.
LogicalResult verifyBoxesAndScores(Operation *op, ShapedType boxes,
                                   ShapedType scores, StringRef scoresName) {
  if (boxes.getRank() != 3 || boxes.isDynamicDim(2) ||
      boxes.getDimSize(2) != 4)
    return op->emitOpError("boxes must be [B, N, 4], found ") << boxes;
  if (!isNmsFloat(boxes.getElementType()))
    return op->emitOpError("boxes must be f16, bf16 or f32, found ")
           << boxes.getElementType();
  if (scores.getRank() != 3)
    return op->emitOpError() << scoresName << " must be [B, C, N], found "
                             << scores;
  if (!isNmsFloat(scores.getElementType()))
    return op->emitOpError() << scoresName << " must be f16, bf16 or f32, found "
                             << scores.getElementType();
  if (boxes.isDynamicDim(1) || scores.isDynamicDim(2))
    return op->emitOpError("the number of boxes N must be static, found ")
           << boxes << " and " << scores;
  if (!sameSize(boxes.getDimSize(0), scores.getDimSize(0)) ||
      boxes.getDimSize(1) != scores.getDimSize(2))
    return op->emitOpError() << scoresName
                             << " must be [B, C, N] with B and N of the "
                                "boxes, found "
                             << scores << " for boxes " << boxes;
  return success();
}

/// Operands all tensors or all memrefs.
LogicalResult verifyAllTensorsOrMemrefs(Operation *op) {
  bool tensors = isa<RankedTensorType>(op->getOperand(0).getType());
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()) != tensors)
      return op->emitOpError(
          "expects ins and outs to be all tensors or all memrefs");
  return success();
}

} // namespace

LogicalResult NmsOp::verify() {
  auto boxes = cast<ShapedType>(getBoxes().getType());
  auto scores = cast<ShapedType>(getScores().getType());
  auto selected = cast<ShapedType>(getSelectedInit().getType());
  auto count = cast<ShapedType>(getCountInit().getType());
  if (failed(verifyAllTensorsOrMemrefs(*this)) ||
      failed(verifyBoxesAndScores(*this, boxes, scores, "scores")) ||
      failed(verifyNmsAttributes(*this, getIouThreshold(), getScoreThreshold(),
                                 getCenterPointBox())))
    return failure();
  if (!boxes.hasStaticShape() || !scores.hasStaticShape())
    return emitOpError("needs static shapes, found ")
           << boxes << " and " << scores;
  int64_t rows =
      scores.getDimSize(0) * scores.getDimSize(1) * getMaxOutPerClass();
  if (!selected.getElementType().isInteger(64) || selected.getRank() != 2 ||
      selected.getShape() != ArrayRef<int64_t>{rows, 3})
    return emitOpError("selected must be i64 of shape [B * C * max(max_output_"
                       "boxes_per_class, 0), 3] = [")
           << rows << ", 3], found " << selected;
  if (!count.getElementType().isInteger(64) ||
      count.getShape() != ArrayRef<int64_t>{1})
    return emitOpError("count must be i64 of shape [1], found ") << count;
  return verifyResultsMatchInits(*this, getDpsInits(),
                                 getResults().getTypes());
}

void NmsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addMemrefEffects(*this, getOperands(), getDpsInits(), effects);
}

LogicalResult NmsPerClassOp::verify() {
  auto boxes = cast<ShapedType>(getBoxes().getType());
  auto scores = cast<ShapedType>(getSortedScores().getType());
  auto order = cast<ShapedType>(getOrder().getType());
  auto slots = cast<ShapedType>(getSlotsInit().getType());
  auto counts = cast<ShapedType>(getCountsInit().getType());
  if (failed(verifyAllTensorsOrMemrefs(*this)) ||
      failed(verifyBoxesAndScores(*this, boxes, scores, "sorted_scores")) ||
      failed(verifyNmsAttributes(*this, getIouThreshold(), getScoreThreshold(),
                                 getCenterPointBox())))
    return failure();
  auto sameBatchAndClass = [&](ShapedType type) {
    return sameSize(type.getDimSize(0), scores.getDimSize(0)) &&
           sameSize(type.getDimSize(1), scores.getDimSize(1));
  };
  if (!order.getElementType().isInteger(64) || order.getRank() != 3 ||
      !sameBatchAndClass(order) || order.isDynamicDim(2) ||
      order.getDimSize(2) != scores.getDimSize(2))
    return emitOpError("order must be i64 of the sorted scores' shape, found ")
           << order;
  if (!slots.getElementType().isInteger(64) || slots.getRank() != 3 ||
      !sameBatchAndClass(slots) || slots.isDynamicDim(2) ||
      slots.getDimSize(2) != getMaxOutPerClass())
    return emitOpError("slots must be i64 of shape [B, C, max(max_output_"
                       "boxes_per_class, 0)], found ")
           << slots;
  if (!counts.getElementType().isInteger(64) || counts.getRank() != 2 ||
      !sameBatchAndClass(counts))
    return emitOpError("counts must be i64 of shape [B, C], found ") << counts;
  return verifyResultsMatchInits(*this, getDpsInits(),
                                 getResults().getTypes());
}

void NmsPerClassOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addMemrefEffects(*this, getOperands(), getDpsInits(), effects);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Operation *sift::cloneWithOperands(OpBuilder &b, Operation *op,
                                   TypeRange resultTypes, ValueRange operands) {
  OperationState state(op->getLoc(), op->getName(), operands, resultTypes,
                       op->getAttrs());
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    state.addRegion();
  Operation *newOp = b.create(state);
  for (auto [from, to] : llvm::zip(op->getRegions(), newOp->getRegions())) {
    // OpBuilder::cloneRegionBefore dereferences the first block when a
    // listener is attached: skip empty regions.
    if (from.empty())
      continue;
    IRMapping mapping;
    b.cloneRegionBefore(from, to, to.end(), mapping);
  }
  return newOp;
}
