//===- tools/sift-run/Options.h - sift-run's command line -------*- C++ -*-===//
//
// sift-run parses its flags with CLI11, the option library of the harness:
// `--flag=value` and `--flag value` alike, --help and --version, and every
// value checked before any artifact runs (a usage error: exit 2).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"
#include "support/Fault.h"

#include <string>
#include <vector>

namespace sift::tools {

struct Options {
  std::vector<std::string> paths;
  rt::DeviceKind device = rt::DeviceKind::Cuda;
  std::string out = "sift-run.csv";
  /// Where outputs are written as .npy files; empty: nowhere.
  std::string outputDir;
  double timeoutSeconds = 30;
  int repeat = 2;
  FaultSet faults;
  std::string leadAllocator;
  std::string sanitize; ///< memcheck | racecheck; empty: none
  /// Go on from the rows of OUT.partial that a stopped run left.
  bool resume = false;
  /// IREE's iree-run-module, for .ireecase folders; empty: from PATH.
  std::string ireeRunModule;
  /// --bench=N: time benchmark runs N times each (after --warmup untimed
  /// runs) into benchOut (Google Benchmark JSON) instead of the CSV.
  int benchRuns = 0;
  int warmup = 3;
  /// Seconds one benchmark may spend on its repetitions (at least one run is
  /// timed, however long it takes, within --timeout).
  double benchBudgetSeconds = 30;
  /// --bench-fresh-buffers: each benchmark run allocates, uploads,
  /// dispatches, downloads and frees (the way before 2026-12-01), instead
  /// of dispatching again on buffers made ready once.
  bool benchFreshBuffers = false;
  std::string benchOut = "sift-bench.json";
  /// --write-bench-inputs=DIR: write every benchmark program's inputs as
  /// DIR/<name>/input<i>.npy (the vendor baselines read them) and exit.
  std::string writeBenchInputs;
  /// --write-ptx=DIR: write every distinct PTX module of the artifacts as
  /// DIR/<key>.ptx (runtime/gpu/ModuleCache.h) and exit.
  std::string writePtx;
};

/// Parses the command line into `options`. Returns -1 to go on, or the
/// exit code (0 after --help or --version, 2 after a usage error, which is
/// printed).
int parseOptions(int argc, char **argv, Options &options);

} // namespace sift::tools
