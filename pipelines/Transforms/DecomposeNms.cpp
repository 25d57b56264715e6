//===- DecomposeNms.cpp - sift.nms as sort, selection and compaction -----===//
//
// sift.nms's output is compacted: the rows of class (b, c) start after the
// rows of every earlier class, so no tile of (batch, class) can write its
// rows alone. This pass splits it, on tensors, into ops the pipelines lower
// already:
//
//   iota[b, c, n] = n                                       (linalg.generic)
//   sorted, order = sift.sort dimension(2) descending outs(scores, iota)
//   slots, counts = sift.nms_per_class ins(boxes, sorted, order)
//   selected[r, q] = row r of the slots, walking the counts  (linalg.generic)
//   count[0]      = sum of counts                            (linalg.generic)
//
// The sort is stable and `descending` puts NaN first, so `order` is exactly
// the order in which NMS visits the candidates. The two compaction ops read
// slots and counts through tensor.extract, a loop over the B * C classes per
// element (B * C is small), so every element is computed independently.
//
// Injected faults are recorded (InjectedFaults.h) on the op they concern:
// nms-iou-ge, nms-unnormalized-corners and nms-score-threshold-ge on
// sift.nms_per_class, whose scalar implementation honours them;
// nms-sort-global-temp on the score sort, whose private-row staging
// sift-lower-to-loops then leaves in global memory (IREE #20505).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-decompose-nms"

namespace sift {
#define GEN_PASS_DEF_DECOMPOSENMS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// An identity-mapped, all-parallel linalg.generic writing a new tensor of
/// `type`, its element computed by `body` from the loop indices.
Value buildGenerator(
    OpBuilder &b, Location loc, RankedTensorType type,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &b, Location loc, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d)
          indices.push_back(linalg::IndexOp::create(b, loc, d));
        linalg::YieldOp::create(b, loc, body(b, loc, indices));
      });
  return generic.getResult(0);
}

Value constantI64(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

Value indexToI64(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), v);
}

class Decomposition {
public:
  /// `faults`: the injected faults to record on the ops built.
  Decomposition(RewriterBase &rewriter, sift::NmsOp op, sift::FaultSet faults)
      : b(rewriter), op(op), loc(op.getLoc()), faults(faults) {
    auto scores = cast<RankedTensorType>(op.getScores().getType());
    batches = scores.getDimSize(0);
    classes = scores.getDimSize(1);
    boxes = scores.getDimSize(2);
    maxOut = op.getMaxOutPerClass();
  }

  /// The replacements of (selected, count).
  SmallVector<Value> build() {
    auto selectedType = cast<RankedTensorType>(op.getSelectedInit().getType());
    auto countType = cast<RankedTensorType>(op.getCountInit().getType());
    if (batches * classes * boxes * maxOut == 0) {
      // Nothing can be selected: rows of -1 and a count of 0.
      return {buildGenerator(b, loc, selectedType,
                             [](OpBuilder &b, Location loc, ValueRange) {
                               return constantI64(b, loc, -1);
                             }),
              buildGenerator(b, loc, countType,
                             [](OpBuilder &b, Location loc, ValueRange) {
                               return constantI64(b, loc, 0);
                             })};
    }
    auto rowsType = RankedTensorType::get({batches, classes, boxes},
                                          b.getI64Type());
    Value iota = buildGenerator(b, loc, rowsType,
                                [](OpBuilder &b, Location loc, ValueRange ivs) {
                                  return indexToI64(b, loc, ivs[2]);
                                });
    auto scoresType = cast<RankedTensorType>(op.getScores().getType());
    auto sort = sift::SortOp::create(
        b, loc, TypeRange{scoresType, rowsType},
        ValueRange{op.getScores(), iota}, b.getI64IntegerAttr(2),
        sift::SortOrderAttr::get(b.getContext(), sift::SortOrder::Descending));
    if (faults.contains(sift::Fault::NmsSortGlobalTemp))
      sift::recordInjectedFault(sort, sift::Fault::NmsSortGlobalTemp);
    auto slotsType = RankedTensorType::get({batches, classes, maxOut},
                                           b.getI64Type());
    auto countsType = RankedTensorType::get({batches, classes},
                                            b.getI64Type());
    Value slotsInit =
        tensor::EmptyOp::create(b, loc, slotsType.getShape(), b.getI64Type());
    Value countsInit =
        tensor::EmptyOp::create(b, loc, countsType.getShape(), b.getI64Type());
    auto perClass = sift::NmsPerClassOp::create(
        b, loc, TypeRange{slotsType, countsType},
        ValueRange{op.getBoxes(), sort.getResult(0), sort.getResult(1),
                   slotsInit, countsInit},
        op->getAttrs());
    for (sift::Fault fault :
         {sift::Fault::NmsIouGe, sift::Fault::NmsUnnormalizedCorners,
          sift::Fault::NmsScoreThresholdGe})
      if (faults.contains(fault))
        sift::recordInjectedFault(perClass, fault);
    slots = perClass.getResult(0);
    counts = perClass.getResult(1);
    Value selected = buildGenerator(
        b, loc, selectedType,
        [&](OpBuilder &b, Location loc, ValueRange ivs) {
          return selectedElement(b, loc, ivs[0], ivs[1]);
        });
    Value count = buildGenerator(
        b, loc, countType,
        [&](OpBuilder &b, Location loc, ValueRange) { return total(b, loc); });
    return {selected, count};
  }

private:
  /// Loops over the classes p = b * C + c in order, carrying `init`:
  /// `step(p, b, c, count of (b, c), carried)` returns the new carried values.
  ValueRange forEachClass(
      OpBuilder &b, Location loc, ValueRange init,
      function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value,
                                      Value, ValueRange)>
          step) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value all = arith::ConstantIndexOp::create(b, loc, batches * classes);
    Value classCount = arith::ConstantIndexOp::create(b, loc, classes);
    auto loop = scf::ForOp::create(
        b, loc, zero, all, one, init,
        [&](OpBuilder &b, Location loc, Value p, ValueRange carried) {
          Value batch = arith::DivUIOp::create(b, loc, p, classCount);
          Value klass = arith::RemUIOp::create(b, loc, p, classCount);
          Value n = tensor::ExtractOp::create(b, loc, counts,
                                              ValueRange{batch, klass});
          scf::YieldOp::create(b, loc,
                               step(b, loc, batch, klass, n, carried));
        });
    return loop.getResults();
  }

  /// selected[row, column]: the row-th selection in (batch, class,
  /// selection) order, or -1 past the total count. The walk over the
  /// classes only selects (no branch in the loop: fully unrolled, a branch
  /// per class made LLVM's AMDGPU structurizer take a minute on a fused
  /// tileandfuse kernel); the one read of a slot comes after it.
  Value selectedElement(OpBuilder &b, Location loc, Value row, Value column) {
    Value rowI64 = indexToI64(b, loc, row);
    Value columnI64 = indexToI64(b, loc, column);
    Value none = constantI64(b, loc, -1);
    ValueRange found = forEachClass(
        b, loc,
        ValueRange{constantI64(b, loc, 0), none, none, constantI64(b, loc, 0)},
        [&](OpBuilder &b, Location loc, Value batch, Value klass, Value n,
            ValueRange carried) -> SmallVector<Value> {
          Value start = carried[0];
          Value end = arith::AddIOp::create(b, loc, start, n);
          Value inside = arith::AndIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, rowI64,
                                    start),
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rowI64,
                                    end));
          auto keep = [&](Value now, Value before) -> Value {
            return arith::SelectOp::create(b, loc, inside, now, before);
          };
          return {end, keep(indexToI64(b, loc, batch), carried[1]),
                  keep(indexToI64(b, loc, klass), carried[2]),
                  keep(arith::SubIOp::create(b, loc, rowI64, start),
                       carried[3])};
        });
    Value batch = found[1], klass = found[2], slot = found[3];
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, batch,
                                      constantI64(b, loc, 0));
    Value isBox = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        columnI64, constantI64(b, loc, 2));
    Value readBox = arith::AndIOp::create(b, loc, any, isBox);
    auto toIndex = [&](OpBuilder &b, Value v) -> Value {
      return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    };
    // Column 0: batch, 1: class, 2: the box of the slot.
    auto value = scf::IfOp::create(
        b, loc, readBox,
        [&](OpBuilder &b, Location loc) {
          Value v = tensor::ExtractOp::create(
              b, loc, slots,
              ValueRange{toIndex(b, batch), toIndex(b, klass),
                         toIndex(b, slot)});
          scf::YieldOp::create(b, loc, v);
        },
        [&](OpBuilder &b, Location loc) {
          Value isBatch = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, columnI64,
              constantI64(b, loc, 0));
          Value v = arith::SelectOp::create(b, loc, isBatch, batch, klass);
          // Past the count both are -1.
          scf::YieldOp::create(b, loc, v);
        });
    return value.getResult(0);
  }

  /// The sum of the counts.
  Value total(OpBuilder &b, Location loc) {
    return forEachClass(b, loc, ValueRange{constantI64(b, loc, 0)},
                        [](OpBuilder &b, Location loc, Value, Value, Value n,
                           ValueRange carried) -> SmallVector<Value> {
                          return {arith::AddIOp::create(b, loc, carried[0], n)};
                        })[0];
  }

  RewriterBase &b;
  sift::NmsOp op;
  Location loc;
  sift::FaultSet faults;
  int64_t batches = 0, classes = 0, boxes = 0, maxOut = 0;
  Value slots, counts;
};

struct DecomposeNmsPass final
    : sift::impl::DecomposeNmsBase<DecomposeNmsPass> {
  using DecomposeNmsBase::DecomposeNmsBase;

  void runOnOperation() override {
    sift::FaultSet faults;
    if (injectIouGe)
      faults.insert(sift::Fault::NmsIouGe);
    if (injectUnnormalizedCorners)
      faults.insert(sift::Fault::NmsUnnormalizedCorners);
    if (injectScoreThresholdGe)
      faults.insert(sift::Fault::NmsScoreThresholdGe);
    if (injectSortGlobalTemp)
      faults.insert(sift::Fault::NmsSortGlobalTemp);
    SmallVector<sift::NmsOp> ops;
    getOperation().walk([&](sift::NmsOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (sift::NmsOp op : ops) {
      if (!op.hasPureTensorSemantics()) {
        op.emitOpError("sift-decompose-nms needs tensors; run it before "
                       "bufferization");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      SmallVector<Value> replacements =
          Decomposition(rewriter, op, faults).build();
      rewriter.replaceOp(op, replacements);
    }
  }
};

} // namespace
