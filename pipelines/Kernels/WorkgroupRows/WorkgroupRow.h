//===- WorkgroupRow.h - A workgroup per sort or top-k row -------*- C++ -*-===//
//
// Algorithm `workgroup_row` (sift.sort, sift.topk; distribute and
// tileandfuse), applied by sift-workgroup-rows.
//
// Phases:      stage the row in workgroup memory, sort it with the bitonic
//              network of RowKernels.h (a barrier after every step), write
//              it back (top-k: its first k and their indices).
// Launches:    one, a workgroup a row.
// Plan buffers: none; the staging is workgroup memory.
// Limits:      the row, padded to a power of two, with an i32 slot per
//              element must fit the chip's workgroup memory (the strategy's
//              RowShape::workgroupBytes).
// Follows:     Batcher's bitonic sorting network (1968), as in CUDA's
//              sortingNetworks sample; made stable by sorting (key, index).
// Faults:      dist-no-barrier (no barriers); bf16-order-f16-layout (the
//              composites' order bits); bare-keys-unchecked (the bare-key
//              sort's check for zeros and NaNs).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// Builds, at the rewriter's insertion point, the launch that sorts (or
/// selects the top k of) every row of `row` with a workgroup of `threads`
/// threads a row. `barriers` false drops the barriers (fault
/// dist-no-barrier); `halfNanLayout` plants fault bf16-order-f16-layout in
/// the composites' order bits; `bareZeroUnchecked` fault
/// bare-keys-unchecked in the bare-key sort. Does not erase the op.
void lowerRowsToWorkgroups(mlir::RewriterBase &rewriter, const RowOp &row,
                           int64_t threads, bool barriers,
                           bool halfNanLayout = false,
                           bool bareZeroUnchecked = false);

} // namespace sift
