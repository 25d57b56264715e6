//===- generators/NmsGenerator.h - Random programs around sift.nms --------===//
//
// A program whose main op is one `sift.nms` (ONNX NonMaxSuppression), shaped
// like the tail of a detection model: boxes [B, N, 4] and scores [B, C, N]
// (f16 or f32 each), usually straight from function inputs (which then get
// the adversarial box and score modes of InputGenerator.h), sometimes from
// exact elementwise producers, and sometimes a sigmoid on the scores (only
// where inexact keys are allowed). B in 1..4 and C in 1..8 favour 1; N in
// 0..4096 favours 0, 1, small sizes, primes and 2^j +- 1; max_out favours 0,
// 1, N and small values, and is sometimes above N or negative;
// iou_threshold favours 0, 1, 0.5 and values that are exactly the f32 IoU of
// two small-integer boxes (ExactIou.h); the score threshold is absent or
// favours values the score modes also write, so ties with it happen. After
// the op: selected and/or count are returned, the selected rows sometimes
// sliced (usually their first rows) and followed by elementwise consumers.
// Sometimes (NmsPolicy::prefilterChance, from a stream of its own) a
// detection model's pre-filter comes first: a top-k of a per-box objectness
// input [B, N] whose indices gather the boxes and scores of the K best boxes,
// the only place sift generates a gather.
// Every tensor keeps within ShapePolicy::maxElements.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"

#include <cstdint>
#include <optional>

namespace sift::gen {

/// A random program built around one sift.nms.
Program generateNmsProgram(const Policy &policy, Rng &rng);

/// The sizes of one sift.nms: boxes [batches, boxes, 4], scores [batches,
/// classes, boxes], selected [batches * classes * max(maxOutput, 0), 3].
struct NmsShape {
  int64_t batches = 1, classes = 1, boxes = 0, maxOutput = 0;
  /// Aimed at the GPU algorithms' edges (NmsPolicy::aimWeights).
  bool aimed = false;
};

/// Sizes drawn from `policy` (NmsPolicy's weights), every tensor within
/// `maxElements` elements; `aim`, when given, may aim N and max_out at the
/// GPU algorithms' edges (NmsPolicy::aimWeights) with draws of its own.
NmsShape generateNmsShape(const NmsPolicy &policy, int64_t maxElements,
                          Rng &rng, Rng *aim = nullptr);

/// An iou_threshold in [0, 1] drawn from NmsPolicy::iouThresholdWeights.
float generateIouThreshold(const NmsPolicy &policy, Rng &rng);

/// A score threshold (or none) drawn from NmsPolicy's chance and weights;
/// never NaN.
std::optional<float> generateScoreThreshold(const NmsPolicy &policy, Rng &rng);

} // namespace sift::gen
