//===- tools/sift-run/SystemCases.h - File systems' cases on a GPU host -*- C++ -*-===//
//
// The GPU half of a campaign over a system described by a file (XLA through
// jax.jit, TorchInductor, ONNX Runtime...): `harness fuzz
// --export-artifacts` writes each GPU run as NAME.syscase/
// (harness/campaign/SystemExport.cpp); sift-run runs the system's own
// command on it here, where the system's Python packages and the GPU are,
// `--repeat` times, and judges the step and the outputs as the harness
// does (oracles/StepVerdict.h, the case's comparison policy), into the same
// CSV rows as sift's artifacts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/sift-run/Options.h"
#include "tools/sift-run/ResultsCsv.h"
#include "tools/sift-run/Runs.h"

#include <string>
#include <vector>

namespace sift::tools {

/// The folder extension of an exported file system's case.
inline constexpr const char *kSystemCaseExtension = ".syscase";

/// Whether `path` names an exported file system's case.
bool isSystemCase(const std::string &path);

/// Runs and judges one case.
Row runSystemCase(const Options &options, const std::string &dir);

/// Every case of `dirs`, in order, each row to `sink`.
Status runSystemCases(const Options &options,
                      const std::vector<std::string> &dirs,
                      std::vector<Row> &rows, const RowSink &sink);

} // namespace sift::tools
