//===- RegisterSelect.cpp - One-pass top-k of small k in registers --------===//
//
// The `register_select` algorithm of the distribute pipeline for sift.topk
// with a small k (at most kRegisterSelectMaxK) and keys of at most 32 bits.
// Every element becomes one i64 composite, larger = better: its key's
// order-preserving bits (RowKernels.h: -0 = +0, one NaN above +inf,
// inverted for `smallest`) above its row position inverted (2^32 - 1 -
// position), so ties go to the lower index and no two elements of a row
// are equal; 0 is below every element and marks an empty slot. Keys of at
// most 16 bits (bf16, f16, i16) in rows of fewer than 65,535 elements
// make an i32 composite instead (16 bits of each), which halves the warp
// queue's shuffles and makes each compare one instruction.
//
//   select: a workgroup per chunk of `chunk` elements of a row. Each thread
//           walks the chunk with the workgroup's stride (coalesced), four
//           loads ahead (16 for k <= 8 when it walks 32 items or more),
//           and keeps its k best composites in registers,
//           sorted (scf.for iteration values): a composite better than the
//           k-th is inserted branch-free, new[j] = max(old[j], min(c,
//           old[j - 1])). For k = 1 a thread keeps its best key (f32
//           compared as floats, other keys as order bits) and its item in
//           32-bit words instead, no composite per element: an argmax's
//           walk was bound by the SMs' work on the H200. The steps whose
//           loads all lie inside the chunk are unchecked, the last one
//           clamped. The threads' lists meet in workgroup memory
//           (slot j of list t at j * threads + t) and a tree merges them:
//           at each level the first half of the threads still needed each
//           merge the lists of a pair (a bitonic merge: mergeTwo), from one
//           half of the workgroup memory into the other, a barrier between
//           levels. The workgroup's k best are written to the outputs
//           (value reloaded from the row by position, since order bits lose
//           -0 and NaN payloads) or, when a row has several chunks, to a
//           plan buffer of candidates;
//   merge:  (rows of several chunks) a workgroup per row selects the k
//           best of its chunks' candidates the same way, reading
//           composites instead of keys, and writes the outputs.
//
// `warp_select` builds the same launches, but each warp keeps its k best
// over its lanes (WarpQueue.cpp) instead of each thread in registers, and
// the tree merges the warps' lists.
//
// One read of the input, one or two dispatches; no atomics, no workgroup
// waits for another. The fault select-merge-one-level-short stops the tree
// a level early, so the upper half of a workgroup's threads is never heard.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RegisterSelect/RegisterSelect.h"
#include "pipelines/Kernels/RegisterSelect/WarpQueue.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;

bool sift::registerSelectable(Operation *op) {
  auto topk = dyn_cast<TopkOp>(op);
  if (!topk)
    return false;
  Type element = topk.getInputType().getElementType();
  return topk.getK() >= 1 && topk.getK() <= kRegisterSelectMaxK &&
         element.isIntOrFloat() && element.getIntOrFloatBitWidth() <= 32;
}

bool sift::warpSelectable(Operation *op) {
  return registerSelectable(op) && cast<TopkOp>(op).getK() >= 2;
}

namespace {

/// Loads a thread issues before it inserts.
constexpr int64_t kLoadsAhead = 4;

/// Loads ahead for k <= kLongWalkMaxK when a thread walks at least
/// kLongWalkItems of a chunk: more bytes in flight a thread. On the H200
/// (three rounds each, distribute) 16 ahead took top-k [1, 2^20] k8 from
/// 0.021 to 0.018 ms, [32, 128000] k8 0.025 to 0.023, [256, 129280] k1 f32
/// 0.042 to 0.041; shorter walks ([16384, 256] k8, 8 items a thread) were
/// no faster.
constexpr int64_t kLongWalkLoadsAhead = 16;
constexpr int64_t kLongWalkItems = 32;
constexpr int64_t kLongWalkMaxK = 8;

/// Row positions a 32-bit composite's 16-bit field can tell apart.
constexpr int64_t kNarrowPositions = int64_t{1} << 16;

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
    if (options.warpQueue &&
        (options.threads % sift::kWarpSelectWarp != 0 || k < 2))
      return topk.emitOpError("warp_select needs whole warps of ")
             << sift::kWarpSelectWarp << " threads and k >= 2, found "
             << options.threads << " threads and k = " << k;
    if (rows == 0 || row.n == 0)
      return success(); // No work.
    // Keys of at most 16 bits in rows of fewer than 2^16 - 1 elements pack
    // into 32-bit composites (one shuffle, one compare each); the
    // inverted position is then never all ones, so no element is 0.
    if (topk.getInputType().getElementType().getIntOrFloatBitWidth() <= 16 &&
        row.n < kNarrowPositions - 1) {
      compositeType = b.getI32Type();
      positionBits = 16;
    } else {
      compositeType = b.getI64Type();
      positionBits = 32;
    }
    chunks = (row.n + options.chunk - 1) / options.chunk;
    loadsAhead = k <= kLongWalkMaxK && std::min(options.chunk, row.n) >=
                                           kLongWalkItems * options.threads
                     ? kLongWalkLoadsAhead
                     : kLoadsAhead;
    if (chunks == 1) {
      buildSelect(/*toCandidates=*/false);
      return success();
    }
    candidates = memref::AllocOp::create(
        b, loc, MemRefType::get({rows, chunks * k}, compositeType));
    buildSelect(/*toCandidates=*/true);
    buildMerge();
    return success();
  }

private:
  /// A constant composite.
  Value word(OpBuilder &b, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, compositeType, v);
  }

  /// The largest position field, all ones.
  int64_t positionMask() const { return (int64_t{1} << positionBits) - 1; }

  /// The composite of key `x` at row position `position` (index).
  Value composite(OpBuilder &b, Value x, Value position) {
    Value bits = sift::buildOrderBits(b, loc, x, !topk.isLargest());
    if (bits.getType() != compositeType)
      bits = arith::ExtUIOp::create(b, loc, compositeType, bits);
    Value high = arith::ShLIOp::create(b, loc, bits, word(b, positionBits));
    Value wide = arith::IndexCastUIOp::create(b, loc, compositeType, position);
    Value inverted = sub(b, word(b, positionMask()), wide);
    return arith::OrIOp::create(b, loc, high, inverted);
  }

  /// The row position a composite carries (index).
  Value positionOf(OpBuilder &b, Value c) {
    Value low = arith::AndIOp::create(b, loc, c, word(b, positionMask()));
    return toIndex(b, sub(b, word(b, positionMask()), low));
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

  /// The loadsAhead items of one step of a walk from `base`, each a
  /// threads' stride apart, all loaded before any is used: each item's
  /// `load(b, e)` and e. When `checked`, an item past `length` is `empty`
  /// (read clamped, not used); otherwise all are inside.
  SmallVector<std::pair<Value, Value>>
  loadAhead(OpBuilder &b, Value base, Value length, bool checked,
            function_ref<Value(OpBuilder &, Value)> load, Value empty) {
    SmallVector<std::pair<Value, Value>> items;
    Value last = sub(b, length, index(b, 1));
    for (int64_t u = 0; u < loadsAhead; ++u) {
      Value at = add(b, base, index(b, u * options.threads));
      if (!checked) {
        items.push_back({load(b, at), at});
        continue;
      }
      Value inside = cmp(b, arith::CmpIPredicate::ult, at, length);
      Value v = load(b, minu(b, at, last));
      items.push_back({arith::SelectOp::create(b, loc, inside, v, empty), at});
    }
    return items;
  }

  /// A walk over `length` items from `tid` with the workgroup's stride,
  /// loadsAhead at a time: `step(b, base, checked, acc)` takes one step's
  /// items from `base` into the values `acc` and gives the new ones. The
  /// steps whose items all lie inside run unchecked (no clamp, no select
  /// per item: a third of an argmax's instructions on the H200), the one
  /// step left, if any, checked.
  SmallVector<Value>
  walkSteps(OpBuilder &b, Value tid, Value length, ValueRange init,
            function_ref<SmallVector<Value>(OpBuilder &, Value, bool,
                                            ValueRange)>
                step) {
    Value stride = index(b, options.threads * loadsAhead);
    Value span = index(b, (loadsAhead - 1) * options.threads);
    // A step from base is whole while base + span < length.
    Value whole = arith::SelectOp::create(
        b, loc, cmp(b, arith::CmpIPredicate::ugt, length, span),
        sub(b, length, span), index(b, 0));
    auto loopOf = [&](Value from, Value to, ValueRange acc, bool checked) {
      return scf::ForOp::create(
          b, loc, from, to, stride, acc,
          [&](OpBuilder &b, Location, Value base, ValueRange acc) {
            scf::YieldOp::create(b, loc, step(b, base, checked, acc));
          });
    };
    auto full = loopOf(tid, whole, init, /*checked=*/false);
    // The first base the whole steps left: tid + ceil((whole - tid) /
    // stride) * stride, or tid.
    Value ahead = arith::SelectOp::create(
        b, loc, cmp(b, arith::CmpIPredicate::ugt, whole, tid),
        sub(b, whole, tid), index(b, 0));
    Value steps = arith::DivUIOp::create(
        b, loc, add(b, ahead, sub(b, stride, index(b, 1))), stride);
    Value rest = add(b, tid, mul(b, steps, stride));
    auto tail = loopOf(rest, length, full.getResults(), /*checked=*/true);
    return SmallVector<Value>(tail.getResults());
  }

  /// A thread's k best of `length` items dealt with the workgroup's
  /// stride; `load(b, item)` gives an item's composite.
  SmallVector<Value> walk(OpBuilder &b, Value tid, Value length,
                          function_ref<Value(OpBuilder &, Value)> load) {
    SmallVector<Value> empty(k, word(b, 0));
    return walkSteps(
        b, tid, length, empty,
        [&](OpBuilder &b, Value base, bool checked, ValueRange acc) {
          SmallVector<Value> list(acc.begin(), acc.end());
          for (auto [c, at] :
               loadAhead(b, base, length, checked, load, word(b, 0)))
            list = insert(b, list, c);
          return list;
        });
  }

  /// warp_select's walk (WarpQueue.h): the lane's slot of its warp's
  /// queue after `length` items dealt with the workgroup's stride,
  /// loadsAhead at a time, every thread taking the same steps.
  Value warpWalk(OpBuilder &b, Value tid, Value length,
                 function_ref<Value(OpBuilder &, Value)> load) {
    sift::WarpQueue queue(loc, k, compositeType, options.headUnfilled);
    return queue.walk(b, tid, length, options.threads * loadsAhead,
                      [&](OpBuilder &b, Value base, bool checked) {
                        SmallVector<Value> items;
                        for (auto [c, at] : loadAhead(b, base, length, checked,
                                                      load, word(b, 0)))
                          items.push_back(c);
                        return items;
                      });
  }

  /// k = 1: a thread's best composite of the `length` keys dealt with the
  /// workgroup's stride. The walk keeps a 32-bit best and its item, and
  /// builds the composite once at the end, from the key reloaded at the
  /// item (`composite(b, e)`): a thread meets its items in increasing
  /// order, so a strictly better key is the only one to take (a tie keeps
  /// the lower index). `value(b, e)` gives item e's comparable word and
  /// `better(b, v, best)` whether v beats best; `init` beats nothing, and
  /// when nothing beats it the thread's first item is its best, right
  /// whatever that item is. A thread with no item gives 0.
  Value walkBest(OpBuilder &b, Value tid, Value length, Value init,
                 function_ref<Value(OpBuilder &, Value)> value,
                 function_ref<Value(OpBuilder &, Value, Value)> better,
                 function_ref<Value(OpBuilder &, Value)> composite) {
    auto item32 = [&](OpBuilder &b, Value e) -> Value {
      return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), e);
    };
    SmallVector<Value> best = walkSteps(
        b, tid, length, ValueRange{init, item32(b, tid)},
        [&](OpBuilder &b, Value base, bool checked, ValueRange acc) {
          Value best = acc[0], item = acc[1];
          for (auto [v, at] :
               loadAhead(b, base, length, checked, value, init)) {
            Value wins = better(b, v, best);
            best = arith::SelectOp::create(b, loc, wins, v, best);
            item = arith::SelectOp::create(b, loc, wins, item32(b, at), item);
          }
          return SmallVector<Value>{best, item};
        });
    // A thread with no item reads the chunk's last (length >= 1) and
    // gives 0.
    Value item = minu(b,
                      arith::IndexCastUIOp::create(b, loc, b.getIndexType(),
                                                   best[1]),
                      sub(b, length, index(b, 1)));
    Value any = cmp(b, arith::CmpIPredicate::ult, tid, length);
    return arith::SelectOp::create(b, loc, any, composite(b, item), word(b, 0));
  }

  /// k = 1's walk for the key type: float keys of at most 32 bits compared
  /// as f32, bf16 and f16 widened exactly (NaN above all, -0 = +0 by the
  /// compare itself: on the H200 an f32 argmax over order bits spent 8 of
  /// its 14 instructions an element on them; a bf16 walk's PTX went from
  /// 14 instructions an element to 10); other keys by their order bits as
  /// i32.
  Value walkBestKeys(OpBuilder &b, Value tid, Value length,
                     function_ref<Value(OpBuilder &, Value)> loadKey,
                     function_ref<Value(OpBuilder &, Value)> composite) {
    Type keyType = topk.getInputType().getElementType();
    if (keyType.isF32() || keyType.isBF16() || keyType.isF16()) {
      auto key = [&](OpBuilder &b, Value e) -> Value {
        Value x = loadKey(b, e);
        if (keyType.isF32())
          return x;
        if (keyType.isBF16() && options.halfNanLayout) {
          // Fault bf16-order-f16-layout: the bf16 bits widened as f16's.
          Value bits = arith::BitcastOp::create(b, loc, b.getI16Type(), x);
          x = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
        }
        return arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      };
      bool largest = topk.isLargest();
      Value init = arith::ConstantOp::create(
          b, loc,
          b.getF32FloatAttr(largest ? -std::numeric_limits<float>::infinity()
                                    : std::numeric_limits<float>::infinity()));
      return walkBest(
          b, tid, length, init, key,
          [&](OpBuilder &b, Value v, Value best) -> Value {
            if (!largest) // NaN is the worst: never less.
              return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                           v, best);
            Value greater = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OGT, v, best);
            Value nanOverNumber = arith::AndIOp::create(
                b, loc,
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v),
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, best,
                                      best));
            return arith::OrIOp::create(b, loc, greater, nanOverNumber);
          },
          composite);
    }
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    return walkBest(
        b, tid, length, zero,
        [&](OpBuilder &b, Value e) -> Value {
          Value bits =
              sift::buildOrderBits(b, loc, loadKey(b, e), !topk.isLargest());
          if (bits.getType().getIntOrFloatBitWidth() < 32)
            bits = arith::ExtUIOp::create(b, loc, b.getI32Type(), bits);
          return bits;
        },
        [&](OpBuilder &b, Value v, Value best) -> Value {
          return cmp(b, arith::CmpIPredicate::ugt, v, best);
        },
        composite);
  }

  /// The k best of two lists of k composites, best first (`first(b, j)`
  /// and `second(b, j)` give their j-th), best first: both padded with
  /// empty slots to a power of two p, the first list against the second
  /// reversed keeps the better of each pair (p composites holding the p
  /// best of both, rising then falling), and a bitonic merge of log2(p)
  /// steps sorts them. p + p/2 log2(p) max/min pairs instead of an insert
  /// of each of the second's k into the first (2k^2): for k = 8, 20 pairs
  /// instead of 128. Branch-free.
  SmallVector<Value>
  mergeTwo(OpBuilder &b, function_ref<Value(OpBuilder &, int64_t)> first,
           function_ref<Value(OpBuilder &, int64_t)> second) {
    int64_t p = 1;
    while (p < k)
      p *= 2;
    // Both lists loaded first, in order, then padded.
    SmallVector<Value> one, two;
    for (int64_t j = 0; j < k; ++j)
      one.push_back(first(b, j));
    for (int64_t j = 0; j < k; ++j)
      two.push_back(second(b, j));
    one.resize(p, word(b, 0));
    two.resize(p, word(b, 0));
    SmallVector<Value> c;
    for (int64_t j = 0; j < p; ++j)
      c.push_back(j >= k && p - 1 - j >= k // Two empty slots.
                      ? one[j]
                      : arith::MaxUIOp::create(b, loc, one[j], two[p - 1 - j])
                            .getResult());
    for (int64_t half = p / 2; half >= 1; half /= 2)
      for (int64_t j = 0; j < p; ++j) {
        if (j & half)
          continue;
        Value hi = arith::MaxUIOp::create(b, loc, c[j], c[j + half]);
        Value lo = arith::MinUIOp::create(b, loc, c[j], c[j + half]);
        c[j] = hi;
        c[j + half] = lo;
      }
    c.resize(k);
    return c;
  }

  /// The lists the tree merges: a thread's, or with warpQueue a warp's.
  int64_t listCount() const {
    return options.warpQueue ? options.threads / sift::kWarpSelectWarp
                             : options.threads;
  }

  /// Slot j of list r in the half of `lists` from `base` (j * lists + r).
  Value slot(OpBuilder &b, Value base, Value j, Value r) {
    return add(b, base, add(b, mul(b, j, index(b, listCount())), r));
  }

  /// Stores a thread's k best (`list`) as its list in `lists`; with
  /// warpQueue, lane j < k of each warp stores the warp's j-th best
  /// (`list`: the lane's slot).
  void storeList(OpBuilder &b, Value tid, Value lists, ArrayRef<Value> list) {
    if (!options.warpQueue) {
      for (int64_t j = 0; j < k; ++j)
        memref::StoreOp::create(b, loc, list[j], lists,
                                slot(b, index(b, 0), index(b, j), tid));
      return;
    }
    Value warpSize = index(b, sift::kWarpSelectWarp);
    Value lane = arith::RemUIOp::create(b, loc, tid, warpSize);
    Value warp = arith::DivUIOp::create(b, loc, tid, warpSize);
    Value holds = cmp(b, arith::CmpIPredicate::ult, lane, index(b, k));
    scf::IfOp::create(b, loc, holds, [&](OpBuilder &b, Location) {
      memref::StoreOp::create(b, loc, list.front(), lists,
                              slot(b, index(b, 0), lane, warp));
      scf::YieldOp::create(b, loc);
    });
  }

  /// Merges the listCount() lists in workgroup memory `lists` (two halves
  /// of k * lists slots, list r's slot j at j * lists + r; storeList put
  /// them in the first) down to one: at level l the first lists >> (l + 1)
  /// threads each merge lists 2t and 2t + 1 of one half into list t of the
  /// other, so the active threads are packed into the fewest warps (a tree
  /// over thread ids kept every warp busy for five levels: 3.4x the
  /// instructions of the walk on the H100). Loops, not unrolled, so that a
  /// kernel's code stays small. Returns the slot where the result's list
  /// starts (its half).
  Value treeMerge(OpBuilder &b, Value tid, Value lists) {
    int64_t count = listCount();
    int64_t size = k * count;
    Value counted = index(b, count);
    int64_t levels = 0;
    while ((int64_t{1} << levels) < count)
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
          Value active = cmp(b, arith::CmpIPredicate::ult, tid,
                             arith::ShRUIOp::create(
                                 b, loc, counted, add(b, level, index(b, 1))));
          scf::IfOp::create(b, loc, active, [&](OpBuilder &b, Location) {
            Value first = add(b, tid, tid);
            Value second = add(b, first, index(b, 1));
            SmallVector<Value> merged = mergeTwo(
                b, [&](OpBuilder &b, int64_t j) -> Value {
                  return memref::LoadOp::create(
                      b, loc, lists, slot(b, from, index(b, j), first));
                },
                [&](OpBuilder &b, int64_t j) -> Value {
                  return memref::LoadOp::create(
                      b, loc, lists, slot(b, from, index(b, j), second));
                });
            for (int64_t j = 0; j < k; ++j)
              memref::StoreOp::create(b, loc, merged[j], lists,
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
    return memref::LoadOp::create(b, loc, lists, slot(b, base, j, index(b, 0)));
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
        sift::workgroupMemRefType(b.getContext(), 2 * k * listCount(),
                                  compositeType));
  }

  /// A thread's k best, or with warpQueue its warp's slot of the lane (as
  /// a list of one), of `length` items (walk or warpWalk).
  SmallVector<Value> walkAny(OpBuilder &b, Value tid, Value length,
                             function_ref<Value(OpBuilder &, Value)> load) {
    if (options.warpQueue)
      return {warpWalk(b, tid, length, load)};
    return walk(b, tid, length, load);
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
            list.push_back(walkBestKeys(
                b, tid, c.length, key, [&](OpBuilder &b, Value e) {
                  return composite(b, key(b, e), add(b, c.start, e));
                }));
          } else {
            list = walkAny(b, tid, c.length, [&](OpBuilder &b, Value e) {
              return composite(b, key(b, e), add(b, c.start, e));
            });
          }
          storeList(b, tid, lists, list);
          Value base = treeMerge(b, tid, lists);
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
              walkAny(b, tid, index(b, chunks * k), [&](OpBuilder &b, Value e) {
                return memref::LoadOp::create(b, loc, candidates,
                                              ValueRange{r, e})
                    .getResult();
              });
          storeList(b, tid, lists, list);
          Value base = treeMerge(b, tid, lists);
          writeResults(b, tid, lists, base,
                       sift::delinearizeRow(b, loc, r, row.domain));
        });
  }

  RewriterBase &b;
  const sift::RowOp &row;
  const sift::RegisterSelectOptions &options;
  sift::TopkOp topk;
  int64_t rows = 0, k = 0, chunks = 0;
  /// Loads a thread issues before it inserts (kLoadsAhead or
  /// kLongWalkLoadsAhead).
  int64_t loadsAhead = kLoadsAhead;
  Value candidates;
  /// The composites' type: i64 (order bits above a 32-bit inverted
  /// position), or i32 for keys of at most 16 bits in short rows (16 and
  /// 16).
  Type compositeType;
  int64_t positionBits = 32;
};

} // namespace

LogicalResult
sift::lowerTopkByRegisterSelect(RewriterBase &rewriter, const RowOp &row,
                                const RegisterSelectOptions &options) {
  return RegisterLowering(rewriter, row, options).build();
}
