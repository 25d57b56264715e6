//===- CaseFolder.h - Reading stored case folders --------------*- C++ -*-===//
//
// A case folder (corpus/FORMAT.md) is read the same way by every command
// that reruns one: `harness replay` compares its verdict, `harness reduce`
// shrinks it. Reading checks every field and names the one that is wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"
#include "support/Result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// One stored case, ready to run.
struct StoredCase {
  std::string folder;
  uint64_t seed = 0;
  /// The verdict it records.
  oracle::Verdict expected = oracle::Verdict::Pass;
  CaseOptions options;
  gen::Program program;
  std::vector<HostTensor> inputs;
  /// The command that reproduced it when it was found ("repro"), if any.
  std::string repro;
  /// The case's own time limit ("timeout_seconds"), if it has one.
  std::optional<double> timeoutSeconds;
};

/// Reads `folder`/case.json and its input<i>.npy files.
Result<StoredCase> loadCaseFolder(const std::filesystem::path &folder);

/// Case folders: the given folders that hold case.json, and the subfolders
/// of the others that do, in name order. A root that is neither adds an
/// error naming it.
std::vector<std::filesystem::path>
findCaseFolders(const std::vector<std::string> &roots,
                std::vector<std::string> &errors);

} // namespace sift::harness
