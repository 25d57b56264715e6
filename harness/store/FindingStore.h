//===- FindingStore.h - Findings on disk: case folders and SQLite -*- C++
//-*-===//
//
// Where a campaign keeps what it finds, under one output folder (default
// `sift-out/`): `findings.db`, an SQLite database of runs, signatures and
// findings, committed finding by finding so a killed harness loses nothing
// it reported; and `cases/<verdict>-<pipeline>-<seed>/`, one folder per
// finding with the program, its inputs, the expected and actual outputs and
// `case.json` with the repro command. Folders are written under a temporary
// name and renamed, so none is ever half-written.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"
#include "support/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

struct sqlite3;

namespace sift::harness {

/// Facts about one campaign, stored in the `runs` table.
struct RunInfo {
  std::string command; ///< the command line
  std::string pipeline;
  std::string inputs;
  uint64_t seed = 0;
  /// Everything that decides which cases the campaign runs and how (seed,
  /// runs, inputs, families, faults, configs): a resumed campaign must
  /// match it.
  std::string resumeKey;
  /// Index of the campaign's first case.
  uint64_t firstCase = 0;
};

/// Where an unfinished campaign stopped.
struct ResumePoint {
  int64_t run = 0;
  uint64_t nextCase = 0;
  /// The campaign's tally up to `nextCase` (CampaignTally JSON; empty for
  /// a run stored before tallies were).
  std::string tally;
};

/// Stored case folders per signature; later findings of a signature are
/// counted and listed without a folder.
inline constexpr int64_t kReprosPerSignature = 3;

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

/// The findings database and case folders of one output folder.
class FindingStore {
public:
  /// Creates `outDir` and `outDir/cases` if needed, locks the folder
  /// (`outDir/lock`: a second harness on it gets an error naming the first
  /// one's pid, never a shared campaign) and opens (or creates)
  /// `outDir/findings.db`. The lock is held until the store is destroyed.
  static Result<std::unique_ptr<FindingStore>> open(const std::string &outDir);
  ~FindingStore();

  /// Starts a run; returns its id.
  Result<int64_t> beginRun(const RunInfo &info);
  /// Stores a finding of run `runId`: its case folder first (for the first
  /// kReprosPerSignature of a signature, and only when the result has its
  /// program), then its row (committed before returning). Returns the case
  /// folder, or "" when none was written.
  Result<std::string> recordFinding(int64_t runId, const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand);
  /// Records that every case before `nextCase` is done, with the
  /// campaign's `tally` (JSON) at that point (committed at once, so a
  /// killed campaign can resume after it and report all of its cases).
  Status recordProgress(int64_t runId, uint64_t nextCase, int64_t cases,
                        const std::string &tally = "");
  /// The latest unfinished run with `resumeKey`, if any.
  Result<std::optional<ResumePoint>> findResumePoint(
      const std::string &resumeKey);
  /// Marks an unfinished run as taken over by `byRun`.
  Status markResumed(int64_t run, int64_t byRun);
  /// Closes a run with its totals. A run that is not `finished` (stopped
  /// by a signal) keeps its totals and stays resumable.
  Status endRun(int64_t runId, int64_t cases, int64_t findings, double seconds,
                bool finished = true);

  const std::string &outDir() const { return outDir_; }
  std::string databasePath() const;

private:
  FindingStore(std::string outDir, sqlite3 *db, int lockFd);
  Status exec(const std::string &sql);

  std::string outDir_;
  sqlite3 *db_;
  int lockFd_;
};

} // namespace sift::harness
