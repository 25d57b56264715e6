//===- WorkerPoolTest.cpp - Long-lived isolated workers -------------------===//
//
// A WorkerPool runs many requests in few workers, delivers outcomes in
// submission order, and a worker that crashes or hangs costs exactly its
// case: the verdict names the phase, and the next case runs in a fresh
// worker. Whole results (CaseWire) come back for findings only, unless
// asked for, with their tensors and text intact.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseWire.h"
#include "harness/case/WorkerPool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <set>
#include <thread>
#include <unistd.h>

using namespace sift;
using namespace sift::harness;

namespace {

using Phase = std::function<void(const char *)>;

IsolationLimits quick(double seconds) {
  IsolationLimits limits;
  limits.timeoutSeconds = seconds;
  return limits;
}

/// Request "N": a case whose detail is the worker's pid and N; "crash N"
/// dies by SIGSEGV in a pass, "hang N" sleeps in the run, "find N" is a
/// mismatch with a tensor.
CaseResult handle(const std::string &request, const Phase &phase) {
  phase("compile");
  CaseResult result;
  result.seed = std::strtoull(request.c_str() + request.find(' ') + 1,
                              nullptr, 10);
  result.detail = std::to_string(getpid());
  if (request.rfind("late-crash", 0) == 0) {
    // A static finding after an early pass, then a crash in a later one.
    phase("compile:sift-workgroup-rows");
    phase(earlyFindingPhase({oracle::Verdict::SmemOverflow,
                             Stage(Step::Static, "sift-workgroup-rows"),
                             "workgroup memory over the budget\nkernel k\t1"})
              .c_str());
    phase("compile:gpu-module-to-binary");
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (request.rfind("crash", 0) == 0) {
    phase("compile:sift-lower-to-loops");
    std::fprintf(stderr, "error: the pass broke\n");
    std::signal(SIGSEGV, SIG_DFL);
    std::raise(SIGSEGV);
  }
  if (request.rfind("nap", 0) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (request.rfind("hang", 0) == 0) {
    phase("run");
    std::this_thread::sleep_for(std::chrono::seconds(30));
  }
  if (request.rfind("find", 0) == 0) {
    result.verdict = oracle::Verdict::Mismatch;
    result.stage = Stage(Step::Compare);
    result.mlir = "module {\n}\n";
    HostTensor tensor(ElementType::I32, {2});
    tensor.data.assign(8, 7);
    result.actual.push_back(tensor);
  }
  return result;
}

} // namespace

TEST(WorkerPool, ReusesWorkersAndKeepsOrder) {
  WorkerPool pool(2, handle, nullptr, quick(30));
  std::vector<uint64_t> seeds;
  std::set<std::string> pids;
  for (int i = 0; i < 20; ++i)
    pool.submit("ok " + std::to_string(i), false,
                [&, i](const IsolatedOutcome &outcome) {
                  ASSERT_TRUE(outcome.reported);
                  EXPECT_EQ(outcome.verdict, oracle::Verdict::Pass);
                  // A pass comes back as its summary only.
                  ASSERT_NE(outcome.result, nullptr);
                  EXPECT_FALSE(outcome.resultIsFull);
                  EXPECT_EQ(outcome.result->seed, static_cast<uint64_t>(i));
                  EXPECT_TRUE(outcome.result->mlir.empty());
                  pids.insert(outcome.detail);
                  seeds.push_back(seeds.size());
                });
  pool.drain();
  EXPECT_EQ(seeds.size(), 20u);
  EXPECT_LE(pool.workersStarted(), 2u);
  EXPECT_LE(pids.size(), 2u);
}

TEST(WorkerPool, ACrashCostsOneCaseAndAFreshWorker) {
  WorkerPool pool(1, handle, nullptr, quick(30));
  std::vector<IsolatedOutcome> outcomes;
  for (const char *request : {"ok 1", "crash 2", "ok 3"})
    pool.submit(request, false, [&](const IsolatedOutcome &outcome) {
      outcomes.push_back(outcome);
    });
  pool.drain();
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(outcomes[0].reported);
  EXPECT_FALSE(outcomes[1].reported);
  EXPECT_EQ(outcomes[1].signal, SIGSEGV);
  oracle::Verdict verdict;
  Stage stage;
  std::string detail;
  describeUnreported(outcomes[1], verdict, stage, detail);
  EXPECT_EQ(verdict, oracle::Verdict::CompileCrash);
  EXPECT_EQ(stage.text(), "compile:sift-lower-to-loops");
  EXPECT_NE(detail.find("the pass broke"), std::string::npos) << detail;
  ASSERT_TRUE(outcomes[2].reported);
  EXPECT_NE(outcomes[0].detail, outcomes[2].detail); // another worker
  EXPECT_EQ(pool.workersStarted(), 2u);
}

TEST(WorkerPool, AHangIsATimeoutAndTheNextCaseRuns) {
  WorkerPool pool(1, handle, nullptr, quick(0.5));
  std::vector<IsolatedOutcome> outcomes;
  for (const char *request : {"hang 1", "ok 2"})
    pool.submit(request, false, [&](const IsolatedOutcome &outcome) {
      outcomes.push_back(outcome);
    });
  pool.drain();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].timedOut);
  EXPECT_EQ(outcomes[0].phase, "run");
  EXPECT_TRUE(outcomes[1].reported);
}

// A campaign past its deadline drops the queued requests whole: a group
// (here a case's runs, the first ending in " 0") is dropped only when none
// of it has started, and the dropped requests are never delivered.
TEST(WorkerPool, DropsOnlyWholeUnstartedGroups) {
  auto first = [](const std::string &request) {
    return request.size() > 2 && request.substr(request.size() - 2) == " 0";
  };
  {
    WorkerPool pool(2, handle, nullptr, quick(30));
    std::vector<std::string> delivered;
    for (const char *request : {"nap 1 0", "nap 1 1", "ok 2 0", "ok 2 1"})
      pool.submit(request, false, [&, request](const IsolatedOutcome &) {
        delivered.push_back(request);
      });
    EXPECT_EQ(pool.dropUnstarted(first), 1u);
    pool.drain();
    EXPECT_EQ(delivered, (std::vector<std::string>{"nap 1 0", "nap 1 1"}));
  }
  {
    // The second run of a started case stays: its case is half done.
    WorkerPool pool(1, handle, nullptr, quick(30));
    std::vector<std::string> delivered;
    for (const char *request : {"nap 3 0", "ok 3 1"})
      pool.submit(request, false, [&, request](const IsolatedOutcome &) {
        delivered.push_back(request);
      });
    EXPECT_EQ(pool.dropUnstarted(first), 0u);
    pool.drain();
    EXPECT_EQ(delivered, (std::vector<std::string>{"nap 3 0", "ok 3 1"}));
  }
}

TEST(WorkerPool, FindingsComeBackWhole) {
  WorkerPool pool(1, handle, nullptr, quick(30));
  std::shared_ptr<const CaseResult> found, asked;
  pool.submit("find 5", false, [&](const IsolatedOutcome &outcome) {
    found = outcome.result;
  });
  pool.submit("ok 6", true, [&](const IsolatedOutcome &outcome) {
    asked = outcome.result;
  });
  pool.drain();
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->verdict, oracle::Verdict::Mismatch);
  EXPECT_EQ(found->seed, 5u);
  EXPECT_EQ(found->mlir, "module {\n}\n");
  ASSERT_EQ(found->actual.size(), 1u);
  EXPECT_EQ(found->actual[0].data, std::vector<uint8_t>(8, 7));
  ASSERT_NE(asked, nullptr);
  EXPECT_EQ(asked->seed, 6u);
  EXPECT_FALSE(asked->detail.empty());
}

TEST(WorkerPool, WorkersAreReplacedAfterTheirShare) {
  WorkerPool pool(1, handle, nullptr, quick(30), /*casesPerWorker=*/3);
  for (int i = 0; i < 7; ++i)
    pool.submit("ok " + std::to_string(i), false,
                [](const IsolatedOutcome &) {});
  pool.drain();
  EXPECT_EQ(pool.workersStarted(), 3u);
}

TEST(CaseWire, CutShortOrUnknownIsAnError) {
  CaseResult result;
  result.verdict = oracle::Verdict::CompileError;
  result.detail = "a\nb";
  std::string bytes = encodeCaseResult(result, false);
  bool full = true;
  auto back = decodeCaseResult(bytes, full);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_FALSE(full);
  EXPECT_EQ(back->detail, "a\nb");
  auto cut = decodeCaseResult(bytes.substr(0, bytes.size() - 5), full);
  EXPECT_FALSE(cut.ok());
  std::string unknown = bytes;
  unknown.replace(unknown.find("compile-error"), 13, "compile-erro?");
  EXPECT_FALSE(decodeCaseResult(unknown, full).ok());
}

// Where a compile's seconds went travels with the result; a stage that is
// not NAME=SECONDS is an error, never a silent zero.
TEST(CaseWire, CompileStagesTravel) {
  CaseResult result;
  result.compileStages = {{"gpu-module-to-binary", 0.25},
                          {"sift-lower-to-loops", 0.125}};
  std::string bytes = encodeCaseResult(result, false);
  bool full = true;
  auto back = decodeCaseResult(bytes, full);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->compileStages, result.compileStages);
  std::string broken = bytes;
  size_t at = broken.find("sift-lower-to-loops=");
  ASSERT_NE(at, std::string::npos);
  broken[at + std::string("sift-lower-to-loops").size()] = ':';
  auto bad = decodeCaseResult(broken, full);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("malformed compile stage"), std::string::npos);
}

// A finding the worker announced before it died decides the verdict (the
// first finding wins); how it died follows in the detail. Through a pool
// worker and through a one-case child alike.
TEST(WorkerPool, AnnouncedFindingSurvivesALaterCrash) {
  auto check = [](const IsolatedOutcome &outcome) {
    EXPECT_FALSE(outcome.reported);
    ASSERT_TRUE(outcome.earlyFinding.has_value());
    oracle::Verdict verdict;
    Stage stage;
  std::string detail;
    describeUnreported(outcome, verdict, stage, detail);
    EXPECT_EQ(verdict, oracle::Verdict::SmemOverflow);
    EXPECT_EQ(stage.text(), "static:sift-workgroup-rows");
    EXPECT_EQ(detail.substr(0, detail.find("\nthen")),
              "workgroup memory over the budget\nkernel k\t1");
    EXPECT_NE(detail.find("then the worker ended: compile-crash at "
                          "compile:gpu-module-to-binary"),
              std::string::npos)
        << detail;
  };
  WorkerPool pool(1, handle, nullptr, quick(30));
  bool delivered = false;
  pool.submit("late-crash 1", false, [&](const IsolatedOutcome &outcome) {
    delivered = true;
    check(outcome);
  });
  pool.drain();
  EXPECT_TRUE(delivered);
  check(runIsolated([](const Phase &phase) { return handle("late-crash 2", phase); },
                    nullptr, quick(30)));
}

TEST(WorkerPool, EarlyFindingPhaseRoundTrips) {
  EarlyFinding finding{oracle::Verdict::MallocInKernel,
                       Stage(Step::Static, "a-pass"),
                       "line one\nline\ttwo \\n not a newline"};
  std::optional<EarlyFinding> back =
      parseEarlyFinding(earlyFindingPhase(finding));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->verdict, finding.verdict);
  EXPECT_EQ(back->stage, finding.stage);
  EXPECT_EQ(back->detail, finding.detail);
  EXPECT_EQ(earlyFindingPhase(finding).find('\n'), std::string::npos);
  EXPECT_FALSE(parseEarlyFinding("compile:sift-lower-to-loops").has_value());
  EXPECT_FALSE(parseEarlyFinding("finding:not-a-verdict x y").has_value());
}
