//===- MaskNms.h - NMS by a blocked suppression mask ------------*- C++ -*-===//
//
// Algorithms `mask_blocks` and `mask_tiles` (sift.nms_per_class; both GPU
// pipelines, mask_tiles tileandfuse's own), applied by sift-workgroup-rows.
// Its home: MaskNms.cpp (the entry and the two mask kernels), MaskNmsWalk.cpp
// (the walk) and MaskNmsLowering.h (the builder they share).
//
// Phases:      mask: each pair of candidates of a (batch, class), upper
//              triangle only, one bit of a 64-bit word per IoU test, by
//              blocks of 64 candidates (mask_blocks) or thread tiles of R
//              candidates (mask_tiles); walk: a workgroup per (batch,
//              class) decides a block of 64 at a time and merges the kept
//              rows into the later words.
// Launches:    two (mask, walk).
// Plan buffers: the mask, B x C x N x ceil(N / 64) words.
// Limits:      the mask at most 4 GiB (Strategy/NmsConfigs.cpp); the
//              candidates arrive sorted (sift-decompose-nms).
// Follows:     the CUDA NMS of torchvision and Detectron (a bit-mask over
//              blocks of 64, then a greedy walk), with the walk on the GPU.
// Faults:      nms-mask-last-bit-lost, nms-walk-row-not-merged,
//              nms-tile-last-row-first-box, dist-no-barrier.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/PatternMatch.h"

namespace sift {

/// How a mask_blocks or mask_tiles lowering is built: the config's walk
/// threads and mask words per workgroup (mask_blocks) or candidates per
/// thread tile (mask_tiles), whether the mask kernel stages boxes in
/// workgroup memory, and the faults it may plant.
struct MaskNmsOptions {
  int64_t walkThreads = 64;  ///< threads of the walk's workgroup
  int64_t group = 8;         ///< mask words a mask workgroup computes per row
  int64_t tileRows = 0;      ///< mask_tiles: candidates of a thread's tile
  bool stageBoxes = true;    ///< distribute: boxes staged in workgroup memory
  bool barriers = true;      ///< false: fault dist-no-barrier
  bool lastBitLost = false;  ///< fault nms-mask-last-bit-lost
  bool rowNotMerged = false; ///< fault nms-walk-row-not-merged
  bool tileRowShifted = false; ///< fault nms-tile-last-row-first-box
};

/// Candidates in one block of the mask (one 64-bit word's worth).
constexpr int64_t kNmsBlock = 64;

/// Threads of a mask_tiles mask workgroup (a flat grid of thread tiles).
constexpr int64_t kMaskTileThreads = 128;

/// The most rows of a mask_tiles tile that --random-config draws (a grid
/// too large for smaller tiles still gets larger ones).
constexpr int64_t kRandomMaskTileRows = 16;

/// Whether mask_tiles' mask grid (a thread per tile of `tileRows`
/// candidates x one word, over B * C = `rows` rows of `n` candidates) fits
/// a launch.
bool maskTilesGridFits(int64_t rows, int64_t n, int64_t tileRows);

/// Workgroup memory (bytes) of mask_blocks' walk for rows of `n`
/// candidates: the removed set (a word per 64 candidates), two blocks'
/// diagonal words and boxes, a block's kept places and the count.
int64_t maskNmsWalkBytes(int64_t n);

/// Builds, at the rewriter's insertion point, the two dispatches of `op`
/// (bufferized, static shapes, at least one candidate and max_out > 0;
/// mask_tiles when `options.tileRows` > 0, else mask_blocks) and the mask
/// they share, a host-allocated plan buffer of B * C * N * ceil(N
/// / 64) words. Does not erase `op`.
mlir::LogicalResult lowerNmsPerClassByMaskBlocks(mlir::RewriterBase &rewriter,
                                                 NmsPerClassOp op,
                                                 const MaskNmsOptions &options);

} // namespace sift
