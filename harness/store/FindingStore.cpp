//===- FindingStore.cpp - Findings on disk: case folders and SQLite -------===//
//
// The schema (one statement per table, created if missing):
//   runs(id, started, finished, command, pipeline, inputs, seed, cases,
//        findings, seconds)
//   signatures(id, text UNIQUE, verdict, count, first_seen, last_seen)
//   findings(id, run, seed, pipeline, target, verdict, stage, signature,
//            detail, case_dir, found)
// The database runs in WAL mode; every statement commits on its own.
//
//===----------------------------------------------------------------------===//

#include "harness/store/FindingStore.h"

#include "harness/case/ProgramJson.h"

#include "generators/Policy.h"
#include "generators/ProgramGenerator.h"
#include "support/FileIO.h"
#include "support/Npy.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <regex>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sift::harness {

namespace {

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

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

Status writeTensors(const fs::path &dir, const std::string &prefix,
                    const std::vector<HostTensor> &tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::string path = (dir / (prefix + std::to_string(i) + ".npy")).string();
    if (Status status = writeNpy(path, tensors[i]); !status.ok())
      return status;
  }
  return Status::success();
}

} // namespace

namespace {

/// Replaces numbers (decimal, hex, floats, signs) with N, except digits that
/// belong to an identifier (f32, i64, sm_90, %v12 is handled by the SSA rule)
/// so type names survive; the "x" between shape dimensions is a separator.
std::string normalizeNumbers(const std::string &text) {
  std::string out;
  size_t i = 0, n = text.size();
  auto isIdent = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  };
  auto isDigit = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  };
  while (i < n) {
    char c = text[i];
    bool shapeSeparator = i >= 2 && text[i - 1] == 'x' && isDigit(text[i - 2]);
    bool inIdentifier = i > 0 && (isIdent(text[i - 1]) || isDigit(text[i - 1]));
    if (isDigit(c) && (!inIdentifier || shapeSeparator)) {
      // A number: digits, hex digits after 0x, a fraction, an exponent.
      if (c == '0' && i + 1 < n && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
          i + 2 < n && std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
        i += 2;
        while (i < n && std::isxdigit(static_cast<unsigned char>(text[i])))
          ++i;
      } else {
        while (i < n && (isDigit(text[i]) || text[i] == '.'))
          ++i;
        if (i + 1 < n && (text[i] == 'e' || text[i] == 'E') &&
            (isDigit(text[i + 1]) || text[i + 1] == '-' ||
             text[i + 1] == '+')) {
          i += 2;
          while (i < n && isDigit(text[i]))
            ++i;
        }
      }
      if (!out.empty() && out.back() == '-')
        out.pop_back();
      out += 'N';
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

} // namespace

std::string findingSignature(const CaseResult &result) {
  std::string first = result.detail.substr(0, result.detail.find('\n'));
  // Drop a leading "file:line:col: " or loc("file":line:col) location.
  static const std::regex location(R"(^[^ :]+:\d+:\d+: |^loc\([^)]*\): )");
  first = std::regex_replace(first, location, "");
  static const std::regex ssa(R"(%[A-Za-z0-9_#]+)");
  static const std::regex path(R"((/[^ /:'"]+)+)");
  first = std::regex_replace(first, ssa, "%V");
  first = std::regex_replace(first, path, "PATH");
  first = normalizeNumbers(first);
  // The op the case is about (its first sort, top-k or NMS; from the text
  // when there is no model).
  std::string op = "-";
  for (const gen::Op &candidate : result.program.ops)
    if (candidate.kind == gen::OpKind::Sort ||
        candidate.kind == gen::OpKind::TopK ||
        candidate.kind == gen::OpKind::Nms) {
      op = std::string(gen::toString(candidate.kind));
      break;
    }
  if (result.program.ops.empty()) {
    size_t sort = result.mlir.find("sift.sort"),
           topk = result.mlir.find("sift.topk"),
           nms = result.mlir.find("sift.nms");
    size_t first = std::min({sort, topk, nms});
    if (first != std::string::npos)
      op = first == sort ? "sort" : first == topk ? "topk" : "nms";
  }
  return std::string(oracle::toString(result.verdict)) + "|" + result.stage +
         "|" + first + "|" + op;
}

Result<std::string> writeCaseFolder(const std::string &parent,
                                    const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand) {
  char name[128];
  std::snprintf(name, sizeof(name), "%s-%s-%s-%016llx",
                std::string(oracle::toString(result.verdict)).c_str(),
                std::string(toString(result.pipeline)).c_str(),
                std::string(toString(result.target)).c_str(),
                static_cast<unsigned long long>(result.seed));
  return writeCaseFolderAt((fs::path(parent) / name).string(), result,
                           options, reproCommand, nlohmann::json::object(),
                           /*keepOtherFiles=*/false);
}

namespace {

/// Writes the files of a case folder into `dir` (which exists).
Status fillCaseFolder(const fs::path &dir, const CaseResult &result,
                      const CaseOptions &options,
                      const std::string &reproCommand,
                      const nlohmann::json &extra) {
  // The texts: the program always, a crash's stderr and reproducer when
  // there are any.
  for (auto [name, text] : {std::pair{"program.mlir", &result.mlir},
                            {"stderr.txt", &result.log},
                            {"reproducer.mlir", &result.reproducer}}) {
    if (text->empty() && std::string(name) != "program.mlir")
      continue;
    if (Status s = writeFileAtomic(
            (dir / name).string(),
            reinterpret_cast<const uint8_t *>(text->data()), text->size());
        !s.ok())
      return s.error();
  }
  for (auto [prefix, tensors] : {std::pair{"input", &result.inputs},
                                 {"expected", &result.expected},
                                 {"actual", &result.actual}})
    if (Status s = writeTensors(dir, prefix, *tensors); !s.ok())
      return s.error();
  nlohmann::json info = {
      {"seed", result.seed},
      {"pipeline", std::string(toString(result.pipeline))},
      {"target", std::string(toString(result.target))},
      {"inputs", std::string(gen::toString(options.inputs))},
      {"verdict", std::string(oracle::toString(result.verdict))},
      {"stage", result.stage},
      {"signature", findingSignature(result)},
      {"detail", result.detail},
      {"repro", reproCommand},
      {"program_weight", result.program.weight()},
      // What `harness replay` needs (corpus/FORMAT.md).
      {"format", 1},
      {"generator_version", gen::kGeneratorVersion},
      {"chip", options.chip},
      {"random_config", options.randomConfig},
      {"program", programToJson(result.program)},
  };
  json faults = json::array();
  for (Fault fault : kAllFaults)
    if (options.faults.contains(fault))
      faults.push_back(std::string(toString(fault)));
  info["faults"] = faults;
  if (!result.reproducer.empty())
    info["reproducer"] = "sift-opt --run-reproducer reproducer.mlir";
  for (const auto &[field, value] : extra.items())
    info[field] = value;
  std::string text = info.dump(2) + "\n";
  if (Status s = writeFileAtomic((dir / "case.json").string(),
                                 reinterpret_cast<const uint8_t *>(text.data()),
                                 text.size());
      !s.ok())
    return s.error();
  return Status::success();
}

/// Removes a temporary folder when its writer gives up.
struct RemoveOnFailure {
  fs::path dir;
  bool keep = false;
  ~RemoveOnFailure() {
    std::error_code ec;
    if (!keep)
      fs::remove_all(dir, ec);
  }
};

} // namespace

Result<std::string> writeCaseFolderAt(const std::string &folder,
                                      const CaseResult &result,
                                      const CaseOptions &options,
                                      const std::string &reproCommand,
                                      const nlohmann::json &extra,
                                      bool keepOtherFiles) {
  fs::path finalDir = fs::path(folder).lexically_normal();
  if (finalDir.filename().empty())
    finalDir = finalDir.parent_path();
  std::error_code ec;
  // Only a case folder is ever replaced.
  if (fs::exists(finalDir, ec) && !fs::exists(finalDir / "case.json", ec))
    return makeError(finalDir.string() +
                     ": exists and is not a case folder (no case.json); "
                     "refusing to replace it");
  fs::path parent = finalDir.parent_path();
  if (parent.empty())
    parent = ".";
  std::string suffix = finalDir.filename().string() + "-" +
                       std::to_string(::getpid());
  fs::path tempDir = parent / (".tmp-" + suffix);
  fs::path oldDir = parent / (".old-" + suffix);
  fs::create_directories(parent, ec);
  fs::remove_all(tempDir, ec);
  fs::create_directories(tempDir, ec);
  if (ec)
    return makeError(tempDir.string() + ": " + ec.message());
  RemoveOnFailure cleanup{tempDir};
  if (Status s = fillCaseFolder(tempDir, result, options, reproCommand, extra);
      !s.ok())
    return s.error();
  // Files of the old folder this writer does not make (a reduced.mlir, a
  // note), when asked to keep them.
  if (keepOtherFiles && fs::is_directory(finalDir, ec))
    for (const fs::directory_entry &entry :
         fs::directory_iterator(finalDir, ec))
      if (entry.is_regular_file() &&
          !fs::exists(tempDir / entry.path().filename(), ec)) {
        std::string name = entry.path().filename().string();
        bool generated = name.rfind("input", 0) == 0 ||
                         name.rfind("expected", 0) == 0 ||
                         name.rfind("actual", 0) == 0 ||
                         name == "reproducer.mlir" || name == "stderr.txt";
        if (!generated)
          fs::copy_file(entry.path(), tempDir / name, ec);
      }
  // Swap: the old folder aside, the new one in, then the old one away, so
  // a failure leaves one of them whole.
  bool hadOld = fs::exists(finalDir, ec);
  if (hadOld) {
    fs::remove_all(oldDir, ec);
    fs::rename(finalDir, oldDir, ec);
    if (ec)
      return makeError(finalDir.string() + ": " + ec.message());
  }
  fs::rename(tempDir, finalDir, ec);
  if (ec) {
    std::string message = finalDir.string() + ": " + ec.message();
    if (hadOld)
      fs::rename(oldDir, finalDir, ec);
    return makeError(message);
  }
  cleanup.keep = true;
  if (hadOld)
    fs::remove_all(oldDir, ec);
  return finalDir.string();
}

std::string FindingStore::databasePath() const {
  return (fs::path(outDir_) / "findings.db").string();
}

FindingStore::FindingStore(std::string outDir, sqlite3 *db, int lockFd)
    : outDir_(std::move(outDir)), db_(db), lockFd_(lockFd) {}

FindingStore::~FindingStore() {
  sqlite3_close(db_);
  ::close(lockFd_); // releases the folder's lock
}

namespace {

/// Takes `outDir/lock` (flock, released when the process ends however it
/// ends) and writes this process's pid in it; the error names the holder.
Result<int> lockOutputFolder(const std::string &outDir) {
  std::string path = (fs::path(outDir) / "lock").string();
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return makeError(path + ": cannot open the output folder's lock: " +
                     std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int error = errno;
    char holder[32] = {};
    ssize_t n = ::pread(fd, holder, sizeof(holder) - 1, 0);
    ::close(fd);
    if (error != EWOULDBLOCK)
      return makeError(path + ": cannot lock the output folder: " +
                       std::strerror(error));
    std::string pid = n > 0 ? std::string(holder, static_cast<size_t>(n)) : "";
    while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' '))
      pid.pop_back();
    return makeError(
        outDir + " is in use by another harness" +
        (pid.empty() ? "" : " (pid " + pid + ")") +
        ": two jobs on one output folder would record the same findings "
        "twice; wait for it to end, or give this one another --out");
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
  auto lock = lockOutputFolder(outDir);
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
                            const std::string &reproCommand) {
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
  fs::path finalDir;
  if (keepFolder) {
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
  insert.bind(3, std::string(toString(result.pipeline)));
  insert.bind(4, std::string(toString(result.target)));
  insert.bind(5, std::string(oracle::toString(result.verdict)));
  insert.bind(6, result.stage);
  insert.bind(7, signature);
  insert.bind(8, result.detail);
  insert.bind(9, keepFolder ? finalDir.string() : std::string());
  insert.bind(10, now);
  if (sqlite3_step(insert.get()) != SQLITE_DONE)
    return rollback(sqliteError(db_, "storing the finding"));
  if (Status s = exec("COMMIT"); !s.ok())
    return s.error();
  return keepFolder ? finalDir.string() : std::string();
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
