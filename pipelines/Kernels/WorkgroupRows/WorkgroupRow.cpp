//===- WorkgroupRow.cpp - A workgroup of threads per sort or top-k row ----===//
//
// The `workgroup_row` algorithm of both GPU pipelines for sift.sort and
// sift.topk (WorkgroupRow.h has its phases, launch and limits): one
// gpu.launch with a workgroup per row, the row staged in workgroup memory
// and sorted there by the bitonic network of RowKernels.h.
//
//   stage:   threads copy the row into workgroup memory, idx[e] = e
//   barrier
//   bitonic: for each stage and step, threads compare-exchange (key, idx)
//            pairs by (key, index), padding to a power of two with "after
//            every element" slots; a barrier after every step
//   write:   threads copy the sorted keys, and the other operands through
//            idx (operand[idx[e]]), back to the row (top-k: the first k,
//            with idx[e] as the index result)
//
// Sorting indices by (key, index) is a strict total order, so the network
// gives the stable order SEMANTICS.md asks for (and top-k's lower index on
// ties) whatever the comparator. A named order on keys of at most 32 bits
// sorts one i64 composite per element instead (order bits above the
// position), when its staging fits kCompositeBudget; keys of at most 16
// bits (bf16, f16, i16) make an i32 composite (16 bits of each), which
// halves the network's workgroup-memory traffic. A keys-only sort of
// 32-bit keys sorts their bare order bits (no position) and turns them
// back, unless a float row holds a zero or a NaN (sortBareKeys). Staging
// buffers are workgroup memref.allocs; the GPU tail turns them into
// workgroup attributions.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/WorkgroupRows/WorkgroupRow.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;

namespace {

/// The workgroup memory the composite layout of a workgroup_row may take:
/// NVIDIA's static 48 KiB, the least of the chips.
constexpr int64_t kCompositeBudget = 48 * 1024;

/// Positions an i32 composite's low 16 bits hold: a row of keys of at most
/// 16 bits up to kNarrowPositions - 1 elements keeps every composite below
/// the all-ones padding.
constexpr int64_t kNarrowPositions = int64_t{1} << 16;

class Lowering {
public:
  Lowering(RewriterBase &rewriter, const sift::RowOp &row, int64_t threads,
           bool barriers, bool halfNanLayout, bool bareZeroUnchecked)
      : b(rewriter), row(row), threads(threads), barriers(barriers),
        halfNanLayout(halfNanLayout), bareZeroUnchecked(bareZeroUnchecked),
        loc(row.op->getLoc()) {}

  void build() {
    int64_t rows = row.rows();
    auto topk = dyn_cast<sift::TopkOp>(row.op);
    if (rows == 0 || row.n == 0 || (topk && topk.getK() == 0))
      return; // No work (and no kernel over a result with no elements).
    Value one = constant(1);
    auto launch = gpu::LaunchOp::create(b, loc, constant(rows), one, one,
                                        constant(threads), one, one);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    b.setInsertionPointToStart(&launch.getBody().front());
    tid = launch.getThreadIds().x;
    threadCount = constant(threads);
    rowIvs = sift::delinearizeRow(b, loc, launch.getBlockIds().x, row.domain);
    padded = sift::nextPowerOfTwo(row.n);
    if (std::optional<bool> invert = compositeOrder()) {
      if (bareKeys()) {
        sortBareKeys(*invert);
        return;
      }
      // Named orders of keys of at most 32 bits: one i64 per element (i32
      // for keys of at most 16 bits).
      allocateCompositeStaging();
      stageInComposites(*invert);
      barrier(b);
      sift::buildCompositeBitonicSort(b, loc, tid, threads, padded, composites,
                                      barriers);
      writeBackComposites();
      return;
    }
    allocateStaging();
    stageIn();
    barrier(b);
    sortIndices();
    writeBack();
  }

  /// The composites' width in bits: 32 for keys of at most 16 bits in a
  /// row of fewer than kNarrowPositions elements, else 64.
  unsigned compositeBits() const {
    Type key = cast<MemRefType>(row.staged.front().getType()).getElementType();
    return key.isIntOrFloat() && key.getIntOrFloatBitWidth() <= 16 &&
                   row.n < kNarrowPositions
               ? 32
               : 64;
  }

  /// The workgroup memory (bytes) the composite layout takes: the padded
  /// composites and every operand's row.
  int64_t compositeBytes() const {
    int64_t bytes = compositeBits() / 8 * sift::nextPowerOfTwo(row.n);
    for (Value operand : row.staged)
      bytes += row.n * ((cast<MemRefType>(operand.getType())
                             .getElementType()
                             .getIntOrFloatBitWidth() +
                         7) /
                        8);
    return bytes;
  }

  /// Whether the row sorts its keys' bare order bits (32 a key, no
  /// position): a keys-only sort (no payload, no top-k) of 32-bit keys
  /// whose bare array fits kCompositeBudget beside the composite layout,
  /// which a float row holding a zero or a NaN still takes.
  bool bareKeys() const {
    Type key = cast<MemRefType>(row.staged.front().getType()).getElementType();
    return isa<sift::SortOp>(row.op) && row.staged.size() == 1 &&
           key.getIntOrFloatBitWidth() == 32 &&
           compositeBytes() + 4 * sift::nextPowerOfTwo(row.n) <=
               kCompositeBudget;
  }

  /// Whether the row sorts as composites (a named order, keys of at most
  /// 32 bits, within kCompositeBudget) and if so whether the key bits are
  /// inverted (descending, largest).
  std::optional<bool> compositeOrder() const {
    Type key = cast<MemRefType>(row.staged.front().getType()).getElementType();
    if (!key.isIntOrFloat() || key.getIntOrFloatBitWidth() > 32 ||
        compositeBytes() > kCompositeBudget)
      return std::nullopt;
    if (auto topk = dyn_cast<sift::TopkOp>(row.op))
      return topk.isLargest();
    auto sort = cast<sift::SortOp>(row.op);
    if (sort.hasComparator() || !sort.getOrder())
      return std::nullopt;
    return *sort.getOrder() == sift::SortOrder::Descending;
  }

private:
  Value constant(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value i32(OpBuilder &b, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }

  void barrier(OpBuilder &b) {
    if (barriers)
      gpu::BarrierOp::create(b, loc);
  }

  /// The indices of element `position` of the row in an operand.
  SmallVector<Value> at(Value position) {
    return sift::rowElementIndices(rowIvs, row.dim, position);
  }

  MemRefType workgroupType(int64_t size, Type element) {
    return sift::workgroupMemRefType(b.getContext(), size, element);
  }

  /// Element `e` of every operand's row, read where the row comes from
  /// (the operand, or a copy's source), into its staging buffer.
  void stageElement(OpBuilder &b, Location loc, Value e) {
    for (auto [source, stage] : llvm::zip(row.sources, staging)) {
      Value v = memref::LoadOp::create(b, loc, source, at(e));
      memref::StoreOp::create(b, loc, v, stage, e);
    }
  }

  /// The key (first staged operand) gets `padded` slots, the rest `n`.
  void allocateStaging() {
    for (auto [i, operand] : llvm::enumerate(row.staged))
      staging.push_back(memref::AllocOp::create(
          b, loc,
          workgroupType(i == 0 ? padded : row.n,
                        cast<MemRefType>(operand.getType()).getElementType())));
    indices = memref::AllocOp::create(
        b, loc, workgroupType(padded, b.getI32Type()));
  }

  void stageIn() {
    sift::forEachOfThread(
        b, loc, tid, constant(row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) { stageElement(b, loc, e); });
    // Padding keys get a value (never one that decides: padding goes last).
    Type keyType = cast<MemRefType>(staging.front().getType()).getElementType();
    Value zero = arith::ConstantOp::create(
        b, loc, keyType, cast<TypedAttr>(b.getZeroAttr(keyType)));
    sift::forEachOfThread(b, loc, tid, constant(padded - row.n), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      Value to = arith::AddIOp::create(b, loc, e,
                                                       constant(row.n));
                      memref::StoreOp::create(b, loc, zero, staging.front(),
                                              to);
                    });
    sift::forEachOfThread(b, loc, tid, constant(padded), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      Value i = arith::IndexCastOp::create(b, loc,
                                                           b.getI32Type(), e);
                      memref::StoreOp::create(b, loc, i, indices, e);
                    });
  }

  /// Every operand's row; the key's composites.
  void allocateCompositeStaging() {
    for (Value operand : row.staged)
      staging.push_back(memref::AllocOp::create(
          b, loc,
          workgroupType(row.n,
                        cast<MemRefType>(operand.getType()).getElementType())));
    composites = memref::AllocOp::create(
        b, loc, workgroupType(padded, b.getIntegerType(compositeBits())));
  }

  /// composite[e] = the key's order bits (inverted when `invert`) above e
  /// (in the low half); all ones for padding, after every element.
  void stageInComposites(bool invert) {
    unsigned width = compositeBits();
    Type compositeType = b.getIntegerType(width);
    sift::forEachOfThread(
        b, loc, tid, constant(row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) {
          stageElement(b, loc, e);
          Value key = memref::LoadOp::create(b, loc, staging.front(), e);
          Value bits = sift::buildOrderBits(b, loc, key, invert, halfNanLayout);
          if (bits.getType().getIntOrFloatBitWidth() < width)
            bits = arith::ExtUIOp::create(b, loc, compositeType, bits);
          Value high = arith::ShLIOp::create(
              b, loc, bits,
              arith::ConstantIntOp::create(b, loc, compositeType, width / 2));
          Value position =
              arith::IndexCastUIOp::create(b, loc, compositeType, e);
          memref::StoreOp::create(b, loc,
                                  arith::OrIOp::create(b, loc, high, position),
                                  composites, sift::compositeSlot(b, loc, e));
        });
    padAfterRow(composites,
                arith::ConstantIntOp::create(b, loc, compositeType, -1));
  }

  /// The slots of `array` (composite layout) past the row take `ones`,
  /// which sorts after every element.
  void padAfterRow(Value array, Value ones) {
    sift::forEachOfThread(
        b, loc, tid, constant(padded - row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) {
          memref::StoreOp::create(
              b, loc, ones, array,
              sift::compositeSlot(
                  b, loc, arith::AddIOp::create(b, loc, e, constant(row.n))));
        });
  }

  /// Sorts the row's keys as their bare order bits. Keys of equal order
  /// bits are then equal bits, so which of them goes first does not show,
  /// and the sorted bits turn back into the keys: true of every integer,
  /// and of every float but a zero (-0 and +0 share +0's bits, and must
  /// keep their order) or a NaN (all share one order key). A float row
  /// holding either (a workgroup-memory flag, read after the staging's
  /// barrier, so the whole workgroup takes one branch) takes the composite
  /// layout instead, staged anew.
  void sortBareKeys(bool invert) {
    Type keyType =
        cast<MemRefType>(row.staged.front().getType()).getElementType();
    bool isFloat = isa<FloatType>(keyType);
    Type bitsType = b.getI32Type();
    Value bare =
        memref::AllocOp::create(b, loc, workgroupType(padded, bitsType));
    Value special;
    if (isFloat) {
      allocateCompositeStaging();
      special = memref::AllocOp::create(b, loc, workgroupType(1, bitsType));
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                          constant(0));
      scf::IfOp::create(b, loc, first, [&](OpBuilder &b, Location loc) {
        memref::StoreOp::create(b, loc, i32(b, 0), special, constant(0));
        scf::YieldOp::create(b, loc);
      });
      barrier(b);
    }
    sift::forEachOfThread(
        b, loc, tid, constant(row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) {
          Value key =
              memref::LoadOp::create(b, loc, row.sources.front(), at(e));
          Value bits = sift::buildOrderBits(b, loc, key, invert);
          memref::StoreOp::create(b, loc, bits, bare,
                                  sift::compositeSlot(b, loc, e));
          if (!isFloat || bareZeroUnchecked)
            return;
          Value zero = arith::ConstantOp::create(b, loc, keyType,
                                                 b.getFloatAttr(keyType, 0.0));
          // A zero or a NaN (unordered or equal to zero).
          Value odd = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UEQ,
                                            key, zero);
          scf::IfOp::create(b, loc, odd, [&](OpBuilder &b, Location loc) {
            memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                        i32(b, 1), special,
                                        ValueRange{constant(0)});
            scf::YieldOp::create(b, loc);
          });
        });
    padAfterRow(bare, i32(b, -1));
    barrier(b);
    auto sortBare = [&] {
      sift::buildCompositeBitonicSort(b, loc, tid, threads, padded, bare,
                                      barriers);
      writeBackBareKeys(bare, invert);
    };
    if (!isFloat) {
      sortBare();
      return;
    }
    Value plain = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        memref::LoadOp::create(b, loc, special, constant(0)), i32(b, 0));
    auto branch = scf::IfOp::create(b, loc, TypeRange{}, plain,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(branch.thenBlock()->getTerminator());
    sortBare();
    b.setInsertionPoint(branch.elseBlock()->getTerminator());
    stageInComposites(invert);
    barrier(b);
    sift::buildCompositeBitonicSort(b, loc, tid, threads, padded, composites,
                                    barriers);
    writeBackComposites();
  }

  /// The sorted order bits of `bare`, turned back into keys (the inverse of
  /// buildOrderBits on keys of distinct order bits), into the row.
  void writeBackBareKeys(Value bare, bool invert) {
    Value destination = row.staged.front();
    Type keyType = cast<MemRefType>(destination.getType()).getElementType();
    sift::forEachOfThread(
        b, loc, tid, constant(row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) {
          Value up = memref::LoadOp::create(b, loc, bare,
                                            sift::compositeSlot(b, loc, e));
          Value ones = i32(b, -1);
          Value sign = i32(b, std::numeric_limits<int32_t>::min());
          if (invert)
            up = arith::XOrIOp::create(b, loc, up, ones);
          Value bits;
          if (isa<FloatType>(keyType)) {
            // Order bits with the sign bit set came from a positive float
            // (its bits with the sign set); the rest from a negative one
            // (every bit flipped).
            Value positive = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ne,
                arith::AndIOp::create(b, loc, up, sign), i32(b, 0));
            bits = arith::SelectOp::create(
                b, loc, positive, arith::XOrIOp::create(b, loc, up, sign),
                arith::XOrIOp::create(b, loc, up, ones));
          } else {
            bits = arith::XOrIOp::create(b, loc, up, sign);
          }
          Value key = arith::BitcastOp::create(b, loc, keyType, bits);
          memref::StoreOp::create(b, loc, key, destination, at(e));
        });
  }

  /// Slot e takes every operand's element at the position in composite[e]
  /// (top-k: the first k, and the position as the index).
  void writeBackComposites() {
    auto positionOf = [&](OpBuilder &b, Location loc, Value e) {
      Value c = memref::LoadOp::create(b, loc, composites,
                                       sift::compositeSlot(b, loc, e));
      unsigned width = compositeBits();
      Value low =
          arith::TruncIOp::create(b, loc, b.getIntegerType(width / 2), c);
      return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), low)
          .getResult();
    };
    if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
      sift::forEachOfThread(
          b, loc, tid, constant(topk.getK()), threadCount,
          [&](OpBuilder &b, Location loc, Value e) {
            Value source = positionOf(b, loc, e);
            Value v = memref::LoadOp::create(b, loc, staging.front(), source);
            memref::StoreOp::create(b, loc, v, topk.getValuesInit(), at(e));
            Value i64 =
                arith::IndexCastUIOp::create(b, loc, b.getI64Type(), source);
            memref::StoreOp::create(b, loc, i64, topk.getIndicesInit(), at(e));
          });
      return;
    }
    sift::forEachOfThread(
        b, loc, tid, constant(row.n), threadCount,
        [&](OpBuilder &b, Location loc, Value e) {
          Value source = positionOf(b, loc, e);
          for (auto [operand, stage] : llvm::zip(row.staged, staging)) {
            Value v = memref::LoadOp::create(b, loc, stage, source);
            memref::StoreOp::create(b, loc, v, operand, at(e));
          }
        });
  }

  /// The bitonic network over (key, index) pairs (RowKernels.h).
  void sortIndices() {
    Value n = arith::ConstantIntOp::create(b, loc, b.getI32Type(), row.n);
    sift::buildBitonicSort(b, loc, tid, threadCount, padded, staging.front(),
                           indices, n, row.before, barriers);
  }

  /// Keys come sorted; other operands through the sorted indices.
  void writeBack() {
    if (auto topk = dyn_cast<sift::TopkOp>(row.op)) {
      sift::forEachOfThread(
          b, loc, tid, constant(topk.getK()), threadCount,
          [&](OpBuilder &b, Location loc, Value e) {
            Value v = memref::LoadOp::create(b, loc, staging.front(), e);
            memref::StoreOp::create(b, loc, v, topk.getValuesInit(), at(e));
            Value i = memref::LoadOp::create(b, loc, indices, e);
            Value i64 = arith::ExtSIOp::create(b, loc, b.getI64Type(), i);
            memref::StoreOp::create(b, loc, i64, topk.getIndicesInit(), at(e));
          });
      return;
    }
    sift::forEachOfThread(b, loc, tid, constant(row.n), threadCount,
                    [&](OpBuilder &b, Location loc, Value e) {
                      Value key =
                          memref::LoadOp::create(b, loc, staging.front(), e);
                      memref::StoreOp::create(b, loc, key, row.staged.front(),
                                              at(e));
                      Value i = memref::LoadOp::create(b, loc, indices, e);
                      Value source = arith::IndexCastOp::create(
                          b, loc, b.getIndexType(), i);
                      for (auto [operand, stage] :
                           llvm::drop_begin(llvm::zip(row.staged, staging))) {
                        Value v = memref::LoadOp::create(b, loc, stage, source);
                        memref::StoreOp::create(b, loc, v, operand, at(e));
                      }
                    });
  }

  RewriterBase &b;
  const sift::RowOp &row;
  int64_t threads;
  bool barriers;
  bool halfNanLayout;
  bool bareZeroUnchecked;
  Location loc;
  int64_t padded = 1;
  Value tid, threadCount, indices, composites;
  SmallVector<Value> rowIvs, staging;
};

} // namespace

void sift::lowerRowsToWorkgroups(RewriterBase &rewriter, const RowOp &row,
                                 int64_t threads, bool barriers,
                                 bool halfNanLayout, bool bareZeroUnchecked) {
  Lowering(rewriter, row, threads, barriers, halfNanLayout, bareZeroUnchecked)
      .build();
}
