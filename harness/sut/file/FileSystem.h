//===- harness/sut/file/FileSystem.h - A system a file describes -*- C++ -*-===//
//
// The one class that runs every system described by a file (SystemFile.h):
// a program model is written in the file's exchange format
// (generators/Exchange.h) into a case folder with its inputs as .npy
// files, the compile step (when there is one) and the run step run as
// bounded children, and the outputs come back as .npy files. What a step's
// exit says is judged here: a timeout, a crash, an error, or a documented
// limit (unsupported). A system without a compile step compiles as it runs
// (jax.jit, torch.compile): its run step goes at compile time, and the
// phase its runner announced last ("sift-phase: compile" or "run") says
// which step a failure belongs to.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/sut/SystemUnderTest.h"
#include "harness/sut/file/SystemCommand.h"
#include "harness/sut/file/SystemFile.h"
#include "oracles/StepVerdict.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

class FileSystem final : public SystemUnderTest {
public:
  /// `version` is what the file's version command printed (or its literal).
  FileSystem(SystemFile file, std::string version);
  ~FileSystem() override;
  FileSystem(const FileSystem &) = delete;
  FileSystem &operator=(const FileSystem &) = delete;

  std::string_view name() const override { return file_.name; }
  std::string version() const override { return version_; }
  bool compile(const CaseOptions &options, CaseResult &result) override;
  /// The text is a program in the system's exchange format: written and
  /// compiled (the compile step), without inputs to run it.
  CaseResult compileText(const CaseOptions &options, const std::string &text,
                         const std::string &name, uint64_t seed) override;
  Result<std::vector<HostTensor>> run(const CaseResult &compiled,
                                      rt::Device &device,
                                      int repetition) override;
  /// Host pipelines run on the cpu device here; GPU ones on the GPU host.
  bool runsOn(const rt::Device &device, TargetKind target) const override;
  oracle::ComparisonPolicy
  comparisonPolicy(const CaseResult & /*result*/) const override {
    return file_.policy;
  }

  const SystemFile &file() const { return file_; }
  /// The command line of `step` ("compile" or "run") for a case of
  /// `options` whose folder is `caseDir`, as a user would type it.
  std::string commandLine(const CaseOptions &options, const std::string &step,
                          const std::string &caseDir) const;

private:
  /// The case folder (program, inputs/, outputs/, artifacts/) made afresh.
  Result<std::string> freshCaseDir();
  CommandValues valuesFor(const CaseOptions &options,
                          const std::string &caseDir) const;
  const SystemPipeline &pipelineOf(PipelineKind kind,
                                   const std::string &fullName) const;
  /// The compile step; false when it decided `result`.
  bool compileStep(const CaseOptions &options, CaseResult &result);
  /// A system without a compile step: runs the run step now, a failure in
  /// its compile phase decides `result`, anything else waits for run().
  bool compileByRunning(const CaseOptions &options, CaseResult &result);
  /// What a judged run step gave: `outputs` tensors, or the error run()
  /// returns (run-timeout and unsupported by their prefixes).
  Result<std::vector<HostTensor>>
  outcomeOf(const oracle::StepJudgement &judged, size_t outputs);

  SystemFile file_;
  std::string version_;
  /// The work folder, made by the process that made the system and removed
  /// by it: forked workers (which end without destructors) each work in
  /// their own folder inside it, so none is left behind. `workError_` says
  /// why there is none.
  std::string workRoot_, workError_;
  pid_t workOwner_ = 0;
  /// A system that compiles as it runs: the outcome of the run its compile
  /// made, for the case `pendingSeed` (run() returns it once).
  std::optional<Result<std::vector<HostTensor>>> pending_;
  uint64_t pendingSeed_ = 0;
  /// The case being judged: its folder and options (run() is given only
  /// the result).
  std::string caseDir_;
  CaseOptions lastOptions_;
};

/// The pipeline of `file` a case of (`kind`, `fullName`) runs: the one of
/// that name, else the file's first.
const SystemPipeline &systemPipelineOf(const SystemFile &file,
                                       PipelineKind kind,
                                       const std::string &fullName);

/// What fills the placeholders of `file`'s commands for a case of
/// `options` whose folder is `caseDir` (the program, inputs/, outputs/,
/// artifacts/); "{python}" is systemPython(), "{here}" the file's folder.
CommandValues systemCommandValues(const SystemFile &file,
                                  const CaseOptions &options,
                                  const std::string &caseDir);

/// A system file's system, its version asked once (an error names the file
/// and what the version command said: the system is not installed).
Result<std::unique_ptr<FileSystem>> makeFileSystem(SystemFile file);

} // namespace sift::harness
