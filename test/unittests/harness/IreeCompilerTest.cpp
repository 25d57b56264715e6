//===- IreeCompilerTest.cpp - IREE behind the system-under-test seam ------===//
//
// What the harness asks of IREE, without a GPU: the forced configs'
// attribute text (fixed, and drawn from the seed: tiles that divide their
// dimension, never the sorted one, one thread for a 1-D op); the
// diagnostic line a signature is made of; and generated cases through
// IreeCompiler: compiled and run on the host, compiled with the static
// oracles for nvptx and amdgpu, a program IREE rejects as a compile error
// with its first diagnostic. Cases that need IREE fail without it, saying
// why (they skip only where the build makes IREE optional: RequireIree.h).
//
//===----------------------------------------------------------------------===//

#include "generators/ProgramBuilder.h"
#include "generators/InputGenerator.h"
#include "generators/ProgramGenerator.h"
#include "generators/ProgramJson.h"
#include "harness/case/CaseRunner.h"
#include "harness/sut/iree/IreeCompiler.h"
#include "harness/sut/iree/IreeConfigs.h"
#include "test/unittests/RequireIree.h"

#include <gtest/gtest.h>

#include <regex>

using namespace sift;
using namespace sift::harness;

namespace {

gen::Policy policy;
gen::Rng rng(3);

gen::Program sortProgram(std::vector<int64_t> shape, int64_t dimension) {
  gen::ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, std::move(shape)});
  std::vector<int> sorted = b.addSort({x}, dimension, gen::SortOrder::Ascending,
                                      gen::ComparatorKind::Less);
  b.addOutput(sorted[0]);
  return b.take();
}

} // namespace

TEST(IreeConfigs, FixedConfigsForceThePipelineOnSortAndTopK) {
  gen::Program program = sortProgram({4, 96}, 1);
  std::vector<std::string> tf = ireeOpAttributes(
      program, PipelineKind::IreeTileAndFuse, TargetKind::Nvptx, false, 1);
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_NE(tf[0].find("#iree_gpu.pipeline<TileAndFuse>"), std::string::npos);
  EXPECT_NE(tf[0].find("workgroup = [1, 0], thread = [1, 0]"),
            std::string::npos)
      << tf[0];
  EXPECT_NE(tf[0].find("subgroup_size = 32"), std::string::npos);
  std::vector<std::string> dist = ireeOpAttributes(
      program, PipelineKind::IreeDistribute, TargetKind::Amdgpu, false, 1);
  EXPECT_NE(dist[0].find("#iree_gpu.pipeline<Distribute>"), std::string::npos);
  EXPECT_NE(dist[0].find("tile_sizes = [[1, 0]]"), std::string::npos);
  EXPECT_NE(dist[0].find("subgroup_size = 64"), std::string::npos);
  // IREE's own choice: nothing forced.
  EXPECT_EQ(ireeOpAttributes(program, PipelineKind::Iree, TargetKind::Nvptx,
                             true, 1)[0],
            "");
  // A 1-D op has nothing to distribute: one thread.
  std::vector<std::string> flat = ireeOpAttributes(
      sortProgram({127}, 0), PipelineKind::IreeTileAndFuse, TargetKind::Nvptx,
      true, 5);
  EXPECT_NE(flat[0].find("workgroup_size = [1, 1, 1]"), std::string::npos)
      << flat[0];
  // Nor has one whose other dimensions are all empty (their tile is 0),
  // in either forced pipeline: IREE rejects more threads there.
  for (PipelineKind forced :
       {PipelineKind::IreeTileAndFuse, PipelineKind::IreeDistribute})
    for (uint64_t seed = 0; seed < 10; ++seed) {
      std::string text = ireeOpAttributes(sortProgram({7, 0}, 0), forced,
                                          TargetKind::Amdgpu, true, seed)[0];
      EXPECT_NE(text.find("workgroup_size = [1, 1, 1]"), std::string::npos)
          << text;
    }
  // One dimension left to spread: the drawn workgroup size stays.
  std::set<std::string> sizes;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::string text = ireeOpAttributes(sortProgram({7, 0, 16}, 0),
                                        PipelineKind::IreeTileAndFuse,
                                        TargetKind::Nvptx, true, seed)[0];
    sizes.insert(text.substr(text.find("workgroup_size")));
  }
  EXPECT_GT(sizes.size(), 1u);
}

TEST(IreeConfigs, RandomConfigsDivideTheirDimensionsAndFollowTheSeed) {
  gen::Program program = sortProgram({12, 8, 40}, 1);
  static const std::regex lists(
      R"(workgroup = \[(\d+), (\d+), (\d+)\], thread = \[(\d+), (\d+), (\d+)\])");
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    std::string text = ireeOpAttributes(program, PipelineKind::IreeTileAndFuse,
                                        TargetKind::Nvptx, true, seed)[0];
    EXPECT_EQ(text, ireeOpAttributes(program, PipelineKind::IreeTileAndFuse,
                                     TargetKind::Nvptx, true, seed)[0]);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, lists)) << text;
    int64_t wg[3], th[3], sizes[3] = {12, 8, 40};
    for (int d = 0; d < 3; ++d) {
      wg[d] = std::stoll(m[1 + d].str());
      th[d] = std::stoll(m[4 + d].str());
    }
    EXPECT_EQ(wg[1], 0);
    EXPECT_EQ(th[1], 0);
    for (int d : {0, 2}) {
      EXPECT_EQ(sizes[d] % wg[d], 0) << text;
      EXPECT_EQ(wg[d] % th[d], 0) << text;
    }
    seen.insert(text);
  }
  EXPECT_GT(seen.size(), 5u);
  // An empty dimension (legal in sift's programs) is left untiled.
  gen::Program empty = sortProgram({0, 8, 4}, 1);
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::string text = ireeOpAttributes(empty, PipelineKind::IreeTileAndFuse,
                                        TargetKind::Nvptx, true, seed)[0];
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, lists)) << text;
    EXPECT_EQ(m[1].str(), "0") << text;
    EXPECT_EQ(m[4].str(), "0") << text;
  }
}

TEST(IreeConfigs, InputPhaseOpsAreForcedFromTheirOwnShapes) {
  // What IREE's input phase writes for torch.aten.topk (a sort) and for a
  // top-k: the custom forms the annotation reads.
  const std::string text =
      "    %4:2 = iree_linalg_ext.sort dimension(1) outs(%1, %3 : "
      "tensor<?x6xf32>, tensor<?x6xi64>) {\n"
      "    ^bb0(%a: f32, %b: f32, %c: i64, %d: i64):\n"
      "    } -> tensor<?x6xf32>, tensor<?x6xi64>\n"
      "    %5:2 = iree_linalg_ext.topk dimension(0) ins(%x, %i : "
      "tensor<12x3xf32>, tensor<12x3xi32>) outs(%v, %j : tensor<2x3xf32>, "
      "tensor<2x3xi32>) {\n";
  int forced = -1;
  Result<std::string> fixed =
      forceLinalgExtOps(text, PipelineKind::IreeTileAndFuse,
                        TargetKind::Nvptx, false, 1, forced);
  ASSERT_TRUE(fixed.ok()) << fixed.message();
  EXPECT_EQ(forced, 2);
  // The sort iterates over [?, 6] along 1, the top-k over its input
  // [12, 3] along 0.
  EXPECT_NE(fixed->find("iree_linalg_ext.sort {compilation_info = "
                        "#iree_codegen.compilation_info<lowering_config = "
                        "#iree_gpu.lowering_config<{workgroup = [1, 0], "
                        "thread = [1, 0]}>"),
            std::string::npos)
      << *fixed;
  EXPECT_NE(fixed->find("iree_linalg_ext.topk {compilation_info = "
                        "#iree_codegen.compilation_info<lowering_config = "
                        "#iree_gpu.lowering_config<{workgroup = [0, 1], "
                        "thread = [0, 1]}>"),
            std::string::npos)
      << *fixed;
  // Forced ops are left alone: annotating twice changes nothing.
  int again = -1;
  Result<std::string> twice =
      forceLinalgExtOps(*fixed, PipelineKind::IreeTileAndFuse,
                        TargetKind::Nvptx, false, 1, again);
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(again, 0);
  EXPECT_EQ(*twice, *fixed);
  // Random configs: a dynamic size gets a tile of 1 to 8; a static one a
  // divisor.
  static const std::regex lists(
      R"(topk \{[^\n]*workgroup = \[0, (\d+)\], thread = \[0, (\d+)\])");
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Result<std::string> drawn =
        forceLinalgExtOps(text, PipelineKind::IreeTileAndFuse,
                          TargetKind::Amdgpu, true, seed, forced);
    ASSERT_TRUE(drawn.ok());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(*drawn, m, lists)) << *drawn;
    EXPECT_EQ(3 % std::stoll(m[1].str()), 0) << m[0];
    seen.insert(drawn->substr(0, drawn->find('\n')));
  }
  EXPECT_GT(seen.size(), 2u);
  // An op it cannot read is an error naming it.
  Result<std::string> bad = forceLinalgExtOps(
      "%4:2 = iree_linalg_ext.sort outs(%1 : tensor<6xf32>) {\n",
      PipelineKind::IreeDistribute, TargetKind::Nvptx, false, 1, forced);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("iree_linalg_ext.sort"), std::string::npos);
}

TEST(IreeConfigs, AForcedConfigOverTheChipsMemoryIsRejectedNotABug) {
  EXPECT_NE(forcedConfigRejection("function 'DISPATCH' uses 70000 bytes of "
                                  "shared memory; exceeded the limit of "
                                  "65536 bytes"),
            "");
  EXPECT_EQ(forcedConfigRejection("failed to bufferize op"), "");
  // The size of an allocation along a dynamic dimension is IREE's bug.
  EXPECT_EQ(forcedConfigRejection("function 'DISPATCH' uses "
                                  "36028797018963964 bytes of shared memory; "
                                  "exceeded the limit of 101376 bytes"),
            "");
  EXPECT_EQ(forcedConfigRejection("stack frame size (N) exceeds limit (N) in "
                                  "function 'DISPATCH'"),
            "");
}

TEST(IreeCompiler, DiagnosticLineWithoutItsLocation) {
  EXPECT_EQ(ireeDiagnostic("/tmp/x/program.mlir:23:13: error: failed to "
                           "bufferize op\n  %s = ...\nnote: see current",
                           "fallback"),
            "failed to bufferize op");
  EXPECT_EQ(ireeDiagnostic("iree-compile: foo.cpp:12: void f(): Assertion "
                           "`x && \"bad\"' failed.\nStack dump:",
                           "fallback"),
            "Assertion `x && \"bad\"' failed.");
  EXPECT_EQ(ireeDiagnostic("nothing useful", "fallback"), "fallback");
  // Dispatch names carry shapes: one name for all.
  EXPECT_EQ(ireeDiagnostic("x.mlir:1:2: error: function "
                           "'main_dispatch_0_topk_17x2039xf32_dispatch_tensor_"
                           "store' uses 70000 bytes of shared memory",
                           "fallback"),
            "function 'DISPATCH' uses 70000 bytes of shared memory");
}

TEST(IreeCompiler, GeneratedCasesOnEveryTarget) {
  Result<IreeToolchain> toolchain = findIree();
  if (!toolchain.ok())
    SIFT_NEEDS_IREE(toolchain.message());
  IreeCompiler iree(*toolchain);
  auto cpu = rt::createDevice(rt::DeviceKind::Cpu);
  ASSERT_TRUE(cpu.ok());
  CaseOptions options;
  options.pipeline = PipelineKind::Iree;
  options.target = TargetKind::Host;
  options.policy.familyWeights = {1, 1, 0};
  options.policy.allowInexactKeys = false;
  options.policy.allowBf16 = false; // as a campaign's IREE runs
  int ran = 0;
  const std::pair<gen::FrontEnd, const char *> frontEnds[] = {
      {gen::FrontEnd::LinalgExt, "iree_linalg_ext."},
      {gen::FrontEnd::Torch, "torch.aten."},
      {gen::FrontEnd::Onnx, "torch.operator \"onnx."}};
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    auto [frontEnd, marker] = frontEnds[seed % 3];
    options.frontEnd = frontEnd;
    CaseResult result = runGeneratedCase(iree, **cpu, options, seed);
    EXPECT_EQ(result.systemVersion, toolchain->version);
    EXPECT_EQ(result.frontEnd, frontEnd);
    EXPECT_NE(result.mlir.find(marker), std::string::npos) << marker;
    if (result.verdict == oracle::Verdict::Pass) {
      EXPECT_TRUE(result.ran);
      EXPECT_FALSE(result.ireeModule.empty());
      ++ran;
    }
  }
  EXPECT_GT(ran, 0);
  // GPU targets compile, pass the static oracles, and do not run here.
  options.frontEnd = gen::FrontEnd::LinalgExt;
  for (TargetKind target : {TargetKind::Nvptx, TargetKind::Amdgpu}) {
    options.pipeline = PipelineKind::IreeDistribute;
    options.target = target;
    options.chip = target == TargetKind::Nvptx ? "sm_80" : "";
    CaseResult result = runProgramCase(
        iree, **cpu, options, sortProgram({4, 64}, 1),
        {HostTensor(ElementType::F32, {4, 64})}, 7);
    EXPECT_EQ(result.verdict, oracle::Verdict::Pass) << result.detail;
    EXPECT_TRUE(result.compiled);
    EXPECT_FALSE(result.ran);
    EXPECT_NE(result.mlir.find("#iree_gpu.pipeline<Distribute>"),
              std::string::npos);
  }
  // Torch and ONNX programs are forced after IREE's input phase: the text
  // compiled (and kept) is IREE input with the compilation_info on its
  // sorts.
  options.target = TargetKind::Nvptx;
  options.chip = "sm_80";
  for (gen::FrontEnd frontEnd : {gen::FrontEnd::Torch, gen::FrontEnd::Onnx}) {
    options.frontEnd = frontEnd;
    options.pipeline = PipelineKind::IreeTileAndFuse;
    CaseResult result = runProgramCase(
        iree, **cpu, options, sortProgram({4, 64}, 1),
        {HostTensor(ElementType::F32, {4, 64})}, 7);
    EXPECT_EQ(result.verdict, oracle::Verdict::Pass) << result.detail;
    EXPECT_TRUE(result.compiled);
    EXPECT_EQ(result.frontEnd, frontEnd);
    EXPECT_NE(result.mlir.find("iree_linalg_ext.sort {compilation_info = "),
              std::string::npos)
        << result.mlir;
    EXPECT_EQ(result.mlir.find("torch.vtensor"), std::string::npos);
  }
}

TEST(IreeCompiler, ARejectedProgramIsACompileErrorWithItsDiagnostic) {
  Result<IreeToolchain> toolchain = findIree();
  if (!toolchain.ok())
    SIFT_NEEDS_IREE(toolchain.message());
  IreeCompiler iree(*toolchain);
  CaseOptions options;
  options.pipeline = PipelineKind::Iree;
  options.target = TargetKind::Host;
  CaseResult result = iree.compileText(
      options, "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
               "  %0 = arith.addf %a, %a : tensor<4xi32>\n"
               "  return %0 : tensor<4xf32>\n}\n",
      "bad.mlir", 1);
  EXPECT_EQ(result.verdict, oracle::Verdict::CompileError);
  EXPECT_EQ(result.stage.text(), "compile");
  std::string first = result.detail.substr(0, result.detail.find('\n'));
  EXPECT_EQ(first.find("program.mlir"), std::string::npos) << first;
  EXPECT_NE(result.detail.find("iree-compile program.mlir "
                               "--iree-hal-target-device=local"),
            std::string::npos)
      << result.detail;
}

TEST(IreeExport, ACaseRegeneratesItsInputsFromItsModelAndSeed) {
  // An exported IREE case may travel without its .npy files: sift-run
  // regenerates the inputs from the program model read back from JSON and
  // the seed. Those must be the bytes the campaign ran.
  gen::Policy p;
  p.familyWeights = {1, 1, 0};
  for (uint64_t seed = 1; seed <= 60; ++seed)
    for (gen::InputMode mode : {gen::InputMode::Mixed, gen::InputMode::Ties,
                                gen::InputMode::Special}) {
      gen::Program program = gen::generateProgram(p, seed);
      Result<gen::Program> back =
          gen::programFromJson(gen::programToJson(program));
      ASSERT_TRUE(back.ok()) << back.message();
      std::vector<HostTensor> ran = gen::generateInputs(program, mode, seed);
      std::vector<HostTensor> again = gen::generateInputs(*back, mode, seed);
      ASSERT_EQ(ran.size(), again.size());
      for (size_t i = 0; i < ran.size(); ++i) {
        EXPECT_EQ(ran[i].shape, again[i].shape) << seed;
        EXPECT_EQ(ran[i].data, again[i].data) << "seed " << seed << " input "
                                              << i;
      }
    }
}
