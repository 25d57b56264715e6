//===- tools/sift-run/BenchRuns.h - A benchmark's timed runs ----*- C++ -*-===//
//
// The runs of one sift artifact that `sift-run --bench` times (Bench.cpp
// reads the artifact and makes its inputs and expected outputs).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/sift-run/Bench.h"

#include "runtime/Artifact.h"
#include "runtime/Device.h"
#include "runtime/ExportedCase.h"
#include "support/HostTensor.h"

#include <vector>

namespace sift::tools {

/// Runs `artifact` while the budget lasts (warm-ups, then timed runs) and
/// records the times in `r`, checking the first and the last run against
/// `expected`. By default every run dispatches on the same buffers, the
/// inputs uploaded and the kernels loaded once (rt::PreparedPlan), as the
/// vendors' baselines call their kernels; each run's outputs are set to
/// 0xFF before it, so the last run's check sees only what it wrote, and
/// after the runs the inputs must be as uploaded. --bench-fresh-buffers
/// runs the whole plan each time instead (allocate, upload, dispatch,
/// download, free), timing the dispatches the same way.
void timeRuns(rt::Device &device, const Options &options,
              rt::Artifact &artifact, const rt::ExportedCase &info,
              const std::vector<HostTensor> &expected, BenchResult &r);

} // namespace sift::tools
