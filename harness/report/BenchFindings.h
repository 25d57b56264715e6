//===- harness/report/BenchFindings.h - A bench table's findings -*- C++ -*-===//
//
// The findings of a GPU job's bench table (harness bench --out, harness
// nightly --bench): each slow kernel and failed run of a fixed benchmark,
// one signature per family, pipeline, target and verdict; a reduced slow
// kernel keeps its smallest slow shape's exported run as its case folder.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/report/BenchReport.h"
#include "support/Result.h"

#include <string>

namespace sift::harness {

/// Stores the table's findings (not the ladder's rungs) as one run of
/// `findingsDir`'s database, named `command`.
Status recordBenchFindings(const BenchTable &table,
                           const std::string &findingsDir,
                           const std::string &command);

/// The signature `row`'s run has as a slow kernel, slow now or not, timed
/// or not finished; "" when the row is no pipeline's run.
std::string slowKernelSignature(const BenchRow &row, double slowFactor);

} // namespace sift::harness
