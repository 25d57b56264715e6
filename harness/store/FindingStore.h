//===- FindingStore.h - The findings database -------------------*- C++ -*-===//
//
// Where a campaign keeps what it finds, under one output folder (default
// `sift-out/`, locked while a harness uses it): `findings.db`, an SQLite
// database of runs, their progress, signatures and findings, committed
// finding by finding so a killed harness loses nothing it reported; and
// `cases/<verdict>-<pipeline>-<target>-<seed>/`, the first folders of each
// signature, written by CaseFolder (the format's one owner).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseFolder.h"
#include "harness/case/CaseRunner.h"
#include "harness/store/KnownCauses.h"
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

/// Now as the database stores times: "2026-11-26T06:36:07Z" (UTC).
std::string nowUtc();
/// Seconds since the epoch of such a time; -1 when it is malformed.
double epochOfUtc(const std::string &utc);

/// Takes `dir/name` (flock, released when the process ends however it
/// ends) and writes this process's pid in it; returns the descriptor to
/// close. The error names the holder ("in use by HOLDER (pid N): WHY").
Result<int> lockFolder(const std::string &dir, const std::string &name,
                       const std::string &holder, const std::string &why);

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
  /// folder, or "" when none was written. `caseDir`, when given, is a
  /// folder the caller wrote (a slow kernel's reduced case), stored as the
  /// finding's folder instead.
  Result<std::string> recordFinding(int64_t runId, const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand,
                                    const std::string &caseDir = "");
  /// Records that every case before `nextCase` is done, with the
  /// campaign's `tally` (JSON) at that point (committed at once, so a
  /// killed campaign can resume after it and report all of its cases).
  Status recordProgress(int64_t runId, uint64_t nextCase, int64_t cases,
                        const std::string &tally = "");
  /// The latest unfinished run with `resumeKey`, if any.
  Result<std::optional<ResumePoint>> findResumePoint(
      const std::string &resumeKey);
  /// A run with `resumeKey` that already ran a case of [first, end) (the
  /// same command again on the same folder would count its cases twice),
  /// as the run and the cases it ran; nullopt when none did.
  Result<std::optional<ResumePoint>>
  findOverlappingRun(const std::string &resumeKey, uint64_t first, uint64_t end,
                     uint64_t *overlapFirst);
  /// Marks an unfinished run as taken over by `byRun`.
  Status markResumed(int64_t run, int64_t byRun);
  /// Closes a run with its totals. A run that is not `finished` (stopped
  /// by a signal) keeps its totals and stays resumable.
  Status endRun(int64_t runId, int64_t cases, int64_t findings, double seconds,
                bool finished = true);

  /// Tags every IREE finding recorded from now on with the root causes of
  /// `known` its signature matches (table known_causes, per signature).
  void setKnownCauses(const KnownCauses *known) { known_ = known; }
  /// Findings per root-cause tag ("R5", "R4|R13") over the whole
  /// database, and how many findings carry no tag.
  Result<std::map<std::string, int64_t>> knownCauseCounts(int64_t *untagged);

  const std::string &outDir() const { return outDir_; }
  std::string databasePath() const;

private:
  FindingStore(std::string outDir, sqlite3 *db, int lockFd);
  Status exec(const std::string &sql);
  /// Within recordFinding's transaction: the known root causes of
  /// `signature`, when any, into known_causes.
  Status tagKnownCauses(const std::string &signature);

  std::string outDir_;
  sqlite3 *db_;
  int lockFd_;
  const KnownCauses *known_ = nullptr;
};

} // namespace sift::harness
