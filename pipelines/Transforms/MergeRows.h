//===- MergeRows.h - Tile sorts and merge passes for long rows --*- C++ -*-===//
//
// The `merge_rows` lowering that sift-workgroup-rows applies to sift.sort and
// sift.topk rows longer than a workgroup's memory (MergeRows.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Transforms/RowKernels.h"

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
