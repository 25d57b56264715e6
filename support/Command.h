//===- support/Command.h - Command templates and bounded commands -*- C++ -*-===//
//
// A command template is a program and its arguments with placeholders
// ("{program}", "{inputs}"...; "{options}" as a whole argument spreads into
// several): system files (harness/sut/file/) write them, and sift-run
// expands the ones an exported case carries. A command runs as a bounded
// child: its own process group (its helper processes die with it on a
// timeout), added environment variables, an optional address-space limit,
// stdout and stderr captured together. The C++ standard library and the OS
// only, so the LLVM-free sift-run shares it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <cstdint>
#include <string>
#include <vector>

namespace sift {

/// A command template: a program and its arguments, each of which may hold
/// placeholders ("{program}", "{inputs}"...; "{options}" only as a whole
/// argument, where it becomes the pipeline's options).
struct CommandTemplate {
  std::vector<std::string> args;
  /// Where it is written (for messages).
  int line = 0;
};

/// What fills the placeholders of one command.
struct CommandValues {
  std::map<std::string, std::string> values;
  std::vector<std::string> options;
};

/// `command` with its placeholders filled ("{{" and "}}" become braces;
/// a placeholder without a value becomes "").
std::vector<std::string> expandCommand(const CommandTemplate &command,
                                       const CommandValues &values);

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

/// The line of `output` that says what went wrong: a compiler's first
/// "error: " diagnostic (from "error: " on, without its location), else a
/// Python traceback's exception line, else the first line naming an error,
/// else the first line; "sift-phase:" lines never.
std::string commandDiagnostic(const std::string &output);

/// The last `count` lines of `text` ("[...]" before them when cut).
std::string lastLines(const std::string &text, size_t count);

/// The phase a runner last announced ("compile", "run"), or "" when it
/// announced none (lines "sift-phase: NAME").
std::string lastPhase(const std::string &output);

} // namespace sift
