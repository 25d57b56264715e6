//===- MaskNmsLowering.h - mask_blocks' and mask_tiles' builder -*- C++ -*-===//
//
// The builder of sift.nms_per_class's mask and walk dispatches (MaskNms.h)
// that MaskNms.cpp (the entry and the two mask kernels) and MaskNmsWalk.cpp
// (the walk) share: its state and the small pieces both use (a row's
// candidates, a candidate's corners, the IoU test, bit helpers). Private
// to this folder.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/Nms/MaskNms.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace sift::masknms {

using namespace mlir;
using arith::CmpIPredicate;

class MaskNmsLowering : sift::RowKernelBuilder {
public:
  MaskNmsLowering(RewriterBase &rewriter, sift::NmsPerClassOp op,
                  const sift::MaskNmsOptions &options)
      : RowKernelBuilder(op.getLoc()), b(rewriter), op(op), options(options) {}

  LogicalResult build();

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

  void buildMask();

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
  void buildMaskTiles();

  /// Tile (r, bi, bw, s) of mask_tiles: rows 64 bi + R s .. + R - 1
  /// against column block bw, when both are among the candidates.
  void buildMaskTile(OpBuilder &b, Value r, Value bi, Value bw, Value s,
                     bool iouGe);

  /// The walk's workgroup memory.
  struct WalkMemory {
    Value removed;  ///< a bit per candidate, set once suppressed
    Value diagonal; ///< two blocks' diagonal words (this one's, the next's)
    Value boxes;    ///< two blocks' candidates' boxes
    Value shared; ///< the block's kept places (a bit each), the count after it
  };

  void buildWalk();

  void buildWalkKernel(OpBuilder &b, Value r, Value tid);

  /// Loads the places of block `blk` (its diagonal words and boxes, zeros
  /// past its candidates or when there is no such block) into buffer
  /// `blk` % 2 of `memory`, the threads sharing the 64 places.
  void buildPlaceLoads(OpBuilder &b, Value r, Value batch, Value klass,
                       Value tid, Value first, Value m, Value wm, Value blk,
                       const WalkMemory &memory);

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
                       Value count, const WalkMemory &memory);

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
                           Value buffer, const WalkMemory &memory);

  /// Every thread ORs the kept rows of block `blk` (the set bits of
  /// `keptBits`) into its share of the removed words after it, unrolled
  /// over the block's 64 places with no branch: a place not kept loads the
  /// first kept place's row instead (ORing a row twice changes nothing), so
  /// all 64 loads are independent and in flight at once.
  void buildMerge(OpBuilder &b, Value r, Value tid, Value blk, Value wm,
                  Value base, Value keptBits, const WalkMemory &memory);

  RewriterBase &b;
  sift::NmsPerClassOp op;
  sift::MaskNmsOptions options;
  int64_t batches = 0, classes = 0, n = 0, rows = 0, words = 0, groups = 0;
  Value mask;
};

} // namespace sift::masknms
