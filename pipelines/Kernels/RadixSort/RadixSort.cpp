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
//            the tiles (thread chunks, a scan of their sums by warp
//            shuffles or in workgroup memory: RadixScan.cpp, the carries
//            added back) and writes the bucket's total; rows of fewer than
//            32 tiles take a workgroup of 256 threads a row instead, each
//            thread scanning its digit's tiles alone (a workgroup per
//            bucket of one tile made millions of one-thread launches)
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
#include "pipelines/Kernels/RadixSort/RadixSortLowering.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace sift::radixsort {

LogicalResult RadixSortLowering::build() {
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
  // An iota operand (foldIotasIntoRow) needs no copy: the last pass writes
  // each element's first position, which its slot holds.
  for (auto [i, operand] : llvm::enumerate(row.staged))
    if (i > 0)
      copies.push_back(
          i < row.iotas.size() && row.iotas[i]
              ? Value()
              : allocate(cast<MemRefType>(operand.getType()).getElementType()));
  passIds.assign(passes, Value());
  if (passes >= 4)
    for (int64_t pass = 1; pass < passes; ++pass)
      passIds[pass] =
          memref::AllocOp::create(b, loc, MemRefType::get({1}, b.getI32Type()));
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

Value RadixSortLowering::digitOf(OpBuilder &b, Value key, Value shift,
                                 int64_t width) {
  Value bits =
      sift::buildOrderBits(b, loc, key, invert, options.halfNanLayout);
  Type type = bits.getType();
  Value shifted = arith::ShRUIOp::create(
      b, loc, bits, arith::IndexCastUIOp::create(b, loc, type, shift));
  Value digit = arith::AndIOp::create(
      b, loc, shifted,
      arith::ConstantIntOp::create(b, loc, type, (int64_t{1} << width) - 1));
  return toIndex(b, digit);
}

void RadixSortLowering::writePassIds(OpBuilder &b, Value block, Value tid) {
  if (llvm::all_of(passIds, [](Value v) { return !v; }))
    return;
  Value firstBlock = cmp(b, arith::CmpIPredicate::eq, block, index(b, 0));
  scf::IfOp::create(b, loc, firstBlock, [&](OpBuilder &b, Location) {
    onThreadZero(b, tid, [&](OpBuilder &b) {
      for (auto [pass, id] : llvm::enumerate(passIds))
        if (id)
          memref::StoreOp::create(b, loc, i32(b, pass), id, index(b, 0));
    });
    scf::YieldOp::create(b, loc);
  });
}

std::pair<Value, Value> RadixSortLowering::load(OpBuilder &b, int64_t pass,
                                                const Tile &c, Value at) {
  if (pass == 0)
    return {
        memref::LoadOp::create(b, loc, row.sources.front(),
                               sift::rowElementIndices(c.rowIvs, row.dim, at)),
        withSlots ? arith::IndexCastOp::create(b, loc, b.getI32Type(), at)
                  : Value()};
  int64_t from = (pass - 1) % 2;
  return {memref::LoadOp::create(b, loc, keys[from], ValueRange{c.r, at}),
          withSlots
              ? memref::LoadOp::create(b, loc, slots[from], ValueRange{c.r, at})
              : Value()};
}

void RadixSortLowering::forEachLoadedAhead(
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
      // Fault radix-tail-overrun: no clamp, past the row's end.
      loaded.push_back(loads(
          b, add(b, c.start, options.tailOverrun ? e : minu(b, e, last))));
    }
    for (int64_t k = 0; k < ahead; ++k) {
      Value inside = cmp(b, arith::CmpIPredicate::ult, positions[k], c.length);
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

void RadixSortLowering::buildDigitCount(
    int64_t first, int64_t count,
    function_ref<void(OpBuilder &, const Tile &, Value, Value, Value)>
        writeOut) {
  int64_t threadCount =
      std::max(options.threads, std::min<int64_t>(options.tile, 512));
  launch(rows * tiles, threadCount, [&](OpBuilder &b, Value block, Value tid) {
    Value threads = index(b, threadCount);
    if (first == 0)
      writePassIds(b, block, tid);
    // One pass: its number as its kernels see it; several: constants.
    Value only = count == 1 ? passIndex(b, first) : Value();
    Tile c = tileOf(b, block);
    Value bins = workgroupArray(b, count * kBins, b.getI32Type());
    sift::forEachOfThread(b, loc, tid, index(b, count * kBins), threads,
                          [&](OpBuilder &b, Location loc, Value e) {
                            memref::StoreOp::create(b, loc, i32(b, 0), bins, e);
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
                ValueRange{add(
                    b, passDigit(b, loaded[0], only ? only : index(b, pass)),
                    index(b, (pass - first) * kBins))});
        });
    barrier(b);
    writeOut(b, c, bins, tid, threads);
  });
}

void RadixSortLowering::copyAside(OpBuilder &b, const Tile &c, Value at) {
  for (auto [source, copy] :
       llvm::zip(ArrayRef<Value>(row.sources).drop_front(), copies)) {
    if (!copy)
      continue; // an iota
    Value v = memref::LoadOp::create(
        b, loc, source, sift::rowElementIndices(c.rowIvs, row.dim, at));
    memref::StoreOp::create(b, loc, v, copy, ValueRange{c.r, at});
  }
}

void RadixSortLowering::buildCount(int64_t pass) {
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

void RadixSortLowering::buildScan(int64_t pass) {
  if (tiles < kScanWarp) {
    buildSerialScan();
    return;
  }
  int64_t threadCount =
      std::min<int64_t>(kScanThreads, sift::nextPowerOfTwo(tiles));
  launch(rows * kBins, threadCount, [&](OpBuilder &b, Value block, Value tid) {
    Value r = arith::DivUIOp::create(b, loc, block, index(b, kBins));
    Value d = arith::RemUIOp::create(b, loc, block, index(b, kBins));
    Value partials = workgroupArray(b, threadCount, b.getI32Type());
    Value bucket = mul(b, d, index(b, tiles));
    Value total = buildBlockScan(
        b, tid, threadCount, index(b, tiles), i32(b, 0),
        [&](OpBuilder &b, Value i) -> Value {
          return memref::LoadOp::create(b, loc, counts,
                                        ValueRange{r, add(b, bucket, i)});
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

void RadixSortLowering::buildSerialScan() {
  launch(rows, kBins, [&](OpBuilder &b, Value r, Value d) {
    Value bucket = mul(b, d, index(b, tiles));
    Value one = index(b, 1);
    Value total =
        scf::ForOp::create(
            b, loc, index(b, 0), index(b, tiles), one, ValueRange{i32(b, 0)},
            [&](OpBuilder &b, Location loc, Value t, ValueRange running) {
              Value at = add(b, bucket, t);
              Value v =
                  memref::LoadOp::create(b, loc, counts, ValueRange{r, at});
              Value offset = running[0];
              if (options.lostCarry) {
                // Fault radix-scan-lost-carry: an odd tile loses what the
                // tiles before it hold, as an odd thread's chunk does.
                Value odd =
                    cmp(b, arith::CmpIPredicate::ne,
                        arith::AndIOp::create(b, loc, t, one), index(b, 0));
                offset =
                    arith::SelectOp::create(b, loc, odd, i32(b, 0), offset);
              }
              memref::StoreOp::create(b, loc, offset, counts,
                                      ValueRange{r, at});
              scf::YieldOp::create(b, loc, add(b, running[0], v));
            })
            .getResult(0);
    memref::StoreOp::create(b, loc, total, totals, ValueRange{r, d});
  });
}

void RadixSortLowering::buildScatter(int64_t pass) {
  launch(
      rows * tiles, options.threads, [&](OpBuilder &b, Value block, Value tid) {
        ScatterTile s = scatterTile(b, block, tid, passIndex(b, pass));
        stageTile(b, pass, s);
        // onesweep: the counts go out before the tile is sorted, so that
        // later tiles' look-backs rarely wait.
        if (options.onesweep)
          publishCounts(b, tid, s.p, s.c, s.tileCounts);
        sortTile(b, s);
        scatterTile(b, pass, s);
      });
}

RadixSortLowering::ScatterTile
RadixSortLowering::scatterTile(OpBuilder &b, Value block, Value tid, Value p) {
  ScatterTile s;
  s.p = p;
  s.tid = tid;
  Value threads = s.threads = index(b, options.threads);
  Type i32Type = b.getI32Type();
  // onesweep: the tile's digit counts (zeroed before the ticket's
  // barrier), and tiles in the order workgroups start (a ticket), so that
  // a workgroup only waits for ones already running.
  if (options.onesweep) {
    s.tileCounts = workgroupArray(b, kBins, i32Type);
    sift::forEachOfThread(b, loc, tid, index(b, kBins), threads,
                          [&](OpBuilder &b, Location loc, Value d) {
                            memref::StoreOp::create(b, loc, i32(b, 0),
                                                    s.tileCounts, d);
                          });
  }
  // (The fault radix-tile-by-block takes the workgroup's id instead, after
  // the ticket's barrier: a look-back may then wait for a workgroup that
  // has not started.)
  Value tile = block;
  if (options.onesweep && options.tileByBlock)
    gpu::BarrierOp::create(b, loc);
  else if (options.onesweep)
    tile = ticketOf(b, tid, p);
  s.c = tileOf(b, tile);
  auto slotArray = [&]() -> Value {
    return withSlots ? workgroupArray(b, stagedSize(), i32Type) : Value();
  };
  // radix_match ranks each lane's items from registers: one array, the
  // sorted tile.
  if (!options.match)
    s.a = {workgroupArray(b, stagedSize(), keyType), slotArray()};
  s.other = {workgroupArray(b, stagedSize(),
                            matchMasksInTile() ? Type(i32Type) : keyType),
             slotArray()};
  s.table = options.match ? workgroupArray(b, warps() * kBins, i32Type)
                          : workgroupArray(b, tableSize(), i32Type);
  if (matchByMasks())
    s.masks = workgroupArray(b, warps() * kBins, i32Type);
  else if (matchMasksInTile())
    s.masks = s.other.first;
  s.partials = workgroupArray(b, options.threads, i32Type);
  s.starts = workgroupArray(b, kBins, i32Type);
  s.bases = workgroupArray(b, kBins, i32Type);
  return s;
}

void RadixSortLowering::stageTile(OpBuilder &b, int64_t pass, ScatterTile &s) {
  Value p = s.p, tid = s.tid;
  const Tile &c = s.c;
  if (options.match) {
    // Each lane's items go straight to registers, loaded before the
    // totals' scan so that their latency overlaps it.
    s.lanes = matchLanes(b, tid, c.length);
    s.items = loadMatchItems(b, pass, c, s.lanes);
  } else {
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
          memref::StoreOp::create(b, loc, loaded[0], s.a.first, to);
          if (withSlots)
            memref::StoreOp::create(b, loc, loaded[1], s.a.second, to);
          if (s.tileCounts)
            memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                        i32(b, 1), s.tileCounts,
                                        ValueRange{passDigit(b, loaded[0], p)});
        });
  }
  // Where each digit's bucket starts in the row: a scan of the totals.
  buildBlockScan(
      b, tid, options.threads, index(b, kBins), i32(b, 0),
      [&](OpBuilder &b, Value i) -> Value {
        if (options.onesweep)
          return memref::LoadOp::create(
              b, loc, histogram,
              ValueRange{c.r, add(b, i, mul(b, p, index(b, kBins)))});
        return memref::LoadOp::create(b, loc, totals, ValueRange{c.r, i});
      },
      [&](OpBuilder &b, Value i, Value v) {
        memref::StoreOp::create(b, loc, v, s.bases, i);
      },
      s.partials, /*loseCarry=*/false);
  // Digits the tile lacks keep a start of 0.
  if (!options.match)
    sift::forEachOfThread(b, loc, tid, index(b, kBins), s.threads,
                          [&](OpBuilder &b, Location loc, Value d) {
                            memref::StoreOp::create(b, loc, i32(b, 0),
                                                    s.starts, d);
                          });
  barrier(b);
}

bool RadixSortLowering::matchByMasks() const {
  if (!options.match || options.matchMasksBudget <= 0)
    return false;
  int64_t bytes = sift::radixSortWorkgroupBytes(
      options.tile, options.threads, keyType.getIntOrFloatBitWidth() / 8,
      withSlots, options.onesweep, /*match=*/true);
  return bytes + warps() * kBins * 4 <= options.matchMasksBudget;
}

bool RadixSortLowering::matchMasksInTile() const {
  return options.match && options.matchMasksBudget > 0 && !matchByMasks() &&
         keyType.getIntOrFloatBitWidth() == 32 &&
         stagedSize() >= warps() * kBins;
}

Value RadixSortLowering::loadStagedKey(OpBuilder &b, Value array, Value at) {
  Value stored = memref::LoadOp::create(b, loc, array, at);
  if (stored.getType() == keyType)
    return stored;
  return arith::BitcastOp::create(b, loc, keyType, stored);
}

void RadixSortLowering::storeStagedKey(OpBuilder &b, Value key, Value array,
                                       Value at) {
  Type element = cast<MemRefType>(array.getType()).getElementType();
  if (element != keyType)
    key = arith::BitcastOp::create(b, loc, element, key);
  memref::StoreOp::create(b, loc, key, array, at);
}

void RadixSortLowering::sortTile(OpBuilder &b, ScatterTile &s) {
  Value p = s.p, tid = s.tid;
  Value length = s.c.length;
  if (options.match) {
    // The sorted tile and the digits' starts in one ranking.
    buildMatchRank(b, tid, p, s.lanes, s.items, s.other, s.table, s.masks,
                   s.starts, s.partials);
    std::swap(s.a, s.other);
    return;
  }
  Value shift = passShift(b, p);
  buildSplit(b, tid, length, s.a, s.other, shift, s.table, s.partials);
  buildSplit(b, tid, length, s.other, s.a,
             add(b, shift, index(b, sift::kRadixSortSplitBits)), s.table,
             s.partials);
  // Where each digit starts in the sorted tile.
  Type i32Type = b.getI32Type();
  sift::forEachOfThread(
      b, loc, tid, length, s.threads,
      [&](OpBuilder &b, Location loc, Value e) {
        Value d = passDigit(
            b, memref::LoadOp::create(b, loc, s.a.first, staged(b, e)), p);
        Value zero = index(b, 0);
        Value later = cmp(b, arith::CmpIPredicate::ne, e, zero);
        Value previous =
            arith::SelectOp::create(b, loc, later, sub(b, e, index(b, 1)), e);
        Value dp = passDigit(
            b, memref::LoadOp::create(b, loc, s.a.first, staged(b, previous)),
            p);
        Value starts0 = arith::OrIOp::create(
            b, loc, cmp(b, arith::CmpIPredicate::eq, e, zero),
            cmp(b, arith::CmpIPredicate::ne, d, dp));
        scf::IfOp::create(b, loc, starts0, [&](OpBuilder &b, Location) {
          memref::StoreOp::create(
              b, loc, arith::IndexCastOp::create(b, loc, i32Type, e), s.starts,
              d);
          scf::YieldOp::create(b, loc);
        });
      });
  barrier(b);
}

void RadixSortLowering::scatterTile(OpBuilder &b, int64_t pass,
                                    ScatterTile &s) {
  bool last = pass == passes - 1;
  int64_t to = pass % 2;
  Value p = s.p, tid = s.tid, threads = s.threads;
  const Tile &c = s.c;
  Type i32Type = b.getI32Type();
  // Where element e of the sorted tile goes: bases[d] + e, for its digit
  // d (the bucket's start in the row, plus the tile's offset in the
  // bucket, less where d starts in the tile). Digits the tile lacks get a
  // value no element reads.
  if (options.onesweep)
    lookBack(b, tid, p, c, s.tileCounts, s.starts, s.bases);
  else
    sift::forEachOfThread(
        b, loc, tid, index(b, kBins), threads,
        [&](OpBuilder &b, Location loc, Value d) {
          Value offset = memref::LoadOp::create(
              b, loc, counts,
              ValueRange{c.r, add(b, mul(b, d, index(b, tiles)), c.number)});
          Value base = memref::LoadOp::create(b, loc, s.bases, d);
          Value start = memref::LoadOp::create(b, loc, s.starts, d);
          memref::StoreOp::create(b, loc, sub(b, add(b, base, offset), start),
                                  s.bases, d);
        });
  barrier(b);
  sift::forEachOfThread(
      b, loc, tid, c.length, threads, [&](OpBuilder &b, Location loc, Value e) {
        Value from = staged(b, e);
        Value key = loadStagedKey(b, s.a.first, from);
        Value slot = withSlots
                         ? memref::LoadOp::create(b, loc, s.a.second, from)
                         : Value();
        Value d = passDigit(b, key, p);
        Value place = toIndex(
            b, add(b, memref::LoadOp::create(b, loc, s.bases, d),
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
}

void RadixSortLowering::writeResult(OpBuilder &b, const Tile &c, Value place,
                                    Value key, Value slot) {
  SmallVector<Value> at = sift::rowElementIndices(c.rowIvs, row.dim, place);
  if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
    Value kept = cmp(b, arith::CmpIPredicate::ult, place, index(b, this->kept));
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
    Value v = copy ? memref::LoadOp::create(b, loc, copy, ValueRange{c.r, from})
                         .getResult()
                   : sift::iotaValue(
                         b, loc, slot,
                         cast<MemRefType>(operand.getType()).getElementType());
    memref::StoreOp::create(b, loc, v, operand, at);
  }
}

} // namespace sift::radixsort

using namespace mlir;

int64_t sift::radixSortWorkgroupBytes(int64_t tile, int64_t threads,
                                      int64_t keyBytes, bool slots,
                                      bool onesweep, bool match) {
  // Two (key, slot) arrays of the tile with a gap after each thread's
  // items (radix_match one: its lanes rank their items from registers and
  // the array takes the sorted tile), the split counts with a gap after every
  // 16 (radix_match: the warps' digit counts), the scan's partials and the
  // digits' starts in the tile and buckets' in the row; onesweep's digits' ends
  // and ticket.
  using radixsort::kBins, radixsort::kSplitBins;
  int64_t ranking = match ? std::max<int64_t>(threads / 32, 1) * kBins * 4
                          : (kSplitBins + 1) * threads * 4;
  return (match ? 1 : 2) * (tile + threads) * (keyBytes + (slots ? 4 : 0)) +
         ranking + threads * 4 + 2 * kBins * 4 + (onesweep ? kBins * 4 + 4 : 0);
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
  return radixsort::RadixSortLowering(rewriter, row, options).build();
}
