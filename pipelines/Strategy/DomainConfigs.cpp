//===- DomainConfigs.cpp - Tiles and threads over an iteration domain -----===//
//
// The default and random lowering configs of an op's iteration domain that
// sift-select-lowering-strategy starts from (DomainConfigs.h).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Strategy/DomainConfigs.h"

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/Builders.h"

#include <algorithm>

using namespace mlir;
using sift::nextPowerOfTwo;

/// Builds the config: `tiles` is the workgroup tile per domain dimension,
/// `threadTiles` the per-thread tile; workgroup x/y/z are the innermost
/// three dimensions' thread counts.
static sift::LoweringConfigAttr makeConfig(MLIRContext *context,
                                           ArrayRef<int64_t> tiles,
                                           ArrayRef<int64_t> threadTiles,
                                           sift::Algorithm algorithm) {
  SmallVector<int64_t> size = {1, 1, 1};
  int64_t rank = tiles.size();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t axis = rank - 1 - d; // x = innermost
    if (d < 3)
      size[d] = tiles[axis] / threadTiles[axis];
  }
  Builder b(context);
  return sift::LoweringConfigAttr::get(context, b.getDenseI64ArrayAttr(tiles),
                                       b.getDenseI64ArrayAttr(threadTiles),
                                       b.getDenseI64ArrayAttr(size), algorithm);
}

/// Threads a workgroup may have along block dimension `d` (0 = x): CUDA
/// allows 1024 along x and y but only 64 along z (AMD GPUs 1024 each; the
/// smaller limit serves both).
static int64_t maxThreadsAlong(int64_t d) { return d == 2 ? 64 : 1024; }

/// The default: the innermost dimension gets up to `maxThreads` threads
/// (its size rounded up to a power of two), the next ones what is left.
sift::LoweringConfigAttr sift::defaultConfig(MLIRContext *context,
                                             ArrayRef<int64_t> domain,
                                             int64_t maxThreads,
                                             sift::Algorithm algorithm) {
  int64_t rank = domain.size();
  SmallVector<int64_t> tiles(rank, 1), threadTiles(rank, 1);
  int64_t budget = maxThreads;
  for (int64_t d = 0; d < std::min<int64_t>(rank, 3); ++d) {
    int64_t axis = rank - 1 - d;
    int64_t tile = std::min({nextPowerOfTwo(std::max<int64_t>(domain[axis], 1)),
                             budget, maxThreadsAlong(d)});
    tiles[axis] = tile;
    budget /= tile;
  }
  return makeConfig(context, tiles, threadTiles, algorithm);
}

/// A random valid config: powers of two per innermost dimension within the
/// 1024-thread limit, workgroup tiles along y and z that keep the grid
/// within kMaxGridYZ, and a random per-thread tile dividing each, with at
/// most `maxPerThread` domain points per thread (a thread's tile of a sift
/// op is that many rows, each a per-thread temporary in tileandfuse).
sift::LoweringConfigAttr
sift::randomConfig(MLIRContext *context, ArrayRef<int64_t> domain,
                   sift::Algorithm algorithm, ConfigRng &rng,
                   int64_t maxPerThread, int64_t spreadAbove) {
  int64_t rank = domain.size();
  SmallVector<int64_t> tiles(rank, 1), threadTiles(rank, 1);
  int64_t budget = 1024;
  int64_t perThread = 1;
  for (int64_t d = 0; d < std::min<int64_t>(rank, 3); ++d) {
    int64_t axis = rank - 1 - d;
    int64_t limit = nextPowerOfTwo(std::max<int64_t>(domain[axis], 1)) * 2;
    SmallVector<int64_t> choices;
    for (int64_t t = 1; t <= limit && t <= 1024; t *= 2)
      if (d == 0 || (domain[axis] + t - 1) / t <= kMaxGridYZ)
        choices.push_back(t);
    if (choices.empty()) // Over 2^26 along y or z: the largest tile.
      choices.push_back(1024);
    int64_t tile = choices[rng.below(choices.size())];
    SmallVector<int64_t> threadChoices;
    for (int64_t t = 1; t <= tile; t *= 2)
      if (tile / t <= std::min(budget, maxThreadsAlong(d)) &&
          (t == 1 || perThread * t <= maxPerThread))
        threadChoices.push_back(t);
    // Too few threads for the tile with one point each: shrink the tile.
    if (threadChoices.empty()) {
      tile = std::min(budget, maxThreadsAlong(d));
      threadChoices.push_back(1);
    }
    int64_t threadTile = threadChoices[rng.below(threadChoices.size())];
    tiles[axis] = tile;
    threadTiles[axis] = threadTile;
    perThread *= threadTile;
    budget /= tile / threadTile;
  }
  // Past `spreadAbove` points a thread, spread them, drawing nothing (the
  // draws stay those of before): innermost first, over more threads while
  // the workgroup has room, else over smaller workgroup tiles (more
  // workgroups, within kMaxGridYZ along y and z).
  int64_t threads = 1;
  for (int64_t d = 0; d < std::min<int64_t>(rank, 3); ++d)
    threads *= tiles[rank - 1 - d] / threadTiles[rank - 1 - d];
  for (int64_t d = 0; d < std::min<int64_t>(rank, 3); ++d) {
    int64_t axis = rank - 1 - d;
    while (perThread > spreadAbove && threadTiles[axis] > 1) {
      int64_t along = tiles[axis] / threadTiles[axis];
      if (threads * 2 <= 1024 && along * 2 <= maxThreadsAlong(d)) {
        threads *= 2;
      } else {
        int64_t grid = (domain[axis] + tiles[axis] / 2 - 1) / (tiles[axis] / 2);
        if (d > 0 && grid > kMaxGridYZ)
          break;
        tiles[axis] /= 2;
      }
      threadTiles[axis] /= 2;
      perThread /= 2;
    }
  }
  return makeConfig(context, tiles, threadTiles, algorithm);
}
