//===- harness/report/ReportFiles.cpp - Coverage, detection, replay; files ===//

#include "harness/report/ReportWriters.h"

#include "support/FileIO.h"
#include "support/Text.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// The order a coverage axis's values are shown in: buckets by size, the
/// rest by name.
int bucketRank(const std::string &value) {
  static const char *order[] = {"0",        "1",     "1-16", "2-8",
                                "9-64",     "17-256", ">64", "257-4096",
                                "4097-65536", ">65536"};
  for (int i = 0; i < 10; ++i)
    if (value == order[i])
      return i;
  return 100;
}

/// Every night's coverage summed, by axis ("family") then value ("sort").
std::map<std::string, std::vector<std::pair<std::string, double>>>
coverageByAxis(const ReportData &data) {
  std::map<std::string, std::map<std::string, double>> sums;
  for (const ReportNight &n : data.nights)
    for (const auto &[tag, count] : n.coverage) {
      size_t eq = tag.find('=');
      if (eq != std::string::npos)
        sums[tag.substr(0, eq)][tag.substr(eq + 1)] +=
            static_cast<double>(count);
    }
  std::map<std::string, std::vector<std::pair<std::string, double>>> out;
  for (auto &[axis, values] : sums) {
    std::vector<std::pair<std::string, double>> bars(values.begin(),
                                                     values.end());
    std::stable_sort(bars.begin(), bars.end(), [](auto &a, auto &b) {
      return bucketRank(a.first) < bucketRank(b.first);
    });
    out[axis] = std::move(bars);
  }
  return out;
}

std::string csvRow(const std::vector<std::string> &fields) {
  std::string row;
  for (size_t i = 0; i < fields.size(); ++i)
    row += (i ? "," : "") + csvField(fields[i]);
  return row + "\n";
}

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", v);
  return text;
}

} // namespace

std::string coverageSection(const ReportData &data) {
  std::string html = "<h2 id=\"coverage\">What the generator covered</h2><p>"
                     "Runs of a case per value, over every database given: "
                     "families, key element types, key sizes (elements), k, "
                     "configs, input modes and IREE's front ends.</p>";
  for (const auto &[axis, bars] : coverageByAxis(data))
    html += renderHBarChart("chart-coverage-" + axis, axis, bars);
  return html;
}

std::string detectionSection(const ReportData &data) {
  std::vector<std::pair<std::string, double>> bars;
  std::vector<std::vector<TableCell>> rows;
  for (const ReportSignature &s : data.signatures) {
    if (s.detectionSeconds < 0)
      continue;
    std::string label = s.text.substr(0, s.text.find('|')) + " " +
                        s.text.substr(s.text.rfind('|') + 1);
    bars.push_back({label.substr(0, 24), s.detectionSeconds});
    rows.push_back({{s.text, "", "", ""},
                    {num(s.detectionSeconds), "", num(s.detectionSeconds),
                     "num"}});
  }
  return "<h2 id=\"detection\">Time to first detection</h2><p>Seconds from "
         "the start of the night (campaign) to a signature's first "
         "finding.</p>" +
         renderHBarChart("chart-detection", "seconds to first detection",
                         bars) +
         renderTable("table-detection", {"signature", "seconds"}, rows);
}

std::string replaySection(const ReportData &data) {
  const ReportNight &last = data.nights.back();
  std::vector<std::vector<TableCell>> rows;
  for (const ReportNight::Replay &r : last.replay)
    rows.push_back({{r.name, "", "", ""},
                    {r.recorded, "", "", ""},
                    {r.observed, "", "", ""},
                    {r.changed ? "REGRESSION" : "unchanged", "", "",
                     r.changed ? "new" : ""},
                    {r.error, "", "", ""}});
  std::string intro =
      last.nightly ? "<p>The latest night replayed its corpus first: a "
                     "changed verdict is a regression.</p>"
                   : "<p>The latest database is not a nightly's: no corpus "
                     "replay.</p>";
  // The changes first and open; the unchanged cases folded away.
  std::vector<std::vector<TableCell>> changed, unchanged;
  for (auto &row : rows)
    (row[3].text == "REGRESSION" || !row[4].text.empty() ? changed : unchanged)
        .push_back(std::move(row));
  std::string html = "<h2 id=\"replay\">Corpus replay</h2>" + intro;
  if (last.nightly)
    html += "<p id=\"replay-changes\">" + std::to_string(changed.size()) +
            " of " + std::to_string(last.replay.size()) +
            " corpus cases changed or failed to replay.</p>";
  if (!changed.empty())
    html += renderTable("table-replay",
                        {"case", "recorded", "observed", "result", "error"},
                        changed);
  if (!unchanged.empty())
    html += "<details><summary>" + std::to_string(unchanged.size()) +
            " unchanged</summary>" +
            renderTable("table-replay-unchanged",
                        {"case", "recorded", "observed", "result", "error"},
                        unchanged) +
            "</details>";
  return html;
}

/// upstream.csv: a row per known root cause and corpus case of it.
std::string upstreamCsv(const ReportData &data) {
  std::string csv = csvRow({"root_cause", "upstream", "state", "seen_on",
                            "signatures", "findings", "case", "bisection"});
  for (const ReportRootCause &r : data.rootCauses) {
    std::vector<std::string> head = {r.id,
                                     r.upstream,
                                     r.state,
                                     r.seenOn,
                                     std::to_string(r.signatures),
                                     std::to_string(r.findings)};
    std::vector<std::string> cases = r.cases;
    if (cases.empty())
      cases.push_back("");
    for (const std::string &name : cases) {
      std::string bisected;
      for (const auto &[bisectedCase, summary] : r.bisect)
        if (bisectedCase == name)
          bisected = summary;
      std::vector<std::string> fields = head;
      fields.push_back(name);
      fields.push_back(bisected);
      csv += csvRow(fields);
    }
  }
  return csv;
}

std::vector<std::pair<std::string, std::string>>
renderReportCsv(const ReportData &data) {
  std::string verdicts = csvRow({"night", "system", "pipeline", "target",
                                 "verdict", "count"});
  std::string steps = csvRow({"night", "step", "runs", "seconds", "per_hour"});
  std::string coverage = csvRow({"night", "axis", "value", "runs"});
  std::string replay = csvRow({"night", "case", "recorded", "observed",
                               "changed", "error"});
  for (const ReportNight &n : data.nights) {
    for (const auto &[run, counts] : n.verdicts) {
      std::vector<std::string> parts = splitRunName(run);
      for (const auto &[verdict, count] : counts)
        verdicts += csvRow({n.label, parts[0], parts[1], parts[2], verdict,
                            std::to_string(count)});
    }
    for (const auto &[step, count] : n.steps)
      steps += csvRow({n.label, step, std::to_string(count), num(n.seconds),
                       num(n.seconds > 0 ? count / (n.seconds / 3600) : 0)});
    for (const auto &[tag, count] : n.coverage) {
      size_t eq = tag.find('=');
      coverage += csvRow({n.label, tag.substr(0, eq),
                          eq == std::string::npos ? "" : tag.substr(eq + 1),
                          std::to_string(count)});
    }
    for (const ReportNight::Replay &r : n.replay)
      replay += csvRow({n.label, r.name, r.recorded, r.observed,
                        r.changed ? "1" : "0", r.error});
  }
  std::string signatures = csvRow(
      {"status", "verdict", "signature", "runs", "first_seen", "last_seen",
       "count", "reduced_size", "repro", "case_dir", "reduced_dir",
       "detection_seconds", "note", "known_root_causes", "planted"});
  for (const ReportSignature &s : data.signatures)
    signatures +=
        csvRow({s.status, s.verdict, s.text, s.runs, s.firstSeen, s.lastSeen,
                std::to_string(s.count), std::to_string(s.reducedSize), s.repro,
                s.caseDir, s.reducedDir, num(s.detectionSeconds), s.note,
                s.knownCauses, s.planted});
  std::vector<std::pair<std::string, std::string>> files = {
      {"verdicts.csv", verdicts},
      {"signatures.csv", signatures},
      {"throughput.csv", steps},
      {"coverage.csv", coverage},
      {"replay.csv", replay}};
  if (!data.rootCauses.empty())
    files.emplace_back("upstream.csv", upstreamCsv(data));
  return files;
}

Status writeReport(const ReportData &data, const std::string &outDir) {
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec)
    return makeError(outDir + ": cannot create the report folder: " +
                     ec.message());
  std::vector<std::pair<std::string, std::string>> files =
      renderReportCsv(data);
  files.push_back({"report.json", data.toJson().dump(1) + "\n"});
  files.push_back({"report.html", renderReportHtml(data, outDir)});
  for (const auto &[name, content] : files) {
    std::string path = (fs::path(outDir) / name).string();
    if (Status s = writeFileAtomic(
            path, reinterpret_cast<const uint8_t *>(content.data()),
            content.size());
        !s.ok())
      return s;
  }
  return Status::success();
}

} // namespace sift::harness
