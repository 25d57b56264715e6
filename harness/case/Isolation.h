//===- Isolation.h - One case in a child process --------------*- C++ -*-===//
//
// A compiler that aborts, hangs or eats memory must cost one finding, never
// the campaign. runIsolated forks a child that runs the case (with a memory
// limit, its stderr captured) and reports the verdict over a pipe, with the
// phase it is in; the parent kills it at the time limit. A child that dies
// by a signal is `compile-crash` (or `runtime-error` when it died running
// the program), one that overruns `compile-timeout` or `run-timeout`, with
// the captured diagnostic as the detail. The parent keeps nothing of the
// child but its report.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "support/Process.h"

#include <poll.h>
#include <sys/types.h>

namespace sift::harness {

/// Limits of one isolated case.
struct IsolationLimits {
  double timeoutSeconds = 60; ///< compile and run together
  /// Memory of the child: its address space (RLIMIT_AS), or, in a build
  /// with a sanitizer (which maps terabytes of shadow memory), its resident
  /// memory, which the parent checks while it waits. 0: no limit.
  uint64_t memoryBytes = uint64_t(4) << 30;
};

/// Whether this build limits a child's resident memory (sanitizer builds)
/// rather than its address space.
bool memoryLimitIsResident();

/// In a child just forked to run cases: SIGINT and SIGTERM ignored (the
/// parent decides when to stop), stderr to `errorFd`, and the memory limit
/// (address space, unless the limit is resident: then the parent checks).
void setUpIsolatedChild(int errorFd, const IsolationLimits &limits);

/// The resident bytes of process `pid` (Linux's /proc), or 0 when unknown.
uint64_t residentBytes(pid_t pid);

/// Writes all of `text` to `fd` (retrying short writes and EINTR).
void writeAll(int fd, const std::string &text);

/// The longest a parent waits before it looks at its children again.
double serviceMillis();

/// A byte count for messages: "512M", "4G", "1536K", "100 bytes".
std::string bytesText(uint64_t bytes);

/// A finding a child made and announced before its case ended (a static
/// finding after an early pass): if the child then dies, the first one
/// still decides the verdict.
struct EarlyFinding {
  oracle::Verdict verdict = oracle::Verdict::Pass;
  Stage stage;
  std::string detail;
};

/// The phase text that announces `finding` ("finding\t..." with newlines
/// and tabs escaped, so it travels as one phase line).
std::string earlyFindingPhase(const EarlyFinding &finding);
/// The finding of a phase text made by earlyFindingPhase; nullopt for any
/// other phase.
std::optional<EarlyFinding> parseEarlyFinding(const std::string &phase);

/// What the child reported, or how it ended.
struct IsolatedOutcome {
  /// True when the child finished the case and reported it.
  bool reported = false;
  oracle::Verdict verdict = oracle::Verdict::Pass;
  Stage stage;
  std::string detail;
  /// A failed compile's crash reproducer (CaseResult::reproducer).
  std::string reproducer;
  double compileSeconds = 0, runSeconds = 0;
  std::map<std::string, double> compileStages;
  bool ran = false, compiled = false;
  /// Why no child could be started (pipe, fork), if none was: a problem
  /// of the harness, not of the case.
  std::string startError;
  /// For a child that did not report: the phase it was in ("compile",
  /// "compile:<pass>" or "run"), whether it ran out of time, the signal that ended it (0: it
  /// exited), and the end of its stderr.
  std::string phase;
  bool timedOut = false;
  /// Killed by the parent for passing the resident memory limit.
  bool outOfMemory = false;
  uint64_t memoryLimit = 0;
  int signal = 0;
  std::string stderrTail;
  /// The first finding the child announced while its case went on.
  std::optional<EarlyFinding> earlyFinding;
  /// The case's result, when a WorkerPool's worker sent it: whole (a
  /// finding, or asked for: `resultIsFull`), else its summary (verdict,
  /// stage, detail, times, whether it compiled and ran). Nothing needs
  /// computing again.
  std::shared_ptr<const CaseResult> result;
  bool resultIsFull = false;
};


/// The work of one case in a child: it receives a callback to announce its
/// phase ("compile", "compile:<pass>", "run").
using CaseWork = std::function<CaseResult(
    const std::function<void(const char *)> &phase)>;

/// Runs `work` in a child process under `limits` (a WorkerPool of one
/// worker, forked here, so `work` may use anything valid now) and returns
/// its outcome with the whole result. In the child only, `afterwards` sees
/// the case's full result (to export its artifact).
IsolatedOutcome runIsolated(
    const CaseWork &work,
    const std::function<void(const CaseResult &)> &afterwards,
    const IsolationLimits &limits);

/// The verdict, stage and detail of an outcome whose child did not report:
/// crash or timeout, by phase, with the first diagnostic line of its stderr.
void describeUnreported(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                        Stage &stage, std::string &detail);

} // namespace sift::harness
