//===- WorkgroupRows.cpp - A workgroup of threads per sort or top-k row ---===//
//
// The cooperative algorithm of the distribute pipeline (lowering config
// algorithm `workgroup_row`). Each sift op on memrefs becomes one gpu.launch
// with a workgroup per row of its iteration domain:
//
//   stage:   threads copy the row into workgroup memory, idx[e] = e
//   barrier
//   bitonic: for each stage and step, threads compare-exchange idx[] pairs
//            by (key, index), padding to a power of two with "after every
//            element" slots; a barrier after every step
//   write:   threads copy operand[idx[e]] back to the row (top-k: the first
//            k, with idx[e] as the index result)
//
// Sorting indices by (key, index) is a strict total order, so the network
// gives the stable order SEMANTICS.md asks for (and top-k's lower index on
// ties) whatever the comparator. Staging buffers are workgroup memref.allocs;
// the GPU tail turns them into workgroup attributions.
//
// `sift.nms_per_class` with `workgroup_row` gets a workgroup per (batch,
// class) that builds its suppression bit-mask in parallel (WorkgroupNms.cpp).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"
#include "pipelines/Transforms/WorkgroupNms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-workgroup-rows"

namespace sift {
#define GEN_PASS_DEF_WORKGROUPROWS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// What the launch of one op needs to know about it.
struct RowOp {
  Operation *op;
  int64_t dim;                   // the sorted / selected dimension
  int64_t n;                     // its size
  SmallVector<Value> staged;     // operands copied to workgroup memory
  SmallVector<int64_t> domain;   // the other dimensions' sizes
  /// The strict "a goes before b" of two staged keys.
  std::function<Value(OpBuilder &, Location, Value, Value)> before;
};

FailureOr<RowOp> describe(Operation *op) {
  RowOp row;
  row.op = op;
  MemRefType type;
  if (auto sort = dyn_cast<sift::SortOp>(op)) {
    row.dim = sort.getDimension();
    row.staged.assign(sort.getOutputs().begin(), sort.getOutputs().end());
    type = cast<MemRefType>(sort.getKey().getType());
    row.before = [sort](OpBuilder &b, Location loc, Value x, Value y) {
      return sift::buildSortLess(b, loc, sort, x, y);
    };
  } else {
    auto topk = cast<sift::TopkOp>(op);
    row.dim = topk.getDimension();
    row.staged.push_back(topk.getInput());
    type = cast<MemRefType>(topk.getInput().getType());
    row.before = [topk](OpBuilder &b, Location loc, Value x, Value y) {
      return sift::buildTopkBetter(b, loc, topk, x, y);
    };
  }
  if (!type.hasStaticShape())
    return op->emitOpError("workgroup_row needs static shapes, found ")
           << type;
  row.n = type.getDimSize(row.dim);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != row.dim)
      row.domain.push_back(type.getDimSize(d));
  return row;
}

int64_t nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

/// Builds `for (e = tid; e < upper; e += threads) body(e)`.
void forEachOfThread(OpBuilder &b, Location loc, Value tid, Value upper,
                     Value threads,
                     function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, tid, upper, threads, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value e, ValueRange) {
                       body(b, loc, e);
                       scf::YieldOp::create(b, loc);
                     });
}

class Lowering {
public:
  Lowering(RewriterBase &rewriter, const RowOp &row, int64_t threads,
           bool barriers)
      : b(rewriter), row(row), threads(threads), barriers(barriers),
        loc(row.op->getLoc()) {}

  void build() {
    int64_t rows = 1;
    for (int64_t size : row.domain)
      rows *= size;
    if (rows == 0 || row.n == 0)
      return; // No work.
    Value one = constant(1);
    auto launch = gpu::LaunchOp::create(b, loc, constant(rows), one, one,
                                        constant(threads), one, one);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&launch.getBody().front());
    tid = launch.getThreadIds().x;
    threadCount = constant(threads);
    rowIvs = delinearize(launch.getBlockIds().x);
    padded = nextPowerOfTwo(row.n);
    allocateStaging();
    stageIn();
    barrier(b);
    sortIndices();
    writeBack();
  }

private:
  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value constantI32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }

  void barrier(OpBuilder &b) {
    if (barriers)
      gpu::BarrierOp::create(b, loc);
  }

  /// The domain indices (row-major) of the workgroup's row.
  SmallVector<Value> delinearize(Value linear) {
    SmallVector<Value> ivs(row.domain.size());
    for (int64_t d = static_cast<int64_t>(row.domain.size()) - 1; d >= 0;
         --d) {
      Value size = constant(row.domain[d]);
      ivs[d] = arith::RemUIOp::create(b, loc, linear, size);
      linear = arith::DivUIOp::create(b, loc, linear, size);
    }
    return ivs;
  }

  /// The indices of element `position` of the row in an operand.
  SmallVector<Value> at(Value position) {
    SmallVector<Value> indices(rowIvs.begin(), rowIvs.end());
    indices.insert(indices.begin() + row.dim, position);
    return indices;
  }

  MemRefType workgroupType(int64_t size, Type element) {
    auto space = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    return MemRefType::get({size}, element, MemRefLayoutAttrInterface(),
                           space);
  }

  void allocateStaging() {
    for (Value operand : row.staged)
      staging.push_back(memref::AllocOp::create(
          b, loc,
          workgroupType(row.n,
                        cast<MemRefType>(operand.getType()).getElementType())));
    indices = memref::AllocOp::create(
        b, loc, workgroupType(padded, b.getI32Type()));
  }

  void stageIn() {
    forEachOfThread(b, loc, tid, constant(row.n), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      for (auto [operand, stage] :
                           llvm::zip(row.staged, staging)) {
                        Value v = memref::LoadOp::create(b, loc, operand, at(e));
                        memref::StoreOp::create(b, loc, v, stage, e);
                      }
                    });
    forEachOfThread(b, loc, tid, constant(padded), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      Value i = arith::IndexCastOp::create(b, loc,
                                                           b.getI32Type(), e);
                      memref::StoreOp::create(b, loc, i, indices, e);
                    });
  }

  /// "Element ia goes before element ib": padding (an index >= n) after
  /// every element; otherwise by key, then by index.
  Value goesBefore(OpBuilder &b, Location loc, Value ia, Value ib) {
    Value n = arith::ConstantIntOp::create(b, loc, b.getI32Type(), row.n);
    Value aPad =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, ia, n);
    Value bPad =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, ib, n);
    Value anyPad = arith::OrIOp::create(b, loc, aPad, bPad);
    Value byIndex =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ia, ib);
    auto choose = scf::IfOp::create(
        b, loc, anyPad,
        [&](OpBuilder &b, Location loc) {
          scf::YieldOp::create(b, loc, byIndex);
        },
        [&](OpBuilder &b, Location loc) {
          Value ka = memref::LoadOp::create(
              b, loc, staging.front(),
              arith::IndexCastOp::create(b, loc, b.getIndexType(), ia)
                  .getResult());
          Value kb = memref::LoadOp::create(
              b, loc, staging.front(),
              arith::IndexCastOp::create(b, loc, b.getIndexType(), ib)
                  .getResult());
          Value ab = row.before(b, loc, ka, kb);
          Value ba = row.before(b, loc, kb, ka);
          Value notBa = arith::XOrIOp::create(
              b, loc, ba,
              arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
          Value tie = arith::AndIOp::create(b, loc, notBa, byIndex);
          scf::YieldOp::create(b, loc,
                               arith::OrIOp::create(b, loc, ab, tie).getResult());
        });
    return choose.getResult(0);
  }

  /// The bitonic network over idx[0, padded):
  ///   for s in [1, log2 P]: for t in [0, s): j = 1 << (s - 1 - t):
  ///     for e of this thread: l = e ^ j; if l > e:
  ///       up = (e & (1 << s)) == 0
  ///       swap when (up ? idx[l] before idx[e] : idx[e] before idx[l])
  ///     barrier
  void sortIndices() {
    int64_t stages = 0;
    while ((int64_t{1} << stages) < padded)
      ++stages;
    if (stages == 0)
      return;
    Value one = constant(1);
    scf::ForOp::create(
        b, loc, one, constant(stages + 1), one, ValueRange{},
        [&](OpBuilder &b, Location loc, Value s, ValueRange) {
          Value block = arith::ShLIOp::create(b, loc, one, s);
          scf::ForOp::create(
              b, loc, constant(0), s, one, ValueRange{},
              [&](OpBuilder &b, Location loc, Value t, ValueRange) {
                Value shift = arith::SubIOp::create(
                    b, loc, arith::SubIOp::create(b, loc, s, one), t);
                Value j = arith::ShLIOp::create(b, loc, one, shift);
                forEachOfThread(b, loc, tid, constant(padded), threadCount,
                                [&](OpBuilder &b, Location loc, Value e) {
                                  compareExchange(b, loc, e, j, block);
                                });
                barrier(b);
                scf::YieldOp::create(b, loc);
              });
          scf::YieldOp::create(b, loc);
        });
  }

  void compareExchange(OpBuilder &b, Location loc, Value e, Value j,
                       Value block) {
    Value l = arith::XOrIOp::create(b, loc, e, j);
    Value upper =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, l, e);
    scf::IfOp::create(b, loc, upper, [&](OpBuilder &b, Location loc) {
      Value a = memref::LoadOp::create(b, loc, indices, e);
      Value c = memref::LoadOp::create(b, loc, indices, l);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value up = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq,
          arith::AndIOp::create(b, loc, e, block), zero);
      Value first = arith::SelectOp::create(b, loc, up, c, a);
      Value second = arith::SelectOp::create(b, loc, up, a, c);
      Value swap = goesBefore(b, loc, first, second);
      scf::IfOp::create(b, loc, swap, [&](OpBuilder &b, Location loc) {
        memref::StoreOp::create(b, loc, c, indices, e);
        memref::StoreOp::create(b, loc, a, indices, l);
        scf::YieldOp::create(b, loc);
      });
      scf::YieldOp::create(b, loc);
    });
  }

  void writeBack() {
    if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
      forEachOfThread(
          b, loc, tid, constant(topk.getK()), threadCount,
          [&](OpBuilder &b, Location loc, Value e) {
            Value i = memref::LoadOp::create(b, loc, indices, e);
            Value source =
                arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
            Value v = memref::LoadOp::create(b, loc, staging.front(), source);
            memref::StoreOp::create(b, loc, v, topk.getValuesInit(), at(e));
            Value i64 = arith::ExtSIOp::create(b, loc, b.getI64Type(), i);
            memref::StoreOp::create(b, loc, i64, topk.getIndicesInit(), at(e));
          });
      return;
    }
    forEachOfThread(b, loc, tid, constant(row.n), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      Value i = memref::LoadOp::create(b, loc, indices, e);
                      Value source = arith::IndexCastOp::create(
                          b, loc, b.getIndexType(), i);
                      for (auto [operand, stage] :
                           llvm::zip(row.staged, staging)) {
                        Value v = memref::LoadOp::create(b, loc, stage, source);
                        memref::StoreOp::create(b, loc, v, operand, at(e));
                      }
                    });
  }

  RewriterBase &b;
  const RowOp &row;
  int64_t threads;
  bool barriers;
  Location loc;
  int64_t padded = 1;
  Value tid, threadCount, indices;
  SmallVector<Value> rowIvs, staging;
};

/// Workgroup memory (bytes) an NMS suppression mask may take; a larger one
/// is a host-allocated global buffer. Half of NVIDIA's static 48 KiB.
constexpr int64_t kNmsMaskBudget = 24 * 1024;

struct WorkgroupRowsPass final
    : sift::impl::WorkgroupRowsBase<WorkgroupRowsPass> {
  using WorkgroupRowsBase::WorkgroupRowsBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!isa<sift::SortOp, sift::TopkOp, sift::NmsPerClassOp>(op))
        return;
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      if (config && config.getAlgorithm() == sift::Algorithm::WorkgroupRow)
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (op->getNumResults() != 0) {
        op->emitOpError("must be bufferized before sift-workgroup-rows");
        return signalPassFailure();
      }
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ForallOp>() ||
          op->getParentOfType<scf::ParallelOp>()) {
        op->emitOpError("workgroup_row needs the op at the top level, not "
                        "inside distributed loops");
        return signalPassFailure();
      }
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      rewriter.setInsertionPoint(op);
      if (auto nms = dyn_cast<sift::NmsPerClassOp>(op)) {
        if (failed(sift::lowerNmsPerClassToWorkgroups(
                rewriter, nms, config.getWorkgroupSize()[0], !injectNoBarrier,
                kNmsMaskBudget)))
          return signalPassFailure();
        rewriter.eraseOp(op);
        continue;
      }
      FailureOr<RowOp> row = describe(op);
      if (failed(row))
        return signalPassFailure();
      Lowering(rewriter, *row, config.getWorkgroupSize()[0], !injectNoBarrier)
          .build();
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
