//===- harness/sut/file/SystemFile.h - A compiler described by a file -*- C++ -*-===//
//
// A system file (TOML, docs/systems.md) says everything the harness needs
// to test a compiler without C++: its name and how to ask its version, the
// exchange format sift writes programs in for it, its pipelines (each with
// the targets it compiles for and the options that select it), an
// optional compile step and a run step as command templates, time and
// memory limits, what its exit codes and messages mean, and its comparison
// policy in docs/SEMANTICS.md's vocabulary, every point naming the
// system's own documentation. This module is the one owner of the format:
// it reads a file, checks every key and template, and names the file and
// line of the first thing that is wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Exchange.h"
#include "oracles/ComparisonPolicy.h"
#include "support/Command.h"
#include "support/Result.h"
#include "support/Targets.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// One pipeline of a system.
struct SystemPipeline {
  /// As the file names it ("default", "basic").
  std::string name;
  /// How commands name it: the system's name for "default", else
  /// "<system>-<name>" ("onnxruntime-basic").
  std::string fullName;
  std::string description;
  /// The targets it compiles for (host runs here; nvptx and amdgpu are
  /// exported to the GPU host).
  std::vector<TargetKind> targets;
  /// What "{options}" becomes.
  std::vector<std::string> options;
  /// Environment variables set for its commands.
  std::map<std::string, std::string> env;
};

/// One point of a comparison policy, as the file states it.
struct SemanticPoint {
  std::string key, value, source;
};

/// A documented limit: a failure whose output holds `contains` is
/// `unsupported`.
struct SystemLimit {
  std::string contains, why, source;
};

/// How one version of a system is installed (`[install]`): `harness
/// bisect` makes a venv per version and runs `command` in it.
struct SystemInstall {
  /// The versions, oldest first (what bisect walks by default).
  std::vector<std::string> versions;
  /// Its placeholders: "{python}" (the version's venv's Python), "{here}",
  /// "{version}" and "{venv}".
  CommandTemplate command;
};

/// A parsed, checked system file.
struct SystemFile {
  std::string path;
  /// The folder the file is in ("{here}").
  std::string folder;
  std::string name, description;
  /// The version: a literal, or the first line a command prints.
  std::string versionText;
  std::optional<CommandTemplate> versionCommand;
  gen::ExchangeFormat format = gen::ExchangeFormat::ModelJson;
  /// `bf16 = true`: the runner reads and writes bf16 values ('<V2' .npy),
  /// so campaigns may draw them (only for a format that carries bf16).
  bool bf16 = false;
  std::vector<SystemPipeline> pipelines;
  std::optional<CommandTemplate> compile;
  CommandTemplate run;
  double compileSeconds = 120, runSeconds = 120;
  /// The address-space limit of each command, in MiB (0: none).
  uint64_t memoryMiB = 0;
  /// Exit codes of either step that mean "the system does not implement
  /// this program" (unsupported, not a finding).
  std::vector<int> unsupportedExitCodes;
  std::vector<SystemLimit> limits;
  std::vector<SemanticPoint> semantics;
  /// The comparison policy the semantic points and limits make.
  oracle::ComparisonPolicy policy;
  /// How a version is installed, when the file says.
  std::optional<SystemInstall> install;

  /// The pipeline named `fullName`, or null.
  const SystemPipeline *pipeline(const std::string &fullName) const;
};

/// Reads and checks the system file at `path`. The error starts with
/// "FILE:LINE: " and says what is wrong and what is expected.
Result<SystemFile> loadSystemFile(const std::string &path);

/// Reads and checks a system file's text; `path` names it in errors and
/// anchors "{here}".
Result<SystemFile> parseSystemFile(const std::string &text,
                                   const std::string &path);

namespace detail {
/// What the readers of a system file's parts throw and parseSystemFile
/// reports: the line and what is wrong there.
struct SystemFileError {
  int line;
  std::string message;
};
} // namespace detail

/// The placeholders a command template may use, in the order the format's
/// documentation lists them.
const std::vector<std::string> &commandPlaceholders();

} // namespace sift::harness
