//===- SelectLoweringStrategy.cpp - Choose tiles, threads and algorithms --===//
//
// The "choose" half of choose-then-apply: every sift and linalg op gets a
// #sift.pipeline and, for the GPU pipelines, a #sift.lowering_config derived
// from its static iteration domain. The default spreads the innermost
// dimensions over up to 64 (rows) or 256 (elements) threads; random mode
// draws any valid config from a seed, one op at a time in program order, so
// a seed always gives the same configs.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/Nms/MaskNms.h"
#include "pipelines/Kernels/RadixSelect/RadixSelect.h"
#include "pipelines/Kernels/RadixSort/RadixSort.h"
#include "pipelines/Kernels/RegisterSelect/RegisterSelect.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"
#include "pipelines/Kernels/SplitTopk/SplitTopk.h"
#include "pipelines/Strategy/AimedAlgorithm.h"
#include "pipelines/Strategy/DomainConfigs.h"
#include "pipelines/Strategy/NmsConfigs.h"
#include "pipelines/Strategy/RowConfigs.h"
#include "pipelines/Strategy/SplitConfigs.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/bit.h"

#include <algorithm>
#include <limits>

#define DEBUG_TYPE "sift-select-lowering-strategy"

namespace sift {
#define GEN_PASS_DEF_SELECTLOWERINGSTRATEGY
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

using sift::ConfigRng;
using sift::defaultConfig;
using sift::fewestRandomThreads;
using sift::kLongestSerialRow;
using sift::kRadixDefaultK;
using sift::kRadixDefaultRow;
using sift::kRadixMaxK;
using sift::kRegisterDefaultRow;
using sift::kSerialStepsPerThread;
using sift::kSplitDefaultK;
using sift::kSplitThreadMaxK;
using sift::nextPowerOfTwo;
using sift::radixSortConfig;
using sift::randomConfig;
using sift::randomPowerOfTwo;
using sift::randomRowTileConfig;
using sift::registerSelectConfig;
using sift::RowShape;
using sift::rowShape;
using sift::rowsOf;
using sift::rowTileConfig;
using sift::workgroupRowConfig;

/// The serial steps a random config may give one thread of a sift op's
/// rows (kSerialStepsPerThread for the defaults): 8 K steps, ~1.6 ms at the
/// slowest (a campaign's 99th percentile must stay under 5 ms).
constexpr int64_t kRandomSerialSteps = 8192;

/// The serial steps of one thread's row of a sift op: an insertion sort's
/// n^2 / 4, a top-k's walk of n with an insertion into k kept (a quarter
/// of them shifted, at most 16 an element on average).
int64_t serialSteps(int64_t n, int64_t k) {
  if (k < 0)
    return std::max<int64_t>(1, n * n / 4);
  return std::max<int64_t>(1, n * (1 + std::min<int64_t>(k, 64) / 4));
}

/// The largest tile a merge_rows workgroup sorts: its keys and an i32 slot
/// per element within `budget` bytes of workgroup memory, at most 4096
/// elements (a bitonic network of 78 steps), at least 2.
int64_t largestMergeTile(const RowShape &row, int64_t budget) {
  int64_t tile = 4096;
  while (tile > 2 && tile * (row.keyBytes + 4) > budget)
    tile /= 2;
  return tile;
}

/// The bytes of private memory a split's per-chunk top-k may keep its k
/// best in (they are read and shifted for every element of the chunk).
constexpr int64_t kSplitPartPrivateBytes = 2048;

/// The longest row a default tileandfuse config sorts in one thread's
/// private memory: an insertion sort of 32 is ~256 steps; longer rows get
/// a cooperative algorithm (a private sort of 128 was 3.5x PyTorch on the
/// H200).
constexpr int64_t kLongestPrivateSort = 32;

/// The fewest threads a random radix_match takes where any fit.
constexpr int64_t kRandomMatchThreads = 64;

/// Mixed into the seed of the stream that turns drawn radix sorts into
/// radix_match.
constexpr uint64_t kMatchStream = 0x6d61746368ULL;
/// Mixed into the seed of the stream that turns drawn register selects
/// into warp_select.
constexpr uint64_t kWarpStream = 0x77617270ULL;
/// Mixed into the seed of the stream that gives drawn radix selects a
/// row a workgroup (the one-launch form).
constexpr uint64_t kFusedStream = 0x6675736564ULL;
/// Mixed into the seed of the stream that gives drawn split selects
/// chunks of cooperative parts.
constexpr uint64_t kSplitStream = 0x73706c6974ULL;
struct SelectLoweringStrategyPass final
    : sift::impl::SelectLoweringStrategyBase<SelectLoweringStrategyPass> {
  using SelectLoweringStrategyBase::SelectLoweringStrategyBase;

  /// radix_match's own stream (see chooseRowAlgorithm).
  ConfigRng matchRng{0};
  /// warp_select's own stream (see rowConfig).
  ConfigRng warpRng{0};
  /// The one-launch radix_select's own stream (see rowConfig).
  ConfigRng fusedRng{0};
  /// The cooperative split's own stream (see rowConfig).
  ConfigRng splitRng{0};
  /// The aim's own stream (AimedAlgorithm.h).
  ConfigRng aimRng{0};

  /// What a sort or top-k row may take: the algorithms that fit, the
  /// default last, and what the choice among them needs.
  struct RowChoices {
    SmallVector<sift::Algorithm> algorithms;
    bool privateFits = false;
    bool splitPart = false;
    /// tileandfuse's split_select chunks (empty: no split).
    SmallVector<int64_t> chunks;
    /// Its chunks of cooperative parts: those random configs draw, and
    /// the default's (0: none).
    SmallVector<int64_t> cooperativeChunks;
    int64_t cooperativeChunk = 0;
  };

  /// The algorithms that fit row `row` of `op` (`rows` rows) in pipeline
  /// `kind`.
  RowChoices rowChoices(Operation *op, sift::Pipeline kind, int64_t rows,
                        const RowShape &row, bool random) {
    RowChoices c;
    SmallVector<sift::Algorithm> &algorithms = c.algorithms;
    algorithms = {sift::Algorithm::RowPerThread};
    // Private memory first in tileandfuse: a row that fits a thread's
    // private memory stays a thread's; longer rows get the cooperative
    // algorithms, as in distribute (their ops are then not tiled, see
    // TileAndFuse.cpp).
    // A split's per-chunk top-k (SplitTopk.cpp) reads its chunk in place
    // and keeps only its k best in private memory. By default a sort stays
    // a thread's only while its insertion sort is short.
    c.splitPart = op->hasAttr(sift::kSplitPartAttr);
    bool splitPart = c.splitPart;
    c.privateFits = privateRowFits(kind, row, random, splitPart);
    bool privateFits = c.privateFits;
    bool cooperative = kind == sift::Pipeline::Distribute ||
                       (kind == sift::Pipeline::TileAndFuse && !privateFits);
    bool mergeFits = cooperative && row.n >= 2 &&
                     2 * (row.keyBytes + 4) <= maxWorkgroupMemory;
    bool radixSortFits =
        cooperative && row.n >= 2 && sift::radixSortable(op) &&
        sift::radixSortWorkgroupBytes(2, 1, row.keyBytes, row.slots,
                                      /*onesweep=*/true) <= maxWorkgroupMemory;
    if (cooperative && row.n >= 2 && row.workgroupBytes <= maxWorkgroupMemory)
      algorithms.push_back(sift::Algorithm::WorkgroupRow);
    else if (radixSortFits && !random)
      // Too long for one workgroup: a radix sort when the order is a named
      // one (ranked by warp match: radix_match took 0.91x CUB's radix sort
      // of 1M keys on the H200, radix_sort 1.2x), otherwise tile sorts and
      // merges. (radix_onesweep's serial look-back was slower on the H100:
      // random configs draw it.)
      algorithms.push_back(row.n >= 32 ? sift::Algorithm::RadixMatch
                                       : sift::Algorithm::RadixSort);
    else if (mergeFits && !random)
      algorithms.push_back(sift::Algorithm::MergeRows);
    if (mergeFits && random)
      algorithms.push_back(sift::Algorithm::MergeRows);
    if (radixSortFits && random) {
      algorithms.push_back(sift::Algorithm::RadixSort);
      algorithms.push_back(sift::Algorithm::RadixOnesweep);
    }
    addSplitChoices(op, kind, rows, row, c);
    bool radixFits = cooperative && !splitPart && row.k >= 1 &&
                     row.n >= 2 &&
                     row.k <= (random ? kRadixMaxK : kRadixDefaultK) &&
                     (random || row.n >= kRadixDefaultRow);
    if (radixFits)
      algorithms.push_back(sift::Algorithm::RadixSelect);
    // A top-k of small k: one read of the row, each thread's k best in
    // registers (RegisterSelect.cpp).
    if (cooperative && !splitPart && row.n >= 2 && registerFits(op, row) &&
        (random ||
         (row.n >= kRegisterDefaultRow && row.k <= sift::kRegisterDefaultMaxK)))
      algorithms.push_back(sift::Algorithm::RegisterSelect);
    if (privateFits)
      algorithms.push_back(sift::Algorithm::PrivateRow);
    if (!c.chunks.empty() && random)
      algorithms.push_back(sift::Algorithm::SplitSelect);
    if (splitPart) {
      algorithms = {sift::Algorithm::RowPerThread};
      if (privateFits)
        algorithms.push_back(sift::Algorithm::PrivateRow);
    }
    // A thread walking a long row alone is quadratic: random configs keep
    // it for rows up to kLongestSerialRow when a cooperative algorithm fits.
    if (random && row.n > kLongestSerialRow && algorithms.size() > 1)
      algorithms.erase(algorithms.begin());
    return c;
  }

  /// tileandfuse's own top-k of long rows: top-k's of chunks and a top-k
  /// of their candidates (SplitTopk.cpp); its chunks go to `c`. A split's
  /// per-chunk top-k is a thread's (short chunks) or takes any algorithm
  /// but a split (long).
  static void addSplitChoices(Operation *op, sift::Pipeline kind, int64_t rows,
                              const RowShape &row, RowChoices &c) {
    auto topk = dyn_cast<sift::TopkOp>(op);
    if (kind != sift::Pipeline::TileAndFuse || !topk || c.splitPart ||
        op->hasAttr(sift::kSplitLongPartAttr) ||
        static_cast<int64_t>(topk.getDimension()) + 1 != topk.getRank())
      return;
    c.chunks = sift::splitChunks(row.n, row.k);
    c.cooperativeChunks = sift::cooperativeSplitChunks(row.n, row.k);
    c.cooperativeChunk = sift::defaultCooperativeChunk(
        rows, row, sift::radixOneLaunch(rows, row) && row.k <= kRadixDefaultK);
  }

  /// Whether tileandfuse may stage a row in a thread's private memory:
  /// the row and its k best (a split's part: its k best alone) fit; by
  /// default a sort stays a thread's only while its insertion sort is
  /// short.
  bool privateRowFits(sift::Pipeline kind, const RowShape &row, bool random,
                      bool splitPart) {
    int64_t privateBytes =
        splitPart ? row.k * (row.keyBytes + 8) : row.privateBytes;
    int64_t privateBudget = splitPart ? kSplitPartPrivateBytes
                                      : static_cast<int64_t>(maxPrivateMemory);
    if (!random && row.k < 0 && row.n > kLongestPrivateSort)
      return false;
    return kind == sift::Pipeline::TileAndFuse && row.n >= 2 &&
           privateBytes <= privateBudget;
  }

  /// Whether register_select can take `op`'s rows at all.
  bool registerFits(Operation *op, const RowShape &row) {
    return sift::registerSelectable(op) &&
           sift::registerSelectWorkgroupBytes(1, row.k) <= maxWorkgroupMemory;
  }

  /// The algorithm for a row: a draw among `c`'s when random, else the
  /// last that fits with the defaults' exceptions.
  sift::Algorithm chooseRowAlgorithm(Operation *op, sift::Pipeline kind,
                                     const RowShape &row, const RowChoices &c,
                                     ConfigRng &rng) {
    sift::Algorithm algorithm = c.algorithms.back();
    if (randomSeed >= 0) {
      algorithm = c.algorithms[rng.below(c.algorithms.size())];
      // Three in four drawn radix sorts rank by warp match (half of them
      // until generator 4's second step), decided by a stream of its own:
      // the main stream's draws (every op's algorithm and sizes, which
      // recorded cases replay) are those of before radix_match.
      if (algorithm == sift::Algorithm::RadixSort && row.n >= 32 &&
          matchRng.below(4) != 0)
        algorithm = sift::Algorithm::RadixMatch;
      return algorithm;
    }
    if (kind == sift::Pipeline::TileAndFuse && !c.splitPart &&
        row.n >= kRegisterDefaultRow && row.k <= sift::kRegisterDefaultMaxK &&
        registerFits(op, row))
      // tileandfuse's default for a long row's top-k of small k: a
      // workgroup's registers, as distribute's. A thread's private walk
      // (private_row) took 4.7x as long on [1024, 1024] k8, split_select
      // 6.4x on [1, 1M] k8 and 9.4x on [32, 128000] k8 (H200, 2026-11-29).
      return registerDefault(op);
    if (threadSplit(c, row) != 0 ||
        (algorithm == sift::Algorithm::RadixSelect && c.cooperativeChunk != 0))
      return sift::Algorithm::SplitSelect; // 64-bit keys; one-launch parts
    if (algorithm == sift::Algorithm::WorkgroupRow && row.n < 16)
      return sift::Algorithm::RowPerThread;
    if (algorithm == sift::Algorithm::RegisterSelect)
      return registerDefault(op);
    return algorithm;
  }

  /// The chunk of tileandfuse's default split into chunks a thread walks
  /// (for keys no register select takes, k <= kSplitDefaultK); 0: none.
  static int64_t threadSplit(const RowChoices &c, const RowShape &row) {
    int64_t chunk = sift::defaultSplitChunk(c.chunks, row.n, row.k);
    return !c.privateFits && row.k <= kSplitDefaultK ? chunk : 0;
  }

  /// The chunk of tileandfuse's default split: a thread's chunks, else
  /// cooperative parts (0: none).
  static int64_t defaultSplit(const RowChoices &c, const RowShape &row) {
    int64_t chunk = threadSplit(c, row);
    return chunk != 0 ? chunk : c.cooperativeChunk;
  }

  /// The default register select of `op`: a warp queue for k >= 2 (on the
  /// H200 it took [4096, 4096] k8 from 0.101 to 0.060 ms and [32, 128000]
  /// k8 from 0.041 to 0.031, 2026-12-01), a thread's best for k = 1.
  static sift::Algorithm registerDefault(Operation *op) {
    return sift::warpSelectable(op) ? sift::Algorithm::WarpSelect
                                    : sift::Algorithm::RegisterSelect;
  }

  /// The config of a sift or linalg op. Rows: distribute lets a workgroup
  /// cooperate on a row that fits its memory (from 16 elements by
  /// default) and sorts longer rows with radix_sort (named orders) or
  /// merge_rows (comparators); long top-k rows get register_select (small
  /// k, keys of at most 32 bits) or radix_select.
  /// tileandfuse stages a row in a thread's private memory when it fits and
  /// gives longer rows distribute's cooperative algorithms. Random mode
  /// draws among the algorithms that fit (rowChoices,
  /// chooseRowAlgorithm), then each algorithm's sizes (rowConfig).
  sift::LoweringConfigAttr chooseConfig(Operation *op, sift::Pipeline kind,
                                        ArrayRef<int64_t> domain,
                                        ConfigRng &rng) {
    MLIRContext *context = op->getContext();
    bool random = randomSeed >= 0;
    if (auto nms = dyn_cast<sift::NmsPerClassOp>(op))
      return sift::nmsConfig(nms, kind, domain, maxWorkgroupMemory, random, rng,
                             &aimRng);
    if (!isa<sift::SortOp, sift::TopkOp>(op))
      return random
                 ? randomConfig(context, domain, sift::Algorithm::Elementwise,
                                rng, INT64_MAX, sift::kRandomElementwisePoints)
                 : defaultConfig(context, domain, 256,
                                 sift::Algorithm::Elementwise);
    RowShape row = rowShape(op);
    RowChoices choices = rowChoices(op, kind, rowsOf(domain), row, random);
    sift::Algorithm algorithm =
        chooseRowAlgorithm(op, kind, row, choices, rng);
    sift::LoweringConfigAttr config =
        rowConfig(kind, domain, row, choices, algorithm, rng);
    // The aim overrides a draw after it was made, so the main stream's
    // draws (every op's algorithm and sizes) are those of before it.
    if (random)
      if (std::optional<sift::Algorithm> aimed = sift::aimRowAlgorithm(
              op, row, choices.algorithms, algorithm, aimRng))
        return rowConfig(kind, domain, row, choices, *aimed, aimRng);
    return config;
  }

  /// The sizes of `algorithm` for rows `row` over `domain`: the defaults,
  /// or a draw. An algorithm whose sizes fit nothing falls back to a
  /// thread's rows.
  sift::LoweringConfigAttr rowConfig(sift::Pipeline kind,
                                     ArrayRef<int64_t> domain,
                                     const RowShape &row,
                                     const RowChoices &choices,
                                     sift::Algorithm algorithm,
                                     ConfigRng &rng) {
    MLIRContext *context = &getContext();
    bool random = randomSeed >= 0;
    int64_t rank = domain.size();
    int64_t rows = rowsOf(domain);
    switch (algorithm) {
    case sift::Algorithm::SplitSelect:
      return splitSelectConfig(kind, domain, row, choices, rng);
    case sift::Algorithm::RegisterSelect:
      if (auto config = registerSelectConfig(context, rank, rows, row,
                                             maxWorkgroupMemory, random, rng)) {
        // Half of the random register selects of k >= 2 (drawn or aimed)
        // whose chunk holds two warps' elements keep a warp queue instead,
        // decided by a stream of its own: the same chunk and two warps at
        // least, so that its tree merges. Smaller chunks stay
        // register_select, whose trees of 2 to 16 threads are where
        // select-merge-one-level-short is caught.
        if (random && row.k >= 2 &&
            config.getRowTile() >= 2 * sift::kWarpSelectWarp &&
            warpRng.below(2) == 0)
          return rowTileConfig(context, rank,
                               std::max<int64_t>(2 * sift::kWarpSelectWarp,
                                                 config.getWorkgroupSize()[0]),
                               config.getRowTile(),
                               sift::Algorithm::WarpSelect);
        return config;
      }
      break; // Nothing fits.
    case sift::Algorithm::WarpSelect:
      // The default for k >= 2 (registerDefault).
      if (auto config =
              warpSelectConfig(context, rank, rows, row, maxWorkgroupMemory))
        return config;
      if (auto config = registerSelectConfig(context, rank, rows, row,
                                             maxWorkgroupMemory, random, rng))
        return config;
      break; // Nothing fits.
    case sift::Algorithm::RadixSelect:
      return sift::radixSelectConfig(&getContext(), rank, rows, row,
                                     randomSeed >= 0, rng, fusedRng);
    case sift::Algorithm::RadixSort:
    case sift::Algorithm::RadixOnesweep:
    case sift::Algorithm::RadixMatch:
      // A random radix_match fills a wave of 64 where it fits: its votes
      // then span two warps of 32, and the whole of gfx942's wave
      // (warp-ballot-low-half lives in the upper half).
      if (auto config = radixSortConfig(
              context, rank, rows, row, maxWorkgroupMemory, random, rng,
              algorithm,
              algorithm == sift::Algorithm::RadixMatch ? kRandomMatchThreads
                                                       : 0))
        return config;
      // radix_match needs whole warps; radix_sort fits with fewer threads.
      if (algorithm == sift::Algorithm::RadixMatch)
        if (auto config = radixSortConfig(context, rank, rows, row,
                                          maxWorkgroupMemory, random, rng,
                                          sift::Algorithm::RadixSort))
          return config;
      break; // Nothing fits.
    case sift::Algorithm::MergeRows:
      return mergeRowsConfig(rank, row, rng);
    case sift::Algorithm::WorkgroupRow:
      return workgroupRowSortConfig(rank, row, rng);
    default:
      return threadRowsConfig(kind, domain, row, algorithm, rng);
    }
    return threadRowsConfig(kind, domain, row, sift::Algorithm::RowPerThread,
                            rng);
  }

  /// split_select's chunk: the default's (a thread's chunks, else
  /// cooperative parts), or a draw. A quarter of the drawn splits take
  /// chunks of cooperative parts where any fit, and every drawn split of
  /// k > kSplitThreadMaxK, decided and sized by a stream of their own (the
  /// main stream's draws are those of before them); such a split where none
  /// fits becomes a cooperative algorithm of the row, sized by that stream.
  sift::LoweringConfigAttr splitSelectConfig(sift::Pipeline kind,
                                             ArrayRef<int64_t> domain,
                                             const RowShape &row,
                                             const RowChoices &choices,
                                             ConfigRng &rng) {
    bool random = randomSeed >= 0;
    const SmallVector<int64_t> &chunks = choices.chunks;
    const SmallVector<int64_t> &cooperative = choices.cooperativeChunks;
    int64_t chunk = defaultSplit(choices, row);
    if (random && !chunks.empty())
      chunk = chunks[rng.below(chunks.size())];
    bool slowWalk = random && row.k > kSplitThreadMaxK;
    if (random && !cooperative.empty() && (slowWalk || splitRng.below(4) == 0))
      chunk = cooperative[splitRng.below(cooperative.size())];
    else if (slowWalk)
      for (sift::Algorithm instead :
           {sift::Algorithm::RadixSelect, sift::Algorithm::WorkgroupRow,
            sift::Algorithm::MergeRows})
        if (llvm::is_contained(choices.algorithms, instead))
          return rowConfig(kind, domain, row, choices, instead, splitRng);
    return rowTileConfig(&getContext(), domain.size(), 1, chunk,
                         sift::Algorithm::SplitSelect);
  }

  /// merge_rows' sizes: by default the largest tile that fits workgroup
  /// memory, with half as many threads (at most 1024); drawn, any tile up
  /// to that.
  sift::LoweringConfigAttr mergeRowsConfig(int64_t rank, const RowShape &row,
                                           ConfigRng &rng) {
    MLIRContext *context = &getContext();
    bool random = randomSeed >= 0;
    int64_t largest = largestMergeTile(row, maxWorkgroupMemory);
    if (!random)
      return rowTileConfig(context, rank,
                           std::min<int64_t>(largest / 2, 1024), largest,
                           sift::Algorithm::MergeRows);
    return randomRowTileConfig(context, rank, row.n, largest,
                               sift::Algorithm::MergeRows, rng);
  }

  /// workgroup_row's sizes for a sort or top-k row.
  sift::LoweringConfigAttr workgroupRowSortConfig(int64_t rank,
                                                  const RowShape &row,
                                                  ConfigRng &rng) {
    int64_t padded = nextPowerOfTwo(row.n);
    // A thread per compare-exchange of the network, up to 512; a composite
    // network's thread holds 8 slots (at least a warp when the row has 64
    // slots).
    int64_t threads = std::min<int64_t>(std::max<int64_t>(padded / 2, 1), 512);
    if (row.composite)
      threads = std::min<int64_t>(
          std::max(std::min<int64_t>(32, threads), padded / 8), 512);
    if (randomSeed >= 0)
      threads = randomPowerOfTwo(fewestRandomThreads(padded),
                                 std::min<int64_t>(padded, 1024), rng);
    return workgroupRowConfig(&getContext(), rank, threads);
  }

  /// A thread's rows (row_per_thread, private_row).
  sift::LoweringConfigAttr threadRowsConfig(sift::Pipeline kind,
                                            ArrayRef<int64_t> domain,
                                            const RowShape &row,
                                            sift::Algorithm algorithm,
                                            ConfigRng &rng) {
    // A tileandfuse thread holds its rows' temporaries (an unused result, a
    // copy of a read-only operand) in private memory: random tiles give a
    // thread only as many rows as fit the per-thread budget.
    // Every pipeline: a thread's rows are walked one after another, so
    // random tiles keep its serial steps within kSerialStepsPerThread.
    bool random = randomSeed >= 0;
    int64_t maxRows = std::max<int64_t>(
        1, (random ? kRandomSerialSteps : kSerialStepsPerThread) /
               serialSteps(row.n, row.k));
    if (kind == sift::Pipeline::TileAndFuse && row.privateBytes > 0)
      maxRows = std::min(maxRows, std::max<int64_t>(
                                      1, maxThreadTileMemory /
                                             row.privateBytes));
    MLIRContext *context = &getContext();
    return random ? randomConfig(context, domain, algorithm, rng, maxRows)
                  : defaultConfig(context, domain, 64, algorithm);
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    std::optional<sift::PipelineKind> parsed =
        sift::parsePipelineKind(pipeline);
    if (!parsed || sift::systemOf(*parsed) != sift::SystemKind::Sift) {
      getOperation().emitError("unknown pipeline '")
          << pipeline << "'; valid: cpu, tileandfuse, distribute";
      return signalPassFailure();
    }
    sift::Pipeline kind = sift::toPipelineAttrKind(*parsed);
    auto pipelineAttr = sift::PipelineAttr::get(context, kind);
    ConfigRng rng{static_cast<uint64_t>(randomSeed)};
    matchRng = ConfigRng{static_cast<uint64_t>(randomSeed) ^ kMatchStream};
    warpRng = ConfigRng{static_cast<uint64_t>(randomSeed) ^ kWarpStream};
    fusedRng = ConfigRng{static_cast<uint64_t>(randomSeed) ^ kFusedStream};
    splitRng = ConfigRng{static_cast<uint64_t>(randomSeed) ^ kSplitStream};
    aimRng = ConfigRng{static_cast<uint64_t>(randomSeed) ^ sift::kAimStream};
    OpBuilder b(context);
    // Configs given with the module (sift.forced_configs: `harness compile
    // --config`, a case folder's lowering record): the ops that get one
    // take them in walk order, whatever the seed; each run of the pass
    // takes what it uses and leaves the rest.
    SmallVector<Attribute> forced;
    size_t nextForced = 0;
    if (auto list = getOperation()->getAttrOfType<ArrayAttr>(
            sift::kForcedConfigsAttr))
      forced.assign(list.begin(), list.end());
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (!isa<sift::SortOp, sift::TopkOp, sift::NmsPerClassOp,
               linalg::LinalgOp>(op))
        return WalkResult::advance();
      // Ops inside distributed loops (tileandfuse's tiles) are already
      // mapped; they run sequentially in their thread.
      if (op->getParentOfType<scf::ForallOp>() ||
          op->getParentOfType<scf::ParallelOp>())
        return WalkResult::advance();
      op->setAttr("sift.pipeline", pipelineAttr);
      if (kind == sift::Pipeline::Cpu ||
          op->hasAttr("sift.lowering_config"))
        return WalkResult::advance();
      auto tilable = dyn_cast<TilingInterface>(op);
      if (!tilable) {
        op->emitError("has no TilingInterface to select a strategy for");
        return WalkResult::interrupt();
      }
      if (nextForced < forced.size()) {
        auto config = dyn_cast<sift::LoweringConfigAttr>(forced[nextForced]);
        if (!config) {
          op->emitError("forced config #")
              << nextForced << " is not a #sift.lowering_config";
          return WalkResult::interrupt();
        }
        ++nextForced;
        op->setAttr("sift.lowering_config", config);
        return WalkResult::advance();
      }
      SmallVector<int64_t> domain;
      for (const Range &range : tilable.getIterationDomain(b)) {
        std::optional<int64_t> size = getConstantIntValue(range.size);
        if (!size) {
          op->emitError("needs a static iteration domain");
          return WalkResult::interrupt();
        }
        domain.push_back(*size);
      }
      op->setAttr("sift.lowering_config",
                  chooseConfig(op, kind, domain, rng));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    if (!forced.empty()) {
      if (nextForced == forced.size())
        getOperation()->removeAttr(sift::kForcedConfigsAttr);
      else
        getOperation()->setAttr(
            sift::kForcedConfigsAttr,
            ArrayAttr::get(context,
                           ArrayRef<Attribute>(forced).drop_front(nextForced)));
    }
  }
};

} // namespace
