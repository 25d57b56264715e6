//===- harness/nightly/Nightly.cpp - `harness nightly` --------------------===//
//
// One night in one folder: the corpus replayed first (a changed verdict is
// a regression), then fuzz slots over the cells recent nights covered
// least until 80% of the budget is spent, then each new signature reduced
// in a child `harness reduce` within its time box, then every signature
// compared with the previous night's: new, open, fixed (not seen, and its
// stored case now passes), flaky (its case did not reproduce every time),
// known (a root cause a known.json lists: not new, not reduced).
// `nightly.json` records the phase and slot after each step, so a killed
// night run again with the same command goes on where it stopped; a
// second nightly on the folder is refused (`nightly.lock`). The fuzz
// slots are in NightlySlots.cpp, the judging of the signatures in
// NightlyJudge.cpp.
//
//===----------------------------------------------------------------------===//

#include "harness/nightly/Nightly.h"
#include "harness/commands/Commands.h"

#include "harness/campaign/StopSignals.h"
#include "harness/case/CaseFolder.h"
#include "harness/report/BenchFindings.h"
#include "harness/report/BenchReport.h"
#include "harness/store/FindingStore.h"
#include "support/FileIO.h"
#include "support/Process.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <set>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

uint64_t todaySeed() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  return static_cast<uint64_t>((tm.tm_year + 1900) * 10000 +
                               (tm.tm_mon + 1) * 100 + tm.tm_mday);
}

const char *kPhases[] = {"replay", "fuzz", "reduce", "compare", "done"};

} // namespace

Night::Night(const NightlyOptions &options)
    : options_(options), start_(std::chrono::steady_clock::now()) {}

Night::~Night() {
  if (lockFd_ >= 0)
    ::close(lockFd_);
}

double Night::spent() const { return state_.spent + secondsSince(start_); }

std::string Night::statePath() const {
  return (fs::path(options_.outDir) / "nightly.json").string();
}

namespace {

template <typename T, typename Name>
std::string joined(const std::vector<T> &items, Name name) {
  std::string out;
  for (const T &item : items)
    out += (out.empty() ? "" : ",") + std::string(name(item));
  return out;
}

/// "--NAME=VALUE", or "no --NAME" for an option not given.
std::string shown(const std::string &name, const std::string &value) {
  return value.empty() ? "no --" + name : "--" + name + "=" + value;
}

} // namespace

/// What must match for a night to be resumed rather than refused: each
/// option that changes what the night runs or how it judges, by its flag
/// ("" when not given). --jobs may differ: a requeued job may get other
/// cores for the same work.
std::vector<std::pair<std::string, std::string>> Night::key() const {
  const NightSelection &s = options_.selection;
  std::string pipelines;
  if (options_.pipelinesGiven) {
    pipelines = joined(s.pipelines, [](PipelineKind k) { return toString(k); });
    for (const std::string &file : s.filePipelines)
      pipelines += (pipelines.empty() ? "" : ",") + file;
  }
  std::string systems;
  for (const auto &[pipeline, file] : options_.systemFiles)
    systems += (systems.empty() ? "" : ",") + file;
  auto seconds = [](double v) {
    return std::to_string(static_cast<int64_t>(v)) + "s";
  };
  return {
      {"seed", options_.seed ? std::to_string(options_.seed) : ""},
      {"time", seconds(options_.seconds)},
      {"shard", std::to_string(options_.shardIndex) + "/" +
                    std::to_string(options_.shardCount)},
      {"pipeline", pipelines},
      {"system", systems},
      {"target", joined(s.targets, [](TargetKind t) { return toString(t); })},
      {"family",
       joined(s.families, [](gen::Family f) { return gen::toString(f); })},
      {"inputs",
       joined(s.inputs, [](gen::InputMode m) { return gen::toString(m); })},
      {"inject", options_.injectText},
      {"known", options_.knownFile},
      {"explore-known", options_.exploreKnown ? "yes" : ""},
      {"device", std::string(rt::toString(options_.device))},
      {"corpus", options_.corpus.empty() ? "none" : options_.corpus},
      {"previous", options_.previous},
      {"bench", options_.benchTable},
      {"slot", seconds(options_.slotSeconds)},
      {"reduce-time", seconds(options_.reduceSeconds)},
      {"repeat", std::to_string(options_.repeats)},
      {"case-timeout", seconds(options_.caseTimeoutSeconds)}};
}

/// The options of `stored` (nightly.json's "options") that differ from
/// this night's, as "--X=A there, --X=B here"; "" when none does.
std::string Night::keyDifferences(const nlohmann::json &stored) const {
  std::string out;
  for (const auto &[name, value] : key()) {
    std::string before = stored.value(name, std::string());
    if (before != value)
      out += (out.empty() ? "" : "; ") + shown(name, before) + " there, " +
             shown(name, value) + " here";
  }
  return out;
}

Status Night::saveState() {
  nlohmann::json options = nlohmann::json::object();
  for (const auto &[name, value] : key())
    options[name] = value;
  nlohmann::json json = {{"format", "sift-nightly 1"},
                         {"options", options},
                         {"seed", state_.seed},
                         {"started", state_.started},
                         {"spent_seconds", spent()},
                         {"phase", state_.phase},
                         {"slot", state_.slot},
                         {"command", options_.commandLine}};
  std::string text = json.dump(2) + "\n";
  return writeFileAtomic(statePath(),
                         reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

Status Night::loadState() {
  std::error_code ec;
  if (!fs::exists(statePath(), ec)) {
    state_.seed = options_.seed ? options_.seed : todaySeed();
    state_.started = nowUtc();
    return saveState();
  }
  auto bytes = readFileBytes(statePath());
  if (!bytes.ok())
    return bytes.error();
  auto json = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr,
                                    /*allow_exceptions=*/false);
  try {
    if (!json.is_object() || json.at("format") != "sift-nightly 1")
      return makeError(statePath() + ": not a sift nightly state");
    state_.seed = json.at("seed").get<uint64_t>();
    state_.started = json.at("started").get<std::string>();
    state_.spent = json.at("spent_seconds").get<double>();
    state_.phase = json.at("phase").get<std::string>();
    state_.slot = json.at("slot").get<uint64_t>();
    // A night written before its options were recorded names none.
    std::string differ = json.contains("options")
                             ? keyDifferences(json.at("options"))
                             : "its nightly.json records no options";
    if (!differ.empty())
      return makeError(options_.outDir +
                       " holds a night started with other options: " + differ +
                       "; give this night another --out, or the same "
                       "options to go on");
  } catch (const nlohmann::json::exception &e) {
    return makeError(statePath() + ": malformed: " + e.what());
  }
  resumed_ = true;
  return Status::success();
}

Status Night::prepare() {
  // The previous night first: a database that cannot be compared with
  // fails before anything is created or run.
  if (!options_.previous.empty()) {
    auto previous = NightDb::open(options_.previous, /*readOnly=*/true);
    if (!previous.ok())
      return makeError("--previous: " + previous.message());
    // An empty or foreign database fails here, before the night's work,
    // not at the comparison that ends it.
    if (!(*previous)->hasTable("signatures") ||
        !(*previous)->hasTable("findings"))
      return makeError("--previous: " + options_.previous +
                       ": not a findings database (no signatures and "
                       "findings tables); give an earlier night's "
                       "findings.db");
    previous_ = std::move(*previous);
  }
  std::error_code ec;
  fs::create_directories(options_.outDir, ec);
  if (ec)
    return makeError(options_.outDir + ": cannot create the folder: " +
                     ec.message());
  auto lock = lockFolder(options_.outDir, "nightly.lock", "another nightly",
                         "two nights in one folder would mix their "
                         "findings; give this one another --out");
  if (!lock.ok())
    return lock.error();
  lockFd_ = *lock;
  if (Status s = loadState(); !s.ok())
    return s;
  {
    // The campaign's tables exist from the start, slots or none (a night
    // whose corpus replay takes its whole budget still has a database that
    // reports and merges read).
    auto store = FindingStore::open(options_.outDir);
    if (!store.ok())
      return store.error();
  }
  std::string dbPath = (fs::path(options_.outDir) / "findings.db").string();
  auto db = NightDb::open(dbPath, /*readOnly=*/false);
  if (!db.ok())
    return db.error();
  db_ = std::move(*db);
  if (Status s = db_->createTables(); !s.ok())
    return s;
  if (!options_.benchTable.empty()) {
    auto table = readBenchTableJson(
        (fs::path(options_.benchTable) / "table.json").string());
    if (!table.ok())
      return makeError("--bench: " + table.message());
    bench_ = std::make_unique<BenchTable>(std::move(*table));
  }
  return db_->exec(
      "INSERT OR IGNORE INTO nightly(id, started, seed, seconds, shard, "
      "previous, command) VALUES(1, " + sqlQuoted(state_.started) + ", " +
      std::to_string(static_cast<int64_t>(state_.seed)) + ", " +
      std::to_string(options_.seconds) + ", " +
      sqlQuoted(std::to_string(options_.shardIndex) + "/" +
                std::to_string(options_.shardCount)) + ", " +
      sqlQuoted(options_.previous) + ", " + sqlQuoted(options_.commandLine) +
      ")");
}

std::optional<double> Night::replayTimeout() const {
  // Unset for a night on emu: replay's default, 20 s a case and 300 s for
  // one whose kernels run on emu.
  if (options_.device == rt::DeviceKind::Emu)
    return std::nullopt;
  return std::min(options_.caseTimeoutSeconds, 20.0);
}

Status Night::replayCorpus() {
  if (options_.corpus.empty()) {
    std::printf("nightly: no corpus to replay (--corpus=none)\n");
    return Status::success();
  }
  std::vector<std::string> errors;
  std::vector<fs::path> found = findCaseFolders({options_.corpus}, errors);
  if (!errors.empty())
    return makeError("--corpus: " + errors.front());
  std::vector<std::string> mine;
  for (size_t i = 0; i < found.size(); ++i)
    if (i % options_.shardCount == options_.shardIndex)
      mine.push_back(found[i].string());
  std::printf("nightly: replaying %zu corpus cases of %s\n", mine.size(),
              options_.corpus.c_str());
  std::fflush(stdout);
  ReplayOptions replay;
  replay.caseTimeoutSeconds = replayTimeout();
  auto records = replayCaseFolders(mine, replay);
  if (!records.ok())
    return records.error();
  for (const ReplayRecord &r : *records) {
    bool changed = !r.failure.empty();
    if (Status s = db_->exec(
            "INSERT OR REPLACE INTO nightly_replay VALUES(" +
            sqlQuoted(r.name) + ", " + sqlQuoted(r.folder) + ", " +
            sqlQuoted(r.recorded) + ", " + sqlQuoted(r.observed) + ", " +
            std::to_string(changed) + ", " + sqlQuoted(r.error) + ", " +
            std::to_string(r.seconds) + ")");
        !s.ok())
      return s;
  }
  return Status::success();
}

/// Runs `harness reduce FOLDER --output=OUT` as a child for at most
/// `seconds`, then asks it to stop (it writes the smallest case so far).
int Night::reduceChild(const std::string &folder, const std::string &out,
                       double seconds, StopSignals &stop) {
  std::string log = out + ".log";
  // This very program, even when its file was replaced since it started.
  std::string self = "/proc/self/exe";
  // A case run on emu takes reduce's own default (300 s for those).
  std::string timeout = "--case-timeout=" +
                        std::to_string(static_cast<int>(
                            options_.device == rt::DeviceKind::Emu
                                ? options_.caseTimeoutSeconds
                                : std::min(options_.caseTimeoutSeconds, 20.0)));
  std::string output = "--output=" + out;
  pid_t pid = forkTiedChild();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    FILE *f = std::freopen(log.c_str(), "w", stdout);
    if (f)
      ::dup2(::fileno(stdout), 2);
    ::execl(self.c_str(), self.c_str(), "reduce", folder.c_str(),
            output.c_str(), timeout.c_str(), static_cast<char *>(nullptr));
    std::_Exit(127);
  }
  auto begin = std::chrono::steady_clock::now();
  bool termed = false;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    double elapsed = secondsSince(begin);
    if (!termed && (elapsed > seconds || stop.requested())) {
      ::kill(pid, SIGTERM);
      termed = true;
    }
    if (elapsed > seconds + options_.caseTimeoutSeconds + 30)
      ::kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string Night::reducedName(const std::string &signature) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : signature)
    hash = (hash ^ c) * 1099511628211ull;
  char text[24];
  std::snprintf(text, sizeof(text), "sig-%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

Status Night::reduceNew(StopSignals &stop) {
  auto tonight = tonightSignatures();
  auto previous = previousSignatures();
  if (!tonight.ok() || !previous.ok())
    return tonight.ok() ? previous.error() : tonight.error();
  fs::path reducedRoot = fs::path(options_.outDir) / "reduced";
  std::error_code ec;
  fs::create_directories(reducedRoot, ec);
  for (const NightSignature &sig : *tonight) {
    // A known root cause's reduced case is in the corpus already.
    if (previous->count(sig.text) || sig.caseDir.empty() ||
        !sig.knownCauses.empty())
      continue;
    fs::path out = reducedRoot / reducedName(sig.text);
    if (fs::exists(out / "case.json", ec))
      continue; // reduced before this night was stopped
    // Reduction stops at 90% so that the judging after it (replaying each
    // new signature --repeat times to tell flaky from new) has its share.
    double left = options_.seconds * 0.9 - spent();
    if (left < 3 || stop.requested())
      break;
    std::printf("nightly: reducing %s (%.0f s at most)\n",
                sig.text.substr(0, 100).c_str(),
                std::min(options_.reduceSeconds, left));
    std::fflush(stdout);
    reduceChild(sig.caseDir, out.string(),
                std::min(options_.reduceSeconds, left), stop);
    if (Status s = saveState(); !s.ok())
      return s;
  }
  return Status::success();
}

/// Replays `folder` `times` times; how many kept its recorded verdict, and
/// the last verdict seen ("" when unreadable).
Status Night::recordCells() {
  auto tonight = db_->casesPerCell();
  if (!tonight.ok())
    return tonight.error();
  std::map<std::string, double> recent;
  if (previous_) {
    auto before = previous_->recentCells();
    if (!before.ok())
      return before.error();
    for (const auto &[cell, cases] : *before)
      recent[cell] = cases / 2;
  }
  std::map<std::string, int64_t> cases = *tonight;
  for (const auto &[cell, count] : cases)
    recent[cell] += static_cast<double>(count);
  if (Status s = db_->exec("DELETE FROM nightly_cells"); !s.ok())
    return s;
  for (const auto &[cell, value] : recent)
    if (Status s = db_->exec("INSERT INTO nightly_cells VALUES(" +
                             sqlQuoted(cell) + ", " +
                             std::to_string(cases[cell]) + ", " +
                             std::to_string(value) + ")");
        !s.ok())
      return s;
  return Status::success();
}

namespace {

/// The count of `sql` (a SELECT count(*)), 0 on error.
int64_t countOf(NightDb &db, const std::string &sql) {
  auto found = db.rows(sql);
  return found.ok() && !found->empty() ? std::atoll((*found)[0][0].c_str())
                                       : 0;
}

} // namespace

/// Prints what the night found, regressions first; returns the exit code.
int Night::summarize() {
  int64_t replayed = countOf(*db_, "SELECT count(*) FROM nightly_replay");
  int64_t changed =
      countOf(*db_, "SELECT count(*) FROM nightly_replay WHERE changed = 1");
  std::printf("nightly: corpus: %lld replayed, %lld changed verdict%s\n",
              static_cast<long long>(replayed),
              static_cast<long long>(changed), changed == 1 ? "" : "s");
  if (auto rows = db_->rows("SELECT name, recorded, observed, folder FROM "
                            "nightly_replay WHERE changed = 1");
      rows.ok())
    for (const auto &row : *rows)
      std::printf("  REGRESSION %s: recorded %s, now %s; harness replay %s\n",
                  row[0].c_str(), row[1].c_str(), row[2].c_str(),
                  shellQuoted(row[3]).c_str());
  std::string counts;
  for (const char *status : {"new", "open", "fixed", "flaky", "known"})
    counts += std::string(counts.empty() ? "" : ", ") + status + " " +
              std::to_string(countOf(
                  *db_, "SELECT count(*) FROM nightly_signatures WHERE "
                        "status = " + sqlQuoted(status)));
  std::printf("nightly: signatures: %s\n", counts.c_str());
  if (auto rows = db_->rows("SELECT status, signature, note FROM "
                            "nightly_signatures WHERE status != 'open' "
                            "ORDER BY status, first_seen");
      rows.ok())
    for (const auto &row : *rows)
      std::printf("  %s %s%s\n", row[0].c_str(), row[1].substr(0, 200).c_str(),
                  row[2].empty() ? "" : ("  (" + row[2] + ")").c_str());
  int64_t fresh = countOf(*db_, "SELECT count(*) FROM nightly_signatures "
                                "WHERE status = 'new' OR (status = 'flaky' "
                                "AND note LIKE 'new tonight;%')");
  std::printf("nightly: %s in %.0f s; report: harness report %s/findings.db "
              "-o REPORT\n",
              options_.outDir.c_str(), spent(), options_.outDir.c_str());
  return changed > 0 ? kExitRegression : fresh > 0 ? kExitFindings : kExitOk;
}

int Night::run() {
  if (Status s = prepare(); !s.ok()) {
    std::fprintf(stderr, "harness nightly: %s\n", s.message().c_str());
    return kExitUsage;
  }
  if (resumed_)
    std::printf("nightly: going on with the night of %s in %s (phase %s, "
                "slot %llu, %.0f s spent)\n",
                state_.started.c_str(), options_.outDir.c_str(),
                state_.phase.c_str(),
                static_cast<unsigned long long>(state_.slot), state_.spent);
  StopSignals stop;
  auto fail = [&](const Status &s) {
    std::fprintf(stderr, "harness nightly: %s\n", s.message().c_str());
    (void)saveState();
    return kExitUsage;
  };
  auto stopped = [&](int code) {
    (void)saveState();
    std::printf("nightly: stopped in phase %s; run the same command again "
                "to go on\n", state_.phase.c_str());
    return code;
  };
  auto advance = [&](const char *next) {
    state_.phase = next;
    return saveState();
  };
  if (state_.phase == kPhases[0]) {
    if (Status s = replayCorpus(); !s.ok())
      return fail(s);
    if (stop.requested())
      return stopped(stop.exitCode());
    if (Status s = advance(kPhases[1]); !s.ok())
      return fail(s);
  }
  if (state_.phase == kPhases[1]) {
    auto code = fuzzSlots();
    if (!code.ok())
      return fail(code.error());
    if (*code)
      return stopped(**code);
    if (Status s = advance(kPhases[2]); !s.ok())
      return fail(s);
  }
  if (state_.phase == kPhases[2]) {
    if (Status s = reduceNew(stop); !s.ok())
      return fail(s);
    if (stop.requested())
      return stopped(stop.exitCode());
    if (Status s = advance(kPhases[3]); !s.ok())
      return fail(s);
  }
  if (state_.phase == kPhases[3]) {
    if (Status s = compare(stop); !s.ok())
      return fail(s);
    if (Status s = recordCells(); !s.ok())
      return fail(s);
    if (stop.requested())
      return stopped(stop.exitCode());
    if (Status s = advance(kPhases[4]); !s.ok())
      return fail(s);
  }
  int code = summarize();
  (void)db_->exec("UPDATE nightly SET finished = " + sqlQuoted(nowUtc()) +
                  ", spent = " + std::to_string(spent()) +
                  ", exit_code = " + std::to_string(code) + " WHERE id = 1");
  return code;
}

int runNightlyCommand(const NightlyOptions &options) {
  Night night(options);
  return night.run();
}

} // namespace sift::harness
