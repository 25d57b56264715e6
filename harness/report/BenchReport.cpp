//===- harness/report/BenchReport.cpp - Kernels against vendor baselines --===//
//
// `harness bench --results=...`: reads the Google Benchmark JSON of one GPU
// job (sift-run --bench for sift's and IREE's runs, the CUB and PyTorch
// baselines) and, optionally, the compile host's bench.json (runs that did
// not compile), and writes one table: each run's median kernel time and
// spread, its ratio to the best vendor baseline of the same benchmark in
// the same job, and the bandwidth floor (bytes the kernel must move over
// the device's measured copy bandwidth). A run slower than --slow-factor
// times the best baseline is a slow kernel.
//
//===----------------------------------------------------------------------===//

#include "harness/report/BenchReport.h"

#include "harness/report/ReportWriters.h"

#include "generators/BenchPrograms.h"
#include "support/FileIO.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

Result<nlohmann::json> readJson(const std::string &path) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok())
    return makeError(path + ": " + bytes.message());
  auto json = nlohmann::json::parse(bytes->begin(), bytes->end(), nullptr,
                                    false);
  if (!json.is_object())
    return makeError(path + ": not JSON");
  return json;
}

/// "topk-1024x1024-k8/tileandfuse/nvptx" -> its three parts.
std::vector<std::string> splitName(const std::string &name) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (parts.size() < 2) {
    size_t slash = name.find('/', at);
    if (slash == std::string::npos)
      break;
    parts.push_back(name.substr(at, slash - at));
    at = slash + 1;
  }
  parts.push_back(name.substr(at));
  return parts;
}

/// "12.345", or "> 30000" for a lower bound, or "-" when unknown.
std::string number(double v, const char *format, bool bound = false) {
  if (v <= 0)
    return "-";
  char text[64];
  std::snprintf(text, sizeof(text), format, v);
  return (bound ? "> " : "") + std::string(text);
}

/// Folds one Google Benchmark file into `rows` (by benchmark name).
Status readResults(const std::string &path, BenchTable &table,
                   std::map<std::string, BenchRow> &rows) {
  auto json = readJson(path);
  if (!json.ok())
    return json.error();
  if (!json->contains("benchmarks") || !(*json)["benchmarks"].is_array())
    return makeError(path + ": no \"benchmarks\" array (not Google Benchmark "
                            "JSON)");
  if ((*json).contains("context"))
    table.devices.insert((*json)["context"].value("device", ""));
  for (const auto &b : (*json)["benchmarks"]) {
    std::string run = b.value("run_name", b.value("name", ""));
    BenchRow &row = rows[run];
    std::vector<std::string> parts = splitName(run);
    if (parts.size() == 3) {
      row.bench = parts[0];
      row.impl = parts[1];
      row.target = parts[2];
    }
    row.bytesMoved = b.value("bytes_moved", 0.0);
    row.atLeastMs = std::max(row.atLeastMs, b.value("at_least_ms", 0.0));
    std::string label = b.value("label", "");
    row.verdict = label.substr(0, label.find(':'));
    if (label.find(':') != std::string::npos)
      row.detail = label.substr(label.find(':') + 2);
    std::string aggregate = b.value("aggregate_name", "");
    double ms = b.value("real_time", 0.0);
    if (aggregate == "median")
      row.medianMs = row.repetitions > 0 || ms > 0 ? ms : -1;
    else if (aggregate == "spread")
      row.spreadMs = ms;
    else if (b.value("run_type", "") == "iteration")
      ++row.repetitions;
  }
  return Status::success();
}

} // namespace

bool isVendor(const std::string &impl) {
  for (const char *vendor : {"torch", "cub", "jax", "cupy"})
    if (impl.rfind(vendor, 0) == 0)
      return true;
  return false;
}

namespace {

/// Folds the compile host's bench.json into `rows`: the file of each
/// exported run, and a row for each run the GPU job did not time.
Status readManifest(const std::string &path,
                    std::map<std::string, BenchRow> &rows) {
  auto json = readJson(path);
  if (!json.ok())
    return json.error();
  fs::path folder = fs::path(path).parent_path();
  for (const auto &run : (*json).value("runs", nlohmann::json::array())) {
    std::string verdict = run.value("verdict", "");
    std::string name = run.value("bench", "") + "/" +
                       run.value("pipeline", "") + "/" +
                       run.value("target", "");
    bool timed = rows.count(name) > 0;
    BenchRow &row = rows[name];
    if (!run.value("file", "").empty())
      row.file = (folder / run.value("file", "")).string();
    if (verdict == "pass" && timed)
      continue; // timed: its row says how it ran
    if (verdict == "pass")
      verdict = "not timed"; // compiled, but the GPU job has no row of it
    row.bench = run.value("bench", "");
    row.impl = run.value("pipeline", "");
    row.target = run.value("target", "");
    row.verdict = verdict;
    row.detail = run.value("detail", "");
    row.bytesMoved = run.value("bytes_moved", 0.0);
  }
  return Status::success();
}

/// Each slow kernel of a fixed benchmark walks its ladder while the rungs
/// are timed and still slow: the last slow rung is its reduced case.
void reduceSlowKernels(BenchTable &t) {
  std::map<std::string, const BenchRow *> byName;
  for (const BenchRow &r : t.rows)
    byName[r.bench + "/" + r.impl + "/" + r.target] = &r;
  for (BenchRow &r : t.rows) {
    std::optional<gen::BenchProgram> bench =
        r.slow && !r.rung ? gen::findBenchProgram(r.bench) : std::nullopt;
    if (!bench)
      continue;
    for (const gen::BenchProgram &rung : gen::benchLadder(*bench)) {
      auto it = byName.find(rung.name + "/" + r.impl + "/" + r.target);
      if (it == byName.end() || it->second->ratio <= 0)
        break;
      if (!it->second->slow) {
        r.fastAt = rung.name;
        r.fastRatio = it->second->ratio;
        break;
      }
      r.reducedTo = rung.name;
      r.reducedRatio = it->second->ratio;
    }
  }
}

} // namespace

Result<BenchTable> readBenchTable(const std::vector<std::string> &results,
                                  const std::vector<std::string> &manifests,
                                  double slowFactor) {
  BenchTable table;
  table.slowFactor = slowFactor;
  std::map<std::string, BenchRow> rows;
  for (const std::string &path : results)
    if (Status s = readResults(path, table, rows); !s.ok())
      return s.error();
  for (const std::string &path : manifests)
    if (Status s = readManifest(path, rows); !s.ok())
      return s.error();
  // The copy bandwidth (bytes per ms) of the job's device, and its
  // launch: the least a kernel takes.
  for (const auto &[name, row] : rows) {
    if (row.bench.rfind("copy-", 0) == 0 && row.medianMs > 0)
      table.bytesPerMs = row.bytesMoved / row.medianMs;
    if (row.bench.rfind("launch-", 0) == 0 && row.medianMs > 0)
      table.launchMs = row.medianMs;
  }
  std::map<std::string, double> bestVendor;
  for (const auto &[name, row] : rows)
    if (isVendor(row.impl) && row.medianMs > 0 && row.verdict == "pass" &&
        (!bestVendor.count(row.bench) || row.medianMs < bestVendor[row.bench]))
      bestVendor[row.bench] = row.medianMs;
  for (auto &[name, row] : rows) {
    if (row.bench.rfind("copy-", 0) == 0 || row.bench.rfind("launch-", 0) == 0)
      continue;
    // A run that never finished is as slow as its lower bound at least.
    double ms = row.medianMs > 0 ? row.medianMs : row.atLeastMs;
    if (bestVendor.count(row.bench) && ms > 0)
      row.ratio = ms / bestVendor[row.bench];
    // The floor: the bytes it must move at the copy bandwidth, and at
    // least one launch. NMS has none: its IoUs bound it, not its bytes
    // (a few kilobytes of boxes made a floor of 0.0000 ms that said
    // nothing).
    std::optional<gen::BenchProgram> program = gen::findBenchProgram(row.bench);
    bool nms = program && program->family == gen::Family::Nms;
    // The program's bytes: a vendor's file may not record them.
    uint64_t bytes = program ? program->bytesMoved : row.bytesMoved;
    if (table.bytesPerMs > 0 && !nms)
      row.floorMs = std::max(bytes / table.bytesPerMs, table.launchMs);
    // A wrong run is wrong before it is slow; one that did not finish is
    // judged by its lower bound.
    row.slow = !isVendor(row.impl) &&
               (row.verdict == "pass" || row.verdict == "run-timeout") &&
               row.ratio > slowFactor;
    row.rung = !gen::isFixedBench(row.bench);
    table.rows.push_back(row);
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [](const BenchRow &a, const BenchRow &b) {
                     return std::tie(a.bench, a.impl) < std::tie(b.bench, b.impl);
                   });
  reduceSlowKernels(table);
  return table;
}

namespace {

/// One row of the main table's columns, as cells.
std::vector<std::string> rowCells(const BenchRow &r) {
  bool bound = r.medianMs <= 0 && r.atLeastMs > 0;
  double ms = bound ? r.atLeastMs : r.medianMs;
  return {r.bench,
          r.impl,
          r.slow ? "slow-kernel" : r.verdict,
          number(ms, "%.3f", bound),
          number(r.spreadMs, "%.3f"),
          std::to_string(r.repetitions),
          number(r.ratio, "%.1f", bound),
          number(r.floorMs, "%.4f"),
          number(r.floorMs > 0 && ms > 0 ? ms / r.floorMs : 0, "%.0f", bound)};
}

const std::vector<std::string> kHeaders = {
    "benchmark", "implementation", "verdict",    "median ms", "spread ms",
    "runs",      "x best vendor",  "floor ms",   "x floor"};

/// A slow kernel's reduction as cells: still slow at, ratio, not slow at,
/// ratio.
std::vector<std::string> reductionCells(const BenchRow &r) {
  return {r.bench,
          r.impl,
          r.reducedTo.empty() ? "(not reduced)" : r.reducedTo,
          number(r.reducedRatio, "%.1f"),
          r.fastAt.empty() ? "-" : r.fastAt,
          number(r.fastRatio, "%.1f")};
}

const std::vector<std::string> kReductionHeaders = {
    "benchmark",     "implementation", "still slow at",
    "x best vendor", "not slow at",    "x best vendor there"};

std::string markdownTable(const std::vector<std::string> &headers,
                          const std::vector<std::vector<std::string>> &rows) {
  std::string md = "|", rule = "|";
  for (size_t i = 0; i < headers.size(); ++i) {
    md += " " + headers[i] + " |";
    rule += i < 3 ? " --- |" : " ---: |";
  }
  md += "\n" + rule + "\n";
  for (const auto &row : rows) {
    md += "|";
    for (const std::string &cell : row)
      md += " " + cell + " |";
    md += "\n";
  }
  return md;
}

/// The three tables of the report: the fixed benchmarks, the reductions
/// of their slow kernels, the ladder's runs.
struct Sections {
  std::vector<std::vector<std::string>> main, reductions, rungs;
};

Sections sectionsOf(const BenchTable &t) {
  Sections s;
  for (const BenchRow &r : t.rows) {
    (r.rung ? s.rungs : s.main).push_back(rowCells(r));
    if (r.slow && !r.rung)
      s.reductions.push_back(reductionCells(r));
  }
  return s;
}

/// Whether a row of the table is a slow kernel of a fixed benchmark
/// (`rungs`: a timed run of a ladder's rung).
bool any(const BenchTable &t, bool rungs) {
  for (const BenchRow &r : t.rows)
    if (rungs ? r.rung && !isVendor(r.impl) : r.slow && !r.rung)
      return true;
  return false;
}

nlohmann::json rowJson(const BenchRow &r) {
  return {{"bench", r.bench},         {"implementation", r.impl},
          {"target", r.target},       {"verdict", r.verdict},
          {"detail", r.detail},       {"median_ms", r.medianMs},
          {"spread_ms", r.spreadMs},  {"at_least_ms", r.atLeastMs},
          {"runs", r.repetitions},    {"bytes_moved", r.bytesMoved},
          {"ratio", r.ratio},         {"floor_ms", r.floorMs},
          {"slow_kernel", r.slow},    {"rung", r.rung},
          {"file", r.file},           {"reduced_to", r.reducedTo},
          {"reduced_ratio", r.reducedRatio}, {"fast_at", r.fastAt},
          {"fast_ratio", r.fastRatio}};
}

std::string htmlTable(const std::string &id,
                      const std::vector<std::string> &headers,
                      const std::vector<std::vector<std::string>> &rows) {
  std::vector<std::vector<TableCell>> cells;
  for (const auto &row : rows) {
    cells.emplace_back();
    for (const std::string &text : row) {
      TableCell cell;
      cell.text = text;
      if (text.rfind("> ", 0) == 0)
        cell.sortKey = text.substr(2); // a lower bound sorts by its value
      if (text == "slow-kernel")
        cell.cls = "slow";
      cells.back().push_back(cell);
    }
  }
  return renderTable(id, headers, cells);
}

} // namespace

std::string benchMarkdown(const BenchTable &t) {
  Sections s = sectionsOf(t);
  std::string md = markdownTable(kHeaders, s.main);
  if (any(t, false))
    md += "\n## Reductions\n\nEach slow kernel through smaller shapes of "
          "its benchmark (harness bench --ladder; a quarter of the elements "
          "a rung): the smallest on which it is still slow is its reduced "
          "case.\n\n" +
          markdownTable(kReductionHeaders, s.reductions);
  if (any(t, true))
    md += "\n## Ladder runs\n\n" + markdownTable(kHeaders, s.rungs);
  return md;
}

namespace {

std::string benchCsv(const BenchTable &t) {
  std::string csv = "benchmark,implementation,target,verdict,median_ms,"
                    "spread_ms,runs,ratio_to_best_vendor,floor_ms,slow_kernel,"
                    "at_least_ms,rung,reduced_to,reduced_ratio,detail\n";
  for (const BenchRow &r : t.rows) {
    char numbers[192];
    std::snprintf(numbers, sizeof(numbers), "%.6f,%.6f,%d,%.3f,%.6f,%d,%.3f,%d,",
                  r.medianMs, r.spreadMs, r.repetitions, r.ratio, r.floorMs,
                  r.slow ? 1 : 0, r.atLeastMs, r.rung ? 1 : 0);
    csv += csvField(r.bench) + "," + csvField(r.impl) + "," +
           csvField(r.target) + "," + csvField(r.verdict) + "," + numbers +
           csvField(r.reducedTo) + "," + number(r.reducedRatio, "%.3f") + "," +
           csvField(r.detail) + "\n";
  }
  return csv;
}

/// The job's device names ("NVIDIA H100 80GB HBM3", "cuda:0 (NVIDIA H100
/// 80GB HBM3)"), each once: not a bare kind, not one another names already.
std::string deviceNames(const BenchTable &t) {
  std::string devices;
  for (const std::string &d : t.devices) {
    bool named = false;
    for (const std::string &other : t.devices)
      named = named || (other != d && d.find(other) != std::string::npos);
    if (d.find(' ') != std::string::npos && !named)
      devices += (devices.empty() ? "" : "; ") + d;
  }
  return devices;
}

/// The page: the facts, a chart of each fixed run's ratio (log10), the
/// tables, sortable.
std::string benchHtml(const BenchTable &t, const std::string &about) {
  std::vector<std::pair<std::string, double>> bars;
  for (const BenchRow &r : t.rows)
    if (r.ratio > 0 && !isVendor(r.impl) && !r.rung)
      bars.push_back({r.bench + " " + r.impl, std::log10(r.ratio)});
  Sections s = sectionsOf(t);
  std::string html =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
      "sift bench</title><style>body{font-family:sans-serif;margin:24px}"
      "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px "
      "solid #ddd;padding:3px 6px}th{cursor:pointer;background:#f4f4f4}"
      "td.slow{color:#b00;font-weight:bold}.ax{font-size:10px}.ct{font-size:"
      "12px;font-weight:bold}</style></head><body><h1>sift bench</h1><p>" +
      htmlEscaped(about) + "</p>" +
      renderHBarChart("chart-ratio", "log10 of the time over the best vendor's",
                      bars) +
      "<h2>Benchmarks</h2>" + htmlTable("table-bench", kHeaders, s.main);
  if (any(t, false))
    html += "<h2>Reductions</h2>" +
            htmlTable("table-reductions", kReductionHeaders, s.reductions);
  if (any(t, true))
    html += "<h2>Ladder runs</h2>" + htmlTable("table-rungs", kHeaders, s.rungs);
  return html + "<script>" + sortTableScript() + "</script></body></html>\n";
}

} // namespace

Status writeBenchReport(const BenchTable &t, const std::string &outDir) {
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec)
    return makeError(outDir + ": cannot create the folder: " + ec.message());
  std::string devices = deviceNames(t);
  char facts[320];
  std::snprintf(facts, sizeof(facts),
                "; copy bandwidth %.0f GB/s, an empty kernel %.4f ms. Floor: "
                "the bytes a run must move at that bandwidth, at least one "
                "launch (none for NMS, bound by its IoUs). Slow kernel: over "
                "%.0fx the best vendor baseline.",
                t.bytesPerMs / 1e6, t.launchMs, t.slowFactor);
  std::string about = "Device: " +
                      (devices.empty() ? std::string("unknown") : devices) +
                      facts;
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchRow &r : t.rows)
    rows.push_back(rowJson(r));
  std::string json = nlohmann::json{{"format", "sift-bench-table 1"},
                                    {"device", devices},
                                    {"bytes_per_ms", t.bytesPerMs},
                                    {"launch_ms", t.launchMs},
                                    {"slow_factor", t.slowFactor},
                                    {"rows", rows}}
                         .dump(1) +
                     "\n";
  for (const auto &[name, text] :
       {std::pair<std::string, std::string>{
            "bench.md", "# Kernels against the vendors' baselines\n\n" +
                            about + "\n\n" + benchMarkdown(t)},
        {"bench.csv", benchCsv(t)},
        {"bench.html", benchHtml(t, about)},
        {"table.json", json}}) {
    if (Status st = writeFileAtomic(
            (fs::path(outDir) / name).string(),
            reinterpret_cast<const uint8_t *>(text.data()), text.size());
        !st.ok())
      return st;
  }
  return Status::success();
}

Result<BenchTable> readBenchTableJson(const std::string &path) {
  auto json = readJson(path);
  if (!json.ok())
    return json.error();
  if ((*json).value("format", "") != "sift-bench-table 1" ||
      !(*json)["rows"].is_array())
    return makeError(path + ": not a bench table (harness bench --results "
                            "writes table.json)");
  BenchTable t;
  t.slowFactor = (*json).value("slow_factor", 20.0);
  t.bytesPerMs = (*json).value("bytes_per_ms", 0.0);
  t.launchMs = (*json).value("launch_ms", 0.0);
  if (!(*json).value("device", "").empty())
    t.devices.insert((*json).value("device", ""));
  for (const auto &j : (*json)["rows"]) {
    BenchRow r;
    r.bench = j.value("bench", "");
    r.impl = j.value("implementation", "");
    r.target = j.value("target", "");
    r.verdict = j.value("verdict", "");
    r.detail = j.value("detail", "");
    r.medianMs = j.value("median_ms", -1.0);
    r.spreadMs = j.value("spread_ms", 0.0);
    r.atLeastMs = j.value("at_least_ms", 0.0);
    r.repetitions = j.value("runs", 0);
    r.bytesMoved = j.value("bytes_moved", 0.0);
    r.ratio = j.value("ratio", 0.0);
    r.floorMs = j.value("floor_ms", 0.0);
    r.slow = j.value("slow_kernel", false);
    r.rung = j.value("rung", false);
    r.file = j.value("file", "");
    r.reducedTo = j.value("reduced_to", "");
    r.reducedRatio = j.value("reduced_ratio", 0.0);
    r.fastAt = j.value("fast_at", "");
    r.fastRatio = j.value("fast_ratio", 0.0);
    t.rows.push_back(r);
  }
  return t;
}

} // namespace sift::harness
