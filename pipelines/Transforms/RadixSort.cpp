//===- RadixSort.cpp - LSD radix sort of long rows ------------------------===//
//
// The `radix_sort` algorithm of the distribute pipeline: a sift.sort with a
// named order (or a sift.topk, which keeps the first k of each sorted row)
// becomes a least-significant-digit radix sort over the keys'
// order-preserving bits (RowKernels.h: -0 = +0, one NaN above +inf,
// inverted for descending or largest), 8 bits a pass, all rows at once,
// over host-allocated plan buffers (keys and i32 row positions, twice, for
// ping-pong; [rows, 256 * tiles] counts; [rows, 256] totals), three
// dispatches a pass:
//
//   count:   a workgroup per tile of `row_tile` elements of a row (up to
//            512 threads) counts its digits in a workgroup-memory histogram
//            (atomics) and writes the counts bucket-major
//            (counts[r][d * tiles + t])
//   scan:    a workgroup per (row, digit) turns its bucket's counts into
//            the tiles' offsets within the bucket by an exclusive scan over
//            the tiles (thread chunks, a Hillis-Steele scan of their sums
//            in workgroup memory, the carries added back) and writes the
//            bucket's total
//   scatter: a workgroup per tile scans the 256 totals (where each digit's
//            bucket starts in the row), stages its tile in workgroup memory,
//            sorts it by the digit stably with two 4-bit splits (each
//            thread counts its contiguous items per bucket, a scan of the
//            16 x threads counts places them), then writes each element to
//            its bucket's start plus its tile's offset in the bucket plus
//            its rank among its digit in the tile (coalesced: equal digits
//            are contiguous)
//
// Every pass is stable and the first pass takes the elements in row order,
// so equal keys keep their order: the sort is stable and a top-k's ties go
// to the lower index, as SEMANTICS.md asks. The first pass reads the op's
// operands (copying a sort's other operands aside), the last writes its
// results (a sort's other operands gathered by position, a top-k's first k
// with i64 indices). Dispatches are ordered by the plan; no workgroup waits
// for another. The fault radix-scan-lost-carry drops the carry into every
// odd thread's chunk of the tiles' scan.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/RadixSort.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

constexpr int64_t kBins = int64_t{1} << sift::kRadixSortDigitBits;
constexpr int64_t kSplitBins = int64_t{1} << sift::kRadixSortSplitBits;
/// The most threads of a scan workgroup.
constexpr int64_t kScanThreads = 256;
/// The most elements a thread loads before it uses the first.
constexpr int64_t kLoadsAhead = 16;

class RadixSortLowering : sift::RowKernelBuilder {
public:
  RadixSortLowering(RewriterBase &rewriter, const sift::RowOp &row,
                    const sift::RadixSortOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options) {}

  LogicalResult build() {
    rows = row.rows();
    kept = row.n;
    if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
      kept = topk.getK();
      invert = topk.isLargest();
    } else {
      auto sort = cast<sift::SortOp>(row.op);
      if (sort.hasComparator() || !sort.getOrder())
        return sort.emitOpError("radix_sort needs a named order, not a "
                                "comparator region");
      invert = *sort.getOrder() == sift::SortOrder::Descending;
    }
    if (rows == 0 || row.n == 0 || kept == 0)
      return success(); // No work.
    if (row.n > (int64_t{1} << 31) - 1)
      return row.op->emitOpError("radix_sort indexes a row with i32, but it "
                                 "has ")
             << row.n << " elements";
    if (options.tile < options.threads)
      return row.op->emitOpError("radix_sort needs at least one element a "
                                 "thread: row_tile ")
             << options.tile << " < " << options.threads << " threads";
    keyType = cast<MemRefType>(row.staged.front().getType()).getElementType();
    int64_t keyBits = keyType.getIntOrFloatBitWidth();
    if (keyBits % sift::kRadixSortDigitBits != 0)
      return row.op->emitOpError("radix_sort sorts keys of whole bytes, not ")
             << keyType;
    passes = keyBits / sift::kRadixSortDigitBits;
    tiles = (row.n + options.tile - 1) / options.tile;
    withSlots = sift::radixSortNeedsSlots(row.op);
    for (int copy = 0; copy < 2; ++copy) {
      keys[copy] = allocate(keyType);
      if (withSlots)
        slots[copy] = allocate(b.getI32Type());
    }
    for (Value operand : ArrayRef<Value>(row.staged).drop_front())
      copies.push_back(
          allocate(cast<MemRefType>(operand.getType()).getElementType()));
    if (options.onesweep) {
      histogram = memref::AllocOp::create(
          b, loc, MemRefType::get({rows, passes * kBins}, b.getI32Type()));
      status = memref::AllocOp::create(
          b, loc, MemRefType::get({rows, tiles * kBins}, b.getI64Type()));
      tickets = memref::AllocOp::create(
          b, loc, MemRefType::get({1, passes}, b.getI32Type()));
      buildInit();
      buildHistogram();
      for (int64_t pass = 0; pass < passes; ++pass)
        buildScatter(pass);
      return success();
    }
    counts = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, kBins * tiles}, b.getI32Type()));
    totals = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, kBins}, b.getI32Type()));
    for (int64_t pass = 0; pass < passes; ++pass) {
      buildCount(pass);
      buildScan(pass);
      buildScatter(pass);
    }
    return success();
  }

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

  /// Bits [shift, shift + width) of `key`'s order bits, as an index.
  Value digitOf(OpBuilder &b, Value key, int64_t shift, int64_t width) {
    Value bits = sift::buildOrderBits(b, loc, key, invert);
    Type type = bits.getType();
    Value shifted = arith::ShRUIOp::create(
        b, loc, bits, arith::ConstantIntOp::create(b, loc, type, shift));
    Value digit = arith::AndIOp::create(
        b, loc, shifted,
        arith::ConstantIntOp::create(b, loc, type, (int64_t{1} << width) - 1));
    return toIndex(b, digit);
  }
  Value passDigit(OpBuilder &b, Value key, int64_t pass) {
    return digitOf(b, key, pass * sift::kRadixSortDigitBits,
                   sift::kRadixSortDigitBits);
  }

  Tile tileOf(OpBuilder &b, Value block) {
    return RowKernelBuilder::tileOf(b, block, tiles, options.tile, row);
  }

  /// The (key, i32 row position) at position `at` of row `r` as pass
  /// `pass` reads it: the op's operand first, then the previous pass's
  /// buffers.
  std::pair<Value, Value> load(OpBuilder &b, int64_t pass, const Tile &c,
                               Value at) {
    if (pass == 0)
      return {memref::LoadOp::create(
                  b, loc, row.staged.front(),
                  sift::rowElementIndices(c.rowIvs, row.dim, at)),
              withSlots ? arith::IndexCastOp::create(b, loc, b.getI32Type(), at)
                        : Value()};
    int64_t from = (pass - 1) % 2;
    return {memref::LoadOp::create(b, loc, keys[from], ValueRange{c.r, at}),
            withSlots ? memref::LoadOp::create(b, loc, slots[from],
                                               ValueRange{c.r, at})
                      : Value()};
  }

  /// Runs `body(e, values)` for the positions e = tid + k * threads of
  /// tile `c` (every k < ceil(tile / threads) with e within the tile),
  /// where `values` are what `loads(at)` returned for e's position `at` in
  /// the row. Up to kLoadsAhead positions at a time are loaded before the
  /// first is used (past the tile's end at its last position), so that a
  /// thread's loads are in flight together rather than one latency each.
  void forEachLoadedAhead(
      OpBuilder &b, const Tile &c, Value tid, int64_t threadCount,
      function_ref<SmallVector<Value>(OpBuilder &, Value)> loads,
      function_ref<void(OpBuilder &, Value, ArrayRef<Value>)> body) {
    int64_t count = (options.tile + threadCount - 1) / threadCount;
    int64_t ahead = std::min(count, kLoadsAhead);
    auto batch = [&](OpBuilder &b, Value first) {
      Value last = sub(b, c.length, index(b, 1));
      SmallVector<Value> positions;
      SmallVector<SmallVector<Value>> loaded;
      for (int64_t k = 0; k < ahead; ++k) {
        Value e = add(b, first, index(b, k * threadCount));
        positions.push_back(e);
        loaded.push_back(loads(b, add(b, c.start, minu(b, e, last))));
      }
      for (int64_t k = 0; k < ahead; ++k) {
        Value inside =
            cmp(b, arith::CmpIPredicate::ult, positions[k], c.length);
        scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
          body(b, positions[k], loaded[k]);
          scf::YieldOp::create(b, loc);
        });
      }
    };
    if (ahead == count) {
      batch(b, tid);
      return;
    }
    int64_t stride = ahead * threadCount;
    scf::ForOp::create(b, loc, tid,
                       index(b, ((count + ahead - 1) / ahead) * stride),
                       index(b, stride), ValueRange{},
                       [&](OpBuilder &b, Location, Value first, ValueRange) {
                         batch(b, first);
                         scf::YieldOp::create(b, loc);
                       });
  }

  void launch(int64_t blocks, int64_t threads,
              function_ref<void(OpBuilder &, Value, Value)> body) {
    sift::buildLaunch(b, loc, blocks, threads, body);
  }

  /// onesweep: zeroes the histogram, the tiles' status words and the
  /// passes' tickets (the plan runs again on the same buffers).
  void buildInit() {
    constexpr int64_t kThreads = 256;
    int64_t largest = rows * tiles * kBins;
    int64_t blocks =
        std::min<int64_t>((largest + kThreads - 1) / kThreads, 1024);
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
          writeOut) {
    int64_t threadCount =
        std::max(options.threads, std::min<int64_t>(options.tile, 512));
    launch(
        rows * tiles, threadCount, [&](OpBuilder &b, Value block, Value tid) {
          Value threads = index(b, threadCount);
          Tile c = tileOf(b, block);
          Value bins = workgroupArray(b, count * kBins, b.getI32Type());
          sift::forEachOfThread(b, loc, tid, index(b, count * kBins), threads,
                                [&](OpBuilder &b, Location loc, Value e) {
                                  memref::StoreOp::create(b, loc, i32(b, 0),
                                                          bins, e);
                                });
          barrier(b);
          forEachLoadedAhead(
              b, c, tid, threadCount,
              [&](OpBuilder &b, Value at) -> SmallVector<Value> {
                return {load(b, first, c, at).first};
              },
              [&](OpBuilder &b, Value e, ArrayRef<Value> loaded) {
                if (first == 0)
                  copyAside(b, c, add(b, c.start, e));
                for (int64_t pass = first; pass < first + count; ++pass)
                  memref::AtomicRMWOp::create(
                      b, loc, arith::AtomicRMWKind::addi, i32(b, 1), bins,
                      ValueRange{add(b, passDigit(b, loaded[0], pass),
                                     index(b, (pass - first) * kBins))});
              });
          barrier(b);
          writeOut(b, c, bins, tid, threads);
        });
  }

  /// onesweep: every pass's digit counts of each row in one read of the
  /// keys, each tile's added to the row's with global atomics.
  void buildHistogram() {
    buildDigitCount(
        0, passes,
        [&](OpBuilder &b, const Tile &c, Value bins, Value tid, Value threads) {
          sift::forEachOfThread(
              b, loc, tid, index(b, passes * kBins), threads,
              [&](OpBuilder &b, Location loc, Value i) {
                Value count = memref::LoadOp::create(b, loc, bins, i);
                Value some = cmp(b, arith::CmpIPredicate::ne, count, i32(b, 0));
                scf::IfOp::create(b, loc, some, [&](OpBuilder &b, Location) {
                  memref::AtomicRMWOp::create(b, loc,
                                              arith::AtomicRMWKind::addi, count,
                                              histogram, ValueRange{c.r, i});
                  scf::YieldOp::create(b, loc);
                });
              });
        });
  }

  /// Copies a sort's other operands at row position `at` aside (the first
  /// pass reads them; the last writes them back by row position).
  void copyAside(OpBuilder &b, const Tile &c, Value at) {
    for (auto [operand, copy] :
         llvm::zip(ArrayRef<Value>(row.staged).drop_front(), copies)) {
      Value v = memref::LoadOp::create(
          b, loc, operand, sift::rowElementIndices(c.rowIvs, row.dim, at));
      memref::StoreOp::create(b, loc, v, copy, ValueRange{c.r, at});
    }
  }

  /// Pass `pass`: each tile's digit counts, bucket-major
  /// (counts[r][d * tiles + t]).
  void buildCount(int64_t pass) {
    buildDigitCount(
        pass, 1,
        [&](OpBuilder &b, const Tile &c, Value bins, Value tid, Value threads) {
          sift::forEachOfThread(
              b, loc, tid, index(b, kBins), threads,
              [&](OpBuilder &b, Location loc, Value d) {
                Value count = memref::LoadOp::create(b, loc, bins, d);
                memref::StoreOp::create(
                    b, loc, count, counts,
                    ValueRange{c.r,
                               add(b, mul(b, d, index(b, tiles)), c.number)});
              });
        });
  }

  /// An exclusive scan, from `carryIn` (i32), of `count` i32 values that
  /// `get` and `put` read and write, by `threadCount` threads (`tid`):
  /// each sums a contiguous chunk, the sums are scanned in `partials`
  /// (workgroup memory, a slot per thread; Hillis-Steele), and each thread
  /// rewrites its chunk from the sum of the chunks before it. `loseCarry`
  /// (fault radix-scan-lost-carry) drops that sum for odd threads. Returns
  /// the sum of all `count` values (without `carryIn`).
  Value buildBlockScan(OpBuilder &b, Value tid, int64_t threadCount,
                       Value count, Value carryIn,
                       function_ref<Value(OpBuilder &, Value)> get,
                       function_ref<void(OpBuilder &, Value, Value)> put,
                       Value partials, bool loseCarry) {
    Value threads = index(b, threadCount);
    Value chunk = arith::DivUIOp::create(
        b, loc, add(b, count, index(b, threadCount - 1)), threads);
    Value lo = minu(b, mul(b, tid, chunk), count);
    Value hi = minu(b, add(b, lo, chunk), count);
    Value one = index(b, 1);
    auto sum = scf::ForOp::create(
        b, loc, lo, hi, one, ValueRange{i32(b, 0)},
        [&](OpBuilder &b, Location loc, Value i, ValueRange acc) {
          scf::YieldOp::create(b, loc, add(b, acc[0], get(b, i)));
        });
    memref::StoreOp::create(b, loc, sum.getResult(0), partials, tid);
    barrier(b);
    for (int64_t offset = 1; offset < threadCount; offset *= 2) {
      Value inside = cmp(b, arith::CmpIPredicate::uge, tid, index(b, offset));
      Value from = arith::SelectOp::create(b, loc, inside,
                                           sub(b, tid, index(b, offset)), tid);
      Value theirs = arith::SelectOp::create(
          b, loc, inside, memref::LoadOp::create(b, loc, partials, from),
          i32(b, 0));
      barrier(b);
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

  /// Pass `pass`: a workgroup per (row, digit) makes its bucket's counts
  /// the tiles' offsets in the row.
  void buildScan(int64_t pass) {
    int64_t threadCount =
        std::min<int64_t>(kScanThreads, sift::nextPowerOfTwo(tiles));
    launch(rows * kBins, threadCount,
           [&](OpBuilder &b, Value block, Value tid) {
             Value r = arith::DivUIOp::create(b, loc, block, index(b, kBins));
             Value d = arith::RemUIOp::create(b, loc, block, index(b, kBins));
             Value partials = workgroupArray(b, threadCount, b.getI32Type());
             Value bucket = mul(b, d, index(b, tiles));
             Value total = buildBlockScan(
                 b, tid, threadCount, index(b, tiles), i32(b, 0),
                 [&](OpBuilder &b, Value i) -> Value {
                   return memref::LoadOp::create(
                       b, loc, counts, ValueRange{r, add(b, bucket, i)});
                 },
                 [&](OpBuilder &b, Value i, Value v) {
                   memref::StoreOp::create(b, loc, v, counts,
                                           ValueRange{r, add(b, bucket, i)});
                 },
                 partials, options.lostCarry);
             onThreadZero(b, tid, [&](OpBuilder &b) {
               memref::StoreOp::create(b, loc, total, totals, ValueRange{r, d});
             });
           });
  }

  /// Stably sorts the first `length` (key, slot) pairs of the workgroup
  /// arrays `from` by bits [shift, shift + 4) into `to`: thread t takes
  /// items [t * items, (t + 1) * items); `table[bucket * threads + t]`
  /// counts its items per bucket, a scan makes the counts places.
  void buildSplit(OpBuilder &b, Value tid, Value length,
                  std::pair<Value, Value> from, std::pair<Value, Value> to,
                  int64_t shift, Value table, Value partials) {
    int64_t threadCount = options.threads;
    Value one = index(b, 1);
    Value lo = minu(b, mul(b, tid, index(b, items())), length);
    Value hi = minu(b, add(b, lo, index(b, items())), length);
    auto entry = [&](OpBuilder &b, Value bucket) -> Value {
      return add(b, mul(b, bucket, index(b, threadCount)), tid);
    };
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

  /// onesweep: the workgroup's tile number in pass `pass`, the next ticket
  /// (thread 0 takes it, workgroup memory hands it to the others).
  Value ticketOf(OpBuilder &b, Value tid, int64_t pass) {
    Value ticket = workgroupArray(b, 1, b.getI32Type());
    onThreadZero(b, tid, [&](OpBuilder &b) {
      Value mine = memref::AtomicRMWOp::create(
          b, loc, arith::AtomicRMWKind::addi, i32(b, 1), tickets,
          ValueRange{index(b, 0), index(b, pass)});
      memref::StoreOp::create(b, loc, mine, ticket, index(b, 0));
    });
    gpu::BarrierOp::create(b, loc); // Needed even under dist-no-barrier.
    return toIndex(b, memref::LoadOp::create(b, loc, ticket, index(b, 0)));
  }

  /// The status word of tile `t`'s digit `d`: the pass's epoch above a
  /// count, an aggregate (the tile's own count) at 2 * pass + 1, an
  /// inclusive prefix (the count of every tile up to it) at 2 * pass + 2;
  /// an earlier pass's epoch reads as not yet published.
  Value statusWord(OpBuilder &b, int64_t epoch, Value count) {
    Value high = i64(b, epoch << 32);
    return arith::OrIOp::create(
        b, loc, high, arith::ExtUIOp::create(b, loc, b.getI64Type(), count));
  }

  /// Where tile `t`'s word for digit `d` is in the status words of tile
  /// `c`'s row.
  SmallVector<Value> statusSlot(OpBuilder &b, const Tile &c, Value t, Value d) {
    return {c.r, add(b, mul(b, t, index(b, kBins)), d)};
  }
  static int64_t aggregateEpoch(int64_t pass) { return 2 * pass + 1; }
  static int64_t inclusiveEpoch(int64_t pass) { return 2 * pass + 2; }
  Value isFirstTile(OpBuilder &b, const Tile &c) {
    return cmp(b, arith::CmpIPredicate::eq, c.number, index(b, 0));
  }

  /// onesweep: publishes tile `c`'s count of each digit (`counts`), an
  /// inclusive prefix for the row's first tile, an aggregate otherwise.
  void publishCounts(OpBuilder &b, Value tid, int64_t pass, const Tile &c,
                     Value counts) {
    Value first = isFirstTile(b, c);
    sift::forEachOfThread(
        b, loc, tid, index(b, kBins), index(b, options.threads),
        [&](OpBuilder &b, Location loc, Value d) {
          Value count = memref::LoadOp::create(b, loc, counts, d);
          Value word = arith::SelectOp::create(
              b, loc, first, statusWord(b, inclusiveEpoch(pass), count),
              statusWord(b, aggregateEpoch(pass), count));
          memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::assign,
                                      word, status,
                                      statusSlot(b, c, c.number, d));
        });
  }

  /// onesweep: for each digit, walks back over the tiles before tile `c`
  /// for their counts (decoupled look-back: an inclusive prefix ends the
  /// walk, an aggregate adds its count and goes on, an unpublished word is
  /// read again), publishes the tile's inclusive prefix, and makes bases[d]
  /// the digit's place in the row less its start in the tile. A tile waits
  /// only for tiles with earlier tickets, whose workgroups have started.
  /// The fault radix-lookback-skips-one starts the walk a tile too early.
  void lookBack(OpBuilder &b, Value tid, int64_t pass, const Tile &c,
                Value counts, Value starts, Value bases) {
    Value threads = index(b, options.threads);
    int64_t aggregate = aggregateEpoch(pass), inclusive = inclusiveEpoch(pass);
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
                      Value word = memref::AtomicRMWOp::create(
                          b, loc, arith::AtomicRMWKind::ori, i64(b, 0), status,
                          at);
                      Value epoch =
                          arith::ShRUIOp::create(b, loc, word, i64(b, 32));
                      Value pending = arith::CmpIOp::create(
                          b, loc, arith::CmpIPredicate::ult, epoch,
                          i64(b, aggregate));
                      scf::ConditionOp::create(b, loc, pending,
                                               ValueRange{word});
                    },
                    [&](OpBuilder &b, Location loc, ValueRange) {
                      scf::YieldOp::create(b, loc);
                    });
                Value word = spin.getResult(0);
                Value count = arith::TruncIOp::create(b, loc, i32Type, word);
                Value done = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::eq,
                    arith::ShRUIOp::create(b, loc, word, i64(b, 32)),
                    i64(b, inclusive));
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
          memref::StoreOp::create(
              b, loc, sub(b, add(b, base, exclusive), start), bases, d);
        });
  }

  /// Pass `pass`: a workgroup per tile sorts it by the digit in workgroup
  /// memory and writes each element to its place in the row.
  void buildScatter(int64_t pass) {
    bool last = pass == passes - 1;
    int64_t to = pass % 2;
    launch(
        rows * tiles, options.threads,
        [&](OpBuilder &b, Value block, Value tid) {
          Value threads = index(b, options.threads);
          Type i32Type = b.getI32Type();
          // onesweep: the tile's digit counts (zeroed before the ticket's
          // barrier), and tiles in the order workgroups start (a ticket),
          // so that a workgroup only waits for ones already running.
          Value tileCounts;
          if (options.onesweep) {
            tileCounts = workgroupArray(b, kBins, i32Type);
            sift::forEachOfThread(b, loc, tid, index(b, kBins), threads,
                                  [&](OpBuilder &b, Location loc, Value d) {
                                    memref::StoreOp::create(b, loc, i32(b, 0),
                                                            tileCounts, d);
                                  });
          }
          Tile c = tileOf(b, options.onesweep ? ticketOf(b, tid, pass) : block);
          auto slotArray = [&]() -> Value {
            return withSlots ? workgroupArray(b, stagedSize(), i32Type)
                             : Value();
          };
          std::pair<Value, Value> a{workgroupArray(b, stagedSize(), keyType),
                                    slotArray()};
          std::pair<Value, Value> other{
              workgroupArray(b, stagedSize(), keyType), slotArray()};
          Value table = workgroupArray(b, tableSize(), i32Type);
          Value partials = workgroupArray(b, options.threads, i32Type);
          Value starts = workgroupArray(b, kBins, i32Type);
          Value bases = workgroupArray(b, kBins, i32Type);
          forEachLoadedAhead(
              b, c, tid, options.threads,
              [&](OpBuilder &b, Value at) -> SmallVector<Value> {
                auto [key, slot] = load(b, pass, c, at);
                if (!slot)
                  return {key};
                return {key, slot};
              },
              [&](OpBuilder &b, Value e, ArrayRef<Value> loaded) {
                Value to = staged(b, e);
                memref::StoreOp::create(b, loc, loaded[0], a.first, to);
                if (withSlots)
                  memref::StoreOp::create(b, loc, loaded[1], a.second, to);
                if (tileCounts)
                  memref::AtomicRMWOp::create(
                      b, loc, arith::AtomicRMWKind::addi, i32(b, 1), tileCounts,
                      ValueRange{passDigit(b, loaded[0], pass)});
              });
          // Where each digit's bucket starts in the row: a scan of the totals.
          buildBlockScan(
              b, tid, options.threads, index(b, kBins), i32(b, 0),
              [&](OpBuilder &b, Value i) -> Value {
                if (options.onesweep)
                  return memref::LoadOp::create(
                      b, loc, histogram,
                      ValueRange{c.r, add(b, i, index(b, pass * kBins))});
                return memref::LoadOp::create(b, loc, totals,
                                              ValueRange{c.r, i});
              },
              [&](OpBuilder &b, Value i, Value v) {
                memref::StoreOp::create(b, loc, v, bases, i);
              },
              partials, /*loseCarry=*/false);
          // Digits the tile lacks keep a start of 0.
          sift::forEachOfThread(b, loc, tid, index(b, kBins), threads,
                                [&](OpBuilder &b, Location loc, Value d) {
                                  memref::StoreOp::create(b, loc, i32(b, 0),
                                                          starts, d);
                                });
          barrier(b);
          // onesweep: the counts go out before the tile is sorted, so that
          // later tiles' look-backs rarely wait.
          if (options.onesweep)
            publishCounts(b, tid, pass, c, tileCounts);
          int64_t shift = pass * sift::kRadixSortDigitBits;
          buildSplit(b, tid, c.length, a, other, shift, table, partials);
          buildSplit(b, tid, c.length, other, a,
                     shift + sift::kRadixSortSplitBits, table, partials);
          // Where each digit starts in the sorted tile.
          sift::forEachOfThread(
              b, loc, tid, c.length, threads,
              [&](OpBuilder &b, Location loc, Value e) {
                Value d = passDigit(
                    b, memref::LoadOp::create(b, loc, a.first, staged(b, e)),
                    pass);
                Value zero = index(b, 0);
                Value later = cmp(b, arith::CmpIPredicate::ne, e, zero);
                Value previous = arith::SelectOp::create(
                    b, loc, later, sub(b, e, index(b, 1)), e);
                Value dp = passDigit(b,
                                     memref::LoadOp::create(
                                         b, loc, a.first, staged(b, previous)),
                                     pass);
                Value starts0 = arith::OrIOp::create(
                    b, loc, cmp(b, arith::CmpIPredicate::eq, e, zero),
                    cmp(b, arith::CmpIPredicate::ne, d, dp));
                scf::IfOp::create(b, loc, starts0, [&](OpBuilder &b, Location) {
                  memref::StoreOp::create(
                      b, loc, arith::IndexCastOp::create(b, loc, i32Type, e),
                      starts, d);
                  scf::YieldOp::create(b, loc);
                });
              });
          barrier(b);
          // Where element e of the sorted tile goes: bases[d] + e, for its
          // digit d (the bucket's start in the row, plus the tile's offset
          // in the bucket, less where d starts in the tile). Digits the tile
          // lacks get a value no element reads.
          if (options.onesweep)
            lookBack(b, tid, pass, c, tileCounts, starts, bases);
          else
            sift::forEachOfThread(
                b, loc, tid, index(b, kBins), threads,
                [&](OpBuilder &b, Location loc, Value d) {
                  Value offset = memref::LoadOp::create(
                      b, loc, counts,
                      ValueRange{c.r,
                                 add(b, mul(b, d, index(b, tiles)), c.number)});
                  Value base = memref::LoadOp::create(b, loc, bases, d);
                  Value start = memref::LoadOp::create(b, loc, starts, d);
                  memref::StoreOp::create(
                      b, loc, sub(b, add(b, base, offset), start), bases, d);
                });
          barrier(b);
          sift::forEachOfThread(
              b, loc, tid, c.length, threads,
              [&](OpBuilder &b, Location loc, Value e) {
                Value from = staged(b, e);
                Value key = memref::LoadOp::create(b, loc, a.first, from);
                Value slot =
                    withSlots ? memref::LoadOp::create(b, loc, a.second, from)
                              : Value();
                Value d = passDigit(b, key, pass);
                Value place = toIndex(
                    b, add(b, memref::LoadOp::create(b, loc, bases, d),
                           arith::IndexCastOp::create(b, loc, i32Type, e)));
                if (!last) {
                  memref::StoreOp::create(b, loc, key, keys[to],
                                          ValueRange{c.r, place});
                  if (withSlots)
                    memref::StoreOp::create(b, loc, slot, slots[to],
                                            ValueRange{c.r, place});
                  return;
                }
                writeResult(b, c, place, key, slot);
              });
        });
  }

  /// The last pass: the element (key, slot) at sorted position `place`
  /// becomes the op's result there.
  void writeResult(OpBuilder &b, const Tile &c, Value place, Value key,
                   Value slot) {
    SmallVector<Value> at = sift::rowElementIndices(c.rowIvs, row.dim, place);
    if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
      Value kept =
          cmp(b, arith::CmpIPredicate::ult, place, index(b, this->kept));
      scf::IfOp::create(b, loc, kept, [&](OpBuilder &b, Location) {
        memref::StoreOp::create(b, loc, key, topk.getValuesInit(), at);
        Value wide = arith::ExtSIOp::create(b, loc, b.getI64Type(), slot);
        memref::StoreOp::create(b, loc, wide, topk.getIndicesInit(), at);
        scf::YieldOp::create(b, loc);
      });
      return;
    }
    memref::StoreOp::create(b, loc, key, row.staged.front(), at);
    if (!withSlots)
      return;
    Value from = toIndex(b, slot);
    for (auto [operand, copy] :
         llvm::zip(ArrayRef<Value>(row.staged).drop_front(), copies)) {
      Value v = memref::LoadOp::create(b, loc, copy, ValueRange{c.r, from});
      memref::StoreOp::create(b, loc, v, operand, at);
    }
  }

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
  SmallVector<Value> copies;
};

} // namespace

int64_t sift::radixSortWorkgroupBytes(int64_t tile, int64_t threads,
                                      int64_t keyBytes, bool slots,
                                      bool onesweep) {
  // Two (key, slot) arrays of the tile with a gap after each thread's
  // items, the split counts with a gap after every 16, the scan's partials
  // and the digits' starts in the tile and buckets' in the row; onesweep's
  // digits' ends and ticket.
  return 2 * (tile + threads) * (keyBytes + (slots ? 4 : 0)) +
         (kSplitBins + 1) * threads * 4 + threads * 4 + 2 * kBins * 4 +
         (onesweep ? kBins * 4 + 4 : 0);
}

bool sift::radixSortNeedsSlots(Operation *op) {
  if (auto sort = dyn_cast<SortOp>(op))
    return sort.getOutputs().size() > 1;
  return true;
}

bool sift::radixSortable(Operation *op) {
  if (auto sort = dyn_cast<SortOp>(op))
    return !sort.hasComparator() && sort.getOrder().has_value();
  return isa<TopkOp>(op);
}

LogicalResult sift::lowerRowsByRadixSort(RewriterBase &rewriter,
                                         const RowOp &row,
                                         const RadixSortOptions &options) {
  return RadixSortLowering(rewriter, row, options).build();
}
