//===- harness/sut/file/SystemCommand.h - A system file's commands -*- C++ -*-===//
//
// Turning a system file's command templates into argument lists (every
// placeholder filled, "{options}" spread into the pipeline's options), and
// running one as a bounded child: its own process group (a compiler's
// helper processes die with it on a timeout), the pipeline's environment,
// an optional address-space limit, stdout and stderr captured together.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/sut/file/SystemFile.h"

#include <map>
#include <string>
#include <vector>

namespace sift::harness {

/// What fills the placeholders of one command.
struct CommandValues {
  std::map<std::string, std::string> values;
  std::vector<std::string> options;
};

/// `command` with its placeholders filled ("{{" and "}}" become braces).
std::vector<std::string> expandCommand(const CommandTemplate &command,
                                       const CommandValues &values);

/// The Python a system file's "{python}" names: $SIFT_PYTHON, else the
/// build's venv (bootstrap's build/venv/bin/python), else python3.
std::string systemPython();

/// What a command did.
struct CommandRun {
  /// Exit status; -1 when it did not exit (timed out, killed, not started).
  int status = -1;
  int signal = 0;
  bool timedOut = false;
  /// stdout and stderr as they interleaved (at most 1 MiB kept: the end).
  std::string output;
  double seconds = 0;
};

/// Runs `args` (args[0] found on PATH when it has no '/') in `workDir` with
/// `env` added to the environment, for at most `seconds`, with at most
/// `memoryMiB` of address space (0: no limit).
CommandRun runCommand(const std::vector<std::string> &args,
                      const std::map<std::string, std::string> &env,
                      const std::string &workDir, double seconds,
                      uint64_t memoryMiB);

/// `args` as one shell-quoted command line (for details and repro notes).
std::string shellLine(const std::vector<std::string> &args);

/// The line of `output` that says what went wrong: a Python traceback's
/// exception line, else the first line naming an error, else the first
/// line; "sift-phase:" lines never.
std::string commandDiagnostic(const std::string &output);

/// The phase a runner last announced ("compile", "run"), or "" when it
/// announced none (lines "sift-phase: NAME").
std::string lastPhase(const std::string &output);

} // namespace sift::harness
