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
//   mask (mask_tiles, tileandfuse's own): the mask cut into thread tiles
//          of R candidates (rows) x one word column, a flat grid of
//          workgroups of kMaskTileThreads threads; tile (r, bi, bw, s)
//          holds candidates 64 bi + R s .. + R - 1 of row r, the 64 / R
//          tiles of one (bi, bw) in consecutive threads. A thread keeps
//          its R boxes in private memory and reads each of column bw's 64
//          boxes once, through the sorted order (the gather fused into the
//          tile), for all R rows: R words of R x 64 IoUs. Tiles of bw < bi
//          (below the diagonal) return at once.
//   walk:  a workgroup per (batch, class), its removed set in workgroup
//          memory; per block of 64 candidates while there is room: thread 0
//          decides the block, unrolled over its 64 places (a place is kept
//          when its removed bit is clear, and then ORs its diagonal word
//          into the block's removed word; the kept places are the clear
//          bits of the final word, the first max_out - count of them
//          kept); then every thread writes some kept boxes to their slots,
//          loads some of the next block's diagonal words and boxes into the
//          second of two workgroup buffers, and ORs the kept rows into its
//          share of the later removed words (64 independent loads).
//
// A candidate is dropped exactly when an earlier kept box overlaps it by
// more than the threshold: the scalar rule. The mask kernel divides only
// where two boxes overlap (the IoU is exactly buildNmsIoU's). Faults:
// nms-mask-last-bit-lost (the mask never sets a word's bit 63),
// nms-walk-row-not-merged (the walk merges every kept row of a block but
// the last into the later words), nms-tile-last-row-first-box (a mask_tiles
// thread compares its tile's last row with its first row's box),
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

bool sift::maskTilesGridFits(int64_t rows, int64_t n, int64_t tileRows) {
  if (rows < 1 || n < 1 || tileRows < 1 || tileRows > kNmsBlock)
    return false;
  int64_t words = (n + kNmsBlock - 1) / kNmsBlock;
  int64_t limit = std::numeric_limits<int32_t>::max();
  // Workgroups: rows * words^2 * (64 / R) threads, kMaskTileThreads each.
  return rows <= limit / words / words &&
         rows * words * words <= limit / (kNmsBlock / tileRows) &&
         rows * words * words * (kNmsBlock / tileRows) / kMaskTileThreads <
             limit;
}

int64_t sift::maskNmsWalkBytes(int64_t n) {
  int64_t words = (n + kNmsBlock - 1) / kNmsBlock;
  return words * 8 + 4 * kNmsBlock * 8 + 2 * 8;
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
    if (options.tileRows > 0) {
      if (!sift::maskTilesGridFits(rows, n, options.tileRows))
        return op.emitOpError("mask_tiles would launch more thread tiles ")
               << "than a grid holds (" << rows << " rows of " << n
               << " candidates, " << options.tileRows << " a tile)";
    } else if (rows > std::numeric_limits<int32_t>::max() / words / groups) {
      return op.emitOpError("mask_blocks would launch ")
             << rows << " x " << words << " x " << groups
             << " mask workgroups, more than a grid holds";
    }
    mask = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, n, words}, b.getI64Type()));
    if (options.tileRows > 0)
      buildMaskTiles();
    else
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
    Value first = lowerBound(b, zero, all, [&](OpBuilder &b, Value p) {
      Value score = scoreAt(b, batch, klass, p);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, score,
                                   score)
          .getResult();
    });
    bool scoreGe = sift::hasInjectedFault(op, sift::Fault::NmsScoreThresholdGe);
    Value bound = f32(b, threshold->convertToFloat());
    Value end = lowerBound(b, first, all, [&](OpBuilder &b, Value p) {
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

  /// Row r's (batch, class), its candidates (sorted positions first to
  /// first + m) and their blocks (wm).
  struct RowCandidates {
    Value batch, klass, first, m, wm;
  };
  RowCandidates rowCandidates(OpBuilder &b, Value r) {
    RowCandidates row;
    row.batch = arith::DivUIOp::create(b, loc, r, index(b, classes));
    row.klass = arith::RemUIOp::create(b, loc, r, index(b, classes));
    std::pair<Value, Value> range = candidates(b, row.batch, row.klass);
    row.first = range.first;
    row.m = sub(b, range.second, range.first);
    row.wm = ceilBlocks(b, row.m);
    return row;
  }

  /// Whether IoU(later, kept) is over `threshold` (>= with fault
  /// nms-iou-ge), the IoU exactly buildNmsIoU's; its division only where
  /// the boxes overlap (most pairs do not: the branch skips it).
  Value buildOver(OpBuilder &b, const sift::NmsCorners &later,
                  const sift::NmsCorners &kept, Value threshold, bool iouGe) {
    auto predicate =
        iouGe ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT;
    sift::NmsOverlap overlap = sift::buildNmsOverlap(b, loc, later, kept);
    Value zeroOver =
        arith::CmpFOp::create(b, loc, predicate, f32(b, 0.0), threshold);
    auto decide = scf::IfOp::create(
        b, loc, overlap.degenerate,
        [&](OpBuilder &b, Location) { scf::YieldOp::create(b, loc, zeroOver); },
        [&](OpBuilder &b, Location) {
          Value iou = arith::DivFOp::create(b, loc, overlap.intersection,
                                            overlap.unionArea);
          scf::YieldOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, predicate, iou, threshold)
                  .getResult());
        });
    return decide.getResult(0);
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
          RowCandidates row = rowCandidates(b, r);
          Value batch = row.batch, klass = row.klass, first = row.first,
                m = row.m, wm = row.wm;
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
                      Value bit =
                          maskBit(b, later, own, threshold, iouGe, i, j, jj, m);
                      scf::YieldOp::create(
                          b, loc,
                          arith::OrIOp::create(b, loc, word[0], bit)
                              .getResult());
                    });
                scf::IfOp::create(b, loc, active, [&](OpBuilder &b, Location) {
                  Value word = loop.getResult(0);
                  memref::StoreOp::create(b, loc, word, mask,
                                          ValueRange{r, i, bw});
                  scf::YieldOp::create(b, loc);
                });
                if (staged)
                  barrier(b); // Before the next column's boxes replace these.
                scf::YieldOp::create(b, loc);
              });
        });
  }

  /// Bit j - base of a mask word (an i64) for candidate j over candidate
  /// i: IoU(j, i) over the threshold, j after i and among the m
  /// candidates.
  Value maskBit(OpBuilder &b, const sift::NmsCorners &later,
                const sift::NmsCorners &own, Value threshold, bool iouGe,
                Value i, Value j, Value jj, Value m) {
    Value over = buildOver(b, later, own, threshold, iouGe);
    Value valid =
        arith::AndIOp::create(b, loc, cmp(b, CmpIPredicate::ugt, j, i),
                              cmp(b, CmpIPredicate::ult, j, m));
    Value set = arith::AndIOp::create(b, loc, over, valid);
    return arith::ShLIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), set),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), jj));
  }

  /// mask_tiles' mask dispatch: a thread per tile of R candidates x one
  /// word column (see the file comment).
  void buildMaskTiles() {
    int64_t tileRows = options.tileRows;
    int64_t perBlock = sift::kNmsBlock / tileRows;
    int64_t tiles = rows * words * words * perBlock;
    int64_t blocks =
        (tiles + sift::kMaskTileThreads - 1) / sift::kMaskTileThreads;
    bool iouGe = sift::hasInjectedFault(op, sift::Fault::NmsIouGe);
    sift::buildLaunch(
        b, loc, blocks, sift::kMaskTileThreads,
        [&](OpBuilder &b, Value block, Value tid) {
          Value t =
              add(b, mul(b, block, index(b, sift::kMaskTileThreads)), tid);
          Value s = arith::RemUIOp::create(b, loc, t, index(b, perBlock));
          Value rest = arith::DivUIOp::create(b, loc, t, index(b, perBlock));
          Value bw = arith::RemUIOp::create(b, loc, rest, index(b, words));
          rest = arith::DivUIOp::create(b, loc, rest, index(b, words));
          Value bi = arith::RemUIOp::create(b, loc, rest, index(b, words));
          Value r = arith::DivUIOp::create(b, loc, rest, index(b, words));
          // Past the grid's tiles or below the diagonal: nothing to do.
          Value live = arith::AndIOp::create(
              b, loc, cmp(b, CmpIPredicate::ult, t, index(b, tiles)),
              cmp(b, CmpIPredicate::uge, bw, bi));
          scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location) {
            buildMaskTile(b, r, bi, bw, s, iouGe);
            scf::YieldOp::create(b, loc);
          });
        });
  }

  /// Tile (r, bi, bw, s) of mask_tiles: rows 64 bi + R s .. + R - 1
  /// against column block bw, when both are among the candidates.
  void buildMaskTile(OpBuilder &b, Value r, Value bi, Value bw, Value s,
                     bool iouGe) {
    int64_t tileRows = options.tileRows;
    RowCandidates row = rowCandidates(b, r);
    Value i0 = add(b, mul(b, bi, index(b, sift::kNmsBlock)),
                   mul(b, s, index(b, tileRows)));
    Value inside =
        arith::AndIOp::create(b, loc, cmp(b, CmpIPredicate::ult, i0, row.m),
                              cmp(b, CmpIPredicate::ult, bw, row.wm));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &b, Location) {
      // The tile's own boxes, in private memory (registers) for its life.
      SmallVector<Value> rowsOfTile;
      SmallVector<sift::NmsCorners> own;
      for (int64_t k = 0; k < tileRows; ++k) {
        rowsOfTile.push_back(add(b, i0, index(b, k)));
        bool shifted = options.tileRowShifted && k == tileRows - 1;
        own.push_back(cornersOf(b, row.batch, row.klass, row.first,
                                shifted ? i0 : rowsOfTile.back()));
      }
      Value threshold = f32(b, op.getIouThreshold().convertToFloat());
      Value base = mul(b, bw, index(b, sift::kNmsBlock));
      SmallVector<Value> zeros(tileRows, i64(b, 0));
      auto loop = scf::ForOp::create(
          b, loc, index(b, 0),
          index(b, options.lastBitLost ? sift::kNmsBlock - 1 : sift::kNmsBlock),
          index(b, 1), zeros,
          [&](OpBuilder &b, Location, Value jj, ValueRange words) {
            Value j = add(b, base, jj);
            // Column box j: one load (through the order) for all R rows.
            sift::NmsCorners later =
                cornersOf(b, row.batch, row.klass, row.first, j);
            SmallVector<Value> next;
            for (int64_t k = 0; k < tileRows; ++k)
              next.push_back(arith::OrIOp::create(
                  b, loc, words[k],
                  maskBit(b, later, own[k], threshold, iouGe, rowsOfTile[k], j,
                          jj, row.m)));
            scf::YieldOp::create(b, loc, next);
          });
      for (int64_t k = 0; k < tileRows; ++k) {
        Value in = cmp(b, CmpIPredicate::ult, rowsOfTile[k], row.m);
        scf::IfOp::create(b, loc, in, [&](OpBuilder &b, Location) {
          memref::StoreOp::create(b, loc, loop.getResult(k), mask,
                                  ValueRange{r, rowsOfTile[k], bw});
          scf::YieldOp::create(b, loc);
        });
      }
      scf::YieldOp::create(b, loc);
    });
  }

  /// The walk's workgroup memory.
  struct WalkMemory {
    Value removed;  ///< a bit per candidate, set once suppressed
    Value diagonal; ///< two blocks' diagonal words (this one's, the next's)
    Value boxes;    ///< two blocks' candidates' boxes
    Value shared; ///< the block's kept places (a bit each), the count after it
  };

  void buildWalk() {
    sift::buildLaunch(
        b, loc, rows, options.walkThreads,
        [&](OpBuilder &b, Value r, Value tid) { buildWalkKernel(b, r, tid); });
  }

  void buildWalkKernel(OpBuilder &b, Value r, Value tid) {
    RowCandidates row = rowCandidates(b, r);
    Value batch = row.batch, klass = row.klass, first = row.first, m = row.m,
          wm = row.wm;
    MLIRContext *context = b.getContext();
    Type i64Type = b.getI64Type();
    auto workgroup = [&](int64_t size, Type element) -> Value {
      return memref::AllocOp::create(
          b, loc, sift::workgroupMemRefType(context, size, element));
    };
    WalkMemory memory;
    memory.removed = workgroup(words, i64Type);
    memory.diagonal = workgroup(2 * sift::kNmsBlock, i64Type);
    memory.boxes = workgroup(2 * sift::kNmsBlock, i64Type);
    memory.shared = workgroup(2, i64Type);
    Value step = index(b, options.walkThreads);
    scf::ForOp::create(b, loc, tid, wm, step, ValueRange{},
                       [&](OpBuilder &b, Location, Value w, ValueRange) {
                         memref::StoreOp::create(b, loc, i64(b, 0),
                                                 memory.removed, w);
                         scf::YieldOp::create(b, loc);
                       });
    buildPlaceLoads(b, r, batch, klass, tid, first, m, wm, index(b, 0), memory);
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

  /// Loads the places of block `blk` (its diagonal words and boxes, zeros
  /// past its candidates or when there is no such block) into buffer
  /// `blk` % 2 of `memory`, the threads sharing the 64 places.
  void buildPlaceLoads(OpBuilder &b, Value r, Value batch, Value klass,
                       Value tid, Value first, Value m, Value wm, Value blk,
                       const WalkMemory &memory) {
    Value base = mul(b, blk, index(b, sift::kNmsBlock));
    Value exists = cmp(b, CmpIPredicate::ult, blk, wm);
    Value length = arith::SelectOp::create(
        b, loc, exists,
        minu(b, index(b, sift::kNmsBlock), sub(b, m, minu(b, base, m))),
        index(b, 0));
    Value buffer = mul(b, arith::AndIOp::create(b, loc, blk, index(b, 1)),
                       index(b, sift::kNmsBlock));
    scf::ForOp::create(
        b, loc, tid, index(b, sift::kNmsBlock), index(b, options.walkThreads),
        ValueRange{}, [&](OpBuilder &b, Location, Value j, ValueRange) {
          auto load = scf::IfOp::create(
              b, loc, cmp(b, CmpIPredicate::ult, j, length),
              [&](OpBuilder &b, Location) {
                Value word = memref::LoadOp::create(
                    b, loc, mask, ValueRange{r, add(b, base, j), blk});
                Value box = memref::LoadOp::create(
                    b, loc, op.getOrder(),
                    ValueRange{batch, klass, add(b, first, add(b, base, j))});
                scf::YieldOp::create(b, loc, ValueRange{word, box});
              },
              [&](OpBuilder &b, Location) {
                scf::YieldOp::create(b, loc, ValueRange{i64(b, 0), i64(b, 0)});
              });
          Value place = add(b, buffer, j);
          memref::StoreOp::create(b, loc, load.getResult(0), memory.diagonal,
                                  place);
          memref::StoreOp::create(b, loc, load.getResult(1), memory.boxes,
                                  place);
          scf::YieldOp::create(b, loc);
        });
  }

  /// The number of set bits of the i64 `x` (SWAR; no math dialect op).
  Value popcount(OpBuilder &b, Value x) {
    auto shr = [&](Value v, int64_t n) {
      return arith::ShRUIOp::create(b, loc, v, i64(b, n)).getResult();
    };
    auto band = [&](Value v, uint64_t m) {
      return arith::AndIOp::create(b, loc, v, i64(b, static_cast<int64_t>(m)))
          .getResult();
    };
    x = arith::SubIOp::create(b, loc, x,
                              band(shr(x, 1), 0x5555555555555555ull));
    x = arith::AddIOp::create(b, loc, band(x, 0x3333333333333333ull),
                              band(shr(x, 2), 0x3333333333333333ull));
    x = band(arith::AddIOp::create(b, loc, x, shr(x, 4)),
             0x0F0F0F0F0F0F0F0Full);
    x = arith::MulIOp::create(b, loc, x, i64(b, 0x0101010101010101ll));
    return shr(x, 56);
  }

  /// Bit j of the i64 `x` as an i1.
  Value bitSet(OpBuilder &b, Value x, Value j) {
    Value shifted = arith::ShRUIOp::create(b, loc, x, j);
    return cmp(b, CmpIPredicate::ne,
               arith::AndIOp::create(b, loc, shifted, i64(b, 1)), i64(b, 0));
  }

  /// Block `blk` of the walk, entered with `count` kept so far (below
  /// max_out) and its places loaded (buffer blk % 2): thread 0 decides it
  /// into a word of kept places; then every thread writes some kept boxes
  /// to their slots, loads some places of the next block into the other
  /// buffer and merges the kept rows into its share of the later words
  /// (all their loads in flight at once). Returns the count after it.
  Value buildWalkBlock(OpBuilder &b, Value r, Value batch, Value klass,
                       Value tid, Value first, Value m, Value wm, Value blk,
                       Value count, const WalkMemory &memory) {
    Value one = index(b, 1);
    Value base = mul(b, blk, index(b, sift::kNmsBlock));
    Value length = minu(b, index(b, sift::kNmsBlock), sub(b, m, base));
    Value buffer = mul(b, arith::AndIOp::create(b, loc, blk, one),
                       index(b, sift::kNmsBlock));
    onThreadZero(b, tid, [&](OpBuilder &b) {
      buildBlockDecisions(b, length, blk, count, buffer, memory);
    });
    barrier(b);
    Value keptBits = memref::LoadOp::create(b, loc, memory.shared, index(b, 0));
    Value newCount = memref::LoadOp::create(b, loc, memory.shared, index(b, 1));
    // Kept place t goes to slot count + (kept places before t).
    scf::ForOp::create(
        b, loc, tid, index(b, sift::kNmsBlock), index(b, options.walkThreads),
        ValueRange{}, [&](OpBuilder &b, Location, Value t, ValueRange) {
          Value t64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), t);
          scf::IfOp::create(
              b, loc, bitSet(b, keptBits, t64), [&](OpBuilder &b, Location) {
                Value below = arith::SubIOp::create(
                    b, loc, arith::ShLIOp::create(b, loc, i64(b, 1), t64),
                    i64(b, 1));
                Value rank =
                    popcount(b, arith::AndIOp::create(b, loc, keptBits, below));
                Value box = memref::LoadOp::create(b, loc, memory.boxes,
                                                   add(b, buffer, t));
                memref::StoreOp::create(
                    b, loc, box, op.getSlotsInit(),
                    ValueRange{
                        batch, klass,
                        arith::IndexCastOp::create(
                            b, loc, b.getIndexType(),
                            arith::AddIOp::create(b, loc, count, rank))});
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
    Value mergeBits = keptBits;
    if (options.rowNotMerged) {
      // The highest kept place: smear the top bit down, keep its top.
      Value smear = keptBits;
      for (int64_t shift : {1, 2, 4, 8, 16, 32})
        smear = arith::OrIOp::create(
            b, loc, smear,
            arith::ShRUIOp::create(b, loc, smear, i64(b, shift)));
      Value highest = arith::XOrIOp::create(
          b, loc, smear, arith::ShRUIOp::create(b, loc, smear, i64(b, 1)));
      mergeBits = arith::XOrIOp::create(b, loc, keptBits, highest);
    }
    buildPlaceLoads(b, r, batch, klass, tid, first, m, wm, add(b, blk, one),
                    memory);
    buildMerge(b, r, tid, blk, wm, base, mergeBits, memory);
    barrier(b);
    return newCount;
  }

  /// Thread 0's walk over block `blk` (its `length` candidates, their
  /// places in buffer `buffer`): a place is kept when its bit of the
  /// removed word is clear, and then ORs its diagonal word into it. Places
  /// past `length` start removed, so the kept places are the clear bits of
  /// the final word; the chain from one place to the next is a shift, a
  /// test and an OR (every load is from workgroup memory, none depends on a
  /// decision). Beyond max_out - count kept places, the later ones are
  /// dropped (the walk ends with this block). The kept places and the new
  /// count go to `shared`.
  void buildBlockDecisions(OpBuilder &b, Value length, Value blk, Value count,
                           Value buffer, const WalkMemory &memory) {
    Value all = i64(b, -1);
    Value length64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), length);
    Value full = cmp(b, CmpIPredicate::eq, length, index(b, sift::kNmsBlock));
    Value invalid = arith::SelectOp::create(
        b, loc, full, i64(b, 0), arith::ShLIOp::create(b, loc, all, length64));
    Value word = arith::OrIOp::create(
        b, loc, memref::LoadOp::create(b, loc, memory.removed, blk), invalid);
    for (int64_t j = 0; j < sift::kNmsBlock; ++j) {
      Value row = memref::LoadOp::create(b, loc, memory.diagonal,
                                         add(b, buffer, index(b, j)));
      Value clear = arith::XOrIOp::create(
          b, loc, bitSet(b, word, i64(b, j)),
          arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
      word = arith::SelectOp::create(
          b, loc, clear, arith::OrIOp::create(b, loc, word, row), word);
    }
    Value kept = arith::XOrIOp::create(b, loc, word, all);
    // At most max_out - count of them: drop the places after that many.
    Value room =
        arith::SubIOp::create(b, loc, i64(b, op.getMaxOutPerClass()), count);
    Value total = popcount(b, kept);
    auto capped = scf::IfOp::create(
        b, loc, cmp(b, CmpIPredicate::sgt, total, room),
        [&](OpBuilder &b, Location) {
          auto walk = scf::ForOp::create(
              b, loc, index(b, 0), index(b, sift::kNmsBlock), index(b, 1),
              ValueRange{kept, i64(b, 0)},
              [&](OpBuilder &b, Location, Value j, ValueRange state) {
                Value j64 =
                    arith::IndexCastOp::create(b, loc, b.getI64Type(), j);
                Value set = bitSet(b, state[0], j64);
                Value seen = arith::AddIOp::create(
                    b, loc, state[1],
                    arith::ExtUIOp::create(b, loc, b.getI64Type(), set));
                Value over = arith::AndIOp::create(
                    b, loc, set, cmp(b, CmpIPredicate::sgt, seen, room));
                Value cleared = arith::AndIOp::create(
                    b, loc, state[0],
                    arith::XOrIOp::create(
                        b, loc, arith::ShLIOp::create(b, loc, i64(b, 1), j64),
                        all));
                scf::YieldOp::create(
                    b, loc,
                    ValueRange{arith::SelectOp::create(b, loc, over, cleared,
                                                       state[0]),
                               seen});
              });
          scf::YieldOp::create(b, loc, walk.getResult(0));
        },
        [&](OpBuilder &b, Location) { scf::YieldOp::create(b, loc, kept); });
    Value keptBits = capped.getResult(0);
    memref::StoreOp::create(b, loc, keptBits, memory.shared, index(b, 0));
    memref::StoreOp::create(
        b, loc, arith::AddIOp::create(b, loc, count, popcount(b, keptBits)),
        memory.shared, index(b, 1));
  }

  /// Every thread ORs the kept rows of block `blk` (the set bits of
  /// `keptBits`) into its share of the removed words after it, unrolled
  /// over the block's 64 places with no branch: a place not kept loads the
  /// first kept place's row instead (ORing a row twice changes nothing), so
  /// all 64 loads are independent and in flight at once.
  void buildMerge(OpBuilder &b, Value r, Value tid, Value blk, Value wm,
                  Value base, Value keptBits, const WalkMemory &memory) {
    Value one = index(b, 1);
    Value any = cmp(b, CmpIPredicate::ne, keptBits, i64(b, 0));
    scf::IfOp::create(b, loc, any, [&](OpBuilder &b, Location) {
      Value lowest = arith::AndIOp::create(
          b, loc, keptBits, arith::SubIOp::create(b, loc, i64(b, 0), keptBits));
      Value firstKept = toIndex(
          b, popcount(b, arith::SubIOp::create(b, loc, lowest, i64(b, 1))));
      Value fallback = add(b, base, firstKept);
      scf::ForOp::create(
          b, loc, add(b, add(b, blk, one), tid), wm,
          index(b, options.walkThreads), ValueRange{},
          [&](OpBuilder &b, Location, Value w, ValueRange) {
            Value merged = memref::LoadOp::create(b, loc, memory.removed, w);
            for (int64_t j = 0; j < sift::kNmsBlock; ++j) {
              Value rowIndex = arith::SelectOp::create(
                  b, loc, bitSet(b, keptBits, i64(b, j)),
                  add(b, base, index(b, j)), fallback);
              Value word = memref::LoadOp::create(b, loc, mask,
                                                  ValueRange{r, rowIndex, w});
              merged = arith::OrIOp::create(b, loc, merged, word);
            }
            memref::StoreOp::create(b, loc, merged, memory.removed, w);
            scf::YieldOp::create(b, loc);
          });
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
