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

bool isVendor(const std::string &impl) {
  return impl == "cub" || impl == "torch";
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

Result<BenchTable> readBenchTable(const std::vector<std::string> &results,
                                  const std::string &manifest,
                                  double slowFactor) {
  BenchTable table;
  table.slowFactor = slowFactor;
  std::map<std::string, BenchRow> rows;
  for (const std::string &path : results)
    if (Status s = readResults(path, table, rows); !s.ok())
      return s.error();
  if (!manifest.empty()) {
    auto json = readJson(manifest);
    if (!json.ok())
      return json.error();
    for (const auto &run : (*json).value("runs", nlohmann::json::array())) {
      std::string verdict = run.value("verdict", "");
      std::string name = run.value("bench", "") + "/" +
                         run.value("pipeline", "") + "/" +
                         run.value("target", "");
      if (verdict == "pass" && rows.count(name))
        continue; // timed: its row says how it ran
      if (verdict == "pass")
        verdict = "not timed"; // compiled, but the GPU job has no row of it
      BenchRow &row = rows[name];
      row.bench = run.value("bench", "");
      row.impl = run.value("pipeline", "");
      row.target = run.value("target", "");
      row.verdict = verdict;
      row.detail = run.value("detail", "");
      row.bytesMoved = run.value("bytes_moved", 0.0);
    }
  }
  // The copy bandwidth (bytes per ms) of the job's device.
  for (const auto &[name, row] : rows)
    if (row.bench.rfind("copy-", 0) == 0 && row.medianMs > 0)
      table.bytesPerMs = row.bytesMoved / row.medianMs;
  std::map<std::string, double> bestVendor;
  for (const auto &[name, row] : rows)
    if (isVendor(row.impl) && row.medianMs > 0 && row.verdict == "pass" &&
        (!bestVendor.count(row.bench) || row.medianMs < bestVendor[row.bench]))
      bestVendor[row.bench] = row.medianMs;
  for (auto &[name, row] : rows) {
    if (row.bench.rfind("copy-", 0) == 0)
      continue;
    // A run that never finished is as slow as its lower bound at least.
    double ms = row.medianMs > 0 ? row.medianMs : row.atLeastMs;
    if (bestVendor.count(row.bench) && ms > 0)
      row.ratio = ms / bestVendor[row.bench];
    if (table.bytesPerMs > 0)
      row.floorMs = row.bytesMoved / table.bytesPerMs;
    row.slow = !isVendor(row.impl) && row.ratio > slowFactor;
    table.rows.push_back(row);
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [](const BenchRow &a, const BenchRow &b) {
                     return std::tie(a.bench, a.impl) < std::tie(b.bench, b.impl);
                   });
  return table;
}

std::string benchMarkdown(const BenchTable &t) {
  std::string md = "| benchmark | implementation | verdict | median ms | "
                   "spread ms | runs | x best vendor | floor ms | x floor |\n"
                   "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | "
                   "---: |\n";
  char line[512];
  for (const BenchRow &r : t.rows) {
    std::string verdict = r.slow ? "slow-kernel" : r.verdict;
    bool bound = r.medianMs <= 0 && r.atLeastMs > 0;
    double ms = bound ? r.atLeastMs : r.medianMs;
    std::snprintf(line, sizeof(line), "| %s | %s | %s | %s | %s | %d | %s | %s | %s |\n",
                  r.bench.c_str(), r.impl.c_str(), verdict.c_str(),
                  number(ms, "%.3f", bound).c_str(),
                  number(r.spreadMs, "%.3f").c_str(), r.repetitions,
                  number(r.ratio, "%.1f", bound).c_str(),
                  number(r.floorMs, "%.4f").c_str(),
                  number(r.floorMs > 0 && ms > 0 ? ms / r.floorMs : 0, "%.0f",
                         bound).c_str());
    md += line;
  }
  return md;
}

Status writeBenchReport(const BenchTable &t, const std::string &outDir) {
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec)
    return makeError(outDir + ": cannot create the folder: " + ec.message());
  std::string csv = "benchmark,implementation,target,verdict,median_ms,"
                    "spread_ms,runs,ratio_to_best_vendor,floor_ms,slow_kernel,"
                    "at_least_ms,detail\n";
  std::vector<std::pair<std::string, double>> bars;
  std::vector<std::vector<TableCell>> cells;
  for (const BenchRow &r : t.rows) {
    char numbers[160];
    std::snprintf(numbers, sizeof(numbers), "%.6f,%.6f,%d,%.3f,%.6f,%d,%.3f,",
                  r.medianMs, r.spreadMs, r.repetitions, r.ratio, r.floorMs,
                  r.slow ? 1 : 0, r.atLeastMs);
    csv += csvField(r.bench) + "," + csvField(r.impl) + "," +
           csvField(r.target) + "," + csvField(r.verdict) + "," + numbers +
           csvField(r.detail) + "\n";
    if (r.ratio > 0 && !isVendor(r.impl))
      bars.push_back({r.bench + " " + r.impl, std::log10(r.ratio)});
  }
  std::string devices;
  for (const std::string &d : t.devices)
    if (d.find(' ') != std::string::npos) // a name, not a bare kind
      devices += (devices.empty() ? "" : "; ") + d;
  char facts[256];
  std::snprintf(facts, sizeof(facts),
                "; copy bandwidth %.0f GB/s. Slow kernel: over %.0fx the best "
                "vendor baseline.",
                t.bytesPerMs / 1e6, t.slowFactor);
  std::string md = "# Kernels against the vendors' baselines\n\nDevice: " +
                   (devices.empty() ? std::string("unknown") : devices) + facts +
                   "\n\n" + benchMarkdown(t);
  std::string html =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
      "sift bench</title><style>body{font-family:sans-serif;margin:24px}"
      "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px "
      "solid #ddd;padding:3px 6px}.ax{font-size:10px}.ct{font-size:12px;"
      "font-weight:bold}</style></head><body><h1>sift bench</h1><p>" +
      htmlEscaped(md.substr(0, md.find("\n\n| "))) + "</p>" +
      renderHBarChart("chart-ratio", "log10 of the time over the best vendor's",
                      bars) +
      "<pre>" + htmlEscaped(benchMarkdown(t)) + "</pre></body></html>\n";
  for (const auto &[name, text] :
       {std::pair<std::string, std::string>{"bench.md", md},
        {"bench.csv", csv},
        {"bench.html", html}}) {
    if (Status s = writeFileAtomic(
            (fs::path(outDir) / name).string(),
            reinterpret_cast<const uint8_t *>(text.data()), text.size());
        !s.ok())
      return s;
  }
  return Status::success();
}

} // namespace sift::harness
