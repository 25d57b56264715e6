//===- generators/Policy.h - What the generators may produce, as data -----===//
//
// A `Policy` is plain data: which op families to generate and how often, the
// limits on shapes and program size, the weights of element types, elementwise
// ops (by `EwKind`, over the typed table of OpDescriptors.h), sort orders,
// comparators, top-k's k, NMS's sizes and attributes, and the input data mode.
// Generators read it and never hold state of their own; the harness fills one
// from its options (only `harness/` parses command lines). Every array of
// weights is indexed by the enum it names, in enum order; a weight of 0
// disables that choice.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/OpDescriptors.h"
#include "generators/ProgramModel.h"
#include "support/ElementType.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sift::gen {

/// The op families a program is built around.
enum class Family { Sort, TopK, Nms };
inline constexpr Family kAllFamilies[] = {Family::Sort, Family::TopK,
                                          Family::Nms};
inline constexpr size_t kNumFamilies =
    sizeof(kAllFamilies) / sizeof(kAllFamilies[0]);

/// Stable names: "sort", "topk", "nms".
std::string_view toString(Family family);
/// Parses a stable family name; nullopt when unknown.
std::optional<Family> parseFamily(std::string_view name);

/// How input tensors are filled (see InputGenerator.h for each mode).
enum class InputMode { Mixed, Uniform, Ties, Special, Sorted, Reversed };
inline constexpr InputMode kAllInputModes[] = {
    InputMode::Mixed,   InputMode::Uniform, InputMode::Ties,
    InputMode::Special, InputMode::Sorted,  InputMode::Reversed};

/// Stable names: "mixed", "uniform", "ties", "special", "sorted", "reversed".
std::string_view toString(InputMode mode);
/// Parses a stable input-mode name; nullopt when unknown.
std::optional<InputMode> parseInputMode(std::string_view name);

/// How large the generated tensors get: default keeps every case quick for
/// the cpu reference (work dimension up to 4,096, 2^16 elements a tensor);
/// large reaches the GPU algorithms of long rows (work dimension up to
/// 2^20, 2^20 elements a tensor) for GPU campaigns.
enum class SizeMode { Default, Large };
inline constexpr SizeMode kAllSizeModes[] = {SizeMode::Default,
                                             SizeMode::Large};

/// Stable names: "default", "large".
std::string_view toString(SizeMode mode);
/// Parses a stable size-mode name; nullopt when unknown.
std::optional<SizeMode> parseSizeMode(std::string_view name);

struct Policy;
/// The policy a campaign with these options generates its cases with:
/// `families` comma-separated ("sort,topk,nms"; unknown names skipped),
/// `exactKeys` without inexact ops before an order, sizes of `sizes`.
/// A case is generateProgram(policyFor(...), seed).
Policy policyFor(std::string_view families, bool exactKeys, SizeMode sizes);

/// Weights indexed by ElementType (i32, i64, f16, f32, f64, bf16).
using ElementTypeWeights = std::array<unsigned, 6>;

/// The classes a dimension size is drawn from (ShapeGenerator.h).
enum class DimSizeClass {
  Zero,         ///< 0 (the whole tensor is empty)
  One,          ///< 1
  Small,        ///< 2..16
  Prime,        ///< a prime from a fixed table (2 .. 4093)
  NearPowerOf2, ///< 2^j - 1 or 2^j + 1
  PowerOf2,     ///< 2^j
  Any,          ///< uniform in 1..max
};
inline constexpr size_t kNumDimSizeClasses = 7;

/// Shape limits and distributions.
struct ShapePolicy {
  /// Weights of ranks 1, 2, 3, 4 (ranks above maxRank are never drawn).
  std::array<unsigned, 4> rankWeights = {3, 3, 2, 2};
  int64_t maxRank = 4;
  /// Largest size of the dimension the main op works along (sort, top-k).
  int64_t maxWorkDimSize = 4096;
  /// Largest size of every other dimension.
  int64_t maxOtherDimSize = 64;
  /// Largest element count of any tensor; other dimensions shrink to fit.
  int64_t maxElements = int64_t(1) << 16;
  /// Weights of the DimSizeClass enumerators for the work dimension.
  std::array<unsigned, kNumDimSizeClasses> workDimClassWeights = {1, 2, 3, 3,
                                                                  2, 1, 2};
  /// Weights for the other dimensions (Zero is drawn separately, below).
  std::array<unsigned, kNumDimSizeClasses> otherDimClassWeights = {0, 3, 4, 2,
                                                                   1, 1, 1};
  /// Chance that a non-work dimension is 0.
  double otherDimZeroChance = 0.02;
  /// The work dimension is one of the innermost three (large sizes): the
  /// GPU pipelines spread only the innermost three dimensions of an op over
  /// threads, so a long outer one would be a loop in every thread.
  bool workDimInnermostThree = false;
};

/// sift.sort choices.
struct SortPolicy {
  /// Weights of 1, 2, 3 operands (capped by maxOperands).
  std::array<unsigned, 3> operandCountWeights = {3, 3, 2};
  int64_t maxOperands = 3;
  /// Weights indexed by SortOrder.
  std::array<unsigned, 3> orderWeights = {3, 3, 3};
  /// Weights indexed by ComparatorKind (kinds invalid for the key type are
  /// skipped).
  std::array<unsigned, 4> comparatorWeights = {3, 2, 2, 2};
  /// Key element types.
  ElementTypeWeights keyTypeWeights = {2, 2, 2, 3, 2, 2};
  /// Chance that a payload is an i64 iota along the sort dimension (argsort).
  double iotaPayloadChance = 0.4;
  /// Chance that an iota payload is i32 rather than i64.
  double iotaI32Chance = 0.15;
  /// Chance that only a (non-empty) subset of the results is used.
  double dropResultsChance = 0.35;
  /// Chance that a sort is aimed at the GPU sorts' edges (SortGenerator.cpp,
  /// from a stream of its own): it works along the innermost dimension at
  /// an edge size (ShapeGenerator.h's edgeSize: whole and partial tiles,
  /// warps and radix bins).
  double edgeChance = 0.5;
};

/// sift.topk choices.
struct TopKPolicy {
  /// Input element types.
  ElementTypeWeights inputTypeWeights = {2, 2, 2, 3, 2, 2};
  /// Weights of k = 0, k = 1, k = n, small k (2..8), any k in [0, n].
  std::array<unsigned, 5> kWeights = {2, 2, 2, 3, 2};
  /// Chance of `largest` (else smallest).
  double largestChance = 0.5;
  /// Chance of a sigmoid right before a float top-k (as in detection models).
  double sigmoidChance = 0.3;
  /// Weights of: both results used, values only, indices only.
  std::array<unsigned, 3> useWeights = {2, 1, 1};
  /// Chance that a top-k program is aimed at the select algorithms' edges
  /// (TopkGenerator.cpp, from a stream of its own): the top-k works along
  /// the innermost dimension, of an edge size (m * 2^j - 1, m * 2^j or
  /// m * 2^j + 1 for 2^j in 16..1024 and m in 1..4, whole tiles twice as
  /// often: whole and partial tiles, chunks, warps and radix bins), with
  /// an edge k, and its indices are used.
  double edgeChance = 0.7;
  /// Weights of an aimed top-k's k: 1, 2..8, 9..32, 33..min(256, n - 1).
  std::array<unsigned, 4> edgeKWeights = {3, 3, 2, 1};
  /// Chance that an aimed top-k's input is bf16 (with Policy::allowBf16).
  double edgeBf16Chance = 0.15;
  /// Chance that an aimed program also takes a second top-k of the same
  /// input, in the other direction with an edge k of its own, both results
  /// returned.
  double secondTopkChance = 0.9;
};

/// sift.nms choices (NmsGenerator.h). Sizes: boxes [B, N, 4], scores
/// [B, C, N], selected [B * C * max(maxOut, 0), 3]; every tensor also keeps
/// within ShapePolicy::maxElements (C, then B, shrink first; then N and
/// maxOut are clamped). ShapePolicy's ranks and dimension limits do not apply:
/// the op fixes the ranks.
struct NmsPolicy {
  /// Largest B, C and N.
  int64_t maxBatches = 4;
  int64_t maxClasses = 8;
  int64_t maxBoxes = 4096;
  /// Largest element count of an NMS tensor (within ShapePolicy's): large
  /// sizes leave NMS as it is until its kernels scale.
  int64_t maxElements = int64_t(1) << 16;
  /// Weights of the DimSizeClass enumerators for B, C (a 0 is never drawn
  /// for these two) and N.
  std::array<unsigned, kNumDimSizeClasses> batchSizeWeights = {0, 4, 2, 2,
                                                               1, 1, 1};
  std::array<unsigned, kNumDimSizeClasses> classCountWeights = {0, 3, 2, 2,
                                                                1, 1, 1};
  std::array<unsigned, kNumDimSizeClasses> boxCountWeights = {1, 2, 3, 3,
                                                              2, 1, 2};
  /// Weights of an NMS program's aim at the GPU algorithms' edges, drawn
  /// from a stream of its own (NmsGenerator.cpp), like the pre-filter:
  /// none; small (N in 16..42: rows whose score sort fits a tileandfuse
  /// thread's private memory); block edge (N = 64 q - 1, 64 q or 64 q + 1
  /// for q in 1..3 and 17..18: a 64-candidate mask block's last bit, last
  /// word and last block, and rows past 1,024 candidates, which only the
  /// mask algorithms take). An aimed program draws max_out again (N, N + 1
  /// to N + 8, or in [N / 2, N]), gets an IoU threshold below 1, and its
  /// pre-filter keeps all N boxes.
  std::array<unsigned, 3> aimWeights = {2, 4, 4};
  /// Weights of max_output_boxes_per_class = 0, 1, N, small (2..8), any in
  /// [0, N], above N (N + 1..8 or 2N + 1), negative (-1, -7, INT64_MIN).
  std::array<unsigned, 7> maxOutputWeights = {2, 2, 2, 3, 2, 1, 1};
  /// Weights of iou_threshold = 0, 1, 0.5, the f32 IoU of two small-integer
  /// boxes (ExactIou.h), uniform in [0, 1].
  std::array<unsigned, 5> iouThresholdWeights = {1, 1, 2, 4, 2};
  /// Chance that score_threshold is given.
  double scoreThresholdChance = 0.6;
  /// Weights of a given score_threshold: a value the score modes of
  /// InputGenerator.h also write (exact in f16: 0, -0, 0.5, 1, ...), uniform
  /// in [-1, 1] (half of the time rounded to f16), an extreme (+-inf,
  /// +-FLT_MAX, the smallest denormal).
  std::array<unsigned, 3> scoreThresholdWeights = {4, 2, 1};
  /// Chance of center_point_box = 1.
  double centerPointBoxChance = 0.5;
  /// Element types of boxes and scores (only f16, bf16 and f32 are valid).
  ElementTypeWeights boxTypeWeights = {0, 0, 1, 2, 0, 1};
  ElementTypeWeights scoreTypeWeights = {0, 0, 1, 2, 0, 1};
  /// Chance that boxes / scores come from a tree of (exact) elementwise
  /// producers rather than straight from a function input (which gets the
  /// box and score modes of InputGenerator.h).
  double boxProducerChance = 0.25;
  double scoreProducerChance = 0.3;
  /// Chance of a sigmoid right before the scores (only with
  /// Policy::allowInexactKeys).
  double sigmoidChance = 0.3;
  /// Weights of: selected and count used, selected only, count only.
  std::array<unsigned, 3> useWeights = {3, 1, 1};
  /// Chance of a slice of the selected rows: the first r rows (r < rows),
  /// or (one time in four) any slice.
  double selectedSliceChance = 0.3;
  /// Chance (when N >= 1) of a detection model's top-k pre-filter: the
  /// largest k in [1, N] of a per-box objectness input [B, N] give indices
  /// [B, K] that gather the boxes (axis 1) and the scores (axis 2) the op
  /// then works on, with max_out drawn against K. Drawn from a stream of
  /// its own (NmsGenerator.cpp), so the other programs do not change with it.
  double prefilterChance = 0.25;
};

/// The elementwise weights by EwKind, from the descriptors' defaults.
std::array<unsigned, kNumEwKinds> defaultEwWeights();

/// Everything the program and input generators may choose.
struct Policy {
  /// Weights indexed by Family.
  std::array<unsigned, kNumFamilies> familyWeights = {1, 1, 1};
  ShapePolicy shapes;
  SortPolicy sort;
  TopKPolicy topk;
  NmsPolicy nms;

  /// Elementwise op weights, indexed by EwKind.
  std::array<unsigned, kNumEwKinds> ewWeights = defaultEwWeights();
  /// Element types of sort payloads that are not iotas.
  ElementTypeWeights payloadTypeWeights = {2, 3, 1, 2, 1, 1};

  /// Producers: at most this many elementwise ops feeding the main op, in
  /// trees of at most maxProducerDepth levels; each tree node becomes a
  /// producer with producerChance (else a leaf).
  int64_t maxProducers = 4;
  int64_t maxProducerDepth = 3;
  double producerChance = 0.45;
  /// Leaves: chance to reuse an existing value of the right type (an input
  /// used twice, or a value fed to two ops) instead of a new input.
  double reuseValueChance = 0.25;
  /// Leaves of integer type: chance of an iota along a random dimension.
  double iotaLeafChance = 0.05;
  /// When false, no inexact op (EwDescriptor::exact, i.e. sigmoid) feeds a
  /// sort key, a top-k input or NMS scores (NMS boxes never get one), and
  /// TopKPolicy::sigmoidChance and NmsPolicy::sigmoidChance are ignored:
  /// the expected order is then bit-exact on every device. When true, a
  /// one-ulp difference in exp may legitimately reorder near-equal keys.
  bool allowInexactKeys = true;
  /// When false, no value is bf16: its weights are ignored and no extf or
  /// truncf reaches it (systems whose bf16 path sift does not drive yet).
  bool allowBf16 = true;

  /// Consumers: at most this many elementwise ops after each used result of
  /// the main op, each added with consumerChance.
  int64_t maxConsumers = 3;
  double consumerChance = 0.35;
  /// Chance of a tensor.extract_slice at the end of a result's chain.
  double sliceChance = 0.2;
  /// Chance that an intermediate value is also returned.
  double extraOutputChance = 0.1;

  /// Sets the shape limits of `mode` (see SizeMode).
  void setSizes(SizeMode mode);

  /// How inputs are filled (passed to generateInputs by the harness).
  InputMode inputMode = InputMode::Mixed;
};

} // namespace sift::gen
