//===- RadixScan.cpp - The radix sorts' block scan ------------------------===//
//
// The exclusive scan every radix sort's workgroup runs over i32 counts (a
// split's 16 x threads counts, the scan launch's tiles, radix_match's
// per-warp counts): each thread sums a contiguous chunk, the sums are
// scanned by warp shuffles (threads in whole warps of 32: five shuffles up
// a warp, the warps' totals after one barrier) or by Hillis-Steele in
// workgroup memory (any thread count, two barriers a step), and each thread
// rewrites its chunk. Faults: scan-barrier-in-branch, radix-scan-lost-carry.
//
//===----------------------------------------------------------------------===//
#include "pipelines/Kernels/RadixSort/RadixSortLowering.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace sift::radixsort {

Value RadixSortLowering::buildBlockScan(
    OpBuilder &b, Value tid, int64_t threadCount, Value count, Value carryIn,
    function_ref<Value(OpBuilder &, Value)> get,
    function_ref<void(OpBuilder &, Value, Value)> put, Value partials,
    bool loseCarry) {
  Value threads = index(b, threadCount);
  Value chunk = arith::DivUIOp::create(
      b, loc, add(b, count, index(b, threadCount - 1)), threads);
  Value lo = minu(b, mul(b, tid, chunk), count);
  Value hi = minu(b, add(b, lo, chunk), count);
  Value one = index(b, 1);
  Value sum = scf::ForOp::create(
                  b, loc, lo, hi, one, ValueRange{i32(b, 0)},
                  [&](OpBuilder &b, Location loc, Value i, ValueRange acc) {
                    scf::YieldOp::create(b, loc, add(b, acc[0], get(b, i)));
                  })
                  .getResult(0);
  auto [before, total] = threadCount % kScanWarp == 0
                             ? scanWarpShuffles(b, tid, threadCount, sum,
                                                partials)
                             : scanHillisSteele(b, tid, threadCount, sum,
                                                partials);
  if (loseCarry) {
    Value odd = cmp(b, arith::CmpIPredicate::ne,
                    arith::AndIOp::create(b, loc, tid, one), index(b, 0));
    before = arith::SelectOp::create(b, loc, odd, i32(b, 0), before);
  }
  scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{add(b, carryIn, before)},
      [&](OpBuilder &b, Location loc, Value i, ValueRange running) {
        Value v = get(b, i);
        put(b, i, running[0]);
        scf::YieldOp::create(b, loc, add(b, running[0], v));
      });
  return total;
}

std::pair<Value, Value>
RadixSortLowering::scanWarpShuffles(OpBuilder &b, Value tid,
                                    int64_t threadCount, Value sum,
                                    Value partials) {
  Value lane = arith::RemUIOp::create(b, loc, tid, index(b, kScanWarp));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(b, kScanWarp));
  // The warp's inclusive scan: five shuffles up, no barrier.
  Value inclusive = sum;
  for (int64_t delta = 1; delta < kScanWarp; delta *= 2) {
    Value below = sift::WarpShuffleUpOp::create(
        b, loc, b.getI32Type(), inclusive, b.getI32IntegerAttr(delta));
    Value adds = cmp(b, arith::CmpIPredicate::uge, lane, index(b, delta));
    inclusive = arith::SelectOp::create(b, loc, adds,
                                        add(b, inclusive, below), inclusive);
  }
  // The warp's last lane publishes its total.
  Value last = cmp(b, arith::CmpIPredicate::eq, lane, index(b, kScanWarp - 1));
  scf::IfOp::create(b, loc, last, [&](OpBuilder &b, Location) {
    memref::StoreOp::create(b, loc, inclusive, partials, warp);
    if (options.scanBarrierInBranch)
      barrier(b); // Fault scan-barrier-in-branch: only the last lanes wait.
    scf::YieldOp::create(b, loc);
  });
  if (!options.scanBarrierInBranch)
    barrier(b);
  // Every thread adds the totals of the warps before its own (and all).
  auto totals = scf::ForOp::create(
      b, loc, index(b, 0), index(b, threadCount / kScanWarp), index(b, 1),
      ValueRange{i32(b, 0), i32(b, 0)},
      [&](OpBuilder &b, Location loc, Value w, ValueRange acc) {
        Value t = memref::LoadOp::create(b, loc, partials, w);
        Value earlier = cmp(b, arith::CmpIPredicate::ult, w, warp);
        Value before = arith::SelectOp::create(
            b, loc, earlier, add(b, acc[0], t), acc[0]);
        scf::YieldOp::create(b, loc, ValueRange{before, add(b, acc[1], t)});
      });
  Value before = add(b, totals.getResult(0), sub(b, inclusive, sum));
  return {before, totals.getResult(1)};
}

std::pair<Value, Value>
RadixSortLowering::scanHillisSteele(OpBuilder &b, Value tid,
                                    int64_t threadCount, Value sum,
                                    Value partials) {
  Value one = index(b, 1);
  memref::StoreOp::create(b, loc, sum, partials, tid);
  barrier(b);
  for (int64_t offset = 1; offset < threadCount; offset *= 2) {
    Value inside = cmp(b, arith::CmpIPredicate::uge, tid, index(b, offset));
    Value from = arith::SelectOp::create(b, loc, inside,
                                         sub(b, tid, index(b, offset)), tid);
    Value theirs = arith::SelectOp::create(
        b, loc, inside, memref::LoadOp::create(b, loc, partials, from),
        i32(b, 0));
    if (options.scanBarrierInBranch) {
      // Fault scan-barrier-in-branch: only the adding threads wait.
      scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
        barrier(b);
        scf::YieldOp::create(b, loc);
      });
    } else {
      barrier(b);
    }
    Value mine = memref::LoadOp::create(b, loc, partials, tid);
    memref::StoreOp::create(b, loc, add(b, mine, theirs), partials, tid);
    barrier(b);
  }
  // partials[t] is now the sum of chunks 0..t.
  Value total =
      memref::LoadOp::create(b, loc, partials, index(b, threadCount - 1));
  Value later = cmp(b, arith::CmpIPredicate::uge, tid, one);
  Value before = arith::SelectOp::create(
      b, loc, later,
      memref::LoadOp::create(b, loc, partials,
                             ValueRange{arith::SelectOp::create(
                                 b, loc, later, sub(b, tid, one), tid)}),
      i32(b, 0));
  return {before, total};
}

} // namespace sift::radixsort
