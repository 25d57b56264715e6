//===- RowKernels.h - What cooperative row kernels share --------*- C++ -*-===//
//
// Not an algorithm of its own: what the workgroup kernels of Kernels/
// share (RowKernels.cpp). A bufferized op seen as rows (RowOp), the
// thread-strided loop, the (key, index) order that makes any comparator a
// strict total order (and so a sort stable), the order-preserving bits of
// named orders, and the bitonic network that sorts slots of workgroup
// memory with it (Batcher, 1968). WorkgroupRow sorts a whole row with them,
// MergeRows a tile of a long row; RadixSort, RadixSelect and RegisterSelect
// take their order bits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

#include <functional>

namespace sift {

/// The strict "a goes before b" of two keys of an op (its comparator or
/// named order).
using KeyBefore = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                            mlir::Value, mlir::Value)>;

/// A bufferized sift.sort or sift.topk seen as rows: what a row kernel
/// needs to know about it.
struct RowOp {
  mlir::Operation *op = nullptr;
  int64_t dim = 0;                       ///< the sorted / selected dimension
  int64_t n = 0;                         ///< its size
  mlir::SmallVector<mlir::Value> staged; ///< sort: its operands (key first);
                                         ///< top-k: its input
  /// Where each staged operand's row is first read: the operand itself, or
  /// after foldCopiesIntoRow the source of a copy into it (a sort of a
  /// copy of a read-only input reads the input and writes its operand).
  mlir::SmallVector<mlir::Value> sources;
  /// The copies foldCopiesIntoRow folded: the lowering erases them.
  mlir::SmallVector<mlir::Operation *> foldedCopies;
  /// After foldIotasIntoRow, per staged operand: whether a fill right before
  /// the op made it its positions along `dim` (an argsort's iota payload),
  /// so that a lowering writes each element's first position instead of
  /// reading the operand; the fills it folded are in `foldedIotas`, which
  /// the lowering erases.
  mlir::SmallVector<bool> iotas;
  mlir::SmallVector<mlir::Operation *> foldedIotas;
  mlir::SmallVector<int64_t> domain;     ///< the other dimensions' sizes
  KeyBefore before;                      ///< the op's order of two keys
  /// Rows: the product of `domain`.
  int64_t rows() const;
};

/// Describes `op` (a sift.sort or sift.topk on statically shaped memrefs);
/// an error on `op` otherwise.
mlir::FailureOr<RowOp> describeRow(mlir::Operation *op);

/// Lets a sort read its rows from where they were copied from: each
/// linalg.copy right before `row.op` (only such copies in between) that
/// fills a staged operand from another whole buffer (a function argument or
/// an allocation, same type) becomes that operand's source and is recorded
/// in `row.foldedCopies`; the lowering erases them. Nothing for a top-k.
void foldCopiesIntoRow(RowOp &row);

/// Finds a sort's other operands that are an iota along the sorted
/// dimension: a linalg.generic right before `row.op` (only linalg.copy ops
/// that do not touch the operand, and other such fills, in between) that
/// writes the whole operand, with an identity map and no inputs, each
/// element the cast of its own `linalg.index` along `row.dim`. Records them
/// in `row.iotas` and `row.foldedIotas`. Nothing for a top-k.
void foldIotasIntoRow(RowOp &row);

/// Whether `generic` (on tensors or memrefs) fills its one output, with an
/// identity map, no inputs and parallel loops, with each element's
/// `linalg.index` along `dim` cast to its integer element type.
bool isIotaAlong(mlir::linalg::GenericOp generic, int64_t dim);

/// The value an iota operand of element type `type` holds at the position
/// `position` (an integer, a row position): the position cast to `type`.
mlir::Value iotaValue(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value position, mlir::Type type);

/// The domain indices (row-major over `domain`) of row number `linear`.
mlir::SmallVector<mlir::Value> delinearizeRow(mlir::OpBuilder &b,
                                              mlir::Location loc,
                                              mlir::Value linear,
                                              llvm::ArrayRef<int64_t> domain);

/// The indices of element `position` of the row at `rowIvs` in an operand
/// whose row dimension is `dim`.
mlir::SmallVector<mlir::Value>
rowElementIndices(llvm::ArrayRef<mlir::Value> rowIvs, int64_t dim,
                  mlir::Value position);

/// Builds `for (e = tid; e < upper; e += threads) body(e)` (index values).
void forEachOfThread(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid, mlir::Value upper,
    mlir::Value threads,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location, mlir::Value)>
        body);

/// (ka, ia) goes before (kb, ib): `before(ka, kb)`, or neither key before
/// the other and ia < ib (signed integer indices of one type). A strict
/// total order whatever `before` is, as long as it is a strict weak order.
mlir::Value buildKeyIndexBefore(mlir::OpBuilder &b, mlir::Location loc,
                                const KeyBefore &before, mlir::Value ka,
                                mlir::Value ia, mlir::Value kb, mlir::Value ib);

/// Sorts `padded` (a power of two) (key, slot) pairs, held in the workgroup
/// memrefs `keys` and `slots` of `padded` elements each, in place with a
/// bitonic network. Slots are i32 element numbers; those >= `count` (i32)
/// are padding and go after every element (their keys must be initialized,
/// to any value); the others go by (key, slot) under `before`, which makes
/// the sort stable. In each step thread `tid` of `threads` compare-exchanges
/// pairs tid, tid + threads, ... of the padded / 2 pairs, so that every
/// thread has work and neighbouring threads touch neighbouring slots; a
/// gpu.barrier follows every step unless `barriers` is false (fault
/// dist-no-barrier). The caller puts a barrier between filling the arrays
/// and the network.
void buildBitonicSort(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tid,
                      mlir::Value threads, int64_t padded, mlir::Value keys,
                      mlir::Value slots, mlir::Value count,
                      const KeyBefore &before, bool barriers);

/// The most bits of a slot number a buildCompositeBitonicSort thread's
/// registers span (8 composites a thread).
inline constexpr int64_t kCompositeBitonicMaxWidth = 3;

/// How many bits of a slot number the composites a thread of
/// buildCompositeBitonicSort holds span: the most (up to
/// kCompositeBitonicMaxWidth, at least 1) that still give each of `threads`
/// threads a group of `padded` slots.
int64_t compositeBitonicWidth(int64_t threads, int64_t padded);

/// Steps of a bitonic network over 2^stages slots (stage s sorts blocks of
/// 2^s; a step pairs the slots 2^bit apart) that a thread performs on
/// composites it holds in registers: those of slots whose numbers differ
/// only in bits [lo, lo + width).
struct BitonicPhase {
  int64_t lo = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>> steps; ///< (stage, bit)
};

/// The network's steps, in order, grouped into phases of at most `width`
/// consecutive bits: stages 1 to `width` in one, then each later stage from
/// its top bit down in chunks of `width` (the last chunk's window starts at
/// bit 0).
llvm::SmallVector<BitonicPhase> bitonicPhases(int64_t stages, int64_t width);

/// Where composite `e` of a buildCompositeBitonicSort array lives in it: e
/// with its low five bits flipped by bits 3-7 (a permutation of every
/// aligned 32 slots: bits 3 and 4 flip only bits 0 and 1), so that a
/// warp's loads and stores of a phase, whose slot numbers differ in the
/// bits below and above the phase's window, hit different banks: of
/// every 4- and 8-byte phase of 256 to 8192 slots with 8 composites a
/// thread, none conflicts (a bank model of the accesses; bits 4-7 onto
/// the low four left a third more wavefronts at 8 bytes and 70 % more at
/// 4).
mlir::Value compositeSlot(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value e);

/// Sorts `padded` (a power of two) i64 composites held in the workgroup
/// memref `keys` (composite e at compositeSlot(e)) ascending (unsigned) in
/// place with a bitonic network. A composite compares as one integer, so a
/// compare-exchange is a min and a max. The network's steps go in phases:
/// in each, a thread loads a group of 2^w composites whose numbers differ
/// only in w consecutive bits (w = compositeBitonicWidth), performs every
/// step of the phase that pairs within those bits in registers, and stores
/// them back; the first w stages make one phase, every later stage one per
/// w of its bits (at w = 3, 22 phases for 1024 slots where the network has
/// 55 steps). Groups go to threads tid, tid + threads, ...; a gpu.barrier
/// follows every phase unless `barriers` is false (fault dist-no-barrier).
/// Composites must be distinct (an element's position in its low bits
/// makes them so); padding is all ones.
void buildCompositeBitonicSort(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value tid, int64_t threads, int64_t padded,
                               mlir::Value keys, bool barriers);

/// The order-preserving bits of `value` (an integer or float key) as an
/// integer of its width whose unsigned order is SEMANTICS.md's total order
/// of keys: integers signed; floats with -0 = +0 (both give +0's bits) and
/// every NaN one key (all ones) above +inf. `invert` flips every bit (the
/// reverse order). Equal keys give equal bits. `halfNanLayout` (fault
/// bf16-order-f16-layout) tests every 16-bit float for NaN on its bits with
/// f16's exponent mask, which is right for f16 and wrong for bf16.
mlir::Value buildOrderBits(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, bool invert,
                           bool halfNanLayout = false);

/// Builds a gpu.launch of `blocks` workgroups of `threads` threads along x;
/// `body` gets the block and thread ids (x). The builder continues after
/// the launch.
void buildLaunch(mlir::OpBuilder &b, mlir::Location loc, int64_t blocks,
                 int64_t threads,
                 llvm::function_ref<void(mlir::OpBuilder &, mlir::Value,
                                         mlir::Value)>
                     body);

/// A 1-D memref of `size` elements in workgroup memory.
mlir::MemRefType workgroupMemRefType(mlir::MLIRContext *context, int64_t size,
                                     mlir::Type element);

/// The smallest power of two >= n (1 for n <= 1).
int64_t nextPowerOfTwo(int64_t n);

/// What the multi-dispatch row algorithms (MergeRows, RadixSelect,
/// RadixSort) write most, at the op's location: index and integer
/// constants, integer arithmetic, the tile of a row a workgroup takes, work
/// for thread 0 alone. Their lowering classes derive from it.
class RowKernelBuilder {
protected:
  explicit RowKernelBuilder(mlir::Location loc) : loc(loc) {}

  mlir::Value index(mlir::OpBuilder &b, int64_t v) const;
  mlir::Value i32(mlir::OpBuilder &b, int64_t v) const;
  mlir::Value i64(mlir::OpBuilder &b, int64_t v) const;
  mlir::Value cmp(mlir::OpBuilder &b, mlir::arith::CmpIPredicate p,
                  mlir::Value x, mlir::Value y) const;
  mlir::Value add(mlir::OpBuilder &b, mlir::Value x, mlir::Value y) const;
  mlir::Value sub(mlir::OpBuilder &b, mlir::Value x, mlir::Value y) const;
  mlir::Value mul(mlir::OpBuilder &b, mlir::Value x, mlir::Value y) const;
  mlir::Value minu(mlir::OpBuilder &b, mlir::Value x, mlir::Value y) const;
  /// An unsigned integer as an index.
  mlir::Value toIndex(mlir::OpBuilder &b, mlir::Value v) const;

  /// The tile of a row that workgroup `block` takes when each row is cut
  /// into `perRow` tiles of `size` elements: its row, number in the row,
  /// first element, length (the last one may be short) and the row's
  /// domain indices.
  struct Tile {
    mlir::Value r, number, start, length;
    mlir::SmallVector<mlir::Value> rowIvs;
  };
  Tile tileOf(mlir::OpBuilder &b, mlir::Value block, int64_t perRow,
              int64_t size, const RowOp &row) const;

  /// A binary search: the least i in [lo, hi) for which `goesOn(i)` is
  /// false, `goesOn` true then false along the range (hi when always true).
  mlir::Value
  lowerBound(mlir::OpBuilder &b, mlir::Value lo, mlir::Value hi,
             llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)>
                 goesOn) const;

  /// Runs `body` on thread `tid` 0 only.
  void onThreadZero(mlir::OpBuilder &b, mlir::Value tid,
                    llvm::function_ref<void(mlir::OpBuilder &)> body) const;

  mlir::Location loc;
};

} // namespace sift
