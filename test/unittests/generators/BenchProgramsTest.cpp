//===- test/unittests/generators/BenchProgramsTest.cpp - Benchmark shapes -===//
//
// The benchmark programs by name: the fixed twelve keep their seeds, other
// shapes spelled the same way resolve to a program with a seed of their
// own (the GPU host makes the same inputs from the name), misspellings do
// not; a slow kernel's ladder of smaller shapes ends where it says.
//
//===----------------------------------------------------------------------===//
#include "generators/BenchPrograms.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sift::gen;

namespace {

std::vector<std::string> namesOf(const std::vector<BenchProgram> &rungs) {
  std::vector<std::string> names;
  for (const BenchProgram &b : rungs)
    names.push_back(b.name);
  return names;
}

TEST(BenchProgramsTest, FixedProgramsKeepTheirSeeds) {
  std::optional<BenchProgram> b = findBenchProgram("topk-1024x1024-k8");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->seed, 101u);
  EXPECT_TRUE(isFixedBench("nms-20000"));
  EXPECT_FALSE(isFixedBench("nms-1250"));
}

TEST(BenchProgramsTest, OtherShapesResolveByName) {
  std::optional<BenchProgram> a = findBenchProgram("topk-16x4096-k8");
  std::optional<BenchProgram> b = findBenchProgram("topk-16x4096-k8");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->family, Family::TopK);
  EXPECT_EQ(a->seed, b->seed);
  EXPECT_NE(a->seed, findBenchProgram("topk-16x4096-k4")->seed);
  // values f32 [16, 4096] in, values f32 and indices i64 [16, 8] out.
  EXPECT_EQ(a->bytesMoved, 16u * 4096 * 4 + 16 * 8 * 4 + 16 * 8 * 8);
  ASSERT_TRUE(findBenchProgram("sort-3x5"));
  EXPECT_EQ(findBenchProgram("nms-78")->family, Family::Nms);
}

TEST(BenchProgramsTest, DetectionHeadsAreNmsAfterASigmoid) {
  std::optional<BenchProgram> head = findBenchProgram("nms-head-4x80x1000");
  ASSERT_TRUE(head);
  EXPECT_TRUE(isFixedBench("nms-head-1x80x20000"));
  EXPECT_EQ(head->family, Family::Nms);
  // boxes [4, 1000, 4] and logits [4, 80, 1000], a sigmoid, the NMS.
  const Program &p = head->program;
  ASSERT_EQ(p.inputs.size(), 2u);
  EXPECT_EQ(p.values[static_cast<size_t>(p.inputs[1])].shape,
            (std::vector<int64_t>{4, 80, 1000}));
  ASSERT_EQ(p.ops.size(), 2u);
  EXPECT_EQ(p.ops[1].kind, OpKind::Nms);
  // Other heads resolve by name; a head's ladder keeps its images and
  // classes.
  std::optional<BenchProgram> other = findBenchProgram("nms-head-2x3x64");
  ASSERT_TRUE(other);
  EXPECT_NE(other->seed, head->seed);
  EXPECT_FALSE(findBenchProgram("nms-head-2x3"));
  EXPECT_EQ(
      namesOf(benchLadder(*head)),
      (std::vector<std::string>{"nms-head-4x80x250", "nms-head-4x80x62"}));
}

TEST(BenchProgramsTest, ProductionDetectionHeadsPreFilterThenNms) {
  std::optional<BenchProgram> head = findBenchProgram("detect-8x80x8400");
  ASSERT_TRUE(head);
  EXPECT_TRUE(isFixedBench("detect-1x80x25200"));
  EXPECT_EQ(head->family, Family::Nms);
  // boxes [8, 8400, 4], scores [8, 80, 8400], objectness [8, 8400]; the
  // top 1000 by objectness, two gathers, the NMS.
  const Program &p = head->program;
  ASSERT_EQ(p.inputs.size(), 3u);
  EXPECT_EQ(p.values[static_cast<size_t>(p.inputs[2])].shape,
            (std::vector<int64_t>{8, 8400}));
  ASSERT_EQ(p.ops.size(), 4u);
  EXPECT_EQ(p.ops[0].kind, OpKind::TopK);
  EXPECT_EQ(p.ops[0].k, 1000);
  EXPECT_EQ(p.ops[1].kind, OpKind::Gather);
  EXPECT_EQ(p.ops[2].kind, OpKind::Gather);
  EXPECT_EQ(p.ops[2].axis, 2);
  ASSERT_EQ(p.ops[3].kind, OpKind::Nms);
  EXPECT_EQ(p.ops[3].maxOutputBoxesPerClass, 100);
  ASSERT_TRUE(p.ops[3].scoreThreshold);
  EXPECT_FLOAT_EQ(*p.ops[3].scoreThreshold, 0.05f);
  // The candidates' box indices are the third output: they map the NMS's
  // rows back to boxes.
  ASSERT_EQ(p.outputs.size(), 3u);
  EXPECT_EQ(p.outputs[2], p.ops[0].results[1]);
  // Fewer boxes than 1000: every box is a candidate.
  std::optional<BenchProgram> small = findBenchProgram("detect-2x3x64");
  ASSERT_TRUE(small);
  EXPECT_EQ(small->program.ops[0].k, 64);
  EXPECT_FALSE(findBenchProgram("detect-2x3x64-bf16"));
  EXPECT_FALSE(findBenchProgram("detect-2x3"));
  EXPECT_EQ(namesOf(benchLadder(*head)),
            (std::vector<std::string>{"detect-8x80x2100", "detect-8x80x525",
                                      "detect-8x80x131", "detect-8x80x32"}));
}

TEST(BenchProgramsTest, MisspelledOrHugeShapesAreNotBenchmarks) {
  for (const char *name :
       {"topk-0x4096-k8", "topk-4x4-k8", "topk-4x4096-k0", "sort-01x4096",
        "sort-4x4096 ", "sort-x4", "nms--5", "nms-5x", "sort-65536x65536",
        "topk-+4x4096-k8", "scan-4x4", ""})
    EXPECT_FALSE(findBenchProgram(name)) << name;
}

TEST(BenchProgramsTest, LaddersQuarterTheLongerDimension) {
  EXPECT_EQ(namesOf(benchLadder(*findBenchProgram("topk-1x1048576-k8"))),
            (std::vector<std::string>{"topk-1x262144-k8", "topk-1x65536-k8",
                                      "topk-1x16384-k8", "topk-1x4096-k8"}));
  // A row keeps 4k elements: k = 64 stops the columns at 256.
  EXPECT_EQ(namesOf(benchLadder(*findBenchProgram("topk-64x65536-k64"))),
            (std::vector<std::string>{"topk-64x16384-k64", "topk-64x4096-k64",
                                      "topk-64x1024-k64", "topk-64x256-k64",
                                      "topk-16x256-k64"}));
  EXPECT_EQ(namesOf(benchLadder(*findBenchProgram("sort-16384x128"))),
            (std::vector<std::string>{"sort-4096x128", "sort-1024x128",
                                      "sort-256x128", "sort-64x128"}));
  EXPECT_EQ(namesOf(benchLadder(*findBenchProgram("nms-20000"))),
            (std::vector<std::string>{"nms-5000", "nms-1250", "nms-312",
                                      "nms-78", "nms-19"}));
  for (const BenchProgram &fixed : benchPrograms())
    for (const BenchProgram &rung : benchLadder(fixed)) {
      EXPECT_LT(rung.bytesMoved, fixed.bytesMoved) << rung.name;
      EXPECT_EQ(rung.family, fixed.family) << rung.name;
    }
}

} // namespace

TEST(BenchProgramsTest, ArgsortsSortDescendingWithTheIndices) {
  std::optional<BenchProgram> a = findBenchProgram("argsort-64x151936");
  ASSERT_TRUE(a);
  EXPECT_TRUE(isFixedBench("argsort-64x151936"));
  EXPECT_EQ(a->family, Family::Sort);
  // An i64 iota along the row, sorted with the values as its payload:
  // values f32 and indices i64 out.
  const Program &p = a->program;
  ASSERT_EQ(p.ops.size(), 2u);
  EXPECT_EQ(p.ops[0].kind, OpKind::Iota);
  EXPECT_EQ(p.ops[1].kind, OpKind::Sort);
  EXPECT_EQ(p.ops[1].order, SortOrder::Descending);
  ASSERT_EQ(p.outputs.size(), 2u);
  EXPECT_EQ(p.values[static_cast<size_t>(p.outputs[1])].elementType,
            sift::ElementType::I64);
  EXPECT_EQ(a->bytesMoved, 64u * 151936 * (4 + 4 + 8));
  // Its ladder stays argsorts.
  EXPECT_EQ(namesOf(benchLadder(*findBenchProgram("argsort-4x65536")))[0],
            "argsort-4x16384");
  EXPECT_FALSE(findBenchProgram("argsort-4"));
}
