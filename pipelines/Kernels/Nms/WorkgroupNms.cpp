//===- WorkgroupNms.cpp - A workgroup per NMS (batch, class) --------------===//
//
// The cooperative NMS of the distribute pipeline (`sift.nms_per_class` with
// lowering config algorithm `workgroup_row`), the shape of the fast CUDA NMS
// kernels: one gpu.launch, a workgroup per (batch, class), whose candidates
// arrive sorted (sift-decompose-nms sorts the scores first, cooperatively
// too). With N candidates and W = ceil(N / 64) words per row:
//
//   mask:    threads build the suppression bit-mask in parallel, one 64-bit
//            word per (i, w): bit j - 64 w set when a later candidate j
//            (j > i) has IoU(j, i) > iou_threshold
//   barrier
//   select:  thread 0 walks the candidates in order, with a `removed` bit
//            row: candidate i is kept when it passes the score threshold,
//            there is room, and its bit is clear; keeping it ORs mask[i]
//            into `removed`
//
// A candidate is thus dropped exactly when an earlier kept box overlaps it
// by more than the threshold: the scalar implementation's rule. The mask
// lives in workgroup memory when it fits `maskBudget` bytes; otherwise it is
// a global buffer per (batch, class) allocated on the host (a plan
// temporary), never a per-thread heap allocation.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/Nms/WorkgroupNms.h"

#include "pipelines/Dialect/InjectedFaults.h"
#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

class NmsLowering {
public:
  NmsLowering(RewriterBase &rewriter, sift::NmsPerClassOp op, int64_t threads,
              bool barriers, int64_t maskBudget)
      : b(rewriter), op(op), threads(threads), barriers(barriers),
        maskBudget(maskBudget), loc(op.getLoc()) {
    auto scores = cast<MemRefType>(op.getSortedScores().getType());
    batches = scores.getDimSize(0);
    classes = scores.getDimSize(1);
    n = scores.getDimSize(2);
    words = (n + 63) / 64;
  }

  LogicalResult build() {
    auto scores = cast<MemRefType>(op.getSortedScores().getType());
    if (!scores.hasStaticShape())
      return op.emitOpError("workgroup_row needs static shapes, found ")
             << scores;
    int64_t rows = batches * classes;
    if (rows == 0)
      return success(); // No (batch, class): nothing to write.
    if (n == 0 || op.getMaxOutPerClass() <= 0)
      return op.emitOpError(
          "workgroup_row needs candidates and room for them (the strategy "
          "gives row_per_thread otherwise)");
    Type i64 = b.getI64Type();
    int64_t maskBytes = n * words * 8;
    bool maskInWorkgroup = maskBytes + words * 8 <= maskBudget;
    if (!maskInWorkgroup)
      globalMask = memref::AllocOp::create(
          b, loc, MemRefType::get({rows, n, words}, i64));
    Value one = index(1);
    auto launch = gpu::LaunchOp::create(b, loc, index(rows), one, one,
                                        index(threads), one, one);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&launch.getBody().front());
    tid = launch.getThreadIds().x;
    Value row = launch.getBlockIds().x;
    batch = arith::DivUIOp::create(b, loc, row, index(classes));
    klass = arith::RemUIOp::create(b, loc, row, index(classes));
    if (maskInWorkgroup)
      workgroupMask = memref::AllocOp::create(
          b, loc, workgroupType({n, words}, i64));
    removed = memref::AllocOp::create(b, loc, workgroupType({words}, i64));
    buildMask(row);
    if (barriers)
      gpu::BarrierOp::create(b, loc);
    buildSelection(row);
    return success();
  }

private:
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  MemRefType workgroupType(ArrayRef<int64_t> shape, Type element) {
    auto space = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(),
                           space);
  }

  /// The mask word (i, w) of this workgroup's (batch, class).
  SmallVector<Value> maskIndices(Value row, Value i, Value w) {
    if (workgroupMask)
      return {i, w};
    return {row, i, w};
  }
  Value mask() { return workgroupMask ? workgroupMask : globalMask; }

  /// The corners of sorted candidate `position` (its box from `order`).
  sift::NmsCorners cornersOf(OpBuilder &b, Location loc, Value position) {
    Value box = memref::LoadOp::create(b, loc, op.getOrder(),
                                       ValueRange{batch, klass, position});
    Value boxIndex =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), box);
    return sift::buildNmsCorners(b, loc, op, {batch, boxIndex});
  }

  /// Threads share the (i, w) words round-robin; `removed` starts clear.
  void buildMask(Value row) {
    bool iouGe = sift::hasInjectedFault(op, sift::Fault::NmsIouGe);
    Value threadCount = index(threads);
    scf::ForOp::create(
        b, loc, tid, index(words), threadCount, ValueRange{},
        [&](OpBuilder &b, Location loc, Value w, ValueRange) {
          Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
          memref::StoreOp::create(b, loc, zero, removed, w);
          scf::YieldOp::create(b, loc);
        });
    Value iouThreshold = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(op.getIouThreshold().convertToFloat()));
    scf::ForOp::create(
        b, loc, tid, index(n * words), threadCount, ValueRange{},
        [&](OpBuilder &b, Location loc, Value p, ValueRange) {
          Value wordsValue = arith::ConstantIndexOp::create(b, loc, words);
          Value i = arith::DivUIOp::create(b, loc, p, wordsValue);
          Value w = arith::RemUIOp::create(b, loc, p, wordsValue);
          Value c64 = arith::ConstantIndexOp::create(b, loc, 64);
          Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
          Value base = arith::MulIOp::create(b, loc, w, c64);
          Value afterI = arith::AddIOp::create(b, loc, i, c1);
          Value first = arith::MaxUIOp::create(b, loc, base, afterI);
          Value last = arith::MinUIOp::create(
              b, loc, arith::AddIOp::create(b, loc, base, c64),
              arith::ConstantIndexOp::create(b, loc, n));
          sift::NmsCorners kept = cornersOf(b, loc, i);
          Value zero = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
          // An empty range (first >= last) leaves the word clear.
          auto loop = scf::ForOp::create(
              b, loc, first, last, c1, ValueRange{zero},
              [&](OpBuilder &b, Location loc, Value j, ValueRange word) {
                sift::NmsCorners later = cornersOf(b, loc, j);
                // The scalar implementation's order: (candidate, kept).
                Value iou = sift::buildNmsIoU(b, loc, later, kept);
                Value over = arith::CmpFOp::create(
                    b, loc,
                    iouGe ? arith::CmpFPredicate::OGE
                          : arith::CmpFPredicate::OGT,
                    iou, iouThreshold);
                Value shift = arith::IndexCastOp::create(
                    b, loc, b.getI64Type(),
                    arith::SubIOp::create(b, loc, j, base));
                Value bit = arith::ShLIOp::create(
                    b, loc,
                    arith::ExtUIOp::create(b, loc, b.getI64Type(), over),
                    shift);
                scf::YieldOp::create(
                    b, loc,
                    arith::OrIOp::create(b, loc, word[0], bit).getResult());
              });
          memref::StoreOp::create(b, loc, loop.getResult(0), mask(),
                                  maskIndices(row, i, w));
          scf::YieldOp::create(b, loc);
        });
  }

  /// Thread 0 walks the sorted candidates and writes slots and the count.
  void buildSelection(Value row) {
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          tid, index(0));
    int64_t maxOut = op.getMaxOutPerClass();
    scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &b, Location loc) {
      Type i64 = b.getI64Type();
      Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
      Value oneI64 = arith::ConstantIntOp::create(b, loc, i64, 1);
      Value maxOutI64 = arith::ConstantIntOp::create(b, loc, i64, maxOut);
      Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
      Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
      Value c64 = arith::ConstantIndexOp::create(b, loc, 64);
      auto walk = scf::ForOp::create(
          b, loc, c0, arith::ConstantIndexOp::create(b, loc, n), c1,
          ValueRange{zero},
          [&](OpBuilder &b, Location loc, Value i, ValueRange iterArgs) {
            Value count = iterArgs[0];
            Value candidate = isCandidate(b, loc, i, count, maxOutI64);
            Value w = arith::DivUIOp::create(b, loc, i, c64);
            Value bitIndex = arith::IndexCastOp::create(
                b, loc, i64, arith::RemUIOp::create(b, loc, i, c64));
            Value word = memref::LoadOp::create(b, loc, removed, w);
            Value bit = arith::AndIOp::create(
                b, loc, arith::ShRUIOp::create(b, loc, word, bitIndex),
                oneI64);
            Value clear = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::eq, bit, zero);
            Value keep = arith::AndIOp::create(b, loc, candidate, clear);
            auto decide = scf::IfOp::create(
                b, loc, keep,
                [&](OpBuilder &b, Location loc) {
                  keepBox(b, loc, row, i, w, count, c1);
                  scf::YieldOp::create(
                      b, loc,
                      arith::AddIOp::create(b, loc, count, oneI64)
                          .getResult());
                },
                [&](OpBuilder &b, Location loc) {
                  scf::YieldOp::create(b, loc, count);
                });
            scf::YieldOp::create(b, loc, decide.getResult(0));
          });
      memref::StoreOp::create(b, loc, walk.getResult(0), op.getCountsInit(),
                              ValueRange{batch, klass});
      scf::YieldOp::create(b, loc);
    });
  }

  /// Whether sorted candidate `i` may be kept: fewer than max_out kept so
  /// far (`count`), and its score above the threshold (at or above with
  /// the fault nms-score-threshold-ge).
  Value isCandidate(OpBuilder &b, Location loc, Value i, Value count,
                    Value maxOutI64) {
    Value candidate = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                            count, maxOutI64);
    std::optional<APFloat> scoreThreshold = op.getScoreThreshold();
    if (!scoreThreshold)
      return candidate;
    bool scoreGe =
        sift::hasInjectedFault(op, sift::Fault::NmsScoreThresholdGe);
    Value score = memref::LoadOp::create(b, loc, op.getSortedScores(),
                                         ValueRange{batch, klass, i});
    if (!score.getType().isF32())
      score = arith::ExtFOp::create(b, loc, b.getF32Type(), score);
    Value bound = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(scoreThreshold->convertToFloat()));
    Value above = arith::CmpFOp::create(
        b, loc, scoreGe ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT,
        score, bound);
    return arith::AndIOp::create(b, loc, candidate, above);
  }

  /// Candidate `i` is kept at slot `count`: its box written, its mask row
  /// (words from `w` on) merged into the removed set.
  void keepBox(OpBuilder &b, Location loc, Value row, Value i, Value w,
               Value count, Value c1) {
    Value box = memref::LoadOp::create(b, loc, op.getOrder(),
                                       ValueRange{batch, klass, i});
    Value slot = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
    memref::StoreOp::create(b, loc, box, op.getSlotsInit(),
                            ValueRange{batch, klass, slot});
    scf::ForOp::create(
        b, loc, w, arith::ConstantIndexOp::create(b, loc, words), c1,
        ValueRange{}, [&](OpBuilder &b, Location loc, Value v, ValueRange) {
          Value mine = memref::LoadOp::create(b, loc, removed, v);
          Value theirs =
              memref::LoadOp::create(b, loc, mask(), maskIndices(row, i, v));
          memref::StoreOp::create(
              b, loc, arith::OrIOp::create(b, loc, mine, theirs).getResult(),
              removed, v);
          scf::YieldOp::create(b, loc);
        });
  }

  RewriterBase &b;
  sift::NmsPerClassOp op;
  int64_t threads;
  bool barriers;
  int64_t maskBudget;
  Location loc;
  int64_t batches = 0, classes = 0, n = 0, words = 0;
  Value tid, batch, klass, removed, workgroupMask, globalMask;
};

} // namespace

LogicalResult sift::lowerNmsPerClassToWorkgroups(RewriterBase &rewriter,
                                                 NmsPerClassOp op,
                                                 int64_t threads, bool barriers,
                                                 int64_t maskBudget) {
  return NmsLowering(rewriter, op, threads, barriers, maskBudget).build();
}
