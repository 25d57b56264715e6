//===- TargetsTest.cpp - Pipelines, targets and the chip table -------------===//
//
// Names round-trip; a chip is found for its own target only, an empty chip
// is the target's default, an unknown one is an error that lists the valid
// chips; the workgroup memory budgets are the table's.
//
//===----------------------------------------------------------------------===//

#include "support/Targets.h"

#include <gtest/gtest.h>

using namespace sift;

TEST(Targets, NamesRoundTrip) {
  for (PipelineKind kind : kAllPipelineKinds)
    EXPECT_EQ(parsePipelineKind(toString(kind)), kind);
  for (TargetKind kind : kAllTargetKinds)
    EXPECT_EQ(parseTargetKind(toString(kind)), kind);
  EXPECT_FALSE(parsePipelineKind("gpu").has_value());
  EXPECT_FALSE(parseTargetKind("spirv").has_value());
}

TEST(Targets, ChipsBelongToTheirTarget) {
  Result<ChipInfo> sm90 = findChip(TargetKind::Nvptx, "sm_90");
  ASSERT_TRUE(sm90.ok()) << sm90.message();
  EXPECT_EQ(sm90->workgroupMemoryBytes, 48 * 1024);
  Result<ChipInfo> fallback = findChip(TargetKind::Amdgpu, "");
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(fallback->name, defaultChip(TargetKind::Amdgpu));

  Result<ChipInfo> unknown = findChip(TargetKind::Nvptx, "sm_999x");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("unknown nvptx chip 'sm_999x'"),
            std::string::npos);
  EXPECT_NE(unknown.message().find("sm_90"), std::string::npos);
  EXPECT_FALSE(findChip(TargetKind::Nvptx, "sm_10").ok());
  EXPECT_FALSE(findChip(TargetKind::Amdgpu, "gfx9999").ok());

  Result<ChipInfo> crossed = findChip(TargetKind::Amdgpu, "sm_90");
  ASSERT_FALSE(crossed.ok());
  EXPECT_NE(crossed.message().find("is a nvptx chip, not amdgpu"),
            std::string::npos);
  EXPECT_FALSE(findChip(TargetKind::Host, "sm_90").ok());
  // Every default chip is in the table.
  for (TargetKind target : {TargetKind::Nvptx, TargetKind::Amdgpu})
    EXPECT_TRUE(findChip(target, defaultChip(target)).ok());
}

TEST(Targets, WorkgroupMemoryBudgets) {
  EXPECT_EQ(workgroupMemoryBudget("sm_90"), 48 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("nvptx"), 48 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("gfx942"), 64 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("amdgpu"), 64 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("gfx950"), 160 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("something"), 48 * 1024);
}
