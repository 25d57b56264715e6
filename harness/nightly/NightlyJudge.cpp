//===- harness/nightly/NightlyJudge.cpp - Signatures judged --------------===//
//
// The nightly's last phase: every signature of tonight and of the previous
// night judged new, open, fixed, flaky or known (a root cause a known.json
// lists: never new; a stored case is replayed against tonight's compiler,
// several times for the flaky check), tonight's bench
// table's slow kernels and failed runs added as findings, and the cells'
// coverage recorded for the next night's choice. The phases before it are
// in Nightly.cpp.
//
//===----------------------------------------------------------------------===//

#include "harness/nightly/Nightly.h"
#include "harness/commands/Commands.h"

#include "generators/Rng.h"
#include "harness/campaign/StopSignals.h"
#include "harness/case/CaseFolder.h"
#include "harness/report/BenchFindings.h"
#include "harness/report/BenchReport.h"
#include "harness/store/FindingStore.h"
#include "harness/store/KnownCauses.h"
#include "harness/sut/Systems.h"
#include "support/FileIO.h"
#include "support/Process.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// The known root causes of system `name` (<corpus>/<name>/known.json),
/// loaded once; null when the corpus keeps none for it (a file that does
/// not load is reported and taken as none).
const KnownCauses *
systemCauses(const fs::path &corpus, const std::string &name,
             std::map<std::string, std::optional<KnownCauses>> &loaded) {
  auto [it, fresh] = loaded.try_emplace(name);
  fs::path path = corpus / name / "known.json";
  std::error_code ec;
  if (fresh && fs::is_regular_file(path, ec)) {
    Result<KnownCauses> known = KnownCauses::load(path.string());
    if (known.ok())
      it->second = std::move(*known);
    else
      std::fprintf(stderr, "nightly: %s\n", known.message().c_str());
  }
  return it->second ? &*it->second : nullptr;
}

/// Tags the signatures of systems described by files with their system's
/// known root causes (IREE's campaigns tag theirs as they store them, in
/// known_causes). They live in the corpus: the night's, else the one
/// beside IREE's default known.json (the source tree's).
void tagFileSystemCauses(std::vector<NightSignature> &signatures,
                         const NightlyOptions &options) {
  fs::path corpus =
      options.corpus.empty()
          ? fs::path(defaultKnownCausesPath()).parent_path().parent_path()
          : fs::path(options.corpus);
  Systems systems;
  for (const auto &[pipeline, file] : options.systemFiles)
    (void)systems.addFile(file); // it loaded when the night started
  std::map<std::string, std::optional<KnownCauses>> loaded;
  for (NightSignature &sig : signatures) {
    std::stringstream list(sig.pipelines);
    std::string name;
    while (sig.knownCauses.empty() && std::getline(list, name, ',')) {
      std::optional<StoredPipeline> stored = parseStoredPipeline(name);
      if (!stored || stored->kind != PipelineKind::File)
        continue;
      Result<const SystemFile *> file = systems.fileWithPipeline(stored->file);
      const KnownCauses *known =
          file.ok() && *file ? systemCauses(corpus, (*file)->name, loaded)
                             : nullptr;
      if (!known)
        continue;
      sig.knownCauses = known->causesOf(sig.text);
      if (!sig.knownCauses.empty())
        sig.knownFile = known->path();
    }
  }
}

} // namespace

Result<std::vector<NightSignature>> Night::tonightSignatures() {
  auto tonight = db_->campaignSignatures(options_.outDir);
  if (tonight.ok())
    tagFileSystemCauses(*tonight, options_);
  return tonight;
}

Result<std::map<std::string, NightSignature>> Night::previousSignatures() {
  std::map<std::string, NightSignature> out;
  if (!previous_)
    return out;
  std::string base = fs::path(options_.previous).parent_path().string();
  auto seen = previous_->campaignSignatures(base.empty() ? "." : base);
  if (!seen.ok())
    return seen.error();
  for (NightSignature &s : *seen)
    out[s.text] = s;
  // Open ones the previous night carried without hitting them.
  auto carried = previous_->nightSignatures();
  if (!carried.ok())
    return carried.error();
  for (NightSignature &s : *carried)
    if (s.status != "fixed" && !out.count(s.text))
      out[s.text] = s;
  return out;
}


std::pair<int, std::string> Night::replayTimes(const std::string &folder,
                                               int times) {
  ReplayOptions replay;
  replay.caseTimeoutSeconds = replayTimeout();
  replay.faults = options_.faults; // tonight's compiler
  auto records = replayCaseFolders(
      std::vector<std::string>(static_cast<size_t>(times), folder), replay);
  int kept = 0;
  std::string last;
  if (records.ok())
    for (const ReplayRecord &r : *records) {
      kept += r.error.empty() && r.failure.empty();
      last = r.error.empty() ? r.observed : "";
    }
  return {kept, last};
}

/// Whether the judging's replays may still run: judging may take the
/// night 5% past its budget (calling a flaky finding new, or a fixed one
/// open, costs more than a night a few seconds long), not past a stop.
bool Night::judgingTimeLeft(const StopSignals &stop) const {
  return spent() <= options_.seconds * 1.05 && !stop.requested();
}

/// Tonight's statuses: known (a known root cause's), new or open; flaky when
/// a replay did not reproduce.
void Night::judgeTonight(std::vector<NightSignature> &tonight,
                         const std::map<std::string, NightSignature> &before,
                         StopSignals &stop) {
  double started = epochOfUtc(state_.started);
  fs::path reducedRoot = fs::path(options_.outDir) / "reduced";
  for (NightSignature &sig : tonight) {
    // A known root cause's finding is known, whether seen before or not:
    // new is what no one has looked at yet.
    std::string known;
    if (!sig.knownCauses.empty())
      known = "known root cause " + sig.knownCauses + " of " + sig.knownFile;
    sig.status = !known.empty()           ? "known"
                 : before.count(sig.text) ? "open"
                                          : "new";
    sig.note = known;
    double first = epochOfUtc(sig.firstSeen);
    if (started >= 0 && first >= 0)
      sig.detectionSeconds = first - started;
    fs::path reduced = reducedRoot / reducedName(sig.text);
    if (auto bytes = readFileBytes((reduced / "case.json").string());
        bytes.ok()) {
      auto json = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr,
                                        false);
      sig.reducedDir = fs::absolute(reduced).string();
      if (json.is_object() && json.contains("ops_times_elements"))
        sig.reducedSize = json["ops_times_elements"].get<int64_t>();
    }
    // A slow kernel's case is a GPU host's to time, not a replay's.
    if (sig.caseDir.empty() || options_.repeats <= 0 ||
        sig.verdict == "slow-kernel")
      continue;
    if (!judgingTimeLeft(stop)) {
      sig.note = "not replayed: the night's budget ran out";
      continue;
    }
    auto [kept, last] = replayTimes(sig.caseDir, options_.repeats);
    if (kept < options_.repeats) {
      sig.note = (sig.status == "new"     ? std::string("new tonight; ")
                  : sig.status == "known" ? known + "; "
                                          : std::string()) +
                 "its case reproduced " + std::to_string(kept) + " of " +
                 std::to_string(options_.repeats) + " replays" +
                 (last.empty() ? "" : " (last: " + last + ")");
      sig.status = "flaky";
    }
  }
}

/// The previous night's signatures not seen tonight: fixed when the stored
/// case now passes, else still open.
std::vector<NightSignature>
Night::judgeMissing(const std::vector<NightSignature> &tonight,
                    const std::map<std::string, NightSignature> &before,
                    StopSignals &stop) {
  std::set<std::string> seen;
  for (const NightSignature &sig : tonight)
    seen.insert(sig.text);
  std::vector<NightSignature> out;
  for (const auto &[text, old] : before) {
    if (seen.count(text))
      continue;
    NightSignature sig = old;
    sig.status = "open";
    sig.detectionSeconds = -1;
    std::error_code ec;
    if (sig.verdict == "slow-kernel") {
      // Only a GPU host's timing against the vendors can clear it.
      judgeSlowKernel(sig);
    } else if (sig.caseDir.empty() || !fs::exists(sig.caseDir, ec)) {
      sig.note = "not hit tonight; its case folder is gone";
    } else if (!judgingTimeLeft(stop)) {
      sig.note = "not hit tonight; not replayed (the budget ran out)";
    } else {
      auto [kept, last] = replayTimes(sig.caseDir, 1);
      if (last == "pass") {
        sig.status = "fixed";
        sig.note = "not hit tonight; its case passes now";
      } else {
        sig.note = "not hit tonight; its case " +
                   (kept ? std::string("still fails")
                         : "gives " + (last.empty() ? "no verdict" : last));
      }
    }
    out.push_back(std::move(sig));
  }
  return out;
}

/// An earlier night's slow kernel not seen tonight: fixed when tonight's
/// bench table times the runs of its signature, each within the factor.
void Night::judgeSlowKernel(NightSignature &sig) const {
  sig.note = "not hit tonight; a slow kernel is judged by harness bench on "
             "a GPU host, not by a replay";
  if (!bench_)
    return;
  double worst = 0;
  bool untimed = false;
  for (const BenchRow &row : bench_->rows) {
    if (row.rung || slowKernelSignature(row, bench_->slowFactor) != sig.text)
      continue;
    // A lower bound (a run that did not finish) clears nothing.
    if (row.medianMs > 0 && row.ratio > 0)
      worst = std::max(worst, row.ratio);
    else
      untimed = true;
  }
  if (worst <= 0 || untimed) {
    sig.note = "not hit tonight; tonight's bench (--bench) does not time "
               "all of its runs";
    return;
  }
  char note[160];
  std::snprintf(note, sizeof(note),
                "not hit tonight; tonight's bench times it at %.1fx the best "
                "vendor at most (slow: over %.0fx)",
                worst, bench_->slowFactor);
  sig.status = "fixed";
  sig.note = note;
}

/// Tonight's bench table's findings, stored once: a resumed compare finds
/// its finished run (a run a kill cut short is stored again: findings
/// counted twice rather than lost).
Status Night::recordBench() {
  if (!bench_)
    return Status::success();
  std::string command = "nightly bench " + options_.benchTable;
  auto runs = db_->rows("SELECT count(*) FROM runs WHERE command = " +
                        sqlQuoted(command) + " AND finished IS NOT NULL");
  if (!runs.ok())
    return runs.error();
  if (!runs->empty() && (*runs)[0][0] != "0")
    return Status::success();
  return recordBenchFindings(*bench_, options_.outDir, command);
}

Status Night::compare(StopSignals &stop) {
  if (Status s = recordBench(); !s.ok())
    return s;
  auto tonight = tonightSignatures();
  auto before = previousSignatures();
  if (!tonight.ok() || !before.ok())
    return tonight.ok() ? before.error() : tonight.error();
  judgeTonight(*tonight, *before, stop);
  std::vector<NightSignature> all = *tonight;
  for (NightSignature &sig : judgeMissing(*tonight, *before, stop))
    all.push_back(std::move(sig));
  if (Status s = db_->exec("DELETE FROM nightly_signatures"); !s.ok())
    return s;
  for (const NightSignature &sig : all) {
    if (Status s = db_->exec(
            "INSERT INTO nightly_signatures VALUES(" + sqlQuoted(sig.text) +
            ", " + sqlQuoted(sig.verdict) + ", " + sqlQuoted(sig.status) +
            ", " + std::to_string(sig.count) + ", " +
            sqlQuoted(sig.firstSeen) + ", " + sqlQuoted(sig.lastSeen) + ", " +
            sqlQuoted(sig.caseDir) + ", " + sqlQuoted(sig.reducedDir) + ", " +
            std::to_string(sig.reducedSize) + ", " +
            std::to_string(sig.detectionSeconds) + ", " +
            sqlQuoted(sig.note) + ")");
        !s.ok())
      return s;
  }
  return Status::success();
}

/// Cases per cell tonight, and decayed over recent nights (half a night's
/// weight per night back), for the next night's order.

} // namespace sift::harness
