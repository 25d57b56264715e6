//===- harness/report/ReportWriters.h - HTML, CSV and JSON ------*- C++ -*-===//
//
// `harness report` writes one model (ReportData) three ways into its
// folder: report.html (self-contained: inline SVG, a little plain
// JavaScript to sort tables, nothing fetched), one CSV per table and
// report.json. Each file is written atomically.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/report/ReportData.h"
#include "support/Result.h"

#include <string>
#include <utility>
#include <vector>

namespace sift::harness {

/// One series of a bar chart: a value per category.
struct ChartSeries {
  std::string name;
  std::vector<double> values;
};

/// A table cell: text (escaped) or html, and the key it sorts by.
struct TableCell {
  std::string text, html, sortKey, cls;
};

std::string htmlEscaped(const std::string &text);
std::string renderBarChart(const std::string &id, const std::string &title,
                           const std::vector<std::string> &categories,
                           const std::vector<ChartSeries> &series,
                           bool stacked);
std::string
renderHBarChart(const std::string &id, const std::string &title,
                const std::vector<std::pair<std::string, double>> &bars);
std::string renderTable(const std::string &id,
                        const std::vector<std::string> &headers,
                        const std::vector<std::vector<TableCell>> &rows);

/// The plain JavaScript that sorts every table.sortable by a clicked
/// column and then marks the body data-ready.
std::string sortTableScript();

/// The whole page; links to case folders are relative to `outDir`.
std::string renderReportHtml(const ReportData &data, const std::string &outDir);

/// The CSV files of the report: name -> content.
std::vector<std::pair<std::string, std::string>>
renderReportCsv(const ReportData &data);

/// Writes report.html, the CSVs and report.json into `outDir` (created).
Status writeReport(const ReportData &data, const std::string &outDir);

} // namespace sift::harness
