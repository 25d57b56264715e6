//===- harness/report/ReportPage.cpp - The sections of report.html --------===//

#include "harness/report/ReportWriters.h"

#include "support/Text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

const char *kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:0.85em;margin:8px 0}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4;cursor:pointer;user-select:none}th.asc:after{content:" \25B2"}th.desc:after{content:" \25BC"}
.planted{color:#805b00;font-size:0.85em}
td.num{text-align:right}td.new{background:#fde2e1}td.fixed{background:#e1f5e1}td.flaky{background:#fff4d6}
code{font-size:0.9em;overflow-wrap:anywhere}
td.sig{min-width:24em}td.repro{max-width:28em}td.runs{max-width:14em}td.case{white-space:nowrap}
details summary{cursor:pointer;color:#555}.chart{margin:8px 12px 8px 0}.grid{stroke:#eee}
.ax{font-size:10px;fill:#555}.ct{font-size:12px;font-weight:bold;fill:#222}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px}
.card b{display:block;font-size:1.4em}.regression{color:#b00;font-weight:bold}
input.filter{font-size:0.9em;padding:3px 6px;width:24em;margin:4px 0}td.trend{white-space:nowrap}
)css";

// Sorts a table by the clicked column (numbers as numbers, data-sort when
// a cell has one); marks the page ready once set up.
const char *kScript = R"js(
document.querySelectorAll('table.sortable').forEach(function (table) {
  table.querySelectorAll('th').forEach(function (th, column) {
    th.addEventListener('click', function () {
      var body = table.tBodies[0], rows = Array.from(body.rows);
      var asc = !th.classList.contains('asc');
      table.querySelectorAll('th').forEach(function (h) { h.classList.remove('asc', 'desc'); });
      th.classList.add(asc ? 'asc' : 'desc');
      function key(row) {
        var cell = row.cells[column], text = cell.getAttribute('data-sort') || cell.textContent;
        var n = parseFloat(text);
        return isNaN(n) || String(n) !== text.trim() ? text : n;
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = (typeof x === 'number' && typeof y === 'number') ? x - y : String(x).localeCompare(String(y));
        return asc ? c : -c;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.querySelectorAll('input.filter').forEach(function (box) {
  var table = document.getElementById(box.getAttribute('data-table'));
  box.addEventListener('input', function () {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    Array.from(table.tBodies[0].rows).forEach(function (row) {
      var text = row.textContent.toLowerCase();
      row.style.display = words.every(function (w) { return text.indexOf(w) >= 0; }) ? '' : 'none';
    });
  });
});
document.body.setAttribute('data-ready', 'yes');
)js";

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), v == static_cast<int64_t>(v) ? "%.0f" : "%.1f", v);
  return text;
}

TableCell cell(const std::string &text) { return {text, "", "", ""}; }

/// "a,b,c" as HTML that wraps between items: "a, b, c".
std::string spacedList(const std::string &list) {
  std::string html;
  for (char c : htmlEscaped(list))
    html += c == ',' ? std::string(", ") : std::string(1, c);
  return html;
}
TableCell numCell(double v) { return {num(v), "", num(v), "num"}; }

int64_t findingsOf(const std::map<std::string, int64_t> &verdicts) {
  int64_t n = 0;
  for (const auto &[verdict, count] : verdicts)
    if (verdict != "pass")
      n += count;
  return n;
}

/// The latest night's regressed corpus cases, each with the command that
/// shows it again (replay compares its verdict with the recorded one).
std::string regressions(const ReportNight &last) {
  std::string items;
  int changed = 0;
  for (const ReportNight::Replay &r : last.replay) {
    if (!r.changed)
      continue;
    ++changed;
    items += "<li><b>" + htmlEscaped(r.name) + "</b> (recorded " +
             htmlEscaped(r.recorded) + ", now " + htmlEscaped(r.observed) +
             "): <code>" +
             htmlEscaped("harness replay " +
                         shellQuoted(r.folder.empty() ? r.name : r.folder)) +
             "</code></li>";
  }
  if (!changed)
    return "";
  return "<div class=\"regression\" id=\"regressions\">" +
         std::to_string(changed) + " corpus case" + (changed == 1 ? "" : "s") +
         " changed verdict in " + htmlEscaped(last.label) +
         ": regressions (under Corpus replay too); each case and what shows "
         "it:<ul>" +
         items + "</ul></div>";
}

std::string summary(const ReportData &data) {
  const ReportNight &last = data.nights.back();
  std::map<std::string, int> statuses;
  for (const ReportSignature &s : data.signatures)
    statuses[s.status]++;
  int64_t findings = 0;
  for (const auto &[run, verdicts] : last.verdicts)
    findings += findingsOf(verdicts);
  std::string html = "<div class=\"cards\" id=\"summary\">";
  auto card = [&](const std::string &label, const std::string &value) {
    html += "<div class=\"card\"><b>" + htmlEscaped(value) + "</b>" +
            htmlEscaped(label) + "</div>";
  };
  card("cases (latest)", num(static_cast<double>(last.cases)));
  card("findings (latest)", num(static_cast<double>(findings)));
  for (const char *status : {"new", "open", "fixed", "flaky", "known"})
    card(std::string(status) + " signatures", std::to_string(statuses[status]));
  card("corpus cases replayed", std::to_string(last.replay.size()));
  html += "</div>";
  return html + regressions(last);
}

std::string verdictsSection(const ReportData &data) {
  std::set<std::string> runs;
  for (const ReportNight &n : data.nights)
    for (const auto &[run, v] : n.verdicts)
      runs.insert(run);
  std::vector<std::string> labels;
  for (const ReportNight &n : data.nights)
    labels.push_back(n.label);
  std::vector<ChartSeries> series;
  std::vector<std::vector<TableCell>> rows;
  for (const std::string &run : runs) {
    ChartSeries s{run, {}};
    for (const ReportNight &n : data.nights) {
      auto it = n.verdicts.find(run);
      if (it == n.verdicts.end()) {
        s.values.push_back(0);
        continue;
      }
      s.values.push_back(static_cast<double>(findingsOf(it->second)));
      std::vector<std::string> parts = splitRunName(run);
      for (const auto &[verdict, count] : it->second)
        rows.push_back({cell(n.label), cell(parts[0]), cell(parts[1]),
                        cell(parts[2]), cell(verdict),
                        numCell(static_cast<double>(count))});
    }
    series.push_back(std::move(s));
  }
  return "<h2 id=\"verdicts\">Verdicts per system, pipeline and target</h2>" +
         renderBarChart("chart-findings", "Findings per run, by night",
                        labels, series, /*stacked=*/true) +
         renderTable("table-verdicts",
                     {"night", "system", "pipeline", "target", "verdict",
                      "count"},
                     rows);
}

/// The signatures in the order a reader wants them: new first, then open,
/// flaky, seen, known and fixed; the most found first within a status.
std::vector<const ReportSignature *> sortedSignatures(const ReportData &data) {
  auto rank = [](const std::string &status) {
    static const char *order[] = {"new",  "open",  "flaky",
                                  "seen", "known", "fixed"};
    for (int i = 0; i < 6; ++i)
      if (status == order[i])
        return i;
    return 6;
  };
  std::vector<const ReportSignature *> out;
  for (const ReportSignature &s : data.signatures)
    out.push_back(&s);
  std::stable_sort(out.begin(), out.end(), [&](auto *a, auto *b) {
    if (rank(a->status) != rank(b->status))
      return rank(a->status) < rank(b->status);
    return a->count > b->count;
  });
  return out;
}

/// Its counts night by night ("0 · 3 · 5"), oldest first.
std::string trendText(const ReportSignature &s) {
  std::string text;
  for (int64_t n : s.perNight)
    text += (text.empty() ? "" : " \u00b7 ") + std::to_string(n);
  return text;
}

/// A link to a signature's case folder, shown as its hash.
std::string caseLink(const ReportSignature &s, const std::string &outDir) {
  if (s.caseDir.empty())
    return "";
  std::string rel =
      fs::path(s.caseDir).lexically_relative(fs::absolute(outDir)).string();
  std::string name = fs::path(s.caseDir).filename().string();
  std::string shown = name.substr(name.rfind('-') + 1).substr(0, 8);
  return "<a href=\"" + htmlEscaped(rel.empty() ? s.caseDir : rel) +
         "\" title=\"" + htmlEscaped(s.caseDir) + "\">" +
         htmlEscaped(shown.empty() ? name : shown) + "</a>";
}

/// A signature's cell: its text, and a label when it was found with faults
/// planted by --inject (a proof the campaign finds them, not a bug).
TableCell signatureCell(const ReportSignature &s) {
  std::string html = "<code>" + htmlEscaped(s.text) + "</code>";
  if (!s.planted.empty())
    html += "<br><span class=\"planted\" title=\"found with faults planted "
            "by --inject\">planted: " +
            htmlEscaped(s.planted) + "</span>";
  return {"", html, s.text, "sig"};
}

/// Tonight's new signatures, before everything else.
std::string newTonightSection(const ReportData &data,
                              const std::string &outDir) {
  std::string html = "<h2 id=\"new-tonight\">New tonight</h2>";
  std::vector<std::vector<TableCell>> rows;
  for (const ReportSignature *s : sortedSignatures(data))
    if (s->status == "new")
      rows.push_back({cell(s->verdict),
                      signatureCell(*s),
                      {s->runs, spacedList(s->runs), s->runs, "runs"},
                      numCell(static_cast<double>(s->count)),
                      {s->caseDir, caseLink(*s, outDir), s->caseDir, "case"}});
  if (rows.empty())
    return html + "<p id=\"no-new\">No new signature in the latest "
                  "night.</p>";
  return html + renderTable("table-new",
                            {"verdict", "signature", "runs", "count", "case"},
                            rows);
}

std::string signaturesSection(const ReportData &data,
                              const std::string &outDir) {
  std::vector<std::vector<TableCell>> rows;
  for (const ReportSignature *sp : sortedSignatures(data)) {
    const ReportSignature &s = *sp;
    std::string link = caseLink(s, outDir);
    TableCell status = cell(s.status);
    status.cls = s.status;
    rows.push_back(
        {status,
         cell(s.verdict),
         signatureCell(s),
         {s.runs, spacedList(s.runs), s.runs, "runs"},
         cell(s.firstSeen),
         cell(s.lastSeen),
         numCell(static_cast<double>(s.count)),
         s.reducedSize >= 0 ? numCell(static_cast<double>(s.reducedSize))
                            : TableCell{"-", "", "-1", "num"},
         {"",
          s.repro.empty() ? "-"
                          : "<details><summary>command</summary><code>" +
                                htmlEscaped(s.repro) + "</code></details>",
          s.repro, "repro"},
         {s.caseDir, link, s.caseDir, "case"},
         {trendText(s), htmlEscaped(trendText(s)), "", "trend"},
         cell(s.knownCauses.empty()
                  ? s.note
                  : "known root cause " + s.knownCauses +
                        (s.note.empty() ? "" : "; " + s.note))});
  }
  return "<h2 id=\"signatures\">Signatures</h2><p>Status against the "
         "previous night: <b>new</b> (not seen before), <b>open</b> (seen "
         "before), <b>fixed</b> (not seen, and its stored case passes now), "
         "<b>flaky</b> (its case did not reproduce every time), <b>known</b> "
         "(a root cause a known.json lists). Planted: found with faults "
         "planted by --inject. Reduced "
         "size: ops x elements of the reduced case. Per night: its count in "
         "each night, oldest first. New first, then by count.</p>"
         "<input class=\"filter\" id=\"filter-signatures\" "
         "data-table=\"table-signatures\" placeholder=\"filter: words all "
         "rows must contain\">" +
         renderTable("table-signatures",
                     {"status", "verdict", "signature", "runs", "first seen",
                      "last seen", "count", "reduced size", "repro", "case",
                      "per night", "note"},
                     rows);
}

/// Whether `night` only checked GPU code statically: it compiled for GPU
/// targets alone and ran nothing (no device ran their runs). Its "ran" and
/// "compared" are not zeros to chart: nothing was there to run.
bool staticOnly(const ReportNight &night) {
  auto ran = night.steps.find("ran");
  if (night.verdicts.empty() || (ran != night.steps.end() && ran->second > 0))
    return false;
  for (const auto &[run, verdicts] : night.verdicts)
    if (splitRunName(run)[2] == "host")
      return false;
  return true;
}

std::string throughputSection(const ReportData &data) {
  std::vector<std::string> labels;
  std::vector<ChartSeries> series;
  std::vector<std::vector<TableCell>> rows;
  std::string staticNights;
  const char *steps[] = {"generated", "compiled", "ran", "compared"};
  for (const char *step : steps)
    series.push_back({step, {}});
  for (const ReportNight &n : data.nights) {
    labels.push_back(n.label);
    bool statics = staticOnly(n);
    if (statics)
      staticNights += (staticNights.empty() ? "" : ", ") + n.label;
    double hours = n.seconds / 3600;
    for (size_t i = 0; i < 4; ++i) {
      // NaN: no bar, where the step had nothing to do.
      if (statics && i >= 2) {
        series[i].values.push_back(std::nan(""));
        continue;
      }
      auto it = n.steps.find(steps[i]);
      double count = it == n.steps.end() ? 0 : static_cast<double>(it->second);
      double perHour = hours > 0 ? count / hours : 0;
      series[i].values.push_back(perHour);
      rows.push_back({cell(n.label), cell(steps[i]), numCell(count),
                      numCell(n.seconds), numCell(std::round(perHour))});
    }
  }
  std::string note =
      staticNights.empty()
          ? ""
          : "<p id=\"static-nights\">" + htmlEscaped(staticNights) +
                ": static checks only, nothing ran (GPU targets with no "
                "device to run them): no ran or compared bar.</p>";
  return "<h2 id=\"throughput\">Throughput per step</h2>" + note +
         renderBarChart("chart-throughput", "Runs per hour at each step",
                        labels, series, /*stacked=*/false) +
         renderTable("table-throughput",
                     {"night", "step", "runs", "campaign seconds", "per hour"},
                     rows);
}

} // namespace

std::string coverageSection(const ReportData &data);
std::string detectionSection(const ReportData &data);
std::string replaySection(const ReportData &data);
std::string upstreamSection(const ReportData &data);

std::string renderReportHtml(const ReportData &data,
                             const std::string &outDir) {
  std::string html = "<!DOCTYPE html><html lang=\"en\"><head><meta "
                     "charset=\"utf-8\"><title>sift report</title><style>" +
                     std::string(kStyle) + "</style></head><body>";
  html += "<h1>sift report</h1><p>Generated " + htmlEscaped(data.generated) +
          " from " + std::to_string(data.nights.size()) +
          " database(s), oldest first: ";
  for (size_t i = 0; i < data.nights.size(); ++i)
    html += (i ? ", " : "") + htmlEscaped(data.nights[i].label) + " (started " +
            htmlEscaped(
                data.nights[i].started.empty() ? "-" : data.nights[i].started) +
            ", <code>" + htmlEscaped(data.nights[i].db) + "</code>)";
  html += ". The same data: <a href=\"report.json\">report.json</a> and the "
          "CSV files beside this page.</p><details id=\"options\"><summary>"
          "What each night ran (its options: pipelines, faults, seeds)"
          "</summary><ul>";
  for (const ReportNight &n : data.nights)
    html += "<li>" + htmlEscaped(n.label) + ": <code>" +
            htmlEscaped(n.options.empty() ? "-" : n.options) + "</code></li>";
  html += "</ul></details>";
  html += summary(data) + newTonightSection(data, outDir) +
          verdictsSection(data) + signaturesSection(data, outDir) +
          throughputSection(data) + coverageSection(data) +
          detectionSection(data) + replaySection(data) + upstreamSection(data);
  return html + "<script>" + kScript + "</script></body></html>\n";
}

std::string sortTableScript() { return kScript; }

} // namespace sift::harness
