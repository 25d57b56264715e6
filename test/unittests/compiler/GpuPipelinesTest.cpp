//===- GpuPipelinesTest.cpp - Generated cases through the GPU pipelines ---===//
//
// Every GPU pipeline and target compiles generated programs with no static
// finding (default and random lowering configs), and the injected faults
// that re-create GPU bug classes are caught with their verdict and the pass
// that introduced them. No GPU is needed: these are the static verdicts.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseRunner.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "oracles/Verdict.h"
#include "runtime/Device.h"

#include <gtest/gtest.h>

#include <string>

using namespace sift;
using namespace sift::harness;

namespace {

constexpr uint64_t kSeeds = 30;

class GpuPipelinesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    session_ = new SiftCompiler();
    auto device = rt::createDevice(rt::DeviceKind::Cpu);
    ASSERT_TRUE(device.ok()) << device.message();
    device_ = device->release();
  }
  static void TearDownTestSuite() {
    delete device_;
    delete session_;
  }

  /// Runs seeds [0, kSeeds) with `options`; returns how many got `verdict`
  /// and fails the test on any other non-pass verdict.
  static int count(const CaseOptions &options, oracle::Verdict verdict,
                   std::string *firstStage = nullptr) {
    int hits = 0;
    for (uint64_t seed = 0; seed < kSeeds; ++seed) {
      CaseResult result = runGeneratedCase(*session_, *device_, options, seed);
      if (result.verdict == verdict) {
        if (hits++ == 0 && firstStage)
          *firstStage = result.stage.text();
        continue;
      }
      EXPECT_EQ(result.verdict, oracle::Verdict::Pass)
          << "seed " << seed << " " << toString(options.pipeline) << "/"
          << toString(options.target) << ": " << result.stage.text() << ": "
          << result.detail;
    }
    return hits;
  }

  static SiftCompiler *session_;
  static rt::Device *device_;
};

SiftCompiler *GpuPipelinesTest::session_ = nullptr;
rt::Device *GpuPipelinesTest::device_ = nullptr;

TEST_F(GpuPipelinesTest, CleanCompilerHasNoStaticFindings) {
  for (PipelineKind pipeline :
       {PipelineKind::TileAndFuse, PipelineKind::Distribute})
    for (TargetKind target : {TargetKind::Nvptx, TargetKind::Amdgpu})
      for (bool random : {false, true}) {
        CaseOptions options;
        options.pipeline = pipeline;
        options.target = target;
        options.randomConfig = random;
        EXPECT_EQ(count(options, oracle::Verdict::Pass), int(kSeeds))
            << toString(pipeline) << "/" << toString(target)
            << (random ? " random configs" : "");
      }
}

/// Each implemented GPU fault is caught with its verdict, attributed to the
/// first pass where the kernel exists.
TEST_F(GpuPipelinesTest, InjectedFaultsAreCaught) {
  struct Expectation {
    Fault fault;
    PipelineKind pipeline;
    TargetKind target;
    oracle::Verdict verdict;
  };
  for (const Expectation &e :
       {Expectation{Fault::DistUndistributedWrite, PipelineKind::Distribute,
                    TargetKind::Nvptx, oracle::Verdict::UndistributedWrite},
        Expectation{Fault::TfGlobalTemp, PipelineKind::TileAndFuse,
                    TargetKind::Amdgpu, oracle::Verdict::MallocInKernel}}) {
    CaseOptions options;
    options.pipeline = e.pipeline;
    options.target = e.target;
    options.faults.insert(e.fault);
    std::string stage;
    EXPECT_GT(count(options, e.verdict, &stage), 0) << toString(e.fault);
    EXPECT_EQ(stage, "static:convert-parallel-loops-to-gpu")
        << toString(e.fault);
  }
}

} // namespace
