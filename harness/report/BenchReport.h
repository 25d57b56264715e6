//===- harness/report/BenchReport.h - Kernels against vendors ---*- C++ -*-===//
//
// The benchmark table of one GPU job: see BenchReport.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <set>
#include <string>
#include <vector>

namespace sift::harness {

/// One run of a benchmark: a pipeline of a system, or a vendor baseline.
struct BenchRow {
  std::string bench, impl, target;
  /// pass, mismatch, run-timeout, compile-error, ... (the runs' label).
  std::string verdict, detail;
  double medianMs = -1, spreadMs = 0;
  /// A run that did not finish: one run took at least this long (ms; 0:
  /// unknown). `ratio` is then a lower bound too.
  double atLeastMs = 0;
  int repetitions = 0;
  double bytesMoved = 0;
  /// Median over the best vendor baseline's (0: no baseline or no time).
  double ratio = 0;
  /// Bytes moved over the measured copy bandwidth (0: unknown).
  double floorMs = 0;
  /// Slower than the slow factor times the best vendor baseline.
  bool slow = false;
};

struct BenchTable {
  std::vector<BenchRow> rows;
  std::set<std::string> devices;
  double bytesPerMs = 0;
  double slowFactor = 20;
};

/// Reads Google Benchmark JSON files (and the compile host's bench.json,
/// `manifest`, when given) into the table.
Result<BenchTable> readBenchTable(const std::vector<std::string> &results,
                                  const std::string &manifest,
                                  double slowFactor);

/// The table as Markdown.
std::string benchMarkdown(const BenchTable &table);

/// bench.md, bench.csv and bench.html into `outDir`.
Status writeBenchReport(const BenchTable &table, const std::string &outDir);

} // namespace sift::harness
