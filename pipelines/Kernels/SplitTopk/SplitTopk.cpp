//===- SplitTopk.cpp - tileandfuse's split top-k of long rows -------------===//
//
// Algorithm split_select, the split-reduction shape of a top-k: a row of N
// elements (along the last dimension) is viewed as C = N / row_tile whole
// chunks of row_tile elements and a remainder of N % row_tile; a top-k of
// every whole chunk (an op tiled and fused like any other: one chunk a
// thread up to kLongestThreadChunk, else whatever algorithm strategy
// selection gives its rows) keeps k candidates a chunk, the remainder's
// elements are candidates as they are, and a top-k of the C * k + N % row_tile
// candidates picks the result; it is split again while its row is longer
// than a chunk. The candidates' positions map back to input indices:
// candidate p < C * k of a row came from chunk p / k, at index (its chunk
// index) + (p / k) * row_tile; a later one is input element
// C * row_tile + (p - C * k).
//
// Exact under SEMANTICS.md's ties rule: each chunk's top-k lists equal keys
// by index, and chunks (the remainder last) follow one another in index
// order, so among equal keys a lower candidate position is a lower input
// index. SplitTopk.h has
// its launches, limits and faults.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/SplitTopk/SplitTopk.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {

/// `type` with its last dimension `size`.
RankedTensorType withLast(RankedTensorType type, int64_t size,
                          Type element = {}) {
  SmallVector<int64_t> shape(type.getShape());
  shape.back() = size;
  return RankedTensorType::get(shape, element ? element : type.getElementType());
}

struct Split {
  Value values;  ///< [B..., k] of the input's element type
  Value indices; ///< [B..., k] i64 positions in the input's last dimension
};

/// One level of a split: a row of `n` = `chunks` * `chunk` + `rest`
/// elements (the last dimension of a [B..., n] tensor of rank `rank`).
struct Level {
  OpBuilder &b;
  Location loc;
  int64_t rank, k, chunk, chunks, rest;

  /// The whole chunks' candidates a row.
  int64_t whole() const { return chunks * k; }

  /// The identity maps of `count` operands and the parallel iterators.
  SmallVector<AffineMap> identity(int64_t count) const {
    return SmallVector<AffineMap>(
        count, AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  }
  SmallVector<utils::IteratorType> parallel() const {
    return SmallVector<utils::IteratorType>(rank,
                                            utils::IteratorType::parallel);
  }

  /// A generic's element's row coordinates, its last one `last`.
  static SmallVector<Value> rowAt(OpBuilder &nb, Location nloc, int64_t rank,
                                  Value last) {
    SmallVector<Value> at;
    for (int64_t d = 0; d + 1 < rank; ++d)
      at.push_back(linalg::IndexOp::create(nb, nloc, d));
    at.push_back(last);
    return at;
  }

  /// [B..., whole + rest]: candidate p is `wholeCandidates`' p below
  /// whole(), else `input`'s element chunks * chunk + (p - whole()). Both
  /// reads stay in bounds (clamped); a select keeps the one that applies.
  Value appendRest(Value input, Value wholeCandidates) const {
    auto type = cast<RankedTensorType>(input.getType());
    auto outType = withLast(type, whole() + rest);
    Value out = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                        type.getElementType());
    int64_t rank = this->rank, whole = this->whole(),
            start = chunks * chunk;
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{outType}, ValueRange{}, ValueRange{out},
        identity(1), parallel(),
        [&](OpBuilder &nb, Location nloc, ValueRange) {
          auto c = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(nb, nloc, v);
          };
          Value p = linalg::IndexOp::create(nb, nloc, rank - 1);
          Value inWhole = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::ult, p, c(whole));
          Value wholeAt = arith::MinUIOp::create(nb, nloc, p, c(whole - 1));
          Value restAt = arith::AddIOp::create(nb, nloc, p, c(start - whole));
          restAt = arith::SelectOp::create(nb, nloc, inWhole, c(start), restAt);
          Value fromWhole = tensor::ExtractOp::create(
              nb, nloc, wholeCandidates, rowAt(nb, nloc, rank, wholeAt));
          Value fromRest = tensor::ExtractOp::create(
              nb, nloc, input, rowAt(nb, nloc, rank, restAt));
          linalg::YieldOp::create(
              nb, nloc,
              Value(arith::SelectOp::create(nb, nloc, inWhole, fromWhole,
                                            fromRest)));
        });
    return generic.getResult(0);
  }

  /// The input indices of the chosen candidates `positions` ([B..., k]
  /// i64): below whole(), `chunkIndices` (the whole chunks' indices within
  /// their chunks, [B..., whole()]) at p plus (p / k) * chunk; else
  /// chunks * chunk + (p - whole()). `lostChunkOffset` (fault
  /// split-lost-chunk-offset) keeps the index within the chunk (within
  /// the remainder).
  Value mapBack(Value positions, Value chunkIndices,
                bool lostChunkOffset) const {
    auto outType = cast<RankedTensorType>(positions.getType());
    Value out = tensor::EmptyOp::create(b, loc, outType.getShape(),
                                        outType.getElementType());
    int64_t rank = this->rank, k = this->k, chunk = this->chunk,
            whole = this->whole(), start = chunks * chunk, rest = this->rest;
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{outType}, ValueRange{positions}, ValueRange{out},
        identity(2), parallel(),
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Type i64 = nb.getI64Type();
          auto c = [&](int64_t v) -> Value {
            return arith::ConstantIntOp::create(nb, nloc, i64, v);
          };
          Value position = args[0];
          Value at =
              arith::IndexCastOp::create(nb, nloc, nb.getIndexType(), position);
          Value kValue = c(k);
          Value chunkValue = c(chunk);
          // A remainder's candidate reads the last whole one (clamped).
          Value wholeCount, inWhole, wholeAt = at;
          if (rest != 0) {
            wholeCount = c(whole);
            inWhole = arith::CmpIOp::create(
                nb, nloc, arith::CmpIPredicate::ult, position, wholeCount);
            wholeAt = arith::MinUIOp::create(
                nb, nloc, at,
                arith::ConstantIndexOp::create(nb, nloc, whole - 1));
          }
          Value within = tensor::ExtractOp::create(
              nb, nloc, chunkIndices, rowAt(nb, nloc, rank, wholeAt));
          Value which = arith::DivUIOp::create(nb, nloc, position, kValue);
          Value first = arith::MulIOp::create(nb, nloc, which, chunkValue);
          Value index = arith::AddIOp::create(nb, nloc, within, first);
          // Fault split-lost-chunk-offset: the index within the chunk (the
          // remainder's own index for its candidates).
          if (rest == 0) {
            linalg::YieldOp::create(nb, nloc,
                                    lostChunkOffset ? within : index);
            return;
          }
          Value restWithin =
              arith::SubIOp::create(nb, nloc, position, wholeCount);
          Value restIndex =
              arith::AddIOp::create(nb, nloc, restWithin, c(start));
          Value chosen =
              lostChunkOffset
                  ? arith::SelectOp::create(nb, nloc, inWhole, within,
                                            restWithin)
                  : arith::SelectOp::create(nb, nloc, inWhole, index,
                                            restIndex);
          linalg::YieldOp::create(nb, nloc, chosen);
        });
    return generic.getResult(0);
  }
};

/// The top-k of `input` along its last dimension: per-chunk top-k's of
/// `chunk` elements and a top-k of their candidates while the row is
/// longer than a chunk of more than k; otherwise one top-k (configured
/// later by strategy selection). A row the chunks do not divide keeps its
/// last `n % chunk` elements as candidates of their own, after the whole
/// chunks' (so candidates stay in index order). `valuesInit` is the
/// values' destination.
Split splitTopk(OpBuilder &b, Location loc, sift::TopkOp original,
                Value input, Value valuesInit, int64_t chunk,
                bool lostChunkOffset) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  int64_t n = type.getShape().back();
  int64_t k = original.getK();
  auto i64 = b.getI64Type();
  auto topk = [&](Value in, Value values, int64_t dim) {
    auto inType = cast<RankedTensorType>(in.getType());
    SmallVector<int64_t> shape(inType.getShape());
    shape[dim] = k;
    auto indicesType = RankedTensorType::get(shape, i64);
    Value indices = tensor::EmptyOp::create(b, loc, shape, i64);
    return sift::TopkOp::create(
        b, loc, TypeRange{values.getType(), indicesType}, in, values, indices,
        b.getI64IntegerAttr(dim), b.getI64IntegerAttr(k),
        original.getOrderAttr());
  };
  if (n <= chunk || chunk <= k || k < 1) {
    auto last = topk(input, valuesInit, rank - 1);
    return {last.getResult(0), last.getResult(1)};
  }
  Level level{b, loc, rank, k, chunk, n / chunk, n % chunk};
  // The whole chunks, [B..., chunks * chunk], viewed as [B..., C, chunk].
  Value wholeChunks = input;
  if (level.rest != 0) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(b.getIndexAttr(size));
    sizes.back() = b.getIndexAttr(level.chunks * chunk);
    wholeChunks = tensor::ExtractSliceOp::create(
        b, loc, withLast(type, level.chunks * chunk), input, offsets, sizes,
        strides);
  }
  SmallVector<int64_t> expanded(type.getShape());
  expanded.back() = level.chunks;
  expanded.push_back(chunk);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 1, rank});
  Value chunked = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(expanded, type.getElementType()),
      wholeChunks, groups);
  SmallVector<int64_t> partialShape(expanded);
  partialShape.back() = k;
  Value partialValues =
      tensor::EmptyOp::create(b, loc, partialShape, type.getElementType());
  auto partial = topk(chunked, partialValues, rank);
  partial->setAttr(chunk <= sift::kLongestThreadChunk
                       ? sift::kSplitPartAttr
                       : sift::kSplitLongPartAttr,
                   b.getUnitAttr());
  // The whole chunks' candidates, [B..., C * k], chunk by chunk.
  auto flat = [&](Value value) -> Value {
    auto valueType = cast<RankedTensorType>(value.getType());
    return tensor::CollapseShapeOp::create(
        b, loc, withLast(type, level.whole(), valueType.getElementType()),
        value, groups);
  };
  Value candidates = flat(partial.getResult(0));
  if (level.rest != 0)
    candidates = level.appendRest(input, candidates);
  Split next = splitTopk(b, loc, original, candidates, valuesInit, chunk,
                         lostChunkOffset);
  return {next.values, level.mapBack(next.indices, flat(partial.getResult(1)),
                                     lostChunkOffset)};
}

} // namespace

sift::SplitTopkParts sift::buildSplitTopk(OpBuilder &b, TopkOp op,
                                          int64_t chunk, bool lostChunkOffset) {
  Split split = splitTopk(b, op.getLoc(), op, op.getInput(),
                          op.getValuesInit(), chunk, lostChunkOffset);
  return {split.values, split.indices};
}
