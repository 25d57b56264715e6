//===- tools/sift-run/Bench.h - `sift-run --bench` --------------*- C++ -*-===//
//
// Times exported benchmark runs (`harness bench`): see Bench.cpp.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/sift-run/Options.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace sift::tools {

/// One benchmark run on the device: its times and verdict.
struct BenchResult {
  std::string file, bench, pipeline, target;
  /// pass, mismatch, runtime-error, run-timeout or unreadable.
  std::string verdict, detail;
  /// Milliseconds of each timed run.
  std::vector<double> ms;
  uint64_t bytesMoved = 0;
  /// A run-timeout's lower bound on one run's time (ms; 0: unknown): the
  /// run that did not finish took at least this long.
  double atLeastMs = 0;
  /// The device that ran it ("cuda:0 (NVIDIA H100 80GB HBM3)").
  std::string device;
};

/// The results as Google Benchmark JSON: each repetition, then the median
/// and the spread (max - min) as aggregates.
nlohmann::json benchJson(const std::vector<BenchResult> &results,
                         const std::string &device);

/// Writes the inputs of the benchmarks `files` (sift artifacts, IREE
/// cases) time, or of every fixed benchmark program when `files` is
/// empty, as DIR/<name>/input<i>.npy; the exit code (2 when a file is not
/// a benchmark run).
int writeBenchInputs(const std::string &dir,
                     const std::vector<std::string> &files);

/// Times every file (sift artifacts and IREE cases of benchmarks) and
/// writes options.benchOut; 0, or 2 when one could not be read or run.
int runBench(const Options &options, const std::vector<std::string> &files);

} // namespace sift::tools
