//===- SiftTilingInterface.cpp - TilingInterface of sift.sort and topk ----===//
//
// The iteration domain of sift.sort and sift.topk is every dimension except
// the one they sort or select along: tiling splits rows, never a row. The
// scalar implementation (used by the cpu pipeline and as the fallback of the
// GPU pipelines) processes one row at the given point of that domain on
// memrefs: a stable insertion sort for sift.sort, and for sift.topk a single
// pass that keeps the k best elements sorted with ties to the lower index.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace sift;

//===----------------------------------------------------------------------===//
// Orders
//===----------------------------------------------------------------------===//

Value sift::buildTotalOrderLess(OpBuilder &b, Location loc, Value lhs,
                                Value rhs) {
  if (isa<FloatType>(lhs.getType())) {
    // lhs < rhs, or lhs is a number and rhs is NaN.
    Value lt =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, lhs, rhs);
    Value lhsOrdered =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, lhs, lhs);
    Value rhsNan =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, rhs, rhs);
    Value numberBeforeNan = arith::AndIOp::create(b, loc, lhsOrdered, rhsNan);
    return arith::OrIOp::create(b, loc, lt, numberBeforeNan);
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lhs, rhs);
}

Value sift::buildSortLess(OpBuilder &b, Location loc, SortOp op, Value lhs,
                          Value rhs) {
  if (!op.hasComparator()) {
    if (*op.getOrder() == SortOrder::Ascending)
      return buildTotalOrderLess(b, loc, lhs, rhs);
    return buildTotalOrderLess(b, loc, rhs, lhs);
  }
  Block &block = op.getComparator().front();
  IRMapping mapping;
  mapping.map(block.getArgument(0), lhs);
  mapping.map(block.getArgument(1), rhs);
  for (Operation &nested : block.without_terminator())
    b.clone(nested, mapping);
  auto yield = cast<YieldOp>(block.getTerminator());
  return mapping.lookup(yield.getValues().front());
}

Value sift::buildTopkBetter(OpBuilder &b, Location loc, TopkOp op, Value lhs,
                            Value rhs) {
  if (op.isLargest())
    return buildTotalOrderLess(b, loc, rhs, lhs);
  return buildTotalOrderLess(b, loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {

/// The size of dimension `d` of a tensor or memref: an attribute when
/// static, a dim op otherwise (tiles can have dynamic sizes).
OpFoldResult dimSize(OpBuilder &b, Location loc, Value shaped, int64_t d) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  if (isa<RankedTensorType>(type))
    return tensor::DimOp::create(b, loc, shaped, d).getResult();
  return memref::DimOp::create(b, loc, shaped, d).getResult();
}

/// The iteration domain: all dimensions of `shaped` except `skipDim`.
SmallVector<Range> domainWithout(OpBuilder &b, Location loc, Value shaped,
                                 int64_t skipDim) {
  SmallVector<Range> domain;
  for (int64_t d = 0, e = cast<ShapedType>(shaped.getType()).getRank(); d < e;
       ++d) {
    if (d == skipDim)
      continue;
    domain.push_back(Range{b.getIndexAttr(0), dimSize(b, loc, shaped, d),
                           b.getIndexAttr(1)});
  }
  return domain;
}

/// Offsets and sizes of an operand tile for a domain tile: the domain's
/// offsets/sizes with `fullDim` inserted as [0, fullSize).
void operandTile(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                 ArrayRef<OpFoldResult> sizes, int64_t fullDim,
                 int64_t fullSize, SmallVector<OpFoldResult> &tileOffsets,
                 SmallVector<OpFoldResult> &tileSizes) {
  tileOffsets.assign(offsets.begin(), offsets.end());
  tileSizes.assign(sizes.begin(), sizes.end());
  tileOffsets.insert(tileOffsets.begin() + fullDim, b.getIndexAttr(0));
  tileSizes.insert(tileSizes.begin() + fullDim, b.getIndexAttr(fullSize));
}

/// A slice (tensor) or subview (memref) of `source`.
Operation *sliceOf(OpBuilder &b, Location loc, Value source,
                   ArrayRef<OpFoldResult> offsets,
                   ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  if (isa<RankedTensorType>(source.getType()))
    return tensor::ExtractSliceOp::create(b, loc, source, offsets, sizes,
                                          strides);
  return memref::SubViewOp::create(b, loc, source, offsets, sizes, strides);
}

/// The indices of the element at `position` along `dim` of the row at `ivs`.
SmallVector<Value> rowIndices(ValueRange ivs, int64_t dim, Value position) {
  SmallVector<Value> indices(ivs.begin(), ivs.end());
  indices.insert(indices.begin() + dim, position);
  return indices;
}

/// Builds the inner loop of an insertion:
///   j = start; while (j > 0 && shouldMove(j - 1, j)) { move(j - 1, j); j -= 1; }
/// and returns the final j. `shouldMove` is only evaluated for j > 0, so it
/// may load at j - 1.
Value buildShiftDownLoop(
    OpBuilder &b, Location loc, Value start,
    function_ref<Value(OpBuilder &, Location, Value, Value)> shouldMove,
    function_ref<void(OpBuilder &, Location, Value, Value)> move) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()}, ValueRange{start},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value j = args[0];
        Value positive =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, j, zero);
        auto check = scf::IfOp::create(
            b, loc, positive,
            [&](OpBuilder &b, Location loc) {
              Value prev = arith::SubIOp::create(b, loc, j, one);
              scf::YieldOp::create(b, loc, shouldMove(b, loc, prev, j));
            },
            [&](OpBuilder &b, Location loc) {
              Value no = arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                   b.getBoolAttr(false));
              scf::YieldOp::create(b, loc, no);
            });
        scf::ConditionOp::create(b, loc, check.getResult(0), args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value j = args[0];
        Value prev = arith::SubIOp::create(b, loc, j, one);
        move(b, loc, prev, j);
        scf::YieldOp::create(b, loc, prev);
      });
  return loop.getResult(0);
}

} // namespace

//===----------------------------------------------------------------------===//
// SortOp
//===----------------------------------------------------------------------===//

SmallVector<utils::IteratorType> SortOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getRank() - 1,
                                          utils::IteratorType::parallel);
}

SmallVector<Range> SortOp::getIterationDomain(OpBuilder &b) {
  return domainWithout(b, getLoc(), getKey(), getDimension());
}

FailureOr<TilingResult>
SortOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes) {
  int64_t dim = getDimension();
  SmallVector<OpFoldResult> tileOffsets, tileSizes;
  operandTile(b, offsets, sizes, dim, getKeyType().getDimSize(dim),
              tileOffsets, tileSizes);
  SmallVector<Value> tiledOperands;
  SmallVector<Operation *> slices;
  for (Value operand : getOutputs()) {
    Operation *slice = sliceOf(b, getLoc(), operand, tileOffsets, tileSizes);
    slices.push_back(slice);
    tiledOperands.push_back(slice->getResult(0));
  }
  SmallVector<Type> resultTypes;
  if (hasPureTensorSemantics())
    for (Value operand : tiledOperands)
      resultTypes.push_back(operand.getType());
  Operation *tiled = cloneWithOperands(b, getOperation(), resultTypes, tiledOperands);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult SortOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  int64_t dim = getDimension();
  operandTile(b, offsets, sizes, dim, getKeyType().getDimSize(dim),
              resultOffsets, resultSizes);
  return success();
}

LogicalResult SortOp::generateScalarImplementation(OpBuilder &b, Location loc,
                                                   ValueRange ivs) {
  if (hasPureTensorSemantics())
    return emitOpError("scalar implementation needs memref operands");
  // Stable insertion sort of the row at `ivs`:
  //   for i in [1, n): j = i; while j > 0 && less(key[j], key[j-1]):
  //     swap every operand at j and j-1; j -= 1.
  int64_t dim = getDimension();
  int64_t n = getKeyType().getDimSize(dim);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value upper = arith::ConstantIndexOp::create(b, loc, n);
  Value key = getKey();
  scf::ForOp::create(
      b, loc, one, upper, one, ValueRange{},
      [&](OpBuilder &b, Location loc, Value i, ValueRange) {
        buildShiftDownLoop(
            b, loc, i,
            [&](OpBuilder &b, Location loc, Value prev, Value j) {
              Value cur =
                  memref::LoadOp::create(b, loc, key, rowIndices(ivs, dim, j));
              Value before = memref::LoadOp::create(
                  b, loc, key, rowIndices(ivs, dim, prev));
              return buildSortLess(b, loc, *this, cur, before);
            },
            [&](OpBuilder &b, Location loc, Value prev, Value j) {
              for (Value operand : getOutputs()) {
                auto at = rowIndices(ivs, dim, j);
                auto atPrev = rowIndices(ivs, dim, prev);
                Value x = memref::LoadOp::create(b, loc, operand, at);
                Value y = memref::LoadOp::create(b, loc, operand, atPrev);
                memref::StoreOp::create(b, loc, x, operand, atPrev);
                memref::StoreOp::create(b, loc, y, operand, at);
              }
            });
        scf::YieldOp::create(b, loc);
      });
  return success();
}

//===----------------------------------------------------------------------===//
// TopkOp
//===----------------------------------------------------------------------===//

SmallVector<utils::IteratorType> TopkOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getRank() - 1,
                                          utils::IteratorType::parallel);
}

SmallVector<Range> TopkOp::getIterationDomain(OpBuilder &b) {
  return domainWithout(b, getLoc(), getInput(), getDimension());
}

FailureOr<TilingResult>
TopkOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes) {
  int64_t dim = getDimension();
  SmallVector<OpFoldResult> inOffsets, inSizes, outOffsets, outSizes;
  operandTile(b, offsets, sizes, dim, getInputType().getDimSize(dim),
              inOffsets, inSizes);
  operandTile(b, offsets, sizes, dim, getK(), outOffsets, outSizes);
  Operation *input = sliceOf(b, getLoc(), getInput(), inOffsets, inSizes);
  Operation *values =
      sliceOf(b, getLoc(), getValuesInit(), outOffsets, outSizes);
  Operation *indices =
      sliceOf(b, getLoc(), getIndicesInit(), outOffsets, outSizes);
  SmallVector<Value> operands = {input->getResult(0), values->getResult(0),
                                 indices->getResult(0)};
  SmallVector<Type> resultTypes;
  if (hasPureTensorSemantics())
    resultTypes = {operands[1].getType(), operands[2].getType()};
  Operation *tiled = cloneWithOperands(b, getOperation(), resultTypes, operands);
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      {input, values, indices}};
}

LogicalResult TopkOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  operandTile(b, offsets, sizes, getDimension(), getK(), resultOffsets,
              resultSizes);
  return success();
}

LogicalResult TopkOp::generateScalarImplementation(OpBuilder &b, Location loc,
                                                   ValueRange ivs) {
  if (hasPureTensorSemantics())
    return emitOpError("scalar implementation needs memref operands");
  // One pass over the row, keeping the best `count` (<= k) elements sorted in
  // the outputs. Earlier elements win ties because a new element moves ahead
  // of a kept one only when it is strictly better.
  //   for i in [0, n):
  //     x = input[i]
  //     if count < k: hole = count; count += 1
  //     elif k > 0 && better(x, values[k-1]): hole = k - 1
  //     else: continue
  //     j = hole; while j > 0 && better(x, values[j-1]): move j-1 to j; j -= 1
  //     values[j] = x; indices[j] = i
  int64_t dim = getDimension();
  int64_t n = getInputType().getDimSize(dim);
  int64_t k = getK();
  if (k == 0 || n == 0)
    return success();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value kValue = arith::ConstantIndexOp::create(b, loc, k);
  Value kLast = arith::ConstantIndexOp::create(b, loc, k - 1);
  Value upper = arith::ConstantIndexOp::create(b, loc, n);
  Value values = getValuesInit(), indices = getIndicesInit();
  scf::ForOp::create(
      b, loc, zero, upper, one, ValueRange{zero},
      [&](OpBuilder &b, Location loc, Value i, ValueRange iterArgs) {
        Value count = iterArgs[0];
        Value x =
            memref::LoadOp::create(b, loc, getInput(), rowIndices(ivs, dim, i));
        Value notFull = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              count, kValue);
        // (insert?, hole, new count)
        auto decide = scf::IfOp::create(
            b, loc, notFull,
            [&](OpBuilder &b, Location loc) {
              Value yes = arith::ConstantOp::create(b, loc, b.getI1Type(),
                                                    b.getBoolAttr(true));
              Value next = arith::AddIOp::create(b, loc, count, one);
              scf::YieldOp::create(b, loc, ValueRange{yes, count, next});
            },
            [&](OpBuilder &b, Location loc) {
              Value last = memref::LoadOp::create(
                  b, loc, values, rowIndices(ivs, dim, kLast));
              Value better = buildTopkBetter(b, loc, *this, x, last);
              scf::YieldOp::create(b, loc, ValueRange{better, kLast, count});
            });
        Value insert = decide.getResult(0);
        Value hole = decide.getResult(1);
        scf::IfOp::create(b, loc, insert, [&](OpBuilder &b, Location loc) {
          Value slot = buildShiftDownLoop(
              b, loc, hole,
              [&](OpBuilder &b, Location loc, Value prev, Value) {
                Value kept = memref::LoadOp::create(
                    b, loc, values, rowIndices(ivs, dim, prev));
                return buildTopkBetter(b, loc, *this, x, kept);
              },
              [&](OpBuilder &b, Location loc, Value prev, Value j) {
                for (Value out : {values, indices}) {
                  Value moved = memref::LoadOp::create(
                      b, loc, out, rowIndices(ivs, dim, prev));
                  memref::StoreOp::create(b, loc, moved, out,
                                          rowIndices(ivs, dim, j));
                }
              });
          memref::StoreOp::create(b, loc, x, values,
                                  rowIndices(ivs, dim, slot));
          Value position = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
          memref::StoreOp::create(b, loc, position, indices,
                                  rowIndices(ivs, dim, slot));
          scf::YieldOp::create(b, loc);
        });
        scf::YieldOp::create(b, loc, decide.getResult(2));
      });
  return success();
}

//===----------------------------------------------------------------------===//
// NmsPerClassOp
//===----------------------------------------------------------------------===//

SmallVector<utils::IteratorType> NmsPerClassOp::getLoopIteratorTypes() {
  return {utils::IteratorType::parallel, utils::IteratorType::parallel};
}

SmallVector<Range> NmsPerClassOp::getIterationDomain(OpBuilder &b) {
  Value scores = getSortedScores();
  return {Range{b.getIndexAttr(0), dimSize(b, getLoc(), scores, 0),
                b.getIndexAttr(1)},
          Range{b.getIndexAttr(0), dimSize(b, getLoc(), scores, 1),
                b.getIndexAttr(1)}};
}

FailureOr<TilingResult>
NmsPerClassOp::getTiledImplementation(OpBuilder &b,
                                      ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  auto full = [&](Value shaped, int64_t d) {
    return dimSize(b, loc, shaped, d);
  };
  OpFoldResult zero = b.getIndexAttr(0);
  // Boxes: the tile's batches, every box.
  Operation *boxes =
      sliceOf(b, loc, getBoxes(), {offsets[0], zero, zero},
              {sizes[0], full(getBoxes(), 1), full(getBoxes(), 2)});
  // Candidates and slots: the tile's (batch, class) rows, whole.
  auto rows = [&](Value shaped) {
    return sliceOf(b, loc, shaped, {offsets[0], offsets[1], zero},
                   {sizes[0], sizes[1], full(shaped, 2)});
  };
  Operation *scores = rows(getSortedScores());
  Operation *order = rows(getOrder());
  Operation *slots = rows(getSlotsInit());
  Operation *counts = sliceOf(b, loc, getCountsInit(), offsets, sizes);
  SmallVector<Value> operands = {boxes->getResult(0), scores->getResult(0),
                                 order->getResult(0), slots->getResult(0),
                                 counts->getResult(0)};
  SmallVector<Type> resultTypes;
  if (hasPureTensorSemantics())
    resultTypes = {operands[3].getType(), operands[4].getType()};
  Operation *tiled = cloneWithOperands(b, getOperation(), resultTypes, operands);
  return TilingResult{{tiled},
                      SmallVector<Value>(tiled->getResults()),
                      {boxes, scores, order, slots, counts}};
}

LogicalResult NmsPerClassOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  if (resultNumber == 0) {
    resultOffsets.push_back(b.getIndexAttr(0));
    resultSizes.push_back(b.getIndexAttr(getMaxOutPerClass()));
  }
  return success();
}

namespace {

/// The scalar selection of one (batch, class) of an NMS per class: the
/// values its walk shares.
struct NmsScalarWalk {
  NmsPerClassOp op;
  Value batch, klass, zero, one, oneI64, maxOutI64, iouThreshold, falseValue;
  arith::CmpFPredicate scorePredicate, iouPredicate;

  NmsCorners corners(OpBuilder &b, Location loc, Value box) {
    return buildNmsCorners(
        b, loc, op,
        {batch, arith::IndexCastOp::create(b, loc, b.getIndexType(), box)});
  }

  Value toIndex(OpBuilder &b, Location loc, Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  }

  /// Whether sorted candidate j is one: room left, score above the
  /// threshold.
  Value candidate(OpBuilder &b, Location loc, Value j, Value count) {
    Value room = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       count, maxOutI64);
    std::optional<APFloat> threshold = op.getScoreThreshold();
    if (!threshold)
      return room;
    Value score = memref::LoadOp::create(b, loc, op.getSortedScores(),
                                         ValueRange{batch, klass, j});
    if (!score.getType().isF32())
      score = arith::ExtFOp::create(b, loc, b.getF32Type(), score);
    Value bound = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(threshold->convertToFloat()));
    Value above = arith::CmpFOp::create(b, loc, scorePredicate, score, bound);
    return arith::AndIOp::create(b, loc, room, above);
  }

  /// Candidate j's box kept at slot `count` unless a kept box overlaps it
  /// over the IoU threshold; the count after.
  Value visit(OpBuilder &b, Location loc, Value j, Value count) {
    Value box = memref::LoadOp::create(b, loc, op.getOrder(),
                                       ValueRange{batch, klass, j});
    NmsCorners mine = corners(b, loc, box);
    auto check = scf::ForOp::create(
        b, loc, zero, toIndex(b, loc, count), one, ValueRange{falseValue},
        [&](OpBuilder &b, Location loc, Value t, ValueRange suppressed) {
          Value kept = memref::LoadOp::create(b, loc, op.getSlotsInit(),
                                              ValueRange{batch, klass, t});
          NmsCorners theirs = corners(b, loc, kept);
          Value iou = buildNmsIoU(b, loc, mine, theirs);
          Value over =
              arith::CmpFOp::create(b, loc, iouPredicate, iou, iouThreshold);
          scf::YieldOp::create(
              b, loc,
              arith::OrIOp::create(b, loc, suppressed[0], over).getResult());
        });
    auto select = scf::IfOp::create(
        b, loc, check.getResult(0),
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, count);
        },
        [&](OpBuilder &b, Location loc) {
          memref::StoreOp::create(
              b, loc, box, op.getSlotsInit(),
              ValueRange{batch, klass, toIndex(b, loc, count)});
          scf::YieldOp::create(
              b, loc,
              arith::AddIOp::create(b, loc, count, oneI64).getResult());
        });
    return select.getResult(0);
  }
};

} // namespace

LogicalResult NmsPerClassOp::generateScalarImplementation(OpBuilder &b,
                                                          Location loc,
                                                          ValueRange ivs) {
  if (hasPureTensorSemantics())
    return emitOpError("scalar implementation needs memref operands");
  // The selection of one (batch, class) over its sorted candidates:
  //   count = 0
  //   for j in [0, N):
  //     if count < max_out && (no threshold || score[j] > threshold):
  //       box = order[j]
  //       if no t in [0, count) has IoU(box, slots[t]) > iou_threshold:
  //         slots[count] = box; count += 1
  //   counts = count
  // Injected faults (recorded by sift-decompose-nms) change a comparison or
  // the corners: nms-score-threshold-ge keeps scores >= the threshold,
  // nms-iou-ge suppresses at IoU >= the threshold, nms-unnormalized-corners
  // takes corner-format boxes as [ymin, xmin, ymax, xmax] (in
  // buildNmsCorners).
  Operation *self = getOperation();
  NmsScalarWalk w;
  w.op = *this;
  w.scorePredicate = hasInjectedFault(self, Fault::NmsScoreThresholdGe)
                         ? arith::CmpFPredicate::OGE
                         : arith::CmpFPredicate::OGT;
  w.iouPredicate = hasInjectedFault(self, Fault::NmsIouGe)
                       ? arith::CmpFPredicate::OGE
                       : arith::CmpFPredicate::OGT;
  w.batch = ivs[0];
  w.klass = ivs[1];
  int64_t n = cast<ShapedType>(getSortedScores().getType()).getDimSize(2);
  int64_t maxOut = getMaxOutPerClass();
  w.zero = arith::ConstantIndexOp::create(b, loc, 0);
  w.one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zeroI64 = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  w.oneI64 = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 1);
  w.maxOutI64 = arith::ConstantIntOp::create(b, loc, b.getI64Type(), maxOut);
  w.iouThreshold = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(getIouThreshold().convertToFloat()));
  w.falseValue = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  Value count = zeroI64;
  if (maxOut > 0 && n > 0) {
    auto walk = scf::ForOp::create(
        b, loc, w.zero, arith::ConstantIndexOp::create(b, loc, n), w.one,
        ValueRange{zeroI64},
        [&](OpBuilder &b, Location loc, Value j, ValueRange iterArgs) {
          Value count = iterArgs[0];
          auto visit = scf::IfOp::create(
              b, loc, w.candidate(b, loc, j, count),
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, w.visit(b, loc, j, count));
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(b, loc, count);
              });
          scf::YieldOp::create(b, loc, visit.getResult(0));
        });
    count = walk.getResult(0);
  }
  memref::StoreOp::create(b, loc, count, getCountsInit(),
                          ValueRange{w.batch, w.klass});
  return success();
}
