//===- harness/campaign/FuzzSummary.cpp - What a campaign reports --------===//
//
// The end of a campaign: its summary on stdout (cases, verdicts per run,
// findings, the known root causes and the runs steered around them) and
// the same as OUT/summary.json for scripts. The scheduling of the cases is
// in CampaignCases.cpp.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"

#include "harness/Version.h"
#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace sift::harness {

namespace {

/// The sift-run devices the exported artifacts of `runs` run on, each with
/// the targets it takes: "cuda (nvptx), hip (amdgpu) or emu (every GPU
/// artifact)". An artifact of one target does not load on another's device.
std::string exportDevices(const std::vector<PipelineTarget> &runs, bool emu) {
  bool host = false, nvptx = false, amdgpu = false;
  for (const PipelineTarget &run : runs) {
    host |= run.target == TargetKind::Host;
    nvptx |= run.target == TargetKind::Nvptx;
    amdgpu |= run.target == TargetKind::Amdgpu;
  }
  std::vector<std::string> parts;
  if (nvptx)
    parts.push_back("cuda (nvptx)");
  if (amdgpu)
    parts.push_back("hip (amdgpu)");
  if (emu && (nvptx || amdgpu))
    parts.push_back("emu (every GPU artifact)");
  if (host)
    parts.push_back("cpu (host)");
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i)
    text += (i == 0 ? "" : i + 1 == parts.size() ? " or " : ", ") + parts[i];
  return text;
}

} // namespace

/// Runs steered per rule and action ("R4:static_dims" -> 12), from the
/// coverage tags the IREE compiler adds.
std::map<std::string, int64_t> FuzzCampaign::steeredCounts() const {
  std::map<std::string, int64_t> counts;
  for (const auto &[tag, count] : tally_.coverage)
    if (tag.rfind(kSteeredTag, 0) == 0)
      counts[tag.substr(kSteeredTag.size())] += count;
  return counts;
}

/// The root causes this campaign steers around ("R2,R3,R4"; "" none).
std::string FuzzCampaign::steeredText() const {
  std::string text;
  std::string last;
  if (caseOptions_.steering)
    for (const SteerRule &rule : *caseOptions_.steering)
      if (rule.id != last) { // a root cause's rules are adjacent
        text += (text.empty() ? "" : ",") + rule.id;
        last = rule.id;
      }
  return text;
}

void FuzzCampaign::printSummary(double rate) {
  // With --json stdout carries the JSON alone.
  FILE *out = options_.json ? stderr : stdout;
  std::fprintf(out, "sift fuzz: runs=%s seed=%llu inputs=%s%s\n",
               runsText_.c_str(),
               static_cast<unsigned long long>(options_.seed),
               std::string(gen::toString(options_.inputs)).c_str(),
               options_.shardCount > 1
                   ? (" shard=" + std::to_string(options_.shardIndex) + "/" +
                      std::to_string(options_.shardCount))
                         .c_str()
                   : "");
  std::fprintf(out,
               "cases: %lld in %.2f s (%.1f cases/s; compile %.2f s, run "
               "%.2f s)\n",
               static_cast<long long>(tally_.cases), tally_.seconds, rate,
               tally_.compileSeconds, tally_.runSeconds);
  if (tally_.cases != thisRunCases_)
    std::fprintf(out, "  this run: %lld cases from case %llu\n",
                 static_cast<long long>(thisRunCases_),
                 static_cast<unsigned long long>(firstCase_));
  std::fprintf(out, "verdicts: %s\n",
               formatVerdictCounts(tally_.verdicts()).c_str());
  if (options_.runs.size() > 1)
    for (const auto &[name, counts] : tally_.byRun)
      std::fprintf(out, "  %s: %s\n", name.c_str(),
                   formatVerdictCounts(counts).c_str());
  std::fprintf(out, "findings: %lld (database %s)\n",
               static_cast<long long>(tally_.findings),
               store_->databasePath().c_str());
  if (known_) {
    int64_t untagged = 0;
    Result<std::map<std::string, int64_t>> counts =
        store_->knownCauseCounts(&untagged);
    if (counts.ok()) {
      std::string text;
      for (const auto &[causes, count] : *counts)
        text +=
            (text.empty() ? "" : ", ") + causes + " " + std::to_string(count);
      std::fprintf(out,
                   "  of known root causes (%s): %s; not known: %lld (the "
                   "whole database)\n",
                   known_->path().c_str(), text.empty() ? "none" : text.c_str(),
                   static_cast<long long>(untagged));
    }
    std::map<std::string, int64_t> steered = steeredCounts();
    std::string text;
    for (const auto &[what, count] : steered)
      text += (text.empty() ? "" : ", ") + what + " " + std::to_string(count);
    if (caseOptions_.steering)
      std::fprintf(out, "  steered around %s (--explore-known: not): %s runs\n",
                   steeredText().c_str(), text.empty() ? "no" : text.c_str());
  }
  if (!options_.exportDir.empty())
    std::fprintf(out,
                 "exported: %lld artifacts to %s (run them with sift-run %s "
                 "--device=%s)\n",
                 static_cast<long long>(exported_), options_.exportDir.c_str(),
                 options_.exportDir.c_str(),
                 exportDevices(options_.runs, caseOptions_.emuKernels).c_str());
}

/// OUT/summary.json: the whole campaign (every process of it), and whether
/// it is complete or was stopped (and is resumable at `next_case`).
std::string FuzzCampaign::writeSummary(double rate) {
  nlohmann::json summary = tally_.toJson();
  summary["runs"] = runsText_;
  summary["sift_version"] = siftVersion();
  for (const PipelineTarget &run : options_.runs)
    if (systemOf(run.pipeline) == SystemKind::Iree)
      summary["iree_version"] = systemFor(run).version();
  summary["seed"] = options_.seed;
  summary["inputs"] = std::string(gen::toString(options_.inputs));
  summary["sizes"] = std::string(gen::toString(options_.sizes));
  summary["cases_per_second"] = rate;
  summary["database"] = store_->databasePath();
  if (known_) {
    int64_t untagged = 0;
    if (Result<std::map<std::string, int64_t>> counts =
            store_->knownCauseCounts(&untagged);
        counts.ok()) {
      summary["known_root_causes"] = {{"file", known_->path()},
                                      {"findings", *counts},
                                      {"not_known", untagged}};
    }
    summary["known_root_causes"]["steered_around"] =
        caseOptions_.steering ? nlohmann::json(steeredText())
                              : nlohmann::json(nullptr);
    summary["known_root_causes"]["steered_runs"] = steeredCounts();
  }
  if (!options_.exportDir.empty())
    summary["exported"] = {{"folder", options_.exportDir},
                           {"artifacts", exported_}};
  summary["next_case"] = nextCase_;
  summary["this_run"] = {{"first_case", firstCase_},
                         {"cases", thisRunCases_},
                         {"seconds", elapsed()}};
  // A campaign stopped by a signal is not complete: --resume goes on.
  summary["complete"] = stoppedBy_.empty();
  if (!stoppedBy_.empty())
    summary["stopped_by"] = stoppedBy_;
  for (auto [verdict, count] : tally_.verdicts())
    summary["verdicts"][std::string(oracle::toString(verdict))] = count;
  std::string text = summary.dump(2) + "\n";
  (void)writeFileAtomic(options_.outDir + "/summary.json",
                        reinterpret_cast<const uint8_t *>(text.data()),
                        text.size());
  return text;
}

} // namespace sift::harness
