//===- RowKernels.cpp - Building blocks of cooperative row kernels ----===//
//
// The bitonic network of the workgroup kernels: log2(P) stages of s steps
// each over P slots of workgroup memory; in step (s, t) slot e is paired
// with e ^ (1 << (s - 1 - t)) and the pair is put in the direction of its
// block of 2^s slots. Every step is separated from the next by a barrier,
// so the threads of a workgroup may own any slots. The slots hold i32
// indices into staged keys; comparing (key, index) makes the network
// stable, which a plain bitonic network is not.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/RowKernels.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

int64_t sift::RowOp::rows() const {
  int64_t rows = 1;
  for (int64_t size : domain)
    rows *= size;
  return rows;
}

FailureOr<sift::RowOp> sift::describeRow(Operation *op) {
  RowOp row;
  row.op = op;
  MemRefType type;
  if (auto sort = dyn_cast<SortOp>(op)) {
    row.dim = sort.getDimension();
    row.staged.assign(sort.getOutputs().begin(), sort.getOutputs().end());
    type = cast<MemRefType>(sort.getKey().getType());
    row.before = [sort](OpBuilder &b, Location loc, Value x, Value y) {
      return buildSortLess(b, loc, sort, x, y);
    };
  } else {
    auto topk = cast<TopkOp>(op);
    row.dim = topk.getDimension();
    row.staged.push_back(topk.getInput());
    type = cast<MemRefType>(topk.getInput().getType());
    row.before = [topk](OpBuilder &b, Location loc, Value x, Value y) {
      return buildTopkBetter(b, loc, topk, x, y);
    };
  }
  if (!type.hasStaticShape())
    return op->emitOpError("a row kernel needs static shapes, found ") << type;
  row.n = type.getDimSize(row.dim);
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != row.dim)
      row.domain.push_back(type.getDimSize(d));
  return row;
}

SmallVector<Value> sift::delinearizeRow(OpBuilder &b, Location loc,
                                        Value linear,
                                        ArrayRef<int64_t> domain) {
  SmallVector<Value> ivs(domain.size());
  for (int64_t d = static_cast<int64_t>(domain.size()) - 1; d >= 0; --d) {
    Value size = arith::ConstantIndexOp::create(b, loc, domain[d]);
    ivs[d] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  return ivs;
}

SmallVector<Value> sift::rowElementIndices(ArrayRef<Value> rowIvs,
                                           int64_t dim, Value position) {
  SmallVector<Value> indices(rowIvs.begin(), rowIvs.end());
  indices.insert(indices.begin() + dim, position);
  return indices;
}

void sift::forEachOfThread(
    OpBuilder &b, Location loc, Value tid, Value upper, Value threads,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, tid, upper, threads, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value e, ValueRange) {
                       body(b, loc, e);
                       scf::YieldOp::create(b, loc);
                     });
}

Value sift::buildKeyIndexBefore(OpBuilder &b, Location loc,
                                const KeyBefore &before, Value ka, Value ia,
                                Value kb, Value ib) {
  Value ab = before(b, loc, ka, kb);
  Value ba = before(b, loc, kb, ka);
  Value notBa = arith::XOrIOp::create(
      b, loc, ba, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  Value byIndex =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ia, ib);
  Value tie = arith::AndIOp::create(b, loc, notBa, byIndex);
  return arith::OrIOp::create(b, loc, ab, tie);
}

Value sift::buildSlotBefore(OpBuilder &b, Location loc,
                            const KeyBefore &before, Value keys, Value count,
                            Value sa, Value sb) {
  Value aPad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sa, count);
  Value bPad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, sb, count);
  Value anyPad = arith::OrIOp::create(b, loc, aPad, bPad);
  auto choose = scf::IfOp::create(
      b, loc, anyPad,
      [&](OpBuilder &b, Location loc) {
        Value byIndex =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, sa, sb);
        scf::YieldOp::create(b, loc, byIndex);
      },
      [&](OpBuilder &b, Location loc) {
        auto load = [&](Value slot) -> Value {
          Value at = arith::IndexCastOp::create(b, loc, b.getIndexType(), slot);
          return memref::LoadOp::create(b, loc, keys, at);
        };
        Value ka = load(sa), kb = load(sb);
        scf::YieldOp::create(b, loc,
                             buildKeyIndexBefore(b, loc, before, ka, sa, kb, sb));
      });
  return choose.getResult(0);
}

namespace {

/// One compare-exchange of the network: slot e and its partner l = e ^ j,
/// done by the owner of the lower slot, ascending when e's block of
/// `block` slots is an even one.
void compareExchange(OpBuilder &b, Location loc, Value slots, Value e,
                     Value j, Value block,
                     function_ref<Value(OpBuilder &, Location, Value, Value)>
                         goesBefore) {
  Value l = arith::XOrIOp::create(b, loc, e, j);
  Value upper = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, l, e);
  scf::IfOp::create(b, loc, upper, [&](OpBuilder &b, Location loc) {
    Value a = memref::LoadOp::create(b, loc, slots, e);
    Value c = memref::LoadOp::create(b, loc, slots, l);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value up = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     arith::AndIOp::create(b, loc, e, block),
                                     zero);
    Value first = arith::SelectOp::create(b, loc, up, c, a);
    Value second = arith::SelectOp::create(b, loc, up, a, c);
    Value swap = goesBefore(b, loc, first, second);
    scf::IfOp::create(b, loc, swap, [&](OpBuilder &b, Location loc) {
      memref::StoreOp::create(b, loc, c, slots, e);
      memref::StoreOp::create(b, loc, a, slots, l);
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
}

} // namespace

void sift::buildBitonicSort(
    OpBuilder &b, Location loc, Value tid, Value threads, int64_t padded,
    Value slots, function_ref<Value(OpBuilder &, Location, Value, Value)>
                     goesBefore,
    bool barriers) {
  int64_t stages = 0;
  while ((int64_t{1} << stages) < padded)
    ++stages;
  if (stages == 0)
    return;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value size = arith::ConstantIndexOp::create(b, loc, padded);
  Value end = arith::ConstantIndexOp::create(b, loc, stages + 1);
  scf::ForOp::create(
      b, loc, one, end, one, ValueRange{},
      [&](OpBuilder &b, Location loc, Value s, ValueRange) {
        Value block = arith::ShLIOp::create(b, loc, one, s);
        scf::ForOp::create(
            b, loc, zero, s, one, ValueRange{},
            [&](OpBuilder &b, Location loc, Value t, ValueRange) {
              Value shift = arith::SubIOp::create(
                  b, loc, arith::SubIOp::create(b, loc, s, one), t);
              Value j = arith::ShLIOp::create(b, loc, one, shift);
              forEachOfThread(b, loc, tid, size, threads,
                              [&](OpBuilder &b, Location loc, Value e) {
                                compareExchange(b, loc, slots, e, j, block,
                                                goesBefore);
                              });
              if (barriers)
                gpu::BarrierOp::create(b, loc);
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
}

void sift::buildLaunch(OpBuilder &b, Location loc, int64_t blocks,
                       int64_t threads,
                       function_ref<void(OpBuilder &, Value, Value)> body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, blocks), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch.getBlockIds().x, launch.getThreadIds().x);
}

MemRefType sift::workgroupMemRefType(MLIRContext *context, int64_t size,
                                     Type element) {
  auto space = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  return MemRefType::get({size}, element, MemRefLayoutAttrInterface(), space);
}

int64_t sift::nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}
