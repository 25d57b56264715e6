//===- RadixRank.cpp - How a radix sort ranks its tile --------------------===//
//
// The two tile rankings of the radix sorts (RadixSort.cpp has the
// launches): radix_sort's and radix_onesweep's two stable 4-bit splits
// (each thread counts its contiguous items per bucket, a scan of the
// counts places them), and radix_match's warp match (eight ballots, or
// atomic ORs into a table of peer masks, group a warp's lanes by digit,
// per-warp counts in workgroup memory, one scan over digit and warp).
//
//===----------------------------------------------------------------------===//
#include "pipelines/Kernels/RadixSort/RadixSortLowering.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <tuple>

namespace sift::radixsort {

void RadixSortLowering::buildSplit(OpBuilder &b, Value tid, Value length,
                                   std::pair<Value, Value> from,
                                   std::pair<Value, Value> to, Value shift,
                                   Value table, Value partials) {
  int64_t threadCount = options.threads;
  Value one = index(b, 1);
  Value lo = minu(b, mul(b, tid, index(b, items())), length);
  Value hi = minu(b, add(b, lo, index(b, items())), length);
  auto entry = [&](OpBuilder &b, Value bucket) -> Value {
    return add(b, mul(b, bucket, index(b, threadCount)), tid);
  };
  if (!options.splitUnzeroed) // fault radix-split-unzeroed
    for (int64_t bucket = 0; bucket < kSplitBins; ++bucket)
      memref::StoreOp::create(b, loc, i32(b, 0), table,
                              tableAt(b, entry(b, index(b, bucket))));
  scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{},
      [&](OpBuilder &b, Location loc, Value i, ValueRange) {
        Value key = memref::LoadOp::create(b, loc, from.first, staged(b, i));
        Value at = tableAt(
            b, entry(b, digitOf(b, key, shift, sift::kRadixSortSplitBits)));
        Value n = memref::LoadOp::create(b, loc, table, at);
        memref::StoreOp::create(b, loc, add(b, n, i32(b, 1)), table, at);
        scf::YieldOp::create(b, loc);
      });
  barrier(b);
  buildBlockScan(
      b, tid, threadCount, index(b, kSplitBins * threadCount), i32(b, 0),
      [&](OpBuilder &b, Value i) -> Value {
        return memref::LoadOp::create(b, loc, table, tableAt(b, i));
      },
      [&](OpBuilder &b, Value i, Value v) {
        memref::StoreOp::create(b, loc, v, table, tableAt(b, i));
      },
      partials, /*loseCarry=*/false);
  barrier(b);
  scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{},
      [&](OpBuilder &b, Location loc, Value i, ValueRange) {
        Value from0 = staged(b, i);
        Value key = memref::LoadOp::create(b, loc, from.first, from0);
        Value at = tableAt(
            b, entry(b, digitOf(b, key, shift, sift::kRadixSortSplitBits)));
        Value place = memref::LoadOp::create(b, loc, table, at);
        memref::StoreOp::create(b, loc, add(b, place, i32(b, 1)), table, at);
        Value to0 = staged(b, toIndex(b, place));
        memref::StoreOp::create(b, loc, key, to.first, to0);
        if (withSlots)
          memref::StoreOp::create(
              b, loc, memref::LoadOp::create(b, loc, from.second, from0),
              to.second, to0);
        scf::YieldOp::create(b, loc);
      });
  barrier(b);
}

RadixSortLowering::MatchLanes
RadixSortLowering::matchLanes(OpBuilder &b, Value tid, Value length) {
  Type i32Type = b.getI32Type();
  Value warpSize = index(b, 32);
  MatchLanes l;
  Value warp = arith::DivUIOp::create(b, loc, tid, warpSize);
  l.lane = arith::RemUIOp::create(b, loc, tid, warpSize);
  Value laneBit = arith::ShLIOp::create(
      b, loc, i32(b, 1), arith::IndexCastOp::create(b, loc, i32Type, l.lane));
  l.lower = sub(b, laneBit, i32(b, 1));
  l.higher = arith::XOrIOp::create(
      b, loc, arith::OrIOp::create(b, loc, l.lower, laneBit), i32(b, -1));
  l.warpCounts = mul(b, warp, index(b, kBins));
  l.first = mul(b, warp, index(b, 32 * items()));
  l.last = sub(b, length, index(b, 1));
  return l;
}

SmallVector<RadixSortLowering::MatchItem>
RadixSortLowering::loadMatchItems(OpBuilder &b, int64_t pass, const Tile &c,
                                  const MatchLanes &l) {
  SmallVector<MatchItem> items;
  for (int64_t i = 0; i < this->items(); ++i) {
    MatchItem item;
    Value p = add(b, l.first, add(b, index(b, i * 32), l.lane));
    item.valid = cmp(b, arith::CmpIPredicate::ult, p, c.length);
    // Fault radix-tail-overrun: no clamp, past the row's end.
    Value at = options.tailOverrun ? p : minu(b, p, l.last);
    std::tie(item.key, item.slot) = load(b, pass, c, add(b, c.start, at));
    items.push_back(item);
  }
  return items;
}

void RadixSortLowering::buildMatchRank(OpBuilder &b, Value tid, Value pass,
                                       const MatchLanes &l,
                                       SmallVector<MatchItem> &items,
                                       std::pair<Value, Value> to,
                                       Value counters, Value masks,
                                       Value starts, Value partials) {
  Value threads = index(b, options.threads);
  sift::forEachOfThread(
      b, loc, tid, index(b, warps() * kBins), threads,
      [&](OpBuilder &b, Location loc, Value i) {
        memref::StoreOp::create(b, loc, i32(b, 0), counters, i);
        if (masks)
          memref::StoreOp::create(b, loc, i32(b, 0), masks, i);
      });
  barrier(b);
  for (MatchItem &item : items)
    matchItem(b, l, pass, item, counters, masks);
  barrier(b);
  scanMatchCounts(b, tid, counters, starts, partials);
  barrier(b);
  for (const MatchItem &item : items)
    scf::IfOp::create(b, loc, item.valid, [&](OpBuilder &b, Location) {
      Value place = add(b,
                        memref::LoadOp::create(b, loc, counters,
                                               add(b, l.warpCounts, item.digit)),
                        item.rank);
      Value at = staged(b, toIndex(b, place));
      storeStagedKey(b, item.key, to.first, at);
      if (withSlots)
        memref::StoreOp::create(b, loc, item.slot, to.second, at);
      scf::YieldOp::create(b, loc);
    });
  barrier(b);
}

void RadixSortLowering::matchItem(OpBuilder &b, const MatchLanes &l, Value pass,
                                  MatchItem &item, Value counters,
                                  Value masks) {
  Type i32Type = b.getI32Type();
  auto popc = [&](Value v) -> Value {
    return LLVM::CtPopOp::create(b, loc, i32Type, v);
  };
  item.digit = passDigit(b, item.key, pass);
  // Fault radix-match-peer-bit-lost: lanes whose digits differ only in
  // the top bit are one group.
  Value bin = item.digit;
  if (options.matchPeerBitLost)
    bin = arith::AndIOp::create(
        b, loc, bin,
        index(b, (int64_t{1} << (sift::kRadixSortDigitBits - 1)) - 1));
  Value peers = matchPeers(b, l, item, bin, masks);
  Value slotOfCount = add(b, l.warpCounts, item.digit);
  Value before = memref::LoadOp::create(b, loc, counters, slotOfCount);
  sift::WarpSyncOp::create(b, loc);
  // The highest lane of the group adds the group's size (and clears the
  // group's mask for the warp's next item).
  Value leader = arith::AndIOp::create(
      b, loc, item.valid,
      cmp(b, arith::CmpIPredicate::eq,
          arith::AndIOp::create(b, loc, peers, l.higher), i32(b, 0)));
  Value groupSize = popc(peers);
  scf::IfOp::create(b, loc, leader, [&](OpBuilder &b, Location) {
    memref::StoreOp::create(b, loc, add(b, before, groupSize), counters,
                            slotOfCount);
    if (masks)
      memref::StoreOp::create(b, loc, i32(b, 0), masks,
                              add(b, l.warpCounts, bin));
    scf::YieldOp::create(b, loc);
  });
  sift::WarpSyncOp::create(b, loc);
  item.rank =
      add(b, before, popc(arith::AndIOp::create(b, loc, peers, l.lower)));
}

Value RadixSortLowering::matchPeers(OpBuilder &b, const MatchLanes &l,
                                    const MatchItem &item, Value bin,
                                    Value masks) {
  Type i32Type = b.getI32Type();
  if (masks) {
    // Each valid lane ORs its bit into its bin's entry; after a warp sync
    // the entry holds the bits of every valid lane of that bin. (An
    // invalid lane reads an entry it did not join: it leads no group.)
    Value laneBit = arith::ShLIOp::create(
        b, loc, i32(b, 1), arith::IndexCastOp::create(b, loc, i32Type, l.lane));
    Value entry = add(b, l.warpCounts, bin);
    scf::IfOp::create(b, loc, item.valid, [&](OpBuilder &b, Location) {
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::ori, laneBit,
                                  masks, entry);
      scf::YieldOp::create(b, loc);
    });
    sift::WarpSyncOp::create(b, loc);
    return memref::LoadOp::create(b, loc, masks, entry);
  }
  auto ballot = [&](Value predicate) -> Value {
    return sift::WarpBallotOp::create(b, loc, i32Type, predicate);
  };
  Value binBits = arith::IndexCastOp::create(b, loc, i32Type, bin);
  Value peers = ballot(item.valid);
  for (int64_t bit = 0; bit < sift::kRadixSortDigitBits; ++bit) {
    if (options.matchPeerBitLost && bit == sift::kRadixSortDigitBits - 1)
      continue; // Fault radix-match-peer-bit-lost: no vote on the top bit.
    Value set =
        cmp(b, arith::CmpIPredicate::ne,
            arith::AndIOp::create(b, loc, binBits, i32(b, int64_t{1} << bit)),
            i32(b, 0));
    Value vote = ballot(set);
    Value same = arith::SelectOp::create(
        b, loc, set, vote, arith::XOrIOp::create(b, loc, vote, i32(b, -1)));
    peers = arith::AndIOp::create(b, loc, peers, same);
  }
  return peers;
}

void RadixSortLowering::scanMatchCounts(OpBuilder &b, Value tid,
                                        Value counters, Value starts,
                                        Value partials) {
  // The digits' totals scanned, then the warps' counts.
  auto digitTotal = [&](OpBuilder &b, Value d) -> Value {
    Value sum = i32(b, 0);
    for (int64_t w = 0; w < warps(); ++w)
      sum = add(b, sum,
                memref::LoadOp::create(b, loc, counters,
                                       add(b, index(b, w * kBins), d)));
    return sum;
  };
  buildBlockScan(
      b, tid, options.threads, index(b, kBins), i32(b, 0), digitTotal,
      [&](OpBuilder &b, Value d, Value start) {
        memref::StoreOp::create(b, loc, start, starts, d);
        Value running = start;
        for (int64_t w = 0; w < warps(); ++w) {
          Value at = add(b, index(b, w * kBins), d);
          Value count = memref::LoadOp::create(b, loc, counters, at);
          memref::StoreOp::create(b, loc, running, counters, at);
          running = add(b, running, count);
        }
      },
      partials, /*loseCarry=*/false);
}

} // namespace sift::radixsort
