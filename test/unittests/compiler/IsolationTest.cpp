//===- IsolationTest.cpp - Cases in child processes -----------------------===//
//
// runIsolated survives whatever its child does: a report comes back with
// its detail intact (line breaks included); a child killed by a signal in
// a pass is a compile-crash naming the pass it last announced and the
// signal; one that overruns is a compile-timeout or run-timeout by phase.
//
//===----------------------------------------------------------------------===//

#include "harness/Isolation.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
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
        result.stage = "static:some-pass";
        result.detail = "first line\n\tsecond line \\n";
        result.reproducer = "module {\n}\n";
        return result;
      },
      nullptr, quick(30));
  ASSERT_TRUE(outcome.reported);
  EXPECT_EQ(outcome.verdict, oracle::Verdict::MallocInKernel);
  EXPECT_EQ(outcome.stage, "static:some-pass");
  EXPECT_EQ(outcome.detail, "first line\n\tsecond line \\n");
  EXPECT_EQ(outcome.reproducer, "module {\n}\n");
}

TEST(Isolation, ASignalInAPassIsACrashNamingIt) {
  IsolatedOutcome outcome = runIsolated(
      [](const Phase &phase) -> CaseResult {
        phase("compile");
        phase("compile:sift-tile-and-fuse");
        std::fprintf(stderr, "something went wrong: error in the pass\n");
        std::raise(SIGSEGV);
        return {};
      },
      nullptr, quick(30));
  EXPECT_FALSE(outcome.reported);
  EXPECT_EQ(outcome.signal, SIGSEGV);
  oracle::Verdict verdict;
  std::string stage, detail;
  describeUnreported(outcome, verdict, stage, detail);
  EXPECT_EQ(verdict, oracle::Verdict::CompileCrash);
  EXPECT_EQ(stage, "compile:sift-tile-and-fuse");
  EXPECT_NE(detail.find("something went wrong: error in the pass"),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find("killed by signal 11"), std::string::npos) << detail;
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
    std::string stage, detail;
    describeUnreported(outcome, verdict, stage, detail);
    bool run = std::string(where) == "run";
    EXPECT_EQ(verdict, run ? oracle::Verdict::RunTimeout
                           : oracle::Verdict::CompileTimeout);
    EXPECT_EQ(stage, where);
  }
}
