//===- oracles/ReferenceNms.cpp - The reference of sift.nms ---------------===//
//
// Checks the two input tensors, widens boxes and scores to f32, then runs the
// greedy selection per (batch, class): candidates above the score threshold,
// a stable sort by descending score in the float total order, and a scan that
// keeps a candidate unless an already kept box overlaps it by more than the
// IoU threshold. All IoU arithmetic is on `float` variables, one rounding per
// operation, in the order the header spells out.
//
//===----------------------------------------------------------------------===//
#include "oracles/ReferenceNms.h"

#include "oracles/FloatBits.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

// The reference's f32 values must be rounded to f32 after every operation,
// as on a GPU; a host that evaluates float expressions in a wider format
// (x87) would decide IoU-at-threshold cases differently.
static_assert(FLT_EVAL_METHOD == 0,
              "the NMS reference needs float arithmetic evaluated in float");

namespace sift::oracle {

namespace {

/// The most output rows, as `gen::validate` allows.
constexpr int64_t kMaxRows = int64_t(1) << 40;

/// IEEE 754-2019 `minimum`: NaN if either is NaN, -0.0 below +0.0.
float minimumF32(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// IEEE 754-2019 `maximum`: NaN if either is NaN, +0.0 above -0.0.
float maximumF32(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// Element `index` of an f16, bf16 or f32 tensor as f32 (widened exactly).
float loadF32(const HostTensor &tensor, int64_t index) {
  size_t width = byteWidth(tensor.type);
  uint64_t bits = loadBits(tensor.type, tensor.data.data() + index * width);
  if (tensor.type == ElementType::F16)
    return halfToFloat(static_cast<uint16_t>(bits));
  if (tensor.type == ElementType::BF16)
    return bfloat16ToFloat(static_cast<uint16_t>(bits));
  return bitCast<float>(static_cast<uint32_t>(bits));
}

/// "" when `tensor` is an f16, bf16 or f32 tensor of rank 3 whose bytes fit its
/// shape, else what is wrong; `name` says which operand.
std::string checkOperand(const HostTensor &tensor, const std::string &name) {
  if (tensor.type != ElementType::F16 && tensor.type != ElementType::BF16 &&
      tensor.type != ElementType::F32)
    return name + " must be f16, bf16 or f32, found " + describe(tensor);
  if (tensor.rank() != 3)
    return name + " must have rank 3, found " + describe(tensor);
  for (int64_t size : tensor.shape)
    if (size < 0)
      return name + " " + describe(tensor) + " has a negative size";
  // A dimension of 0 makes the tensor empty, whatever the others; otherwise
  // a product that overflows cannot be backed by bytes.
  int64_t elements = 0;
  if (std::find(tensor.shape.begin(), tensor.shape.end(), 0) ==
      tensor.shape.end()) {
    elements = 1;
    for (int64_t size : tensor.shape) {
      if (elements > std::numeric_limits<int64_t>::max() / size)
        return name + " " + describe(tensor) + " has too many elements";
      elements *= size;
    }
  }
  size_t width = byteWidth(tensor.type);
  if (static_cast<uint64_t>(elements) > SIZE_MAX / width ||
      tensor.data.size() != static_cast<size_t>(elements) * width)
    return name + " " + describe(tensor) + " needs " +
           std::to_string(elements) + " elements of " + std::to_string(width) +
           " bytes, the tensor holds " + std::to_string(tensor.data.size()) +
           " bytes";
  return "";
}

} // namespace

namespace {
/// Whether the IoU steps flush denormal results to zero (NmsFlushScope).
thread_local bool flushSteps = false;

/// One f32 step's result as a system with flush-to-zero keeps it.
float step(float value) {
  return flushSteps && value != 0.0f && std::fabs(value) < FLT_MIN
             ? std::copysign(0.0f, value)
             : value;
}
} // namespace

NmsFlushScope::NmsFlushScope(bool flush) : previous_(flushSteps) {
  flushSteps = flush;
}

NmsFlushScope::~NmsFlushScope() { flushSteps = previous_; }

NmsBox nmsCorners(const float coords[4], bool centerPointBox) {
  NmsBox box;
  if (centerPointBox) {
    float xCenter = coords[0], yCenter = coords[1];
    float halfWidth = step(coords[2] / 2.0f),
          halfHeight = step(coords[3] / 2.0f);
    box.xmin = step(xCenter - halfWidth);
    box.xmax = step(xCenter + halfWidth);
    box.ymin = step(yCenter - halfHeight);
    box.ymax = step(yCenter + halfHeight);
    return box;
  }
  box.ymin = minimumF32(coords[0], coords[2]);
  box.ymax = maximumF32(coords[0], coords[2]);
  box.xmin = minimumF32(coords[1], coords[3]);
  box.xmax = maximumF32(coords[1], coords[3]);
  return box;
}

float nmsArea(const NmsBox &box) {
  float height = step(box.ymax - box.ymin);
  float width = step(box.xmax - box.xmin);
  return step(height * width);
}

float nmsIoU(const NmsBox &a, const NmsBox &b) {
  float areaA = nmsArea(a), areaB = nmsArea(b);
  float top = maximumF32(a.ymin, b.ymin);
  float bottom = minimumF32(a.ymax, b.ymax);
  float left = maximumF32(a.xmin, b.xmin);
  float right = minimumF32(a.xmax, b.xmax);
  float height = maximumF32(0.0f, step(bottom - top));
  float width = maximumF32(0.0f, step(right - left));
  float intersection = step(height * width);
  float sum = step(areaA + areaB);
  float unionArea = step(sum - intersection);
  if (intersection <= 0.0f || areaA <= 0.0f || areaB <= 0.0f ||
      unionArea <= 0.0f)
    return 0.0f;
  float iou = step(intersection / unionArea);
  return iou;
}

namespace {

/// What is wrong with an NMS's operands and thresholds ("" when nothing).
std::string checkNmsOperands(const gen::Op &op, const HostTensor &boxes,
                             const HostTensor &scores) {
  if (std::string e = checkOperand(boxes, "boxes"); !e.empty())
    return e;
  if (std::string e = checkOperand(scores, "scores"); !e.empty())
    return e;
  if (boxes.shape[2] != 4)
    return "boxes must be [B, N, 4], found " + describe(boxes);
  int64_t batches = boxes.shape[0], boxCount = boxes.shape[1];
  if (scores.shape[0] != batches || scores.shape[2] != boxCount)
    return "scores must be [B, C, N] = [" + std::to_string(batches) + ", C, " +
           std::to_string(boxCount) + "], found " + describe(scores);
  if (!(op.iouThreshold >= 0.0f && op.iouThreshold <= 1.0f))
    return "iou threshold " + std::to_string(op.iouThreshold) +
           " is outside [0, 1]";
  if (op.scoreThreshold && std::isnan(*op.scoreThreshold))
    return "the score threshold is NaN";
  return "";
}

} // namespace

Result<NmsResults> referenceNms(const gen::Op &op, const HostTensor &boxes,
                                const HostTensor &scores) {
  if (std::string e = checkNmsOperands(op, boxes, scores); !e.empty())
    return makeError(e);
  int64_t batches = boxes.shape[0], boxCount = boxes.shape[1];
  int64_t classCount = scores.shape[1];
  int64_t perClass = std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
  int64_t rows = 0;
  if (perClass > 0 && batches > 0 && classCount > 0) {
    if (batches > kMaxRows / classCount ||
        batches * classCount > kMaxRows / perClass)
      return makeError(
          "max_output_boxes_per_class " + std::to_string(perClass) + " over " +
          std::to_string(batches) + " x " + std::to_string(classCount) +
          " classes makes more than 2^40 rows");
    rows = batches * classCount * perClass;
  }

  NmsResults results{HostTensor(ElementType::I64, {rows, 3}),
                     HostTensor(ElementType::I64, {1})};
  for (int64_t i = 0; i < rows * 3; ++i)
    results.selected.set<int64_t>(i, -1);
  int64_t written = 0;
  // Without rows or boxes nothing is selected; skipping also keeps the loops
  // bounded by the tensors' bytes.
  if (rows > 0 && boxCount > 0) {
    std::vector<NmsBox> corners(boxCount);
    std::vector<float> score(boxCount);
    std::vector<int64_t> candidates, kept;
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t n = 0; n < boxCount; ++n) {
        float coords[4];
        for (int64_t k = 0; k < 4; ++k)
          coords[k] = loadF32(boxes, (b * boxCount + n) * 4 + k);
        corners[n] = nmsCorners(coords, op.centerPointBox);
      }
      for (int64_t c = 0; c < classCount; ++c) {
        candidates.clear();
        for (int64_t n = 0; n < boxCount; ++n) {
          score[n] = loadF32(scores, (b * classCount + c) * boxCount + n);
          if (!op.scoreThreshold || score[n] > *op.scoreThreshold)
            candidates.push_back(n);
        }
        // Descending in the total order (NaN first, -0.0 == +0.0); the
        // stable sort keeps equal scores in box order.
        std::stable_sort(candidates.begin(), candidates.end(),
                         [&](int64_t x, int64_t y) {
                           return totalLess(score[y], score[x]);
                         });
        kept.clear();
        for (int64_t n : candidates) {
          if (static_cast<int64_t>(kept.size()) >= perClass)
            break;
          bool suppressed =
              std::any_of(kept.begin(), kept.end(), [&](int64_t m) {
                return nmsIoU(corners[m], corners[n]) > op.iouThreshold;
              });
          if (!suppressed)
            kept.push_back(n);
        }
        for (int64_t n : kept) {
          results.selected.set<int64_t>(written * 3 + 0, b);
          results.selected.set<int64_t>(written * 3 + 1, c);
          results.selected.set<int64_t>(written * 3 + 2, n);
          ++written;
        }
      }
    }
  }
  results.count.set<int64_t>(0, written);
  return results;
}

} // namespace sift::oracle
