//===- harness/nightly/NightlyJudge.cpp - Signatures judged --------------===//
//
// The nightly's last phase: every signature of tonight and of the previous
// night judged new, open, fixed or flaky (a stored case replayed against
// tonight's compiler, several times for the flaky check), tonight's bench
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
#include <sys/wait.h>
#include <set>
#include <thread>
#include <unistd.h>


namespace fs = std::filesystem;

namespace sift::harness {

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

/// Tonight's statuses: new or open, flaky when a replay did not reproduce.
void Night::judgeTonight(std::vector<NightSignature> &tonight,
                         const std::map<std::string, NightSignature> &before,
                         StopSignals &stop) {
  double started = epochOfUtc(state_.started);
  fs::path reducedRoot = fs::path(options_.outDir) / "reduced";
  for (NightSignature &sig : tonight) {
    sig.status = before.count(sig.text) ? "open" : "new";
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
      sig.note = std::string(sig.status == "new" ? "new tonight; " : "") +
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
  auto tonight = db_->campaignSignatures(options_.outDir);
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
