//===- RadixSelect.cpp - Multi-pass radix select for long top-k rows ------===//
//
// The `radix_select` algorithm of the distribute pipeline for sift.topk.
// Every element gets a composite key, larger = better: its value's
// order-preserving bits (NaN above +inf as one key, -0 = +0, inverted for
// `smallest`), then its index inverted, so that ties go to the lower index
// and no two elements are equal. The k best composites are found one 8-bit
// digit at a time, from the top, all rows at once, over host-allocated plan
// buffers (a row's state: the digits chosen so far, how many of k are still
// to be found below them, done):
//
//   init:       zero the histograms and counters, state = (0, 0, k, not
//               done, reading the row)
//   per digit:  histogram: workgroups of `row_tile` elements of a row count
//               the digit of the elements that match the digits chosen so
//               far, in a workgroup-memory histogram (atomics), then add it
//               to the row's global histogram of this digit (atomics);
//               pick: a workgroup per row scans the 256 bins from the best
//               (a suffix sum in workgroup memory), takes the digit where
//               the count reaches what is left of k and subtracts the
//               better bins; when that bin holds exactly what is left, the
//               row is done and later passes skip it (early stop). When
//               the bin holds at most 1/kRadixCompactBelow of the row (or
//               kRadixCompactUpTo elements), the next histogram also
//               compacts the row (AIR top-k's and
//               CUB's way): each element that matches the digits chosen so
//               far is appended (order bits, position) to the row's
//               survivors, from a global atomic counter, and each that is
//               better is appended to the candidates at once. Later
//               passes and the filter read only the survivors, in the
//               same chunks of slots;
//   filter:     every element (or survivor) whose composite is at least
//               the chosen prefix (zeros below) is one of the k: it is
//               appended to the row's candidates (value, index, order
//               bits) at a slot from a global atomic counter
//   rank:       each candidate counts the candidates better than it (k is
//               small: the strategy picks this algorithm for k <= 256) and
//               is written at that rank, value and i64 index
//
// Dispatches are ordered by the plan; no workgroup waits for another.
//
// The one-launch form (buildFused): when a row is one chunk (row_tile at
// least the row) and a workgroup has at least kRadixBins threads, a
// workgroup per row does all of the above in one launch, as AIR top-k's
// one-block variant and FlashInfer's top-k do: its bins, suffix sums, the
// row's state, its candidate and survivor counters and its k candidates
// live in workgroup memory (only the survivors stay global), barriers
// separate count, pick and the next pass, and a thread walks the row with
// kFusedLoadsAhead loads in flight, its full steps unchecked. Its first
// pass counts kFineBits more than its digit (2,048 bins): the first pick
// sums each digit's fine bins, the second key digit (kFineBits wide) is
// picked from the chosen digit's fine bins without reading the row, and
// the row compacts once a bin holds at most 1 / kFusedCompactBelow of it,
// so that spread bf16 keys take two passes over the row, not three. No plan
// launch, no histogram in global memory, but each row is one workgroup's
// alone (the default takes it from 16 rows of at most 2^18 elements). On
// the H200 (2026-11-30) [64, 65536] k64 went from 0.093 to 0.038 ms,
// [64, 151936] k50 from 0.129 to 0.073.
//
// The fault radix-digit-off-by-one counts every element one bin too high;
// radix-compact-drops-better forgets, when compacting, the elements known
// by then to be among the k; radix-fused-bins-kept clears the one-launch
// form's bins only before the first pass.
//
// This file builds the plan, init, the picks and the rank; the passes over
// a row's elements (histograms, compaction, filter) are in
// RadixSelectPasses.cpp, the builder's class in RadixSelectLowering.h.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RadixSelect/RadixSelect.h"

#include "pipelines/Kernels/RadixSelect/RadixSelectLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace sift::radix_select;

LogicalResult RadixLowering::build() {
  rows = row.rows();
  k = topk.getK();
  if (rows == 0 || row.n == 0 || k == 0)
    return success(); // No work.
  if (row.n > (int64_t{1} << 31) - 1)
    return topk.emitOpError("radix_select indexes a row with i32, but it "
                            "has ")
           << row.n << " elements";
  keyType = topk.getInputType().getElementType();
  keyBits = keyType.getIntOrFloatBitWidth();
  int64_t indexBits = 0;
  while ((int64_t{1} << indexBits) < row.n)
    ++indexBits;
  indexDigitBits =
      (indexBits + sift::kRadixBits - 1) / sift::kRadixBits * sift::kRadixBits;
  chunks = (row.n + options.chunk - 1) / options.chunk;

  // A row in one chunk with a thread a bin: one launch does it all.
  fused = chunks == 1 && options.threads >= sift::kRadixBins;
  planDigits();

  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto allocSurvivors = [&] {
    survivorBits = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, row.n}, wordType(b)));
    survivorPositions =
        memref::AllocOp::create(b, loc, MemRefType::get({rows, row.n}, i32));
  };
  if (fused) {
    allocSurvivors();
    buildFused();
    return success();
  }
  state =
      memref::AllocOp::create(b, loc, MemRefType::get({rows, kFields}, i64));
  histograms = memref::AllocOp::create(
      b, loc, MemRefType::get({rows, passes, sift::kRadixBins}, i32));
  counters = memref::AllocOp::create(b, loc, MemRefType::get({rows}, i32));
  candidateKeys =
      memref::AllocOp::create(b, loc, MemRefType::get({rows, k}, keyType));
  candidateIndices =
      memref::AllocOp::create(b, loc, MemRefType::get({rows, k}, i32));
  candidateBits =
      memref::AllocOp::create(b, loc, MemRefType::get({rows, k}, i64));
  survivorCounts =
      memref::AllocOp::create(b, loc, MemRefType::get({rows}, i32));
  allocSurvivors();
  buildInit();
  for (int64_t pass = 0; pass < passes; ++pass) {
    buildHistogram(pass);
    buildPick(pass);
  }
  buildFilter();
  buildRank();
  return success();
}

void RadixLowering::planDigits() {
  // The digits: 8 bits each from the top of the key, then of the inverted
  // index. The one-launch form's first pass counts kFineBits more, so its
  // second key digit is that wide and picked from the same histogram: the
  // row is read once for both, and the bin chosen after them is small
  // enough (for spread keys) that the next pass compacts the row.
  int64_t keyLeft = keyBits;
  auto addDigit = [&](int64_t width, bool fromLast) {
    width = std::min(width, keyLeft);
    keyLeft -= width;
    digitShift.push_back(keyLeft);
    digitWidth.push_back(width);
    derived.push_back(fromLast);
  };
  addDigit(sift::kRadixBits, false);
  if (fused && keyLeft > kFineBits)
    addDigit(kFineBits, true);
  while (keyLeft > 0)
    addDigit(sift::kRadixBits, false);
  keyPasses = static_cast<int64_t>(digitShift.size());
  for (int64_t left = indexDigitBits; left > 0; left -= sift::kRadixBits) {
    digitShift.push_back(left - sift::kRadixBits);
    digitWidth.push_back(sift::kRadixBits);
    derived.push_back(false);
  }
  passes = static_cast<int64_t>(digitShift.size());
}

int64_t RadixLowering::histogramBits(int64_t pass) const {
  if (pass + 1 < passes && derived[pass + 1])
    return digitWidth[pass] + digitWidth[pass + 1];
  return digitWidth[pass];
}

IntegerType RadixLowering::wordType(OpBuilder &b) const {
  return b.getIntegerType(keyBits <= 32 && indexDigitBits <= 32 ? 32 : 64);
}

Value RadixLowering::word(OpBuilder &b, Type type, int64_t v) {
  if (type.getIntOrFloatBitWidth() == 32)
    v = static_cast<int32_t>(static_cast<uint32_t>(v));
  return arith::ConstantIntOp::create(b, loc, type, v);
}

Value RadixLowering::betterBits(OpBuilder &b, Value value, Type type) {
  if (!type)
    type = b.getI64Type();
  Value up = sift::buildOrderBits(b, loc, value, !topk.isLargest(),
                                  options.halfNanLayout);
  if (keyBits == type.getIntOrFloatBitWidth())
    return up;
  return arith::ExtUIOp::create(b, loc, type, up);
}

Value RadixLowering::invertedIndex(OpBuilder &b, Value position, Type type) {
  if (!type)
    type = b.getI64Type();
  Value wide = arith::IndexCastUIOp::create(b, loc, type, position);
  int64_t top = indexDigitBits == 0 ? 0 : (int64_t{1} << indexDigitBits) - 1;
  return arith::SubIOp::create(b, loc, word(b, type, top), wide);
}

Value RadixLowering::narrowed(OpBuilder &b, Value wide, Type type) {
  if (type.getIntOrFloatBitWidth() == 64)
    return wide;
  return arith::TruncIOp::create(b, loc, type, wide);
}

RadixLowering::Tile RadixLowering::chunkOf(OpBuilder &b, Value block) {
  return tileOf(b, block, chunks, options.chunk, row);
}

Value RadixLowering::loadState(OpBuilder &b, Value r, StateField field) {
  if (fused)
    return memref::LoadOp::create(b, loc, localState, index(b, field));
  return memref::LoadOp::create(b, loc, state, ValueRange{r, index(b, field)});
}

void RadixLowering::storeState(OpBuilder &b, Value v, Value r,
                               StateField field) {
  if (fused)
    memref::StoreOp::create(b, loc, v, localState, index(b, field));
  else
    memref::StoreOp::create(b, loc, v, state, ValueRange{r, index(b, field)});
}

SmallVector<Value> RadixLowering::candidateSlot(Value r, Value slot) const {
  if (fused)
    return {slot};
  return {r, slot};
}

std::pair<Value, SmallVector<Value>>
RadixLowering::counterOf(OpBuilder &b, Value r, bool survivors) {
  if (fused)
    return {localCounters, {index(b, survivors ? 1 : 0)}};
  return {survivors ? survivorCounts : counters, {r}};
}

void RadixLowering::buildInit() {
  int64_t threads = sift::kRadixBins;
  sift::buildLaunch(
      b, loc, rows, threads, [&](OpBuilder &b, Value r, Value tid) {
        Value zero = i32(b, 0);
        for (int64_t pass = 0; pass < passes; ++pass)
          memref::StoreOp::create(b, loc, zero, histograms,
                                  ValueRange{r, index(b, pass), tid});
        onThreadZero(b, tid, [&](OpBuilder &b) {
          memref::StoreOp::create(b, loc, zero, counters, r);
          memref::StoreOp::create(b, loc, zero, survivorCounts, r);
          for (auto [field, v] : {std::pair{kKeyPrefix, int64_t{0}},
                                  {kIndexPrefix, 0},
                                  {kLeft, k},
                                  {kDone, 0},
                                  {kSource, int64_t{kFromRow}}})
            memref::StoreOp::create(b, loc, i64(b, v), state,
                                    ValueRange{r, index(b, field)});
        });
      });
}

void RadixLowering::buildPick(int64_t pass) {
  sift::buildLaunch(
      b, loc, rows, sift::kRadixBins, [&](OpBuilder &b, Value r, Value tid) {
        MLIRContext *context = b.getContext();
        Value sums = memref::AllocOp::create(
            b, loc,
            sift::workgroupMemRefType(context, sift::kRadixBins,
                                      b.getI32Type()));
        Value reached = memref::AllocOp::create(
            b, loc, sift::workgroupMemRefType(context, 1, b.getI32Type()));
        Value count = memref::LoadOp::create(
            b, loc, histograms, ValueRange{r, index(b, pass), tid});
        pickDigit(b, pass, r, tid, count, sums, reached);
      });
}

void RadixLowering::pickDigit(OpBuilder &b, int64_t pass, Value r, Value tid,
                              Value count, Value sums, Value reached) {
  // Threads from kRadixBins on (the one-launch form's) hold no bin: they
  // read the last one and write nothing, and meet every barrier.
  Value bin = tid, holds;
  if (fused) {
    bin = minu(b, tid, index(b, sift::kRadixBins - 1));
    holds = cmp(b, arith::CmpIPredicate::ult, tid, index(b, sift::kRadixBins));
  }
  auto ifHolds = [&](OpBuilder &b, function_ref<void(OpBuilder &)> body) {
    if (!fused) {
      body(b);
      return;
    }
    scf::IfOp::create(b, loc, holds, [&](OpBuilder &b, Location) {
      body(b);
      scf::YieldOp::create(b, loc);
    });
  };
  ifHolds(b, [&](OpBuilder &b) {
    memref::StoreOp::create(b, loc, count, sums, bin);
  });
  onThreadZero(b, tid, [&](OpBuilder &b) {
    memref::StoreOp::create(b, loc, i32(b, 0), reached, index(b, 0));
  });
  gpu::BarrierOp::create(b, loc);
  // sums[t] = the count of bins t and above (Hillis-Steele).
  for (int64_t offset = 1; offset < sift::kRadixBins; offset *= 2) {
    Value mine = memref::LoadOp::create(b, loc, sums, bin);
    Value other = arith::AddIOp::create(b, loc, bin, index(b, offset));
    Value inside =
        cmp(b, arith::CmpIPredicate::ult, other, index(b, sift::kRadixBins));
    Value clamped =
        arith::MinUIOp::create(b, loc, other, index(b, sift::kRadixBins - 1));
    Value theirs = arith::SelectOp::create(
        b, loc, inside, memref::LoadOp::create(b, loc, sums, clamped),
        i32(b, 0));
    Value sum = arith::AddIOp::create(b, loc, mine, theirs);
    gpu::BarrierOp::create(b, loc);
    ifHolds(b, [&](OpBuilder &b) {
      memref::StoreOp::create(b, loc, sum, sums, bin);
    });
    gpu::BarrierOp::create(b, loc);
  }
  // The chosen digit is the number of bins whose sum reaches what is
  // left of k, minus one (sums fall as the bin rises).
  Value left = loadState(b, r, kLeft);
  Value mine = arith::ExtUIOp::create(
      b, loc, b.getI64Type(), memref::LoadOp::create(b, loc, sums, bin));
  Value reaches = cmp(b, arith::CmpIPredicate::uge, mine, left);
  if (fused)
    reaches = arith::AndIOp::create(b, loc, reaches, holds);
  scf::IfOp::create(b, loc, reaches, [&](OpBuilder &b, Location) {
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, i32(b, 1),
                                reached, ValueRange{index(b, 0)});
    scf::YieldOp::create(b, loc);
  });
  gpu::BarrierOp::create(b, loc);
  auto record = [&](OpBuilder &b) {
    recordDigit(b, pass, r, left, sums, reached);
  };
  recordIfLive(b, r, tid, record);
}

void RadixLowering::recordIfLive(OpBuilder &b, Value r, Value tid,
                                 function_ref<void(OpBuilder &)> record) {
  if (options.doneRace) {
    // Fault select-done-race: every thread reads the flag thread 0
    // writes.
    Value live =
        cmp(b, arith::CmpIPredicate::eq, loadState(b, r, kDone), i64(b, 0));
    Value first = cmp(b, arith::CmpIPredicate::eq, tid, index(b, 0));
    scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, live, first),
                      [&](OpBuilder &b, Location) {
                        record(b);
                        scf::YieldOp::create(b, loc);
                      });
    return;
  }
  // Thread 0 alone reads the row's done flag, which it then writes
  // (another thread reading it meanwhile would race).
  onThreadZero(b, tid, [&](OpBuilder &b) {
    Value live =
        cmp(b, arith::CmpIPredicate::eq, loadState(b, r, kDone), i64(b, 0));
    scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location) {
      record(b);
      scf::YieldOp::create(b, loc);
    });
  });
}

void RadixLowering::recordDigit(OpBuilder &b, int64_t pass, Value r, Value left,
                                Value sums, Value reached) {
  Value bins = memref::LoadOp::create(b, loc, reached, index(b, 0));
  Value digit32 = arith::SubIOp::create(b, loc, bins, i32(b, 1));
  // At least one bin reaches it: the matching elements are at least what
  // is left. A fault may break that; keep the digit in range.
  digit32 = arith::MaxSIOp::create(b, loc, digit32, i32(b, 0));
  Value digit = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), digit32);
  Value next = arith::AddIOp::create(b, loc, digit, index(b, 1));
  Value hasNext =
      cmp(b, arith::CmpIPredicate::ult, next, index(b, sift::kRadixBins));
  Value clamped =
      arith::MinUIOp::create(b, loc, next, index(b, sift::kRadixBins - 1));
  auto wide = [&](Value v) -> Value {
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), v);
  };
  Value above = arith::SelectOp::create(
      b, loc, hasNext, wide(memref::LoadOp::create(b, loc, sums, clamped)),
      i64(b, 0));
  Value inBin = arith::SubIOp::create(
      b, loc, wide(memref::LoadOp::create(b, loc, sums, digit)), above);
  Value stillLeft = arith::SubIOp::create(b, loc, left, above);
  bool keyPass = pass < keyPasses;
  int64_t shift = digitShift[pass];
  StateField field = keyPass ? kKeyPrefix : kIndexPrefix;
  Value prefix = arith::OrIOp::create(
      b, loc, loadState(b, r, field),
      arith::ShLIOp::create(b, loc, wide(digit32), i64(b, shift)));
  storeState(b, prefix, r, field);
  storeState(b, stillLeft, r, kLeft);
  Value finished = cmp(b, arith::CmpIPredicate::eq, inBin, stillLeft);
  Value done = arith::ExtUIOp::create(b, loc, b.getI64Type(), finished);
  storeState(b, done, r, kDone);
  // The row's source: a row that compacted in this pass reads its
  // survivors from now on; one whose bin is small enough compacts in the
  // next pass (if there is one that reads elements and the row goes on).
  // A derived pass read nothing.
  Value source = loadState(b, r, kSource);
  Value nextSource =
      derived[pass] ? source
                    : arith::SelectOp::create(b, loc,
                                              cmp(b, arith::CmpIPredicate::eq,
                                                  source, i64(b, kCompacting)),
                                              i64(b, kFromSurvivors), source)
                          .getResult();
  if (pass + 1 < passes && !derived[pass + 1]) {
    int64_t below = fused ? kFusedCompactBelow : sift::kRadixCompactBelow;
    Value small =
        arith::OrIOp::create(b, loc,
                             cmp(b, arith::CmpIPredicate::ule,
                                 mul(b, inBin, i64(b, below)), i64(b, row.n)),
                             cmp(b, arith::CmpIPredicate::ule, inBin,
                                 i64(b, sift::kRadixCompactUpTo)));
    Value fromRow = cmp(b, arith::CmpIPredicate::eq, source, i64(b, kFromRow));
    Value compact = arith::AndIOp::create(
        b, loc, arith::AndIOp::create(b, loc, fromRow, small),
        arith::XOrIOp::create(
            b, loc, finished,
            arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
    nextSource = arith::SelectOp::create(b, loc, compact, i64(b, kCompacting),
                                         nextSource);
  }
  storeState(b, nextSource, r, kSource);
}

void RadixLowering::buildRank() {
  int64_t threads = std::min<int64_t>(options.threads, k);
  int64_t perRow = (k + threads - 1) / threads;
  sift::buildLaunch(
      b, loc, rows * perRow, threads,
      [&](OpBuilder &b, Value block, Value tid) {
        Value r = arith::DivUIOp::create(b, loc, block, index(b, perRow));
        Value j = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(
                b, loc, arith::RemUIOp::create(b, loc, block, index(b, perRow)),
                index(b, threads)),
            tid);
        Value live = cmp(b, arith::CmpIPredicate::ult, j, index(b, k));
        scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location) {
          rankCandidate(b, r, j);
          scf::YieldOp::create(b, loc);
        });
      });
}

void RadixLowering::rankCandidate(OpBuilder &b, Value r, Value j) {
  // The composite of a candidate: its order bits (kept by the filter) and
  // its inverted index.
  auto composite = [&](OpBuilder &b, Value slot) {
    Value bits =
        memref::LoadOp::create(b, loc, candidateBits, candidateSlot(r, slot));
    Value position = memref::LoadOp::create(b, loc, candidateIndices,
                                            candidateSlot(r, slot));
    Value at = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), position);
    return std::tuple{position, bits, invertedIndex(b, at)};
  };
  auto [position, u, inverted] = composite(b, j);
  Value x = memref::LoadOp::create(b, loc, candidateKeys, candidateSlot(r, j));
  auto count = scf::ForOp::create(
      b, loc, index(b, 0), index(b, k), index(b, 1), ValueRange{index(b, 0)},
      [&](OpBuilder &b, Location, Value i, ValueRange acc) {
        auto [pi, ui, ii] = composite(b, i);
        Value better = arith::OrIOp::create(
            b, loc, cmp(b, arith::CmpIPredicate::ugt, ui, u),
            arith::AndIOp::create(
                b, loc, cmp(b, arith::CmpIPredicate::eq, ui, u),
                cmp(b, arith::CmpIPredicate::ugt, ii, inverted)));
        Value add =
            arith::SelectOp::create(b, loc, better, index(b, 1), index(b, 0));
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::AddIOp::create(b, loc, acc[0], add).getResult()});
      });
  Value rank = count.getResult(0);
  SmallVector<Value> rowIvs = sift::delinearizeRow(b, loc, r, row.domain);
  SmallVector<Value> to = sift::rowElementIndices(rowIvs, row.dim, rank);
  memref::StoreOp::create(b, loc, x, topk.getValuesInit(), to);
  memref::StoreOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), position),
      topk.getIndicesInit(), to);
}

Value RadixLowering::fusedPickCount(OpBuilder &b, int64_t pass, Value r,
                                    Value tid, Value bins) {
  Value bin = minu(b, tid, index(b, sift::kRadixBins - 1));
  if (derived[pass]) {
    // The fine bins of the digit the last pick chose: bin
    // (digit << width) + tid for the threads below 2^width.
    int64_t width = digitWidth[pass];
    Value chosen = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, loadState(b, r, kKeyPrefix),
                               i64(b, digitShift[pass - 1])),
        i64(b, (int64_t{1} << digitWidth[pass - 1]) - 1));
    Value first = arith::ShLIOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, b.getIndexType(), chosen),
        index(b, width));
    Value fineBin =
        add(b, first, minu(b, tid, index(b, (int64_t{1} << width) - 1)));
    Value inside =
        cmp(b, arith::CmpIPredicate::ult, tid, index(b, int64_t{1} << width));
    return arith::SelectOp::create(
        b, loc, inside, memref::LoadOp::create(b, loc, bins, fineBin),
        i32(b, 0));
  }
  if (pass + 1 < passes && derived[pass + 1]) {
    // A coarse bin: the sum of its 2^width fine ones.
    int64_t width = digitWidth[pass + 1];
    Value first = arith::ShLIOp::create(b, loc, bin, index(b, width));
    Value count = i32(b, 0);
    for (int64_t f = 0; f < (int64_t{1} << width); ++f)
      count = arith::AddIOp::create(
          b, loc, count,
          memref::LoadOp::create(b, loc, bins, add(b, first, index(b, f))));
    return count;
  }
  return memref::LoadOp::create(b, loc, bins, bin);
}

void RadixLowering::buildFused() {
  sift::buildLaunch(
      b, loc, rows, options.threads, [&](OpBuilder &b, Value r, Value tid) {
        MLIRContext *context = b.getContext();
        Type int32 = b.getI32Type();
        auto local = [&](int64_t size, Type type) -> Value {
          return memref::AllocOp::create(
              b, loc, sift::workgroupMemRefType(context, size, type));
        };
        int64_t binCount = int64_t{1} << histogramBits(0);
        Value bins = local(binCount, int32);
        Value sums = local(sift::kRadixBins, int32);
        Value reached = local(1, int32);
        localState = local(kFields, b.getI64Type());
        localCounters = local(2, int32);
        candidateKeys = local(k, keyType);
        candidateIndices = local(k, int32);
        candidateBits = local(k, b.getI64Type());
        Value threads = index(b, options.threads);
        auto zeroBins = [&](OpBuilder &b) {
          sift::forEachOfThread(b, loc, tid, index(b, binCount), threads,
                                [&](OpBuilder &b, Location, Value e) {
                                  memref::StoreOp::create(b, loc, i32(b, 0),
                                                          bins, e);
                                });
        };
        zeroBins(b);
        onThreadZero(b, tid, [&](OpBuilder &b) {
          for (int64_t which = 0; which < 2; ++which)
            memref::StoreOp::create(b, loc, i32(b, 0), localCounters,
                                    index(b, which));
          for (auto [field, v] : {std::pair{kKeyPrefix, int64_t{0}},
                                  {kIndexPrefix, 0},
                                  {kLeft, k},
                                  {kDone, 0},
                                  {kSource, int64_t{kFromRow}}})
            storeState(b, i64(b, v), r, field);
        });
        gpu::BarrierOp::create(b, loc);
        Tile c = chunkOf(b, r);
        for (int64_t pass = 0; pass < passes; ++pass) {
          bool feedsNext = pass + 1 < passes && derived[pass + 1];
          if (!derived[pass])
            countChunk(b, pass, c, tid, bins);
          gpu::BarrierOp::create(b, loc);
          Value count = fusedPickCount(b, pass, r, tid, bins);
          pickDigit(b, pass, r, tid, count, sums, reached);
          // The pick read the bins before its first barrier; the next
          // pass's counts start after this one (a derived pick reads them
          // again).
          if (!options.fusedBinsKept && !feedsNext)
            zeroBins(b);
          gpu::BarrierOp::create(b, loc);
        }
        filterChunk(b, c, tid);
        gpu::BarrierOp::create(b, loc);
        sift::forEachOfThread(b, loc, tid, index(b, k), threads,
                              [&](OpBuilder &b, Location, Value j) {
                                rankCandidate(b, r, j);
                              });
      });
}

LogicalResult sift::lowerTopkByRadixSelect(RewriterBase &rewriter,
                                           const RowOp &row,
                                           const RadixSelectOptions &options) {
  return RadixLowering(rewriter, row, options).build();
}
