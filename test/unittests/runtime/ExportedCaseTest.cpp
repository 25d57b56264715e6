//===- test/unittests/runtime/ExportedCaseTest.cpp - Case facts in meta ---===//
//
// setExportedCase and getExportedCase: fuzz exports keep their keys, an
// artifact of a hand-written program (`harness compile --input`) names its
// program instead of a seed, and one without the reference's outputs says
// so (case.expected=none) and reads back without expected outputs or
// tolerances; every inconsistent combination is an error naming the key.
//
//===----------------------------------------------------------------------===//

#include "runtime/ExportedCase.h"

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

using namespace sift;
using namespace sift::rt;
using sift::rt::test::sampleArtifact;

namespace {

/// The case facts of a fuzz export of sampleArtifact (one output).
ExportedCase fuzzCase() {
  ExportedCase info;
  info.seed = 42;
  info.pipeline = PipelineKind::Cpu;
  info.target = TargetKind::Host;
  info.chip = "x86-64";
  info.inputs = "mixed";
  info.tolerances = {0};
  return info;
}

TEST(ExportedCaseTest, FuzzExportsKeepTheirKeys) {
  Artifact artifact = sampleArtifact();
  setExportedCase(artifact, fuzzCase());
  EXPECT_EQ(artifact.meta.at("case.seed"), "42");
  EXPECT_EQ(artifact.meta.count("case.program"), 0u);
  EXPECT_EQ(artifact.meta.count("case.expected"), 0u);
  Result<ExportedCase> read = getExportedCase(artifact);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(read->name(), "42-cpu-host");
  EXPECT_TRUE(read->hasReference);
  EXPECT_TRUE(read->program.empty());
}

// The pipeline and target are typed: a name sift does not know is an error
// naming the key, never a row with a made-up pipeline.
TEST(ExportedCaseTest, UnknownPipelineOrTargetIsAnError) {
  Artifact artifact = sampleArtifact();
  setExportedCase(artifact, fuzzCase());
  artifact.meta["case.pipeline"] = "gpu";
  Result<ExportedCase> read = getExportedCase(artifact);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.message(), "meta 'case.pipeline' names no pipeline: 'gpu'");
  artifact.meta["case.pipeline"] = "distribute";
  artifact.meta["case.target"] = "spirv";
  read = getExportedCase(artifact);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.message(), "meta 'case.target' names no target: 'spirv'");
}

TEST(ExportedCaseTest, HandWrittenProgramWithReference) {
  Artifact artifact = sampleArtifact();
  ExportedCase info = fuzzCase();
  info.seed = 0;
  info.program = "progs/nms.v2.mlir";
  info.inputs = "given";
  setExportedCase(artifact, info);
  EXPECT_EQ(artifact.meta.count("case.seed"), 0u);
  EXPECT_EQ(artifact.meta.at("case.program"), "progs/nms.v2.mlir");
  EXPECT_EQ(artifact.meta.at("case.expected"), "reference");
  Result<ExportedCase> read = getExportedCase(artifact);
  ASSERT_TRUE(read.ok()) << read.message();
  // The stem names the case: no folders, the last extension dropped.
  EXPECT_EQ(read->name(), "nms.v2-cpu-host");
  EXPECT_TRUE(read->hasReference);
  EXPECT_EQ(read->tolerances, std::vector<uint64_t>{0});
}

TEST(ExportedCaseTest, HandWrittenProgramWithoutReference) {
  Artifact artifact = sampleArtifact();
  artifact.expected.clear();
  ExportedCase info = fuzzCase();
  info.program = "sort.mlir";
  info.tolerances.clear();
  info.hasReference = false;
  info.noReferenceNote = "sift.sort (line 3) has a comparator region";
  setExportedCase(artifact, info);
  EXPECT_EQ(artifact.meta.at("case.expected"), "none");
  Result<ExportedCase> read = getExportedCase(artifact);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_FALSE(read->hasReference);
  EXPECT_EQ(read->noReferenceNote, info.noReferenceNote);
  EXPECT_TRUE(read->tolerances.empty());
  EXPECT_EQ(read->name(), "sort-cpu-host");
}

TEST(ExportedCaseTest, InconsistentCasesAreErrors) {
  // "none" while the artifact carries expected outputs.
  Artifact carries = sampleArtifact();
  ExportedCase info = fuzzCase();
  info.program = "p.mlir";
  info.hasReference = false;
  info.tolerances.clear();
  setExportedCase(carries, info);
  Result<ExportedCase> read = getExportedCase(carries);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("'case.expected' is none"), std::string::npos)
      << read.message();

  // A value that is neither reference nor none.
  Artifact odd = sampleArtifact();
  setExportedCase(odd, fuzzCase());
  odd.meta["case.expected"] = "maybe";
  read = getExportedCase(odd);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("'maybe'"), std::string::npos)
      << read.message();

  // Neither a seed nor a program.
  Artifact anonymous = sampleArtifact();
  setExportedCase(anonymous, fuzzCase());
  anonymous.meta.erase("case.seed");
  read = getExportedCase(anonymous);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("'case.seed'"), std::string::npos)
      << read.message();

  // A reference promised but not carried.
  Artifact missing = sampleArtifact();
  missing.expected.clear();
  setExportedCase(missing, fuzzCase());
  read = getExportedCase(missing);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("expected outputs"), std::string::npos)
      << read.message();

  // Inputs are needed either way.
  Artifact noInputs = sampleArtifact();
  noInputs.inputs.clear();
  noInputs.expected.clear();
  setExportedCase(noInputs, info);
  read = getExportedCase(noInputs);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("does not carry its inputs"), std::string::npos)
      << read.message();
}

} // namespace
