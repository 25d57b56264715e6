//===- tools/sift-run/Runs.h - Artifacts through GPU workers ----*- C++ -*-===//
//
// The artifacts run in worker processes: the parent survives a kernel that
// never finishes (the worker is killed after --timeout and the case is
// `run-timeout`) or a worker that dies (`runtime-error`); a fresh worker
// takes the remaining artifacts. A runtime error also ends its worker, since
// a GPU context that faulted is not trusted with the next case.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"
#include "tools/sift-run/Options.h"
#include "tools/sift-run/ResultsCsv.h"

#include <functional>
#include <string>
#include <vector>

namespace sift::tools {

/// The detail of a row that passed without a reference to compare with.
inline constexpr const char *kNoReferenceDetail =
    "no reference: outputs not compared";

/// The artifact files of `paths`: directories contribute their *.siftart
/// files in name order; what cannot be read adds to `errors`.
std::vector<std::string> collectArtifacts(const std::vector<std::string> &paths,
                                          std::vector<std::string> &errors);

/// Where artifact `index` of `files` writes its outputs: the --output-dir
/// itself for a single artifact, else a folder named after the file.
std::string outputDirFor(const Options &options,
                         const std::vector<std::string> &files, size_t index);

/// Hands each finished row on (to the results file) as soon as it is known.
using RowSink = std::function<Status(const Row &)>;

/// Runs every file through workers; fills `rows` (one per file) and hands
/// each to `sink` when it is complete; outputs that could not be written to
/// --output-dir add to `writeErrors`. Returns an error when no worker could
/// create the device (`deviceFailed` set) or the sink failed.
Status runAll(const Options &options, const std::vector<std::string> &files,
              std::vector<Row> &rows, const RowSink &sink,
              std::vector<std::string> &writeErrors, bool &deviceFailed);

/// Runs every file once under compute-sanitizer (this program `self`, one
/// artifact, no further sanitizing) and fills `rows`: the inner run's row,
/// or memcheck-error with the sanitizer's first report when it flagged one
/// (any tool: racecheck's reports too).
Status runSanitized(const Options &options, const std::string &self,
                    const std::vector<std::string> &files,
                    std::vector<Row> &rows, const RowSink &sink);

} // namespace sift::tools
