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

#include "harness/CaseRunner.h"

#include <cstdint>
#include <functional>
#include <string>

namespace sift::harness {

/// Limits of one isolated case.
struct IsolationLimits {
  double timeoutSeconds = 60;            ///< compile and run together
  uint64_t memoryBytes = uint64_t(4) << 30; ///< address space (RLIMIT_AS)
};

/// What the child reported, or how it ended.
struct IsolatedOutcome {
  /// True when the child finished the case and reported it.
  bool reported = false;
  oracle::Verdict verdict = oracle::Verdict::Pass;
  std::string stage, detail;
  /// A failed compile's crash reproducer (CaseResult::reproducer).
  std::string reproducer;
  double compileSeconds = 0, runSeconds = 0;
  bool ran = false, compiled = false;
  /// For a child that did not report: the phase it was in ("compile",
  /// "compile:<pass>" or "run"), whether it ran out of time, the signal that ended it (0: it
  /// exited), and the end of its stderr.
  std::string phase;
  bool timedOut = false;
  int signal = 0;
  std::string stderrTail;
};

/// Runs `work` in a child process under `limits`. `work` receives a
/// callback to announce its phase ("compile", "run"). In the child only,
/// `afterwards` sees the case's full result (to export its artifact).
IsolatedOutcome
runIsolated(const std::function<CaseResult(
                const std::function<void(const char *)> &phase)> &work,
            const std::function<void(const CaseResult &)> &afterwards,
            const IsolationLimits &limits);

/// The verdict, stage and detail of an outcome whose child did not report:
/// crash or timeout, by phase, with the first diagnostic line of its stderr.
void describeUnreported(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                        std::string &stage, std::string &detail);

} // namespace sift::harness
