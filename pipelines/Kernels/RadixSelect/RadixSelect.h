//===- RadixSelect.h - Multi-pass radix select of long rows -----*- C++ -*-===//
//
// Algorithm `radix_select` (sift.topk; distribute and tileandfuse), applied
// by sift-workgroup-rows. Its home: RadixSelect.cpp (plan buffers, init,
// the picks, the rank, the one-launch form), RadixSelectPasses.cpp (the
// passes over a row: histograms with compaction, the filter) and
// RadixSelectLowering.h (the builder they share).
//
// Phases:      per 8-bit digit from the top: a histogram of the elements
//              that match the digits chosen so far (compacting the row into
//              survivors once the chosen bin is small), a pick of the digit
//              where the count reaches what is left of k (early stop when a
//              bin holds exactly that); a filter of the elements at or above
//              the chosen prefix into k candidates; a rank of the candidates.
// Launches:    init, then histogram and pick a digit, filter, rank; the
//              one-launch form (a row one chunk, 256 threads or more): one
//              launch, a workgroup a row, whose first pass counts 11 bits
//              and picks two key digits from them.
// Plan buffers: per row its state, counters, 256-bin histograms, survivors
//              and candidates; the one-launch form keeps all but the
//              survivors in workgroup memory.
// Limits:      k <= 256 drawn, 128 by default (each candidate counts the
//              candidates better than it); rows of 1,024 or more by default.
// Follows:     AIR top-k (Zhang et al., "Parallel Top-K Algorithms on GPU",
//              SC 2023) and CUB's DeviceTopK; the one-launch form as AIR's
//              one-block variant and FlashInfer's top-k.
// Faults:      radix-digit-off-by-one, select-done-race,
//              radix-compact-drops-better, radix-fused-bins-kept,
//              bf16-order-f16-layout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

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
