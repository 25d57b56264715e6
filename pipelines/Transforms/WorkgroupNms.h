//===- WorkgroupNms.h - A workgroup per NMS (batch, class) ------*- C++ -*-===//
//
// The cooperative lowering of `sift.nms_per_class` that sift-workgroup-rows
// applies to ops whose config says `workgroup_row` (WorkgroupNms.cpp).
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
