//===- ReportCommand.cpp - `harness report`: databases into a report ------===//
//
// Reads one or more findings databases (nights, oldest first, or any
// campaign's) and writes report.html, its CSVs and report.json into -o.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/report/ReportWriters.h"

#include <cstdio>
#include <memory>

namespace sift::harness {

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
  if (Status s = writeReport(*data, options.output); !s.ok()) {
    std::fprintf(stderr, "harness report: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::printf("report of %zu database(s), %zu signatures: %s/report.html "
              "(and report.json, verdicts.csv, signatures.csv, "
              "throughput.csv, coverage.csv, replay.csv)\n",
              data->nights.size(), data->signatures.size(),
              options.output.c_str());
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
  return {cmd, [options] { return runReportCommand(*options); }};
}

} // namespace sift::harness
