//===- RegisterSelect.h - Top-k of small k in registers ---------*- C++ -*-===//
//
// Algorithms `register_select` and `warp_select` (sift.topk; distribute and
// tileandfuse), applied by sift-workgroup-rows (RegisterSelect.cpp; the warp
// queue in WarpQueue.cpp).
//
// Phases:      select: each thread walks its share of a chunk, keeping its
//              k best composites (order bits above the inverted position)
//              sorted in registers; the threads' lists meet in workgroup
//              memory and a tree of bitonic merges keeps the workgroup's k
//              best; merge (rows of several chunks): the same over the
//              chunks' candidates. warp_select: each warp keeps its k
//              best over its lanes (lane l the l-th) and takes in only
//              what beats its k-th, one item at a time by ballot and
//              shuffles; the warps' lists meet in workgroup memory.
// Launches:    one (a workgroup a chunk), or two when a row has several
//              chunks.
// Plan buffers: the chunks' candidates, when a row has several chunks.
// Limits:      k <= kRegisterSelectMaxK (32), keys of at most 32 bits
//              (registerSelectable); 2 x threads x k composites of
//              workgroup memory, counted as i64 (registerSelectWorkgroupBytes;
//              keys of at most 16 bits in short rows take i32 composites);
//              warp_select whole warps of 32, k >= 2, 2 x warps x k.
// Follows:     the per-thread queues of Johnson, Douze and Jegou's
//              WarpSelect (Faiss, "Billion-scale similarity search with
//              GPUs", 2017), merged by a bitonic tree instead of warp
//              shuffles; warp_select their warp queue, fed an item at a
//              time instead of from thread queues.
// Faults:      select-merge-one-level-short, warp-queue-head-unfilled,
//              bf16-order-f16-layout (k = 1 widens bf16 keys as f16);
//              in the warp ops' lowering (Transforms/LowerWarpOps.cpp):
//              warp-shuffle-wave-width.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// How a register_select lowering is built: the config's chunk and threads,
/// and the fault it may plant.
struct RegisterSelectOptions {
  int64_t chunk = 0;       ///< elements of a row one workgroup selects from
  int64_t threads = 1;     ///< threads of a workgroup
  bool shortMerge = false; ///< fault select-merge-one-level-short
  bool warpQueue = false;  ///< warp_select: a warp's k best over its lanes
  bool headUnfilled = false; ///< fault warp-queue-head-unfilled
  bool halfNanLayout = false; ///< fault bf16-order-f16-layout (k = 1)
};

/// The largest k register_select takes: a thread keeps its k best in
/// registers and inserts with 2k min/max operations.
inline constexpr int64_t kRegisterSelectMaxK = 32;

/// The workgroup memory (bytes) a register_select workgroup of `threads`
/// threads takes for a top-k of `k`: every thread's k composites (i64),
/// twice (the merge reads one half and writes the other).
inline int64_t registerSelectWorkgroupBytes(int64_t threads, int64_t k) {
  return 2 * threads * k * 8;
}

/// The threads of a warp_select warp (sift's warp ops work in warps of 32).
inline constexpr int64_t kWarpSelectWarp = 32;

/// The workgroup memory (bytes) of a warp_select workgroup: every warp's k
/// composites, twice.
inline int64_t warpSelectWorkgroupBytes(int64_t threads, int64_t k) {
  return registerSelectWorkgroupBytes(threads / kWarpSelectWarp, k);
}

/// Whether warp_select can take `op`: register_select's limits and k >= 2
/// (a thread's best alone needs no queue).
bool warpSelectable(mlir::Operation *op);

/// Whether register_select can take `op`: a sift.topk with 1 <= k <=
/// kRegisterSelectMaxK whose keys have at most 32 bits (a key's order bits
/// and its row position make one i64).
bool registerSelectable(mlir::Operation *op);

/// Builds, at the rewriter's insertion point, the dispatches that select
/// the top k of every row of `row` (a sift.topk): one launch of a workgroup
/// per chunk of a row, and when a row has several chunks, a plan buffer of
/// their candidates and a second launch that selects from them. Does not
/// erase the op.
mlir::LogicalResult
lowerTopkByRegisterSelect(mlir::RewriterBase &rewriter, const RowOp &row,
                          const RegisterSelectOptions &options);

} // namespace sift
