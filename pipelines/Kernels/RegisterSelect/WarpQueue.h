//===- WarpQueue.h - warp_select's queue of a warp's k best -----*- C++ -*-===//
//
// The warp queue of algorithm `warp_select` (RegisterSelect.cpp builds the
// launches, the composites and the tree merge): a warp of 32 keeps its k
// best composites spread over its lanes, lane l the l-th, and every lane
// holds the warp's k-th. An item goes in only when it beats the k-th, so
// after the first steps most items cost a compare.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

namespace sift {

class WarpQueue : RowKernelBuilder {
public:
  /// A queue of `k` (2 to 32) composites of integer type `type` (i32 or
  /// i64); `headUnfilled` plants fault warp-queue-head-unfilled.
  WarpQueue(mlir::Location loc, int64_t k, mlir::Type type, bool headUnfilled)
      : RowKernelBuilder(loc), k(k), type(type), headUnfilled(headUnfilled) {}

  /// The queue (`slot`: the lane's, `kth`: the warp's k-th) after
  /// every lane's composite `c` that beats the k-th went in, one at a
  /// time. `lane`: the thread's place in its warp (index). Returns (slot,
  /// kth).
  std::pair<mlir::Value, mlir::Value> insert(mlir::OpBuilder &b,
                                             mlir::Value lane, mlir::Value c,
                                             mlir::Value slot, mlir::Value kth);

  /// The lane's slot after a walk over `length` items from thread `tid`
  /// in steps of `stride` items (the workgroup's threads times the items
  /// a thread loads a step): `step(b, base, checked)` loads one step's
  /// composites from `base` (an item past the end 0, when `checked`). Every
  /// thread takes the same steps, the whole ones unchecked and at most one
  /// checked, so that a warp's lanes meet at every ballot.
  mlir::Value
  walk(mlir::OpBuilder &b, mlir::Value tid, mlir::Value length, int64_t stride,
       llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &,
                                                         mlir::Value, bool)>
           step);

private:
  /// A composite through `shuffle` (of an i32): itself, or an i64 as two
  /// halves joined again.
  mlir::Value shuffleComposite(
      mlir::OpBuilder &b, mlir::Value v,
      llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)> shuffle);

  /// Lane `lane`'s (i32) composite `v` of the warp.
  mlir::Value fromLane(mlir::OpBuilder &b, mlir::Value v, mlir::Value lane);

  /// A constant composite.
  mlir::Value constant(mlir::OpBuilder &b, int64_t v);

  int64_t k;
  mlir::Type type;
  bool headUnfilled;
};

} // namespace sift
