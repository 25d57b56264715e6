//===- generators/InputGenerator.h - Random input tensors -----------------===//
//
// Fills the function arguments of a program with data chosen to stress sort,
// top-k and NMS, by InputMode:
//   uniform  - random values over a moderate range chosen per tensor; floats
//              have fractional parts; ties are rare.
//   ties     - 1 to 4 distinct values (for floats sometimes both -0.0 and +0.0,
//              equal keys with different bits), so stability and the
//              lower-index-first rule decide the output.
//   special  - about half the elements are special: NaN of both signs with
//              different payloads (quiet and signalling), +-inf, +-0.0,
//              denormals of both signs, the largest and smallest finite
//              values; the others are uniform. Integers: INT_MIN, INT_MAX,
//              INT_MIN + 1, 0, -1, 1, 255, 256 (and the i32 limits in i64).
//   sorted   - uniform or tie-heavy values in ascending order of the flat
//              row-major layout, hence ascending along EVERY dimension.
//   reversed - the same in descending order.
//   mixed    - each tensor picks one of the five modes above with the rng
//              (weights uniform 3, ties 2, special 2, sorted 1, reversed 1);
//              nine in ten bf16 tensors then get 1 to 3 extremes (-inf, the
//              lowest finite, huge negatives, +inf, the largest) from a
//              stream of their own; and in generateInputs, half the rows of
//              a tensor a top-k reads (not sorted or reversed) get 1 to 3
//              outliers on the side the top-k keeps (at least half the
//              largest finite magnitude, or within 2^16 of an integer
//              limit), from another stream.
// f16 values are IEEE half bit patterns (round to nearest even from double).
//
// An input that is itself the boxes or the scores operand of a sift.nms (not
// through a producer; generateInputs looks at `program.ops`) is filled by a
// BoxMode or a ScoreMode instead, drawn per tensor with the rng as follows
// (boxes take precedence when one input is both operands):
//
//   input mode  box modes (weight)                 score modes (weight)
//   uniform     random 3, clustered 2              distinct
//   ties        exact-iou 3, identical 2,          ties 2, at-threshold 2
//               clustered 1
//   special     non-finite 3, huge 2, tiny 2,      nan 3, all-below 2
//               degenerate 2, flipped 2
//   sorted      random 1, clustered 1; each        distinct 3, ties 1; then
//               batch's boxes ascending by their   ascending in flat order
//               first coordinate                   (so along N in each row)
//   reversed    the same, descending               the same, descending
//   mixed       random 3, clustered 3, identical   distinct 3, ties 2, nan 2,
//               2, flipped 2, degenerate 2, huge   all-below 1,
//               1, tiny 1, non-finite 2,           at-threshold 2
//               exact-iou 4
//
// Box modes are described by BoxMode below, score modes by ScoreMode; both
// write the op's box format (center_point_box) and are exact where they say
// so. Without a score threshold, the score modes use 0.0 as "the threshold".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace sift::gen {

/// How the boxes [B, N, 4] of a sift.nms are filled. Coordinates are written
/// in the op's format: [y1, x1, y2, x2], or [x_center, y_center, width,
/// height] with center_point_box (flipped corners then read as negative
/// sizes).
enum class BoxMode {
  Random,     ///< boxes anywhere on a canvas of 1, 100 or 1000, fractional
  Clustered,  ///< 1-4 cluster boxes, every box a small jitter of one (heavy
              ///< overlap, IoUs near but rarely at the threshold)
  Identical,  ///< 1-3 distinct boxes repeated (corner format: sometimes
              ///< written with their corners swapped: same box, other bits)
  Flipped,    ///< clusters of overlapping boxes, most with y1 > y2 and/or
              ///< x1 > x2 (center format: negative width and/or height)
  Degenerate, ///< zero-area boxes (lines, points, repeated), in center
              ///< format also negative sizes, between ordinary boxes
  Huge,       ///< coordinates and sizes near 1e30..FLT_MAX (f32: areas and
              ///< unions overflow to inf) or, for f16, near +-65504
  Tiny,       ///< coordinates that are small multiples of denormals (f32:
              ///< areas underflow to 0; f16: half denormals, exact in f32)
  NonFinite,  ///< random boxes with about 15% of the coordinates NaN (both
              ///< signs, several payloads), +-inf, +-0, denormals, +-max
  ExactIou,   ///< disjoint pairs of small-integer boxes whose f32 IoU equals
              ///< iou_threshold bit for bit (ExactIou.h); when no pair does,
              ///< pairs with the nearest IoU below and above it
  ClusterGrid, ///< clusters of small-integer boxes, each in a cell of a
               ///< grid, every box a member of a cluster drawn at random
               ///< (so clusters span the GPU mask's 64-box blocks): copies
               ///< of the cluster's box moved by at most a unit a side
               ///< (identical when that could take their IoU to the
               ///< threshold), a quarter of the clusters an exact pair at
               ///< the threshold (ExactIou.h), a quarter of corner-format
               ///< members with swapped corners. In the mixed input mode,
               ///< 3 of 5 NMS box inputs are filled so instead of by the
               ///< table above (a stream of their own decides).
};
inline constexpr BoxMode kAllBoxModes[] = {
    BoxMode::Random,  BoxMode::Clustered,  BoxMode::Identical,
    BoxMode::Flipped, BoxMode::Degenerate, BoxMode::Huge,
    BoxMode::Tiny,    BoxMode::NonFinite,  BoxMode::ExactIou,
    BoxMode::ClusterGrid};

/// How the scores [B, C, N] of a sift.nms are filled; "the threshold" t is
/// score_threshold (0.0 when absent), and "t in the type" is the largest
/// value of the scores' type <= t.
enum class ScoreMode {
  Distinct,    ///< distinct within every (batch, class) row: a permutation
               ///< of integers times a power of two (exact in f16)
  Ties,        ///< 1-4 values from kNmsScoreValues, t in the type or random
               ///< (sometimes both -0.0 and +0.0)
  NaN,         ///< distinct or tied values with 10-40% NaN (both signs,
               ///< several payloads) and a few +-inf
  AllBelow,    ///< every score <= t (some equal to t in the type): no
               ///< candidate at all when a threshold is given
  AtThreshold, ///< about 40% equal to t in the type (+-0.0 both when it is
               ///< zero), 10% the next value up, 10% the next down
};
inline constexpr ScoreMode kAllScoreModes[] = {
    ScoreMode::Distinct, ScoreMode::Ties, ScoreMode::NaN, ScoreMode::AllBelow,
    ScoreMode::AtThreshold};

/// Values the score modes write (all exact in f16); the NMS generator draws
/// score thresholds from them so that scores equal to the threshold happen.
inline constexpr float kNmsScoreValues[] = {
    0.0f, -0.0f, 0.5f, 1.0f, 0.25f, 0.75f, -1.0f, 0.125f, -0.5f, 0.375f, 2.0f};

/// Stable names: "random", "clustered", ..., "exact-iou".
std::string_view toString(BoxMode mode);
/// Stable names: "distinct", "ties", "nan", "all-below", "at-threshold".
std::string_view toString(ScoreMode mode);

/// The part an input plays, and the mode that filled it (for tests and
/// reports).
struct InputFill {
  enum class Role { Plain, NmsBoxes, NmsScores };
  Role role = Role::Plain;
  BoxMode boxMode = BoxMode::Random;         ///< with Role::NmsBoxes
  ScoreMode scoreMode = ScoreMode::Distinct; ///< with Role::NmsScores
};

/// One tensor of `type` filled as `mode` says.
HostTensor generateInput(const TensorType &type, InputMode mode, Rng &rng);

/// Boxes of `type` ([B, N, 4], f16 or f32) for a sift.nms with
/// `centerPointBox` and `iouThreshold`, filled as `mode` says.
HostTensor generateNmsBoxes(const TensorType &type, BoxMode mode,
                            bool centerPointBox, float iouThreshold, Rng &rng);

/// Scores of `type` ([B, C, N], f16 or f32) for a sift.nms with
/// `scoreThreshold`, filled as `mode` says.
HostTensor generateNmsScores(const TensorType &type, ScoreMode mode,
                             std::optional<float> scoreThreshold, Rng &rng);

/// The box mode `mode` gives a boxes input, and the score mode a scores
/// input (table above). For sorted / reversed, generateInputs then also
/// orders the tensor.
BoxMode pickBoxMode(InputMode mode, Rng &rng);
ScoreMode pickScoreMode(InputMode mode, Rng &rng);

/// One tensor per `program.inputs`, in order; NMS boxes and scores inputs by
/// the table above. With `fills`, also what filled each input.
std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       Rng &rng,
                                       std::vector<InputFill> *fills = nullptr);

/// generateInputs(program, mode, Rng(seed).fork(kInputStream), fills).
std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       uint64_t seed,
                                       std::vector<InputFill> *fills = nullptr);

/// The numeric value of element `index` of `tensor` as a double (f16 decoded
/// from its bits; i64 beyond 2^53 rounded). For tests and messages.
double elementAsDouble(const HostTensor &tensor, int64_t index);

/// The raw bits of element `index` of `tensor`, zero-extended to 64 bits.
uint64_t elementBits(const HostTensor &tensor, int64_t index);

} // namespace sift::gen
