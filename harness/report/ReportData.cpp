//===- harness/report/ReportData.cpp - What a report shows ----------------===//

#include "harness/report/ReportData.h"

#include "harness/campaign/CampaignTally.h"
#include "harness/nightly/NightlyDb.h"
#include "harness/store/FindingStore.h"
#include "support/FileIO.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <memory>

namespace fs = std::filesystem;

namespace sift::harness {

std::vector<std::string> splitRunName(const std::string &run) {
  size_t slash = run.find('/');
  std::string pipeline = run.substr(0, slash);
  std::string target = slash == std::string::npos ? "" : run.substr(slash + 1);
  std::string system = pipeline.rfind("iree", 0) == 0 ? "iree" : "sift";
  return {system, pipeline, target};
}

namespace {

/// The tallies of the campaigns of `db` (the last process of each: a
/// resumed campaign's tally covers the processes before it).
Status readTallies(NightDb &db, ReportNight &night) {
  auto rows = db.rows("SELECT p.tally FROM progress p WHERE p.resumed_by IS "
                      "NULL AND p.tally IS NOT NULL AND p.tally != ''");
  if (!rows.ok())
    return rows.error();
  for (const auto &row : *rows) {
    auto tally = CampaignTally::fromJson(row[0]);
    if (!tally.ok())
      return makeError(db.path() + ": " + tally.message());
    night.cases += tally->cases;
    night.seconds += tally->seconds;
    night.steps["generated"] += tally->cases;
    for (const auto &[step, count] : tally->stages)
      night.steps[step] += count;
    for (const auto &[run, verdicts] : tally->byRun)
      for (const auto &[verdict, count] : verdicts)
        night.verdicts[run][std::string(oracle::toString(verdict))] += count;
    for (const auto &[tag, count] : tally->coverage)
      night.coverage[tag] += count;
  }
  return Status::success();
}

Status readReplay(NightDb &db, ReportNight &night) {
  if (!db.hasTable("nightly_replay"))
    return Status::success();
  auto rows = db.rows("SELECT name, folder, recorded, observed, changed, "
                      "error FROM nightly_replay ORDER BY changed DESC, name");
  if (!rows.ok())
    return rows.error();
  for (const auto &row : *rows)
    night.replay.push_back(
        {row[0], row[1], row[2], row[3], row[5], row[4] == "1"});
  return Status::success();
}

/// A night's name: its folder's (a night is a folder), or the database's
/// file name when it is not a folder's findings.db (a merged one).
std::string nightLabel(const fs::path &db, int folders) {
  if (db.filename() != "findings.db")
    return db.filename().string();
  fs::path folder = fs::absolute(db).lexically_normal().parent_path();
  std::string label = folder.filename().string();
  for (int i = 1; i < folders && folder.has_parent_path(); ++i) {
    folder = folder.parent_path();
    label = folder.filename().string() + "/" + label;
  }
  return label;
}

/// Names the nights by their folders, with as many folders above them as
/// tell apart nights of one name (the shards of two nights: "shard-0").
void labelNights(std::vector<ReportNight> &nights) {
  for (int folders = 1; folders <= 4; ++folders) {
    std::map<std::string, int> seen;
    for (ReportNight &night : nights)
      seen[night.label = nightLabel(night.db, folders)]++;
    if (seen.size() == nights.size())
      return;
  }
}

/// The night's row of `db`: its start, options, tallies and replay.
Status readNight(NightDb &db, ReportNight &night) {
  night.db = db.path();
  night.nightly = db.hasTable("nightly");
  auto rows = night.nightly
                  ? db.rows("SELECT started FROM nightly WHERE id = 1")
                  : db.rows("SELECT MIN(started) FROM runs");
  if (!rows.ok())
    return rows.error();
  night.started = rows->empty() ? "" : (*rows)[0][0];
  auto commands =
      night.nightly
          ? db.rows("SELECT command FROM nightly WHERE id = 1")
          : db.rows("SELECT DISTINCT command FROM runs ORDER BY id LIMIT 4");
  if (!commands.ok())
    return commands.error();
  for (const auto &row : *commands)
    if (!row.empty() && !row[0].empty())
      night.options += (night.options.empty() ? "" : "; ") + row[0];
  if (Status s = readTallies(db, night); !s.ok())
    return s;
  return readReplay(db, night);
}

/// What a signature's report takes from its case folder's case.json: the
/// repro command, where its GPU runs executed ("device"; "" for static
/// verdicts) and the faults planted when it was found ("faults").
void readCase(ReportSignature &r, const std::string &caseDir) {
  r.caseDir = caseDir;
  r.repro.clear();
  r.device.clear();
  r.planted.clear();
  if (caseDir.empty())
    return;
  auto bytes = readFileBytes((fs::path(caseDir) / "case.json").string());
  if (!bytes.ok())
    return;
  auto json = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr,
                                    false);
  if (!json.is_object())
    return;
  auto text = [&](const char *key) {
    return json.contains(key) && json[key].is_string()
               ? json[key].get<std::string>()
               : std::string();
  };
  r.repro = text("repro");
  r.device = text("device");
  if (json.contains("faults") && json["faults"].is_array())
    for (const nlohmann::json &fault : json["faults"])
      if (fault.is_string())
        r.planted += (r.planted.empty() ? "" : ",") + fault.get<std::string>();
}

/// "a/b,c/d" with " on DEVICE" after each run.
std::string onDevice(const std::string &runs, const std::string &device) {
  std::string out;
  size_t start = 0;
  while (start <= runs.size()) {
    size_t comma = runs.find(',', start);
    std::string run = runs.substr(start, comma - start);
    out += (out.empty() ? "" : ",") + run + " on " + device;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

/// Folds `db`'s signatures into `out` (by text; later databases update
/// status and last seen).
Status readSignatures(NightDb &db, const ReportNight &night, size_t index,
                      size_t nights,
                      std::map<std::string, ReportSignature> &out) {
  std::string base = fs::path(db.path()).parent_path().string();
  auto seen = db.campaignSignatures(base.empty() ? "." : base);
  if (!seen.ok())
    return seen.error();
  double started = epochOfUtc(night.started);
  for (const NightSignature &s : *seen) {
    ReportSignature &r = out[s.text];
    bool fresh = r.text.empty();
    r.text = s.text;
    r.verdict = s.verdict;
    r.count += s.count;
    r.perNight.resize(nights, 0);
    r.perNight[index] += s.count;
    if (fresh || s.firstSeen < r.firstSeen) {
      r.firstSeen = s.firstSeen;
      double first = epochOfUtc(s.firstSeen);
      r.detectionSeconds = started >= 0 && first >= 0 ? first - started : -1;
    }
    r.lastSeen = std::max(r.lastSeen, s.lastSeen);
    r.status = "seen";
    if (!s.caseDir.empty())
      readCase(r, s.caseDir);
  }
  auto runs = db.rows("SELECT s.text, group_concat(DISTINCT f.pipeline || "
                      "'/' || f.target) FROM findings f JOIN signatures s ON "
                      "s.id = f.signature GROUP BY s.text");
  if (runs.ok())
    for (const auto &row : *runs)
      if (out.count(row[0])) {
        ReportSignature &r = out[row[0]];
        r.runs = r.device.empty() ? row[1] : onDevice(row[1], r.device);
      }
  // Known root causes (databases from before the table have none).
  auto known = db.rows("SELECT s.text, k.causes FROM known_causes k JOIN "
                       "signatures s ON s.id = k.signature");
  if (known.ok())
    for (const auto &row : *known)
      if (out.count(row[0]))
        out[row[0]].knownCauses = row[1];
  return Status::success();
}

/// The statuses the latest nightly gave (fixed ones included).
Status readStatuses(NightDb &db, std::map<std::string, ReportSignature> &out) {
  auto judged = db.nightSignatures();
  if (!judged.ok())
    return judged.error();
  for (const NightSignature &s : *judged) {
    ReportSignature &r = out[s.text];
    if (r.text.empty()) {
      r.text = s.text;
      r.verdict = s.verdict;
      r.firstSeen = s.firstSeen;
      r.lastSeen = s.lastSeen;
      readCase(r, s.caseDir);
    }
    r.status = s.status;
    r.note = s.note;
    if (!s.reducedDir.empty())
      r.reducedDir = s.reducedDir;
    if (s.reducedSize >= 0)
      r.reducedSize = s.reducedSize;
    if (s.detectionSeconds >= 0)
      r.detectionSeconds = s.detectionSeconds;
  }
  return Status::success();
}

} // namespace

Result<ReportData> readReportData(const std::vector<std::string> &databases) {
  ReportData data;
  data.generated = nowUtc();
  // Every night first, to put them in the order they ran: signatures are
  // counted per night and take the latest night's status.
  std::vector<std::unique_ptr<NightDb>> dbs;
  for (const std::string &path : databases) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      return makeError(path + ": no such database");
    auto db = NightDb::open(path, /*readOnly=*/true);
    if (!db.ok())
      return db.error();
    if (!(*db)->hasTable("runs") || !(*db)->hasTable("signatures"))
      return makeError(path + ": not a sift findings database (no runs or "
                              "signatures table)");
    ReportNight night;
    if (Status s = readNight(**db, night); !s.ok())
      return s.error();
    data.nights.push_back(std::move(night));
    dbs.push_back(std::move(*db));
  }
  std::vector<size_t> order(dbs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return data.nights[a].started < data.nights[b].started;
  });
  std::vector<ReportNight> nights;
  std::map<std::string, ReportSignature> signatures;
  for (size_t i : order) {
    if (Status s = readSignatures(*dbs[i], data.nights[i], nights.size(),
                                  databases.size(), signatures);
        !s.ok())
      return s.error();
    if (Status s = readStatuses(*dbs[i], signatures); !s.ok())
      return s.error();
    nights.push_back(std::move(data.nights[i]));
  }
  data.nights = std::move(nights);
  labelNights(data.nights);
  for (auto &[text, s] : signatures) {
    s.perNight.resize(databases.size(), 0);
    data.signatures.push_back(std::move(s));
  }
  return data;
}

nlohmann::json ReportData::toJson() const {
  nlohmann::json json = {{"format", "sift-report 1"},
                         {"generated", generated},
                         {"nights", nlohmann::json::array()},
                         {"signatures", nlohmann::json::array()}};
  for (const ReportNight &n : nights) {
    nlohmann::json night = {{"label", n.label},
                            {"db", n.db},
                            {"started", n.started},
                            {"seconds", n.seconds},
                            {"cases", n.cases},
                            {"steps", n.steps},
                            {"verdicts", n.verdicts},
                            {"coverage", n.coverage},
                            {"nightly", n.nightly},
                            {"options", n.options},
                            {"replay", nlohmann::json::array()}};
    for (const ReportNight::Replay &r : n.replay)
      night["replay"].push_back({{"case", r.name},
                                 {"folder", r.folder},
                                 {"recorded", r.recorded},
                                 {"observed", r.observed},
                                 {"changed", r.changed},
                                 {"error", r.error}});
    json["nights"].push_back(std::move(night));
  }
  for (const ReportSignature &s : signatures)
    json["signatures"].push_back({{"signature", s.text},
                                  {"verdict", s.verdict},
                                  {"status", s.status},
                                  {"first_seen", s.firstSeen},
                                  {"last_seen", s.lastSeen},
                                  {"count", s.count},
                                  {"runs", s.runs},
                                  {"device", s.device},
                                  {"reduced_size", s.reducedSize},
                                  {"reduced_dir", s.reducedDir},
                                  {"case_dir", s.caseDir},
                                  {"repro", s.repro},
                                  {"note", s.note},
                                  {"known_root_causes", s.knownCauses},
                                  {"planted", s.planted},
                                  {"detection_seconds", s.detectionSeconds},
                                  {"per_night", s.perNight}});
  for (const ReportRootCause &r : rootCauses) {
    nlohmann::json bisected = nlohmann::json::object();
    for (const auto &[name, summary] : r.bisect)
      bisected[name] = summary;
    json["root_causes"].push_back({{"id", r.id},
                                   {"summary", r.summary},
                                   {"upstream", r.upstream},
                                   {"state", r.state},
                                   {"seen_on", r.seenOn},
                                   {"cases", r.cases},
                                   {"signatures", r.signatures},
                                   {"findings", r.findings},
                                   {"bisect", bisected}});
  }
  if (!knownFile.empty())
    json["known_file"] = knownFile;
  if (!bisectFile.empty())
    json["bisect_file"] = bisectFile;
  return json;
}

} // namespace sift::harness
