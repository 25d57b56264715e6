//===- RegisterSelect.cpp - One-pass top-k of small k in registers --------===//
//
// The `register_select` algorithm of the distribute pipeline for sift.topk
// with a small k (at most kRegisterSelectMaxK) and keys of at most 32 bits.
// Every element becomes one i64 composite, larger = better: its key's
// order-preserving bits (RowKernels.h: -0 = +0, one NaN above +inf,
// inverted for `smallest`) above its row position inverted (2^32 - 1 -
// position), so ties go to the lower index and no two elements of a row
// are equal; 0 is below every element and marks an empty slot.
//
//   select: a workgroup per chunk of `chunk` elements of a row. Each thread
//           walks the chunk with the workgroup's stride (coalesced), four
//           loads ahead, and keeps its k best composites in registers,
//           sorted (scf.for iteration values): a composite better than the
//           k-th is inserted branch-free, new[j] = max(old[j], min(c,
//           old[j - 1])). For k = 1 a thread keeps its best order bits and
//           item in 32-bit words instead (no composite per element: an
//           argmax's walk was bound by the SMs' 64-bit work on the H200). The threads' lists meet in workgroup memory
//           (slot j of list t at j * threads + t) and a tree merges them:
//           at each level the first half of the threads still needed each
//           insert one list of a pair into the other, from one half of the
//           workgroup memory into the other, a barrier between levels. The
//           workgroup's k best are written to the outputs (value reloaded from
//           the row by position, since order bits lose -0 and NaN payloads) or,
//           when a row has several chunks, to a plan buffer of candidates;
//   merge:  (rows of several chunks) a workgroup per row selects the k
//           best of its chunks' candidates the same way, reading
//           composites instead of keys, and writes the outputs.
//
// One read of the input, one or two dispatches; no atomics, no workgroup
// waits for another. The fault select-merge-one-level-short stops the tree
// a level early, so the upper half of a workgroup's threads is never heard.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Transforms/RegisterSelect.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

bool sift::registerSelectable(Operation *op) {
  auto topk = dyn_cast<TopkOp>(op);
  if (!topk)
    return false;
  Type element = topk.getInputType().getElementType();
  return topk.getK() >= 1 && topk.getK() <= kRegisterSelectMaxK &&
         element.isIntOrFloat() && element.getIntOrFloatBitWidth() <= 32;
}

namespace {

/// Loads a thread issues before it inserts.
constexpr int64_t kLoadsAhead = 4;

class RegisterLowering : sift::RowKernelBuilder {
public:
  RegisterLowering(RewriterBase &rewriter, const sift::RowOp &row,
                   const sift::RegisterSelectOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options), topk(cast<sift::TopkOp>(row.op)) {}

  LogicalResult build() {
    rows = row.rows();
    k = topk.getK();
    if (!sift::registerSelectable(topk))
      return topk.emitOpError("register_select needs 1 <= k <= ")
             << sift::kRegisterSelectMaxK
             << " and keys of at most 32 bits, found k = " << k << " of "
             << topk.getInputType().getElementType();
    if (row.n > (int64_t{1} << 31) - 1)
      return topk.emitOpError("register_select packs a row position in 32 "
                              "bits, but the row has ")
             << row.n << " elements";
    if (options.chunk < 1 || options.threads < 1)
      return topk.emitOpError("register_select needs a chunk and threads");
    if (rows == 0 || row.n == 0)
      return success(); // No work.
    chunks = (row.n + options.chunk - 1) / options.chunk;
    if (chunks == 1) {
      buildSelect(/*toCandidates=*/false);
      return success();
    }
    candidates = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, chunks * k}, b.getI64Type()));
    buildSelect(/*toCandidates=*/true);
    buildMerge();
    return success();
  }

private:
  /// The composite of key `x` at row position `position` (index).
  Value composite(OpBuilder &b, Value x, Value position) {
    Value bits = sift::buildOrderBits(b, loc, x, !topk.isLargest());
    if (bits.getType().getIntOrFloatBitWidth() < 64)
      bits = arith::ExtUIOp::create(b, loc, b.getI64Type(), bits);
    Value high = arith::ShLIOp::create(b, loc, bits, i64(b, 32));
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), position);
    Value inverted = sub(b, i64(b, 0xffffffffLL), wide);
    return arith::OrIOp::create(b, loc, high, inverted);
  }

  /// The row position a composite carries (index).
  Value positionOf(OpBuilder &b, Value c) {
    Value low = arith::AndIOp::create(b, loc, c, i64(b, 0xffffffffLL));
    return toIndex(b, sub(b, i64(b, 0xffffffffLL), low));
  }

  /// `list` (k composites, best first) with `c` inserted when it is better
  /// than the last; branch-free inside.
  SmallVector<Value> insert(OpBuilder &b, ArrayRef<Value> list, Value c) {
    Value better = cmp(b, arith::CmpIPredicate::ugt, c, list.back());
    auto ifOp = scf::IfOp::create(
        b, loc, better,
        [&](OpBuilder &b, Location) {
          SmallVector<Value> next;
          next.push_back(arith::MaxUIOp::create(b, loc, list[0], c));
          for (int64_t j = 1; j < k; ++j)
            next.push_back(arith::MaxUIOp::create(
                b, loc, list[j],
                arith::MinUIOp::create(b, loc, c, list[j - 1])));
          scf::YieldOp::create(b, loc, next);
        },
        [&](OpBuilder &b, Location) { scf::YieldOp::create(b, loc, list); });
    return SmallVector<Value>(ifOp.getResults());
  }

  /// The kLoadsAhead items of one step of a walk from `base`, each a
  /// threads' stride apart, all loaded before any is used: each item's
  /// `load(b, e)` and e. Past `length` an item is `empty` (read clamped,
  /// not used).
  SmallVector<std::pair<Value, Value>>
  loadAhead(OpBuilder &b, Value base, Value length,
            function_ref<Value(OpBuilder &, Value)> load, Value empty) {
    SmallVector<std::pair<Value, Value>> items;
    Value last = sub(b, length, index(b, 1));
    for (int64_t u = 0; u < kLoadsAhead; ++u) {
      Value at = add(b, base, index(b, u * options.threads));
      Value inside = cmp(b, arith::CmpIPredicate::ult, at, length);
      Value v = load(b, minu(b, at, last));
      items.push_back({arith::SelectOp::create(b, loc, inside, v, empty), at});
    }
    return items;
  }

  /// A thread's k best of `length` items dealt with the workgroup's
  /// stride; `load(b, item)` gives an item's composite.
  SmallVector<Value> walk(OpBuilder &b, Value tid, Value length,
                          function_ref<Value(OpBuilder &, Value)> load) {
    SmallVector<Value> empty(k, i64(b, 0));
    Value stride = index(b, options.threads * kLoadsAhead);
    auto loop = scf::ForOp::create(
        b, loc, tid, length, stride, empty,
        [&](OpBuilder &b, Location, Value base, ValueRange acc) {
          SmallVector<Value> list(acc.begin(), acc.end());
          for (auto [c, at] : loadAhead(b, base, length, load, i64(b, 0)))
            list = insert(b, list, c);
          scf::YieldOp::create(b, loc, list);
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// k = 1: a thread's best composite of the `length` keys dealt with the
  /// workgroup's stride, `bits(b, e)` giving key e's order bits as i32.
  /// The walk keeps the best order bits and their item in 32-bit words and
  /// builds the composite once at the end: a thread meets its items in
  /// increasing order, so a strictly better key is the only one to take
  /// (a tie keeps the lower index), and starting from bits 0 at the
  /// thread's first item is right whatever that item is. `position(b, e)`
  /// gives item e's row position. A thread with no item gives 0.
  Value walkBest(OpBuilder &b, Value tid, Value length,
                 function_ref<Value(OpBuilder &, Value)> bits,
                 function_ref<Value(OpBuilder &, Value)> position) {
    Value stride = index(b, options.threads * kLoadsAhead);
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    auto loop = scf::ForOp::create(
        b, loc, tid, length, stride, ValueRange{zero, tid},
        [&](OpBuilder &b, Location, Value base, ValueRange acc) {
          Value best = acc[0], item = acc[1];
          for (auto [v, at] : loadAhead(b, base, length, bits, zero)) {
            Value better = cmp(b, arith::CmpIPredicate::ugt, v, best);
            best = arith::SelectOp::create(b, loc, better, v, best);
            item = arith::SelectOp::create(b, loc, better, at, item);
          }
          scf::YieldOp::create(b, loc, ValueRange{best, item});
        });
    Value high = arith::ShLIOp::create(
        b, loc,
        arith::ExtUIOp::create(b, loc, b.getI64Type(), loop.getResult(0)),
        i64(b, 32));
    Value wide = arith::IndexCastUIOp::create(
        b, loc, b.getI64Type(), position(b, loop.getResult(1)));
    Value c = arith::OrIOp::create(b, loc, high,
                                   sub(b, i64(b, 0xffffffffLL), wide));
    Value any = cmp(b, arith::CmpIPredicate::ult, tid, length);
    return arith::SelectOp::create(b, loc, any, c, i64(b, 0));
  }

  /// Merges the threads' lists in workgroup memory `lists` (two halves of
  /// k * threads slots, list r's slot j at j * threads + r) down to one:
  /// at level l the first threads >> (l + 1) threads each merge lists 2t
  /// and 2t + 1 of one half into list t of the other, so the active threads
  /// are packed into the fewest warps (a tree over thread ids kept every
  /// warp busy for five levels: 3.4x the instructions of the walk on the
  /// H100). Loops, not unrolled, so that a kernel's code stays small.
  /// Returns the slot where the result's list starts (its half).
  Value treeMerge(OpBuilder &b, Value tid, Value lists, ArrayRef<Value> list) {
    int64_t size = k * options.threads;
    Value threads = index(b, options.threads);
    auto slot = [&](OpBuilder &b, Value base, Value j, Value r) {
      return add(b, base, add(b, mul(b, j, threads), r));
    };
    for (int64_t j = 0; j < k; ++j)
      memref::StoreOp::create(b, loc, list[j], lists,
                              slot(b, index(b, 0), index(b, j), tid));
    int64_t levels = 0;
    while ((int64_t{1} << levels) < options.threads)
      ++levels;
    if (options.shortMerge && levels > 0)
      --levels;
    scf::ForOp::create(
        b, loc, index(b, 0), index(b, levels), index(b, 1), ValueRange{},
        [&](OpBuilder &b, Location, Value level, ValueRange) {
          gpu::BarrierOp::create(b, loc);
          Value odd = arith::AndIOp::create(b, loc, level, index(b, 1));
          Value from = mul(b, odd, index(b, size));
          Value to = sub(b, index(b, size), from);
          Value count = arith::ShRUIOp::create(b, loc, threads,
                                               add(b, level, index(b, 1)));
          Value active = cmp(b, arith::CmpIPredicate::ult, tid, count);
          scf::IfOp::create(b, loc, active, [&](OpBuilder &b, Location) {
            Value first = add(b, tid, tid);
            Value second = add(b, first, index(b, 1));
            SmallVector<Value> mine;
            for (int64_t j = 0; j < k; ++j)
              mine.push_back(memref::LoadOp::create(
                  b, loc, lists, slot(b, from, index(b, j), first)));
            auto merged = scf::ForOp::create(
                b, loc, index(b, 0), index(b, k), index(b, 1), mine,
                [&](OpBuilder &b, Location, Value j, ValueRange kept) {
                  Value c = memref::LoadOp::create(b, loc, lists,
                                                   slot(b, from, j, second));
                  SmallVector<Value> now(kept.begin(), kept.end());
                  scf::YieldOp::create(b, loc, insert(b, now, c));
                });
            for (int64_t j = 0; j < k; ++j)
              memref::StoreOp::create(b, loc, merged.getResult(j), lists,
                                      slot(b, to, index(b, j), tid));
            scf::YieldOp::create(b, loc);
          });
          scf::YieldOp::create(b, loc);
        });
    gpu::BarrierOp::create(b, loc);
    return index(b, (levels % 2) * size);
  }

  /// The workgroup's j-th best composite after treeMerge (`base`: where
  /// its result list starts).
  Value loadBest(OpBuilder &b, Value lists, Value base, Value j) {
    return memref::LoadOp::create(
        b, loc, lists, add(b, base, mul(b, j, index(b, options.threads))));
  }

  /// Threads j < k write the workgroup's j-th best, from `lists`, to the
  /// outputs of row `rowIvs`.
  void writeResults(OpBuilder &b, Value tid, Value lists, Value base,
                    ArrayRef<Value> rowIvs) {
    sift::forEachOfThread(
        b, loc, tid, index(b, k), index(b, options.threads),
        [&](OpBuilder &b, Location loc, Value j) {
          Value position = positionOf(b, loadBest(b, lists, base, j));
          Value x = memref::LoadOp::create(
              b, loc, row.staged.front(),
              sift::rowElementIndices(rowIvs, row.dim, position));
          SmallVector<Value> to = sift::rowElementIndices(rowIvs, row.dim, j);
          memref::StoreOp::create(b, loc, x, topk.getValuesInit(), to);
          memref::StoreOp::create(
              b, loc,
              arith::IndexCastUIOp::create(b, loc, b.getI64Type(), position),
              topk.getIndicesInit(), to);
        });
  }

  Value allocLists(OpBuilder &b) {
    return memref::AllocOp::create(
        b, loc,
        sift::workgroupMemRefType(b.getContext(), 2 * k * options.threads,
                                  b.getI64Type()));
  }

  /// A workgroup per chunk of a row selects the chunk's k best from the
  /// keys: to the outputs, or to the row's candidates.
  void buildSelect(bool toCandidates) {
    sift::buildLaunch(
        b, loc, rows * chunks, options.threads,
        [&](OpBuilder &b, Value block, Value tid) {
          Tile c = tileOf(b, block, chunks, options.chunk, row);
          Value lists = allocLists(b);
          auto key = [&](OpBuilder &b, Value e) -> Value {
            return memref::LoadOp::create(
                b, loc, row.staged.front(),
                sift::rowElementIndices(c.rowIvs, row.dim, add(b, c.start, e)));
          };
          SmallVector<Value> list;
          if (k == 1) {
            list.push_back(walkBest(
                b, tid, c.length,
                [&](OpBuilder &b, Value e) -> Value {
                  Value bits = sift::buildOrderBits(b, loc, key(b, e),
                                                    !topk.isLargest());
                  if (bits.getType().getIntOrFloatBitWidth() < 32)
                    bits = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
                  return bits;
                },
                [&](OpBuilder &b, Value e) { return add(b, c.start, e); }));
          } else {
            list = walk(b, tid, c.length, [&](OpBuilder &b, Value e) {
              return composite(b, key(b, e), add(b, c.start, e));
            });
          }
          Value base = treeMerge(b, tid, lists, list);
          if (!toCandidates) {
            writeResults(b, tid, lists, base, c.rowIvs);
            return;
          }
          sift::forEachOfThread(
              b, loc, tid, index(b, k), index(b, options.threads),
              [&](OpBuilder &b, Location loc, Value j) {
                Value best = loadBest(b, lists, base, j);
                Value to = add(b, mul(b, c.number, index(b, k)), j);
                memref::StoreOp::create(b, loc, best, candidates,
                                        ValueRange{c.r, to});
              });
        });
  }

  /// A workgroup per row selects the k best of its chunks' candidates.
  void buildMerge() {
    sift::buildLaunch(
        b, loc, rows, options.threads, [&](OpBuilder &b, Value r, Value tid) {
          Value lists = allocLists(b);
          SmallVector<Value> list =
              walk(b, tid, index(b, chunks * k), [&](OpBuilder &b, Value e) {
                return memref::LoadOp::create(b, loc, candidates,
                                              ValueRange{r, e})
                    .getResult();
              });
          Value base = treeMerge(b, tid, lists, list);
          writeResults(b, tid, lists, base,
                       sift::delinearizeRow(b, loc, r, row.domain));
        });
  }

  RewriterBase &b;
  const sift::RowOp &row;
  const sift::RegisterSelectOptions &options;
  sift::TopkOp topk;
  int64_t rows = 0, k = 0, chunks = 0;
  Value candidates;
};

} // namespace

LogicalResult
sift::lowerTopkByRegisterSelect(RewriterBase &rewriter, const RowOp &row,
                                const RegisterSelectOptions &options) {
  return RegisterLowering(rewriter, row, options).build();
}
