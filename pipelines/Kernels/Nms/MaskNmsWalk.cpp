//===- MaskNmsWalk.cpp - mask_blocks' and mask_tiles' walk ----------------===//
//
// The walk dispatch of sift.nms_per_class's blocked-mask NMS (MaskNms.cpp's
// file comment: a workgroup per (batch, class), its removed set in
// workgroup memory; thread 0 decides a block of 64 candidates, every thread
// merges the kept rows into the later words).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/Nms/MaskNmsLowering.h"

namespace sift::masknms {

void MaskNmsLowering::buildWalk() {
  sift::buildLaunch(
      b, loc, rows, options.walkThreads,
      [&](OpBuilder &b, Value r, Value tid) { buildWalkKernel(b, r, tid); });
}

void MaskNmsLowering::buildWalkKernel(OpBuilder &b, Value r, Value tid) {
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

void MaskNmsLowering::buildPlaceLoads(OpBuilder &b, Value r, Value batch,
                                      Value klass, Value tid, Value first,
                                      Value m, Value wm, Value blk,
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
        memref::StoreOp::create(b, loc, load.getResult(1), memory.boxes, place);
        scf::YieldOp::create(b, loc);
      });
}

Value MaskNmsLowering::buildWalkBlock(OpBuilder &b, Value r, Value batch,
                                      Value klass, Value tid, Value first,
                                      Value m, Value wm, Value blk, Value count,
                                      const WalkMemory &memory) {
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
                  ValueRange{batch, klass,
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
          b, loc, smear, arith::ShRUIOp::create(b, loc, smear, i64(b, shift)));
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

void MaskNmsLowering::buildBlockDecisions(OpBuilder &b, Value length, Value blk,
                                          Value count, Value buffer,
                                          const WalkMemory &memory) {
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
              Value j64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), j);
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
                  ValueRange{
                      arith::SelectOp::create(b, loc, over, cleared, state[0]),
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

void MaskNmsLowering::buildMerge(OpBuilder &b, Value r, Value tid, Value blk,
                                 Value wm, Value base, Value keptBits,
                                 const WalkMemory &memory) {
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
            Value rowIndex =
                arith::SelectOp::create(b, loc, bitSet(b, keptBits, i64(b, j)),
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

} // namespace sift::masknms
