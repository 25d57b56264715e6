//===- ReportCommand.cpp - `harness report`: databases into a report ------===//
//
// Reads one or more findings databases (nights, oldest first, or any
// campaign's) and writes report.html, its CSVs and report.json into -o.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/report/ReportWriters.h"
#include "harness/store/KnownCauses.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace sift::harness {

namespace {

/// The upstream section's files: the given ones must load; the defaults
/// (the source tree's corpus/iree/known.json and bisect.json beside it)
/// only when they exist.
Status addUpstream(const ReportOptions &options, ReportData &data) {
  namespace fs = std::filesystem;
  if (options.knownFile == "none")
    return Status::success();
  std::string known =
      options.knownFile.empty() ? defaultKnownCausesPath() : options.knownFile;
  if (known.empty() || (options.knownFile.empty() && !fs::exists(known)))
    return Status::success();
  std::string bisect = options.bisectFile;
  if (bisect.empty()) {
    fs::path beside = fs::path(known).parent_path() / "bisect.json";
    bisect = fs::exists(beside) ? beside.string() : "";
  } else if (bisect == "none") {
    bisect.clear();
  }
  return addRootCauses(data, known, bisect);
}

} // namespace

int runReportCommand(const ReportOptions &options) {
  if (std::string twice = repeatedFile(options.databases); !twice.empty()) {
    std::fprintf(stderr, "harness report: %s: its night would be shown twice\n",
                 twice.c_str());
    return kExitUsage;
  }
  Result<ReportData> data = readReportData(options.databases);
  if (!data.ok()) {
    std::fprintf(stderr, "harness report: %s\n", data.message().c_str());
    return kExitUsage;
  }
  if (Status s = addUpstream(options, *data); !s.ok()) {
    std::fprintf(stderr, "harness report: %s\n", s.message().c_str());
    return kExitUsage;
  }
  if (Status s = writeReport(*data, options.output); !s.ok()) {
    std::fprintf(stderr, "harness report: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::printf("report of %zu database(s), %zu signatures: %s/report.html "
              "(and report.json, verdicts.csv, signatures.csv, "
              "throughput.csv, coverage.csv, replay.csv%s)\n",
              data->nights.size(), data->signatures.size(),
              options.output.c_str(),
              data->rootCauses.empty() ? "" : ", upstream.csv");
  return kExitOk;
}

CommandEntry addReportCommand(CLI::App &app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App *cmd = app.add_subcommand(
      "report", "Write a self-contained HTML report (inline SVG charts), its "
                "CSVs and JSON from findings databases (nights, oldest "
                "first)");
  cmd->add_option("databases", options->databases, "findings.db files")
      ->required();
  cmd->add_option("-o,--output", options->output, "The report's folder")
      ->required();
  cmd->add_option("--known", options->knownFile,
                  "IREE's known root causes for the upstream section "
                  "(default: the source tree's corpus/iree/known.json; "
                  "none: no section)");
  cmd->add_option("--bisect", options->bisectFile,
                  "harness bisect --json's file for the section's bisection "
                  "column (default: bisect.json beside known.json; none)");
  return {cmd, [options] { return runReportCommand(*options); }};
}

} // namespace sift::harness
