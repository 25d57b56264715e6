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
  /// The exported run (from a manifest), relative to the working folder.
  std::string file;
  /// A smaller shape of a fixed benchmark (a reduction's ladder rung).
  bool rung = false;
  /// A slow kernel's reduction: the smallest rung of its ladder on which
  /// it is still slow, and its ratio there; the first rung on which it is
  /// not, and its ratio (empty: not timed).
  std::string reducedTo, fastAt;
  double reducedRatio = 0, fastRatio = 0;
};

struct BenchTable {
  std::vector<BenchRow> rows;
  std::set<std::string> devices;
  double bytesPerMs = 0;
  /// An empty kernel's median (CUB's "launch-empty"): the least any
  /// kernel takes; 0 when the job did not time one.
  double launchMs = 0;
  double slowFactor = 20;
};

/// Whether a row's implementation is a vendor baseline: torch's (eager,
/// graph, per class), CUB's calls ("cub", "cub-radix", "cub-topk"), JAX's
/// and CuPy's; anything else is a compiler's run.
bool isVendor(const std::string &impl);

/// Reads Google Benchmark JSON files (and the compile host's bench.json
/// manifests, when given) into the table, and reduces each slow kernel of
/// a fixed benchmark through the rungs of its ladder the files time.
Result<BenchTable> readBenchTable(const std::vector<std::string> &results,
                                  const std::vector<std::string> &manifests,
                                  double slowFactor);

/// The rows of a table written by writeBenchReport (DIR/table.json).
Result<BenchTable> readBenchTableJson(const std::string &path);

/// The table as Markdown.
std::string benchMarkdown(const BenchTable &table);

/// bench.md, bench.csv, bench.html and table.json into `outDir`.
Status writeBenchReport(const BenchTable &table, const std::string &outDir);

} // namespace sift::harness
