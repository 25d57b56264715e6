//===- WarpQueue.cpp - warp_select's queue of a warp's k best -------------===//
//
// Insertion is a loop while any lane of the wave has a composite better
// than the k-th (sift.wave_any: both warps of a wave64 iterate together):
// the lowest such lane of each warp (ballot, count of trailing zeros)
// hands its composite v to all (a shuffle by lane, two for a 64-bit
// composite), each lane
// l < k keeps max(slot, min(v, slot of lane l - 1)) from a shuffle up
// (lane 0's neighbour above is the top, all ones; fault
// warp-queue-head-unfilled takes the shuffle up's own slot, so an item
// better than the warp's best is lost), the k-th is read again from lane
// k - 1, and the handing lane's composite is spent (0). Follows the warp
// queue of Johnson, Douze and Jegou's WarpSelect (Faiss, 2017), fed an item
// at a time instead of from thread queues.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RegisterSelect/WarpQueue.h"

#include "pipelines/Kernels/RegisterSelect/RegisterSelect.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace sift {

Value WarpQueue::constant(OpBuilder &b, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, type, v);
}

Value WarpQueue::shuffleComposite(
    OpBuilder &b, Value v, function_ref<Value(OpBuilder &, Value)> shuffle) {
  Type word = b.getI32Type();
  if (type == word)
    return shuffle(b, v);
  Value low = shuffle(b, arith::TruncIOp::create(b, loc, word, v));
  Value high = shuffle(
      b, arith::TruncIOp::create(
             b, loc, word, arith::ShRUIOp::create(b, loc, v, constant(b, 32))));
  return arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, type, low),
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, type, high),
                            constant(b, 32)));
}

Value WarpQueue::fromLane(OpBuilder &b, Value v, Value lane) {
  return shuffleComposite(b, v, [&](OpBuilder &b, Value half) -> Value {
    return WarpShuffleIdxOp::create(b, loc, b.getI32Type(), half, lane);
  });
}

std::pair<Value, Value> WarpQueue::insert(OpBuilder &b, Value lane, Value c,
                                          Value slot, Value kth) {
  Type word = b.getI32Type();
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{type, type, type}, ValueRange{c, slot, kth},
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value pending = cmp(b, arith::CmpIPredicate::ugt, args[0], args[2]);
        scf::ConditionOp::create(
            b, loc, WaveAnyOp::create(b, loc, b.getI1Type(), pending), args);
      },
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Value c = args[0], slot = args[1], kth = args[2];
        Value pending = cmp(b, arith::CmpIPredicate::ugt, c, kth);
        Value votes = WarpBallotOp::create(b, loc, word, pending);
        Value zero32 = arith::ConstantIntOp::create(b, loc, word, 0);
        Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          votes, zero32);
        Value lowest = LLVM::CountTrailingZerosOp::create(
            b, loc, word, votes, /*is_zero_poison=*/false);
        Value from = arith::SelectOp::create(b, loc, any, lowest, zero32);
        Value v = fromLane(b, c, from);
        Value above = shuffleComposite(b, slot, [&](OpBuilder &b, Value half) {
          return WarpShuffleUpOp::create(b, loc, word, half,
                                         b.getI32IntegerAttr(1))
              .getResult();
        });
        Value head = cmp(b, arith::CmpIPredicate::eq, lane, index(b, 0));
        if (!headUnfilled)
          above = arith::SelectOp::create(b, loc, head, constant(b, -1), above);
        Value next = arith::MaxUIOp::create(
            b, loc, slot, arith::MinUIOp::create(b, loc, v, above));
        Value inList = cmp(b, arith::CmpIPredicate::ult, lane, index(b, k));
        next = arith::SelectOp::create(b, loc, inList, next, constant(b, 0));
        next = arith::SelectOp::create(b, loc, any, next, slot);
        Value nextKth = fromLane(
            b, next, arith::ConstantIntOp::create(b, loc, word, k - 1));
        Value handed = arith::AndIOp::create(
            b, loc, any,
            arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::eq,
                arith::IndexCastUIOp::create(b, loc, word, lane), from));
        Value spent =
            arith::SelectOp::create(b, loc, handed, constant(b, 0), c);
        scf::YieldOp::create(b, loc, ValueRange{spent, next, nextKth});
      });
  return {loop.getResult(1), loop.getResult(2)};
}

Value WarpQueue::walk(
    OpBuilder &b, Value tid, Value length, int64_t stride,
    function_ref<SmallVector<Value>(OpBuilder &, Value, bool)> step) {
  Value lane = arith::RemUIOp::create(b, loc, tid, index(b, kWarpSelectWarp));
  Value whole = arith::DivUIOp::create(b, loc, length, index(b, stride));
  Value steps = arith::DivUIOp::create(
      b, loc, add(b, length, index(b, stride - 1)), index(b, stride));
  auto loopOf = [&](Value from, Value to, ValueRange acc, bool checked) {
    return scf::ForOp::create(
        b, loc, from, to, index(b, 1), acc,
        [&](OpBuilder &b, Location, Value s, ValueRange acc) {
          Value base = add(b, tid, mul(b, s, index(b, stride)));
          Value slot = acc[0], kth = acc[1];
          for (Value c : step(b, base, checked))
            std::tie(slot, kth) = insert(b, lane, c, slot, kth);
          scf::YieldOp::create(b, loc, ValueRange{slot, kth});
        });
  };
  auto full =
      loopOf(index(b, 0), whole, ValueRange{constant(b, 0), constant(b, 0)},
             /*checked=*/false);
  auto tail = loopOf(whole, steps, full.getResults(), /*checked=*/true);
  return tail.getResult(0);
}

} // namespace sift
