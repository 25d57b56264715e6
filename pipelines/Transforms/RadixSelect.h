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
  bool compactDropsBetter = false; ///< fault radix-compact-drops-better
  bool fusedBinsKept = false; ///< fault radix-fused-bins-kept
};

/// A row's matching elements are compacted into a survivors buffer when the
/// chosen bin holds at most 1/kRadixCompactBelow of the row, or at most
/// kRadixCompactUpTo elements (few enough that their global atomics cost
/// nothing, and so short rows compact too): the later passes then read
/// only them.
inline constexpr int64_t kRadixCompactBelow = 32;
inline constexpr int64_t kRadixCompactUpTo = 256;

/// The bits a radix select digit takes, and so a histogram's bins.
inline constexpr int64_t kRadixBits = 8;
inline constexpr int64_t kRadixBins = int64_t{1} << kRadixBits;

/// Builds, at the rewriter's insertion point, the dispatches that select
/// the top k of every row of `row` (a sift.topk): plan buffers, an init
/// dispatch, a histogram and a pick dispatch per digit (a histogram
/// dispatch may compact a row's survivors), a filter and a ranking
/// dispatch; or, when `options.chunk` covers the row and `options.threads`
/// >= kRadixBins, one dispatch of a workgroup a row that does it all (the
/// one-launch form). Does not erase the op.
mlir::LogicalResult lowerTopkByRadixSelect(mlir::RewriterBase &rewriter,
                                           const RowOp &row,
                                           const RadixSelectOptions &options);

} // namespace sift
