//===- SplitTopk.h - tileandfuse's split top-k of long rows -----*- C++ -*-===//
//
// Algorithm `split_select` (sift.topk; tileandfuse), applied by
// sift-split-topk before tiling (SplitTopk.cpp).
//
// Phases:      the chunks' top-k (tiled and fused: chunks of up to
//              kLongestThreadChunk a thread each, a private_row with the
//              split_part mark; longer chunks a top-k like any, which
//              strategy selection gives a cooperative algorithm, e.g. the
//              one-launch radix_select a chunk), then the top-k of the
//              candidates, itself split again while it is long.
// Launches:    none of its own: a tensor rewrite before tiling; the parts
//              become tileandfuse's kernels like any op.
// Plan buffers: the candidates (values and indices, C x k a row, and the
//              remainder's values), tensors that bufferization places.
// Limits:      a top-k on tensors along the last dimension, k >= 1, a row
//              longer than a chunk of row_tile > k elements; the strategy's
//              splitChunks takes chunks of 2k or more whose split takes at
//              most four levels.
// Follows:     the split-reduction of a top-k, as XLA's TopkSplitter and
//              IREE's top-k split reduction rewrite it.
// Faults:      split-lost-chunk-offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/Builders.h"

namespace sift {

/// The unit attribute sift-split-topk puts on a split's per-chunk top-k
/// of chunks a thread walks: strategy selection gives it a thread per
/// chunk, and its private_row lowering reads the chunk in place.
inline constexpr llvm::StringLiteral kSplitPartAttr = "sift.split_part";

/// The unit attribute sift-split-topk puts on a split's per-chunk top-k
/// of longer chunks: strategy selection gives it any algorithm but a split
/// of its own (sift-split-topk has run).
inline constexpr llvm::StringLiteral kSplitLongPartAttr =
    "sift.split_long_part";

/// The longest chunk a split's thread walks alone (the part gets the
/// split_part mark); the parts of longer chunks are top-k's like any, a
/// cooperative algorithm a chunk (on the H200, [64, 151936] k50 split in
/// two took 0.044 ms for its parts against 0.069 for the unsplit rows,
/// 64 workgroups of the one-launch radix_select on 132 SMs).
inline constexpr int64_t kLongestThreadChunk = 1024;

/// The values and i64 indices that replace a split top-k's results.
struct SplitTopkParts {
  mlir::Value values;
  mlir::Value indices;
};

/// Builds, before `op` (a sift.topk on tensors along its last dimension),
/// its split into chunks of `chunk` elements and the top-k of their
/// candidates. `lostChunkOffset` plants fault split-lost-chunk-offset.
/// Does not erase the op.
SplitTopkParts buildSplitTopk(mlir::OpBuilder &b, TopkOp op, int64_t chunk,
                              bool lostChunkOffset);

} // namespace sift
