//===- harness/FuzzCampaign.h - The fuzz loop as parts ----------*- C++ -*-===//
//
// A campaign runs case i (seed caseSeed(S, i)) through every (pipeline,
// target) run. Its parts: scheduling (FuzzCampaign: which cases, in which
// process, in order), progress (ProgressLine), resume bookkeeping
// (CampaignTally stored with every finished case), recording (the finding
// store and case folders) and export (artifacts for sift-run). A campaign
// stopped by SIGINT or SIGTERM finishes the cases in flight, stays
// resumable, and exits 128 + the signal.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/campaign/CampaignTally.h"
#include "runtime/ExportedCase.h"
#include "harness/case/CaseRunner.h"
#include "harness/commands/Commands.h"
#include "harness/store/FindingStore.h"
#include "harness/case/Isolation.h"
#include "harness/sut/Systems.h"
#include "harness/campaign/StopSignals.h"
#include "harness/case/WorkerPool.h"

#include <chrono>
#include <set>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace sift::harness {

/// "cpu/host".
std::string runName(const PipelineTarget &run);

/// The progress line on stderr: rewritten in place on a terminal, one line
/// per interval otherwise.
class ProgressLine {
public:
  ProgressLine(std::optional<double> intervalSeconds,
               std::optional<double> budgetSeconds,
               std::optional<uint64_t> count);
  /// Prints when the interval has passed since the last line; `running`
  /// says what the cases in flight are doing (between cases).
  void tick(const CampaignTally &tally, double seconds,
            const std::string &running = "");
  /// The last line (and a newline on a terminal).
  void finish(const CampaignTally &tally, double seconds);
  /// Prefix that clears a rewritten line before other output.
  const char *clear() const { return tty_ ? "\r\033[K" : ""; }

private:
  void print(const CampaignTally &tally, double seconds, bool final,
             const std::string &running = "");

  bool tty_;
  double interval_;
  std::optional<double> budget_;
  std::optional<uint64_t> count_;
  std::chrono::steady_clock::time_point last_;
};

/// `harness fuzz --pipeline=... --seed=...` for case `index` of one run.
std::string reproCommand(const FuzzOptions &options, const PipelineTarget &run,
                         uint64_t index);

/// Writes `result`'s artifact with its inputs, reference outputs and
/// tolerances to --export-artifacts as <seed>-<pipeline>-<target>.siftart
/// (IREE's: .ireecase), or as `name` when one is given.
Status exportCase(const FuzzOptions &options, const PipelineTarget &run,
                  const CaseResult &result, const std::string &name = "");

/// A case folder for sift-run at `final`: `files` (name, bytes), the
/// case's input<i>.npy and expected<i>.npy, written under a temporary name
/// and renamed into place (an old folder there is replaced).
Status writeExportFolder(
    const std::filesystem::path &final,
    const std::vector<std::pair<std::string, std::string>> &files,
    const CaseResult &result);

/// A run of a system described by a file as NAME.syscase/ for sift-run
/// (SystemExport.cpp).
Status exportSystemCase(const FuzzOptions &options, const rt::ExportedCase &info,
                        const std::string &filePipeline,
                        const CaseResult &result, const std::string &name);

/// An IREE benchmark run `name`.ireecase for sift-run --bench: the IREE
/// case format with "bench" and without .npy files.
Status exportIreeBench(const FuzzOptions &options, const rt::ExportedCase &info,
                       const CaseResult &result, const std::string &name);

/// One campaign, from its options to its exit code.
class FuzzCampaign {
public:
  explicit FuzzCampaign(const FuzzOptions &options);
  int run();

private:
  /// Opens the store, the devices and the export folder; nullopt when
  /// ready, else the exit code.
  std::optional<int> open();
  /// Why the selected families cannot reach the selected IREE runs (NMS
  /// only through the ONNX front end of the iree pipeline), or nullopt.
  std::optional<std::string> ireeFamilyProblem() const;
  /// Starts this process's run in the store, resuming an unfinished one.
  std::optional<int> begin();
  void runCases();
  void runOne(uint64_t i, size_t r, bool last);
  void submitOne(uint64_t i, size_t r, bool last);
  CaseResult fromOutcome(uint64_t i, size_t r, const IsolatedOutcome &outcome);
  CaseResult workerCase(const std::string &request,
                        const std::function<void(const char *)> &phase);
  void record(uint64_t i, size_t r, const CaseResult &result);
  void caseDone(uint64_t i);
  int finish();
  void printSummary(double rate);
  /// Writes OUT/summary.json; returns its text.
  std::string writeSummary(double rate);
  CaseOptions optionsFor(size_t r) const;
  rt::Device &deviceFor(const PipelineTarget &run);
  void fail(const std::string &message);
  double elapsed() const;

  /// A copy: setup() fills in the chip each IREE GPU run compiles for.
  FuzzOptions options_;
  /// IREE's known root causes, which tag the IREE findings (when loaded).
  std::optional<KnownCauses> known_;
  std::string steeredText() const;
  std::map<std::string, int64_t> steeredCounts() const;
  std::unique_ptr<FindingStore> store_;
  std::unique_ptr<rt::Device> cpu_, gpu_;
  bool isolated_ = false;
  IsolationLimits limits_;
  /// The signatures whose first finding this run printed.
  std::set<std::string> printedSignatures_;
  std::string runsText_;
  int64_t runId_ = 0;
  uint64_t firstCase_ = 0, nextCase_ = 0;
  CaseOptions caseOptions_;
  /// The systems under test: sift's compiler, and IREE when a run needs it.
  SystemUnderTest &systemFor(const PipelineTarget &run);
  bool killedFromOutside(const IsolatedOutcome &outcome) const;
  CaseResult rerunKilled(uint64_t i, size_t r, const IsolatedOutcome &outcome);
  std::string openFileSystems();
  Systems systems_;
  /// The --system file of each file pipeline given that way (absolute),
  /// which its case folders record.
  std::map<std::string, std::string> givenSystemFiles_;
  /// The file pipelines whose system file says `bf16 = true`.
  std::set<std::string> bf16FilePipelines_;
  /// The whole campaign's counts (earlier processes' too, when resumed);
  /// `thisRun` counts this process's cases alone.
  CampaignTally tally_;
  int64_t thisRunCases_ = 0, exported_ = 0;
  double earlierSeconds_ = 0;
  /// The signal that stopped the campaign ("SIGINT"), "" when none did.
  std::string stoppedBy_;
  std::optional<StopSignals> stop_;
  std::optional<ProgressLine> progress_;
  std::chrono::steady_clock::time_point start_;
  std::unique_ptr<WorkerPool> pool_;
  std::optional<int> failed_;
};

} // namespace sift::harness
