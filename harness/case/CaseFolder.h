//===- CaseFolder.h - Case folders: case.json and signatures ---*- C++ -*-===//
//
// The one owner of the case folder format (corpus/FORMAT.md): the campaign
// and the store write folders here, `harness replay`, `reduce` and `check`
// read them here, and a finding's signature is computed beside it
// (CaseSignature.cpp). Reading
// checks every field and names the one that is wrong; writing goes through
// a temporary folder renamed into place, so no folder is ever half-written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"
#include "support/Result.h"

#include <nlohmann/json.hpp>

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
  /// The signature it records ("signature"; "" for a hand-made case).
  std::string signature;
  /// What its verdict said ("detail") and where it was decided ("stage").
  std::string detail, stage;
  /// A case of a system described by a file: the system's name, its
  /// command line over a folder CASE laid out as the system sees it
  /// ("system_command"), its version and the program's file in the case
  /// folder ("program_file"); "" for the others.
  std::string systemName, systemCommand, systemVersion, programFile;
  /// Fields of case.json beyond the ones a folder writer makes (a time
  /// limit, where a reduced case came from, a note): a rewrite keeps them.
  nlohmann::json keptFields = nlohmann::json::object();
};

/// Reads `folder`/case.json and its input<i>.npy files.
Result<StoredCase> loadCaseFolder(const std::filesystem::path &folder);

/// The `prefix`<i>.npy tensors of `folder` ("expected", "actual"), for
/// i = 0, 1, ... while they exist; an error names a file that is there but
/// unreadable.
Result<std::vector<HostTensor>>
loadCaseTensors(const std::filesystem::path &folder, const std::string &prefix);

/// Case folders: the given folders that hold case.json, and the subfolders
/// of the others that do, in name order. A root that is neither adds an
/// error naming it.
std::vector<std::filesystem::path>
findCaseFolders(const std::vector<std::string> &roots,
                std::vector<std::string> &errors);

/// The signature of a finding: verdict, the step (or pass) that failed, the
/// first line of its detail with numbers, SSA names and paths normalized
/// away, and the kind of the case's sift op (its first sort or top-k, from
/// the model, or from `mlir` for a case given as text).
std::string findingSignature(const CaseResult &result);

/// Writes the case folder of `result` under `parent` (created if needed):
/// `<verdict>-<pipeline>-<target>-<seed>/` with program.mlir, the .npy
/// tensors and case.json (corpus/FORMAT.md), under a temporary name renamed
/// into place. Returns the folder.
Result<std::string> writeCaseFolder(const std::string &parent,
                                    const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand);

/// Writes the case folder of `result` as `folder`, with `extra`'s fields
/// added to case.json. A case folder already there is replaced (swapped,
/// so a failure leaves the old or the new one whole; with
/// `keepOtherFiles`, files it holds that this writer does not make are
/// carried over); anything else there is an error, never deleted.
Result<std::string> writeCaseFolderAt(const std::string &folder,
                                      const CaseResult &result,
                                      const CaseOptions &options,
                                      const std::string &reproCommand,
                                      const nlohmann::json &extra,
                                      bool keepOtherFiles = false);

} // namespace sift::harness
