//===- NmsConfigs.cpp - Lowering configs of sift.nms_per_class ------------===//
//
// What the strategy gives an NMS per class: mask_blocks (a blocked
// suppression mask over the GPU, walked a workgroup per (batch, class)),
// mask_tiles (tileandfuse's own mask, thread tiles of candidates),
// workgroup_row (a workgroup builds its (batch, class)'s mask and walks it)
// or row_per_thread (a thread's selection in place): the defaults, and the
// draws of --random-config. SelectLoweringStrategy.cpp calls nmsConfig.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Strategy/NmsConfigs.h"

#include "pipelines/Kernels/Nms/MaskNms.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"
#include "pipelines/Strategy/RowConfigs.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using sift::ConfigRng;
using sift::defaultConfig;
using sift::kSerialStepsPerThread;
using sift::nextPowerOfTwo;
using sift::randomConfig;
using sift::randomPowerOfTwo;
using sift::rowsOf;
using sift::rowTileConfig;
using sift::workgroupRowConfig;

namespace {

/// The most IoUs a random config gives one thread of an NMS workgroup_row's
/// mask, or of its rows' walks in row_per_thread (~0.2 us each from global
/// memory on the H100).
constexpr int64_t kLongestIouWalk = 4096;
/// Candidates of a default mask_tiles thread tile (their boxes in 16
/// registers; each column box read serves 4 IoUs).
constexpr int64_t kMaskTileRows = 4;

/// The most mask bytes (B * C * N * ceil(N / 64) words) mask_blocks
/// allocates: a detection head of 80 classes x 20,000 boxes takes 3.7 GiB.
constexpr int64_t kMaskBlocksMaxBytes = int64_t{4} << 30;

/// The mask_blocks config of an NMS over `domain` (batch, class) with `n`
/// sorted candidates, or null when its mask or its walk's workgroup memory
/// would not fit (or its mask grid would be too large). Default: mask
/// workgroups of 8 words, a walk workgroup of one thread per later word
/// (64 to 512); random: any power-of-two group up to the words and any
/// power-of-two walk threads up to 1024.
sift::LoweringConfigAttr maskBlocksConfig(MLIRContext *context,
                                          ArrayRef<int64_t> domain, int64_t n,
                                          int64_t maxWorkgroupMemory,
                                          bool random, ConfigRng &rng) {
  int64_t rows = rowsOf(domain);
  int64_t words = (n + sift::kNmsBlock - 1) / sift::kNmsBlock;
  if (n < 2 || rows < 1 || sift::maskNmsWalkBytes(n) > maxWorkgroupMemory ||
      rows > kMaskBlocksMaxBytes / 8 / n / words ||
      rows * words * words > std::numeric_limits<int32_t>::max())
    return {};
  int64_t paddedWords = nextPowerOfTwo(words);
  int64_t group = std::min<int64_t>(8, paddedWords);
  int64_t threads = std::clamp<int64_t>(paddedWords, 64, 512);
  if (random) {
    group = randomPowerOfTwo(1, paddedWords, rng);
    // A warp at least: the walk's threads merge each kept box's row
    // (4 threads over 52 words took 9-10 ms of a campaign's kernels).
    threads = randomPowerOfTwo(32, 1024, rng);
  }
  return rowTileConfig(context, domain.size(), threads, group,
                       sift::Algorithm::MaskBlocks);
}

/// The mask_tiles config (tileandfuse's own NMS mask) for the same NMS
/// as `blocks` (a mask_blocks config, null when the mask does not fit):
/// its walk threads and thread tiles of `tileRows` candidates. Null when
/// the mask does not fit or its grid would be too large.
sift::LoweringConfigAttr maskTilesConfig(MLIRContext *context,
                                         ArrayRef<int64_t> domain, int64_t n,
                                         sift::LoweringConfigAttr blocks,
                                         int64_t tileRows) {
  if (!blocks || !sift::maskTilesGridFits(rowsOf(domain), n, tileRows))
    return {};
  return rowTileConfig(context, domain.size(), blocks.getWorkgroupSize()[0],
                       tileRows, sift::Algorithm::MaskTiles);
}

/// An NMS's workgroup_row config: a workgroup per (batch, class) of `n`
/// candidates.
sift::LoweringConfigAttr nmsWorkgroupRowConfig(MLIRContext *context,
                                               ArrayRef<int64_t> domain,
                                               int64_t n, bool random,
                                               ConfigRng &rng) {
  int64_t padded = nextPowerOfTwo(n);
  int64_t threads = std::clamp<int64_t>(padded, 32, 256);
  if (random) {
    // The workgroup builds the row's n^2 / 2 IoUs of its mask alone: at
    // least enough threads that each computes kLongestIouWalk (one thread
    // of 513 boxes took 26 ms, a campaign's slowest kernel).
    int64_t most = std::min<int64_t>(padded, 1024);
    int64_t least = std::min<int64_t>(
        most,
        nextPowerOfTwo(std::max<int64_t>(1, n * n / 2 / kLongestIouWalk)));
    int lo = llvm::countr_zero(static_cast<uint64_t>(least));
    int hi = llvm::countr_zero(static_cast<uint64_t>(most));
    threads = int64_t{1} << (lo + rng.below(1 + hi - lo));
  }
  return workgroupRowConfig(context, domain.size(), threads);
}

/// An NMS's row_per_thread config (`walk`: one (batch, class)'s IoUs).
sift::LoweringConfigAttr nmsThreadConfig(MLIRContext *context,
                                         ArrayRef<int64_t> domain,
                                         int64_t walk, bool random,
                                         ConfigRng &rng) {
  // Random tiles give a thread rows whose walks stay within
  // kLongestIouWalk IoUs together.
  return random
             ? randomConfig(context, domain, sift::Algorithm::RowPerThread,
                            rng, std::max<int64_t>(1, kLongestIouWalk / walk))
             : defaultConfig(context, domain, 64,
                             sift::Algorithm::RowPerThread);
}

} // namespace

sift::LoweringConfigAttr sift::nmsConfig(NmsPerClassOp nms, Pipeline kind,
                                         ArrayRef<int64_t> domain,
                                         int64_t maxWorkgroupMemory,
                                         bool random, ConfigRng &rng,
                                         ConfigRng *aim) {
  MLIRContext *context = nms->getContext();
  int64_t n =
      cast<ShapedType>(nms.getSortedScores().getType()).getDimSize(2);
  bool candidates = n >= 2 && nms.getMaxOutPerClass() > 0;
  // A thread's walk: N candidates, each against up to max_out kept.
  bool shortWalk = n * std::min<int64_t>(n, nms.getMaxOutPerClass()) <=
                   kSerialStepsPerThread;
  bool distribute = kind == sift::Pipeline::Distribute;
  sift::LoweringConfigAttr mask =
      candidates ? maskBlocksConfig(context, domain, n, maxWorkgroupMemory,
                                  random, rng)
                 : sift::LoweringConfigAttr();
  // tileandfuse's own mask: thread tiles of kMaskTileRows candidates by
  // default; random configs (both pipelines) draw any power of two from 1
  // to 64 whose grid fits (64 has the smallest grid).
  sift::LoweringConfigAttr tiles = maskTilesConfig(
      context, domain, n, mask, random ? sift::kNmsBlock : kMaskTileRows);
  int64_t walk =
      std::max<int64_t>(1, n * std::min<int64_t>(n, nms.getMaxOutPerClass()));
  if (!random) {
    if (mask && distribute)
      return mask;
    if (tiles && !shortWalk)
      return tiles;
    return distribute && candidates
               ? nmsWorkgroupRowConfig(context, domain, n, random, rng)
               : nmsThreadConfig(context, domain, walk, random, rng);
  }
  // Random: any that fits, but a long walk goes to one thread, and a row
  // of more than 1024 candidates to workgroup_row (its mask built by one
  // workgroup), only when nothing else can take it (a campaign's slowest
  // kernels were these).
  SmallVector<sift::Algorithm> choices;
  if (mask)
    choices.push_back(sift::Algorithm::MaskBlocks);
  if (tiles)
    choices.push_back(sift::Algorithm::MaskTiles);
  if (distribute && candidates && (n <= 1024 || !mask))
    choices.push_back(sift::Algorithm::WorkgroupRow);
  if (walk <= kLongestIouWalk || choices.empty())
    choices.push_back(sift::Algorithm::RowPerThread);
  sift::Algorithm drawn = choices[rng.below(choices.size())];
  // The aim (its own stream, after the main draw): four in five draws
  // that did not take a mask take one, and a mask_tiles tile of one row
  // (which has no last row) becomes 2 to kRandomMaskTileRows rows. The
  // masks' blocks and tiles are where the GPU NMS's edges are.
  bool aimed = aim && (mask || tiles) && aim->below(5) < 4;
  if (aimed && drawn != sift::Algorithm::MaskBlocks &&
      drawn != sift::Algorithm::MaskTiles)
    drawn = mask && tiles ? (aim->below(2) ? sift::Algorithm::MaskTiles
                                           : sift::Algorithm::MaskBlocks)
            : mask        ? sift::Algorithm::MaskBlocks
                          : sift::Algorithm::MaskTiles;
  switch (drawn) {
  case sift::Algorithm::MaskBlocks: return mask;
  case sift::Algorithm::MaskTiles: {
    // Tiles of more than kRandomMaskTileRows rows are drawn again (a
    // tile's IoUs are unrolled: 64 rows took 0.9 s to compile for gfx942,
    // a fifth of a 5 s case budget); the first draw stays as it was, so
    // configs drawn before keep their tiles.
    int64_t tileRows = randomPowerOfTwo(1, sift::kNmsBlock, rng);
    if (tileRows > sift::kRandomMaskTileRows)
      tileRows = randomPowerOfTwo(1, sift::kRandomMaskTileRows, rng);
    if (aimed && tileRows == 1)
      tileRows = randomPowerOfTwo(2, sift::kRandomMaskTileRows, *aim);
    while (!sift::maskTilesGridFits(rowsOf(domain), n, tileRows))
      tileRows *= 2;
    return maskTilesConfig(context, domain, n, mask, tileRows);
  }
  case sift::Algorithm::WorkgroupRow:
    return nmsWorkgroupRowConfig(context, domain, n, random, rng);
  default: return nmsThreadConfig(context, domain, walk, random, rng);
  }
}

