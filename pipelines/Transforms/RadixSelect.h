//===- RadixSelect.h - Multi-pass radix select for long top-k rows -*- C++ -*-===//
//
// The `radix_select` lowering that sift-workgroup-rows applies to sift.topk
// ops (RadixSelect.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Transforms/RowKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// How a radix_select lowering is built: the config's chunk and threads,
/// and the fault it may plant.
struct RadixSelectOptions {
  int64_t chunk = 0;    ///< elements of a row one workgroup counts
  int64_t threads = 1;  ///< threads of a counting or filtering workgroup
  bool digitOffByOne = false; ///< fault radix-digit-off-by-one
  bool doneRace = false;      ///< fault select-done-race
  bool halfNanLayout = false; ///< fault bf16-order-f16-layout
};

/// The bits a radix select digit takes, and so a histogram's bins.
inline constexpr int64_t kRadixBits = 8;
inline constexpr int64_t kRadixBins = int64_t{1} << kRadixBits;

/// Builds, at the rewriter's insertion point, the dispatches that select
/// the top k of every row of `row` (a sift.topk): plan buffers, an init
/// dispatch, a histogram and a pick dispatch per digit, a filter and a
/// ranking dispatch. Does not erase the op.
mlir::LogicalResult lowerTopkByRadixSelect(mlir::RewriterBase &rewriter,
                                           const RowOp &row,
                                           const RadixSelectOptions &options);

} // namespace sift
