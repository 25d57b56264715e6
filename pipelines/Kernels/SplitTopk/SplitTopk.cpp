//===- SplitTopk.cpp - tileandfuse's split top-k of long rows -------------===//
//
// Algorithm split_select, the split-reduction shape of a top-k: a row of N
// elements (along the last dimension) is viewed as C = N / row_tile chunks
// of row_tile elements; a per-thread top-k of every chunk (an op tiled and
// fused like any other, one chunk a thread) keeps k candidates a chunk, and
// a top-k of the C * k candidates picks the result; it is split again while
// its row still divides into chunks longer than k. The candidates' positions
// map back to input indices: candidate p of a row came from chunk p / k, at
// index (its chunk index) + (p / k) * row_tile.
//
// Exact under SEMANTICS.md's ties rule: each chunk's top-k lists equal keys
// by index, and chunks follow one another in index order, so among equal
// keys a lower candidate position is a lower input index. SplitTopk.h has
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

/// The top-k of `input` along its last dimension: per-chunk top-k's of
/// `chunk` elements and a top-k of their candidates when the row divides
/// into at least two chunks longer than k; otherwise one top-k (configured
/// later by strategy selection). `valuesInit` is the values' destination.
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
  if (n <= chunk || n % chunk != 0 || chunk < k || k < 1) {
    auto last = topk(input, valuesInit, rank - 1);
    return {last.getResult(0), last.getResult(1)};
  }
  int64_t chunks = n / chunk;
  // [B..., N] viewed as [B..., C, chunk].
  SmallVector<int64_t> expanded(type.getShape());
  expanded.back() = chunks;
  expanded.push_back(chunk);
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 1, rank});
  Value chunked = tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(expanded, type.getElementType()), input,
      groups);
  SmallVector<int64_t> partialShape(expanded);
  partialShape.back() = k;
  Value partialValues =
      tensor::EmptyOp::create(b, loc, partialShape, type.getElementType());
  auto partial = topk(chunked, partialValues, rank);
  partial->setAttr(sift::kSplitPartAttr, b.getUnitAttr());
  // The candidates, [B..., C * k], chunk by chunk.
  auto flat = [&](Value value) -> Value {
    auto valueType = cast<RankedTensorType>(value.getType());
    return tensor::CollapseShapeOp::create(
        b, loc, withLast(type, chunks * k, valueType.getElementType()), value,
        groups);
  };
  Split rest = splitTopk(b, loc, original, flat(partial.getResult(0)),
                         valuesInit, chunk, lostChunkOffset);
  // Candidate p's input index: its index in chunk p / k plus the chunk's
  // start.
  Value chunkIndices = flat(partial.getResult(1));
  auto outType = withLast(type, k, i64);
  Value out = tensor::EmptyOp::create(b, loc, outType.getShape(), i64);
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(2, AffineMap::getMultiDimIdentityMap(rank,
                                                                    context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto gather = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{rest.indices}, ValueRange{out},
      maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value position = args[0];
        SmallVector<Value> at;
        for (int64_t d = 0; d + 1 < rank; ++d)
          at.push_back(linalg::IndexOp::create(nb, nloc, d));
        at.push_back(
            arith::IndexCastOp::create(nb, nloc, nb.getIndexType(), position));
        Value within = tensor::ExtractOp::create(nb, nloc, chunkIndices, at);
        Value kValue = arith::ConstantIntOp::create(nb, nloc, i64, k);
        Value chunkValue = arith::ConstantIntOp::create(nb, nloc, i64, chunk);
        Value which = arith::DivUIOp::create(nb, nloc, position, kValue);
        Value start = arith::MulIOp::create(nb, nloc, which, chunkValue);
        Value index = arith::AddIOp::create(nb, nloc, within, start);
        // Fault split-lost-chunk-offset: the index within the chunk.
        linalg::YieldOp::create(nb, nloc, lostChunkOffset ? within : index);
      });
  return {rest.values, gather.getResult(0)};
}

} // namespace

sift::SplitTopkParts sift::buildSplitTopk(OpBuilder &b, TopkOp op,
                                          int64_t chunk, bool lostChunkOffset) {
  Split split = splitTopk(b, op.getLoc(), op, op.getInput(),
                          op.getValuesInit(), chunk, lostChunkOffset);
  return {split.values, split.indices};
}
