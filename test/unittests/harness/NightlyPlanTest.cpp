//===- NightlyPlanTest.cpp - What a night fuzzes, in which order ----------===//
//
// The cells a night draws are the campaigns that can run (cpu on the host,
// GPU pipelines on GPU targets with and without random configs, IREE once
// per front end and NMS through ONNX only, a system file's pipelines on the
// host, named by their full names), and the slots take the cells recent
// nights covered least first, in an order the seed decides.
//
//===----------------------------------------------------------------------===//

#include "harness/nightly/NightlyPlan.h"

#include <gtest/gtest.h>

#include <set>

using namespace sift;
using namespace sift::harness;

TEST(NightlyPlan, CellsAreTheCampaignsThatCanRun) {
  NightSelection selection;
  selection.pipelines = {PipelineKind::Cpu, PipelineKind::TileAndFuse,
                         PipelineKind::Iree};
  selection.inputs = {gen::InputMode::Mixed};
  std::vector<NightCell> cells = nightCells(selection);
  std::set<std::string> names;
  for (const NightCell &c : cells) {
    names.insert(c.name());
    if (c.pipeline == PipelineKind::Cpu) {
      EXPECT_EQ(c.target, TargetKind::Host);
      EXPECT_FALSE(c.randomConfig);
      EXPECT_FALSE(c.frontEnd);
    }
    if (c.pipeline == PipelineKind::TileAndFuse)
      EXPECT_NE(c.target, TargetKind::Host);
    if (c.pipeline == PipelineKind::Iree) {
      ASSERT_TRUE(c.frontEnd);
      EXPECT_FALSE(c.randomConfig); // IREE's own choice takes no config
      if (c.family == gen::Family::Nms)
        EXPECT_EQ(*c.frontEnd, gen::FrontEnd::Onnx);
    }
  }
  EXPECT_EQ(names.size(), cells.size()); // every cell once
  // cpu: 3 families; tileandfuse: 2 targets x 3 families x 2 configs;
  // iree: 3 targets x (2 families x 3 front ends + NMS through ONNX).
  EXPECT_EQ(cells.size(), 3u + 12u + 3u * 7u);
  EXPECT_TRUE(names.count("tileandfuse/amdgpu/nms/mixed/random"));
  EXPECT_TRUE(names.count("iree/host/sort/mixed/torch"));
  EXPECT_FALSE(names.count("iree/host/nms/mixed/torch"));
  // A target nobody selected has no cell.
  selection.targets = {TargetKind::Host};
  for (const NightCell &c : nightCells(selection))
    EXPECT_EQ(c.target, TargetKind::Host);
}

TEST(NightlyPlan, FilePipelinesHaveHostCellsByTheirNames) {
  NightSelection selection;
  selection.pipelines = {PipelineKind::Cpu};
  selection.filePipelines = {"xla", "onnxruntime-basic"};
  selection.inputs = {gen::InputMode::Mixed};
  std::vector<NightCell> cells = nightCells(selection);
  std::set<std::string> names;
  for (const NightCell &c : cells) {
    names.insert(c.name());
    if (c.pipeline != PipelineKind::File)
      continue;
    EXPECT_EQ(c.target, TargetKind::Host); // GPU targets: the GPU host's
    EXPECT_FALSE(c.randomConfig);
    EXPECT_FALSE(c.frontEnd);
  }
  // cpu and each file pipeline: 3 families each, every cell once.
  EXPECT_EQ(cells.size(), 3u + 2u * 3u);
  EXPECT_EQ(names.size(), cells.size());
  EXPECT_TRUE(names.count("cpu/host/sort/mixed"));
  EXPECT_TRUE(names.count("xla/host/sort/mixed"));
  EXPECT_TRUE(names.count("onnxruntime-basic/host/nms/mixed"));
  // Without the host among the targets, no file pipeline has a cell.
  selection.targets = {TargetKind::Nvptx};
  for (const NightCell &c : nightCells(selection))
    EXPECT_NE(c.pipeline, PipelineKind::File);
}

TEST(NightlyPlan, LeastCoveredCellsFirstInASeededOrder) {
  NightSelection selection;
  selection.pipelines = {PipelineKind::Cpu};
  std::vector<NightCell> cells = nightCells(selection);
  ASSERT_EQ(cells.size(), 18u); // 3 families x 6 input modes
  std::map<std::string, double> recent;
  for (const NightCell &c : cells)
    recent[c.name()] = 100;
  recent[cells[5].name()] = 0;
  recent[cells[9].name()] = 50;
  std::vector<size_t> order = slotOrder(cells, recent, 1);
  ASSERT_EQ(order.size(), cells.size());
  EXPECT_EQ(order[0], 5u);
  EXPECT_EQ(order[1], 9u);
  EXPECT_EQ(std::set<size_t>(order.begin(), order.end()).size(), cells.size());
  // The same seed, the same order; the ties fall in another order for
  // another seed.
  EXPECT_EQ(slotOrder(cells, recent, 1), order);
  EXPECT_NE(slotOrder(cells, {}, 1), slotOrder(cells, {}, 2));
}
