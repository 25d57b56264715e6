//===- tools/sift-run/IreeCases.h - IREE's modules on a GPU host -*- C++ -*-===//
//
// The GPU half of an IREE campaign: `harness fuzz --export-artifacts` writes
// each IREE case as a NAME.ireecase folder (module.vmfb, case.json with the
// program model, input<i>.npy, expected<i>.npy); sift-run runs the module
// with IREE's own iree-run-module on the device (cuda, hip, or local-task
// for cpu), `--repeat` times, and judges the outputs under IREE's
// comparison policy with the model, into the same CSV rows as sift's
// artifacts. Each run is a child process with --timeout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tools/sift-run/Options.h"
#include "tools/sift-run/ResultsCsv.h"
#include "tools/sift-run/Runs.h"

#include <string>
#include <vector>

namespace sift::tools {

/// Whether `path` names an exported IREE case (a NAME.ireecase folder).
bool isIreeCase(const std::string &path);

/// The iree-run-module to use: --iree-run-module, else the first on PATH;
/// the error says how to give one.
Result<std::string> findIreeRunModule(const Options &options);

/// Runs and judges one IREE case with `runModule`.
Row runIreeCase(const Options &options, const std::string &runModule,
                const std::string &dir, const std::string &outputDir,
                std::string &writeError);

/// Every case of `dirs`, in order, each row to `sink` when known.
Status runIreeCases(const Options &options,
                    const std::vector<std::string> &dirs,
                    std::vector<Row> &rows, const RowSink &sink,
                    std::vector<std::string> &writeErrors);

} // namespace sift::tools
