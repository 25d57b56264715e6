//===- runtime/ExportedCase.h - A fuzz case carried by its artifact -------===//
//
// `harness fuzz --export-artifacts=DIR` writes one artifact per case and GPU
// run, with the case's inputs and reference outputs in it and, in the meta
// section, what sift-run needs to check and report it without the compiler:
// the case's seed and run, and the ulp tolerance of each output. The keys
// live here, next to the artifact, so the writer (harness) and the reader
// (sift-run) cannot disagree.
//
//   case.seed        decimal seed of the case
//   case.pipeline    tileandfuse | distribute | cpu
//   case.target      nvptx | amdgpu | host
//   case.chip        sm_90, gfx942, ...
//   case.inputs      the input data mode (mixed, ties, ...)
//   case.faults      comma-separated injected faults, may be empty
//   case.tolerances  comma-separated ulps per output (0 = exact bits)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Artifact.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sift::rt {

struct ExportedCase {
  uint64_t seed = 0;
  std::string pipeline, target, chip, inputs, faults;
  std::vector<uint64_t> tolerances;

  /// "<seed>-<pipeline>-<target>": the file stem and the CSV's case key.
  std::string name() const;
};

/// Writes `info` into `artifact.meta`.
void setExportedCase(Artifact &artifact, const ExportedCase &info);

/// Reads the case back; an error names the key that is missing or bad. The
/// artifact must also carry its inputs and expected outputs, with one
/// tolerance per output.
Result<ExportedCase> getExportedCase(const Artifact &artifact);

} // namespace sift::rt
