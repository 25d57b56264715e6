//===- MergeRows.cpp - Tile sorts and merge passes for long rows ----------===//
//
// The `merge_rows` algorithm of the distribute pipeline: a sift.sort or
// sift.topk whose rows do not fit one workgroup's memory becomes a sequence
// of dispatches over host-allocated plan buffers, one sequence for all rows
// of the op (no host loop over rows):
//
//   1. tile sorts: a workgroup per tile of T elements of a row (T = the
//      config's row_tile). Its threads stage the tile's keys and a slot per
//      element in workgroup memory, sort the slots with the bitonic network
//      of RowKernels.h by (key, index), and write the tile's first
//      min(T, K) (key, row index) pairs to the run buffers (K = n for a
//      sort, k for a top-k). A sort's other operands are copied aside, as
//      the op sorts them in place.
//   2. merge passes: ceil(log2(tiles)) dispatches, each joining pairs of
//      sorted runs of width w into runs of 2w, ping-ponging between two run
//      buffers, by merge path: a workgroup makes min(T, 1024) outputs of a
//      pair (with at most a quarter as many threads). Two
//      binary searches along the diagonals of its first and last output
//      find the parts of both runs that make them (reading a few elements
//      of global memory); the parts are staged in workgroup memory (read
//      once, coalesced), and each element's place is its rank in its own
//      part plus the number of elements of the other part that go before
//      it (a binary search in workgroup memory). (key, index) is a strict
//      total order, so the places are a permutation and the merge is
//      stable. Top-k keeps only the first K of every run.
//   3. write-out: the first K (key, index) pairs of each row become the
//      op's results (a sort's other operands gathered from their copies by
//      index; top-k's indices widened to i64).
//
// The tile sorts and merges use workgroup memory and barriers within a
// workgroup; the dispatches are ordered by the plan, so no workgroup waits
// for another. The fault
// merge-drop-last makes every merge lose the last element of its second run.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/MergeRows/MergeRows.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace {

/// A pair of run buffers: keys and i32 row indices, [rows, n] each.
struct Runs {
  Value keys, indices;
};

/// The most outputs one workgroup of a merge pass makes.
constexpr int64_t kMergeTile = 1024;

class MergeLowering : sift::RowKernelBuilder {
public:
  MergeLowering(RewriterBase &rewriter, const sift::RowOp &row,
                const sift::MergeRowsOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options) {}

  LogicalResult build() {
    rows = row.rows();
    kept = row.n;
    if (auto topk = dyn_cast<sift::TopkOp>(row.op))
      kept = topk.getK();
    if (rows == 0 || row.n == 0 || kept == 0)
      return success(); // No work.
    if (row.n > (int64_t{1} << 31) - 1)
      return row.op->emitOpError("merge_rows indexes a row with i32, but it "
                                 "has ")
             << row.n << " elements";
    tiles = (row.n + options.tile - 1) / options.tile;
    keyType = elementType(row.staged.front());
    Runs current = allocateRuns();
    for (Value operand : ArrayRef<Value>(row.staged).drop_front())
      copies.push_back(allocate(elementType(operand)));
    buildTileSorts(current);
    if (tiles > 1) {
      Runs other = allocateRuns();
      for (int64_t width = options.tile; width < row.n; width *= 2) {
        buildMergePass(width, current, other);
        std::swap(current, other);
      }
    }
    buildWriteOut(current);
    return success();
  }

private:
  static Type elementType(Value shaped) {
    return cast<MemRefType>(shaped.getType()).getElementType();
  }

  /// A [rows, n] plan buffer (a host allocation the plan owns).
  Value allocate(Type element) {
    return memref::AllocOp::create(
        b, loc, MemRefType::get({rows, row.n}, element));
  }
  Runs allocateRuns() {
    return {allocate(keyType), allocate(b.getI32Type())};
  }

  void launch(int64_t blocks,
              function_ref<void(OpBuilder &, Value, Value)> body) {
    sift::buildLaunch(b, loc, blocks, options.threads, body);
  }

  /// Step 1: a workgroup per tile sorts it in workgroup memory.
  void buildTileSorts(Runs out) {
    int64_t tile = options.tile;
    launch(rows * tiles, [&](OpBuilder &b, Value block, Value tid) {
      Value threads = index(b, options.threads);
      Tile c = tileOf(b, block, tiles, tile, row);
      Value r = c.r, start = c.start, len = c.length;
      SmallVector<Value> rowIvs = c.rowIvs;
      Value keys = memref::AllocOp::create(
          b, loc, sift::workgroupMemRefType(b.getContext(), tile, keyType));
      Value slots = memref::AllocOp::create(
          b, loc,
          sift::workgroupMemRefType(b.getContext(), tile, b.getI32Type()));
      // Stage the keys, a slot per element (slots >= len are padding), and
      // copy a sort's other operands aside.
      sift::forEachOfThread(
          b, loc, tid, index(b, tile), threads,
          [&](OpBuilder &b, Location loc, Value e) {
            Value slot = arith::IndexCastOp::create(b, loc, b.getI32Type(), e);
            memref::StoreOp::create(b, loc, slot, slots, e);
            Value inRow =
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e, len);
            scf::IfOp::create(b, loc, inRow, [&](OpBuilder &b, Location loc) {
              Value at = arith::AddIOp::create(b, loc, start, e);
              SmallVector<Value> source =
                  sift::rowElementIndices(rowIvs, row.dim, at);
              Value key =
                  memref::LoadOp::create(b, loc, row.staged.front(), source);
              memref::StoreOp::create(b, loc, key, keys, e);
              for (auto [operand, copy] :
                   llvm::zip(ArrayRef<Value>(row.staged).drop_front(), copies)) {
                Value v = memref::LoadOp::create(b, loc, operand, source);
                memref::StoreOp::create(b, loc, v, copy, ValueRange{r, at});
              }
              scf::YieldOp::create(b, loc);
            }, [&](OpBuilder &b, Location loc) {
              // A padding key: any value (padding goes last by its slot).
              Value zero = arith::ConstantOp::create(
                  b, loc, keyType, cast<TypedAttr>(b.getZeroAttr(keyType)));
              memref::StoreOp::create(b, loc, zero, keys, e);
              scf::YieldOp::create(b, loc);
            });
          });
      if (options.barriers)
        gpu::BarrierOp::create(b, loc);
      Value count = arith::IndexCastOp::create(b, loc, b.getI32Type(), len);
      sift::buildBitonicSort(b, loc, tid, threads, tile, keys, slots, count,
                             row.before, options.barriers);
      // The tile's first K pairs, with row (not tile) indices.
      Value keep = arith::MinUIOp::create(b, loc, len, index(b, kept));
      Value startI32 = arith::IndexCastOp::create(b, loc, b.getI32Type(), start);
      sift::forEachOfThread(
          b, loc, tid, keep, threads, [&](OpBuilder &b, Location loc, Value e) {
            Value slot = memref::LoadOp::create(b, loc, slots, e);
            Value key = memref::LoadOp::create(b, loc, keys, e);
            Value at = arith::AddIOp::create(b, loc, start, e);
            memref::StoreOp::create(b, loc, key, out.keys, ValueRange{r, at});
            Value rowIndex = arith::AddIOp::create(b, loc, slot, startI32);
            memref::StoreOp::create(b, loc, rowIndex, out.indices,
                                    ValueRange{r, at});
          });
    });
  }

  /// (key, index) of run position `at` of row `r`.
  std::pair<Value, Value> pairAt(OpBuilder &b, Runs runs, Value r, Value at) {
    return {memref::LoadOp::create(b, loc, runs.keys, ValueRange{r, at}),
            memref::LoadOp::create(b, loc, runs.indices, ValueRange{r, at})};
  }

  /// Step 2: runs of `width` in `in` merged pairwise into `out` by merge
  /// path. A workgroup makes `tile` outputs of a pair: two binary searches
  /// along the diagonals of its first and last output find the parts of
  /// both runs that make them; the parts are staged in workgroup memory,
  /// and each element's place is its rank in its own part plus the number
  /// of the other part's elements before it (a binary search there).
  void buildMergePass(int64_t width, Runs in, Runs out) {
    // At most kMergeTile outputs a workgroup: more, shorter workgroups hide
    // the latency of the diagonal searches better.
    int64_t tile = std::min(options.tile, kMergeTile);
    int64_t threadCount = std::min(options.threads, std::max<int64_t>(
                                                        tile / 4, 1));
    int64_t perRow = (row.n + tile - 1) / tile;
    sift::buildLaunch(b, loc, rows * perRow, threadCount,
                      [&](OpBuilder &b, Value block, Value tid) {
      Value threads = index(b, threadCount);
      MergeWindow w = mergeWindow(b, block, width, tile, perRow, in);
      Value keys = memref::AllocOp::create(
          b, loc, sift::workgroupMemRefType(b.getContext(), tile, keyType));
      Value slots = memref::AllocOp::create(
          b, loc,
          sift::workgroupMemRefType(b.getContext(), tile, b.getI32Type()));
      // Stage both parts: the first run's at [0, aCount), the second's after.
      for (auto [start, count, offset] :
           {std::tuple{add(b, w.pair, w.i0), w.aCount, index(b, 0)},
            {add(b, w.second, w.j0), w.bCount, w.aCount}})
        sift::forEachOfThread(
            b, loc, tid, count, threads,
            [&](OpBuilder &b, Location loc, Value e) {
              auto [key, ix] = pairAt(b, in, w.r, arith::AddIOp::create(
                                                      b, loc, start, e));
              Value to = arith::AddIOp::create(b, loc, offset, e);
              memref::StoreOp::create(b, loc, key, keys, to);
              memref::StoreOp::create(b, loc, ix, slots, to);
            });
      if (options.barriers)
        gpu::BarrierOp::create(b, loc);
      placeParts(b, tid, threads, w, keys, slots, out);
    });
  }

  /// The outputs [d0, d1) of a merged pair that a merge workgroup makes,
  /// and the parts of both runs they come from: the first run's from
  /// pair + i0 (aCount of them), the second's from second + j0 (bCount).
  struct MergeWindow {
    Value r, pair, second, d0, i0, j0, aCount, bCount;
  };

  /// The window of workgroup `block`: two binary searches along the
  /// diagonals of its first and last output.
  MergeWindow mergeWindow(OpBuilder &b, Value block, int64_t width,
                          int64_t tile, int64_t perRow, Runs in) {
    MergeWindow w;
    w.r = arith::DivUIOp::create(b, loc, block, index(b, perRow));
    Value first = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, block, index(b, perRow)),
        index(b, tile));
    Value n = index(b, row.n), k = index(b, kept);
    w.pair = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, first, index(b, 2 * width)),
        index(b, 2 * width));
    w.second = add(b, w.pair, index(b, width));
    // Valid pairs of each run: its length, at most K.
    Value firstValid = minu(b, k, minu(b, index(b, width), sub(b, n, w.pair)));
    Value hasSecond =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, w.second, n);
    Value secondLen = arith::SelectOp::create(
        b, loc, hasSecond,
        minu(b, index(b, width), sub(b, n, minu(b, w.second, n))),
        index(b, 0));
    Value secondValid = dropLast(b, minu(b, k, secondLen));
    Value total = minu(b, add(b, firstValid, secondValid), k);
    // This workgroup's outputs [d0, d1) of the merged pair.
    w.d0 = minu(b, sub(b, first, w.pair), total);
    Value d1 = minu(b, add(b, w.d0, index(b, tile)), total);
    // How many of the first d outputs come from the first run.
    auto split = [&](Value d) {
      Value lo = sub(b, d, minu(b, d, secondValid));
      Value hi = minu(b, d, firstValid);
      return lowerBound(b, lo, hi, [&](OpBuilder &b, Value mid) {
        auto [ka, ia] = pairAt(b, in, w.r, add(b, w.pair, mid));
        Value other = sub(b, sub(b, add(b, w.second, d), mid), index(b, 1));
        auto [kb, ib] = pairAt(b, in, w.r, other);
        return sift::buildKeyIndexBefore(b, loc, row.before, ka, ia, kb, ib);
      });
    };
    w.i0 = split(w.d0);
    Value i1 = split(d1);
    // Sorted runs give i0 <= i1 <= i0 + (d1 - d0); runs a fault left
    // unsorted may not, and the clamp keeps every access in bounds (a
    // wrong result, not a fault).
    i1 = minu(b, arith::MaxUIOp::create(b, loc, i1, w.i0),
              add(b, w.i0, sub(b, d1, w.d0)));
    w.j0 = sub(b, w.d0, w.i0);
    Value j1 = sub(b, d1, i1);
    w.aCount = sub(b, i1, w.i0);
    w.bCount = sub(b, j1, w.j0);
    return w;
  }

  /// Each staged element's place: its rank in its own part plus the number
  /// of the other part's elements before it (a binary search there).
  void placeParts(OpBuilder &b, Value tid, Value threads,
                  const MergeWindow &w, Value keys, Value slots, Runs out) {
    Value staged = add(b, w.aCount, w.bCount);
    for (auto [ownStart, ownCount, otherStart, otherEnd] :
         {std::tuple{index(b, 0), w.aCount, w.aCount, staged},
          {w.aCount, w.bCount, index(b, 0), w.aCount}})
      sift::forEachOfThread(
          b, loc, tid, ownCount, threads,
          [&](OpBuilder &b, Location loc, Value e) {
            Value from = arith::AddIOp::create(b, loc, ownStart, e);
            Value key = memref::LoadOp::create(b, loc, keys, from);
            Value ix = memref::LoadOp::create(b, loc, slots, from);
            Value rank = lowerBound(
                b, otherStart, otherEnd, [&](OpBuilder &b, Value m) {
                  Value km = memref::LoadOp::create(b, loc, keys, m);
                  Value im = memref::LoadOp::create(b, loc, slots, m);
                  return sift::buildKeyIndexBefore(b, loc, row.before, km, im,
                                                   key, ix);
                });
            Value place = arith::AddIOp::create(
                b, loc, arith::AddIOp::create(b, loc, w.pair, w.d0),
                arith::AddIOp::create(
                    b, loc, e,
                    arith::SubIOp::create(b, loc, rank, otherStart)));
            memref::StoreOp::create(b, loc, key, out.keys,
                                    ValueRange{w.r, place});
            memref::StoreOp::create(b, loc, ix, out.indices,
                                    ValueRange{w.r, place});
          });
  }

  /// Fault merge-drop-last: a second run counts one pair fewer.
  Value dropLast(OpBuilder &b, Value valid) {
    if (!options.dropLast)
      return valid;
    Value one = index(b, 1);
    Value any =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, valid, one);
    return arith::SelectOp::create(
        b, loc, any, arith::SubIOp::create(b, loc, valid, one), valid);
  }

  /// Step 3: the first K pairs of every row become the op's results.
  void buildWriteOut(Runs in) {
    int64_t perRow = (kept + options.threads - 1) / options.threads;
    launch(rows * perRow, [&](OpBuilder &b, Value block, Value tid) {
      Value r = arith::DivUIOp::create(b, loc, block, index(b, perRow));
      Value e = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, arith::RemUIOp::create(b, loc, block, index(b, perRow)),
              index(b, options.threads)),
          tid);
      Value live = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, e,
                                         index(b, kept));
      scf::IfOp::create(b, loc, live, [&](OpBuilder &b, Location loc) {
        SmallVector<Value> rowIvs = sift::delinearizeRow(b, loc, r, row.domain);
        SmallVector<Value> at = sift::rowElementIndices(rowIvs, row.dim, e);
        Value key = memref::LoadOp::create(b, loc, in.keys, ValueRange{r, e});
        Value ix = memref::LoadOp::create(b, loc, in.indices, ValueRange{r, e});
        if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
          memref::StoreOp::create(b, loc, key, topk.getValuesInit(), at);
          Value wide = arith::ExtSIOp::create(b, loc, b.getI64Type(), ix);
          memref::StoreOp::create(b, loc, wide, topk.getIndicesInit(), at);
        } else {
          memref::StoreOp::create(b, loc, key, row.staged.front(), at);
          Value from = arith::IndexCastOp::create(b, loc, b.getIndexType(), ix);
          for (auto [operand, copy] :
               llvm::zip(ArrayRef<Value>(row.staged).drop_front(), copies)) {
            Value v = memref::LoadOp::create(b, loc, copy, ValueRange{r, from});
            memref::StoreOp::create(b, loc, v, operand, at);
          }
        }
        scf::YieldOp::create(b, loc);
      });
    });
  }

  RewriterBase &b;
  const sift::RowOp &row;
  const sift::MergeRowsOptions &options;
  int64_t rows = 0, kept = 0, tiles = 0;
  Type keyType;
  SmallVector<Value> copies;
};

} // namespace

LogicalResult sift::lowerRowsByMerging(RewriterBase &rewriter,
                                       const RowOp &row,
                                       const MergeRowsOptions &options) {
  return MergeLowering(rewriter, row, options).build();
}
