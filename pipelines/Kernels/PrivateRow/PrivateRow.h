//===- PrivateRow.h - A thread's row in its private memory ------*- C++ -*-===//
//
// Algorithm `private_row` (sift.sort, sift.topk; tileandfuse), applied by
// sift-lower-to-loops at each point of a tiled op's loop nest.
//
// Phases:      copy the row in, run the op's scalar implementation
//              (Dialect/SiftTilingInterface.cpp) on the private copy, copy
//              the results out.
// Launches:    none of its own: it is the body of a tiled op's thread.
// Plan buffers: none; per-thread allocas in private memory.
// Limits:      the row and its k best must fit the chip's private memory
//              (a split's part: its k best in kSplitPartPrivateBytes); by
//              default a sort only while its insertion sort is short
//              (Strategy/SelectLoweringStrategy.cpp, privateRowFits).
// Follows:     no paper: a thread's scratch in private memory, as IREE's
//              tileandfuse keeps it (its issue #20505 put it in global).
// Faults:      nms-sort-global-temp (IREE #20505: the buffers in global
//              memory, allocated per thread).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace sift {

/// Emits, at `b`'s insertion point, the row of `op` (a sift.sort or
/// sift.topk on memrefs) at the loop indices `ivs` (every dimension but the
/// op's): staged in private memory, computed by the scalar implementation,
/// copied back.
mlir::LogicalResult emitPrivateRow(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Operation *op, mlir::ValueRange ivs);

} // namespace sift
