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

#include "harness/CaseRunner.h"
#include "runtime/support/Result.h"

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
};

/// The signature of a finding: verdict, the step that failed and the first
/// line of its detail with numbers, SSA names and paths normalized away.
std::string findingSignature(const CaseResult &result);

/// The findings database and case folders of one output folder.
class FindingStore {
public:
  /// Creates `outDir` and `outDir/cases` if needed and opens (or creates)
  /// `outDir/findings.db`.
  static Result<std::unique_ptr<FindingStore>> open(const std::string &outDir);
  ~FindingStore();

  /// Starts a run; returns its id.
  Result<int64_t> beginRun(const RunInfo &info);
  /// Stores a finding of run `runId`: its case folder first, then its row
  /// (committed before returning). Returns the case folder.
  Result<std::string> recordFinding(int64_t runId, const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand);
  /// Closes a run with its totals.
  Status endRun(int64_t runId, int64_t cases, int64_t findings, double seconds);

  const std::string &outDir() const { return outDir_; }
  std::string databasePath() const;

private:
  FindingStore(std::string outDir, sqlite3 *db);
  Status exec(const std::string &sql);

  std::string outDir_;
  sqlite3 *db_;
};

} // namespace sift::harness
