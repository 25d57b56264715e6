//===- harness/report/ReportHtml.cpp - The report as one HTML file --------===//
//
// One self-contained page: inline CSS, inline SVG charts, tables sortable by
// a few lines of plain JavaScript, nothing fetched. Sections: the latest
// night at a glance, verdicts per run over nights, signatures, throughput
// per step, coverage, time to first detection, the corpus replay.
//
//===----------------------------------------------------------------------===//

#include "harness/report/ReportWriters.h"

#include "support/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace sift::harness {

std::string htmlEscaped(const std::string &text) { return markupEscaped(text); }

namespace {

const char *kColors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                         "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                         "#9c755f", "#bab0ac"};

std::string number(double v) {
  char text[32];
  if (std::fabs(v - std::round(v)) < 1e-9)
    std::snprintf(text, sizeof(text), "%.0f", v);
  else
    std::snprintf(text, sizeof(text), "%.1f", v);
  return text;
}

/// The smallest "round" tick step (1, 2 or 5 times a power of ten) at
/// which four steps reach `maxValue`.
double roundTickStep(double maxValue) {
  double raw = std::max(maxValue, 1.0) / 4;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw)
      return std::max(m * power, 1.0);
  return 10 * power;
}

/// A vertical bar chart: one group per category, one bar per series
/// (stacked when `stacked`; none for a NaN value), a legend, values in
/// each bar's title.
std::string barChart(const std::string &id, const std::string &title,
                     const std::vector<std::string> &categories,
                     const std::vector<ChartSeries> &series, bool stacked) {
  const double width = 760, height = 260, left = 60, bottom = 60, top = 30;
  double maxValue = 1;
  for (size_t c = 0; c < categories.size(); ++c) {
    double sum = 0;
    for (const ChartSeries &s : series) {
      double v = c < s.values.size() ? s.values[c] : 0;
      if (std::isnan(v))
        continue;
      sum = stacked ? sum + v : std::max(sum, v);
    }
    maxValue = std::max(maxValue, sum);
  }
  // Ticks at round values: the axis ends at four round steps.
  maxValue = 4 * roundTickStep(maxValue);
  std::string svg = "<svg id=\"" + id +
                    "\" class=\"chart\" role=\"img\" "
                    "width=\"" +
                    number(width) + "\" height=\"" +
                    number(height + 20 * ((series.size() + 2) / 3)) +
                    "\" xmlns=\"http://www.w3.org/2000/svg\"><title>" +
                    htmlEscaped(title) + "</title>";
  double plotH = height - bottom - top, plotW = width - left - 10;
  svg += "<text x=\"" + number(left) + "\" y=\"18\" class=\"ct\">" +
         htmlEscaped(title) + "</text>";
  for (int t = 0; t <= 4; ++t) {
    double y = top + plotH - plotH * t / 4;
    svg += "<line x1=\"" + number(left) + "\" x2=\"" + number(width - 10) +
           "\" y1=\"" + number(y) + "\" y2=\"" + number(y) +
           "\" class=\"grid\"/><text x=\"" + number(left - 4) + "\" y=\"" +
           number(y + 4) + "\" class=\"ax\" text-anchor=\"end\">" +
           number(maxValue * t / 4) + "</text>";
  }
  double groupW = plotW / std::max<size_t>(categories.size(), 1);
  size_t bars = stacked ? 1 : std::max<size_t>(series.size(), 1);
  double barW = std::max(2.0, groupW * 0.8 / bars);
  for (size_t c = 0; c < categories.size(); ++c) {
    double x0 = left + groupW * c + groupW * 0.1, base = top + plotH;
    for (size_t s = 0; s < series.size(); ++s) {
      double v = c < series[s].values.size() ? series[s].values[c] : 0;
      // NaN: nothing to show (a step the night had nothing to do in), not
      // a zero.
      if (std::isnan(v))
        continue;
      double h = plotH * v / maxValue;
      double x = stacked ? x0 : x0 + barW * s;
      double y = stacked ? base - h : top + plotH - h;
      svg +=
          "<rect class=\"bar\" x=\"" + number(x) + "\" y=\"" + number(y) +
          "\" width=\"" + number(barW) + "\" height=\"" + number(h) +
          "\" fill=\"" + kColors[s % 10] + (s >= 10 ? "\" stroke=\"#000" : "") +
          "\"><title>" +
          htmlEscaped(categories[c] + " " + series[s].name + ": " + number(v)) +
          "</title></rect>";
      if (stacked)
        base -= h;
    }
    std::string label = categories[c].substr(0, 18);
    svg += "<text x=\"" + number(left + groupW * c + groupW / 2) + "\" y=\"" +
           number(top + plotH + 14) + "\" class=\"ax\" text-anchor=\"middle\">" +
           htmlEscaped(label) + "</text>";
  }
  // The legend names each series whole (three a row), so that bars of
  // similar runs ("iree-tileandfuse/nvptx", "iree-tileandfuse/amdgpu")
  // are told apart; beyond ten series the colours repeat with a stroke.
  for (size_t s = 0; s < series.size(); ++s) {
    double x = left + 240 * (s % 3), y = height - 16 + 20 * (s / 3);
    svg += "<rect x=\"" + number(x) + "\" y=\"" + number(y - 10) +
           "\" width=\"10\" height=\"10\" fill=\"" + kColors[s % 10] +
           (s >= 10 ? "\" stroke=\"#000" : "") + "\"/><text x=\"" +
           number(x + 14) + "\" y=\"" + number(y) + "\" class=\"ax\">" +
           htmlEscaped(series[s].name.substr(0, 40)) + "</text>";
  }
  return svg + "</svg>";
}

/// Horizontal bars of (label, value), for one coverage axis.
std::string hbarChart(const std::string &id, const std::string &title,
                      const std::vector<std::pair<std::string, double>> &bars) {
  // Labels right-aligned before the bars: as wide as the longest (10 px
  // type is about 5.5 px a character), 130 px at least.
  const double rowH = 18, width = 360;
  double left = 130, maxValue = 1;
  for (const auto &[label, v] : bars) {
    maxValue = std::max(maxValue, v);
    left = std::max(left, 5.5 * static_cast<double>(label.size()) + 12);
  }
  std::string svg = "<svg id=\"" + id + "\" class=\"chart\" role=\"img\" "
                    "width=\"" + number(width + left + 60) + "\" height=\"" +
                    number(28 + rowH * bars.size()) +
                    "\" xmlns=\"http://www.w3.org/2000/svg\"><title>" +
                    htmlEscaped(title) + "</title><text x=\"0\" y=\"16\" "
                    "class=\"ct\">" + htmlEscaped(title) + "</text>";
  for (size_t i = 0; i < bars.size(); ++i) {
    double y = 24 + rowH * i, w = width * bars[i].second / maxValue;
    svg += "<text x=\"" + number(left - 6) + "\" y=\"" + number(y + 12) +
           "\" class=\"ax\" text-anchor=\"end\">" +
           htmlEscaped(bars[i].first) + "</text><rect class=\"bar\" x=\"" +
           number(left) + "\" y=\"" + number(y + 2) + "\" width=\"" +
           number(w) + "\" height=\"" + number(rowH - 4) + "\" fill=\"" +
           kColors[i % 10] + "\"><title>" +
           htmlEscaped(bars[i].first + ": " + number(bars[i].second)) +
           "</title></rect><text x=\"" + number(left + w + 4) + "\" y=\"" +
           number(y + 12) + "\" class=\"ax\">" + number(bars[i].second) +
           "</text>";
  }
  return svg + "</svg>";
}

} // namespace

std::string renderBarChart(const std::string &id, const std::string &title,
                           const std::vector<std::string> &categories,
                           const std::vector<ChartSeries> &series,
                           bool stacked) {
  return barChart(id, title, categories, series, stacked);
}

std::string renderHBarChart(
    const std::string &id, const std::string &title,
    const std::vector<std::pair<std::string, double>> &bars) {
  return hbarChart(id, title, bars);
}

std::string renderTable(const std::string &id,
                        const std::vector<std::string> &headers,
                        const std::vector<std::vector<TableCell>> &rows) {
  std::string html = "<table id=\"" + id + "\" class=\"sortable\"><thead><tr>";
  for (const std::string &h : headers)
    html += "<th>" + htmlEscaped(h) + "</th>";
  html += "</tr></thead><tbody>";
  for (const auto &row : rows) {
    html += "<tr>";
    for (const TableCell &cell : row)
      html += "<td" +
              (cell.sortKey.empty()
                   ? std::string()
                   : " data-sort=\"" + htmlEscaped(cell.sortKey) + "\"") +
              (cell.cls.empty() ? std::string()
                                : " class=\"" + cell.cls + "\"") +
              ">" + (cell.html.empty() ? htmlEscaped(cell.text) : cell.html) +
              "</td>";
    html += "</tr>";
  }
  return html + "</tbody></table>";
}

} // namespace sift::harness
