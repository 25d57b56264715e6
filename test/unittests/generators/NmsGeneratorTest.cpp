//===- test/unittests/generators/NmsGeneratorTest.cpp - The nms family ----===//
//
// Programs of the nms family over thousands of seeds: valid, identical for a
// seed (program and input bytes), and covering the ranges NmsGenerator.h
// promises (B, C, N with 0 and 1, max_out 0 / N / above N / negative, both
// box formats and element types, score threshold present and absent, exact
// IoU thresholds). The top-k pre-filter: frequent enough, its gathers fed
// by a top-k over the gathered dimension, and programs without it unchanged
// by its presence in the generator. Their inputs: NmsInputsTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "test/unittests/generators/NmsTestSupport.h"

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
using namespace sift::gen::test;

namespace {

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
