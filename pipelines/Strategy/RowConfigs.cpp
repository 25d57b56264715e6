//===- RowConfigs.cpp - Lowering configs of the cooperative row kernels --===//
//
// The row a sort or top-k works on (RowShape) and the configs of the
// algorithms that tile it (merge_rows, radix_select, radix_sort,
// register_select): defaults from the row and the chip's workgroup memory,
// and random configs within the bounds campaigns can afford.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Strategy/RowConfigs.h"

#include "pipelines/Kernels/RadixSelect/RadixSelect.h"
#include "pipelines/Kernels/RadixSort/RadixSort.h"
#include "pipelines/Kernels/RegisterSelect/RegisterSelect.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace mlir;
using sift::ConfigRng;
using sift::nextPowerOfTwo;
using sift::RowShape;

/// The bytes of one element of `type` (at least 1).
static int64_t elementBytes(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

RowShape sift::rowShape(Operation *op) {
  RowShape row;
  if (auto sort = dyn_cast<sift::SortOp>(op)) {
    row.n = sort.getKeyType().getDimSize(sort.getDimension());
    row.keyBytes = elementBytes(sort.getKeyType().getElementType());
    int64_t bytes = 0;
    for (Value operand : sort.getOutputs())
      bytes +=
          elementBytes(cast<ShapedType>(operand.getType()).getElementType());
    // The key and the i32 indices padded to a power of two, the other
    // operands as they are.
    row.workgroupBytes = row.n * (bytes - row.keyBytes) +
                         nextPowerOfTwo(row.n) * (row.keyBytes + 4);
    row.privateBytes = row.n * bytes;
    row.composite = row.keyBytes <= 4 && !sort.hasComparator() &&
                    sort.getOrder().has_value();
    row.slots = sift::radixSortNeedsSlots(op);
    return row;
  }
  auto topk = cast<sift::TopkOp>(op);
  row.n = topk.getInputType().getDimSize(topk.getDimension());
  int64_t bytes = elementBytes(topk.getInputType().getElementType());
  row.keyBytes = bytes;
  row.k = topk.getK();
  row.workgroupBytes = nextPowerOfTwo(row.n) * (bytes + 4);
  row.privateBytes = row.n * bytes + topk.getK() * (bytes + 8);
  row.composite = bytes <= 4;
  return row;
}

/// merge_rows or radix_select: workgroups of `threads` threads along x,
/// each on `tile` elements of a row.
sift::LoweringConfigAttr sift::rowTileConfig(MLIRContext *context, int64_t rank,
                                             int64_t threads, int64_t tile,
                                             sift::Algorithm algorithm) {
  Builder b(context);
  SmallVector<int64_t> ones(rank, 1);
  return sift::LoweringConfigAttr::get(
      context, b.getDenseI64ArrayAttr(ones), b.getDenseI64ArrayAttr(ones),
      b.getDenseI64ArrayAttr({threads, 1, 1}), algorithm, tile);
}

/// Random configs of the cooperative algorithms keep a row within this many
/// tiles and a thread within this many of a tile's elements: the smallest
/// tiles and fewest threads on rows of 2^18 took 5-13 ms on the H100, a
/// p99 the campaigns cannot afford; short rows still get tiles from 2.
constexpr int64_t kRandomTilesPerRow = 1024;
constexpr int64_t kRandomItemsPerThread = 64;

/// The fewest threads a random config gives a workgroup of `items`
/// elements: at most kRandomItemsPerThread a thread.
int64_t sift::fewestRandomThreads(int64_t items) {
  return std::max<int64_t>(1, std::min<int64_t>(items, 1024) /
                                  kRandomItemsPerThread);
}

/// Any power of two from `lowest` up to `highest` (both powers of two).
int64_t sift::randomPowerOfTwo(int64_t lowest, int64_t highest,
                               ConfigRng &rng) {
  int64_t low = llvm::countr_zero(static_cast<uint64_t>(lowest));
  int64_t high = llvm::countr_zero(static_cast<uint64_t>(highest));
  return int64_t{1} << (low + rng.below(std::max<int64_t>(high - low, 0) + 1));
}

/// A random merge_rows or radix_select config: any power-of-two tile from 2
/// (and from the row's size / kRandomTilesPerRow) up to `largest` and the
/// row's size rounded up (small tiles make several merge or digit passes
/// out of a short row), any threads up to the tile from
/// fewestRandomThreads.
sift::LoweringConfigAttr sift::randomRowTileConfig(MLIRContext *context,
                                                   int64_t rank, int64_t n,
                                                   int64_t largest,
                                                   sift::Algorithm algorithm,
                                                   ConfigRng &rng) {
  int64_t most = std::min(largest, std::max<int64_t>(2, nextPowerOfTwo(n)));
  int64_t least = std::min(
      most, std::max<int64_t>(2, nextPowerOfTwo(n) / kRandomTilesPerRow));
  int64_t tile = randomPowerOfTwo(least, most, rng);
  int64_t threads = randomPowerOfTwo(fewestRandomThreads(tile),
                                     std::min<int64_t>(tile, 1024), rng);
  return rowTileConfig(context, rank, threads, tile, algorithm);
}

/// The most tiles the rows of a random radix_sort config make: their digit
/// counts take 1 KiB a tile (16 MiB); 37 K tiles of 4 elements, six
/// dispatches of tiny workgroups, took 3 ms on the H100.
constexpr int64_t kRadixSortMaxTiles = 16384;
/// Keys a radix_sort thread ranks by default (tiles of 1024 with 8 or 4
/// were slower on the H100).
constexpr int64_t kRadixSortItems = 16;

/// The radix_sort config of a row: tiles of up to 4096 elements,
/// kRadixSortItems a thread, the largest whose workgroup memory fits
/// `budget`; the tile at most the row rounded up to a power of two (from
/// 2). A random config draws any power-of-two tile that fits with one
/// thread and keeps `rows` within kRadixSortMaxTiles tiles, then any
/// power-of-two threads up to the tile that fit with it. radix_match's
/// threads are whole warps with at most kRadixSortItems items each (half
/// as many for 64-bit keys). A random config of `leastThreads` takes at
/// least that many threads where any tile fits them. Null when nothing
/// fits.
sift::LoweringConfigAttr
sift::radixSortConfig(MLIRContext *context, int64_t rank, int64_t rows,
                      const RowShape &row, int64_t budget, bool random,
                      ConfigRng &rng, sift::Algorithm algorithm,
                      int64_t leastThreads) {
  bool onesweep = algorithm == sift::Algorithm::RadixOnesweep;
  bool match = algorithm == sift::Algorithm::RadixMatch;
  // radix_match ranks in whole warps, at most 16 items a thread, 8 for
  // 64-bit keys: its ranking is unrolled over a thread's items in each of
  // the 8-bit passes, and eight passes of 16 took an f64 sort over 5 s to
  // compile for gfx942.
  int64_t matchItems = row.keyBytes > 4 ? kRadixSortItems / 2 : kRadixSortItems;
  auto fewest = [&](int64_t tile) {
    int64_t least = match ? std::max<int64_t>(32, tile / matchItems)
                          : fewestRandomThreads(tile);
    return random ? std::max(least, leastThreads) : least;
  };
  auto fits = [&](int64_t tile, int64_t threads) {
    return threads <= tile &&
           sift::radixSortWorkgroupBytes(tile, threads, row.keyBytes, row.slots,
                                         onesweep, match) <= budget;
  };
  int64_t most =
      std::min<int64_t>(4096, std::max<int64_t>(2, nextPowerOfTwo(row.n)));
  if (!random) {
    for (int64_t tile = most; tile >= 2; tile /= 2) {
      int64_t threads =
          std::min<int64_t>(std::max<int64_t>(tile / kRadixSortItems, 1), 1024);
      if (match)
        threads = fewest(tile);
      if (fits(tile, threads))
        return rowTileConfig(context, rank, threads, tile, algorithm);
    }
    return {};
  }
  SmallVector<int64_t> tiles;
  for (int64_t tile = 2; tile <= most; tile *= 2)
    if (fits(tile, fewest(tile)) &&
        (tile == most ||
         (rows * ((row.n + tile - 1) / tile) <= kRadixSortMaxTiles &&
          (row.n + tile - 1) / tile <= kRandomTilesPerRow)))
      tiles.push_back(tile);
  if (tiles.empty())
    return leastThreads > 0 ? radixSortConfig(context, rank, rows, row, budget,
                                              random, rng, algorithm, 0)
                            : LoweringConfigAttr();
  int64_t tile = tiles[rng.below(tiles.size())];
  SmallVector<int64_t> threadChoices;
  for (int64_t threads = fewest(tile); threads <= std::min<int64_t>(tile, 1024);
       threads *= 2)
    if (fits(tile, threads))
      threadChoices.push_back(threads);
  int64_t threads = threadChoices[rng.below(threadChoices.size())];
  return rowTileConfig(context, rank, threads, tile, algorithm);
}

int64_t sift::rowsOf(llvm::ArrayRef<int64_t> domain) {
  int64_t rows = 1;
  for (int64_t size : domain)
    rows *= size;
  return rows;
}

sift::LoweringConfigAttr sift::workgroupRowConfig(mlir::MLIRContext *context,
                                                  int64_t rank,
                                                  int64_t threads) {
  mlir::Builder b(context);
  llvm::SmallVector<int64_t> ones(rank, 1);
  return LoweringConfigAttr::get(
      context, b.getDenseI64ArrayAttr(ones), b.getDenseI64ArrayAttr(ones),
      b.getDenseI64ArrayAttr({threads, 1, 1}), Algorithm::WorkgroupRow);
}

/// The fewest threads of a random register_select whose chunk has as
/// many elements (a tree merge of two levels).
constexpr int64_t kRandomRegisterThreads = 4;

/// register_select's default: rows from kRegisterDefaultRow elements (a
/// bitonic sort of a shorter row in workgroup memory is as quick); chunks
/// of the row rounded up, halved (down to 4096) until the rows' chunks make
/// about 512 workgroups, so that a single long row still fills the GPU;
/// 32 elements a thread, from 32 to 256 threads, as many as the workgroup
/// memory of their lists (twice) fits in `budget`, and chunks halved again
/// while a thread would walk more than kRegisterDefaultItems. (H200, 2026-11-29:
/// [1, 1M] k8 took 0.027 ms in chunks of 4096 by 128 threads, 0.030 in
/// chunks of 2048; fewer threads a row also make the merge shorter.)

/// The most elements a thread of a default register_select walks.
constexpr int64_t kRegisterDefaultItems = 64;

/// A default chunk of the selects: `chunk` halved (down to `shortest`)
/// until the rows' chunks make about 512 workgroups, so that few rows
/// still fill the GPU.
static int64_t halvedChunk(int64_t rows, int64_t n, int64_t chunk,
                           int64_t shortest) {
  while (chunk > shortest && rows * ((n + chunk - 1) / chunk) < 512)
    chunk /= 2;
  return chunk;
}

/// The default chunk of register_select and warp_select: the row rounded up
/// to a power of two, halved down to 4096.
static int64_t defaultSelectChunk(int64_t rows, int64_t n) {
  return halvedChunk(rows, n, std::max<int64_t>(2, nextPowerOfTwo(n)), 4096);
}

sift::LoweringConfigAttr sift::registerSelectConfig(MLIRContext *context,
                                                    int64_t rank, int64_t rows,
                                                    const RowShape &row,
                                                    int64_t budget, bool random,
                                                    ConfigRng &rng) {
  auto fits = [&](int64_t threads) {
    return sift::registerSelectWorkgroupBytes(threads, row.k) <= budget;
  };
  int64_t most = std::max<int64_t>(2, nextPowerOfTwo(row.n));
  if (!random) {
    int64_t chunk = defaultSelectChunk(rows, row.n);
    int64_t threads = std::clamp<int64_t>(chunk / 32, 32, 256);
    // At most kRegisterDefaultItems elements a thread: longer chunks are
    // halved into more workgroups (H200, 2026-12-01: [256, 129280] k1
    // bf16 took 0.049 ms in 512 chunks of 65536, 256 elements a thread,
    // and 0.043 in 2048 chunks of 16384).
    while (chunk > 4096 && chunk / threads > kRegisterDefaultItems)
      chunk /= 2;
    while (threads > 1 && !fits(threads))
      threads /= 2;
    return rowTileConfig(context, rank, threads, chunk,
                         sift::Algorithm::RegisterSelect);
  }
  // Random: any power-of-two chunk from the row's size / kRandomTilesPerRow
  // whose fewest random threads fit, then any threads that fit.
  SmallVector<int64_t> chunks;
  int64_t least =
      std::min(most, std::max<int64_t>(2, most / kRandomTilesPerRow));
  for (int64_t chunk = least; chunk <= most; chunk *= 2)
    if (fits(fewestRandomThreads(chunk)) &&
        chunk / fewestRandomThreads(chunk) <= kRandomItemsPerThread)
      chunks.push_back(chunk);
  if (chunks.empty())
    return {};
  int64_t chunk = chunks[rng.below(chunks.size())];
  // At least kRandomRegisterThreads threads where the chunk has as many
  // elements and they fit: one thread merges nothing, and the tree merge's
  // edges (its last level) need two levels or more.
  SmallVector<int64_t> threadChoices;
  for (int64_t least : {std::min<int64_t>(kRandomRegisterThreads, chunk),
                        int64_t{1}}) {
    for (int64_t threads = std::max(least, fewestRandomThreads(chunk));
         threads <= std::min<int64_t>(chunk, 1024); threads *= 2)
      if (fits(threads))
        threadChoices.push_back(threads);
    if (!threadChoices.empty())
      break;
  }
  int64_t threads = threadChoices[rng.below(threadChoices.size())];
  return rowTileConfig(context, rank, threads, chunk,
                       sift::Algorithm::RegisterSelect);
}

/// warp_select's default: register_select's chunks, 64 elements a thread
/// where the chunks make 512 workgroups or more (a warp's inserts are paid
/// once for its 32 lanes, so fewer, longer walks win), else 32 (fewer
/// workgroups need their threads), from 32 to 256 threads. (H200,
/// 2026-12-01, a CUDA model of the kernel: [4096, 4096] k8 took 0.052 ms
/// with 64 threads against 0.064 with 128 and 0.089 with 256; sift's
/// kernel took [1, 1M] k8, 256 chunks of 4096, 0.031 ms with 64 threads
/// and 0.029 with 128, where register_select's 128 took 0.028.) Random
/// configs reach warp_select from a drawn register_select
/// (SelectLoweringStrategy.cpp's rowConfig).
sift::LoweringConfigAttr sift::warpSelectConfig(MLIRContext *context,
                                                int64_t rank, int64_t rows,
                                                const RowShape &row,
                                                int64_t budget) {
  auto fits = [&](int64_t threads) {
    return sift::warpSelectWorkgroupBytes(threads, row.k) <= budget;
  };
  int64_t warp = sift::kWarpSelectWarp;
  int64_t chunk = defaultSelectChunk(rows, row.n);
  int64_t workgroups = rows * ((row.n + chunk - 1) / chunk);
  int64_t items = workgroups >= 512 ? 64 : 32;
  int64_t threads = std::clamp<int64_t>(chunk / items, warp, 256);
  while (threads > warp && !fits(threads))
    threads /= 2;
  if (!fits(threads))
    return {};
  return rowTileConfig(context, rank, threads, chunk,
                       sift::Algorithm::WarpSelect);
}

bool sift::radixOneLaunch(int64_t rows, const RowShape &row) {
  return rows >= kRadixFusedRows && row.n <= kRadixFusedLongestRow;
}

sift::LoweringConfigAttr sift::radixSelectConfig(MLIRContext *context,
                                                 int64_t rank, int64_t rows,
                                                 const RowShape &row,
                                                 bool random, ConfigRng &rng,
                                                 ConfigRng &fusedRng) {
  // The one-launch form: a workgroup of at least kRadixBins threads takes a
  // whole row (RadixSelect.cpp).
  auto wholeRow = [&](int64_t threads) {
    return rowTileConfig(context, rank, threads,
                         std::max<int64_t>(2, nextPowerOfTwo(row.n)),
                         Algorithm::RadixSelect);
  };
  if (!random)
    return radixOneLaunch(rows, row)
               ? wholeRow(kRadixFusedThreads)
               : rowTileConfig(context, rank, 256,
                               halvedChunk(rows, row.n, 4096, 256),
                               Algorithm::RadixSelect);
  auto config = randomRowTileConfig(context, rank, row.n, 16384,
                                    Algorithm::RadixSelect, rng);
  // Half of the drawn radix selects take the one-launch form, decided and
  // sized by a stream of their own (the main stream's draws are those of
  // before it).
  if (fusedRng.below(2) == 0)
    return wholeRow(randomPowerOfTwo(kRadixBins, 1024, fusedRng));
  return config;
}
