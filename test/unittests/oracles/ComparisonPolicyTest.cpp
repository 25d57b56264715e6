//===- ComparisonPolicyTest.cpp - Documented freedoms, and only those -----===//
//
// Each rule of the IREE policy accepts exactly the answers it allows: an
// unstable sort may permute tied elements but not change them; a top-k may
// break ties either way but each index must point at its value, once; the
// linalg_ext fill index -1 only at the fill value; outputs computed from a
// tie-open result are named unchecked; sift's exact policy accepts none.
//
//===----------------------------------------------------------------------===//

#include "OracleTestUtil.h"

#include "generators/ProgramBuilder.h"
#include "oracles/ComparisonPolicy.h"
#include "oracles/Reference.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <tuple>

using namespace sift;
using namespace sift::oracle;
using namespace sift::oracle::test;

namespace {

gen::Policy policy;
gen::Rng rng(7);

struct Case {
  gen::Program program;
  std::vector<HostTensor> inputs, expected;
};

Case evaluated(gen::Program program, std::vector<HostTensor> inputs) {
  Result<std::vector<HostTensor>> expected = evaluate(program, inputs);
  EXPECT_TRUE(expected.ok()) << expected.message();
  return {std::move(program), std::move(inputs), std::move(*expected)};
}

/// A sort of i32 keys [1, 0, 1] (a tie) moving an i32 payload.
Case tiedSort(bool negatePayload = false) {
  gen::ProgramBuilder b(policy, rng);
  int k = b.addInput({ElementType::I32, {3}});
  int p = b.addInput({ElementType::I32, {3}});
  std::vector<int> sorted =
      b.addSort({k, p}, 0, gen::SortOrder::Ascending, gen::ComparatorKind::Less);
  b.addOutput(sorted[0]);
  b.addOutput(negatePayload ? b.addElementwise(gen::EwKind::AddI,
                                               {sorted[1], sorted[1]},
                                               ElementType::I32)
                            : sorted[1]);
  return evaluated(b.take(), {i32({3}, {1, 0, 1}), i32({3}, {10, 11, 12})});
}

/// Top-k (largest, k = kk) of one f32 lane, both results returned.
Case topk(std::vector<float> lane, int64_t kk) {
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {static_cast<int64_t>(lane.size())}});
  auto [values, indices] = b.addTopK(x, 0, kk, true);
  b.addOutput(values);
  b.addOutput(indices);
  return evaluated(b.take(),
                   {f32({static_cast<int64_t>(lane.size())}, lane)});
}

PolicyComparison compare(const ComparisonPolicy &p, const Case &c,
                         std::vector<HostTensor> actual) {
  return compareUnderPolicy(p, c.program, c.inputs, c.expected, actual);
}

} // namespace

TEST(ComparisonPolicy, UnstableSortMayPermuteTiedElementsOnly) {
  Case c = tiedSort();
  ASSERT_EQ(c.expected[1].get<int32_t>(1), 10); // stable: 10 before 12
  std::vector<HostTensor> swapped = {c.expected[0], i32({3}, {11, 12, 10})};
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::Torch), c, swapped).mismatch);
  EXPECT_TRUE(compare(exactPolicy(), c, swapped).mismatch);
  // A payload that is not a permutation of the tied run is wrong.
  std::vector<HostTensor> wrong = {c.expected[0], i32({3}, {11, 12, 12})};
  auto found = compare(ireePolicy(gen::FrontEnd::Torch), c, wrong).mismatch;
  ASSERT_TRUE(found);
  EXPECT_EQ(found->output, 1);
  EXPECT_NE(found->message.find("tied elements"), std::string::npos)
      << found->message;
  // Moving an untied element is wrong too.
  std::vector<HostTensor> moved = {c.expected[0], i32({3}, {10, 11, 12})};
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, moved).mismatch);
}

TEST(ComparisonPolicy, TieOpenResultsThroughOtherOpsAreNamedUnchecked) {
  Case c = tiedSort(/*negatePayload=*/true);
  std::vector<HostTensor> swapped = {c.expected[0], i32({3}, {22, 24, 20})};
  PolicyComparison result = compare(ireePolicy(gen::FrontEnd::Torch), c, swapped);
  EXPECT_FALSE(result.mismatch);
  ASSERT_EQ(result.unchecked.size(), 1u);
  EXPECT_NE(result.unchecked[0].find("output 1"), std::string::npos);
  // The keys themselves are still checked.
  std::vector<HostTensor> badKeys = {i32({3}, {0, 1, 2}), swapped[1]};
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, badKeys).mismatch);
}

TEST(ComparisonPolicy, TopKTiesMayGoEitherWayButIndicesMustPointAtValues) {
  Case c = topk({5, 1, 5}, 1);
  ASSERT_EQ(c.expected[1].get<int64_t>(0), 0);
  EXPECT_FALSE(
      compare(ireePolicy(gen::FrontEnd::Torch), c, {f32({1}, {5}), i64({1}, {2})}).mismatch);
  EXPECT_TRUE(
      compare(exactPolicy(), c, {f32({1}, {5}), i64({1}, {2})}).mismatch);
  auto wrong = compare(ireePolicy(gen::FrontEnd::Torch), c, {f32({1}, {5}), i64({1}, {1})});
  ASSERT_TRUE(wrong.mismatch);
  EXPECT_NE(wrong.mismatch->message.find("points at an element"),
            std::string::npos);
  Case two = topk({5, 1, 5}, 2);
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::Torch), two,
                       {f32({2}, {5, 5}), i64({2}, {2, 0})})
                   .mismatch);
  auto twice = compare(ireePolicy(gen::FrontEnd::Torch), two,
                       {f32({2}, {5, 5}), i64({2}, {0, 0})});
  ASSERT_TRUE(twice.mismatch);
  EXPECT_NE(twice.mismatch->message.find("appears twice"), std::string::npos);
  // Without ties nothing is open: a wrong index is a mismatch.
  Case distinct = topk({5, 1, 4}, 1);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), distinct,
                      {f32({1}, {5}), i64({1}, {2})})
                  .mismatch);
}

TEST(ComparisonPolicy, FillIndexOnlyAtTheFillValue) {
  Case c = topk({3, -kInff}, 2);
  std::vector<HostTensor> filled = {f32({2}, {3, -kInff}), i64({2}, {0, -1})};
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::LinalgExt), c, filled).mismatch);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, filled).mismatch);
  Case finite = topk({3, 2}, 2);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::LinalgExt), finite,
                      {f32({2}, {3, 2}), i64({2}, {0, -1})})
                  .mismatch);
}

TEST(ComparisonPolicy, DenormalsFlushedOnlyWhereThePolicySaysSo) {
  // A sort whose input holds a denormal: IREE's FTZ/DAZ float code reads
  // it as zero, so its outputs are compared with the reference computed
  // that way (up to denormals), and say so.
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {3}});
  std::vector<int> sorted =
      b.addSort({x}, 0, gen::SortOrder::Ascending, gen::ComparatorKind::Less);
  b.addOutput(sorted[0]);
  Case c = evaluated(b.take(), {f32({3}, {2, 1e-40f, 1})});
  std::vector<HostTensor> flushed = {f32({3}, {0, 1, 2})};
  PolicyComparison iree = compare(ireePolicy(gen::FrontEnd::Torch), c, flushed);
  EXPECT_FALSE(iree.mismatch);
  ASSERT_EQ(iree.unchecked.size(), 1u);
  EXPECT_NE(iree.unchecked[0].find("denormals"), std::string::npos);
  EXPECT_TRUE(compare(exactPolicy(), c, flushed).mismatch);
  // The denormal's bits moved (ordered as zero) match too.
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::Torch), c,
                       {f32({3}, {1e-40f, 1, 2})})
                   .mismatch);
  // A denormal taking part excuses only what flushing explains: an
  // unsorted answer is still a mismatch.
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c,
                      {f32({3}, {2, 0, 1})})
                  .mismatch);
  // Without a denormal the same wrong answer is a mismatch under IREE's.
  Case normal = evaluated(c.program, {f32({3}, {2, 0.5f, 1})});
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), normal, {f32({3}, {0, 1, 2})}).mismatch);
}

TEST(ComparisonPolicy, DenormalStepsInsideAnNmsAreFlushedToo) {
  // Two boxes of the smallest normal height: no value between ops is a
  // denormal, but their areas and intersection are. Code that flushes
  // denormals (XLA's CPU code: corpus/xla/regress-denormal-nms-areas)
  // finds no overlap and keeps both; exact f32 suppresses the second.
  gen::Program program;
  int boxes = program.addValue({ElementType::F32, {1, 2, 4}});
  int scores = program.addValue({ElementType::F32, {1, 1, 2}});
  program.inputs = {boxes, scores};
  gen::Op nms;
  nms.kind = gen::OpKind::Nms;
  nms.maxOutputBoxesPerClass = 2;
  nms.iouThreshold = 0.3f;
  nms.operands = {boxes, scores};
  nms.results = {program.addValue({ElementType::I64, {2, 3}}),
                 program.addValue({ElementType::I64, {1}})};
  program.ops.push_back(nms);
  program.outputs = nms.results;
  const float tiny = FLT_MIN;
  Case c = evaluated(program, {f32({1, 2, 4}, {0, 0.2f, tiny, 0.75f, 0, 0.2f, tiny, 0.55f}),
                               f32({1, 1, 2}, {0.9f, 0.8f})});
  std::vector<HostTensor> both = {i64({2, 3}, {0, 0, 0, 0, 0, 1}),
                                  i64({1}, {2})};
  EXPECT_TRUE(compare(exactPolicy(), c, both).mismatch);
  PolicyComparison flushing = compare(ireePolicy(gen::FrontEnd::Onnx), c, both);
  EXPECT_FALSE(flushing.mismatch);
  // Only what flushing explains: keeping the second box alone is not.
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Onnx), c,
                      {i64({2, 3}, {0, 0, 1, -1, -1, -1}), i64({1}, {1})})
                  .mismatch);
}

TEST(ComparisonPolicy, TiedValueAndIndexMustComeFromOneElement) {
  // +0 and -0 are one key, but each output keeps the bits of the element
  // its index names. IREE's top-k picks values and indices under different
  // conditions and returns value -0 with the index of +0 (2026-11-26 R15):
  // a mismatch under every policy, though the tie order is open.
  Case c = topk({0.0f, -0.0f, 1.0f}, 2);
  std::vector<HostTensor> mixed = {f32({2}, {1.0f, -0.0f}), i64({2}, {2, 0})};
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::LinalgExt), c, mixed).mismatch);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Onnx), c, mixed).mismatch);
  // The other tied element, with its own bits, is IREE's to choose.
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::LinalgExt), c,
                       {f32({2}, {1.0f, -0.0f}), i64({2}, {2, 1})})
                   .mismatch);
}

TEST(ComparisonPolicy, FlushedResultsOfExactlyReadDenormalsKeepTheirSign) {
  // f16 a + b with a = -denormal, b = +0: IREE's CPU code widens both to
  // f32 (exactly: an f16 denormal is a normal f32), adds, and flushes the
  // denormal f16 result to -0. Reading the denormal as zero (DAZ) would
  // give -0 + +0 = +0 instead; both readings are IREE's, nothing else is.
  // (2026-11-26 campaign C, signature 28: a false positive before this.)
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F16, {2}});
  int y = b.addInput({ElementType::F16, {2}});
  b.addOutput(b.addElementwise(gen::EwKind::AddF, {x, y}, ElementType::F16));
  Case c = evaluated(b.take(), {fromBits(ElementType::F16, {2}, {0x8001, 0x03ff}),
                                f16({2}, {0.0, 0.0})});
  HostTensor signKept = fromBits(ElementType::F16, {2}, {0x8000, 0x0000});
  PolicyComparison iree = compare(ireePolicy(gen::FrontEnd::LinalgExt), c, {signKept});
  EXPECT_FALSE(iree.mismatch);
  ASSERT_FALSE(iree.unchecked.empty());
  EXPECT_NE(iree.unchecked[0].find("read exactly"), std::string::npos);
  // The DAZ reading (+0 everywhere) passes as well, and says so.
  PolicyComparison daz = compare(ireePolicy(gen::FrontEnd::LinalgExt), c,
                                 {fromBits(ElementType::F16, {2}, {0, 0})});
  EXPECT_FALSE(daz.mismatch);
  ASSERT_FALSE(daz.unchecked.empty());
  EXPECT_NE(daz.unchecked[0].find("DAZ"), std::string::npos);
  // A value neither reading gives is still a mismatch.
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::LinalgExt), c,
                      {fromBits(ElementType::F16, {2}, {0x8000, 0x3c00})})
                  .mismatch);
  EXPECT_TRUE(compare(exactPolicy(), c, {signKept}).mismatch);
}

TEST(ComparisonPolicy, SmallestFillIsNaNTheWorstElement) {
  // k = n with a NaN: the NaN is the worst for smallest, the fill (NaN)
  // ties it, so linalg_ext.topk may keep index -1 there.
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {3}});
  auto [values, indices] = b.addTopK(x, 0, 3, /*largest=*/false);
  b.addOutput(values);
  b.addOutput(indices);
  Case c = evaluated(b.take(), {f32({3}, {2, kNaNf, 1})});
  std::vector<HostTensor> filled = {f32({3}, {1, 2, kNaNf}),
                                    i64({3}, {2, 0, -1})};
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::LinalgExt), c, filled).mismatch);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, filled).mismatch);
}

TEST(ComparisonPolicy, InexactOutputsOffByMoreThanTheirToleranceAreNamed) {
  // sigmoid then a subtraction that cancels: a few ulps of the sigmoid are
  // many of the difference.
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {1}});
  int one = b.addInput({ElementType::F32, {1}});
  int s = b.addElementwise(gen::EwKind::Sigmoid, {x}, ElementType::F32);
  b.addOutput(b.addElementwise(gen::EwKind::SubF, {one, s}, ElementType::F32));
  Case c = evaluated(b.take(), {f32({1}, {2.5824587f}), f32({1}, {1})});
  float expected = c.expected[0].get<float>(0);
  uint32_t bits = bitCast<uint32_t>(expected) - 16;
  std::vector<HostTensor> off = {f32({1}, {bitCast<float>(bits)})};
  PolicyComparison iree = compare(ireePolicy(gen::FrontEnd::Torch), c, off);
  EXPECT_FALSE(iree.mismatch);
  ASSERT_EQ(iree.unchecked.size(), 1u);
  EXPECT_NE(iree.unchecked[0].find("inexact op"), std::string::npos);
  EXPECT_TRUE(compare(exactPolicy(), c, off).mismatch);
}

TEST(ComparisonPolicy, TopKMayChooseWhichTiedZeroFillsTheLastSlots) {
  // k = 2 of [5, -0.0, +0.0, -0.0]: the second slot is one of three tied
  // zeros; the reference takes -0.0 (the lower index), IREE may take +0.0.
  Case c = topk({5, -0.0f, 0.0f, -0.0f}, 2);
  std::vector<HostTensor> plus = {f32({2}, {5, 0.0f}), i64({2}, {0, 2})};
  EXPECT_FALSE(compare(ireePolicy(gen::FrontEnd::Torch), c, plus).mismatch);
  EXPECT_TRUE(compare(exactPolicy(), c, plus).mismatch);
  // A value not tied to the key is still wrong.
  std::vector<HostTensor> wrong = {f32({2}, {5, 1.0f}), i64({2}, {0, 2})};
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, wrong).mismatch);
  // With every zero selected (k = 4) the multiset is determined.
  Case all = topk({5, -0.0f, 0.0f, -0.0f}, 4);
  std::vector<HostTensor> lost = {f32({4}, {5, 0.0f, 0.0f, -0.0f}),
                                  i64({4}, {0, 2, 2, 3})};
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), all, lost).mismatch);
}

// ONNX leaves NaN's place in TopK open: under the onnx front end a sort
// whose input holds a NaN is not compared (named unchecked); the torch and
// linalg_ext front ends (PyTorch's NaN-largest rule) still compare it.
TEST(ComparisonPolicy, OnnxLeavesTheNaNOrderOpen) {
  const float nan = std::nanf("");
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {3}});
  std::vector<int> sorted =
      b.addSort({x}, 0, gen::SortOrder::Ascending, gen::ComparatorKind::Less);
  b.addOutput(sorted[0]);
  Case c = evaluated(b.take(), {f32({3}, {nan, 1, 2})});
  std::vector<HostTensor> nanFirst = {f32({3}, {nan, 1, 2})};
  PolicyComparison onnx = compare(ireePolicy(gen::FrontEnd::Onnx), c, nanFirst);
  EXPECT_FALSE(onnx.mismatch);
  ASSERT_EQ(onnx.unchecked.size(), 1u);
  EXPECT_NE(onnx.unchecked[0].find("NaN"), std::string::npos);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, nanFirst).mismatch);
  EXPECT_TRUE(
      compare(ireePolicy(gen::FrontEnd::LinalgExt), c, nanFirst).mismatch);
  // Without a NaN the onnx policy compares as before.
  Case plain = evaluated(c.program, {f32({3}, {3, 1, 2})});
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Onnx), plain,
                      {f32({3}, {3, 1, 2})})
                  .mismatch);
}

/// NMS over 2 boxes far apart with scores `s0`, `s1` (one batch and class).
Case twoBoxNms(float s0, float s1) {
  gen::ProgramBuilder b(policy, rng);
  int boxes = b.addInput({ElementType::F32, {1, 2, 4}});
  int scores = b.addInput({ElementType::F32, {1, 1, 2}});
  auto [selected, count] = b.addNms(boxes, scores, 2, 0.5f, std::nullopt, false);
  b.addOutput(selected);
  b.addOutput(count);
  return evaluated(b.take(), {f32({1, 2, 4}, {0, 0, 1, 1, 5, 5, 6, 6}),
                              f32({1, 1, 2}, {s0, s1})});
}

// ONNX does not order equal scores: NMS rows in the other order are
// accepted (unchecked) under onnx when scores tie, and a mismatch when they
// do not; sift's exact policy never accepts them.
TEST(ComparisonPolicy, OnnxNmsOrderAmongEqualScoresIsOpen) {
  std::vector<HostTensor> swapped = {i64({2, 3}, {0, 0, 1, 0, 0, 0}),
                                     i64({1}, {2})};
  Case tied = twoBoxNms(0.5f, 0.5f);
  PolicyComparison onnx = compare(ireePolicy(gen::FrontEnd::Onnx), tied, swapped);
  EXPECT_FALSE(onnx.mismatch);
  EXPECT_FALSE(onnx.unchecked.empty());
  EXPECT_TRUE(compare(exactPolicy(), tied, swapped).mismatch);
  Case distinct = twoBoxNms(0.5f, 0.25f);
  EXPECT_TRUE(
      compare(ireePolicy(gen::FrontEnd::Onnx), distinct, swapped).mismatch);
}

/// NMS over 2 overlapping boxes (IoU 1/2 when both are as given; the
/// threshold 1/4 suppresses the second) in the format `center` says.
Case overlappingNms(std::vector<float> boxes, bool center) {
  gen::ProgramBuilder b(policy, rng);
  int in = b.addInput({ElementType::F32, {1, 2, 4}});
  int scores = b.addInput({ElementType::F32, {1, 1, 2}});
  auto [selected, count] =
      b.addNms(in, scores, 2, 0.25f, std::nullopt, center);
  b.addOutput(selected);
  b.addOutput(count);
  return evaluated(b.take(),
                   {f32({1, 2, 4}, std::move(boxes)), f32({1, 1, 2}, {0.9f, 0.5f})});
}

// ONNX gives no meaning to NaN or infinite coordinates nor to negative
// sizes in center format (where IREE's lowering takes |w| and |h|, the ONNX
// reference evaluator a degenerate box): under onnx such an NMS is open;
// ordinary boxes, and every other front end, are compared.
TEST(ComparisonPolicy, OnnxNmsOddBoxesAreOpen) {
  const float nan = std::nanf("");
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<HostTensor> both = {i64({2, 3}, {0, 0, 0, 0, 0, 1}),
                                  i64({1}, {2})};
  std::vector<HostTensor> first = {i64({2, 3}, {0, 0, 0, -1, -1, -1}),
                                   i64({1}, {1})};
  // The reference keeps both odd boxes (a NaN IoU, an infinite union, a
  // degenerate box suppress nothing); IREE's answer suppressed one.
  for (auto [boxes, center] :
       {std::pair<std::vector<float>, bool>{{0, 0, 2, 2, 0, 1, 2, nan}, false},
        {{0, 0, 2, 2, 0, 1, 2, inf}, false},
        {{1, 1, 2, 2, 1, 1.5f, 2, -1}, true}}) {
    Case c = overlappingNms(boxes, center);
    EXPECT_FALSE(compare(exactPolicy(), c, both).mismatch);
    PolicyComparison onnx = compare(ireePolicy(gen::FrontEnd::Onnx), c, first);
    EXPECT_FALSE(onnx.mismatch);
    ASSERT_FALSE(onnx.unchecked.empty());
    EXPECT_NE(onnx.unchecked[0].find("boxes"), std::string::npos);
    EXPECT_TRUE(compare(exactPolicy(), c, first).mismatch);
    EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Torch), c, first).mismatch);
  }
  // Ordinary boxes: the second is suppressed, and keeping it is a
  // mismatch under onnx too.
  Case plain = overlappingNms({0, 0, 2, 2, 0, 1, 2, 3}, false);
  EXPECT_FALSE(compare(exactPolicy(), plain, first).mismatch);
  EXPECT_TRUE(compare(ireePolicy(gen::FrontEnd::Onnx), plain, both).mismatch);
  Case centered = overlappingNms({1, 1, 2, 2, 1, 1.5f, 2, 1}, true);
  EXPECT_FALSE(compare(exactPolicy(), centered, first).mismatch);
  EXPECT_TRUE(
      compare(ireePolicy(gen::FrontEnd::Onnx), centered, both).mismatch);
}

TEST(ComparisonPolicy, DocumentedLimitsAreNamedOnlyWhereDocumented) {
  std::string assertText =
      "INVALID_ARGUMENT; unimplemented: score_threshold should be <= "
      "min(scores)";
  // From a temporary policy, as sift-run asks: the limit is a copy, whole.
  std::optional<DocumentedLimit> limit =
      documentedLimitIn(ireePolicy(gen::FrontEnd::Onnx), assertText);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->why.rfind("IREE's ONNX NonMaxSuppression does not "
                             "implement a score_threshold",
                             0),
            0u)
      << limit->why;
  EXPECT_FALSE(
      documentedLimitIn(ireePolicy(gen::FrontEnd::Torch), assertText));
  EXPECT_FALSE(documentedLimitIn(exactPolicy(), assertText));
  EXPECT_FALSE(documentedLimitIn(ireePolicy(gen::FrontEnd::Onnx),
                                 "INTERNAL; out of memory"));
}

TEST(ComparisonPolicy, OnnxNmsTakesOneBatchAndOneClass) {
  for (auto [batches, classes, unsupported] :
       {std::tuple{1, 1, false}, {2, 1, true}, {1, 3, true}}) {
    gen::ProgramBuilder b(policy, rng);
    int boxes = b.addInput({ElementType::F32, {batches, 3, 4}});
    int scores = b.addInput({ElementType::F32, {batches, classes, 3}});
    auto [selected, count] = b.addNms(boxes, scores, 2, 0.5f, std::nullopt, false);
    b.addOutput(selected);
    b.addOutput(count);
    gen::Program program = b.take();
    EXPECT_EQ(!documentedUnsupported(ireePolicy(gen::FrontEnd::Onnx), program)
                   .empty(),
              unsupported)
        << batches << "x" << classes;
    EXPECT_TRUE(documentedUnsupported(exactPolicy(), program).empty());
  }
}
