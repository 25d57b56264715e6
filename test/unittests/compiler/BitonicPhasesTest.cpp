//===- BitonicPhasesTest.cpp - The composite network's phase schedule -----===//
//
// buildCompositeBitonicSort performs a bitonic network in phases, each a
// thread's group of 2^width slots held in registers (RowKernels.h). These
// tests check the schedule it builds from: every step of the network, in
// order, each within its phase's window; and that running the phases the
// way the kernel does (groups of slots, the window's bits the register
// number, ascending where the slot's stage bit is 0) sorts.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Kernels/RowKernels/RowKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

/// The steps of the bitonic network over 2^stages slots, in order.
std::vector<std::pair<int64_t, int64_t>> networkSteps(int64_t stages) {
  std::vector<std::pair<int64_t, int64_t>> steps;
  for (int64_t s = 1; s <= stages; ++s)
    for (int64_t bit = s - 1; bit >= 0; --bit)
      steps.push_back({s, bit});
  return steps;
}

TEST(BitonicPhases, CoverEveryStepInOrderWithinTheirWindow) {
  for (int64_t stages = 1; stages <= 13; ++stages)
    for (int64_t width = 1; width <= std::min<int64_t>(stages, 3); ++width) {
      std::vector<std::pair<int64_t, int64_t>> steps;
      for (const sift::BitonicPhase &phase :
           sift::bitonicPhases(stages, width)) {
        EXPECT_FALSE(phase.steps.empty());
        EXPECT_LE(phase.lo + width, stages);
        for (auto [s, bit] : phase.steps) {
          EXPECT_GE(bit, phase.lo) << "stages " << stages << " width " << width;
          EXPECT_LT(bit, phase.lo + width);
          steps.push_back({s, bit});
        }
      }
      EXPECT_EQ(steps, networkSteps(stages))
          << "stages " << stages << " width " << width;
    }
}

TEST(BitonicPhases, FewerPhasesThanSteps) {
  // 1024 slots: 55 steps; 8 slots a thread make 20 phases.
  EXPECT_EQ(networkSteps(10).size(), 55u);
  EXPECT_EQ(sift::bitonicPhases(10, 3).size(), 20u);
  EXPECT_EQ(sift::bitonicPhases(10, 1).size(), 55u);
}

TEST(BitonicPhases, WidthFromThreads) {
  EXPECT_EQ(sift::compositeBitonicWidth(128, 1024), 3);
  EXPECT_EQ(sift::compositeBitonicWidth(256, 1024), 2);
  EXPECT_EQ(sift::compositeBitonicWidth(512, 1024), 1);
  // More threads than pairs: still a pair a group (some threads idle).
  EXPECT_EQ(sift::compositeBitonicWidth(1024, 1024), 1);
  // Fewer threads than groups: 8 slots a group, groups in turn.
  EXPECT_EQ(sift::compositeBitonicWidth(1, 4096), 3);
  EXPECT_EQ(sift::compositeBitonicWidth(32, 128), 2);
}

/// Runs the phases on `slots` as buildCompositeBitonicSort's kernel does.
void runPhases(std::vector<uint64_t> &slots, int64_t stages, int64_t width) {
  int64_t held = int64_t{1} << width;
  int64_t groups = static_cast<int64_t>(slots.size()) / held;
  for (const sift::BitonicPhase &phase : sift::bitonicPhases(stages, width))
    for (int64_t group = 0; group < groups; ++group) {
      int64_t lo = phase.lo;
      int64_t base =
          (group & ((int64_t{1} << lo) - 1)) | ((group >> lo) << (lo + width));
      std::vector<uint64_t> values;
      for (int64_t m = 0; m < held; ++m)
        values.push_back(slots[base + (m << lo)]);
      for (auto [s, bit] : phase.steps) {
        int64_t d = int64_t{1} << (bit - lo);
        for (int64_t m = 0; m < held; ++m) {
          if (m & d)
            continue;
          int64_t slot = base + (m << lo);
          bool up = s == stages || (slot & (int64_t{1} << s)) == 0;
          uint64_t min = std::min(values[m], values[m | d]);
          uint64_t max = std::max(values[m], values[m | d]);
          values[m] = up ? min : max;
          values[m | d] = up ? max : min;
        }
      }
      for (int64_t m = 0; m < held; ++m)
        slots[base + (m << lo)] = values[m];
    }
}

TEST(BitonicPhases, RunningThemSorts) {
  std::mt19937_64 rng(20261127);
  for (int64_t stages = 1; stages <= 12; ++stages)
    for (int64_t threads = 1; threads <= (int64_t{1} << stages); threads *= 2) {
      int64_t padded = int64_t{1} << stages;
      int64_t width = std::min<int64_t>(
          sift::compositeBitonicWidth(threads, padded), stages);
      for (int trial = 0; trial < 3; ++trial) {
        std::vector<uint64_t> slots(padded);
        for (auto &slot : slots)
          slot = rng() % 16; // many equal keys
        std::vector<uint64_t> expected = slots;
        std::sort(expected.begin(), expected.end());
        runPhases(slots, stages, width);
        ASSERT_EQ(slots, expected)
            << "stages " << stages << " threads " << threads;
      }
    }
}

} // namespace
