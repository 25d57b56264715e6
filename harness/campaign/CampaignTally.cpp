//===- harness/CampaignTally.cpp - What a campaign has done so far --------===//

#include "harness/campaign/CampaignTally.h"

namespace sift::harness {

void CampaignTally::add(const std::string &runName, const CaseResult &result) {
  ++byRun[runName][result.verdict];
  compileSeconds += result.compileSeconds;
  runSeconds += result.runSeconds;
  for (const auto &[name, seconds] : result.compileStages)
    compileStages[name] += seconds;
  if (result.compiled)
    ++stages["compiled"];
  if (result.ran)
    ++stages["ran"];
  // Compared: the outputs reached the comparison (a pass that ran, or a
  // verdict the comparison made).
  if (result.ran && (result.stage.step == Step::None ||
                     result.stage.step == Step::Compare))
    ++stages["compared"];
  if (oracle::isFinding(result.verdict))
    ++findings;
}

void CampaignTally::addCoverage(const std::vector<std::string> &tags) {
  for (const std::string &tag : tags)
    ++coverage[tag];
}

std::map<oracle::Verdict, int64_t> CampaignTally::verdicts() const {
  std::map<oracle::Verdict, int64_t> total;
  for (const auto &[name, counts] : byRun)
    for (auto [verdict, count] : counts)
      total[verdict] += count;
  return total;
}

nlohmann::json CampaignTally::toJson() const {
  nlohmann::json json = {{"cases", cases},
                         {"findings", findings},
                         {"seconds", seconds},
                         {"compile_seconds", compileSeconds},
                         {"run_seconds", runSeconds},
                         {"compile_stages", compileStages},
                         {"runs_verdicts", nlohmann::json::object()},
                         {"stages", stages},
                         {"coverage", coverage}};
  for (const auto &[name, counts] : byRun)
    for (auto [verdict, count] : counts)
      json["runs_verdicts"][name][std::string(oracle::toString(verdict))] =
          count;
  return json;
}

Result<CampaignTally> CampaignTally::fromJson(const std::string &text) {
  auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto malformed = [&](const std::string &what) {
    return makeError("the stored campaign tally is malformed (" + what +
                     "): " + text.substr(0, 200));
  };
  if (!json.is_object())
    return malformed("not a JSON object");
  CampaignTally tally;
  try {
    tally.cases = json.at("cases").get<int64_t>();
    tally.findings = json.at("findings").get<int64_t>();
    tally.seconds = json.at("seconds").get<double>();
    tally.compileSeconds = json.at("compile_seconds").get<double>();
    tally.runSeconds = json.at("run_seconds").get<double>();
    for (const auto &[name, counts] : json.at("runs_verdicts").items())
      for (const auto &[verdictName, count] : counts.items()) {
        std::optional<oracle::Verdict> verdict =
            oracle::parseVerdict(verdictName);
        if (!verdict)
          return malformed("unknown verdict '" + verdictName + "'");
        tally.byRun[name][*verdict] = count.get<int64_t>();
      }
    // Tallies stored before stages and coverage were counted have neither.
    if (json.contains("stages"))
      tally.stages = json.at("stages").get<std::map<std::string, int64_t>>();
    if (json.contains("compile_stages"))
      tally.compileStages =
          json.at("compile_stages").get<std::map<std::string, double>>();
    if (json.contains("coverage"))
      tally.coverage =
          json.at("coverage").get<std::map<std::string, int64_t>>();
  } catch (const nlohmann::json::exception &e) {
    return malformed(e.what());
  }
  return tally;
}

std::string formatVerdictCounts(
    const std::map<oracle::Verdict, int64_t> &counts) {
  std::string text;
  for (auto [verdict, count] : counts) {
    if (!text.empty())
      text += " ";
    text +=
        std::string(oracle::toString(verdict)) + "=" + std::to_string(count);
  }
  return text.empty() ? "none" : text;
}

} // namespace sift::harness
