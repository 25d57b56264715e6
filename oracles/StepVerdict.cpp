//===- oracles/StepVerdict.cpp - What a system's step ending means --------===//

#include "oracles/StepVerdict.h"

#include <cstring>

namespace sift::oracle {

namespace {

/// "SIGSEGV" for a signal number.
std::string signalName(int signal) {
  const char *abbrev = sigabbrev_np(signal);
  return abbrev ? "SIG" + std::string(abbrev) : std::to_string(signal);
}

/// The documented limit `run` shows, or "".
std::string unsupportedBy(const StepRules &rules, const CommandRun &run) {
  for (int code : rules.unsupportedExitCodes)
    if (run.status == code)
      return "exit code " + std::to_string(code) +
             " (the system's own word that it does not implement this)";
  for (const DocumentedLimit &limit : rules.limits)
    if (run.output.find(limit.marker) != std::string::npos)
      return limit.why;
  return "";
}

} // namespace

StepJudgement judgeStep(const CommandRun &run, StepKind kind,
                        const StepRules &rules, const std::string &commandLine,
                        double seconds) {
  StepJudgement judged;
  if (run.status == 0 && !run.timedOut && run.signal == 0)
    return judged;
  judged.compiling =
      kind == StepKind::Compile ||
      (kind == StepKind::JitRun && lastPhase(run.output) == "compile");
  std::string context = "\n$ " + commandLine + "\n" + lastLines(run.output, 30);
  std::string diagnostic = commandDiagnostic(run.output);
  if (run.timedOut) {
    judged.verdict =
        judged.compiling ? Verdict::CompileTimeout : Verdict::RunTimeout;
    judged.detail = rules.system + (judged.compiling ? " compiled" : " ran") +
                    " past its " + std::to_string(static_cast<int>(seconds)) +
                    " s" + context;
  } else if (std::string why = unsupportedBy(rules, run); !why.empty()) {
    judged.verdict = Verdict::Unsupported;
    judged.detail = "not " + std::string(judged.compiling ? "compiled" : "run") +
                    ": " + why + context;
  } else if (run.signal) {
    judged.verdict =
        judged.compiling ? Verdict::CompileCrash : Verdict::RuntimeError;
    judged.detail = rules.system + " was killed by " +
                    signalName(run.signal) +
                    (diagnostic.empty() ? "" : ": " + diagnostic) + context;
  } else {
    judged.verdict =
        judged.compiling ? Verdict::CompileError : Verdict::RuntimeError;
    judged.detail = (diagnostic.empty()
                         ? rules.system + " exited with status " +
                               std::to_string(run.status)
                         : diagnostic) +
                    context;
  }
  return judged;
}

} // namespace sift::oracle
