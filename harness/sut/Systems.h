//===- harness/sut/Systems.h - The systems a command may test ---*- C++ -*-===//
//
// sift's compiler always; IREE made when a pipeline of its is first asked
// for, its tools found then (a missing IREE is one sentence, not a crash);
// systems described by files: those given with --system, and the shipped
// ones in systems/ (found by a pipeline's name: --pipeline=xla), each made
// when one of its pipelines is first asked for (its version asked then).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/sut/file/FileSystem.h"
#include "harness/sut/iree/IreeChips.h"
#include "harness/sut/iree/IreeCompiler.h"
#include "harness/sut/sift/SiftCompiler.h"

#include <map>
#include <memory>
#include <vector>

namespace sift::harness {

/// The folder of the shipped system files: $SIFT_SYSTEMS_DIR, else the
/// source tree's systems/.
std::string shippedSystemsDir();

/// The shipped system files (*.toml in shippedSystemsDir()), by name.
std::vector<std::string> shippedSystemFiles();

class Systems {
public:
  /// The system `pipeline` belongs to (`filePipeline` names a file
  /// system's pipeline); the error says why it is unavailable.
  Result<SystemUnderTest *> of(PipelineKind pipeline,
                               const std::string &filePipeline = "");
  /// The system a stored case runs on: of() its pipeline, with the system
  /// file its folder records (`options.systemFile`) loaded first.
  Result<SystemUnderTest *> forCase(const CaseOptions &options);
  SiftCompiler &sift() { return sift_; }
  /// The chip a run compiles for: sift's runs `chip` as given (their
  /// chips are checked against sift's table when parsed); IREE's GPU runs a
  /// chip the installed IREE accepts (IreeChips.h), the error naming the
  /// ones it does.
  Result<std::string> chipFor(PipelineKind pipeline, TargetKind target,
                              const std::string &chip);

  /// Loads a system file (--system): an error names the file and line.
  Status addFile(const std::string &path);
  /// The system file with a pipeline of this full name, among those added
  /// and the shipped ones; null when none has it (a shipped file that
  /// fails to load is an error).
  Result<const SystemFile *> fileWithPipeline(const std::string &fullName);
  /// The system file named `name` ("xla"), added or shipped.
  Result<const SystemFile *> fileNamed(const std::string &name);
  /// The worker's time limit for a case of `options`: `limit`, raised for
  /// a file system's case above the system's own compile and run limits
  /// (30 s over them), whose verdicts name the step that overran; the
  /// worker's limit is only a backstop there. Call after forCase().
  double caseTimeoutFor(const CaseOptions &options, double limit);
  /// Every system file added and shipped (shipped ones that fail to load
  /// are errors in `errors`).
  std::vector<const SystemFile *> allFiles(std::vector<std::string> &errors);

private:
  void loadShipped();

  SiftCompiler sift_;
  std::unique_ptr<IreeCompiler> iree_;
  std::vector<std::unique_ptr<SystemFile>> files_;
  bool shippedLoaded_ = false;
  std::vector<std::string> shippedErrors_;
  std::map<std::string, std::unique_ptr<FileSystem>> fileSystems_;
};

} // namespace sift::harness
