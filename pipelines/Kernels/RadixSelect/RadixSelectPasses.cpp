//===- RadixSelectPasses.cpp - radix_select's passes over a row -----------===//
//
// The launches of radix_select that read a row's elements (RadixSelect.cpp
// has the algorithm's phases): per digit, a histogram of the elements that
// match the digits chosen so far, which also compacts a row into its
// survivors once its chosen bin is small; and the filter that appends the
// elements at or above the chosen prefix to the candidates. Each thread
// keeps loadsAhead() loads in flight.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RadixSelect/RadixSelectLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace sift::radix_select;

std::pair<Value, Value> RadixLowering::matchAndDigit(OpBuilder &b, int64_t pass,
                                                     Value u, Value inverted,
                                                     Value pk, Value pi) {
  Type type = u.getType();
  Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  auto sameAbove = [&](Value x, Value prefix, int64_t bits) -> Value {
    // The bits of x above `bits` equal prefix's (bits < the width).
    Value diff = arith::XOrIOp::create(b, loc, x, prefix);
    return cmp(b, arith::CmpIPredicate::eq,
               arith::ShRUIOp::create(b, loc, diff, word(b, type, bits)),
               word(b, type, 0));
  };
  // The digit counted: this pass's, with the next one's below it when that
  // one is picked from this histogram.
  int64_t bits = histogramBits(pass);
  int64_t shift = digitShift[pass] + digitWidth[pass] - bits;
  int64_t above = digitShift[pass] + digitWidth[pass];
  Value digit, match;
  if (pass < keyPasses) {
    digit = arith::ShRUIOp::create(b, loc, u, word(b, type, shift));
    match = pass == 0 ? yes : sameAbove(u, pk, above);
  } else {
    digit = arith::ShRUIOp::create(b, loc, inverted, word(b, type, shift));
    match = cmp(b, arith::CmpIPredicate::eq, u, pk);
    if (pass > keyPasses)
      match =
          arith::AndIOp::create(b, loc, match, sameAbove(inverted, pi, above));
  }
  digit = arith::AndIOp::create(b, loc, digit,
                                word(b, type, (int64_t{1} << bits) - 1));
  return {match, digit};
}

Value RadixLowering::betterThanPrefix(OpBuilder &b, int64_t pass, Value u,
                                      Value inverted, Value pk, Value pi) {
  Type type = u.getType();
  auto above = [&](Value x, Value prefix, int64_t bits) -> Value {
    return cmp(b, arith::CmpIPredicate::ugt,
               arith::ShRUIOp::create(b, loc, x, word(b, type, bits)),
               arith::ShRUIOp::create(b, loc, prefix, word(b, type, bits)));
  };
  if (pass < keyPasses)
    return above(u, pk, digitShift[pass] + digitWidth[pass]);
  Value better = cmp(b, arith::CmpIPredicate::ugt, u, pk);
  if (pass == keyPasses)
    return better;
  Value tie = cmp(b, arith::CmpIPredicate::eq, u, pk);
  int64_t shift = digitShift[pass] + digitWidth[pass];
  return arith::OrIOp::create(
      b, loc, better,
      arith::AndIOp::create(b, loc, tie, above(inverted, pi, shift)));
}

void RadixLowering::appendCandidate(OpBuilder &b, Value r, Value x, Value at,
                                    Value u) {
  auto [counter, at0] = counterOf(b, r, /*survivors=*/false);
  Value slot = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                           i32(b, 1), counter, at0);
  Value inside = cmp(b, arith::CmpIPredicate::ult, slot, i32(b, k));
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
    Value to = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
    memref::StoreOp::create(b, loc, x, candidateKeys, candidateSlot(r, to));
    Value position = arith::IndexCastUIOp::create(b, loc, b.getI32Type(), at);
    memref::StoreOp::create(b, loc, position, candidateIndices,
                            candidateSlot(r, to));
    Value bits =
        u.getType().getIntOrFloatBitWidth() == 64
            ? u
            : arith::ExtUIOp::create(b, loc, b.getI64Type(), u).getResult();
    memref::StoreOp::create(b, loc, bits, candidateBits, candidateSlot(r, to));
    scf::YieldOp::create(b, loc);
  });
}

void RadixLowering::forEachOfChunk(
    OpBuilder &b, Value tid, const Tile &c,
    function_ref<void(OpBuilder &, Value, Value)> body) {
  int64_t threads = options.threads;
  int64_t ahead = loadsAhead();
  Value step = index(b, threads * ahead);
  // Steps from `first` while below `end`, each issuing `ahead` loads;
  // `checked`: a load past the chunk's end reads its last element and its
  // body does not run.
  auto steps = [&](OpBuilder &b, Value first, Value end, bool checked) {
    scf::ForOp::create(
        b, loc, first, end, step, ValueRange{},
        [&](OpBuilder &b, Location, Value base, ValueRange) {
          Value last = sub(b, c.length, index(b, 1));
          SmallVector<std::tuple<Value, Value, Value>> items;
          for (int64_t u = 0; u < ahead; ++u) {
            Value e = add(b, base, index(b, u * threads));
            Value inside =
                checked ? cmp(b, arith::CmpIPredicate::ult, e, c.length) : e;
            Value at = add(b, c.start, checked ? minu(b, e, last) : e);
            Value x = memref::LoadOp::create(
                b, loc, row.staged.front(),
                sift::rowElementIndices(c.rowIvs, row.dim, at));
            items.push_back({inside, x, at});
          }
          for (auto [inside, x, at] : items) {
            if (!checked) {
              body(b, x, at);
              continue;
            }
            scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
              body(b, x, at);
              scf::YieldOp::create(b, loc);
            });
          }
          scf::YieldOp::create(b, loc);
        });
  };
  if (!fused) {
    steps(b, tid, c.length, /*checked=*/true);
    return;
  }
  // The one-launch form's thread walks a whole row: its full steps (every
  // load inside the row) go unchecked, the one step left is checked; a row
  // shorter than a step has only the checked one, a row of whole steps
  // only the unchecked ones (each copy is `ahead` bodies long).
  int64_t full = row.n / (threads * ahead) * (threads * ahead);
  if (full > 0)
    steps(b, tid, index(b, full), /*checked=*/false);
  if (full < row.n)
    steps(b, add(b, index(b, full), tid), c.length, /*checked=*/true);
}

void RadixLowering::forEachSurvivor(
    OpBuilder &b, Value tid, const Tile &c,
    function_ref<void(OpBuilder &, Value, Value)> body) {
  auto [counter, at] = counterOf(b, c.r, /*survivors=*/true);
  Value count = toIndex(b, memref::LoadOp::create(b, loc, counter, at));
  Value rest = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, count, c.start), c.start);
  Value length = minu(b, rest, c.length);
  sift::forEachOfThread(b, loc, tid, length, index(b, options.threads),
                        [&](OpBuilder &b, Location loc, Value e) {
                          Value slot = add(b, c.start, e);
                          Value u = memref::LoadOp::create(
                              b, loc, survivorBits, ValueRange{c.r, slot});
                          Value position = memref::LoadOp::create(
                              b, loc, survivorPositions, ValueRange{c.r, slot});
                          body(b, u, toIndex(b, position));
                        });
}

void RadixLowering::countElement(OpBuilder &b, int64_t pass, const Tile &c,
                                 Value bins, const Prefix &prefix,
                                 const Element &e, Value compacting) {
  Type type = e.u.getType();
  Value inverted = pass < keyPasses ? Value() : invertedIndex(b, e.at, type);
  auto [match, digit] =
      matchAndDigit(b, pass, e.u, inverted, prefix.key, prefix.index);
  if (options.digitOffByOne)
    digit = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, digit, word(b, type, 1)),
        word(b, type, (int64_t{1} << histogramBits(pass)) - 1));
  scf::IfOp::create(b, loc, match, [&](OpBuilder &b, Location) {
    Value bin = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), digit);
    memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, i32(b, 1),
                                bins, ValueRange{bin});
    if (compacting)
      scf::IfOp::create(b, loc, compacting, [&](OpBuilder &b, Location) {
        auto [counter, at] = counterOf(b, c.r, /*survivors=*/true);
        Value slot = toIndex(
            b, memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                           i32(b, 1), counter, at));
        memref::StoreOp::create(b, loc, e.u, survivorBits,
                                ValueRange{c.r, slot});
        memref::StoreOp::create(
            b, loc, arith::IndexCastUIOp::create(b, loc, b.getI32Type(), e.at),
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

void RadixLowering::buildHistogram(int64_t pass) {
  sift::buildLaunch(
      b, loc, rows * chunks, options.threads,
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
        countChunk(b, pass, c, tid, bins);
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

void RadixLowering::countChunk(OpBuilder &b, int64_t pass, const Tile &c,
                               Value tid, Value bins) {
  Value live =
      cmp(b, arith::CmpIPredicate::eq, loadState(b, c.r, kDone), i64(b, 0));
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
      overRow(b, cmp(b, arith::CmpIPredicate::eq, source, i64(b, kCompacting)));
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
}

void RadixLowering::buildFilter() {
  sift::buildLaunch(b, loc, rows * chunks, options.threads,
                    [&](OpBuilder &b, Value block, Value tid) {
                      filterChunk(b, chunkOf(b, block), tid);
                    });
}

void RadixLowering::filterChunk(OpBuilder &b, const Tile &c, Value tid) {
  Type type = wordType(b);
  Value pk = narrowed(b, loadState(b, c.r, kKeyPrefix), type);
  Value pi = narrowed(b, loadState(b, c.r, kIndexPrefix), type);
  auto atLeast = [&](OpBuilder &b, Value u, Value at) -> Value {
    return arith::OrIOp::create(
        b, loc, cmp(b, arith::CmpIPredicate::ugt, u, pk),
        arith::AndIOp::create(b, loc, cmp(b, arith::CmpIPredicate::eq, u, pk),
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
      b, loc, cmp(b, arith::CmpIPredicate::eq, source, i64(b, kFromSurvivors)),
      [&](OpBuilder &b, Location) {
        forEachSurvivor(b, tid, c, [&](OpBuilder &b, Value u, Value at) {
          scf::IfOp::create(b, loc, atLeast(b, u, at),
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
}
