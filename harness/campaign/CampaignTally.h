//===- harness/CampaignTally.h - What a campaign has done so far -*- C++ -*-===//
//
// The counts a campaign reports (cases, findings, verdicts per run, time per
// step). It is stored with every case the campaign finishes, so a campaign
// stopped by a signal or killed and then resumed reports all of its cases,
// not only those of its last process.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"
#include "oracles/Verdict.h"
#include "support/Result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sift::harness {

/// Counts of one campaign, across the processes that ran it.
struct CampaignTally {
  int64_t cases = 0;
  int64_t findings = 0;
  /// Wall time of the campaign's processes, and time in each step.
  double seconds = 0, compileSeconds = 0, runSeconds = 0;
  /// The compile seconds by stage (CaseResult::compileStages), summed.
  std::map<std::string, double> compileStages;
  /// Verdicts per (pipeline, target) run, by name ("cpu/host").
  std::map<std::string, std::map<oracle::Verdict, int64_t>> byRun;
  /// Runs that reached each step: "compiled", "ran", "compared" (cases are
  /// the generated count).
  std::map<std::string, int64_t> stages;
  /// What the generator covered, once per run of a case: coverage tags
  /// ("family=sort", "type=f32", ...) and the case's "config=random",
  /// "inputs=mixed", "frontend=torch" (gen::coverageTags and the campaign).
  std::map<std::string, int64_t> coverage;

  /// Counts one run of a case.
  void add(const std::string &runName, const CaseResult &result);
  /// Counts one run's coverage tags.
  void addCoverage(const std::vector<std::string> &tags);
  /// Verdicts over every run.
  std::map<oracle::Verdict, int64_t> verdicts() const;

  /// The tally as stored with the campaign's progress.
  nlohmann::json toJson() const;
  /// Reads a stored tally back; an error names what is malformed.
  static Result<CampaignTally> fromJson(const std::string &text);
};

/// "pass=3 mismatch=1" (or "none").
std::string formatVerdictCounts(
    const std::map<oracle::Verdict, int64_t> &counts);

} // namespace sift::harness
