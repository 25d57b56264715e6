//===- RadixSortLowering.h - How radix_sort kernels are built ---*- C++ -*-===//
//
// The builder the radix sorts share (RadixSort.cpp: plan buffers, the
// count, scan and scatter launches; RadixRank.cpp: the tile rankings, two
// 4-bit splits or warp match; RadixOnesweep.cpp: radix_onesweep's init and
// histogram launches and its decoupled look-back). Private to those three
// files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RadixSort/RadixSort.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace sift::radixsort {

using namespace mlir;

inline constexpr int64_t kBins = int64_t{1} << kRadixSortDigitBits;
inline constexpr int64_t kSplitBins = int64_t{1} << kRadixSortSplitBits;
/// The most threads of a scan workgroup.
inline constexpr int64_t kScanThreads = 256;
/// The most elements a thread loads before it uses the first.
inline constexpr int64_t kLoadsAhead = 16;

/// Builds the dispatches of one radix_sort or radix_onesweep lowering.
class RadixSortLowering : sift::RowKernelBuilder {
public:
  RadixSortLowering(RewriterBase &rewriter, const sift::RowOp &row,
                    const sift::RadixSortOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options) {}

  LogicalResult build();

private:
  void barrier(OpBuilder &b) {
    if (options.barriers)
      gpu::BarrierOp::create(b, loc);
  }
  Value workgroupArray(OpBuilder &b, int64_t size, Type element) {
    return memref::AllocOp::create(
        b, loc, sift::workgroupMemRefType(b.getContext(), size, element));
  }

  /// Where tile position `e` lives in a staged array: a thread's items are
  /// contiguous, so a gap after every `items` keeps the threads of a warp
  /// on different banks when each walks its own items.
  int64_t items() const { return options.tile / options.threads; }
  int64_t stagedSize() const {
    return options.tile + (items() > 1 ? options.threads : 0);
  }
  Value staged(OpBuilder &b, Value e) {
    if (items() == 1)
      return e;
    return add(b, e, arith::DivUIOp::create(b, loc, e, index(b, items())));
  }
  /// The same for entry `i` of the split counts, which the scan walks in
  /// chunks of kSplitBins a thread.
  int64_t tableSize() const { return (kSplitBins + 1) * options.threads; }
  Value tableAt(OpBuilder &b, Value i) {
    return add(b, i, arith::DivUIOp::create(b, loc, i, index(b, kSplitBins)));
  }

  /// A [rows, n] plan buffer (a host allocation the plan owns).
  Value allocate(Type element) {
    return memref::AllocOp::create(b, loc,
                                   MemRefType::get({rows, row.n}, element));
  }

  /// Bits [shift, shift + width) of `key`'s order bits, as an index
  /// (`shift` an index).
  Value digitOf(OpBuilder &b, Value key, Value shift, int64_t width);
  /// Where pass `pass` (an index) takes its digit from.
  Value passShift(OpBuilder &b, Value pass) {
    return mul(b, pass, index(b, sift::kRadixSortDigitBits));
  }
  Value passDigit(OpBuilder &b, Value key, Value pass) {
    return digitOf(b, key, passShift(b, pass), sift::kRadixSortDigitBits);
  }

  /// Pass `pass`'s number as its kernels see it: a constant for the first
  /// pass (and for every pass of keys of one or two bytes), else a load
  /// from the pass's own one-element plan buffer, which the first launch
  /// fills. The passes' launches then outline to the same kernels but for
  /// the first pass's (which read the op's operands) and the last scatter
  /// (which writes its results): their buffers are arguments, the
  /// ping-pong side only swaps them. sift-dedupe-kernels makes those one:
  /// an f64 sort builds 7 kernels instead of 24, and the GPU backend
  /// compiles each once.
  Value passIndex(OpBuilder &b, int64_t pass) {
    if (!passIds[pass])
      return index(b, pass);
    return toIndex(b,
                   memref::LoadOp::create(b, loc, passIds[pass], index(b, 0)));
  }
  /// The first launch's thread 0 of workgroup 0 writes the number of every
  /// pass that passIndex loads into that pass's buffer.
  void writePassIds(OpBuilder &b, Value block, Value tid);

  Tile tileOf(OpBuilder &b, Value block) {
    return RowKernelBuilder::tileOf(b, block, tiles, options.tile, row);
  }

  /// The (key, i32 row position) at position `at` of row `r` as pass
  /// `pass` reads it: the op's operand first, then the previous pass's
  /// buffers.
  std::pair<Value, Value> load(OpBuilder &b, int64_t pass, const Tile &c,
                               Value at);

  /// Runs `body(e, values)` for the positions e = tid + k * threads of
  /// tile `c` (every k < ceil(tile / threads) with e within the tile),
  /// where `values` are what `loads(at)` returned for e's position `at` in
  /// the row. Up to kLoadsAhead positions at a time are loaded before the
  /// first is used (past the tile's end at its last position), so that a
  /// thread's loads are in flight together rather than one latency each.
  void forEachLoadedAhead(
      OpBuilder &b, const Tile &c, Value tid, int64_t threadCount,
      function_ref<SmallVector<Value>(OpBuilder &, Value)> loads,
      function_ref<void(OpBuilder &, Value, ArrayRef<Value>)> body);

  void launch(int64_t blocks, int64_t threads,
              function_ref<void(OpBuilder &, Value, Value)> body) {
    sift::buildLaunch(b, loc, blocks, threads, body);
  }

  /// onesweep: zeroes the histogram, the tiles' status words and the
  /// passes' tickets (the plan runs again on the same buffers).
  void buildInit();

  /// A launch of a workgroup per tile that counts the digits of passes
  /// [first, first + count) of its keys (read as pass `first` reads them)
  /// in workgroup-memory bins, bins[(p - first) * 256 + digit], and hands
  /// them to `writeOut(b, tile, bins, tid, threads)` after a barrier. The
  /// first pass also copies a sort's other operands aside. Counting needs
  /// little workgroup memory: up to 512 threads a tile (more than the
  /// scatter's), for more loads in flight.
  void buildDigitCount(
      int64_t first, int64_t count,
      function_ref<void(OpBuilder &, const Tile &, Value, Value, Value)>
          writeOut);

  /// onesweep: every pass's digit counts of each row in one read of the
  /// keys, each tile's added to the row's with global atomics.
  void buildHistogram();

  /// Copies a sort's other operands at row position `at` aside (the first
  /// pass reads them; the last writes them back by row position).
  void copyAside(OpBuilder &b, const Tile &c, Value at);

  /// Pass `pass`: each tile's digit counts, bucket-major
  /// (counts[r][d * tiles + t]).
  void buildCount(int64_t pass);

  /// An exclusive scan, from `carryIn` (i32), of `count` i32 values that
  /// `get` and `put` read and write, by `threadCount` threads (`tid`):
  /// each sums a contiguous chunk, the sums are scanned (scanWarpShuffles
  /// for whole warps, else scanHillisSteele), and each thread rewrites its
  /// chunk from the sum of the chunks before it. `loseCarry` (fault
  /// radix-scan-lost-carry) drops that sum for odd threads. Returns the
  /// sum of all `count` values (without `carryIn`).
  Value buildBlockScan(OpBuilder &b, Value tid, int64_t threadCount,
                       Value count, Value carryIn,
                       function_ref<Value(OpBuilder &, Value)> get,
                       function_ref<void(OpBuilder &, Value, Value)> put,
                       Value partials, bool loseCarry);

  /// The scan of the threads' `sum`s when they are whole warps of
  /// kScanWarp: each warp's inclusive scan by five shuffles up, the warps'
  /// totals in `partials` (a slot per warp) after one barrier, each thread
  /// adding those before its warp. Returns (the sum before the thread's,
  /// the sum of all). The fault scan-barrier-in-branch puts the barrier in
  /// the warps' last lanes' branch.
  std::pair<Value, Value> scanWarpShuffles(OpBuilder &b, Value tid,
                                           int64_t threadCount, Value sum,
                                           Value partials);

  /// The same scan for any thread count, in `partials` (a slot per thread;
  /// Hillis-Steele, two barriers a step). The fault scan-barrier-in-branch
  /// puts a step's first barrier in the adding threads' branch.
  std::pair<Value, Value> scanHillisSteele(OpBuilder &b, Value tid,
                                           int64_t threadCount, Value sum,
                                           Value partials);

  /// The lanes of the warp a block scan shuffles in (sift.warp_shuffle_up
  /// works in warps of 32 on both targets).
  static constexpr int64_t kScanWarp = 32;

  /// Pass `pass`: a workgroup per (row, digit) makes its bucket's counts
  /// the tiles' offsets in the row (buildSerialScan for short rows).
  void buildScan(int64_t pass);

  /// buildScan for rows of fewer than kScanWarp tiles: a workgroup of kBins
  /// threads a row, thread d scanning bucket d's tiles serially.
  void buildSerialScan();

  /// Stably sorts the first `length` (key, slot) pairs of the workgroup
  /// arrays `from` by bits [shift, shift + 4) into `to`: thread t takes
  /// items [t * items, (t + 1) * items); `table[bucket * threads + t]`
  /// counts its items per bucket, a scan makes the counts places.
  void buildSplit(OpBuilder &b, Value tid, Value length,
                  std::pair<Value, Value> from, std::pair<Value, Value> to,
                  Value shift, Value table, Value partials);

  /// What a lane of buildMatchRank knows of its warp: its lane, the masks
  /// of the lanes below and above it, where its warp's counts and items
  /// start, the tile's last element.
  struct MatchLanes {
    Value lane, lower, higher, warpCounts, first, last;
  };
  /// An item of a lane: whether it is in the tile, its key and slot, its
  /// digit and its rank among its warp's items of that digit.
  struct MatchItem {
    Value valid, key, slot, digit, rank;
  };

  /// radix_match: the lane's view of its warp in a tile of `length`.
  MatchLanes matchLanes(OpBuilder &b, Value tid, Value length);
  /// radix_match: the lane's items of tile `c`, read straight from pass
  /// `pass`'s source (no staging in workgroup memory): warp w's lane l
  /// takes items at w * 32 * items + i * 32 + l (i < items, in order;
  /// coalesced across the warp), all loaded before any is ranked. Past the
  /// tile's end a lane reads the tile's last element and counts nothing
  /// (the fault radix-tail-overrun reads past it).
  SmallVector<MatchItem> loadMatchItems(OpBuilder &b, int64_t pass,
                                        const Tile &c, const MatchLanes &l);

  /// radix_match: stably sorts the lane's loaded `items` of a tile by pass
  /// `pass`'s digit into the workgroup arrays `to`, and makes starts[d]
  /// where digit d starts in the sorted tile. For each item the warp finds
  /// the lanes that share its digit (eight ballots, or with `masks` an
  /// atomic OR of each lane's bit into masks[w][digit], read back after a
  /// warp sync and cleared by the group's highest lane), the highest of
  /// them adds their number to the warp's count of the digit in `counters`
  /// (workgroup memory, [warps][256]) and each ranks after the lower ones;
  /// a scan over (digit, warp) then makes the counts places. The fault
  /// radix-match-peer-bit-lost ignores the top bit.
  void buildMatchRank(OpBuilder &b, Value tid, Value pass, const MatchLanes &l,
                      SmallVector<MatchItem> &items, std::pair<Value, Value> to,
                      Value counters, Value masks, Value starts,
                      Value partials);

  /// Item `item` of the lane (loaded): its peers found, counted by the
  /// group's highest lane, its digit and rank set.
  void matchItem(OpBuilder &b, const MatchLanes &l, Value pass, MatchItem &item,
                 Value counters, Value masks);
  /// The lanes of the warp whose item has the same bin (with `masks` by
  /// atomic ORs into masks[warp][bin], else by ballots), among the valid.
  Value matchPeers(OpBuilder &b, const MatchLanes &l, const MatchItem &item,
                   Value bin, Value masks);
  /// Whether radix_match's scatter takes a table of peer masks of its own:
  /// the workgroup's arrays and the table fit matchMasksBudget.
  bool matchByMasks() const;
  /// Whether, where the table does not fit beside them, it takes the start
  /// of the second array of 32-bit keys instead (allocated as i32: an f32
  /// key is stored there as its bits), which the ranking fills only after
  /// its last item.
  bool matchMasksInTile() const;
  /// A key of a staged array (as i32 bits where the array is i32).
  Value loadStagedKey(OpBuilder &b, Value array, Value at);
  void storeStagedKey(OpBuilder &b, Value key, Value array, Value at);

  /// counters[w][d] becomes where warp w's items of digit d start in the
  /// sorted tile, starts[d] where digit d does.
  void scanMatchCounts(OpBuilder &b, Value tid, Value counters, Value starts,
                       Value partials);
  int64_t warps() const { return options.threads / 32; }

  /// onesweep: the workgroup's tile number in pass `pass`, the next ticket
  /// (thread 0 takes it, workgroup memory hands it to the others).
  Value ticketOf(OpBuilder &b, Value tid, Value pass);

  /// The status word of tile `t`'s digit `d`: the pass's epoch above a
  /// count, an aggregate (the tile's own count) at 2 * pass + 1, an
  /// inclusive prefix (the count of every tile up to it) at 2 * pass + 2;
  /// an earlier pass's epoch reads as not yet published.
  Value statusWord(OpBuilder &b, Value epoch, Value count) {
    Value high = arith::ShLIOp::create(b, loc, epoch, i64(b, 32));
    return arith::OrIOp::create(
        b, loc, high, arith::ExtUIOp::create(b, loc, b.getI64Type(), count));
  }

  /// Where tile `t`'s word for digit `d` is in the status words of tile
  /// `c`'s row.
  SmallVector<Value> statusSlot(OpBuilder &b, const Tile &c, Value t, Value d) {
    return {c.r, add(b, mul(b, t, index(b, kBins)), d)};
  }
  Value aggregateEpoch(OpBuilder &b, Value pass) { return epoch(b, pass, 1); }
  Value inclusiveEpoch(OpBuilder &b, Value pass) { return epoch(b, pass, 2); }
  Value epoch(OpBuilder &b, Value pass, int64_t plus) {
    Value twice = mul(b, pass, index(b, 2));
    return arith::IndexCastUIOp::create(b, loc, b.getI64Type(),
                                        add(b, twice, index(b, plus)));
  }
  Value isFirstTile(OpBuilder &b, const Tile &c) {
    return cmp(b, arith::CmpIPredicate::eq, c.number, index(b, 0));
  }

  /// onesweep: publishes tile `c`'s count of each digit (`counts`), an
  /// inclusive prefix for the row's first tile, an aggregate otherwise.
  void publishCounts(OpBuilder &b, Value tid, Value pass, const Tile &c,
                     Value counts);

  /// A relaxed (monotonic) atomic load of `buffer[at]`: memref has no
  /// atomic load, and an atomic RMW that adds nothing makes every reader of
  /// a word own its cache line at the L2 in turn.
  Value relaxedLoad(OpBuilder &b, Value buffer, ArrayRef<Value> at);

  /// onesweep: for each digit, walks back over the tiles before tile `c`
  /// for their counts (decoupled look-back: an inclusive prefix ends the
  /// walk, an aggregate adds its count and goes on, an unpublished word is
  /// read again), publishes the tile's inclusive prefix, and makes bases[d]
  /// the digit's place in the row less its start in the tile. A tile waits
  /// only for tiles with earlier tickets, whose workgroups have started.
  /// The fault radix-lookback-skips-one starts the walk a tile too early.
  void lookBack(OpBuilder &b, Value tid, Value pass, const Tile &c,
                Value counts, Value starts, Value bases);

  /// Pass `pass`: a workgroup per tile sorts it by the digit in workgroup
  /// memory and writes each element to its place in the row.
  void buildScatter(int64_t pass);

  /// A scatter workgroup's tile and workgroup memory.
  struct ScatterTile {
    Value p, tid, threads;
    Tile c;
    /// onesweep: the tile's digit counts (else null).
    Value tileCounts;
    /// The staged tile (keys, slots) and the other buffer of a sort step.
    std::pair<Value, Value> a, other;
    Value table, partials, starts, bases;
    /// radix_match's peer masks (matchByMasks; else null).
    Value masks;
    /// radix_match: the lane's view of its warp and its loaded items
    /// (radix_match stages nothing: `a` is null until the ranking).
    MatchLanes lanes;
    SmallVector<MatchItem> items;
  };

  /// The scatter's workgroup memory and tile (by ticket for onesweep).
  ScatterTile scatterTile(OpBuilder &b, Value block, Value tid, Value p);

  /// The tile staged in workgroup memory (onesweep also counts digits;
  /// radix_match loads each lane's items into registers instead);
  /// bases = where each digit's bucket starts in the row.
  void stageTile(OpBuilder &b, int64_t pass, ScatterTile &s);

  /// The staged tile sorted by the digit (warp match or two 4-bit
  /// splits), into s.a, and where each digit starts in it (s.starts).
  void sortTile(OpBuilder &b, ScatterTile &s);

  /// bases[d] becomes digit d's place in the row less its start in the
  /// tile; then each element goes to its place (or the result).
  void scatterTile(OpBuilder &b, int64_t pass, ScatterTile &s);

  /// The last pass: the element (key, slot) at sorted position `place`
  /// becomes the op's result there.
  void writeResult(OpBuilder &b, const Tile &c, Value place, Value key,
                   Value slot);

  RewriterBase &b;
  const sift::RowOp &row;
  const sift::RadixSortOptions &options;
  bool invert = false;
  /// Whether elements carry their i32 row position (a top-k's indices, a
  /// sort's other operands); a sort of keys alone moves only keys.
  bool withSlots = true;
  int64_t rows = 0, kept = 0, tiles = 0, passes = 0;
  Type keyType;
  Value keys[2], slots[2], counts, totals;
  Value histogram, status, tickets; ///< onesweep
  /// passIndex's buffers (null where the number is a constant).
  SmallVector<Value> passIds;
  SmallVector<Value> copies;
};

} // namespace sift::radixsort
