//===- harness/nightly/NightlyDb.h - A night's tables -----------*- C++ -*-===//
//
// The nightly's own tables, beside the campaign's in the night's
// findings.db: `nightly` (the night: start, seed, budget, exit code),
// `nightly_replay` (the corpus replay, case by case), `nightly_cells` (cases
// per cell tonight and decayed over recent nights, for the next schedule)
// and `nightly_signatures` (each signature's status against the previous
// night: new, open, fixed, flaky, known; its case, reduced case and detection
// time). Also reads a previous night's database, read-only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace sift::harness {

/// A signature as a night sees it.
struct NightSignature {
  std::string text, verdict;
  int64_t count = 0;
  std::string firstSeen, lastSeen;
  /// The first stored case folder of the signature ("" when none).
  std::string caseDir;
  /// new, open, fixed, flaky or known (tonight's status), or the previous
  /// night's.
  std::string status;
  std::string reducedDir;
  int64_t reducedSize = -1;
  /// Seconds from the night's start to its first finding (-1: unknown).
  double detectionSeconds = -1;
  std::string note;
  /// The known root causes its findings were tagged with ("R2", "R4|R13";
  /// table known_causes) and the file that says so; "" when none.
  std::string knownCauses, knownFile;
  /// The pipelines it was found in, by their stored names ("cpu,xla").
  std::string pipelines;
};

/// One database, opened by path; every call's error names the file.
class NightDb {
public:
  /// Opens `path` (created unless `readOnly`).
  static Result<std::unique_ptr<NightDb>> open(const std::string &path,
                                               bool readOnly);
  ~NightDb();

  /// Creates the nightly tables when missing.
  Status createTables();
  Status exec(const std::string &sql);
  /// Rows of `sql` as text (NULL as ""), at most `limit`.
  Result<std::vector<std::vector<std::string>>>
  rows(const std::string &sql, size_t limit = SIZE_MAX);
  bool hasTable(const std::string &name);

  /// The campaign's signatures with their first case folder, absolute
  /// (relative folders are taken from `baseDir`).
  Result<std::vector<NightSignature>> campaignSignatures(
      const std::string &baseDir);
  /// The `nightly_signatures` rows (a night's statuses, reduced sizes and
  /// detection times).
  Result<std::vector<NightSignature>> nightSignatures();
  /// Cases per cell over recent nights (`nightly_cells.recent`).
  Result<std::map<std::string, double>> recentCells();
  /// Cases per cell in this database's runs of nightly slots.
  Result<std::map<std::string, int64_t>> casesPerCell();

  const std::string &path() const { return path_; }

private:
  NightDb(std::string path, sqlite3 *db) : path_(std::move(path)), db_(db) {}
  std::string path_;
  sqlite3 *db_;
};

/// The CREATE TABLE IF NOT EXISTS statements of the nightly tables.
const char *nightlyTablesSql();

/// `text` as an SQL string literal.
std::string sqlQuoted(const std::string &text);

/// An error naming `path` when sqlite's integrity_check finds schema `schema`
/// ("main", or an attached one) of `db` damaged (a torn page, an index
/// that disagrees with its table: what later shows as "UNIQUE constraint
/// failed" or wrong counts); success when it is intact.
Status checkIntact(sqlite3 *db, const std::string &schema,
                   const std::string &path);

} // namespace sift::harness
