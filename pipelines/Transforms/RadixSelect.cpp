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
// Dispatches are ordered by the plan; no workgroup waits for another. The
// fault radix-digit-off-by-one counts every element one bin too high;
// radix-compact-drops-better forgets, when compacting, the elements known
// by then to be among the k.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/RadixSelect.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

/// Loads a thread of a histogram or filter launch issues before it counts.
constexpr int64_t kLoadsAhead = 4;

/// Fields of a row's state (i64 each).
enum StateField : int64_t {
  kKeyPrefix,
  kIndexPrefix,
  kLeft,
  kDone,
  kSource, ///< what a pass reads: the row, the row while compacting, or
           ///< the survivors (Source)
  kFields
};

/// Values of a row's kSource field.
enum Source : int64_t { kFromRow, kCompacting, kFromSurvivors };

class RadixLowering : sift::RowKernelBuilder {
public:
  RadixLowering(RewriterBase &rewriter, const sift::RowOp &row,
                const sift::RadixSelectOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options), topk(cast<sift::TopkOp>(row.op)) {}

  LogicalResult build() {
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
    indexDigitBits = (indexBits + sift::kRadixBits - 1) / sift::kRadixBits *
                     sift::kRadixBits;
    keyPasses = keyBits / sift::kRadixBits;
    passes = keyPasses + indexDigitBits / sift::kRadixBits;
    chunks = (row.n + options.chunk - 1) / options.chunk;

    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    state = memref::AllocOp::create(b, loc,
                                    MemRefType::get({rows, kFields}, i64));
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
    survivorBits = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, row.n}, wordType(b)));
    survivorPositions =
        memref::AllocOp::create(b, loc, MemRefType::get({rows, row.n}, i32));
    buildInit();
    for (int64_t pass = 0; pass < passes; ++pass) {
      buildHistogram(pass);
      buildPick(pass);
    }
    buildFilter();
    buildRank();
    return success();
  }

private:
  /// The integer type the per-element work of the histogram and filter
  /// passes is done in: i32 when the key's order bits and the inverted
  /// index both fit in 32 bits (f32, bf16, f16, i32 keys of rows under
  /// 2^32: half the instructions of i64 on a GPU), else i64.
  IntegerType wordType(OpBuilder &b) const {
    return b.getIntegerType(keyBits <= 32 && indexDigitBits <= 32 ? 32 : 64);
  }

  /// The constant `v` of integer type `type` (i32: its low 32 bits, so
  /// that 2^32 - 1 is the all-ones word).
  Value word(OpBuilder &b, Type type, int64_t v) {
    if (type.getIntOrFloatBitWidth() == 32)
      v = static_cast<int32_t>(static_cast<uint32_t>(v));
    return arith::ConstantIntOp::create(b, loc, type, v);
  }

  /// The order-preserving bits of `value`, larger = better, as `type`
  /// (default i64).
  Value betterBits(OpBuilder &b, Value value, Type type = {}) {
    if (!type)
      type = b.getI64Type();
    Value up = sift::buildOrderBits(b, loc, value, !topk.isLargest(),
                                    options.halfNanLayout);
    if (keyBits == type.getIntOrFloatBitWidth())
      return up;
    return arith::ExtUIOp::create(b, loc, type, up);
  }

  /// The inverted index of row position `position` (index), as `type`
  /// (default i64) of indexDigitBits bits: lower index = larger.
  Value invertedIndex(OpBuilder &b, Value position, Type type = {}) {
    if (!type)
      type = b.getI64Type();
    Value wide = arith::IndexCastUIOp::create(b, loc, type, position);
    int64_t top = indexDigitBits == 0 ? 0 : (int64_t{1} << indexDigitBits) - 1;
    return arith::SubIOp::create(b, loc, word(b, type, top), wide);
  }

  /// A state field as the word type `type` (its low bits: the prefixes
  /// fit, since the word type is chosen so that they do).
  Value narrowed(OpBuilder &b, Value wide, Type type) {
    if (type.getIntOrFloatBitWidth() == 64)
      return wide;
    return arith::TruncIOp::create(b, loc, type, wide);
  }

  /// The chunk of workgroup `block`.
  Tile chunkOf(OpBuilder &b, Value block) {
    return tileOf(b, block, chunks, options.chunk, row);
  }

  Value loadState(OpBuilder &b, Value r, StateField field) {
    return memref::LoadOp::create(b, loc, state,
                                  ValueRange{r, index(b, field)});
  }

  void buildInit() {
    int64_t threads = sift::kRadixBins;
    sift::buildLaunch(b, loc, rows, threads,
                      [&](OpBuilder &b, Value r, Value tid) {
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

  /// Whether the composite (u, inverted index) matches the digits chosen
  /// before pass `pass` (prefixes pk, pi); and the digit of this pass.
  /// All values are of one word type (wordType); `inverted` is only read
  /// by the index passes (null before them). The shifts stay below the
  /// word's width: a key pass shifts by less than keyBits and compares
  /// above it only after the first digit, an index pass likewise.
  std::pair<Value, Value> matchAndDigit(OpBuilder &b, int64_t pass, Value u,
                                        Value inverted, Value pk, Value pi) {
    Type type = u.getType();
    Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    auto sameAbove = [&](Value x, Value prefix, int64_t bits) -> Value {
      // The bits of x above `bits` equal prefix's (bits < the width).
      Value diff = arith::XOrIOp::create(b, loc, x, prefix);
      return cmp(b, arith::CmpIPredicate::eq,
                 arith::ShRUIOp::create(b, loc, diff, word(b, type, bits)),
                 word(b, type, 0));
    };
    Value digit, match;
    if (pass < keyPasses) {
      int64_t shift = keyBits - sift::kRadixBits * (pass + 1);
      digit = arith::ShRUIOp::create(b, loc, u, word(b, type, shift));
      match = pass == 0 ? yes : sameAbove(u, pk, shift + sift::kRadixBits);
    } else {
      int64_t shift =
          indexDigitBits - sift::kRadixBits * (pass - keyPasses + 1);
      digit = arith::ShRUIOp::create(b, loc, inverted, word(b, type, shift));
      match = cmp(b, arith::CmpIPredicate::eq, u, pk);
      if (pass > keyPasses)
        match = arith::AndIOp::create(
            b, loc, match,
            sameAbove(inverted, pi, shift + sift::kRadixBits));
    }
    digit = arith::AndIOp::create(b, loc, digit,
                                  word(b, type, sift::kRadixBins - 1));
    return {match, digit};
  }

  /// Whether the composite (u, inverted index) is better than the digits
  /// chosen before pass `pass` (>= 1) in those digits: one of the k
  /// whatever the later digits are. Same words as matchAndDigit.
  Value betterThanPrefix(OpBuilder &b, int64_t pass, Value u, Value inverted,
                         Value pk, Value pi) {
    Type type = u.getType();
    auto above = [&](Value x, Value prefix, int64_t bits) -> Value {
      return cmp(b, arith::CmpIPredicate::ugt,
                 arith::ShRUIOp::create(b, loc, x, word(b, type, bits)),
                 arith::ShRUIOp::create(b, loc, prefix, word(b, type, bits)));
    };
    if (pass < keyPasses)
      return above(u, pk, keyBits - sift::kRadixBits * pass);
    Value better = cmp(b, arith::CmpIPredicate::ugt, u, pk);
    if (pass == keyPasses)
      return better;
    Value tie = cmp(b, arith::CmpIPredicate::eq, u, pk);
    int64_t shift =
        indexDigitBits - sift::kRadixBits * (pass - keyPasses);
    return arith::OrIOp::create(
        b, loc, better,
        arith::AndIOp::create(b, loc, tie, above(inverted, pi, shift)));
  }

  /// Appends the element `x` at row position `at` (order bits `u`, a word)
  /// to row `r`'s candidates, at a slot of its counter (none past k).
  void appendCandidate(OpBuilder &b, Value r, Value x, Value at, Value u) {
    Value slot = memref::AtomicRMWOp::create(
        b, loc, arith::AtomicRMWKind::addi, i32(b, 1), counters,
        ValueRange{r});
    Value inside = cmp(b, arith::CmpIPredicate::ult, slot, i32(b, k));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
      Value to = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
      memref::StoreOp::create(b, loc, x, candidateKeys, ValueRange{r, to});
      Value position =
          arith::IndexCastUIOp::create(b, loc, b.getI32Type(), at);
      memref::StoreOp::create(b, loc, position, candidateIndices,
                              ValueRange{r, to});
      Value bits = u.getType().getIntOrFloatBitWidth() == 64
                       ? u
                       : arith::ExtUIOp::create(b, loc, b.getI64Type(), u)
                             .getResult();
      memref::StoreOp::create(b, loc, bits, candidateBits, ValueRange{r, to});
      scf::YieldOp::create(b, loc);
    });
  }

  /// Runs `body(b, x, at)` for each element of chunk `c` a thread takes
  /// with the workgroup's stride: value x at row position `at` (index).
  /// kLoadsAhead loads are issued before the first body runs (a load
  /// past the chunk's end reads its last element and is not used), so
  /// that a warp keeps several loads in flight: with one, the histogram
  /// passes were bound by memory latency on the H200 (neither the SMs nor
  /// DRAM past 60 %).
  void forEachOfChunk(OpBuilder &b, Value tid, const Tile &c,
                      function_ref<void(OpBuilder &, Value, Value)> body) {
    int64_t threads = options.threads;
    scf::ForOp::create(
        b, loc, tid, c.length, index(b, threads * kLoadsAhead), ValueRange{},
        [&](OpBuilder &b, Location, Value base, ValueRange) {
          Value last = sub(b, c.length, index(b, 1));
          SmallVector<std::tuple<Value, Value, Value>> items;
          for (int64_t u = 0; u < kLoadsAhead; ++u) {
            Value e = add(b, base, index(b, u * threads));
            Value inside = cmp(b, arith::CmpIPredicate::ult, e, c.length);
            Value at = add(b, c.start, minu(b, e, last));
            Value x = memref::LoadOp::create(
                b, loc, row.staged.front(),
                sift::rowElementIndices(c.rowIvs, row.dim, at));
            items.push_back({inside, x, at});
          }
          for (auto [inside, x, at] : items)
            scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
              body(b, x, at);
              scf::YieldOp::create(b, loc);
            });
          scf::YieldOp::create(b, loc);
        });
  }

  /// Runs `body(b, u, at)` for each survivor of row `r` in the slots of
  /// chunk `c` (those below the row's survivor count): its order bits (a
  /// word) and row position (index).
  void forEachSurvivor(OpBuilder &b, Value tid, const Tile &c,
                       function_ref<void(OpBuilder &, Value, Value)> body) {
    Value count = toIndex(b, memref::LoadOp::create(b, loc, survivorCounts,
                                                    ValueRange{c.r}));
    Value rest = arith::SubIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, count, c.start), c.start);
    Value length = minu(b, rest, c.length);
    sift::forEachOfThread(
        b, loc, tid, length, index(b, options.threads),
        [&](OpBuilder &b, Location loc, Value e) {
          Value slot = add(b, c.start, e);
          Value u = memref::LoadOp::create(b, loc, survivorBits,
                                           ValueRange{c.r, slot});
          Value position = memref::LoadOp::create(b, loc, survivorPositions,
                                                  ValueRange{c.r, slot});
          body(b, u, toIndex(b, position));
        });
  }

  /// The digits chosen so far of a row, as words (wordType).
  struct Prefix {
    Value key, index;
  };
  /// An element of a histogram pass: its value (null for a survivor),
  /// order bits (a word) and row position (index).
  struct Element {
    Value x, u, at;
  };

  /// Pass `pass`, element `e` of chunk `c`: counted in `bins` when it
  /// matches `prefix`; when compacting (an i1, uniform in the workgroup;
  /// null: never), appended to the survivors, or to the candidates when
  /// it is better. One body for both (a copy each made the campaigns'
  /// compiles 6 % slower).
  void countElement(OpBuilder &b, int64_t pass, const Tile &c, Value bins,
                    const Prefix &prefix, const Element &e,
                    Value compacting) {
    Type type = e.u.getType();
    Value inverted =
        pass < keyPasses ? Value() : invertedIndex(b, e.at, type);
    auto [match, digit] =
        matchAndDigit(b, pass, e.u, inverted, prefix.key, prefix.index);
    if (options.digitOffByOne)
      digit = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, digit, word(b, type, 1)),
          word(b, type, sift::kRadixBins - 1));
    scf::IfOp::create(b, loc, match, [&](OpBuilder &b, Location) {
      Value bin = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), digit);
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                  i32(b, 1), bins, ValueRange{bin});
      if (compacting)
        scf::IfOp::create(b, loc, compacting, [&](OpBuilder &b, Location) {
          Value slot = toIndex(
              b, memref::AtomicRMWOp::create(b, loc,
                                             arith::AtomicRMWKind::addi,
                                             i32(b, 1), survivorCounts,
                                             ValueRange{c.r}));
          memref::StoreOp::create(b, loc, e.u, survivorBits,
                                  ValueRange{c.r, slot});
          memref::StoreOp::create(
              b, loc,
              arith::IndexCastUIOp::create(b, loc, b.getI32Type(), e.at),
              survivorPositions, ValueRange{c.r, slot});
          scf::YieldOp::create(b, loc);
        });
      scf::YieldOp::create(b, loc);
    });
    if (!compacting || options.compactDropsBetter)
      return;
    Value better = arith::AndIOp::create(
        b, loc, compacting,
        betterThanPrefix(b, pass, e.u, inverted, prefix.key, prefix.index));
    scf::IfOp::create(b, loc, better, [&](OpBuilder &b, Location) {
      appendCandidate(b, c.r, e.x, e.at, e.u);
      scf::YieldOp::create(b, loc);
    });
  }

  /// Pass `pass`: each workgroup's histogram of its chunk, added to the
  /// row's.
  void buildHistogram(int64_t pass) {
    sift::buildLaunch(b, loc, rows * chunks, options.threads,
                      [&](OpBuilder &b, Value block, Value tid) {
      Value threads = index(b, options.threads);
      Tile c = chunkOf(b, block);
      Value bins = memref::AllocOp::create(
          b, loc,
          sift::workgroupMemRefType(b.getContext(), sift::kRadixBins,
                                    b.getI32Type()));
      sift::forEachOfThread(b, loc, tid, index(b, sift::kRadixBins), threads,
                            [&](OpBuilder &b, Location loc, Value e) {
                              memref::StoreOp::create(b, loc, i32(b, 0), bins,
                                                      e);
                            });
      gpu::BarrierOp::create(b, loc);
      Value live = cmp(b, arith::CmpIPredicate::eq,
                       loadState(b, c.r, kDone), i64(b, 0));
      scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location) {
        Type type = wordType(b);
        Value pk = narrowed(b, loadState(b, c.r, kKeyPrefix), type);
        Value pi = narrowed(b, loadState(b, c.r, kIndexPrefix), type);
        Prefix prefix{pk, pi};
        auto count = [&](OpBuilder &b, Value x, Value u, Value at,
                         Value compacting) {
          countElement(b, pass, c, bins, prefix, {x, u, at}, compacting);
        };
        auto overRow = [&](OpBuilder &b, Value compacting) {
          forEachOfChunk(b, tid, c, [&](OpBuilder &b, Value x, Value at) {
            count(b, x, betterBits(b, x, type), at, compacting);
          });
        };
        if (pass == 0) {
          overRow(b, /*compacting=*/Value());
          scf::YieldOp::create(b, loc);
          return;
        }
        Value source = loadState(b, c.r, kSource);
        auto rowPass = [&](OpBuilder &b) {
          overRow(b, cmp(b, arith::CmpIPredicate::eq, source,
                         i64(b, kCompacting)));
        };
        if (pass == 1) {
          // Nothing is compacted before pass 1 compacts.
          rowPass(b);
          scf::YieldOp::create(b, loc);
          return;
        }
        scf::IfOp::create(
            b, loc,
            cmp(b, arith::CmpIPredicate::eq, source, i64(b, kFromSurvivors)),
            [&](OpBuilder &b, Location) {
              forEachSurvivor(b, tid, c, [&](OpBuilder &b, Value u, Value at) {
                count(b, Value(), u, at, /*compacting=*/Value());
              });
              scf::YieldOp::create(b, loc);
            },
            [&](OpBuilder &b, Location) {
              rowPass(b);
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
      gpu::BarrierOp::create(b, loc);
      sift::forEachOfThread(
          b, loc, tid, index(b, sift::kRadixBins), threads,
          [&](OpBuilder &b, Location loc, Value e) {
            Value count = memref::LoadOp::create(b, loc, bins, e);
            Value any = cmp(b, arith::CmpIPredicate::ne, count, i32(b, 0));
            scf::IfOp::create(b, loc, any, [&](OpBuilder &b, Location) {
              memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                          count, histograms,
                                          ValueRange{c.r, index(b, pass), e});
              scf::YieldOp::create(b, loc);
            });
          });
    });
  }

  /// Pass `pass`: a workgroup of 256 threads per row picks the digit.
  void buildPick(int64_t pass) {
    sift::buildLaunch(b, loc, rows, sift::kRadixBins,
                      [&](OpBuilder &b, Value r, Value tid) {
      MLIRContext *context = b.getContext();
      Value sums = memref::AllocOp::create(
          b, loc,
          sift::workgroupMemRefType(context, sift::kRadixBins, b.getI32Type()));
      Value reached = memref::AllocOp::create(
          b, loc, sift::workgroupMemRefType(context, 1, b.getI32Type()));
      Value count = memref::LoadOp::create(b, loc, histograms,
                                           ValueRange{r, index(b, pass), tid});
      memref::StoreOp::create(b, loc, count, sums, tid);
      onThreadZero(b, tid, [&](OpBuilder &b) {
        memref::StoreOp::create(b, loc, i32(b, 0), reached, index(b, 0));
      });
      gpu::BarrierOp::create(b, loc);
      // sums[t] = the count of bins t and above (Hillis-Steele).
      for (int64_t offset = 1; offset < sift::kRadixBins; offset *= 2) {
        Value mine = memref::LoadOp::create(b, loc, sums, tid);
        Value other = arith::AddIOp::create(b, loc, tid, index(b, offset));
        Value inside = cmp(b, arith::CmpIPredicate::ult, other,
                           index(b, sift::kRadixBins));
        Value clamped = arith::MinUIOp::create(
            b, loc, other, index(b, sift::kRadixBins - 1));
        Value theirs = arith::SelectOp::create(
            b, loc, inside, memref::LoadOp::create(b, loc, sums, clamped),
            i32(b, 0));
        Value sum = arith::AddIOp::create(b, loc, mine, theirs);
        gpu::BarrierOp::create(b, loc);
        memref::StoreOp::create(b, loc, sum, sums, tid);
        gpu::BarrierOp::create(b, loc);
      }
      // The chosen digit is the number of bins whose sum reaches what is
      // left of k, minus one (sums fall as the bin rises).
      Value left = loadState(b, r, kLeft);
      Value mine = arith::ExtUIOp::create(
          b, loc, b.getI64Type(), memref::LoadOp::create(b, loc, sums, tid));
      Value reaches = cmp(b, arith::CmpIPredicate::uge, mine, left);
      scf::IfOp::create(b, loc, reaches, [&](OpBuilder &b, Location) {
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                    i32(b, 1), reached,
                                    ValueRange{index(b, 0)});
        scf::YieldOp::create(b, loc);
      });
      gpu::BarrierOp::create(b, loc);
      if (options.doneRace) {
        // Fault select-done-race: every thread reads the flag thread 0
        // writes.
        Value live =
            cmp(b, arith::CmpIPredicate::eq, loadState(b, r, kDone), i64(b, 0));
        Value first = cmp(b, arith::CmpIPredicate::eq, tid, index(b, 0));
        scf::IfOp::create(b, loc, arith::AndIOp::create(b, loc, live, first),
                          [&](OpBuilder &b, Location) {
                            recordDigit(b, pass, r, left, sums, reached);
                            scf::YieldOp::create(b, loc);
                          });
        return;
      }
      // Thread 0 alone reads the row's done flag, which it then writes
      // (another thread reading it meanwhile would race).
      onThreadZero(b, tid, [&](OpBuilder &b) {
        Value live = cmp(b, arith::CmpIPredicate::eq, loadState(b, r, kDone),
                         i64(b, 0));
        scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location) {
          recordDigit(b, pass, r, left, sums, reached);
          scf::YieldOp::create(b, loc);
        });
      });
    });
  }

  /// Thread 0 of a pick: the digit, what is left of k, done.
  void recordDigit(OpBuilder &b, int64_t pass, Value r, Value left,
                   Value sums, Value reached) {
    Value bins = memref::LoadOp::create(b, loc, reached, index(b, 0));
    Value digit32 = arith::SubIOp::create(b, loc, bins, i32(b, 1));
    // At least one bin reaches it: the matching elements are at least what
    // is left. A fault may break that; keep the digit in range.
    digit32 = arith::MaxSIOp::create(b, loc, digit32, i32(b, 0));
    Value digit = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                               digit32);
    Value next = arith::AddIOp::create(b, loc, digit, index(b, 1));
    Value hasNext = cmp(b, arith::CmpIPredicate::ult, next,
                        index(b, sift::kRadixBins));
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
    int64_t shift = keyPass ? keyBits - sift::kRadixBits * (pass + 1)
                            : indexDigitBits -
                                  sift::kRadixBits * (pass - keyPasses + 1);
    StateField field = keyPass ? kKeyPrefix : kIndexPrefix;
    Value prefix = arith::OrIOp::create(
        b, loc, loadState(b, r, field),
        arith::ShLIOp::create(b, loc, wide(digit32), i64(b, shift)));
    memref::StoreOp::create(b, loc, prefix, state,
                            ValueRange{r, index(b, field)});
    memref::StoreOp::create(b, loc, stillLeft, state,
                            ValueRange{r, index(b, kLeft)});
    Value finished = cmp(b, arith::CmpIPredicate::eq, inBin, stillLeft);
    Value done = arith::ExtUIOp::create(b, loc, b.getI64Type(), finished);
    memref::StoreOp::create(b, loc, done, state,
                            ValueRange{r, index(b, kDone)});
    // The row's source: a row that compacted in this pass reads its
    // survivors from now on; one whose bin is small enough compacts in the
    // next pass (if there is one and the row goes on).
    Value source = loadState(b, r, kSource);
    Value nextSource = arith::SelectOp::create(
        b, loc, cmp(b, arith::CmpIPredicate::eq, source, i64(b, kCompacting)),
        i64(b, kFromSurvivors), source);
    if (pass + 1 < passes) {
      Value small = arith::OrIOp::create(
          b, loc,
          cmp(b, arith::CmpIPredicate::ule,
              mul(b, inBin, i64(b, sift::kRadixCompactBelow)),
              i64(b, row.n)),
          cmp(b, arith::CmpIPredicate::ule, inBin,
              i64(b, sift::kRadixCompactUpTo)));
      Value fromRow =
          cmp(b, arith::CmpIPredicate::eq, source, i64(b, kFromRow));
      Value compact = arith::AndIOp::create(
          b, loc, arith::AndIOp::create(b, loc, fromRow, small),
          arith::XOrIOp::create(b, loc, finished,
                                arith::ConstantOp::create(
                                    b, loc, b.getBoolAttr(true))));
      nextSource = arith::SelectOp::create(b, loc, compact, i64(b, kCompacting),
                                     nextSource);
    }
    memref::StoreOp::create(b, loc, nextSource, state,
                            ValueRange{r, index(b, kSource)});
  }

  /// The k elements at or above the chosen prefix, appended to the row's
  /// candidates: read from the row, or from its survivors when it was
  /// compacted (the better ones were appended then).
  void buildFilter() {
    sift::buildLaunch(
        b, loc, rows * chunks, options.threads,
        [&](OpBuilder &b, Value block, Value tid) {
          Tile c = chunkOf(b, block);
          Type type = wordType(b);
          Value pk = narrowed(b, loadState(b, c.r, kKeyPrefix), type);
          Value pi = narrowed(b, loadState(b, c.r, kIndexPrefix), type);
          auto atLeast = [&](OpBuilder &b, Value u, Value at) -> Value {
            return arith::OrIOp::create(
                b, loc, cmp(b, arith::CmpIPredicate::ugt, u, pk),
                arith::AndIOp::create(
                    b, loc, cmp(b, arith::CmpIPredicate::eq, u, pk),
                    cmp(b, arith::CmpIPredicate::uge,
                        invertedIndex(b, at, type), pi)));
          };
          auto load = [&](OpBuilder &b, Value at) -> Value {
            return memref::LoadOp::create(
                b, loc, row.staged.front(),
                sift::rowElementIndices(c.rowIvs, row.dim, at));
          };
          Value source = loadState(b, c.r, kSource);
          scf::IfOp::create(
              b, loc,
              cmp(b, arith::CmpIPredicate::eq, source,
                  i64(b, kFromSurvivors)),
              [&](OpBuilder &b, Location) {
                forEachSurvivor(
                    b, tid, c, [&](OpBuilder &b, Value u, Value at) {
                      scf::IfOp::create(
                          b, loc, atLeast(b, u, at),
                          [&](OpBuilder &b, Location) {
                            appendCandidate(b, c.r, load(b, at), at, u);
                            scf::YieldOp::create(b, loc);
                          });
                    });
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &b, Location) {
                forEachOfChunk(b, tid, c, [&](OpBuilder &b, Value x, Value at) {
                  Value u = betterBits(b, x, type);
                  scf::IfOp::create(b, loc, atLeast(b, u, at),
                                    [&](OpBuilder &b, Location) {
                                      appendCandidate(b, c.r, x, at, u);
                                      scf::YieldOp::create(b, loc);
                                    });
                });
                scf::YieldOp::create(b, loc);
              });
        });
  }

  /// Each candidate written at its rank among the row's k.
  void buildRank() {
    int64_t threads = std::min<int64_t>(options.threads, k);
    int64_t perRow = (k + threads - 1) / threads;
    sift::buildLaunch(b, loc, rows * perRow, threads,
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
        // The composite of a candidate: its order bits (kept by the
        // filter) and its inverted index.
        auto composite = [&](OpBuilder &b, Value slot) {
          Value bits = memref::LoadOp::create(b, loc, candidateBits,
                                              ValueRange{r, slot});
          Value position = memref::LoadOp::create(b, loc, candidateIndices,
                                                  ValueRange{r, slot});
          Value at = arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                  position);
          return std::tuple{position, bits, invertedIndex(b, at)};
        };
        auto [position, u, inverted] = composite(b, j);
        Value x = memref::LoadOp::create(b, loc, candidateKeys,
                                         ValueRange{r, j});
        auto count = scf::ForOp::create(
            b, loc, index(b, 0), index(b, k), index(b, 1),
            ValueRange{index(b, 0)},
            [&](OpBuilder &b, Location, Value i, ValueRange acc) {
              auto [pi, ui, ii] = composite(b, i);
              Value better = arith::OrIOp::create(
                  b, loc, cmp(b, arith::CmpIPredicate::ugt, ui, u),
                  arith::AndIOp::create(
                      b, loc, cmp(b, arith::CmpIPredicate::eq, ui, u),
                      cmp(b, arith::CmpIPredicate::ugt, ii, inverted)));
              Value add = arith::SelectOp::create(b, loc, better, index(b, 1),
                                                  index(b, 0));
              scf::YieldOp::create(
                  b, loc, ValueRange{arith::AddIOp::create(b, loc, acc[0], add)
                                         .getResult()});
            });
        Value rank = count.getResult(0);
        SmallVector<Value> rowIvs = sift::delinearizeRow(b, loc, r, row.domain);
        SmallVector<Value> to = sift::rowElementIndices(rowIvs, row.dim, rank);
        memref::StoreOp::create(b, loc, x, topk.getValuesInit(), to);
        memref::StoreOp::create(
            b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), position),
            topk.getIndicesInit(), to);
        scf::YieldOp::create(b, loc);
      });
    });
  }

  RewriterBase &b;
  const sift::RowOp &row;
  const sift::RadixSelectOptions &options;
  sift::TopkOp topk;
  int64_t rows = 0, k = 0, chunks = 0;
  int64_t keyBits = 0, indexDigitBits = 0, keyPasses = 0, passes = 0;
  Type keyType;
  Value state, histograms, counters, candidateKeys, candidateIndices,
      candidateBits, survivorCounts, survivorBits, survivorPositions;
};

} // namespace

LogicalResult
sift::lowerTopkByRadixSelect(RewriterBase &rewriter, const RowOp &row,
                             const RadixSelectOptions &options) {
  return RadixLowering(rewriter, row, options).build();
}
