//===- WorkgroupNms.h - A workgroup per NMS (batch, class) ------*- C++ -*-===//
//
// Algorithm `workgroup_row` of sift.nms_per_class (distribute), applied by
// sift-workgroup-rows (WorkgroupNms.cpp).
//
// Phases:      mask: the workgroup's threads build the (batch, class)'s
//              suppression bit-mask; barrier; select: thread 0 walks the
//              candidates in order, keeping those whose bit is clear.
// Launches:    one, a workgroup per (batch, class).
// Plan buffers: the mask when it does not fit `maskBudget` bytes of
//              workgroup memory (a global buffer per (batch, class)).
// Limits:      at least one candidate and max_out > 0; static shapes.
// Follows:     the CUDA NMS of torchvision (bit-mask, greedy walk), a
//              (batch, class) to a workgroup.
// Faults:      dist-no-barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// Builds, at the rewriter's insertion point, one gpu.launch with a
/// workgroup of `threads` threads per (batch, class) of `op` (bufferized,
/// static shapes, at least one candidate and max_out > 0). The suppression
/// mask of a (batch, class) lives in workgroup memory when it fits
/// `maskBudget` bytes, else in a host-allocated global buffer. `barriers`
/// false drops the barrier (fault dist-no-barrier). Does not erase `op`.
mlir::LogicalResult lowerNmsPerClassToWorkgroups(mlir::RewriterBase &rewriter,
                                                 NmsPerClassOp op,
                                                 int64_t threads, bool barriers,
                                                 int64_t maskBudget);

} // namespace sift
