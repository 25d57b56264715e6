//===- IsolationTest.cpp - Cases in child processes -----------------------===//
//
// runIsolated survives whatever its child does: a report comes back with
// its detail intact (line breaks included); a child killed by a signal in
// a pass is a compile-crash naming the pass it last announced and the
// signal; one that overruns is a compile-timeout or run-timeout by phase.
//
//===----------------------------------------------------------------------===//

#include "harness/case/Isolation.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <vector>
#include <thread>

using namespace sift;
using namespace sift::harness;

namespace {

using Phase = std::function<void(const char *)>;

IsolationLimits quick(double seconds) {
  IsolationLimits limits;
  limits.timeoutSeconds = seconds;
  return limits;
}

} // namespace

TEST(Isolation, ReportsTheChildsResult) {
  IsolatedOutcome outcome = runIsolated(
      [](const Phase &phase) {
        phase("compile");
        CaseResult result;
        result.verdict = oracle::Verdict::MallocInKernel;
        result.stage = Stage(Step::Static, "some-pass");
        result.detail = "first line\n\tsecond line \\n";
        result.reproducer = "module {\n}\n";
        return result;
      },
      nullptr, quick(30));
  ASSERT_TRUE(outcome.reported);
  EXPECT_EQ(outcome.verdict, oracle::Verdict::MallocInKernel);
  EXPECT_EQ(outcome.stage.text(), "static:some-pass");
  EXPECT_EQ(outcome.detail, "first line\n\tsecond line \\n");
  EXPECT_EQ(outcome.reproducer, "module {\n}\n");
}

TEST(Isolation, ASignalInAPassIsACrashNamingIt) {
  IsolatedOutcome outcome = runIsolated(
      [](const Phase &phase) -> CaseResult {
        phase("compile");
        phase("compile:sift-tile-and-fuse");
        std::fprintf(stderr, "something went wrong: error in the pass\n");
        // The default action, also where a sanitizer would catch the signal
        // and exit instead.
        std::signal(SIGSEGV, SIG_DFL);
        std::raise(SIGSEGV);
        return {};
      },
      nullptr, quick(30));
  EXPECT_FALSE(outcome.reported);
  EXPECT_EQ(outcome.signal, SIGSEGV);
  oracle::Verdict verdict;
  Stage stage;
  std::string detail;
  describeUnreported(outcome, verdict, stage, detail);
  EXPECT_EQ(verdict, oracle::Verdict::CompileCrash);
  EXPECT_EQ(stage.text(), "compile:sift-tile-and-fuse");
  EXPECT_NE(detail.find("something went wrong: error in the pass"),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find("killed by signal 11"), std::string::npos) << detail;
}

TEST(Isolation, AMemoryBlowUpIsACrashNamingTheLimit) {
  IsolationLimits limits = quick(120);
  limits.memoryBytes = uint64_t(1) << 30;
  IsolatedOutcome outcome = runIsolated(
      [](const Phase &phase) -> CaseResult {
        phase("compile");
        phase("compile:sift-greedy-pass");
        // Up to 8 GiB in touched 64 MiB blocks: the limit stops it first,
        // as an address-space limit (operator new fails) or, in sanitizer
        // builds, as resident memory the parent sees grow.
        static volatile char sink;
        std::vector<std::unique_ptr<char[]>> blocks;
        const size_t block = size_t(64) << 20;
        for (int i = 0; i < 128; ++i) {
          blocks.emplace_back(new char[block]);
          std::memset(blocks.back().get(), i + 1, block);
          sink = blocks.back()[block / 2];
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        (void)sink;
        return {};
      },
      nullptr, limits);
  EXPECT_FALSE(outcome.reported);
  oracle::Verdict verdict;
  Stage stage;
  std::string detail;
  describeUnreported(outcome, verdict, stage, detail);
  EXPECT_EQ(verdict, oracle::Verdict::CompileCrash);
  EXPECT_EQ(stage.text(), "compile:sift-greedy-pass");
  EXPECT_NE(detail.find("out of memory: the case passed the memory limit of "
                        "1G"),
            std::string::npos)
      << detail;
}

TEST(Isolation, ByteCountsForMessages) {
  EXPECT_EQ(bytesText(uint64_t(4) << 30), "4G");
  EXPECT_EQ(bytesText(uint64_t(512) << 20), "512M");
  EXPECT_EQ(bytesText(uint64_t(1536) << 10), "1536K");
  EXPECT_EQ(bytesText(100), "100 bytes");
  EXPECT_EQ(bytesText(0), "0 bytes");
}

TEST(Isolation, OverrunsAreTimeoutsByPhase) {
  for (const char *where : {"compile:sift-lower-to-loops", "run"}) {
    IsolatedOutcome outcome = runIsolated(
        [where](const Phase &phase) -> CaseResult {
          phase(where);
          std::this_thread::sleep_for(std::chrono::seconds(30));
          return {};
        },
        nullptr, quick(0.5));
    EXPECT_TRUE(outcome.timedOut);
    oracle::Verdict verdict;
    Stage stage;
  std::string detail;
    describeUnreported(outcome, verdict, stage, detail);
    bool run = std::string(where) == "run";
    EXPECT_EQ(verdict, run ? oracle::Verdict::RunTimeout
                           : oracle::Verdict::CompileTimeout);
    EXPECT_EQ(stage.text(), where);
  }
}
