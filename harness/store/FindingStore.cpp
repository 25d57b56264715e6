//===- FindingStore.cpp - The findings database (SQLite) ------------------===//
//
// The schema (one statement per table, created if missing):
//   runs(id, started, finished, command, pipeline, inputs, seed, cases,
//        findings, seconds)    finished is NULL while a run can be resumed
//   progress(run, resume_key, first_case, next_case, resumed_by, tally)
//   signatures(id, text UNIQUE, verdict, count, first_seen, last_seen)
//   findings(id, run, seed, pipeline, target, verdict, stage, signature,
//            detail, case_dir, found)
// The database runs in WAL mode; every statement commits on its own.
//
//===----------------------------------------------------------------------===//

#include "harness/store/FindingStore.h"



#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <limits>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sift::harness {

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

double epochOfUtc(const std::string &utc) {
  std::tm tm{};
  if (!strptime(utc.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm))
    return -1;
  return static_cast<double>(timegm(&tm));
}

namespace {

/// A prepared statement that finalizes itself.
class Statement {
public:
  Statement(sqlite3 *db, const char *sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      stmt_ = nullptr;
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  bool ok() const { return stmt_ != nullptr; }
  sqlite3_stmt *get() { return stmt_; }
  void bind(int i, const std::string &text) {
    sqlite3_bind_text(stmt_, i, text.c_str(), -1, SQLITE_TRANSIENT);
  }
  void bind(int i, int64_t value) { sqlite3_bind_int64(stmt_, i, value); }
  void bind(int i, double value) { sqlite3_bind_double(stmt_, i, value); }

private:
  sqlite3_stmt *stmt_ = nullptr;
};

Error sqliteError(sqlite3 *db, const std::string &what) {
  return makeError("findings database: " + what + ": " + sqlite3_errmsg(db));
}

} // namespace

std::string FindingStore::databasePath() const {
  return (fs::path(outDir_) / "findings.db").string();
}

FindingStore::FindingStore(std::string outDir, sqlite3 *db, int lockFd)
    : outDir_(std::move(outDir)), db_(db), lockFd_(lockFd) {}

FindingStore::~FindingStore() {
  sqlite3_close(db_);
  ::close(lockFd_); // releases the folder's lock
}

Result<int> lockFolder(const std::string &outDir, const std::string &name,
                       const std::string &holder, const std::string &why) {
  std::string path = (fs::path(outDir) / name).string();
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return makeError(path + ": cannot open the output folder's lock: " +
                     std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    char text[32] = {};
    ssize_t n = ::pread(fd, text, sizeof(text) - 1, 0);
    ::close(fd);
    if (error != EWOULDBLOCK)
      return makeError(path + ": cannot lock the output folder: " +
                       std::strerror(error));
    std::string pid = n > 0 ? std::string(text, static_cast<size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    return makeError(outDir + " is in use by " + holder +
                     (pid.empty() ? "" : " (pid " + pid + ")") + ": " + why);
  }
  std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 ||
      ::pwrite(fd, pid.data(), pid.size(), 0) !=
          static_cast<ssize_t>(pid.size())) {
    ::close(fd);
    return makeError(path + ": cannot write the output folder's lock");
  }
  return fd;
}

namespace {

/// Adds `progress.tally` to a database made before it existed.
Status addTallyColumn(sqlite3 *db) {
  sqlite3_stmt *stmt = nullptr;
  bool has = false;
  if (sqlite3_prepare_v2(db, "PRAGMA table_info(progress)", -1, &stmt,
                         nullptr) != SQLITE_OK)
    return sqliteError(db, "reading the progress table");
  while (sqlite3_step(stmt) == SQLITE_ROW)
    if (const unsigned char *name = sqlite3_column_text(stmt, 1))
      has = has || std::string(reinterpret_cast<const char *>(name)) == "tally";
  sqlite3_finalize(stmt);
  if (has)
    return Status::success();
  if (sqlite3_exec(db, "ALTER TABLE progress ADD COLUMN tally TEXT", nullptr,
                   nullptr, nullptr) != SQLITE_OK)
    return sqliteError(db, "adding the progress tally");
  return Status::success();
}

} // namespace

Result<std::unique_ptr<FindingStore>>
FindingStore::open(const std::string &outDir) {
  if (outDir.empty())
    return makeError("the output folder name is empty");
  std::error_code ec;
  fs::create_directories(fs::path(outDir) / "cases", ec);
  if (ec)
    return makeError(outDir +
                     ": cannot create the output folder: " + ec.message());
  auto lock = lockFolder(outDir, "lock", "another harness",
                         "two jobs on one output folder would record the "
                         "same findings twice; wait for it to end, or give "
                         "this one another --out");
  if (!lock.ok())
    return lock.error();
  std::string dbPath = (fs::path(outDir) / "findings.db").string();
  sqlite3 *db = nullptr;
  if (sqlite3_open(dbPath.c_str(), &db) != SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    ::close(*lock);
    return makeError(dbPath +
                     ": cannot open the findings database: " + message);
  }
  sqlite3_busy_timeout(db, 5000);
  std::unique_ptr<FindingStore> store(new FindingStore(outDir, db, *lock));
  const char *schema = R"sql(
    PRAGMA journal_mode=WAL;
    PRAGMA synchronous=NORMAL;
    CREATE TABLE IF NOT EXISTS runs(
      id INTEGER PRIMARY KEY, started TEXT, finished TEXT, command TEXT,
      pipeline TEXT, inputs TEXT, seed INTEGER, cases INTEGER,
      findings INTEGER, seconds REAL);
    CREATE TABLE IF NOT EXISTS signatures(
      id INTEGER PRIMARY KEY, text TEXT UNIQUE NOT NULL, verdict TEXT,
      count INTEGER NOT NULL DEFAULT 0, first_seen TEXT, last_seen TEXT);
    CREATE TABLE IF NOT EXISTS progress(
      run INTEGER PRIMARY KEY REFERENCES runs(id), resume_key TEXT,
      first_case INTEGER, next_case INTEGER, resumed_by INTEGER);
    CREATE TABLE IF NOT EXISTS findings(
      id INTEGER PRIMARY KEY, run INTEGER REFERENCES runs(id), seed INTEGER,
      pipeline TEXT, target TEXT, verdict TEXT, stage TEXT,
      signature INTEGER REFERENCES signatures(id), detail TEXT,
      case_dir TEXT, found TEXT);
    CREATE TABLE IF NOT EXISTS known_causes(
      signature INTEGER PRIMARY KEY REFERENCES signatures(id),
      causes TEXT NOT NULL, source TEXT);
  )sql";
  if (Status status = store->exec(schema); !status.ok())
    return makeError(dbPath + ": " + status.message());
  if (Status status = addTallyColumn(db); !status.ok())
    return makeError(dbPath + ": " + status.message());
  return store;
}

Status FindingStore::exec(const std::string &sql) {
  char *message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return makeError("findings database: " + text);
  }
  return Status::success();
}

Result<int64_t> FindingStore::beginRun(const RunInfo &info) {
  Statement stmt(db_, "INSERT INTO runs(started, command, pipeline, inputs, "
                      "seed, cases, findings) VALUES(?, ?, ?, ?, ?, 0, 0)");
  if (!stmt.ok())
    return sqliteError(db_, "preparing the run");
  stmt.bind(1, nowUtc());
  stmt.bind(2, info.command);
  stmt.bind(3, info.pipeline);
  stmt.bind(4, info.inputs);
  stmt.bind(5, static_cast<int64_t>(info.seed));
  if (sqlite3_step(stmt.get()) != SQLITE_DONE)
    return sqliteError(db_, "inserting the run");
  int64_t run = static_cast<int64_t>(sqlite3_last_insert_rowid(db_));
  Statement progress(db_, "INSERT INTO progress(run, resume_key, first_case, "
                          "next_case) VALUES(?, ?, ?, ?)");
  if (!progress.ok())
    return sqliteError(db_, "preparing the run's progress");
  progress.bind(1, run);
  progress.bind(2, info.resumeKey);
  progress.bind(3, static_cast<int64_t>(info.firstCase));
  progress.bind(4, static_cast<int64_t>(info.firstCase));
  if (sqlite3_step(progress.get()) != SQLITE_DONE)
    return sqliteError(db_, "inserting the run's progress");
  return run;
}

Status FindingStore::recordProgress(int64_t runId, uint64_t nextCase,
                                    int64_t cases, const std::string &tally) {
  Statement stmt(db_,
                 "UPDATE progress SET next_case = ?, tally = ? WHERE run = ?");
  Statement run(db_, "UPDATE runs SET cases = ? WHERE id = ?");
  if (!stmt.ok() || !run.ok())
    return sqliteError(db_, "preparing the progress");
  stmt.bind(1, static_cast<int64_t>(nextCase));
  stmt.bind(2, tally);
  stmt.bind(3, runId);
  run.bind(1, cases);
  run.bind(2, runId);
  if (sqlite3_step(stmt.get()) != SQLITE_DONE ||
      sqlite3_step(run.get()) != SQLITE_DONE)
    return sqliteError(db_, "storing the progress");
  return Status::success();
}

Result<std::optional<ResumePoint>>
FindingStore::findResumePoint(const std::string &resumeKey) {
  Statement stmt(db_, "SELECT progress.run, progress.next_case, "
                      "progress.tally FROM progress "
                      "JOIN runs ON runs.id = progress.run WHERE "
                      "progress.resume_key = ? AND runs.finished IS NULL AND "
                      "progress.resumed_by IS NULL ORDER BY progress.run DESC "
                      "LIMIT 1");
  if (!stmt.ok())
    return sqliteError(db_, "preparing the resume lookup");
  stmt.bind(1, resumeKey);
  int step = sqlite3_step(stmt.get());
  if (step == SQLITE_DONE)
    return std::optional<ResumePoint>();
  if (step != SQLITE_ROW)
    return sqliteError(db_, "looking up the campaign to resume");
  const unsigned char *tally = sqlite3_column_text(stmt.get(), 2);
  return std::optional<ResumePoint>(ResumePoint{
      sqlite3_column_int64(stmt.get(), 0),
      static_cast<uint64_t>(sqlite3_column_int64(stmt.get(), 1)),
      tally ? reinterpret_cast<const char *>(tally) : ""});
}

Result<std::optional<ResumePoint>>
FindingStore::findOverlappingRun(const std::string &resumeKey, uint64_t first,
                                 uint64_t end, uint64_t *overlapFirst) {
  auto clamp = [](uint64_t v) {
    return static_cast<int64_t>(
        std::min<uint64_t>(v, std::numeric_limits<int64_t>::max()));
  };
  Statement stmt(db_, "SELECT run, first_case, next_case FROM progress "
                      "WHERE resume_key = ? AND next_case > first_case AND "
                      "first_case < ? AND next_case > ? ORDER BY run LIMIT 1");
  if (!stmt.ok())
    return sqliteError(db_, "preparing the overlap lookup");
  stmt.bind(1, resumeKey);
  stmt.bind(2, clamp(end));
  stmt.bind(3, clamp(first));
  int step = sqlite3_step(stmt.get());
  if (step == SQLITE_DONE)
    return std::optional<ResumePoint>();
  if (step != SQLITE_ROW)
    return sqliteError(db_, "looking up earlier runs of the campaign");
  if (overlapFirst)
    *overlapFirst = static_cast<uint64_t>(sqlite3_column_int64(stmt.get(), 1));
  return std::optional<ResumePoint>(ResumePoint{
      sqlite3_column_int64(stmt.get(), 0),
      static_cast<uint64_t>(sqlite3_column_int64(stmt.get(), 2)), ""});
}

Status FindingStore::markResumed(int64_t run, int64_t byRun) {
  Statement stmt(db_, "UPDATE progress SET resumed_by = ? WHERE run = ?");
  if (!stmt.ok())
    return sqliteError(db_, "preparing the resume mark");
  stmt.bind(1, byRun);
  stmt.bind(2, run);
  if (sqlite3_step(stmt.get()) != SQLITE_DONE)
    return sqliteError(db_, "marking the resumed run");
  return Status::success();
}

Result<std::string>
FindingStore::recordFinding(int64_t runId, const CaseResult &result,
                            const CaseOptions &options,
                            const std::string &reproCommand,
                            const std::string &caseDir) {
  // 1. The case folder (unless its signature has kReprosPerSignature of
  // them), written under a temporary name, then renamed.
  std::string signatureText = findingSignature(result);
  int64_t stored = 0;
  {
    Statement count(db_, "SELECT count FROM signatures WHERE text = ?");
    if (count.ok()) {
      count.bind(1, signatureText);
      if (sqlite3_step(count.get()) == SQLITE_ROW)
        stored = sqlite3_column_int64(count.get(), 0);
    }
  }
  // A finding without its program (an imported row whose artifact is
  // gone) is a row only: a folder without a program could not be replayed.
  bool keepFolder = stored < kReprosPerSignature && !result.mlir.empty();
  fs::path finalDir = caseDir;
  if (!caseDir.empty()) {
    keepFolder = true;
  } else if (keepFolder) {
    Result<std::string> written =
        writeCaseFolder(outDir_ + "/cases", result, options, reproCommand);
    if (!written.ok())
      return written.error();
    finalDir = *written;
  }

  // 2. The signature and the finding, committed together.
  std::string signature = findingSignature(result);
  std::string now = nowUtc();
  if (Status s = exec("BEGIN IMMEDIATE"); !s.ok())
    return s.error();
  auto rollback = [&](Error error) -> Result<std::string> {
    (void)exec("ROLLBACK");
    return error;
  };
  {
    Statement upsert(db_, "INSERT INTO signatures(text, verdict, count, "
                          "first_seen, last_seen) VALUES(?, ?, 1, ?, ?) "
                          "ON CONFLICT(text) DO UPDATE SET count = count + 1, "
                          "last_seen = excluded.last_seen");
    if (!upsert.ok())
      return rollback(sqliteError(db_, "preparing the signature"));
    upsert.bind(1, signature);
    upsert.bind(2, std::string(oracle::toString(result.verdict)));
    upsert.bind(3, now);
    upsert.bind(4, now);
    if (sqlite3_step(upsert.get()) != SQLITE_DONE)
      return rollback(sqliteError(db_, "storing the signature"));
  }
  Statement insert(
      db_, "INSERT INTO findings(run, seed, pipeline, target, verdict, "
           "stage, signature, detail, case_dir, found) VALUES(?, ?, ?, ?, ?, "
           "?, (SELECT id FROM signatures WHERE text = ?), ?, ?, ?)");
  if (!insert.ok())
    return rollback(sqliteError(db_, "preparing the finding"));
  insert.bind(1, runId);
  insert.bind(2, static_cast<int64_t>(result.seed));
  insert.bind(3, pipelineName(result));
  insert.bind(4, std::string(toString(result.target)));
  insert.bind(5, std::string(oracle::toString(result.verdict)));
  insert.bind(6, result.stage.text());
  insert.bind(7, signature);
  insert.bind(8, result.detail);
  insert.bind(9, keepFolder ? finalDir.string() : std::string());
  insert.bind(10, now);
  if (sqlite3_step(insert.get()) != SQLITE_DONE)
    return rollback(sqliteError(db_, "storing the finding"));
  if (known_ && systemOf(result.pipeline) == SystemKind::Iree)
    if (Status s = tagKnownCauses(signature); !s.ok())
      return rollback(s.error());
  if (Status s = exec("COMMIT"); !s.ok())
    return s.error();
  return keepFolder ? finalDir.string() : std::string();
}

Status FindingStore::tagKnownCauses(const std::string &signature) {
  std::string causes = known_->causesOf(signature);
  if (causes.empty())
    return Status::success();
  Statement tag(db_, "INSERT OR REPLACE INTO known_causes(signature, causes, "
                     "source) VALUES((SELECT id FROM signatures WHERE text = "
                     "?), ?, ?)");
  if (!tag.ok())
    return sqliteError(db_, "preparing the root-cause tag");
  tag.bind(1, signature);
  tag.bind(2, causes);
  tag.bind(3, known_->path());
  if (sqlite3_step(tag.get()) != SQLITE_DONE)
    return sqliteError(db_, "storing the root-cause tag");
  return Status::success();
}

Result<std::map<std::string, int64_t>>
FindingStore::knownCauseCounts(int64_t *untagged) {
  std::map<std::string, int64_t> counts;
  Statement query(db_, "SELECT coalesce(k.causes, ''), count(*) FROM "
                       "findings f LEFT JOIN known_causes k ON k.signature "
                       "= f.signature GROUP BY 1");
  if (!query.ok())
    return sqliteError(db_, "preparing the root-cause counts");
  *untagged = 0;
  while (sqlite3_step(query.get()) == SQLITE_ROW) {
    const unsigned char *text = sqlite3_column_text(query.get(), 0);
    std::string causes = text ? reinterpret_cast<const char *>(text) : "";
    int64_t count = sqlite3_column_int64(query.get(), 1);
    if (causes.empty())
      *untagged += count;
    else
      counts[causes] = count;
  }
  return counts;
}

Status FindingStore::endRun(int64_t runId, int64_t cases, int64_t findings,
                            double seconds, bool finished) {
  Statement stmt(db_, "UPDATE runs SET finished = ?, cases = ?, findings = ?, "
                      "seconds = ? WHERE id = ?");
  if (!stmt.ok())
    return sqliteError(db_, "preparing the run update");
  if (finished)
    stmt.bind(1, nowUtc());
  else
    sqlite3_bind_null(stmt.get(), 1);
  stmt.bind(2, cases);
  stmt.bind(3, findings);
  stmt.bind(4, seconds);
  stmt.bind(5, runId);
  if (sqlite3_step(stmt.get()) != SQLITE_DONE)
    return sqliteError(db_, "closing the run");
  return Status::success();
}

} // namespace sift::harness
