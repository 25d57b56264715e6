//===- MergeRows.h - Tile sorts and merge passes for long rows --*- C++ -*-===//
//
// Algorithm `merge_rows` (sift.sort, sift.topk of any comparator;
// distribute and tileandfuse), applied by sift-workgroup-rows
// (MergeRows.cpp).
//
// Phases:      tile sorts (the bitonic network of RowKernels.h over tiles
//              of row_tile elements); merge passes, each joining pairs of
//              sorted runs by merge path; write-out of the first K of each
//              row (K = n for a sort, k for a top-k).
// Launches:    one of tile sorts, ceil(log2(tiles)) merges, one write-out.
// Plan buffers: two run buffers (keys and i32 row indices, [rows, n] each)
//              and a copy of a sort's other operands.
// Limits:      a tile's (key, i32) pairs must fit workgroup memory; any
//              comparator (the fallback of rows too long for workgroup_row
//              that no radix sort takes).
// Follows:     Green, McColl and Bader, "GPU merge path" (2012), as in
//              moderngpu's mergesort and Thrust's merge sort.
// Faults:      merge-drop-last, dist-no-barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// How a merge_rows lowering is built: the config's tile and threads, and
/// the faults it may plant.
struct MergeRowsOptions {
  int64_t tile = 0;     ///< elements a workgroup sorts (a power of two)
  int64_t threads = 1;  ///< threads of every workgroup of every dispatch
  bool barriers = true; ///< false: fault dist-no-barrier
  bool dropLast = false; ///< fault merge-drop-last
};

/// Builds, at the rewriter's insertion point, the dispatches that sort
/// (or select the top k of) every row of `row`: plan buffers, one launch of
/// tile sorts, one launch per merge pass, one that writes the results.
/// Does not erase the op.
mlir::LogicalResult lowerRowsByMerging(mlir::RewriterBase &rewriter,
                                       const RowOp &row,
                                       const MergeRowsOptions &options);

} // namespace sift
