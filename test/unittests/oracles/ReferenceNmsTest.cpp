//===- test/unittests/oracles/ReferenceNmsTest.cpp - sift.nms reference ---===//
//
// Hand-made cases for every rule of sift.nms (SEMANTICS.md): strict IoU and
// score thresholds, IoU computed in f32 in the documented order (thresholds
// found off-line where f32, double or another operation order disagree), ties
// to the lower box index, NaN and signed-zero scores, degenerate, flipped and
// negative-size boxes, both box formats, max_output_boxes_per_class 0,
// negative and smaller than the candidates, no boxes, batches and classes
// compacted, f16 inputs, and invalid models reported as errors.
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

#include "oracles/Compare.h"
#include "oracles/Reference.h"
#include "oracles/ReferenceNms.h"

#include <cfloat>
#include <cmath>
#include <optional>

namespace sift::oracle {
namespace {

using namespace test;
using gen::OpKind;
using gen::TensorType;

using Row = std::vector<int64_t>; ///< (batch, class, box)

/// The attributes of one sift.nms op.
struct NmsAttrs {
  NmsAttrs(int64_t maxOut = 10, float iou = 0.5f,
           std::optional<float> scoreThreshold = std::nullopt,
           bool center = false)
      : maxOut(maxOut), iou(iou), scoreThreshold(scoreThreshold),
        center(center) {}
  int64_t maxOut;
  float iou;
  std::optional<float> scoreThreshold;
  bool center;
};

gen::Op nmsOp(const NmsAttrs &attrs) {
  gen::Op op;
  op.kind = OpKind::Nms;
  op.maxOutputBoxesPerClass = attrs.maxOut;
  op.iouThreshold = attrs.iou;
  op.scoreThreshold = attrs.scoreThreshold;
  op.centerPointBox = attrs.center;
  return op;
}

/// The result types the model gives sift.nms on these inputs.
std::vector<TensorType> nmsResultTypes(const HostTensor &boxes,
                                       const HostTensor &scores,
                                       int64_t maxOut) {
  int64_t rows =
      boxes.shape.at(0) * scores.shape.at(1) * std::max<int64_t>(maxOut, 0);
  return {TensorType{ElementType::I64, {rows, 3}},
          TensorType{ElementType::I64, {1}}};
}

/// Evaluates a one-op program `nms(boxes, scores)` through `evaluate`.
Result<std::vector<HostTensor>> runNms(const HostTensor &boxes,
                                       const HostTensor &scores,
                                       const NmsAttrs &attrs) {
  ProgramUnderTest p;
  gen::Op op = nmsOp(attrs);
  op.operands = {p.input(boxes), p.input(scores)};
  p.program.outputs = p.add(op, nmsResultTypes(boxes, scores, attrs.maxOut));
  EXPECT_EQ(gen::validate(p.program), "");
  return p.run();
}

/// Checks `selected` against `rows` then -1 padding up to `capacity` rows,
/// and `count` against the number of rows.
void expectRows(const Result<std::vector<HostTensor>> &result,
                const std::vector<Row> &rows, int64_t capacity) {
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->size(), 2u);
  const HostTensor &selected = (*result)[0], &count = (*result)[1];
  EXPECT_EQ(selected.type, ElementType::I64);
  EXPECT_EQ(selected.shape, (std::vector<int64_t>{capacity, 3}));
  EXPECT_EQ(count.type, ElementType::I64);
  EXPECT_EQ(count.shape, (std::vector<int64_t>{1}));
  std::vector<int64_t> expected;
  for (const Row &row : rows)
    expected.insert(expected.end(), row.begin(), row.end());
  expected.resize(static_cast<size_t>(capacity) * 3, -1);
  EXPECT_EQ(intsOf(selected), expected);
  EXPECT_EQ(intsOf(count), (std::vector<int64_t>{int64_t(rows.size())}));
}

/// Expects the rows (0, 0, n) for each n of `kept`, in order, from boxes
/// [1, N, 4] and scores [1, 1, N].
void expectSingleClass(const HostTensor &boxes, const HostTensor &scores,
                       const NmsAttrs &attrs,
                       const std::vector<int64_t> &kept) {
  std::vector<Row> rows;
  for (int64_t n : kept)
    rows.push_back({0, 0, n});
  expectRows(runNms(boxes, scores, attrs), rows,
             std::max<int64_t>(attrs.maxOut, 0));
}

float floatFromBits(uint32_t bits) { return bitCast<float>(bits); }

NmsBox corners(std::vector<float> coords, bool center = false) {
  return nmsCorners(coords.data(), center);
}

//===----------------------------------------------------------------------===//
// IoU threshold and the f32 formulas
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, IoUEqualToThresholdDoesNotSuppress) {
  // Intersection 2, areas 3 and 3, union 4: IoU exactly 0.5.
  HostTensor boxes = f32({1, 2, 4}, {0, 0, 1, 3, 0, 1, 1, 4});
  HostTensor scores = f32({1, 1, 2}, {0.9f, 0.8f});
  EXPECT_EQ(nmsIoU(corners({0, 0, 1, 3}), corners({0, 1, 1, 4})), 0.5f);
  expectSingleClass(boxes, scores, {10, 0.5f}, {0, 1});
  // Just below the IoU: strictly greater, suppressed.
  expectSingleClass(boxes, scores, {10, std::nextafter(0.5f, 0.0f)}, {0});
}

TEST(ReferenceNmsTest, FlushingEvaluationGivesDenormalAreasNone) {
  // Two boxes with the smallest normal height and widths 0.55 and 0.35:
  // their areas (about 6.5e-39 and 4.1e-39) and intersection are f32
  // denormals. Exactly, IoU 0.35 / 0.55 > 0.3 suppresses the second; under
  // flush-to-zero (XLA's CPU code, found by an XLA campaign) each area is
  // 0, so the boxes overlap nothing and both are kept.
  const float tiny = FLT_MIN;
  HostTensor boxes =
      f32({1, 2, 4}, {0, 0.2f, tiny, 0.75f, 0, 0.2f, tiny, 0.55f});
  HostTensor scores = f32({1, 1, 2}, {0.9f, 0.8f});
  NmsBox a = corners({0, 0.2f, tiny, 0.75f}), b = corners({0, 0.2f, tiny, 0.55f});
  EXPECT_GT(nmsIoU(a, b), 0.3f);
  expectSingleClass(boxes, scores, {10, 0.3f}, {0});
  {
    NmsFlushScope flush(true);
    EXPECT_EQ(nmsArea(a), 0.0f);
    EXPECT_EQ(nmsIoU(a, b), 0.0f);
  }
  EXPECT_GT(nmsIoU(a, b), 0.3f) << "the scope ends with its block";
  // Through the flushing evaluation: the boxes are normal, so reading
  // them as zero changes nothing; the steps inside the NMS do.
  ProgramUnderTest p;
  gen::Op op = nmsOp({10, 0.3f});
  op.operands = {p.input(boxes), p.input(scores)};
  p.program.outputs = p.add(op, nmsResultTypes(boxes, scores, 10));
  auto flushed = evaluateFlushingDenormals(p.program, {boxes, scores});
  std::vector<Row> both = {{0, 0, 0}, {0, 0, 1}};
  expectRows(flushed, both, 10);
}

TEST(ReferenceNmsTest, IoUIsComputedInF32) {
  // Exact (and double) IoU 0.224137893944; f32 in the documented order
  // rounds it down to 0x3e658467 (0.224137887359). At that threshold f32
  // keeps both boxes, where a double or exact evaluation would suppress.
  HostTensor boxes =
      f32({1, 2, 4}, {1.2f, 2.4f, 3.3f, 2.7f, 2.0f, 2.4f, 3.5f, 3.4f});
  HostTensor scores = f32({1, 1, 2}, {0.9f, 0.8f});
  float iou = floatFromBits(0x3e658467u);
  EXPECT_EQ(nmsIoU(corners({1.2f, 2.4f, 3.3f, 2.7f}),
                   corners({2.0f, 2.4f, 3.5f, 3.4f})),
            iou);
  expectSingleClass(boxes, scores, {10, iou}, {0, 1});
  expectSingleClass(boxes, scores, {10, floatFromBits(0x3e658466u)}, {0});
}

TEST(ReferenceNmsTest, UnionIsSumOfAreasMinusIntersection) {
  // (areaA + areaB) - inter gives 0x3e1ee58c; areaA + (areaB - inter) would
  // give 0x3e1ee58b. The documented order suppresses at the latter and keeps
  // at the former.
  HostTensor boxes =
      f32({1, 2, 4}, {0.7f, 2.6f, 2.0f, 2.9f, 1.1f, 2.4f, 2.9f, 3.3f});
  HostTensor scores = f32({1, 1, 2}, {0.9f, 0.8f});
  EXPECT_EQ(nmsIoU(corners({0.7f, 2.6f, 2.0f, 2.9f}),
                   corners({1.1f, 2.4f, 2.9f, 3.3f})),
            floatFromBits(0x3e1ee58cu));
  expectSingleClass(boxes, scores, {10, floatFromBits(0x3e1ee58cu)}, {0, 1});
  expectSingleClass(boxes, scores, {10, floatFromBits(0x3e1ee58bu)}, {0});
}

TEST(ReferenceNmsTest, IoUIsSymmetric) {
  NmsBox a = corners({0.7f, 2.6f, 2.0f, 2.9f});
  NmsBox b = corners({1.1f, 2.4f, 2.9f, 3.3f});
  EXPECT_EQ(bitCast<uint32_t>(nmsIoU(a, b)), bitCast<uint32_t>(nmsIoU(b, a)));
  EXPECT_EQ(nmsIoU(a, a), 1.0f);
}

//===----------------------------------------------------------------------===//
// Box formats
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, CornerFormatIsYXYX) {
  NmsBox box = corners({1, 2, 3, 5});
  EXPECT_EQ(box.ymin, 1.0f);
  EXPECT_EQ(box.xmin, 2.0f);
  EXPECT_EQ(box.ymax, 3.0f);
  EXPECT_EQ(box.xmax, 5.0f);
  EXPECT_EQ(nmsArea(box), 6.0f);
}

TEST(ReferenceNmsTest, FlippedCornersAreNormalized) {
  for (std::vector<float> coords :
       {std::vector<float>{2, 0, 0, 2}, std::vector<float>{0, 2, 2, 0},
        std::vector<float>{2, 2, 0, 0}}) {
    NmsBox box = corners(coords);
    EXPECT_EQ(box.ymin, 0.0f);
    EXPECT_EQ(box.xmin, 0.0f);
    EXPECT_EQ(box.ymax, 2.0f);
    EXPECT_EQ(box.xmax, 2.0f);
  }
  // Four spellings of one box: the best (a flipped one) suppresses the rest.
  HostTensor boxes = f32({1, 4, 4}, {0, 0, 2, 2, 2, 2, 0, 0, //
                                     0, 2, 2, 0, 2, 0, 0, 2});
  HostTensor scores = f32({1, 1, 4}, {0.5f, 0.9f, 0.7f, 0.6f});
  expectSingleClass(boxes, scores, {}, {1});
  // A flipped box overlapping half: IoU 1/3 as for the normalized one.
  HostTensor half = f32({1, 2, 4}, {0, 0, 2, 2, 2, 3, 0, 1});
  HostTensor two = f32({1, 1, 2}, {0.9f, 0.8f});
  expectSingleClass(half, two, {10, 0.3f}, {0});
  expectSingleClass(half, two, {10, 0.34f}, {0, 1});
}

TEST(ReferenceNmsTest, CenterFormatIsXYWH) {
  // Center (x 2, y 1), width 4, height 2: x in [0, 4], y in [0, 2].
  NmsBox box = corners({2, 1, 4, 2}, /*center=*/true);
  EXPECT_EQ(box.ymin, 0.0f);
  EXPECT_EQ(box.xmin, 0.0f);
  EXPECT_EQ(box.ymax, 2.0f);
  EXPECT_EQ(box.xmax, 4.0f);
  // Box 1 is box 0 moved right by 2: intersection 4, union 12, IoU 1/3.
  HostTensor boxes = f32({1, 3, 4}, {2, 1, 4, 2, 4, 1, 4, 2, //
                                     2, 3, 4, 2});
  HostTensor scores = f32({1, 1, 3}, {0.9f, 0.8f, 0.7f});
  NmsAttrs attrs{10, 0.3f, std::nullopt, true};
  // Box 2 (moved down by 2) only touches box 0: intersection 0.
  expectSingleClass(boxes, scores, attrs, {0, 2});
  attrs.iou = 0.34f;
  expectSingleClass(boxes, scores, attrs, {0, 1, 2});
  // Read as corners they are other boxes: box 1 has zero height and box 2
  // only touches box 0.
  attrs.center = false;
  attrs.iou = 0.3f;
  expectSingleClass(boxes, scores, attrs, {0, 1, 2});
}

TEST(ReferenceNmsTest, CenterFormatHalvesAndAreasInF32) {
  // Corners at xc -/+ w / 2 in f32, areas from those corners: IoU
  // 0x3dc9249a. Areas taken as w * h would give 0x3dc9249c, and
  // xmax = xmin + w would give 0x3dc9249b: both would suppress here.
  HostTensor boxes =
      f32({1, 2, 4}, {1.7f, 2.6f, 2.2f, 2.3f, 2.9f, 3.0f, 0.8f, 2.9f});
  HostTensor scores = f32({1, 1, 2}, {0.9f, 0.8f});
  NmsBox a = corners({1.7f, 2.6f, 2.2f, 2.3f}, true);
  EXPECT_EQ(a.xmin, 1.7f - 2.2f / 2);
  EXPECT_EQ(a.xmax, 1.7f + 2.2f / 2);
  EXPECT_EQ(a.ymin, 2.6f - 2.3f / 2);
  EXPECT_EQ(a.ymax, 2.6f + 2.3f / 2);
  NmsAttrs attrs{10, floatFromBits(0x3dc9249au), std::nullopt, true};
  expectSingleClass(boxes, scores, attrs, {0, 1});
  attrs.iou = floatFromBits(0x3dc92499u);
  expectSingleClass(boxes, scores, attrs, {0});
}

//===----------------------------------------------------------------------===//
// Degenerate boxes
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, ZeroAreaBoxesNeverSuppressNorAreSuppressed) {
  // With iou_threshold 0 any positive IoU suppresses.
  HostTensor boxes = f32({1, 6, 4}, {
                                        0, 0, 0, 2, // 0: zero height
                                        0, 0, 0, 2, // 1: the same line
                                        1, 1, 1, 1, // 2: a point
                                        0, 1, 2, 1, // 3: zero width
                                        0, 0, 2, 2, // 4: contains 2 and 3
                                        0, 0, 2, 2, // 5: the same as 4
                                    });
  HostTensor scores = f32({1, 1, 6}, {0.9f, 0.8f, 0.7f, 0.95f, 0.6f, 0.5f});
  EXPECT_EQ(nmsIoU(corners({0, 0, 0, 2}), corners({0, 0, 0, 2})), 0.0f);
  EXPECT_EQ(nmsIoU(corners({0, 1, 2, 1}), corners({0, 0, 2, 2})), 0.0f);
  expectSingleClass(boxes, scores, {10, 0.0f}, {3, 0, 1, 2, 4});
}

TEST(ReferenceNmsTest, NegativeSizeCenterBoxesNeverSuppressNorAreSuppressed) {
  HostTensor boxes = f32({1, 5, 4}, {
                                        1, 1, 2,  2,  // 0: [0, 2] x [0, 2]
                                        1, 1, -2, 2,  // 1: negative width
                                        1, 1, 2,  -2, // 2: negative height
                                        1, 1, -2, -2, // 3: both negative
                                        1, 1, -2, -2, // 4: the same as 3
                                    });
  HostTensor scores = f32({1, 1, 5}, {0.5f, 0.9f, 0.8f, 0.7f, 0.6f});
  // Both sizes negative: a positive area, but an empty intersection with
  // every box, itself included.
  NmsBox both = corners({1, 1, -2, -2}, true);
  EXPECT_EQ(nmsArea(both), 4.0f);
  EXPECT_EQ(nmsIoU(both, both), 0.0f);
  EXPECT_EQ(nmsArea(corners({1, 1, -2, 2}, true)), -4.0f);
  expectSingleClass(boxes, scores, {10, 0.0f, std::nullopt, true},
                    {1, 2, 3, 4, 0});
}

TEST(ReferenceNmsTest, NaNCoordinatesNeverSuppressNorAreSuppressed) {
  HostTensor boxes = f32({1, 3, 4}, {0, 0, 2, kNaNf, //
                                     0, 0, 2, 2,     //
                                     kNaNf, 0, 2, 2});
  HostTensor scores = f32({1, 1, 3}, {0.9f, 0.8f, 0.7f});
  EXPECT_TRUE(
      std::isnan(nmsIoU(corners({0, 0, 2, kNaNf}), corners({0, 0, 2, 2}))));
  expectSingleClass(boxes, scores, {10, 0.0f}, {0, 1, 2});
}

//===----------------------------------------------------------------------===//
// Scores: threshold, visiting order, ties, NaN, signed zeros
//===----------------------------------------------------------------------===//

/// `n` disjoint unit boxes [y, 0, y + 1, 1] with y = 2 * index.
HostTensor disjointBoxes(int64_t n) {
  std::vector<float> coords;
  for (int64_t i = 0; i < n; ++i)
    coords.insert(coords.end(), {2.0f * i, 0, 2.0f * i + 1, 1});
  return f32({1, n, 4}, coords);
}

TEST(ReferenceNmsTest, ScoreThresholdIsStrict) {
  HostTensor scores = f32({1, 1, 4}, {0.5f, 0.25f, 0.75f, -1.0f});
  expectSingleClass(disjointBoxes(4), scores, {10, 0.5f, 0.5f}, {2});
  expectSingleClass(disjointBoxes(4), scores,
                    {10, 0.5f, std::nextafter(0.5f, 0.0f)}, {2, 0});
  // No threshold: every box, in score order.
  expectSingleClass(disjointBoxes(4), scores, {}, {2, 0, 1, 3});
  // A threshold above every score.
  expectSingleClass(disjointBoxes(4), scores, {10, 0.5f, 0.75f}, {});
}

TEST(ReferenceNmsTest, EqualScoresVisitLowerIndexFirst) {
  HostTensor scores = f32({1, 1, 4}, {0.5f, 0.9f, 0.5f, 0.9f});
  expectSingleClass(disjointBoxes(4), scores, {}, {1, 3, 0, 2});
  // Identical boxes with equal scores: the lower index wins.
  HostTensor same = f32({1, 3, 4}, {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1});
  expectSingleClass(same, f32({1, 1, 3}, {0.3f, 0.7f, 0.7f}), {}, {1});
}

TEST(ReferenceNmsTest, NaNScoresComeFirst) {
  HostTensor scores = fromBits(ElementType::F32, {1, 1, 5},
                               {f32Bits(1.0f), 0x7fc00001u, f32Bits(kInff),
                                0xffc00000u, f32Bits(-kInff)});
  // NaNs (either sign) first, in index order, then +inf.
  expectSingleClass(disjointBoxes(5), scores, {}, {1, 3, 2, 0, 4});
  // NaN is never > a threshold, not even -inf.
  expectSingleClass(disjointBoxes(5), scores, {10, 0.5f, 0.0f}, {2, 0});
  expectSingleClass(disjointBoxes(5), scores, {10, 0.5f, -kInff}, {2, 0});
  // A NaN-scored box is visited first, so it suppresses its twin.
  HostTensor twins = f32({1, 2, 4}, {0, 0, 1, 1, 0, 0, 1, 1});
  expectSingleClass(twins, f32({1, 1, 2}, {5.0f, kNaNf}), {}, {1});
}

TEST(ReferenceNmsTest, SignedZeroScoresTie) {
  HostTensor scores = f32({1, 1, 4}, {-0.0f, 0.0f, -0.0f, -1.0f});
  expectSingleClass(disjointBoxes(4), scores, {}, {0, 1, 2, 3});
  HostTensor flipped = f32({1, 1, 3}, {0.0f, -0.0f, 0.0f});
  expectSingleClass(disjointBoxes(3), flipped, {}, {0, 1, 2});
  // Neither zero is > 0 or > -0.
  expectSingleClass(disjointBoxes(4), scores, {10, 0.5f, 0.0f}, {});
  expectSingleClass(disjointBoxes(4), scores, {10, 0.5f, -0.0f}, {});
  expectSingleClass(disjointBoxes(4), scores, {10, 0.5f, -0.5f}, {0, 1, 2});
}

//===----------------------------------------------------------------------===//
// max_output_boxes_per_class, empty inputs, batches and classes
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, MaxOutZeroOrNegativeSelectsNothing) {
  HostTensor boxes = f32({2, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3, //
                                     0, 0, 1, 1, 2, 2, 3, 3});
  HostTensor scores = f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  for (int64_t maxOut : {int64_t(0), int64_t(-1), INT64_MIN}) {
    auto result = runNms(boxes, scores, {maxOut});
    expectRows(result, {}, 0);
    ASSERT_TRUE(result.ok());
    EXPECT_TRUE((*result)[0].data.empty());
  }
}

TEST(ReferenceNmsTest, MaxOutStopsSelection) {
  HostTensor scores = f32({1, 1, 5}, {0.1f, 0.5f, 0.3f, 0.4f, 0.2f});
  expectSingleClass(disjointBoxes(5), scores, {2}, {1, 3});
  expectSingleClass(disjointBoxes(5), scores, {1}, {1});
  // Suppressed boxes do not count: box 1 suppresses box 3 (its twin).
  HostTensor boxes = f32({1, 4, 4}, {0, 0, 1, 1, 2, 0, 3, 1, //
                                     4, 0, 5, 1, 2, 0, 3, 1});
  HostTensor four = f32({1, 1, 4}, {0.1f, 0.9f, 0.3f, 0.8f});
  expectSingleClass(boxes, four, {2}, {1, 2});
  // More room than candidates: the rest is padding.
  expectSingleClass(boxes, four, {7}, {1, 2, 0});
}

TEST(ReferenceNmsTest, NoBoxes) {
  HostTensor boxes = f32({2, 0, 4}, {});
  HostTensor scores = f32({2, 3, 0}, {});
  expectRows(runNms(boxes, scores, {2}), {}, 12);
  expectRows(runNms(f32({0, 0, 4}, {}), f32({0, 3, 0}, {}), {2}), {}, 0);
  expectRows(
      runNms(f32({1, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3}), f32({1, 0, 2}, {}), {2}),
      {}, 0);
}

TEST(ReferenceNmsTest, RowsAreBatchThenClassThenSelectionOrder) {
  // Batch 0: box 1 overlaps box 0 (IoU 1/3), box 2 is apart.
  // Batch 1: three disjoint boxes.
  HostTensor boxes = f32({2, 3, 4}, {0, 0, 2, 2, 0, 1, 2, 3, 5, 5, 6, 6, //
                                     0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
  HostTensor scores = f32({2, 2, 3}, {
                                         0.9f, 0.8f, 0.7f, // b0 c0: 0, 2
                                         0.1f, 0.8f, 0.3f, // b0 c1: 1, 2
                                         0.1f, 0.1f, 0.1f, // b1 c0: none
                                         0.3f, 0.6f, 0.9f, // b1 c1: 2, 1
                                     });
  NmsAttrs attrs{2, 0.3f, 0.25f};
  expectRows(runNms(boxes, scores, attrs),
             {{0, 0, 0}, {0, 0, 2}, {0, 1, 1}, {0, 1, 2}, {1, 1, 2}, {1, 1, 1}},
             8);
  // Suppression stays within its batch and class: the same boxes are kept
  // again in another class.
  attrs.maxOut = 3;
  attrs.scoreThreshold.reset();
  expectRows(runNms(boxes, scores, attrs),
             {{0, 0, 0},
              {0, 0, 2},
              {0, 1, 1},
              {0, 1, 2},
              {1, 0, 0},
              {1, 0, 1},
              {1, 0, 2},
              {1, 1, 2},
              {1, 1, 1},
              {1, 1, 0}},
             12);
}

//===----------------------------------------------------------------------===//
// f16 inputs
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, F16InputsAreWidenedExactly) {
  // IoU exactly 0.5 (intersection 2, union 4) from f16 boxes.
  HostTensor boxes = f16({1, 3, 4}, {0, 0, 1, 3, 0, 1, 1, 4, 8, 8, 9, 9});
  // f16 0.1 is 0.0999755859375.
  HostTensor scores = f16({1, 1, 3}, {0.9, 0.8, 0.1});
  expectSingleClass(boxes, scores, {10, 0.5f}, {0, 1, 2});
  expectSingleClass(boxes, scores, {10, std::nextafter(0.5f, 0.0f)}, {0, 2});
  // The score compares as its exact f16 value: not above itself, not above
  // f32 0.1, above anything just below it.
  float tenth = halfToFloat(doubleToHalf(0.1));
  EXPECT_EQ(tenth, 0.0999755859375f);
  expectSingleClass(boxes, scores, {10, 0.5f, tenth}, {0, 1});
  expectSingleClass(boxes, scores, {10, 0.5f, 0.1f}, {0, 1});
  expectSingleClass(boxes, scores, {10, 0.5f, std::nextafter(tenth, 0.0f)},
                    {0, 1, 2});
  // Mixed element types, NaN and -0.0 in f16.
  HostTensor f32Boxes = f32({1, 3, 4}, {0, 0, 1, 3, 0, 1, 1, 4, 8, 8, 9, 9});
  HostTensor halfScores =
      fromBits(ElementType::F16, {1, 1, 3}, {0x8000, 0x7e00, 0x0000});
  expectSingleClass(f32Boxes, halfScores, {10, 0.5f}, {1, 0, 2});
  expectSingleClass(boxes, f32({1, 1, 3}, {0.1f, 0.2f, 0.3f}), {10, 0.3f},
                    {2, 1});
}

TEST(ReferenceNmsTest, F16CenterBoxes) {
  // Center boxes in f16; halves in f32 on the widened values.
  HostTensor boxes = f16({1, 2, 4}, {2, 1, 4, 2, 4, 1, 4, 2});
  HostTensor scores = f16({1, 1, 2}, {0.5, 0.75});
  expectSingleClass(boxes, scores, {10, 0.3f, std::nullopt, true}, {1});
  expectSingleClass(boxes, scores, {10, 1.0f / 3, std::nullopt, true}, {1, 0});
}

//===----------------------------------------------------------------------===//
// Invalid models and the comparison
//===----------------------------------------------------------------------===//

TEST(ReferenceNmsTest, InvalidOperandsAreErrors) {
  gen::Op op = nmsOp({});
  HostTensor boxes = f32({1, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3});
  HostTensor scores = f32({1, 1, 2}, {1, 2});
  ASSERT_TRUE(referenceNms(op, boxes, scores).ok());
  EXPECT_FALSE(
      referenceNms(op, i32({1, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3}), scores).ok());
  EXPECT_FALSE(
      referenceNms(op, f64({1, 1, 4}, {0, 0, 1, 1}), f32({1, 1, 1}, {1})).ok());
  EXPECT_FALSE(
      referenceNms(op, f32({2, 4}, {0, 0, 1, 1, 2, 2, 3, 3}), scores).ok());
  EXPECT_FALSE(
      referenceNms(op, f32({1, 2, 3}, {0, 0, 1, 1, 2, 2}), scores).ok());
  EXPECT_FALSE(referenceNms(op, boxes, f32({1, 1, 3}, {1, 2, 3})).ok());
  EXPECT_FALSE(referenceNms(op, boxes, f32({2, 1, 2}, {1, 2, 3, 4})).ok());
  EXPECT_FALSE(referenceNms(op, boxes, f32({1, 2}, {1, 2})).ok());
  HostTensor truncated = boxes;
  truncated.data.resize(4);
  EXPECT_FALSE(referenceNms(op, truncated, scores).ok());
  HostTensor negative(ElementType::F32, {0});
  negative.shape = {1, -2, 4};
  EXPECT_FALSE(referenceNms(op, negative, scores).ok());
  // Attributes.
  gen::Op bad = op;
  bad.iouThreshold = 1.5f;
  EXPECT_FALSE(referenceNms(bad, boxes, scores).ok());
  bad.iouThreshold = kNaNf;
  EXPECT_FALSE(referenceNms(bad, boxes, scores).ok());
  bad = op;
  bad.scoreThreshold = kNaNf;
  EXPECT_FALSE(referenceNms(bad, boxes, scores).ok());
  bad = op;
  bad.maxOutputBoxesPerClass = INT64_MAX;
  auto tooMany = referenceNms(bad, boxes, scores);
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.message().find("2^40"), std::string::npos);
  // Huge B and C with no boxes still have no rows when max_out is 0.
  HostTensor hugeScores(ElementType::F32, {0});
  hugeScores.shape = {int64_t(1) << 40, int64_t(1) << 40, 0};
  HostTensor hugeBoxes(ElementType::F32, {0});
  hugeBoxes.shape = {int64_t(1) << 40, 0, 4};
  bad.maxOutputBoxesPerClass = 0;
  auto none = referenceNms(bad, hugeBoxes, hugeScores);
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_EQ(intsOf(none->count), (std::vector<int64_t>{0}));
  bad.maxOutputBoxesPerClass = 1;
  EXPECT_FALSE(referenceNms(bad, hugeBoxes, hugeScores).ok());
}

TEST(ReferenceNmsTest, InvalidProgramsAreErrors) {
  HostTensor boxes = f32({1, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3});
  HostTensor scores = f32({1, 1, 2}, {1, 2});
  auto build = [&](std::vector<TensorType> resultTypes, size_t operands) {
    ProgramUnderTest p;
    gen::Op op = nmsOp({3});
    int b = p.input(boxes), s = p.input(scores);
    op.operands = {b, s};
    op.operands.resize(operands, s);
    p.program.outputs = p.add(op, resultTypes);
    return p.run();
  };
  TensorType selected{ElementType::I64, {3, 3}}, count{ElementType::I64, {1}};
  ASSERT_TRUE(build({selected, count}, 2).ok());
  auto wrongRows = build({TensorType{ElementType::I64, {2, 3}}, count}, 2);
  ASSERT_FALSE(wrongRows.ok());
  EXPECT_NE(wrongRows.message().find("selected"), std::string::npos)
      << wrongRows.message();
  EXPECT_FALSE(build({selected, TensorType{ElementType::I32, {1}}}, 2).ok());
  EXPECT_FALSE(build({selected, TensorType{ElementType::I64, {}}}, 2).ok());
  EXPECT_FALSE(build({selected}, 2).ok());
  EXPECT_FALSE(build({selected, count}, 1).ok());
  EXPECT_FALSE(build({selected, count}, 3).ok());
  // Swapped operands: scores [1, 1, 2] are no boxes.
  ProgramUnderTest p;
  gen::Op op = nmsOp({3});
  int b = p.input(boxes), s = p.input(scores);
  op.operands = {s, b};
  p.program.outputs = p.add(op, {selected, count});
  auto swapped = p.run();
  ASSERT_FALSE(swapped.ok());
  EXPECT_NE(swapped.message().find("nms"), std::string::npos)
      << swapped.message();
}

TEST(ReferenceNmsTest, OutputsAreComparedExactly) {
  ProgramUnderTest p;
  HostTensor boxes = f32({1, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3});
  HostTensor scores = f32({1, 1, 2}, {1, 2});
  gen::Op op = nmsOp({3});
  op.operands = {p.input(boxes), p.input(scores)};
  p.program.outputs = p.add(op, nmsResultTypes(boxes, scores, 3));
  EXPECT_EQ(outputTolerances(p.program), (std::vector<uint64_t>{0, 0}));
  auto expected = p.run();
  expectRows(expected, {{0, 0, 1}, {0, 0, 0}}, 3);
  ASSERT_TRUE(expected.ok());
  EXPECT_FALSE(compareOutputs(p.program, *expected, *expected));
  // A padding element that is not -1.
  std::vector<HostTensor> padding = *expected;
  padding[0].set<int64_t>(7, 0);
  auto mismatch = compareOutputs(p.program, *expected, padding);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, 0);
  EXPECT_EQ(mismatch->flatIndex, 7);
  // Another count.
  std::vector<HostTensor> count = *expected;
  count[1].set<int64_t>(0, 3);
  mismatch = compareOutputs(p.program, *expected, count);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, 1);
}

} // namespace
} // namespace sift::oracle

namespace sift::oracle {
namespace {

// A system that flushes denormals (DAZ) reads a denormal threshold or
// constant as zero: the reference it is compared with under that policy
// reads it so too (an XLA CPU campaign called a denormal score_threshold's
// NMS a mismatch, corpus/xla/regress-denormal-score-threshold).
TEST(ReferenceNmsTest, DenormalAttributesReadAsZero) {
  gen::Program program;
  int boxes = program.addValue({ElementType::F32, {1, 2, 4}});
  int scores = program.addValue({ElementType::F32, {1, 1, 2}});
  program.inputs = {boxes, scores};
  gen::Op nms;
  nms.kind = OpKind::Nms;
  nms.operands = {boxes, scores};
  nms.results = {program.addValue({ElementType::I64, {2, 3}}),
                 program.addValue({ElementType::I64, {1}})};
  nms.maxOutputBoxesPerClass = 2;
  nms.iouThreshold = 0.5f;
  nms.scoreThreshold = -std::ldexp(1.0f, -149);
  program.ops.push_back(nms);
  gen::Op add;
  add.kind = OpKind::Elementwise;
  add.ew = gen::EwKind::AddConstF;
  add.constant = std::ldexp(1.0, -1074); // an f64 denormal, on an f32 op: 0
  int x = program.addValue({ElementType::F32, {2}});
  program.inputs.push_back(x);
  add.operands = {x};
  add.results = {program.addValue({ElementType::F32, {2}})};
  program.ops.push_back(add);
  program.outputs = {nms.results[0], nms.results[1], add.results[0]};

  EXPECT_TRUE(hasDenormalAttribute(program));
  gen::Program read = flushDenormalAttributes(program);
  ASSERT_TRUE(read.ops[0].scoreThreshold.has_value());
  EXPECT_EQ(*read.ops[0].scoreThreshold, 0.0f);
  EXPECT_TRUE(std::signbit(*read.ops[0].scoreThreshold));
  EXPECT_EQ(read.ops[0].iouThreshold, 0.5f);
  EXPECT_EQ(read.ops[1].constant, 0.0);
  EXPECT_FALSE(hasDenormalAttribute(read));

  // Scores of +0: candidates when the threshold is -2^-149, not when it
  // reads as -0.
  std::vector<HostTensor> inputs = {
      test::f32({1, 2, 4}, {0, 0, 1, 1, 5, 5, 6, 6}),
      test::f32({1, 1, 2}, {0, 0}), test::f32({2}, {1, 2})};
  Result<std::vector<HostTensor>> ieee = evaluate(program, inputs);
  Result<std::vector<HostTensor>> daz =
      evaluateFlushingDenormals(program, inputs, /*readAsZero=*/true);
  ASSERT_TRUE(ieee.ok() && daz.ok());
  EXPECT_EQ(test::intsOf((*ieee)[1]), std::vector<int64_t>{2});
  EXPECT_EQ(test::intsOf((*daz)[1]), std::vector<int64_t>{0});
}

} // namespace
} // namespace sift::oracle
