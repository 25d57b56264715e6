//===- test/unittests/generators/NmsInputsTest.cpp - nms inputs ---------===//
//
// The inputs of nms programs: every box and score mode is reached under
// `mixed` and each input mode reaches the modes InputGenerator.h lists; the
// modes do what they say; exact-IoU pairs have, by a plain f32 IoU computed
// here, the threshold's IoU bit for bit; programs without an NMS keep the
// inputs generateInput draws (bf16 extremes aside).
//
//===----------------------------------------------------------------------===//
#include "test/unittests/generators/NmsTestSupport.h"

#include "generators/ExactIou.h"
#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/NmsGenerator.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

using namespace sift;
using namespace sift::gen;
using namespace sift::gen::test;

namespace {

/// The IoU of sift.nms in plain f32: corners by min/max per axis (center
/// format: center -/+ half size), 0 when the intersection, an area or the
/// union is <= 0.
float plainIou(const float *a, const float *b, bool center) {
  struct Box {
    float y1, x1, y2, x2;
  };
  auto corners = [&](const float *v) {
    if (center)
      return Box{v[1] - v[3] / 2, v[0] - v[2] / 2, v[1] + v[3] / 2,
                 v[0] + v[2] / 2};
    return Box{std::min(v[0], v[2]), std::min(v[1], v[3]), std::max(v[0], v[2]),
               std::max(v[1], v[3])};
  };
  Box p = corners(a), q = corners(b);
  float areaP = (p.y2 - p.y1) * (p.x2 - p.x1);
  float areaQ = (q.y2 - q.y1) * (q.x2 - q.x1);
  float ih = std::min(p.y2, q.y2) - std::max(p.y1, q.y1);
  float iw = std::min(p.x2, q.x2) - std::max(p.x1, q.x1);
  if (ih <= 0 || iw <= 0 || areaP <= 0 || areaQ <= 0)
    return 0.0f;
  float inter = ih * iw;
  float uni = areaP + areaQ - inter;
  if (uni <= 0)
    return 0.0f;
  return inter / uni;
}

/// Box `i` (flat over B * N) of a boxes tensor, as f32.
std::array<float, 4> boxAt(const HostTensor &t, int64_t i) {
  std::array<float, 4> v;
  for (int64_t k = 0; k < 4; ++k)
    v[static_cast<size_t>(k)] =
        static_cast<float>(elementAsDouble(t, i * 4 + k));
  return v;
}


/// Checks every exact-IoU pair (2j, 2j + 1) of `boxes`; returns how many
/// equal the threshold bit for bit.
int checkExactPairs(const HostTensor &boxes, const Op &op) {
  const int64_t batches = boxes.shape[0], n = boxes.shape[1];
  const bool exact = isTableIou(op.iouThreshold);
  std::vector<IntBoxPair> near = pairsNearIou(op.iouThreshold);
  std::set<uint32_t> allowed;
  for (const IntBoxPair &p : near)
    allowed.insert(bitsOf(iouOf(p)));
  int equal = 0;
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t j = 0; 2 * j + 1 < n; ++j) {
      std::array<float, 4> x = boxAt(boxes, b * n + 2 * j);
      std::array<float, 4> y = boxAt(boxes, b * n + 2 * j + 1);
      float iou = plainIou(x.data(), y.data(), op.centerPointBox);
      float back = plainIou(y.data(), x.data(), op.centerPointBox);
      EXPECT_EQ(bitsOf(iou), bitsOf(back));
      if (exact)
        EXPECT_EQ(bitsOf(iou), bitsOf(op.iouThreshold))
            << "iou " << iou << " threshold " << op.iouThreshold;
      else
        EXPECT_TRUE(allowed.count(bitsOf(iou)))
            << "iou " << iou << " is not next to " << op.iouThreshold;
      equal += bitsOf(iou) == bitsOf(op.iouThreshold);
    }
  return equal;
}

} // namespace

TEST(NmsInputs, EveryModeUnderMixedAndTheDocumentedMapping) {
  Policy policy = nmsPolicy();
  const std::map<InputMode, std::set<BoxMode>> boxMap = {
      {InputMode::Uniform, {BoxMode::Random, BoxMode::Clustered}},
      {InputMode::Ties,
       {BoxMode::ExactIou, BoxMode::Identical, BoxMode::Clustered}},
      {InputMode::Special,
       {BoxMode::NonFinite, BoxMode::Huge, BoxMode::Tiny, BoxMode::Degenerate,
        BoxMode::Flipped}},
      {InputMode::Sorted, {BoxMode::Random, BoxMode::Clustered}},
      {InputMode::Reversed, {BoxMode::Random, BoxMode::Clustered}},
      {InputMode::Mixed,
       std::set<BoxMode>(std::begin(kAllBoxModes), std::end(kAllBoxModes))}};
  const std::map<InputMode, std::set<ScoreMode>> scoreMap = {
      {InputMode::Uniform, {ScoreMode::Distinct}},
      {InputMode::Ties, {ScoreMode::Ties, ScoreMode::AtThreshold}},
      {InputMode::Special, {ScoreMode::NaN, ScoreMode::AllBelow}},
      {InputMode::Sorted, {ScoreMode::Distinct, ScoreMode::Ties}},
      {InputMode::Reversed, {ScoreMode::Distinct, ScoreMode::Ties}},
      {InputMode::Mixed, std::set<ScoreMode>(std::begin(kAllScoreModes),
                                             std::end(kAllScoreModes))}};
  for (InputMode mode : kAllInputModes) {
    std::set<BoxMode> boxModes;
    std::set<ScoreMode> scoreModes;
    for (uint64_t index = 0; index < 600; ++index) {
      uint64_t seed = caseSeed(11, index);
      Program p = generateProgram(policy, seed);
      std::vector<InputFill> fills;
      generateInputs(p, mode, seed, &fills);
      const Op &op = nmsOf(p);
      // An input feeds an NMS operand directly or through a pre-filter's
      // gather (whose source it is).
      auto feeds = [&](int id, int operand) {
        if (id == operand)
          return true;
        for (const Op &g : p.ops)
          if (g.kind == OpKind::Gather && g.operands[0] == id &&
              g.results[0] == operand)
            return true;
        return false;
      };
      for (size_t i = 0; i < fills.size(); ++i) {
        int id = p.inputs[i];
        if (feeds(id, op.operands[0])) {
          ASSERT_EQ(fills[i].role, InputFill::Role::NmsBoxes);
          boxModes.insert(fills[i].boxMode);
        } else if (feeds(id, op.operands[1])) {
          ASSERT_EQ(fills[i].role, InputFill::Role::NmsScores);
          scoreModes.insert(fills[i].scoreMode);
        } else {
          ASSERT_EQ(fills[i].role, InputFill::Role::Plain);
        }
      }
    }
    EXPECT_EQ(boxModes, boxMap.at(mode)) << toString(mode);
    EXPECT_EQ(scoreModes, scoreMap.at(mode)) << toString(mode);
  }
  std::set<std::string_view> names;
  for (BoxMode m : kAllBoxModes)
    names.insert(toString(m));
  for (ScoreMode m : kAllScoreModes)
    names.insert(toString(m));
  EXPECT_EQ(names.size(), std::size(kAllBoxModes) + std::size(kAllScoreModes));
}

TEST(NmsInputs, ProgramsWithoutNmsKeepTheirInputs) {
  // Sort and top-k programs draw exactly what generateInput draws per input;
  // a bf16 input may then hold 1 to 3 bf16 extremes in place of its values,
  // and an input a top-k reads outliers (EdgeAimTest.cpp).
  const std::set<uint16_t> extremes = {0xFF80, 0xFF7F, 0xFE80, 0x7F80, 0x7F7F};
  Policy policy;
  policy.familyWeights = {1, 1, 0};
  int withExtremes = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    Program p = generateProgram(policy, seed);
    Rng rng = Rng(seed).fork(kInputStream);
    std::vector<HostTensor> got = generateInputs(p, InputMode::Mixed, seed);
    ASSERT_EQ(got.size(), p.inputs.size());
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      HostTensor expected = generateInput(
          p.values[static_cast<size_t>(p.inputs[i])], InputMode::Mixed, rng);
      bool topkReads =
          std::any_of(p.ops.begin(), p.ops.end(), [&](const Op &op) {
            return op.kind == OpKind::TopK && op.operands[0] == p.inputs[i];
          });
      if (topkReads)
        continue;
      if (expected.type != ElementType::BF16) {
        EXPECT_EQ(got[i], expected) << "seed " << seed;
        continue;
      }
      ASSERT_EQ(got[i].shape, expected.shape);
      int changed = 0;
      for (int64_t e = 0; e < expected.numElements(); ++e) {
        uint16_t bits = got[i].get<uint16_t>(e);
        if (bits == expected.get<uint16_t>(e))
          continue;
        ++changed;
        EXPECT_TRUE(extremes.count(bits)) << "seed " << seed << ": " << bits;
      }
      EXPECT_LE(changed, 3) << "seed " << seed;
      withExtremes += changed > 0;
    }
  }
  EXPECT_GE(withExtremes, 5);
}

TEST(NmsInputs, ExactIouPairsHitTheThresholdBitForBit) {
  // Through the whole pipeline: programs and their inputs under `ties`
  // (exact-iou is its most likely box mode).
  Policy policy = nmsPolicy();
  int exactTensors = 0, equalPairs = 0, nonTrivialEqual = 0, centerEqual = 0,
      halfEqual = 0;
  for (uint64_t index = 0; index < 1500; ++index) {
    uint64_t seed = caseSeed(5, index);
    Program p = generateProgram(policy, seed);
    std::vector<InputFill> fills;
    std::vector<HostTensor> inputs =
        generateInputs(p, InputMode::Ties, seed, &fills);
    const Op &op = nmsOf(p);
    for (size_t i = 0; i < fills.size(); ++i) {
      // bf16 holds integers exactly only up to 256: a large grid's far
      // cells round (NmsInputs.cpp), so its pairs are not checked here.
      if (fills[i].role != InputFill::Role::NmsBoxes ||
          fills[i].boxMode != BoxMode::ExactIou ||
          inputs[i].type == ElementType::BF16)
        continue;
      ++exactTensors;
      int equal = checkExactPairs(inputs[i], op);
      equalPairs += equal;
      bool trivial = op.iouThreshold == 0.0f || op.iouThreshold == 1.0f ||
                     op.iouThreshold == 0.5f;
      nonTrivialEqual += trivial ? 0 : equal;
      centerEqual += op.centerPointBox ? equal : 0;
      halfEqual += inputs[i].type == ElementType::F16 ? equal : 0;
    }
  }
  EXPECT_GT(exactTensors, 200);
  EXPECT_GT(equalPairs, 1000);
  EXPECT_GT(nonTrivialEqual, 500);
  EXPECT_GT(centerEqual, 100);
  EXPECT_GT(halfEqual, 100);
}

TEST(NmsInputs, ExactIouForEveryDrawnThreshold) {
  // Directly: thresholds as the generator draws them, both formats and types.
  Rng rng(31);
  NmsPolicy np;
  int exact = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Op op;
    op.kind = OpKind::Nms;
    op.iouThreshold = generateIouThreshold(np, rng);
    op.centerPointBox = rng.chance(0.5);
    ElementType type = rng.chance(0.5) ? ElementType::F16 : ElementType::F32;
    int64_t n = rng.uniform(0, 64);
    HostTensor boxes =
        generateNmsBoxes(TensorType{type, {2, n, 4}}, BoxMode::ExactIou,
                         op.centerPointBox, op.iouThreshold, rng);
    int equal = checkExactPairs(boxes, op);
    if (isTableIou(op.iouThreshold) && n >= 2) {
      EXPECT_EQ(equal, 2 * (n / 2));
      ++exact;
    }
  }
  EXPECT_GT(exact, 100);
  // Every table IoU is its own threshold's match, e.g. 1/3 and 0.5.
  EXPECT_FALSE(pairsNearIou(1.0f / 3.0f).empty());
  EXPECT_EQ(iouOf(pairsNearIou(1.0f / 3.0f)[0]), 1.0f / 3.0f);
  EXPECT_EQ(iouOf(pairsNearIou(0.5f)[0]), 0.5f);
  EXPECT_EQ(iouOf(pairsNearIou(1.0f)[0]), 1.0f);
  // Between two table values: both neighbours.
  std::set<float> near;
  for (const IntBoxPair &pair : pairsNearIou(0.3001f))
    near.insert(iouOf(pair));
  ASSERT_EQ(near.size(), 2u);
  EXPECT_LT(*near.begin(), 0.3001f);
  EXPECT_GT(*near.rbegin(), 0.3001f);
}

TEST(NmsInputs, BoxModesDoWhatTheySay) {
  Rng rng(41);
  for (ElementType type : {ElementType::F16, ElementType::F32})
    for (bool center : {false, true}) {
      TensorType boxes{type, {2, 200, 4}};
      const double huge = type == ElementType::F16 ? 30000.0 : 1e28;
      const double tiny = type == ElementType::F16 ? 0x1p-14 : 1e-37;
      bool nan = false, inf = false, big = false, small = false;
      for (int trial = 0; trial < 20; ++trial)
        for (BoxMode mode :
             {BoxMode::NonFinite, BoxMode::Huge, BoxMode::Tiny}) {
          HostTensor t = generateNmsBoxes(boxes, mode, center, 0.5f, rng);
          for (int64_t i = 0; i < t.numElements(); ++i) {
            double v = elementAsDouble(t, i);
            nan |= std::isnan(v);
            inf |= std::isinf(v);
            big |= std::isfinite(v) && std::fabs(v) >= huge;
            small |= v != 0 && std::fabs(v) < tiny;
          }
        }
      EXPECT_TRUE(nan && inf && big && small)
          << toString(type) << " center " << center;
      // Degenerate: zero-area boxes, and in center format negative sizes.
      HostTensor d =
          generateNmsBoxes(boxes, BoxMode::Degenerate, center, 0.5f, rng);
      int zeroArea = 0, negative = 0;
      for (int64_t i = 0; i < 400; ++i) {
        std::array<float, 4> v = boxAt(d, i);
        if (center) {
          zeroArea += v[2] == 0 || v[3] == 0;
          negative += v[2] < 0 || v[3] < 0;
        } else {
          zeroArea += v[0] == v[2] || v[1] == v[3];
        }
      }
      EXPECT_GT(zeroArea, 50);
      if (center) {
        EXPECT_GT(negative, 20);
      }
      // Flipped: swapped corners, or negative sizes.
      HostTensor f =
          generateNmsBoxes(boxes, BoxMode::Flipped, center, 0.5f, rng);
      int flipped = 0;
      for (int64_t i = 0; i < 400; ++i) {
        std::array<float, 4> v = boxAt(f, i);
        flipped +=
            center ? (v[2] < 0 || v[3] < 0) : (v[0] > v[2] || v[1] > v[3]);
      }
      EXPECT_GT(flipped, 200);
      // Identical: few distinct boxes.
      HostTensor same =
          generateNmsBoxes(boxes, BoxMode::Identical, center, 0.5f, rng);
      std::set<std::array<float, 4>> distinct;
      for (int64_t i = 0; i < 400; ++i) {
        std::array<float, 4> v = boxAt(same, i);
        if (!center) // the same box with its corners in either order
          v = {std::min(v[0], v[2]), std::min(v[1], v[3]), std::max(v[0], v[2]),
               std::max(v[1], v[3])};
        distinct.insert(v);
      }
      EXPECT_LE(distinct.size(), 3u);
      // Clustered: boxes of a cluster overlap heavily (many pairs with a
      // large IoU).
      HostTensor c =
          generateNmsBoxes(boxes, BoxMode::Clustered, center, 0.5f, rng);
      int overlapping = 0;
      for (int64_t i = 0; i + 1 < 200; ++i) {
        std::array<float, 4> a = boxAt(c, i), b = boxAt(c, i + 1);
        overlapping += plainIou(a.data(), b.data(), center) > 0.3f;
      }
      EXPECT_GT(overlapping, 30);
    }
}

TEST(NmsInputs, ScoreModesDoWhatTheySay) {
  Rng rng(43);
  NmsPolicy np;
  np.scoreThresholdChance = 1.0;
  int atThreshold = 0, withThreshold = 0, bothZeros = 0;
  for (int trial = 0; trial < 300; ++trial)
    for (ElementType type : {ElementType::F16, ElementType::F32}) {
      std::optional<float> threshold =
          rng.chance(0.2) ? std::nullopt : generateScoreThreshold(np, rng);
      const float thr = threshold.value_or(0.0f);
      TensorType scores{type, {2, 3, 50}};
      // Distinct within every row.
      HostTensor d =
          generateNmsScores(scores, ScoreMode::Distinct, threshold, rng);
      for (int64_t r = 0; r < 6; ++r) {
        std::set<double> row;
        for (int64_t i = 0; i < 50; ++i)
          row.insert(elementAsDouble(d, r * 50 + i));
        ASSERT_EQ(row.size(), 50u);
      }
      // Ties: at most 4 values.
      HostTensor t = generateNmsScores(scores, ScoreMode::Ties, threshold, rng);
      std::set<uint64_t> values;
      bool pos = false, neg = false;
      for (int64_t i = 0; i < t.numElements(); ++i) {
        values.insert(elementBits(t, i));
        double v = elementAsDouble(t, i);
        pos |= v == 0 && !std::signbit(v);
        neg |= v == 0 && std::signbit(v);
      }
      EXPECT_LE(values.size(), 4u);
      bothZeros += pos && neg;
      // NaN: some NaN.
      HostTensor n = generateNmsScores(scores, ScoreMode::NaN, threshold, rng);
      bool nan = false;
      for (int64_t i = 0; i < n.numElements(); ++i)
        nan |= std::isnan(elementAsDouble(n, i));
      EXPECT_TRUE(nan);
      // AllBelow: nothing above the threshold (compared in f32, as the op).
      HostTensor b =
          generateNmsScores(scores, ScoreMode::AllBelow, threshold, rng);
      for (int64_t i = 0; i < b.numElements(); ++i)
        ASSERT_LE(static_cast<float>(elementAsDouble(b, i)), thr)
            << toString(type) << " threshold " << thr;
      // AtThreshold: some scores equal it when the type holds it.
      HostTensor a =
          generateNmsScores(scores, ScoreMode::AtThreshold, threshold, rng);
      bool representable = std::isfinite(thr) && isExactFloat(thr, type);
      if (!representable)
        continue;
      ++withThreshold;
      int equal = 0, above = 0;
      for (int64_t i = 0; i < a.numElements(); ++i) {
        float v = static_cast<float>(elementAsDouble(a, i));
        equal += v == thr;
        above += v > thr;
      }
      atThreshold += equal > 0 && above > 0;
    }
  EXPECT_GT(withThreshold, 200);
  EXPECT_EQ(atThreshold, withThreshold);
  EXPECT_GT(bothZeros, 20);
}
