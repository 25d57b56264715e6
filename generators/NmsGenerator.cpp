//===- generators/NmsGenerator.cpp - Random programs around sift.nms ------===//
//
// Sizes, attributes, the boxes and scores (inputs, producers, a sigmoid,
// sometimes a top-k pre-filter gathering them), then the op and the uses of
// its results.
//
//===----------------------------------------------------------------------===//
#include "generators/NmsGenerator.h"

#include "generators/ExactIou.h"
#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/ProgramBuilder.h"
#include "generators/ShapeGenerator.h"

#include <algorithm>
#include <limits>

namespace sift::gen {

namespace {

/// A size in 1..maxSize from the class weights (a drawn 0 becomes 1).
int64_t positiveSize(const std::array<unsigned, kNumDimSizeClasses> &weights,
                     int64_t maxSize, Rng &rng) {
  return std::max<int64_t>(
      1, generateDimSize(weights, std::max<int64_t>(1, maxSize), rng));
}

/// Halves C, else B; false when both are 1 already.
bool shrinkClassesOrBatches(NmsShape &s) {
  if (s.classes > 1)
    s.classes /= 2;
  else if (s.batches > 1)
    s.batches /= 2;
  else
    return false;
  return true;
}

int64_t generateMaxOutput(const NmsPolicy &policy, int64_t n, Rng &rng) {
  switch (rng.pickWeighted(policy.maxOutputWeights.data(),
                           policy.maxOutputWeights.size())) {
  case 0: return 0;
  case 1: return 1;
  case 2: return n;
  case 3: return n < 2 ? n : rng.uniform(2, std::min<int64_t>(8, n));
  case 4: return rng.uniform(0, n);
  case 5: return rng.chance(0.5) ? n + rng.uniform(1, 8) : 2 * n + 1;
  default: {
    constexpr int64_t kNegative[] = {-1, -7,
                                     std::numeric_limits<int64_t>::min()};
    return kNegative[rng.pickWeighted({3, 2, 1})];
  }
  }
}

/// f16, bf16 or f32 from `weights`; f32 when the weights allow none.
ElementType pickBoxType(ProgramBuilder &b, const ElementTypeWeights &weights) {
  ElementTypeWeights only{};
  bool any = false;
  for (ElementType t : {ElementType::F16, ElementType::BF16, ElementType::F32}) {
    only[static_cast<size_t>(t)] = weights[static_cast<size_t>(t)];
    any = any || only[static_cast<size_t>(t)] > 0;
  }
  if (!any)
    return ElementType::F32;
  return b.pickType(only);
}

/// The selected rows, perhaps sliced (usually to their first rows), then
/// perhaps consumed.
int useSelected(ProgramBuilder &b, const NmsPolicy &np, int selected,
                Rng &rng) {
  const int64_t rows =
      b.program().values[static_cast<size_t>(selected)].shape[0];
  int value = selected;
  if (rows > 0 && rng.chance(np.selectedSliceChance)) {
    if (rng.chance(0.75)) {
      // The first r < rows rows, all three columns (a cut, never the whole).
      int64_t r = rows == 1 || rng.chance(0.15) ? 0 : rng.uniform(1, rows - 1);
      value = b.addSlice(value, {0, 0}, {r, 3}, {1, 1});
    } else {
      value = b.randomSlice(value);
    }
  }
  return b.consume(value);
}

/// The stream of the top-k pre-filter, forked from the program's engine
/// before its first draw: whether a program gets one, and everything the
/// pre-filter draws, leave the program's own draws untouched.
constexpr uint64_t kPrefilterStream = 0x9E3779B97F4A7C15ull;
/// The stream of the aim at the GPU algorithms' edges
/// (NmsPolicy::aimWeights; it was the block-edge stream of before).
constexpr uint64_t kAimStream = 0xC2B2AE3D27D4EB4Full;

/// An aimed max_out for N candidates: N, N + 1..8, or in [N / 2, N]
/// (room for a kept box at every block's edge).
int64_t aimedMaxOutput(int64_t n, Rng &aim) {
  switch (aim.pickWeighted({2, 1, 2})) {
  case 0: return n;
  case 1: return n + aim.uniform(1, 8);
  default: return aim.uniform(std::max<int64_t>(1, n / 2), std::max<int64_t>(1, n));
  }
}

/// A detection model's pre-filter in front of the op: the largest k in
/// [1, N] of a per-box objectness input [B, N] (of the scores' type) give
/// indices [B, K]; they gather the boxes along axis 1 and the scores along
/// axis 2, and max_out is drawn again against K (within the element cap for
/// the selected rows). The gathers' indices come from a top-k over the very
/// dimension they gather, so they are in range by construction.
void addPrefilter(ProgramBuilder &b, const NmsPolicy &np, int64_t maxElements,
                  NmsShape &s, int &boxes, int &scores, Rng &rng, Rng &aim) {
  const ElementType objectnessType =
      b.program().values[static_cast<size_t>(scores)].elementType;
  int objectness = b.addInput(TensorType{objectnessType, {s.batches, s.boxes}});
  int64_t k = rng.uniform(1, s.boxes);
  if (s.aimed)
    k = s.boxes; // The aimed N reaches the op.
  auto [values, indices] = b.addTopK(objectness, 1, k, /*largest=*/true);
  b.keepUnused(values);
  boxes = b.addGather(boxes, indices, 1);
  scores = b.addGather(scores, indices, 2);
  s.maxOutput = generateMaxOutput(np, k, rng);
  if (s.aimed)
    s.maxOutput = aimedMaxOutput(k, aim);
  const int64_t classes = s.batches * s.classes;
  const int64_t cap = std::max<int64_t>(maxElements, 4);
  if (s.maxOutput > 0 && s.maxOutput > cap / 3 / classes)
    s.maxOutput = cap / 3 / classes;
  s.boxes = k;
}

} // namespace

NmsShape generateNmsShape(const NmsPolicy &policy, int64_t maxElements,
                          Rng &rng, Rng *aim) {
  const int64_t cap = std::max<int64_t>(maxElements, 4);
  NmsShape s;
  s.batches = positiveSize(policy.batchSizeWeights, policy.maxBatches, rng);
  s.classes = positiveSize(policy.classCountWeights, policy.maxClasses, rng);
  s.boxes = generateDimSize(policy.boxCountWeights,
                            std::max<int64_t>(0, policy.maxBoxes), rng);
  const int64_t maxBoxes = std::max<int64_t>(0, policy.maxBoxes);
  switch (aim ? aim->pickWeighted(policy.aimWeights.data(),
                                  policy.aimWeights.size())
              : 0) {
  case 1: // small
    s.aimed = true;
    s.boxes = std::min<int64_t>(maxBoxes, aim->uniform(16, 42));
    break;
  case 2: { // block edge
    constexpr int64_t kBlocks[] = {1, 2, 3, 17, 18};
    s.aimed = true;
    s.boxes = std::min<int64_t>(maxBoxes, 64 * kBlocks[aim->uniform(0, 4)] +
                                              aim->uniform(-1, 1));
    break;
  }
  default: break;
  }
  // boxes [B, N, 4] and scores [B, C, N] within the cap.
  auto inputsFit = [&] {
    return s.batches * s.boxes * 4 <= cap &&
           s.batches * s.classes * s.boxes <= cap;
  };
  while (!inputsFit())
    if (!shrinkClassesOrBatches(s))
      s.boxes = cap / 4;
  s.maxOutput = generateMaxOutput(policy, s.boxes, rng);
  if (s.aimed)
    s.maxOutput = aimedMaxOutput(s.boxes, *aim);
  // selected [B * C * max_out, 3] within the cap.
  auto rows = [&] {
    return s.batches * s.classes * std::max<int64_t>(s.maxOutput, 0);
  };
  while (rows() * 3 > cap)
    if (!shrinkClassesOrBatches(s))
      s.maxOutput = cap / 3;
  return s;
}

float generateIouThreshold(const NmsPolicy &policy, Rng &rng) {
  switch (rng.pickWeighted(policy.iouThresholdWeights.data(),
                           policy.iouThresholdWeights.size())) {
  case 0: return 0.0f;
  case 1: return 1.0f;
  case 2: return 0.5f;
  case 3: return iouOf(randomIntBoxPair(rng));
  default: return std::min(1.0f, static_cast<float>(rng.uniformDouble()));
  }
}

std::optional<float> generateScoreThreshold(const NmsPolicy &policy, Rng &rng) {
  if (!rng.chance(policy.scoreThresholdChance))
    return std::nullopt;
  switch (rng.pickWeighted(policy.scoreThresholdWeights.data(),
                           policy.scoreThresholdWeights.size())) {
  case 0: {
    constexpr size_t n = sizeof(kNmsScoreValues) / sizeof(kNmsScoreValues[0]);
    return kNmsScoreValues[static_cast<size_t>(
        rng.uniform(0, static_cast<int64_t>(n) - 1))];
  }
  case 1: {
    double v = rng.uniformDouble() * 2.0 - 1.0;
    if (rng.chance(0.5))
      v = halfToDouble(doubleToHalf(v));
    return static_cast<float>(v);
  }
  default: {
    constexpr float inf = std::numeric_limits<float>::infinity();
    constexpr float max = std::numeric_limits<float>::max();
    constexpr float tiny = std::numeric_limits<float>::denorm_min();
    constexpr float kExtremes[] = {inf, -inf, max, -max, tiny, -tiny};
    return kExtremes[static_cast<size_t>(rng.uniform(0, 5))];
  }
  }
}

Program generateNmsProgram(const Policy &policy, Rng &rng) {
  Rng prefilterRng = rng.fork(kPrefilterStream);
  Rng aim = rng.fork(kAimStream);
  ProgramBuilder b(policy, rng);
  const NmsPolicy &np = policy.nms;

  const int64_t maxElements =
      std::min(policy.shapes.maxElements, np.maxElements);
  NmsShape s = generateNmsShape(np, maxElements, rng, &aim);
  ElementType boxType = pickBoxType(b, np.boxTypeWeights);
  ElementType scoreType = pickBoxType(b, np.scoreTypeWeights);
  float iou = generateIouThreshold(np, rng);
  // An aimed threshold of 1 would suppress nothing: an exact pair's IoU.
  for (int tries = 0; s.aimed && iou >= 1.0f && tries < 8; ++tries)
    iou = iouOf(randomIntBoxPair(aim));
  if (s.aimed && iou >= 1.0f)
    iou = 0.5f;
  std::optional<float> scoreThreshold = generateScoreThreshold(np, rng);
  bool center = rng.chance(np.centerPointBoxChance);

  // Boxes never pass an inexact op: they decide suppression bit for bit.
  TensorType boxesType{boxType, {s.batches, s.boxes, 4}};
  int boxes = rng.chance(np.boxProducerChance)
                  ? b.produce(boxesType, {}, /*exactOnly=*/true)
                  : b.addInput(boxesType);
  TensorType scoresType{scoreType, {s.batches, s.classes, s.boxes}};
  int scores = rng.chance(np.scoreProducerChance)
                   ? b.produce(scoresType, {boxes},
                               /*exactOnly=*/!policy.allowInexactKeys)
                   : b.addInput(scoresType);
  if (policy.allowInexactKeys && rng.chance(np.sigmoidChance))
    scores = b.addElementwise(EwKind::Sigmoid, {scores}, scoreType);
  if (s.boxes >= 1 && prefilterRng.chance(np.prefilterChance))
    addPrefilter(b, np, maxElements, s, boxes, scores, prefilterRng, aim);

  auto [selected, count] =
      b.addNms(boxes, scores, s.maxOutput, iou, scoreThreshold, center);

  switch (rng.pickWeighted(np.useWeights.data(), np.useWeights.size())) {
  case 0: // both
    b.addOutput(useSelected(b, np, selected, rng));
    b.addOutput(b.consume(count));
    break;
  case 1: // selected only
    b.keepUnused(count);
    b.addOutput(useSelected(b, np, selected, rng));
    break;
  default: // count only
    b.keepUnused(selected);
    b.addOutput(b.consume(count));
    break;
  }
  b.maybeAddExtraOutput();
  return b.take();
}

} // namespace sift::gen
