//===- harness/nightly/NightlyDb.cpp - A night's tables -------------------===//

#include "harness/nightly/NightlyDb.h"

#include <sqlite3.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace sift::harness {

std::string sqlQuoted(const std::string &text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

Status checkIntact(sqlite3 *db, const std::string &schema,
                   const std::string &path) {
  sqlite3_stmt *stmt = nullptr;
  std::string sql = "PRAGMA " + schema + ".integrity_check(1)";
  std::string problem;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    problem = sqlite3_errmsg(db);
  } else {
    int step = sqlite3_step(stmt);
    if (step == SQLITE_ROW) {
      const unsigned char *text = sqlite3_column_text(stmt, 0);
      std::string first = text ? reinterpret_cast<const char *>(text) : "";
      if (first != "ok")
        problem = first;
    } else {
      problem = sqlite3_errmsg(db);
    }
  }
  sqlite3_finalize(stmt);
  if (problem.empty())
    return Status::success();
  for (char &c : problem)
    if (c == '\n')
      c = ' ';
  return makeError(
      path + ": the database is damaged (sqlite's integrity_check: " + problem +
      "); restore it from a copy, or leave it out");
}

Result<std::unique_ptr<NightDb>> NightDb::open(const std::string &path,
                                               bool readOnly) {
  sqlite3 *db = nullptr;
  int flags = readOnly ? SQLITE_OPEN_READONLY
                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return makeError(path + ": cannot open the database: " + message);
  }
  sqlite3_busy_timeout(db, 10000);
  std::unique_ptr<NightDb> night(new NightDb(path, db));
  // A file that is not a database fails here, not at the first query.
  if (Status s = night->exec("SELECT count(*) FROM sqlite_master"); !s.ok())
    return s.error();
  if (readOnly)
    if (Status s = checkIntact(db, "main", path); !s.ok())
      return s.error();
  return night;
}

NightDb::~NightDb() { sqlite3_close(db_); }

Status NightDb::exec(const std::string &sql) {
  char *message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) !=
      SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return makeError(path_ + ": " + text);
  }
  return Status::success();
}

Result<std::vector<std::vector<std::string>>>
NightDb::rows(const std::string &sql, size_t limit) {
  sqlite3_stmt *stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    return makeError(path_ + ": " + sqlite3_errmsg(db_));
  std::vector<std::vector<std::string>> out;
  int step;
  while (out.size() < limit && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < sqlite3_column_count(stmt); ++c) {
      const unsigned char *text = sqlite3_column_text(stmt, c);
      row.emplace_back(text ? reinterpret_cast<const char *>(text) : "");
    }
    out.push_back(std::move(row));
  }
  bool failed = out.size() < limit && step != SQLITE_DONE;
  std::string message = failed ? sqlite3_errmsg(db_) : "";
  sqlite3_finalize(stmt);
  if (failed)
    return makeError(path_ + ": " + message);
  return out;
}

bool NightDb::hasTable(const std::string &name) {
  auto found = rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                    "name = " + sqlQuoted(name));
  return found.ok() && !found->empty();
}

const char *nightlyTablesSql() {
  return R"sql(
    CREATE TABLE IF NOT EXISTS nightly(
      id INTEGER PRIMARY KEY, started TEXT, finished TEXT, seed INTEGER,
      seconds REAL, shard TEXT, previous TEXT, spent REAL, exit_code INTEGER,
      command TEXT);
    CREATE TABLE IF NOT EXISTS nightly_replay(
      name TEXT PRIMARY KEY, folder TEXT, recorded TEXT, observed TEXT,
      changed INTEGER, error TEXT, seconds REAL);
    CREATE TABLE IF NOT EXISTS nightly_cells(
      cell TEXT PRIMARY KEY, cases INTEGER, recent REAL);
    CREATE TABLE IF NOT EXISTS nightly_signatures(
      signature TEXT PRIMARY KEY, verdict TEXT, status TEXT, count INTEGER,
      first_seen TEXT, last_seen TEXT, case_dir TEXT, reduced_dir TEXT,
      reduced_size INTEGER, detection_seconds REAL, note TEXT);
  )sql";
}

Status NightDb::createTables() { return exec(nightlyTablesSql()); }

namespace {

/// The columns both signature queries select, in this order.
NightSignature signatureOf(const std::vector<std::string> &row) {
  NightSignature s;
  s.text = row[0];
  s.verdict = row[1];
  s.count = std::atoll(row[2].c_str());
  s.firstSeen = row[3];
  s.lastSeen = row[4];
  s.caseDir = row[5];
  s.status = row[6];
  s.reducedDir = row[7];
  s.reducedSize = row[8].empty() ? -1 : std::atoll(row[8].c_str());
  s.detectionSeconds = row[9].empty() ? -1 : std::atof(row[9].c_str());
  s.note = row[10];
  // campaignSignatures' own columns: pipelines, known causes, their file.
  if (row.size() > 13) {
    s.pipelines = row[11];
    s.knownCauses = row[12];
    s.knownFile = row[13];
  }
  return s;
}

} // namespace

Result<std::vector<NightSignature>>
NightDb::campaignSignatures(const std::string &baseDir) {
  // Databases from before the known_causes table have no tags.
  std::string known = hasTable("known_causes")
                          ? "k.causes, k.source FROM signatures s LEFT JOIN "
                            "known_causes k ON k.signature = s.id"
                          : "'', '' FROM signatures s";
  auto found =
      rows("SELECT s.text, s.verdict, s.count, s.first_seen, s.last_seen, "
           "(SELECT case_dir FROM findings f WHERE f.signature = s.id AND "
           "f.case_dir != '' ORDER BY f.id LIMIT 1), '', '', '', '', '', "
           "(SELECT group_concat(DISTINCT f.pipeline) FROM findings f WHERE "
           "f.signature = s.id), " +
           known + " WHERE s.count > 0 ORDER BY s.first_seen, s.id");
  if (!found.ok())
    return found.error();
  std::vector<NightSignature> out;
  for (const auto &row : *found) {
    NightSignature s = signatureOf(row);
    if (!s.caseDir.empty() && fs::path(s.caseDir).is_relative() &&
        !fs::exists(s.caseDir))
      s.caseDir = (fs::path(baseDir) / "cases" /
                   fs::path(s.caseDir).filename()).string();
    if (!s.caseDir.empty())
      s.caseDir = fs::absolute(s.caseDir).lexically_normal().string();
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<NightSignature>> NightDb::nightSignatures() {
  if (!hasTable("nightly_signatures"))
    return std::vector<NightSignature>{};
  auto found = rows("SELECT signature, verdict, count, first_seen, last_seen, "
                    "case_dir, status, reduced_dir, reduced_size, "
                    "detection_seconds, note FROM nightly_signatures "
                    "ORDER BY first_seen, signature");
  if (!found.ok())
    return found.error();
  std::vector<NightSignature> out;
  for (const auto &row : *found)
    out.push_back(signatureOf(row));
  return out;
}

Result<std::map<std::string, double>> NightDb::recentCells() {
  std::map<std::string, double> out;
  if (!hasTable("nightly_cells"))
    return out;
  auto found = rows("SELECT cell, recent FROM nightly_cells");
  if (!found.ok())
    return found.error();
  for (const auto &row : *found)
    out[row[0]] = std::atof(row[1].c_str());
  return out;
}

Result<std::map<std::string, int64_t>> NightDb::casesPerCell() {
  std::map<std::string, int64_t> out;
  if (!hasTable("runs"))
    return out;
  // Slot runs carry "nightly slot K cell NAME:" in their command.
  auto found = rows("SELECT command, cases FROM runs WHERE command LIKE "
                    "'nightly slot % cell %'");
  if (!found.ok())
    return found.error();
  for (const auto &row : *found) {
    size_t at = row[0].find(" cell ");
    size_t end = row[0].find(':', at);
    if (at == std::string::npos || end == std::string::npos)
      continue;
    out[row[0].substr(at + 6, end - at - 6)] += std::atoll(row[1].c_str());
  }
  return out;
}

} // namespace sift::harness
