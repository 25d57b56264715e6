//===- RadixSort.h - LSD radix sort of long rows ----------------*- C++ -*-===//
//
// Algorithms `radix_sort`, `radix_match` and `radix_onesweep` (sift.sort
// with a named order, sift.topk; distribute and tileandfuse), applied by
// sift-workgroup-rows. This folder is their home: RadixSort.cpp (plan
// buffers, the count, scan and scatter launches), RadixRank.cpp (a tile's
// ranking: two 4-bit splits, or radix_match's warp match), RadixScan.cpp
// (the block scan they all run, by warp shuffles), RadixOnesweep.cpp
// (radix_onesweep's init, histogram and decoupled look-back) and
// RadixSortLowering.h (the builder the three share).
//
// Phases:      per 8-bit digit of the keys' order bits, least significant
//              first: count each tile's digits, scan the counts into the
//              tiles' offsets, scatter each tile stably to its buckets.
//              radix_onesweep: one histogram launch for every digit, then
//              a scatter per digit whose offsets come by look-back.
//              Their block scans (the splits', the scan launch's,
//              radix_match's counts) run in warps by shuffles up and add
//              the warps' totals after one barrier (threads in whole warps
//              of 32; else Hillis-Steele in workgroup memory).
// Launches:    three a digit (count, scan, scatter); radix_onesweep: init,
//              histogram, one a digit.
// Plan buffers: keys and i32 row positions twice (ping-pong), [rows, 256 x
//              tiles] counts and [rows, 256] totals; radix_onesweep its
//              histogram, status words and tickets.
// Limits:      a named order (no comparator region) or a top-k (which keeps
//              the first k of the sorted row); a tile's staging must fit
//              workgroup memory (radixSortWorkgroupBytes).
// Follows:     Merrill and Grimshaw, "High performance and scalable radix
//              sorting" (2011), CUB's DeviceRadixSort; radix_onesweep
//              Adinets and Merrill, "Onesweep" (2022); radix_match CUB's
//              BlockRadixRankMatch (its peers by ballots, or where the
//              table fits matchMasksBudget by atomic ORs into a table of
//              peer masks, as CUB's WARP_MATCH_ATOMIC_OR).
// Faults:      radix-scan-lost-carry, radix-match-peer-bit-lost,
//              radix-lookback-skips-one, radix-tail-overrun,
//              radix-split-unzeroed, scan-barrier-in-branch,
//              bf16-order-f16-layout, dist-no-barrier; in the target's
//              lowering of their warp ops (Transforms/LowerWarpOps.cpp):
//              warp-ballot-low-half, warp-sync-dropped,
//              warp-shuffle-wave-width.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// How a radix_sort lowering is built: the config's tile and threads, and
/// the faults it may plant.
struct RadixSortOptions {
  int64_t tile = 0;       ///< elements of a row one workgroup ranks
  int64_t threads = 1;    ///< threads of a workgroup (at most `tile`)
  bool barriers = true;   ///< false: fault dist-no-barrier
  bool lostCarry = false; ///< fault radix-scan-lost-carry
  /// Each pass's offsets by decoupled look-back instead of a count and a
  /// scan dispatch (algorithm radix_onesweep).
  bool onesweep = false;
  bool lookbackSkipsOne = false; ///< fault radix-lookback-skips-one
  bool tileByBlock = false;      ///< fault radix-tile-by-block
  bool tailOverrun = false;      ///< fault radix-tail-overrun
  bool splitUnzeroed = false;    ///< fault radix-split-unzeroed
  bool scanBarrierInBranch = false; ///< fault scan-barrier-in-branch
  /// Each tile ranked by warp match instead of two 4-bit splits
  /// (algorithm radix_match).
  bool match = false;
  bool matchPeerBitLost = false; ///< fault radix-match-peer-bit-lost
  /// radix_match: the workgroup memory (bytes) a scatter workgroup may take
  /// with a table of its warps' peer masks, [warps][256] i32, beside its
  /// other arrays (else, for 32-bit keys, the table takes the start of the
  /// second key array). With the table a warp finds the lanes that share
  /// an item's digit by an atomic OR of each lane's bit into the digit's
  /// entry instead of nine ballots; 0: ballots always.
  int64_t matchMasksBudget = 0;
  bool halfNanLayout = false;    ///< fault bf16-order-f16-layout
};

/// The bits a pass of the radix sort places by, and the bits of each of the
/// two splits that rank them within a workgroup.
inline constexpr int64_t kRadixSortDigitBits = 8;
inline constexpr int64_t kRadixSortSplitBits = 4;

/// The workgroup memory (bytes) a radix_sort workgroup of `threads` threads
/// on tiles of `tile` keys of `keyBytes` bytes takes, with or without their
/// i32 row positions (`slots`), as radix_sort, radix_onesweep or (`match`)
/// radix_match.
int64_t radixSortWorkgroupBytes(int64_t tile, int64_t threads, int64_t keyBytes,
                                bool slots, bool onesweep, bool match = false);

/// Whether radix_sort moves each key with its i32 row position: for a
/// top-k's indices and a sort's other operands, not for a sort of keys
/// alone.
bool radixSortNeedsSlots(mlir::Operation *op);

/// Whether radix_sort can order `op`'s rows: a sift.sort with a named
/// order (a comparator region is opaque to it) or a sift.topk.
bool radixSortable(mlir::Operation *op);

/// Builds, at the rewriter's insertion point, the dispatches that sort the
/// rows of `row` (a sift.sort with a named order, or a sift.topk whose
/// first k of each sorted row it keeps): plan buffers, an init dispatch and
/// per 8-bit digit a count, a scan and a scatter dispatch. Does not erase
/// the op.
mlir::LogicalResult lowerRowsByRadixSort(mlir::RewriterBase &rewriter,
                                         const RowOp &row,
                                         const RadixSortOptions &options);

} // namespace sift
