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

#include "pipelines/Kernels/Nms/MaskNms.h"
#include "pipelines/Kernels/Nms/MaskNmsLowering.h"

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

namespace sift::masknms {

LogicalResult MaskNmsLowering::build() {
  auto scores = cast<MemRefType>(op.getSortedScores().getType());
  if (!scores.hasStaticShape())
    return op.emitOpError("mask_blocks needs static shapes, found ") << scores;
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

void MaskNmsLowering::buildMask() {
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
                Value values[4] = {mine.ymin, mine.xmin, mine.ymax, mine.xmax};
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
                      Value *fields[4] = {&later.ymin, &later.xmin, &later.ymax,
                                          &later.xmax};
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
                        arith::OrIOp::create(b, loc, word[0], bit).getResult());
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

void MaskNmsLowering::buildMaskTiles() {
  int64_t tileRows = options.tileRows;
  int64_t perBlock = sift::kNmsBlock / tileRows;
  int64_t tiles = rows * words * words * perBlock;
  int64_t blocks =
      (tiles + sift::kMaskTileThreads - 1) / sift::kMaskTileThreads;
  bool iouGe = sift::hasInjectedFault(op, sift::Fault::NmsIouGe);
  sift::buildLaunch(
      b, loc, blocks, sift::kMaskTileThreads,
      [&](OpBuilder &b, Value block, Value tid) {
        Value t = add(b, mul(b, block, index(b, sift::kMaskTileThreads)), tid);
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

void MaskNmsLowering::buildMaskTile(OpBuilder &b, Value r, Value bi, Value bw,
                                    Value s, bool iouGe) {
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
            next.push_back(
                arith::OrIOp::create(b, loc, words[k],
                                     maskBit(b, later, own[k], threshold, iouGe,
                                             rowsOfTile[k], j, jj, row.m)));
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

} // namespace sift::masknms

LogicalResult
sift::lowerNmsPerClassByMaskBlocks(RewriterBase &rewriter, NmsPerClassOp op,
                                   const MaskNmsOptions &options) {
  return masknms::MaskNmsLowering(rewriter, op, options).build();
}
