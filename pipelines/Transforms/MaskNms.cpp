//===- MaskNms.cpp - NMS by a blocked suppression mask --------------------===//
//
// The `mask_blocks` algorithm for `sift.nms_per_class`, both GPU pipelines:
// the shape of the fast CUDA NMS kernels (a bit-mask over blocks of 64
// candidates, then a greedy walk over it), with the walk on the device.
// The candidates of a (batch, class) arrive sorted (sift-decompose-nms
// sorts the scores first, descending, NaN first). Two dispatches over a
// host-allocated mask of B * C * N * W words, W = ceil(N / 64):
//
//   candidates: every kernel finds the (batch, class)'s candidates by two
//          binary searches over its sorted scores: positions [first, end),
//          `first` past the NaN scores when there is a score threshold (NaN
//          is never above it; without one NaN is a candidate, visited
//          first), `end` the first score not above the threshold. Below,
//          candidate c is sorted position first + c, c < m = end - first,
//          in block c / 64.
//   mask:  a workgroup of 64 threads per (batch, class, block bi, group of
//          `group` word columns); thread t takes candidate i = 64 bi + t and,
//          for every column bw >= bi of the group within the candidates,
//          computes word (i, bw): bit j - 64 bw set when candidate j > i has
//          IoU(j, i) > iou_threshold (the scalar implementation's order).
//          distribute stages column bw's 64 boxes in workgroup memory
//          first; tileandfuse reads them from the boxes (a thread's tile is
//          its word, private memory only). Words of bw < bi are never
//          computed nor read (the upper triangle).
//   walk:  a workgroup per (batch, class), its removed set in workgroup
//          memory; per block while there is room: the threads load the
//          block's diagonal words, thread 0 walks the block's 64 candidates
//          in order (kept when its removed bit is clear and there is room:
//          its box goes to the next slot and its diagonal word is ORed into
//          the block's removed word), then every thread ORs the kept rows'
//          words into its share of the later removed words.
//
// A candidate is dropped exactly when an earlier kept box overlaps it by
// more than the threshold: the scalar rule. Faults: nms-mask-last-bit-lost
// (the mask never sets a word's bit 63), nms-walk-row-not-merged (the walk
// merges every kept row of a block but the last into the later words),
// dist-no-barrier (no barriers).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/MaskNms.h"

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Transforms/RowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;

int64_t sift::maskNmsWalkBytes(int64_t n) {
  int64_t words = (n + kNmsBlock - 1) / kNmsBlock;
  return words * 8 + 2 * kNmsBlock * 8 + kNmsBlock * 4 + 2 * 8;
}

namespace {

using arith::CmpIPredicate;

class MaskNmsLowering : sift::RowKernelBuilder {
public:
  MaskNmsLowering(RewriterBase &rewriter, sift::NmsPerClassOp op,
                  const sift::MaskNmsOptions &options)
      : RowKernelBuilder(op.getLoc()), b(rewriter), op(op), options(options) {}

  LogicalResult build() {
    auto scores = cast<MemRefType>(op.getSortedScores().getType());
    if (!scores.hasStaticShape())
      return op.emitOpError("mask_blocks needs static shapes, found ")
             << scores;
    batches = scores.getDimSize(0);
    classes = scores.getDimSize(1);
    n = scores.getDimSize(2);
    rows = batches * classes;
    if (rows == 0)
      return success(); // No (batch, class): nothing to write.
    if (n == 0 || op.getMaxOutPerClass() <= 0)
      return op.emitOpError(
          "mask_blocks needs candidates and room for them (the strategy "
          "gives row_per_thread otherwise)");
    if (options.group < 1 || options.walkThreads < 1)
      return op.emitOpError("mask_blocks needs a group and walk threads");
    words = (n + sift::kNmsBlock - 1) / sift::kNmsBlock;
    groups = (words + options.group - 1) / options.group;
    if (rows > std::numeric_limits<int32_t>::max() / words / groups)
      return op.emitOpError("mask_blocks would launch ")
             << rows << " x " << words << " x " << groups
             << " mask workgroups, more than a grid holds";
    mask = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, n, words}, b.getI64Type()));
    buildMask();
    buildWalk();
    return success();
  }

private:
  void barrier(OpBuilder &b) {
    if (options.barriers)
      gpu::BarrierOp::create(b, loc);
  }

  Value f32(OpBuilder &b, double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }

  /// The first position p in [lo, hi) where `holds(p)` is false, `holds`
  /// being true on a prefix of [lo, hi) (hi when it holds on all of it).
  Value partitionPoint(OpBuilder &b, Value lo, Value hi,
                       function_ref<Value(OpBuilder &, Value)> holds) {
    Type indexType = b.getIndexType();
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{indexType, indexType}, ValueRange{lo, hi},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value more = cmp(b, CmpIPredicate::ult, args[0], args[1]);
          scf::ConditionOp::create(b, loc, more, args);
        },
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value half = arith::ShRUIOp::create(b, loc, sub(b, args[1], args[0]),
                                              index(b, 1));
          Value mid = add(b, args[0], half);
          Value yes = holds(b, mid);
          Value newLo = arith::SelectOp::create(
              b, loc, yes, add(b, mid, index(b, 1)), args[0]);
          Value newHi = arith::SelectOp::create(b, loc, yes, args[1], mid);
          scf::YieldOp::create(b, loc, ValueRange{newLo, newHi});
        });
    return loop.getResult(0);
  }

  /// The score at sorted position `p` of (batch, klass), as f32.
  Value scoreAt(OpBuilder &b, Value batch, Value klass, Value p) {
    Value score = memref::LoadOp::create(b, loc, op.getSortedScores(),
                                         ValueRange{batch, klass, p});
    if (!score.getType().isF32())
      score = arith::ExtFOp::create(b, loc, b.getF32Type(), score);
    return score;
  }

  /// The candidates of (batch, klass): sorted positions [first, end).
  std::pair<Value, Value> candidates(OpBuilder &b, Value batch, Value klass) {
    std::optional<APFloat> threshold = op.getScoreThreshold();
    Value zero = index(b, 0), all = index(b, n);
    if (!threshold)
      return {zero, all};
    Value first = partitionPoint(b, zero, all, [&](OpBuilder &b, Value p) {
      Value score = scoreAt(b, batch, klass, p);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, score,
                                   score)
          .getResult();
    });
    bool scoreGe = sift::hasInjectedFault(op, sift::Fault::NmsScoreThresholdGe);
    Value bound = f32(b, threshold->convertToFloat());
    Value end = partitionPoint(b, first, all, [&](OpBuilder &b, Value p) {
      return arith::CmpFOp::create(b, loc,
                                   scoreGe ? arith::CmpFPredicate::OGE
                                           : arith::CmpFPredicate::OGT,
                                   scoreAt(b, batch, klass, p), bound)
          .getResult();
    });
    return {first, end};
  }

  /// The corners of candidate `c` (clamped to the last sorted position, so
  /// that a thread past the candidates still reads a box).
  sift::NmsCorners cornersOf(OpBuilder &b, Value batch, Value klass,
                             Value first, Value c) {
    Value position = minu(b, add(b, first, c), index(b, n - 1));
    Value box = memref::LoadOp::create(b, loc, op.getOrder(),
                                       ValueRange{batch, klass, position});
    return sift::buildNmsCorners(
        b, loc, op,
        {batch, arith::IndexCastOp::create(b, loc, b.getIndexType(), box)});
  }

  Value ceilBlocks(OpBuilder &b, Value count) {
    return arith::DivUIOp::create(b, loc,
                                  add(b, count, index(b, sift::kNmsBlock - 1)),
                                  index(b, sift::kNmsBlock));
  }

  void splitRow(OpBuilder &b, Value r, Value &batch, Value &klass) {
    batch = arith::DivUIOp::create(b, loc, r, index(b, classes));
    klass = arith::RemUIOp::create(b, loc, r, index(b, classes));
  }

  void buildMask() {
    int64_t perRow = words * groups;
    bool iouGe = sift::hasInjectedFault(op, sift::Fault::NmsIouGe);
    sift::buildLaunch(
        b, loc, rows * perRow, sift::kNmsBlock,
        [&](OpBuilder &b, Value block, Value tid) {
          Value r = arith::DivUIOp::create(b, loc, block, index(b, perRow));
          Value rest = arith::RemUIOp::create(b, loc, block, index(b, perRow));
          Value bi = arith::DivUIOp::create(b, loc, rest, index(b, groups));
          Value group = arith::RemUIOp::create(b, loc, rest, index(b, groups));
          Value batch, klass;
          splitRow(b, r, batch, klass);
          std::pair<Value, Value> range = candidates(b, batch, klass);
          Value first = range.first;
          Value m = sub(b, range.second, first);
          Value wm = ceilBlocks(b, m);
          Value i = add(b, mul(b, bi, index(b, sift::kNmsBlock)), tid);
          Value active = cmp(b, CmpIPredicate::ult, i, m);
          sift::NmsCorners own = cornersOf(b, batch, klass, first, i);
          Value groupStart = mul(b, group, index(b, options.group));
          Value lo = arith::MaxUIOp::create(b, loc, bi, groupStart);
          Value hi = minu(b, wm, add(b, groupStart, index(b, options.group)));
          Value staged;
          if (options.stageBoxes)
            staged = memref::AllocOp::create(
                b, loc,
                sift::workgroupMemRefType(b.getContext(), 4 * sift::kNmsBlock,
                                          b.getF32Type()));
          Value threshold = f32(b, op.getIouThreshold().convertToFloat());
          scf::ForOp::create(
              b, loc, lo, hi, index(b, 1), ValueRange{},
              [&](OpBuilder &b, Location, Value bw, ValueRange) {
                Value base = mul(b, bw, index(b, sift::kNmsBlock));
                auto slot = [&](OpBuilder &b, int64_t corner, Value t) {
                  return add(b, index(b, corner * sift::kNmsBlock), t);
                };
                if (staged) {
                  sift::NmsCorners mine =
                      cornersOf(b, batch, klass, first, add(b, base, tid));
                  Value values[4] = {mine.ymin, mine.xmin, mine.ymax,
                                     mine.xmax};
                  for (int64_t corner = 0; corner < 4; ++corner)
                    memref::StoreOp::create(b, loc, values[corner], staged,
                                            slot(b, corner, tid));
                  barrier(b);
                }
                int64_t bits =
                    options.lastBitLost ? sift::kNmsBlock - 1 : sift::kNmsBlock;
                Value zero = i64(b, 0);
                auto loop = scf::ForOp::create(
                    b, loc, index(b, 0), index(b, bits), index(b, 1),
                    ValueRange{zero},
                    [&](OpBuilder &b, Location, Value jj, ValueRange word) {
                      Value j = add(b, base, jj);
                      sift::NmsCorners later;
                      if (staged) {
                        Value *fields[4] = {&later.ymin, &later.xmin,
                                            &later.ymax, &later.xmax};
                        for (int64_t corner = 0; corner < 4; ++corner)
                          *fields[corner] = memref::LoadOp::create(
                              b, loc, staged, slot(b, corner, jj));
                      } else {
                        later = cornersOf(b, batch, klass, first, j);
                      }
                      Value iou = sift::buildNmsIoU(b, loc, later, own);
                      Value over = arith::CmpFOp::create(
                          b, loc,
                          iouGe ? arith::CmpFPredicate::OGE
                                : arith::CmpFPredicate::OGT,
                          iou, threshold);
                      Value valid = arith::AndIOp::create(
                          b, loc, cmp(b, CmpIPredicate::ugt, j, i),
                          cmp(b, CmpIPredicate::ult, j, m));
                      Value set = arith::AndIOp::create(b, loc, over, valid);
                      Value bit = arith::ShLIOp::create(
                          b, loc,
                          arith::ExtUIOp::create(b, loc, b.getI64Type(), set),
                          arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                     jj));
                      scf::YieldOp::create(
                          b, loc,
                          arith::OrIOp::create(b, loc, word[0], bit)
                              .getResult());
                    });
                scf::IfOp::create(b, loc, active, [&](OpBuilder &b, Location) {
                  memref::StoreOp::create(b, loc, loop.getResult(0), mask,
                                          ValueRange{r, i, bw});
                  scf::YieldOp::create(b, loc);
                });
                if (staged)
                  barrier(b); // Before the next column's boxes replace these.
                scf::YieldOp::create(b, loc);
              });
        });
  }

  /// The walk's workgroup memory.
  struct WalkMemory {
    Value removed;  ///< a bit per candidate, set once suppressed
    Value diagonal; ///< the block's diagonal words
    Value boxes;    ///< the block's candidates' boxes
    Value kept;     ///< offsets in the block of the boxes kept in it
    Value shared;   ///< how many the block kept, the count after it
  };

  void buildWalk() {
    sift::buildLaunch(
        b, loc, rows, options.walkThreads,
        [&](OpBuilder &b, Value r, Value tid) { buildWalkKernel(b, r, tid); });
  }

  void buildWalkKernel(OpBuilder &b, Value r, Value tid) {
    Value batch, klass;
    splitRow(b, r, batch, klass);
    std::pair<Value, Value> range = candidates(b, batch, klass);
    Value first = range.first;
    Value m = sub(b, range.second, first);
    Value wm = ceilBlocks(b, m);
    MLIRContext *context = b.getContext();
    Type i64Type = b.getI64Type();
    auto workgroup = [&](int64_t size, Type element) -> Value {
      return memref::AllocOp::create(
          b, loc, sift::workgroupMemRefType(context, size, element));
    };
    WalkMemory memory;
    memory.removed = workgroup(words, i64Type);
    memory.diagonal = workgroup(sift::kNmsBlock, i64Type);
    memory.boxes = workgroup(sift::kNmsBlock, i64Type);
    memory.kept = workgroup(sift::kNmsBlock, b.getI32Type());
    memory.shared = workgroup(2, i64Type);
    Value step = index(b, options.walkThreads);
    scf::ForOp::create(b, loc, tid, wm, step, ValueRange{},
                       [&](OpBuilder &b, Location, Value w, ValueRange) {
                         memref::StoreOp::create(b, loc, i64(b, 0),
                                                 memory.removed, w);
                         scf::YieldOp::create(b, loc);
                       });
    barrier(b);
    Value maxOutI64 = i64(b, op.getMaxOutPerClass());
    auto blocks = scf::ForOp::create(
        b, loc, index(b, 0), wm, index(b, 1), ValueRange{i64(b, 0)},
        [&](OpBuilder &b, Location, Value blk, ValueRange iterArgs) {
          Value count = iterArgs[0];
          Value room = cmp(b, CmpIPredicate::slt, count, maxOutI64);
          auto visit = scf::IfOp::create(
              b, loc, room,
              [&](OpBuilder &b, Location) {
                scf::YieldOp::create(b, loc,
                                     buildWalkBlock(b, r, batch, klass, tid,
                                                    first, m, wm, blk, count,
                                                    memory));
              },
              [&](OpBuilder &b, Location) {
                scf::YieldOp::create(b, loc, count);
              });
          scf::YieldOp::create(b, loc, visit.getResult(0));
        });
    onThreadZero(b, tid, [&](OpBuilder &b) {
      memref::StoreOp::create(b, loc, blocks.getResult(0), op.getCountsInit(),
                              ValueRange{batch, klass});
    });
  }

  /// Block `blk` of the walk, entered with `count` kept so far (below
  /// max_out): every thread loads some of its diagonal words and boxes,
  /// thread 0 decides it, every thread merges the kept rows into its share
  /// of the later words. Returns the count after it.
  Value buildWalkBlock(OpBuilder &b, Value r, Value batch, Value klass,
                       Value tid, Value first, Value m, Value wm, Value blk,
                       Value count, const WalkMemory &memory) {
    Value one = index(b, 1);
    Value step = index(b, options.walkThreads);
    Value base = mul(b, blk, index(b, sift::kNmsBlock));
    Value length = minu(b, index(b, sift::kNmsBlock), sub(b, m, base));
    scf::ForOp::create(
        b, loc, tid, length, step, ValueRange{},
        [&](OpBuilder &b, Location, Value j, ValueRange) {
          Value word = memref::LoadOp::create(
              b, loc, mask, ValueRange{r, add(b, base, j), blk});
          memref::StoreOp::create(b, loc, word, memory.diagonal, j);
          Value box = memref::LoadOp::create(
              b, loc, op.getOrder(),
              ValueRange{batch, klass, add(b, first, add(b, base, j))});
          memref::StoreOp::create(b, loc, box, memory.boxes, j);
          scf::YieldOp::create(b, loc);
        });
    barrier(b);
    onThreadZero(b, tid, [&](OpBuilder &b) {
      buildBlockDecisions(b, batch, klass, length, blk, count, memory);
    });
    barrier(b);
    Value keptCount =
        toIndex(b, memref::LoadOp::create(b, loc, memory.shared, index(b, 0)));
    Value newCount = memref::LoadOp::create(b, loc, memory.shared, index(b, 1));
    if (options.rowNotMerged)
      keptCount = arith::SelectOp::create(
          b, loc, cmp(b, CmpIPredicate::ugt, keptCount, index(b, 0)),
          sub(b, keptCount, one), keptCount);
    buildMerge(b, r, tid, blk, wm, base, keptCount, memory);
    barrier(b);
    return newCount;
  }

  /// Thread 0's walk over block `blk` (its `length` candidates): kept boxes
  /// to their slots, their offsets in the block to `kept`, then how many
  /// were kept and the new count to `shared`. Every load is from workgroup
  /// memory.
  void buildBlockDecisions(OpBuilder &b, Value batch, Value klass, Value length,
                           Value blk, Value count, const WalkMemory &memory) {
    Value maxOutI64 = i64(b, op.getMaxOutPerClass());
    Value start = memref::LoadOp::create(b, loc, memory.removed, blk);
    auto loop = scf::ForOp::create(
        b, loc, index(b, 0), length, index(b, 1),
        ValueRange{start, count, index(b, 0)},
        [&](OpBuilder &b, Location, Value j, ValueRange state) {
          Value word = state[0], slot = state[1], keptCount = state[2];
          Value bit = arith::AndIOp::create(
              b, loc,
              arith::ShRUIOp::create(
                  b, loc, word,
                  arith::IndexCastOp::create(b, loc, b.getI64Type(), j)),
              i64(b, 1));
          Value keep = arith::AndIOp::create(
              b, loc, cmp(b, CmpIPredicate::slt, slot, maxOutI64),
              cmp(b, CmpIPredicate::eq, bit, i64(b, 0)));
          auto decide = scf::IfOp::create(
              b, loc, keep,
              [&](OpBuilder &b, Location) {
                Value box = memref::LoadOp::create(b, loc, memory.boxes, j);
                memref::StoreOp::create(
                    b, loc, box, op.getSlotsInit(),
                    ValueRange{batch, klass,
                               arith::IndexCastOp::create(
                                   b, loc, b.getIndexType(), slot)});
                memref::StoreOp::create(
                    b, loc,
                    arith::IndexCastOp::create(b, loc, b.getI32Type(), j),
                    memory.kept, keptCount);
                Value row = memref::LoadOp::create(b, loc, memory.diagonal, j);
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{arith::OrIOp::create(b, loc, word, row),
                               add(b, slot, i64(b, 1)),
                               add(b, keptCount, index(b, 1))});
              },
              [&](OpBuilder &b, Location) {
                scf::YieldOp::create(b, loc, ValueRange{word, slot, keptCount});
              });
          scf::YieldOp::create(b, loc, decide.getResults());
        });
    memref::StoreOp::create(
        b, loc,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), loop.getResult(2)),
        memory.shared, index(b, 0));
    memref::StoreOp::create(b, loc, loop.getResult(1), memory.shared,
                            index(b, 1));
  }

  /// Kept rows a walk thread merges per step of its loop.
  static constexpr int64_t kMergeUnroll = 8;

  /// Every thread ORs the kept rows of block `blk` into its share of the
  /// removed words after it, kMergeUnroll rows at a time: their loads are
  /// independent, so a thread has that many in flight. A step past the
  /// last kept row repeats it (ORing a row twice changes nothing).
  void buildMerge(OpBuilder &b, Value r, Value tid, Value blk, Value wm,
                  Value base, Value keptCount, const WalkMemory &memory) {
    Value one = index(b, 1);
    Value lastKept = sub(b, keptCount, one);
    scf::ForOp::create(
        b, loc, add(b, add(b, blk, one), tid), wm,
        index(b, options.walkThreads), ValueRange{},
        [&](OpBuilder &b, Location, Value w, ValueRange) {
          Value start = memref::LoadOp::create(b, loc, memory.removed, w);
          auto rowsLoop = scf::ForOp::create(
              b, loc, index(b, 0), keptCount, index(b, kMergeUnroll),
              ValueRange{start},
              [&](OpBuilder &b, Location, Value q, ValueRange acc) {
                SmallVector<Value> rowWords;
                for (int64_t u = 0; u < kMergeUnroll; ++u) {
                  Value slot = minu(b, add(b, q, index(b, u)), lastKept);
                  Value offset = toIndex(
                      b, memref::LoadOp::create(b, loc, memory.kept, slot)
                             .getResult());
                  rowWords.push_back(memref::LoadOp::create(
                      b, loc, mask, ValueRange{r, add(b, base, offset), w}));
                }
                Value merged = acc[0];
                for (Value word : rowWords)
                  merged = arith::OrIOp::create(b, loc, merged, word);
                scf::YieldOp::create(b, loc, merged);
              });
          memref::StoreOp::create(b, loc, rowsLoop.getResult(0), memory.removed,
                                  w);
          scf::YieldOp::create(b, loc);
        });
  }

  RewriterBase &b;
  sift::NmsPerClassOp op;
  sift::MaskNmsOptions options;
  int64_t batches = 0, classes = 0, n = 0, rows = 0, words = 0, groups = 0;
  Value mask;
};

} // namespace

LogicalResult
sift::lowerNmsPerClassByMaskBlocks(RewriterBase &rewriter, NmsPerClassOp op,
                                   const MaskNmsOptions &options) {
  return MaskNmsLowering(rewriter, op, options).build();
}
