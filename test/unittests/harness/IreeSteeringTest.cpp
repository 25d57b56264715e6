//===- IreeSteeringTest.cpp - Steering around IREE's known bugs -----------===//
//
// known.json's `steer` rules load (a malformed one is an error naming the
// file and the root cause; a fixed root cause has none), a program's
// features are read right (unused results, casts, families), the rules
// spell a case static or skip it, and a steered finding's case folder
// records it so a replay spells it the same.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/iree/IreeSteering.h"
#include "generators/InputGenerator.h"
#include "generators/ProgramBuilder.h"
#include "harness/case/CaseFolder.h"
#include "harness/store/KnownCauses.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sift;
using namespace sift::harness;
namespace fs = std::filesystem;

namespace {

gen::Policy policy;

/// known.json with one root cause R`n` whose state and steer are given.
std::string writeKnown(const std::string &name, const std::string &state,
                       const std::string &steer) {
  fs::path path = fs::temp_directory_path() /
                  ("sift-steer-" + std::to_string(getpid()) + "-" + name);
  std::ofstream(path) << R"({"format": "sift-known 1", "root_causes": {"R4": )"
                      << R"({"state": ")" << state << R"(", "signatures": [],)"
                      << R"( "steer": )" << steer << "}}}";
  return path.string();
}

/// sort(x) keeping only the key when `dropPayload`, over an f64 input
/// truncated to f16 when `truncate`.
gen::Program program(bool dropPayload, bool truncate) {
  gen::Rng rng(1);
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F64, {4, 8}});
  int key = truncate
                ? b.addElementwise(gen::EwKind::TruncF, {x}, ElementType::F16)
                : b.addElementwise(gen::EwKind::NegF, {x}, ElementType::F64);
  int payload = b.addInput({ElementType::I32, {4, 8}});
  std::vector<int> sorted = b.addSort(
      {key, payload}, 1, gen::SortOrder::Ascending, gen::ComparatorKind::Less);
  b.addOutput(sorted[0]);
  if (!dropPayload)
    b.addOutput(sorted[1]);
  return b.take();
}

} // namespace

TEST(KnownCauses, TheCorpusSteersAroundItsOpenCompileBugs) {
  Result<KnownCauses> known = KnownCauses::load(defaultKnownCausesPath());
  ASSERT_TRUE(known.ok()) << known.message();
  std::vector<std::string> ids;
  for (const SteerRule &rule : known->steerRules())
    ids.push_back(rule.id + ":" + toString(rule.then));
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "R2:skip", "R2:skip", "R3:static_dims", "R4:static_dims",
                     "R5:static_dims", "R6:static_dims", "R16:skip"}));
}

TEST(KnownCauses, AMalformedSteerNamesTheFileAndTheRootCause) {
  for (const char *steer :
       {R"({"when": {"dynamic": true}, "then": "skip"})",
        R"({"when": {}, "then": "static_dims"})",
        R"({"when": {"targets": "host"}, "then": "skip"})",
        R"({"when": {"unused_result": false}, "then": "skip"})",
        R"({"when": {}, "then": "later"})", R"("skip")",
        R"([{"when": {}, "then": "skip"}, {"when": {}}])"}) {
    std::string path = writeKnown("bad.json", "open", steer);
    Result<KnownCauses> known = KnownCauses::load(path);
    ASSERT_FALSE(known.ok()) << steer;
    EXPECT_NE(known.message().find(path + ": R4: \"steer\""), std::string::npos)
        << known.message();
    fs::remove(path);
  }
  // A fixed root cause is not steered around; a null steer is none.
  for (auto [state, steer] :
       {std::pair{"fixed in 3.14.0", R"({"when": {}, "then": "skip"})"},
        std::pair{"open", "null"}}) {
    std::string path = writeKnown("fixed.json", state, steer);
    Result<KnownCauses> known = KnownCauses::load(path);
    ASSERT_TRUE(known.ok()) << known.message();
    EXPECT_TRUE(known->steerRules().empty()) << state;
    fs::remove(path);
  }
}

TEST(IreeSteering, ReadsTheProgramsFeatures) {
  SteerFacts kept = steerFacts(program(false, false), gen::FrontEnd::Torch,
                               TargetKind::Nvptx, {});
  EXPECT_EQ(kept.frontEnd, "torch");
  EXPECT_EQ(kept.target, "nvptx");
  EXPECT_EQ(kept.families, std::vector<std::string>{"sort"});
  EXPECT_FALSE(kept.unusedResult);
  EXPECT_TRUE(kept.casts.empty()); // negf is no conversion
  EXPECT_FALSE(kept.dynamicDims);

  SteerFacts dropped = steerFacts(program(true, true), gen::FrontEnd::Onnx,
                                  TargetKind::Host, {{false, true}});
  EXPECT_TRUE(dropped.unusedResult);
  EXPECT_TRUE(dropped.unusedOfInput); // the payload is an argument
  EXPECT_EQ(dropped.casts, std::vector<std::string>{"f64->f16"});
  EXPECT_TRUE(dropped.dynamicDims);
}

TEST(IreeSteering, StaticDimsFirstThenTheFirstSkip) {
  SteerRule staticRule{"R4", {}, SteerRule::Then::StaticDims};
  staticRule.when.unusedResult = staticRule.when.dynamicDims = true;
  SteerRule skipDynamic{"R9", {}, SteerRule::Then::Skip};
  skipDynamic.when.dynamicDims = true;
  SteerRule skipCast{"R16", {}, SteerRule::Then::Skip};
  skipCast.when.targets = {"host"};
  skipCast.when.casts = {"f64->f16"};
  std::vector<SteerRule> rules = {skipDynamic, staticRule, skipCast};

  // An unused payload with dynamic dimensions: spelled static, so the
  // rule on dynamic dimensions no longer holds; the cast is skipped.
  gen::DynamicDims dims = {{true, false}, {false, false}};
  SteerOutcome both =
      steerCase(rules, program(true, true), gen::FrontEnd::LinalgExt,
                TargetKind::Host, dims);
  EXPECT_TRUE(both.staticDims);
  EXPECT_TRUE(dims.empty());
  EXPECT_EQ(both.applied,
            (std::vector<std::string>{"R4:static_dims", "R16:skip"}));
  EXPECT_EQ(both.skippedBy, "R16");

  // Every result used: the dynamic spelling stays, and is skipped by R9;
  // on nvptx the cast rule does not hold.
  dims = {{true, false}};
  SteerOutcome skipped =
      steerCase(rules, program(false, true), gen::FrontEnd::LinalgExt,
                TargetKind::Nvptx, dims);
  EXPECT_FALSE(skipped.staticDims);
  EXPECT_EQ(dims.size(), 1u);
  EXPECT_EQ(skipped.applied, std::vector<std::string>{"R9:skip"});

  // Nothing holds: nothing applied.
  dims.clear();
  SteerOutcome none = steerCase(rules, program(false, false),
                                gen::FrontEnd::Torch, TargetKind::Host, dims);
  EXPECT_TRUE(none.applied.empty());
  EXPECT_TRUE(none.skippedBy.empty());
}

TEST(IreeSteering, ASteeredFindingsFolderReplaysStatic) {
  CaseOptions options;
  options.pipeline = PipelineKind::Iree;
  options.target = TargetKind::Host;
  CaseResult result;
  result.seed = 7;
  result.pipeline = options.pipeline;
  result.target = options.target;
  result.program = program(true, false);
  result.inputs = gen::generateInputs(result.program, gen::InputMode::Mixed, 7);
  result.frontEnd = gen::FrontEnd::LinalgExt;
  result.verdict = oracle::Verdict::CompileError;
  result.stage = Stage(Step::Compile);
  result.detail = "error: something";
  result.coverage = {"family=sort", "steered=R4:static_dims"};
  fs::path parent = fs::temp_directory_path() /
                    ("sift-steer-case-" + std::to_string(getpid()));
  fs::remove_all(parent);
  Result<std::string> folder =
      writeCaseFolder(parent.string(), result, options, "harness replay");
  ASSERT_TRUE(folder.ok()) << folder.message();
  Result<StoredCase> stored = loadCaseFolder(*folder);
  ASSERT_TRUE(stored.ok()) << stored.message();
  EXPECT_TRUE(stored->options.staticDims);
  std::ifstream in(fs::path(*folder) / "case.json");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("\"R4:static_dims\""), std::string::npos) << text;

  // Unsteered: no field, and a replay draws the dimensions from the seed.
  result.coverage = {"family=sort"};
  result.seed = 8;
  folder = writeCaseFolder(parent.string(), result, options, "");
  ASSERT_TRUE(folder.ok()) << folder.message();
  stored = loadCaseFolder(*folder);
  ASSERT_TRUE(stored.ok()) << stored.message();
  EXPECT_FALSE(stored->options.staticDims);
  fs::remove_all(parent);
}
