//===- RadixOnesweep.cpp - radix_onesweep: offsets by look-back ----------===//
//
// The `radix_onesweep` variant of the radix sort (RadixSort.cpp has the
// rest): each pass's offsets come from decoupled look-back instead of a
// count and a scan launch.
//
//   init:      zeroes the histogram, the status words and the tickets (the
//              plan runs again on the same buffers)
//   histogram: one read of the keys counts every pass's digits, each tile's
//              counts added to the row's with global atomics
//   per pass:  the scatter launch of RadixSort.cpp, whose workgroup takes
//              its tile by ticket (an atomic counter: it only ever waits
//              for workgroups that started before it, so no co-residency
//              is assumed), counts its digits and publishes them (an i64
//              status word a (tile, digit): the epoch 2p+1 above the count;
//              the row's first tile publishes an inclusive prefix, 2p+2; an
//              earlier pass's word reads as unpublished), sorts its tile,
//              walks back over earlier tiles' words with relaxed atomic
//              loads (spinning on an unpublished one, adding aggregates until
//              an inclusive prefix) and publishes its own inclusive prefix
//
// The fault radix-lookback-skips-one starts the walk a tile early;
// radix-tile-by-block takes the tile by workgroup id, not by ticket.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RadixSort/RadixSortLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace sift::radixsort {

void RadixSortLowering::buildInit() {
  constexpr int64_t kThreads = 256;
  int64_t largest = rows * tiles * kBins;
  int64_t blocks = std::min<int64_t>((largest + kThreads - 1) / kThreads, 1024);
  launch(blocks, kThreads, [&](OpBuilder &b, Value block, Value tid) {
    Value first = add(b, mul(b, block, index(b, kThreads)), tid);
    Value stride = index(b, blocks * kThreads);
    auto zero = [&](Value buffer, int64_t rowsOf, int64_t columns,
                    Value value) {
      sift::forEachOfThread(
          b, loc, first, index(b, rowsOf * columns), stride,
          [&](OpBuilder &b, Location loc, Value i) {
            Value r = arith::DivUIOp::create(b, loc, i, index(b, columns));
            Value j = arith::RemUIOp::create(b, loc, i, index(b, columns));
            memref::StoreOp::create(b, loc, value, buffer, ValueRange{r, j});
          });
    };
    zero(histogram, rows, passes * kBins, i32(b, 0));
    zero(status, rows, tiles * kBins, i64(b, 0));
    zero(tickets, 1, passes, i32(b, 0));
  });
}

void RadixSortLowering::buildHistogram() {
  buildDigitCount(
      0, passes,
      [&](OpBuilder &b, const Tile &c, Value bins, Value tid, Value threads) {
        sift::forEachOfThread(
            b, loc, tid, index(b, passes * kBins), threads,
            [&](OpBuilder &b, Location loc, Value i) {
              Value count = memref::LoadOp::create(b, loc, bins, i);
              Value some = cmp(b, arith::CmpIPredicate::ne, count, i32(b, 0));
              scf::IfOp::create(b, loc, some, [&](OpBuilder &b, Location) {
                memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                            count, histogram,
                                            ValueRange{c.r, i});
                scf::YieldOp::create(b, loc);
              });
            });
      });
}

Value RadixSortLowering::ticketOf(OpBuilder &b, Value tid, Value pass) {
  Value ticket = workgroupArray(b, 1, b.getI32Type());
  onThreadZero(b, tid, [&](OpBuilder &b) {
    Value mine = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                             i32(b, 1), tickets,
                                             ValueRange{index(b, 0), pass});
    memref::StoreOp::create(b, loc, mine, ticket, index(b, 0));
  });
  gpu::BarrierOp::create(b, loc); // Needed even under dist-no-barrier.
  return toIndex(b, memref::LoadOp::create(b, loc, ticket, index(b, 0)));
}

void RadixSortLowering::publishCounts(OpBuilder &b, Value tid, Value pass,
                                      const Tile &c, Value counts) {
  Value first = isFirstTile(b, c);
  sift::forEachOfThread(
      b, loc, tid, index(b, kBins), index(b, options.threads),
      [&](OpBuilder &b, Location loc, Value d) {
        Value count = memref::LoadOp::create(b, loc, counts, d);
        Value word = arith::SelectOp::create(
            b, loc, first, statusWord(b, inclusiveEpoch(b, pass), count),
            statusWord(b, aggregateEpoch(b, pass), count));
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign, word,
                                    status, statusSlot(b, c, c.number, d));
      });
}

Value RadixSortLowering::relaxedLoad(OpBuilder &b, Value buffer,
                                     ArrayRef<Value> at) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  Value element = metadata.getOffset();
  for (auto [i, stride] : llvm::zip(at, metadata.getStrides()))
    element = add(b, element, mul(b, i, stride));
  Type type = cast<MemRefType>(buffer.getType()).getElementType();
  int64_t bytes = type.getIntOrFloatBitWidth() / 8;
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value address = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), add(b, base, mul(b, element, index(b, bytes))));
  Value pointer = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
  return LLVM::LoadOp::create(b, loc, type, pointer, bytes,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/false, /*isInvariantGroup=*/false,
                              LLVM::AtomicOrdering::monotonic);
}

void RadixSortLowering::lookBack(OpBuilder &b, Value tid, Value pass,
                                 const Tile &c, Value counts, Value starts,
                                 Value bases) {
  Value threads = index(b, options.threads);
  Value aggregate = aggregateEpoch(b, pass),
        inclusive = inclusiveEpoch(b, pass);
  Value first = isFirstTile(b, c);
  auto countOf = [&](OpBuilder &b, Value d) -> Value {
    return memref::LoadOp::create(b, loc, counts, d);
  };
  auto slotOf = [&](OpBuilder &b, Value t, Value d) {
    return statusSlot(b, c, t, d);
  };
  sift::forEachOfThread(
      b, loc, tid, index(b, kBins), threads,
      [&](OpBuilder &b, Location loc, Value d) {
        Type i64Type = b.getI64Type();
        Type i32Type = b.getI32Type();
        int64_t skip = options.lookbackSkipsOne ? 2 : 1;
        // Tiles before this one, nearest first, until an inclusive prefix.
        Value from = arith::IndexCastOp::create(b, loc, i64Type, c.number);
        auto walk = scf::WhileOp::create(
            b, loc, TypeRange{i64Type, i32Type},
            ValueRange{arith::SubIOp::create(b, loc, from, i64(b, skip)),
                       i32(b, 0)},
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value t = args[0], sum = args[1];
              Value before = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::sge, t, i64(b, 0));
              scf::ConditionOp::create(b, loc, before, ValueRange{t, sum});
            },
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value t = args[0], sum = args[1];
              SmallVector<Value> at = slotOf(b, toIndex(b, t), d);
              // Wait until tile t has published this pass.
              auto spin = scf::WhileOp::create(
                  b, loc, TypeRange{i64Type}, ValueRange{},
                  [&](OpBuilder &b, Location loc, ValueRange) {
                    Value word = relaxedLoad(b, status, at);
                    Value epoch =
                        arith::ShRUIOp::create(b, loc, word, i64(b, 32));
                    Value pending = arith::CmpIOp::create(
                        b, loc, arith::CmpIPredicate::ult, epoch, aggregate);
                    scf::ConditionOp::create(b, loc, pending, ValueRange{word});
                  },
                  [&](OpBuilder &b, Location loc, ValueRange) {
                    scf::YieldOp::create(b, loc);
                  });
              Value word = spin.getResult(0);
              Value count = arith::TruncIOp::create(b, loc, i32Type, word);
              Value done = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq,
                  arith::ShRUIOp::create(b, loc, word, i64(b, 32)), inclusive);
              // An inclusive prefix ends the walk (t = -1).
              Value next = arith::SelectOp::create(
                  b, loc, done, i64(b, -1),
                  arith::SubIOp::create(b, loc, t, i64(b, 1)));
              scf::YieldOp::create(b, loc,
                                   ValueRange{next, add(b, sum, count)});
            });
        Value exclusive = walk.getResult(1);
        Value count = countOf(b, d);
        scf::IfOp::create(
            b, loc,
            arith::XOrIOp::create(b, loc, first,
                                  arith::ConstantIntOp::create(b, loc, 1, 1)),
            [&](OpBuilder &b, Location loc) {
              memref::AtomicRMWOp::create(
                  b, loc, arith::AtomicRMWKind::assign,
                  statusWord(b, inclusive, add(b, exclusive, count)), status,
                  slotOf(b, c.number, d));
              scf::YieldOp::create(b, loc);
            });
        Value base = memref::LoadOp::create(b, loc, bases, d);
        Value start = memref::LoadOp::create(b, loc, starts, d);
        memref::StoreOp::create(b, loc, sub(b, add(b, base, exclusive), start),
                                bases, d);
      });
}

} // namespace sift::radixsort
