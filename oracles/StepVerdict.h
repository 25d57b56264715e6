//===- oracles/StepVerdict.h - What a system's step ending means -*- C++ -*-===//
//
// A system described by a file (docs/systems.md) compiles and runs as
// commands; how a command ended decides the case: a timeout, a crash, an
// error, or the system's own word (an exit code or a message it documents)
// that it does not implement the program. The harness (on the compile
// host) and sift-run (on a GPU host, for exported cases) judge a step the
// same way, here. A run step that also compiles (a JIT) says where it is
// with "sift-phase: compile" and "sift-phase: run" lines: a failure after
// the first is the compile's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ComparisonPolicy.h"
#include "oracles/Verdict.h"
#include "support/Command.h"

#include <string>
#include <vector>

namespace sift::oracle {

/// What a system says its failures mean.
struct StepRules {
  std::string system;
  /// Exit codes that mean "not implemented".
  std::vector<int> unsupportedExitCodes;
  /// Messages that mean "not implemented" (with why).
  std::vector<DocumentedLimit> limits;
};

/// Which step a command was.
enum class StepKind {
  Compile, ///< a compile step
  Run,     ///< a run step after a compile step
  JitRun,  ///< a run step that also compiles (no compile step)
};

/// How a step ended: Pass when it exited 0; else the verdict and the
/// detail (its first line a finding's signature: the system's diagnostic),
/// and whether the failure belongs to compiling.
struct StepJudgement {
  Verdict verdict = Verdict::Pass;
  bool compiling = false;
  std::string detail;
};

/// Judges `run`, a step of kind `kind` that `commandLine` ran with a limit
/// of `seconds`.
StepJudgement judgeStep(const CommandRun &run, StepKind kind,
                        const StepRules &rules, const std::string &commandLine,
                        double seconds);

} // namespace sift::oracle
