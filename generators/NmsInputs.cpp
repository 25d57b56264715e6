//===- generators/NmsInputs.cpp - Boxes and scores for sift.nms -----------===//
//
// The box modes and score modes of InputGenerator.h, and which input mode
// reaches which. Every mode writes through InputWriters.h; values meant to be
// exact (integer coordinates, scores equal to the threshold) are built so the
// element type represents them.
//
//===----------------------------------------------------------------------===//
#include "generators/ExactIou.h"
#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/InputWriters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace sift::gen {

using detail::setBits;
using detail::setFloat;

std::string_view toString(BoxMode mode) {
  switch (mode) {
  case BoxMode::Random: return "random";
  case BoxMode::Clustered: return "clustered";
  case BoxMode::Identical: return "identical";
  case BoxMode::Flipped: return "flipped";
  case BoxMode::Degenerate: return "degenerate";
  case BoxMode::Huge: return "huge";
  case BoxMode::Tiny: return "tiny";
  case BoxMode::NonFinite: return "non-finite";
  case BoxMode::ExactIou: return "exact-iou";
  case BoxMode::ClusterGrid: return "cluster-grid";
  }
  return "?";
}

std::string_view toString(ScoreMode mode) {
  switch (mode) {
  case ScoreMode::Distinct: return "distinct";
  case ScoreMode::Ties: return "ties";
  case ScoreMode::NaN: return "nan";
  case ScoreMode::AllBelow: return "all-below";
  case ScoreMode::AtThreshold: return "at-threshold";
  }
  return "?";
}

BoxMode pickBoxMode(InputMode mode, Rng &rng) {
  switch (mode) {
  case InputMode::Uniform:
    return rng.pickWeighted({3, 2}) == 0 ? BoxMode::Random : BoxMode::Clustered;
  case InputMode::Ties: {
    constexpr BoxMode kModes[] = {BoxMode::ExactIou, BoxMode::Identical,
                                  BoxMode::Clustered};
    return kModes[rng.pickWeighted({3, 2, 1})];
  }
  case InputMode::Special: {
    constexpr BoxMode kModes[] = {BoxMode::NonFinite, BoxMode::Huge,
                                  BoxMode::Tiny, BoxMode::Degenerate,
                                  BoxMode::Flipped};
    return kModes[rng.pickWeighted({3, 2, 2, 2, 2})];
  }
  case InputMode::Sorted:
  case InputMode::Reversed:
    return rng.chance(0.5) ? BoxMode::Random : BoxMode::Clustered;
  case InputMode::Mixed: break;
  }
  // Mixed: weights in kAllBoxModes order.
  return kAllBoxModes[rng.pickWeighted({3, 3, 2, 2, 2, 1, 1, 2, 4})];
}

ScoreMode pickScoreMode(InputMode mode, Rng &rng) {
  switch (mode) {
  case InputMode::Uniform: return ScoreMode::Distinct;
  case InputMode::Ties:
    return rng.chance(0.5) ? ScoreMode::Ties : ScoreMode::AtThreshold;
  case InputMode::Special:
    return rng.pickWeighted({3, 2}) == 0 ? ScoreMode::NaN : ScoreMode::AllBelow;
  case InputMode::Sorted:
  case InputMode::Reversed:
    return rng.pickWeighted({3, 1}) == 0 ? ScoreMode::Distinct
                                         : ScoreMode::Ties;
  case InputMode::Mixed: break;
  }
  // Mixed: weights in kAllScoreModes order.
  return kAllScoreModes[rng.pickWeighted({3, 2, 2, 1, 2})];
}

namespace {

bool isInfBits(ElementType type, uint64_t bits) {
  switch (type) {
  case ElementType::F16: return (bits & 0x7FFF) == 0x7C00;
  case ElementType::BF16: return (bits & 0x7FFF) == 0x7F80;
  case ElementType::F32: return (bits & 0x7FFFFFFF) == 0x7F800000;
  default: return (bits & 0x7FFFFFFFFFFFFFFFull) == 0x7FF0000000000000ull;
  }
}

//===----------------------------------------------------------------------===//
// Boxes.
//===----------------------------------------------------------------------===//

/// One box by two corners (y1, x1) and (y2, x2), in any order.
struct Corners {
  double y1 = 0, x1 = 0, y2 = 0, x2 = 0;
};

/// Writes box `box` (flat over B * N) in the op's format: [y1, x1, y2, x2],
/// or [x_center, y_center, width, height] (swapped corners give negative
/// sizes). With `finite`, values are clamped to the type's finite range.
void writeBox(HostTensor &t, int64_t box, const Corners &c, bool center,
              bool finite = false) {
  double v[4];
  if (center) {
    v[0] = (c.x1 + c.x2) / 2;
    v[1] = (c.y1 + c.y2) / 2;
    v[2] = c.x2 - c.x1;
    v[3] = c.y2 - c.y1;
  } else {
    v[0] = c.y1, v[1] = c.x1, v[2] = c.y2, v[3] = c.x2;
  }
  const double max =
      t.type == ElementType::F16    ? 65504.0
      : t.type == ElementType::BF16 ? 3.3895313892515355e38 // bf16's largest
                                    : static_cast<double>(
                                          std::numeric_limits<float>::max());
  for (int64_t k = 0; k < 4; ++k)
    setFloat(t, box * 4 + k, finite ? std::clamp(v[k], -max, max) : v[k]);
}

/// A box with its corners ordered, on a canvas [0, scale).
Corners randomCorners(double scale, Rng &rng) {
  Corners c;
  c.y1 = rng.uniformDouble() * scale;
  c.x1 = rng.uniformDouble() * scale;
  c.y2 = c.y1 + rng.uniformDouble() * scale * 0.5;
  c.x2 = c.x1 + rng.uniformDouble() * scale * 0.5;
  return c;
}

/// Swaps the corners along y, x or both (the same box, other diagonal).
Corners flip(Corners c, Rng &rng) {
  switch (rng.uniform(0, 2)) {
  case 0: std::swap(c.y1, c.y2); break;
  case 1: std::swap(c.x1, c.x2); break;
  default:
    std::swap(c.y1, c.y2);
    std::swap(c.x1, c.x2);
    break;
  }
  return c;
}

double pickCanvas(Rng &rng) {
  constexpr double kCanvases[] = {1.0, 100.0, 1000.0};
  return kCanvases[rng.uniform(0, 2)];
}

void fillRandomBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const double canvas = pickCanvas(rng);
  for (int64_t i = 0; i < count; ++i)
    writeBox(t, i, randomCorners(canvas, rng), center);
}

void fillClusteredBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const double canvas = pickCanvas(rng);
  std::vector<Corners> clusters(static_cast<size_t>(rng.uniform(1, 4)));
  for (Corners &c : clusters) {
    c = randomCorners(canvas, rng);
    // Not too thin, so that jittered copies overlap heavily.
    c.y2 += canvas * 0.05;
    c.x2 += canvas * 0.05;
  }
  constexpr double kJitters[] = {0.01, 0.05, 0.2};
  const double jitter = kJitters[rng.uniform(0, 2)];
  for (int64_t i = 0; i < count; ++i) {
    Corners c = rng.pick(clusters);
    const double h = c.y2 - c.y1, w = c.x2 - c.x1;
    c.y1 += (rng.uniformDouble() * 2 - 1) * jitter * h;
    c.y2 += (rng.uniformDouble() * 2 - 1) * jitter * h;
    c.x1 += (rng.uniformDouble() * 2 - 1) * jitter * w;
    c.x2 += (rng.uniformDouble() * 2 - 1) * jitter * w;
    writeBox(t, i, c, center);
  }
}

void fillIdenticalBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  std::vector<Corners> pool(static_cast<size_t>(rng.uniform(1, 3)));
  const bool integer = rng.chance(0.5);
  const double canvas = pickCanvas(rng);
  for (Corners &c : pool) {
    c = randomCorners(canvas, rng);
    if (integer) {
      c.y1 = std::floor(c.y1), c.x1 = std::floor(c.x1);
      c.y2 = c.y1 + 2 * rng.uniform(1, 8), c.x2 = c.x1 + 2 * rng.uniform(1, 8);
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    // Mostly the first box.
    Corners c = rng.chance(0.6) ? pool[0] : rng.pick(pool);
    if (!center && rng.chance(0.3))
      c = flip(c, rng);
    writeBox(t, i, c, center);
  }
}

/// Clusters of heavily overlapping boxes, most written with their corners
/// swapped: a flipped box changes a selection only where it overlaps a
/// kept one by more than the threshold, which random boxes rarely do (a
/// compiler that takes flipped corners as given was caught in 1 of 40 NMS
/// cases with random flipped boxes).
void fillFlippedBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const double canvas = pickCanvas(rng);
  std::vector<Corners> clusters(static_cast<size_t>(rng.uniform(1, 4)));
  for (Corners &c : clusters) {
    c = randomCorners(canvas, rng);
    c.y2 += canvas * 0.05;
    c.x2 += canvas * 0.05;
  }
  for (int64_t i = 0; i < count; ++i) {
    Corners c = rng.pick(clusters);
    const double h = c.y2 - c.y1, w = c.x2 - c.x1;
    c.y1 += (rng.uniformDouble() * 2 - 1) * 0.05 * h;
    c.y2 += (rng.uniformDouble() * 2 - 1) * 0.05 * h;
    c.x1 += (rng.uniformDouble() * 2 - 1) * 0.05 * w;
    c.x2 += (rng.uniformDouble() * 2 - 1) * 0.05 * w;
    writeBox(t, i, rng.chance(0.8) ? flip(c, rng) : c, center);
  }
}

void fillDegenerateBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const double canvas = pickCanvas(rng);
  Corners previous = randomCorners(canvas, rng);
  previous.y2 = previous.y1;
  for (int64_t i = 0; i < count; ++i) {
    Corners c = randomCorners(canvas, rng);
    switch (rng.pickWeighted({4, 2, 2, 1, center ? 2u : 0u, 1})) {
    case 0: break;              // an ordinary box among the degenerate ones
    case 1: c.y2 = c.y1; break; // zero height
    case 2: c.x2 = c.x1; break; // zero width
    case 3: c.y2 = c.y1, c.x2 = c.x1; break; // a point
    case 4: c = flip(c, rng); break;         // negative width and/or height
    default: c = previous; break; // the previous degenerate box again
    }
    if (c.y1 == c.y2 || c.x1 == c.x2)
      previous = c;
    writeBox(t, i, c, center);
  }
}

void fillHugeBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const bool half = t.type == ElementType::F16;
  constexpr double kFloatMagnitudes[] = {
      1e29, 1e30, 1e31, 1e33, 1e36, 1e38, 3.4028234663852886e38};
  constexpr double kHalfMagnitudes[] = {1024.0, 8192.0, 32768.0, 60000.0,
                                        65504.0};
  auto magnitude = [&] {
    return half ? kHalfMagnitudes[rng.uniform(0, 4)]
                : kFloatMagnitudes[rng.uniform(0, 6)];
  };
  const double max = half                         ? 65504.0
                     : t.type == ElementType::BF16 ? 3.3895313892515355e38
                                                   : 3.4028234663852886e38;
  for (int64_t i = 0; i < count; ++i) {
    Corners c;
    c.y1 = (rng.uniformDouble() * 2 - 1) * magnitude();
    c.x1 = (rng.uniformDouble() * 2 - 1) * magnitude();
    if (rng.chance(0.25)) {
      // A small box far out: its size is lost to rounding (zero area).
      c.y2 = c.y1 + static_cast<double>(rng.uniform(1, 100));
      c.x2 = c.x1 + static_cast<double>(rng.uniform(1, 100));
    } else {
      c.y2 = c.y1 + rng.uniformDouble() * magnitude();
      c.x2 = c.x1 + rng.uniformDouble() * magnitude();
    }
    // Some coordinates exactly at the type's extremes.
    if (rng.chance(0.2))
      c.y1 = -max, c.y2 = max;
    if (rng.chance(0.2))
      c.x2 = max;
    writeBox(t, i, rng.chance(0.2) ? flip(c, rng) : c, center,
             /*finite=*/true);
  }
}

void fillTinyBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  // Small multiples of denormal or barely normal units (exact in the type).
  const bool half = t.type == ElementType::F16;
  constexpr int kFloatExponents[] = {-149, -145, -140, -130, -126, -120};
  constexpr int kBfloatExponents[] = {-133, -131, -128, -126, -120};
  constexpr int kHalfExponents[] = {-24, -22, -20, -16, -14};
  const int exponent = half ? kHalfExponents[rng.uniform(0, 4)]
                       : t.type == ElementType::BF16
                           ? kBfloatExponents[rng.uniform(0, 4)]
                           : kFloatExponents[rng.uniform(0, 5)];
  const double unit = std::ldexp(1.0, exponent);
  for (int64_t i = 0; i < count; ++i) {
    Corners c;
    c.y1 = unit * static_cast<double>(rng.uniform(-4, 8));
    c.x1 = unit * static_cast<double>(rng.uniform(-4, 8));
    c.y2 = c.y1 + unit * static_cast<double>(rng.uniform(0, 8));
    c.x2 = c.x1 + unit * static_cast<double>(rng.uniform(0, 8));
    writeBox(t, i, c, center);
  }
}

void fillNonFiniteBoxes(HostTensor &t, int64_t count, bool center, Rng &rng) {
  const std::vector<uint64_t> specials = detail::specialFloatBits(t.type);
  const double canvas = pickCanvas(rng);
  for (int64_t i = 0; i < count; ++i) {
    writeBox(t, i, randomCorners(canvas, rng), center);
    for (int64_t k = 0; k < 4; ++k)
      if (rng.chance(0.15))
        setBits(t, i * 4 + k, rng.pick(specials));
  }
}

/// Writes box `at` of `t`: integer corners `c` ([y1, x1, y2, x2]) times
/// `scale` from the grid cell at (`baseY`, `baseX`); a quarter of the
/// corner-format boxes with any two diagonal corners (flip).
void writeCellBox(HostTensor &t, int64_t at, int64_t baseY, int64_t baseX,
                  int32_t scale, const std::array<int32_t, 4> &c, bool center,
                  Rng &rng) {
  Corners corners;
  corners.y1 = static_cast<double>(baseY + scale * c[0]);
  corners.x1 = static_cast<double>(baseX + scale * c[1]);
  corners.y2 = static_cast<double>(baseY + scale * c[2]);
  corners.x2 = static_cast<double>(baseX + scale * c[3]);
  if (!center && rng.chance(0.25))
    corners = flip(corners, rng);
  writeBox(t, at, corners, center);
}

/// Pairs of integer boxes whose IoU is `threshold` (or nearest to it), each
/// pair in its own cell of a grid, so that pairs never overlap each other.
void fillExactIouBoxes(HostTensor &t, int64_t batches, int64_t n, bool center,
                       float threshold, Rng &rng) {
  const std::vector<IntBoxPair> pairs = pairsNearIou(threshold);
  // In center format every length is doubled: centers stay integers.
  const int32_t scale = center ? 2 : 1;
  const int32_t span = 2 * kMaxExactIouSide; // a pair fits in [0, span]
  const int64_t cell = (span + 2) * scale;
  const int64_t perBatch = n / 2;
  int64_t columns = 1;
  while (columns * columns < perBatch)
    ++columns;
  // Integer offsets: within f16's exact integers (|x| <= 2048), or far out
  // for f32 (exact below 2^24). bf16 is exact only up to 256: no offset (a
  // large grid's far cells round, which only makes their IoUs inexact).
  int64_t offset;
  if (t.type == ElementType::BF16)
    offset = 0;
  else if (t.type == ElementType::F16)
    offset = rng.uniform(-300, 300);
  else
    switch (rng.uniform(0, 2)) {
    case 0: offset = 0; break;
    case 1: offset = rng.uniform(-1000, 1000); break;
    default:
      offset = (rng.chance(0.5) ? 1 : -1) *
               ((int64_t(1) << 20) + rng.uniform(0, 1000));
      break;
    }
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t j = 0; j < perBatch; ++j) {
      std::array<std::array<int32_t, 4>, 2> box =
          cornersOf(pairs.empty() ? randomIntBoxPair(rng) : rng.pick(pairs));
      // Symmetries that keep the IoU exactly: transpose, mirror each axis,
      // swap the two boxes.
      if (rng.chance(0.5))
        for (auto &c : box)
          c = {c[1], c[0], c[3], c[2]};
      if (rng.chance(0.5))
        for (auto &c : box)
          c = {span - c[2], c[1], span - c[0], c[3]};
      if (rng.chance(0.5))
        for (auto &c : box)
          c = {c[0], span - c[3], c[2], span - c[1]};
      if (rng.chance(0.5))
        std::swap(box[0], box[1]);
      const int64_t baseY = offset + (j / columns) * cell;
      const int64_t baseX = offset + (j % columns) * cell;
      for (int64_t k = 0; k < 2; ++k)
        writeCellBox(t, b * n + 2 * j + k, baseY, baseX, scale,
                     box[static_cast<size_t>(k)], center, rng);
    }
    if (n % 2 == 1) {
      // The odd box out: a copy of another box of the batch (IoU 1), or a
      // unit box far from the grid.
      const int64_t last = b * n + n - 1;
      if (n > 1 && rng.chance(0.5)) {
        const int64_t other = b * n + rng.uniform(0, n - 2);
        for (int64_t k = 0; k < 4; ++k)
          setBits(t, last * 4 + k, elementBits(t, other * 4 + k));
      } else {
        Corners c;
        c.y1 = c.x1 = static_cast<double>(offset - cell);
        c.y2 = c.x2 = c.y1 + 2;
        writeBox(t, last, c, center);
      }
    }
  }
}

/// Clusters in the cells of a grid (BoxMode::ClusterGrid). A cluster's box
/// has sides of 4 to 8 units; a member moved by at most a unit a side
/// keeps an IoU of at least ((s - 2) / (s + 2))^2 with it, so members move
/// only while that bound is above the threshold.
void fillClusterGridBoxes(HostTensor &t, int64_t batches, int64_t n,
                          bool center, float threshold, Rng &rng) {
  const std::vector<IntBoxPair> pairs = pairsNearIou(threshold);
  // In center format every length is doubled: centers stay integers.
  const int32_t scale = center ? 2 : 1;
  const int64_t cell = (2 * kMaxExactIouSide + 2) * scale;
  struct Cluster {
    std::array<std::array<int32_t, 4>, 2> boxes; // one box twice, or a pair
    bool moves = false;
  };
  for (int64_t b = 0; b < batches; ++b) {
    // Two boxes a cluster up to one: many clusters suppress within
    // themselves, few leave long runs of suppressed boxes.
    const int64_t most = std::max<int64_t>(1, n / 2);
    const int64_t clusters = std::min<int64_t>(
        most, int64_t{1} << rng.uniform(0, 63 - __builtin_clzll(
                                                  static_cast<uint64_t>(most))));
    int64_t columns = 1;
    while (columns * columns < clusters)
      ++columns;
    std::vector<Cluster> pool(static_cast<size_t>(clusters));
    for (Cluster &c : pool) {
      if (rng.chance(0.25)) {
        c.boxes = cornersOf(pairs.empty() ? randomIntBoxPair(rng)
                                          : rng.pick(pairs));
        continue;
      }
      const int32_t h = static_cast<int32_t>(rng.uniform(4, 8));
      const int32_t w = static_cast<int32_t>(rng.uniform(4, 8));
      c.boxes[0] = c.boxes[1] = {1, 1, 1 + h, 1 + w};
      const double side = std::min(h, w);
      const double bound = (side - 2) / (side + 2);
      c.moves = bound * bound > threshold;
    }
    for (int64_t i = 0; i < n; ++i) {
      const int64_t which = rng.uniform(0, clusters - 1);
      const Cluster &c = pool[static_cast<size_t>(which)];
      std::array<int32_t, 4> box = c.boxes[static_cast<size_t>(rng.uniform(0, 1))];
      if (c.moves)
        for (int32_t &v : box)
          v += static_cast<int32_t>(rng.uniform(-1, 1));
      writeCellBox(t, b * n + i, (which / columns) * cell,
                   (which % columns) * cell, scale, box, center, rng);
    }
  }
}

//===----------------------------------------------------------------------===//
// Scores.
//===----------------------------------------------------------------------===//

/// Distinct scores in every row of n: a permutation of integers around 0
/// times 2^-s (exact in f16 for n <= 4096); f32 sometimes with a fraction.
/// bf16 rows longer than 256 (its exact integers) take a permutation of
/// consecutive bit patterns from 2^-63 up instead.
void fillDistinctScores(HostTensor &t, int64_t rows, int64_t n, Rng &rng) {
  const double scale = std::ldexp(1.0, -static_cast<int>(rng.uniform(0, 10)));
  const bool fraction = !isHalfFloat(t.type) && rng.chance(0.5);
  const bool bitPatterns = t.type == ElementType::BF16 && n > 256 &&
                           n <= 0x7F80 - 0x2000;
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = 0; i < n; ++i)
      perm[static_cast<size_t>(i)] = i;
    for (int64_t i = n - 1; i > 0; --i)
      std::swap(perm[static_cast<size_t>(i)],
                perm[static_cast<size_t>(rng.uniform(0, i))]);
    for (int64_t i = 0; i < n && bitPatterns; ++i)
      setBits(t, r * n + i, 0x2000 + uint64_t(perm[static_cast<size_t>(i)]));
    for (int64_t i = 0; i < n && !bitPatterns; ++i) {
      double v = static_cast<double>(perm[static_cast<size_t>(i)] - n / 2);
      if (fraction)
        v += rng.uniformDouble() * 0.5;
      setFloat(t, r * n + i, v * scale);
    }
  }
}

void fillTiedScores(HostTensor &t, uint64_t thresholdBits, Rng &rng) {
  HostTensor scratch(t.type, {1});
  std::vector<uint64_t> pool;
  if (rng.chance(0.3)) {
    setFloat(scratch, 0, -0.0);
    pool.push_back(elementBits(scratch, 0));
    setFloat(scratch, 0, 0.0);
    pool.push_back(elementBits(scratch, 0));
  }
  const int64_t distinct = rng.uniform(1, 4);
  constexpr size_t kValues = sizeof(kNmsScoreValues) / sizeof(float);
  while (static_cast<int64_t>(pool.size()) < distinct) {
    switch (rng.pickWeighted({3, 1, 1})) {
    case 0:
      setFloat(scratch, 0,
               kNmsScoreValues[rng.uniform(0, int64_t(kValues) - 1)]);
      pool.push_back(elementBits(scratch, 0));
      break;
    case 1: pool.push_back(thresholdBits); break;
    default:
      setFloat(scratch, 0, rng.uniformDouble() * 2 - 1);
      pool.push_back(elementBits(scratch, 0));
      break;
    }
  }
  for (int64_t i = 0; i < t.numElements(); ++i)
    setBits(t, i, rng.pick(pool));
}

void fillNaNScores(HostTensor &t, int64_t rows, int64_t n,
                   uint64_t thresholdBits, Rng &rng) {
  if (rng.chance(0.5))
    fillDistinctScores(t, rows, n, rng);
  else
    fillTiedScores(t, thresholdBits, rng);
  std::vector<uint64_t> nans, infs;
  for (uint64_t bits : detail::specialFloatBits(t.type)) {
    if (detail::isNanBits(t.type, bits))
      nans.push_back(bits);
    else if (isInfBits(t.type, bits))
      infs.push_back(bits);
  }
  const double nanChance = 0.1 + rng.uniformDouble() * 0.3;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    if (rng.chance(nanChance))
      setBits(t, i, rng.pick(nans));
    else if (rng.chance(0.03))
      setBits(t, i, rng.pick(infs));
  }
}

void fillScoresBelow(HostTensor &t, double threshold, uint64_t thresholdBits,
                     Rng &rng) {
  const int64_t count = t.numElements();
  if (std::isinf(threshold) && threshold < 0) {
    for (int64_t i = 0; i < count; ++i)
      setBits(t, i, thresholdBits); // only -inf is <= -inf
    return;
  }
  constexpr double kRanges[] = {0.0, 1.0, 100.0};
  const double range = kRanges[rng.uniform(0, 2)];
  const double base = std::isinf(threshold) ? 0.0 : threshold;
  for (int64_t i = 0; i < count; ++i) {
    if (rng.chance(0.3))
      setBits(t, i, thresholdBits);
    else
      setBits(
          t, i,
          detail::roundDownBits(base - rng.uniformDouble() * range, t.type));
  }
}

void fillScoresAtThreshold(HostTensor &t, double threshold,
                           uint64_t thresholdBits, Rng &rng) {
  const uint64_t up = detail::nextUpBits(thresholdBits, t.type);
  const uint64_t down = detail::nextDownBits(thresholdBits, t.type);
  // Both zeros equal a zero threshold.
  HostTensor scratch(t.type, {1});
  setFloat(scratch, 0, 0.0);
  const uint64_t posZero = elementBits(scratch, 0);
  setFloat(scratch, 0, -0.0);
  const uint64_t negZero = elementBits(scratch, 0);
  const bool zero = thresholdBits == posZero || thresholdBits == negZero;
  const double spread = rng.chance(0.5) ? 1.0 : 0.01;
  const double base = std::isfinite(threshold) ? threshold : 0.0;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    const double r = rng.uniformDouble();
    if (r < 0.4)
      setBits(t, i,
              zero ? (rng.chance(0.5) ? posZero : negZero) : thresholdBits);
    else if (r < 0.5)
      setBits(t, i, up);
    else if (r < 0.6)
      setBits(t, i, down);
    else
      setFloat(t, i, base + (rng.uniformDouble() * 2 - 1) * spread);
  }
}

} // namespace

HostTensor generateNmsBoxes(const TensorType &type, BoxMode mode,
                            bool centerPointBox, float iouThreshold, Rng &rng) {
  HostTensor t(type.elementType, type.shape);
  const int64_t batches = type.shape.size() == 3 ? type.shape[0] : 0;
  const int64_t n = type.shape.size() == 3 ? type.shape[1] : 0;
  const int64_t count = batches * n;
  switch (mode) {
  case BoxMode::Random: fillRandomBoxes(t, count, centerPointBox, rng); break;
  case BoxMode::Clustered:
    fillClusteredBoxes(t, count, centerPointBox, rng);
    break;
  case BoxMode::Identical:
    fillIdenticalBoxes(t, count, centerPointBox, rng);
    break;
  case BoxMode::Flipped: fillFlippedBoxes(t, count, centerPointBox, rng); break;
  case BoxMode::Degenerate:
    fillDegenerateBoxes(t, count, centerPointBox, rng);
    break;
  case BoxMode::Huge: fillHugeBoxes(t, count, centerPointBox, rng); break;
  case BoxMode::Tiny: fillTinyBoxes(t, count, centerPointBox, rng); break;
  case BoxMode::NonFinite:
    fillNonFiniteBoxes(t, count, centerPointBox, rng);
    break;
  case BoxMode::ExactIou:
    fillExactIouBoxes(t, batches, n, centerPointBox, iouThreshold, rng);
    break;
  case BoxMode::ClusterGrid:
    fillClusterGridBoxes(t, batches, n, centerPointBox, iouThreshold, rng);
    break;
  }
  return t;
}

HostTensor generateNmsScores(const TensorType &type, ScoreMode mode,
                             std::optional<float> scoreThreshold, Rng &rng) {
  HostTensor t(type.elementType, type.shape);
  const int64_t n = type.shape.empty() ? 0 : type.shape.back();
  const int64_t rows = n > 0 ? t.numElements() / n : 0;
  const double threshold = scoreThreshold.value_or(0.0f);
  // The threshold in the scores' type: the largest value <= it.
  const uint64_t thresholdBits = detail::roundDownBits(threshold, t.type);
  switch (mode) {
  case ScoreMode::Distinct: fillDistinctScores(t, rows, n, rng); break;
  case ScoreMode::Ties: fillTiedScores(t, thresholdBits, rng); break;
  case ScoreMode::NaN: fillNaNScores(t, rows, n, thresholdBits, rng); break;
  case ScoreMode::AllBelow:
    fillScoresBelow(t, threshold, thresholdBits, rng);
    break;
  case ScoreMode::AtThreshold:
    fillScoresAtThreshold(t, threshold, thresholdBits, rng);
    break;
  }
  return t;
}

} // namespace sift::gen
