//===- test/unittests/generators/NmsGeneratorTest.cpp - The nms family ----===//
//
// Programs of the nms family over thousands of seeds: valid, identical for a
// seed (program and input bytes), and covering the ranges NmsGenerator.h
// promises (B, C, N with 0 and 1, max_out 0 / N / above N / negative, both
// box formats and element types, score threshold present and absent, exact
// IoU thresholds). Inputs: every box and score mode is reached under `mixed`
// and each input mode reaches the modes InputGenerator.h lists; the modes do
// what they say; exact-IoU pairs have, by a plain f32 IoU computed here, the
// threshold's IoU bit for bit. The top-k pre-filter: frequent enough, its
// gathers fed by a top-k over the gathered dimension, and programs without
// it unchanged by its presence in the generator.
//
//===----------------------------------------------------------------------===//
#include "generators/NmsGenerator.h"
#include "generators/ExactIou.h"
#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "generators/ShapeGenerator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

Policy nmsPolicy() {
  Policy policy;
  policy.familyWeights = {0, 0, 1};
  return policy;
}

uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

uint64_t bitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof(b));
  return b;
}

/// Field-by-field equality of two programs (floats by their bits).
bool sameProgram(const Program &a, const Program &b) {
  if (a.values != b.values || a.inputs != b.inputs || a.outputs != b.outputs ||
      a.ops.size() != b.ops.size())
    return false;
  for (size_t i = 0; i < a.ops.size(); ++i) {
    const Op &x = a.ops[i], &y = b.ops[i];
    bool same = x.kind == y.kind && x.operands == y.operands &&
                x.results == y.results && x.ew == y.ew &&
                bitsOf(x.constant) == bitsOf(y.constant) &&
                x.intConstant == y.intConstant && x.dimension == y.dimension &&
                x.order == y.order && x.comparator == y.comparator &&
                x.k == y.k && x.largest == y.largest &&
                x.offsets == y.offsets && x.sizes == y.sizes &&
                x.strides == y.strides &&
                x.maxOutputBoxesPerClass == y.maxOutputBoxesPerClass &&
                bitsOf(x.iouThreshold) == bitsOf(y.iouThreshold) &&
                x.scoreThreshold.has_value() == y.scoreThreshold.has_value() &&
                (!x.scoreThreshold ||
                 bitsOf(*x.scoreThreshold) == bitsOf(*y.scoreThreshold)) &&
                x.centerPointBox == y.centerPointBox && x.axis == y.axis;
    if (!same)
      return false;
  }
  return true;
}

const Op &nmsOf(const Program &p) {
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Nms)
      return op;
  ADD_FAILURE() << "no nms op";
  return p.ops.front();
}

const Op *definer(const Program &p, int id) {
  for (const Op &op : p.ops)
    for (int r : op.results)
      if (r == id)
        return &op;
  return nullptr;
}

bool isUsed(const Program &p, int id) {
  for (const Op &op : p.ops)
    for (int x : op.operands)
      if (x == id)
        return true;
  return std::find(p.outputs.begin(), p.outputs.end(), id) != p.outputs.end();
}

bool isInput(const Program &p, int id) {
  return std::find(p.inputs.begin(), p.inputs.end(), id) != p.inputs.end();
}

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

/// True when `t` is the f32 IoU of some pair in the exact-IoU table.
bool isTableIou(float t) {
  std::vector<IntBoxPair> pairs = pairsNearIou(t);
  return !pairs.empty() && bitsOf(iouOf(pairs[0])) == bitsOf(t);
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

TEST(NmsGenerator, ValidAndDeterministicOverManySeeds) {
  for (bool exactKeys : {false, true}) {
    Policy policy = nmsPolicy();
    policy.allowInexactKeys = !exactKeys;
    for (uint64_t index = 0; index < 1200; ++index) {
      uint64_t seed = caseSeed(99 + exactKeys, index);
      Program a = generateProgram(policy, seed);
      ASSERT_EQ(validate(a), "") << "seed " << seed;
      Program b = generateProgram(policy, seed);
      ASSERT_TRUE(sameProgram(a, b)) << "seed " << seed;
      std::vector<InputFill> fa, fb;
      std::vector<HostTensor> ia =
          generateInputs(a, InputMode::Mixed, seed, &fa);
      std::vector<HostTensor> ib =
          generateInputs(b, InputMode::Mixed, seed, &fb);
      ASSERT_EQ(ia, ib) << "seed " << seed;
      ASSERT_EQ(ia.size(), a.inputs.size());
      for (size_t i = 0; i < ia.size(); ++i) {
        const TensorType &type = a.values[static_cast<size_t>(a.inputs[i])];
        EXPECT_EQ(ia[i].type, type.elementType);
        EXPECT_EQ(ia[i].shape, type.shape);
        EXPECT_EQ(fa[i].role, fb[i].role);
        EXPECT_EQ(fa[i].boxMode, fb[i].boxMode);
        EXPECT_EQ(fa[i].scoreMode, fb[i].scoreMode);
      }
      // Exactly one nms; every value within the element cap; the results
      // that are unused stay unused, at least one is used.
      int count = 0;
      for (const Op &op : a.ops)
        count += op.kind == OpKind::Nms;
      ASSERT_EQ(count, 1);
      for (const TensorType &t : a.values)
        EXPECT_LE(t.numElements(), policy.shapes.maxElements)
            << "seed " << seed;
      const Op &nms = nmsOf(a);
      EXPECT_TRUE(isUsed(a, nms.results[0]) || isUsed(a, nms.results[1]));
    }
  }
}

TEST(NmsGenerator, PrefilterGathersByTopKIndices) {
  Policy policy = nmsPolicy();
  Policy without = policy;
  without.nms.prefilterChance = 0;
  int prefiltered = 0, kBelowN = 0, kEqualN = 0, unchanged = 0;
  for (uint64_t index = 0; index < 1000; ++index) {
    uint64_t seed = caseSeed(31, index);
    Program p = generateProgram(policy, seed);
    ASSERT_EQ(validate(p), "") << "seed " << seed;
    std::string text = emitMlir(p);
    ASSERT_EQ(text, emitMlir(generateProgram(policy, seed))) << "seed " << seed;
    std::map<int, const Op *> definer;
    for (const Op &op : p.ops)
      for (int r : op.results)
        definer[r] = &op;
    const Op &nms = nmsOf(p);
    std::vector<const Op *> gathers;
    for (const Op &op : p.ops) {
      if (op.kind != OpKind::Gather)
        continue;
      gathers.push_back(&op);
      // The indices are those of a largest top-k along dimension 1 of a
      // [B, N] input, N the size of the gathered dimension.
      auto it = definer.find(op.operands[1]);
      ASSERT_NE(it, definer.end()) << "seed " << seed;
      const Op &topk = *it->second;
      ASSERT_EQ(topk.kind, OpKind::TopK) << "seed " << seed;
      EXPECT_EQ(topk.results[1], op.operands[1]);
      EXPECT_EQ(topk.dimension, 1);
      EXPECT_TRUE(topk.largest);
      EXPECT_FALSE(isUsed(p, topk.results[0])) << "seed " << seed;
      const TensorType &in = p.values[static_cast<size_t>(topk.operands[0])];
      const TensorType &src = p.values[static_cast<size_t>(op.operands[0])];
      ASSERT_EQ(in.rank(), 2);
      EXPECT_TRUE(isInput(p, topk.operands[0]));
      EXPECT_EQ(in.shape[0], src.shape[0]);
      EXPECT_EQ(in.shape[1], src.shape[static_cast<size_t>(op.axis)])
          << "seed " << seed;
      EXPECT_GE(topk.k, 1);
      kBelowN += topk.k < in.shape[1];
      kEqualN += topk.k == in.shape[1];
    }
    if (gathers.empty()) {
      // Without a pre-filter: the very program of a generator without one.
      EXPECT_EQ(text, emitMlir(generateProgram(without, seed)))
          << "seed " << seed;
      ++unchanged;
      continue;
    }
    ++prefiltered;
    // Boxes along axis 1 and scores along axis 2, by the same indices, and
    // the op works on the gathered K boxes.
    ASSERT_EQ(gathers.size(), 2u) << "seed " << seed;
    EXPECT_EQ(gathers[0]->operands[1], gathers[1]->operands[1]);
    EXPECT_EQ(nms.operands[0], gathers[0]->results[0]);
    EXPECT_EQ(gathers[0]->axis, 1);
    EXPECT_EQ(nms.operands[1], gathers[1]->results[0]);
    EXPECT_EQ(gathers[1]->axis, 2);
    EXPECT_LE(p.values[static_cast<size_t>(nms.results[0])].numElements(),
              policy.shapes.maxElements);
  }
  // About a quarter of the programs with N >= 1 (N = 0 has no pre-filter).
  EXPECT_GE(prefiltered, 150);
  EXPECT_LE(prefiltered, 320);
  EXPECT_EQ(prefiltered + unchanged, 1000);
  EXPECT_GT(kBelowN, 0);
  EXPECT_GT(kEqualN, 0);
  std::printf("pre-filter in %d of 1000 programs\n", prefiltered);

  // Chance 1: every program with N >= 1 gets one; chance 0: none.
  Policy always = policy;
  always.nms.prefilterChance = 1;
  for (uint64_t index = 0; index < 200; ++index) {
    uint64_t seed = caseSeed(32, index);
    Program p = generateProgram(always, seed);
    ASSERT_EQ(validate(p), "") << "seed " << seed;
    bool gathered = std::any_of(p.ops.begin(), p.ops.end(), [](const Op &op) {
      return op.kind == OpKind::Gather;
    });
    const Op &nms = nmsOf(p);
    int64_t n = p.values[static_cast<size_t>(nms.operands[0])].shape[1];
    EXPECT_EQ(gathered, n >= 1) << "seed " << seed;
    Program q = generateProgram(without, seed);
    EXPECT_TRUE(std::none_of(q.ops.begin(), q.ops.end(), [](const Op &op) {
      return op.kind == OpKind::Gather;
    }));
  }
}

TEST(NmsGenerator, CoversTheRanges) {
  Policy policy = nmsPolicy();
  std::set<int64_t> batches, classes;
  std::set<ElementType> boxTypes, scoreTypes;
  std::map<std::string, int> seen;
  for (uint64_t index = 0; index < 3000; ++index) {
    Program p = generateProgram(policy, caseSeed(7, index));
    const Op &op = nmsOf(p);
    const TensorType &boxes = p.values[static_cast<size_t>(op.operands[0])];
    const TensorType &scores = p.values[static_cast<size_t>(op.operands[1])];
    const int64_t n = boxes.shape[1], m = op.maxOutputBoxesPerClass;
    batches.insert(boxes.shape[0]);
    classes.insert(scores.shape[1]);
    boxTypes.insert(boxes.elementType);
    scoreTypes.insert(scores.elementType);
    seen["n=0"] += n == 0;
    seen["n=1"] += n == 1;
    seen["n prime > 1000"] += n > 1000 && isPrime(n);
    seen["n = 2^j +- 1 > 100"] += n > 100 && ((n + 1) & n) == 0;
    seen["n = 2^j +- 1 > 100"] += n > 100 && ((n - 1) & (n - 2)) == 0;
    seen["n >= 4000"] += n >= 4000;
    seen["max_out=0"] += m == 0;
    seen["max_out=1"] += m == 1 && n > 1;
    seen["max_out=n"] += m == n && n > 1;
    seen["0<max_out<n"] += m > 1 && m < n;
    seen["max_out>n"] += m > n;
    seen["max_out<0"] += m < 0;
    seen["center"] += op.centerPointBox;
    seen["corners"] += !op.centerPointBox;
    seen["score threshold"] += op.scoreThreshold.has_value();
    seen["no score threshold"] += !op.scoreThreshold.has_value();
    seen["score threshold in pool"] +=
        op.scoreThreshold &&
        std::any_of(
            std::begin(kNmsScoreValues), std::end(kNmsScoreValues),
            [&](float v) { return bitsOf(v) == bitsOf(*op.scoreThreshold); });
    seen["score threshold infinite"] +=
        op.scoreThreshold && std::isinf(*op.scoreThreshold);
    seen["iou=0"] += op.iouThreshold == 0.0f;
    seen["iou=1"] += op.iouThreshold == 1.0f;
    seen["iou=0.5"] += op.iouThreshold == 0.5f;
    bool tableIou = isTableIou(op.iouThreshold);
    seen["iou exact, not 0.5/1"] +=
        tableIou && op.iouThreshold != 0.5f && op.iouThreshold != 1.0f;
    seen["iou other"] += !tableIou && op.iouThreshold != 0.0f;
    seen["boxes input"] += isInput(p, op.operands[0]);
    seen["boxes produced"] += !isInput(p, op.operands[0]);
    seen["scores input"] += isInput(p, op.operands[1]);
    const Op *scoreDef = definer(p, op.operands[1]);
    seen["sigmoid scores"] += scoreDef &&
                              scoreDef->kind == OpKind::Elementwise &&
                              scoreDef->ew == EwKind::Sigmoid;
    bool selected = isUsed(p, op.results[0]), count = isUsed(p, op.results[1]);
    seen["both used"] += selected && count;
    seen["selected only"] += selected && !count;
    seen["count only"] += !selected && count;
    for (const Op &other : p.ops)
      if (other.kind == OpKind::Slice && other.operands[0] == op.results[0])
        seen[other.offsets == std::vector<int64_t>{0, 0} &&
                     other.strides == std::vector<int64_t>{1, 1} &&
                     other.sizes[1] == 3
                 ? "first rows"
                 : "other slice"] += 1;
    // The element cap holds for the selected rows too.
    EXPECT_LE(p.values[static_cast<size_t>(op.results[0])].numElements(),
              policy.shapes.maxElements);
  }
  EXPECT_EQ(batches, (std::set<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(classes, (std::set<int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(boxTypes, (std::set<ElementType>{ElementType::F16, ElementType::BF16,
                                             ElementType::F32}));
  EXPECT_EQ(scoreTypes, (std::set<ElementType>{
                            ElementType::F16, ElementType::BF16,
                            ElementType::F32}));
  for (const char *name : {"n=0",
                           "n=1",
                           "n prime > 1000",
                           "n = 2^j +- 1 > 100",
                           "n >= 4000",
                           "max_out=0",
                           "max_out=1",
                           "max_out=n",
                           "0<max_out<n",
                           "max_out>n",
                           "max_out<0",
                           "center",
                           "corners",
                           "score threshold",
                           "no score threshold",
                           "score threshold in pool",
                           "score threshold infinite",
                           "iou=0",
                           "iou=1",
                           "iou=0.5",
                           "iou exact, not 0.5/1",
                           "iou other",
                           "boxes input",
                           "boxes produced",
                           "scores input",
                           "sigmoid scores",
                           "both used",
                           "selected only",
                           "count only",
                           "first rows",
                           "other slice"})
    // Aimed programs (NmsPolicy::aimWeights) take their own N: the main
    // draw's largest N reach fewer programs.
    EXPECT_GE(seen[name], std::string_view(name) == "n >= 4000" ? 3 : 10)
        << name;
}

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
  // a bf16 input may then hold 1 to 3 bf16 extremes in place of its values.
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
