//===- tools/sift-run/ResultsCsv.h - sift-run's results, row by row -------===//
//
// sift-run's CSV (case, pipeline, target, device, verdict, kernel_ms,
// module_load_ms, file, detail) is written a row at a time, as each artifact
// finishes, to PATH.partial, and renamed to PATH when the run completes:
// a GPU job that is preempted or killed keeps every row it finished, and
// `sift-run --resume` goes on from them instead of starting again.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "support/Result.h"

#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace sift::tools {

/// A time not measured (the CSV's empty field).
inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

/// One artifact's outcome.
struct Row {
  std::string file, name, pipeline, target, verdict, detail;
  /// Milliseconds of the kernels and of loading their modules; NaN: not
  /// measured (the cpu and emu devices time no kernels; the CSV leaves
  /// the field empty).
  double kernelMs = kNotMeasured, loadMs = kNotMeasured;
  bool unreadable = false;
};

/// A CSV time field: the number, or "" when not measured.
std::string timeField(double ms);

/// Parses a CSV time field ("" or a number); false when it is neither.
bool parseTimeField(const std::string &field, double &ms);

/// The records of CSV text, each a list of fields (RFC 4180 quoting). A
/// last record that has no line break after it is torn (the writer was
/// stopped inside it): it is left out and `torn` is set.
std::vector<std::vector<std::string>> parseCsv(const std::string &text,
                                               bool &torn);

/// The results file of one sift-run.
class ResultsCsv {
public:
  /// Starts PATH.partial. With `resume`, the complete rows of an earlier
  /// PATH.partial are kept (a torn last row is dropped) and listed by
  /// kept(); without it, or when there is none, the file starts empty.
  static Result<std::unique_ptr<ResultsCsv>>
  open(const std::string &path, const std::string &device, bool resume);
  ~ResultsCsv();

  /// Rows an earlier, stopped run had finished (with `resume`).
  const std::vector<Row> &kept() const { return kept_; }
  /// Whether an earlier run's PATH.partial was found (with `resume`).
  bool resumed() const { return resumed_; }
  /// Whether a torn last row was dropped on resuming.
  bool droppedTornRow() const { return torn_; }
  /// The file rows go to until finish().
  const std::string &partialPath() const { return partial_; }

  /// Appends one row and flushes it to the file.
  Status append(const Row &row);
  /// Renames PATH.partial to PATH.
  Status finish();
  /// Gives the run up (it could not start): PATH.partial is removed when
  /// it holds no row (nothing to resume), else kept. True when removed.
  bool abandon();

private:
  ResultsCsv(std::string path, std::string device);
  std::string path_, partial_, device_;
  std::FILE *file_ = nullptr;
  std::vector<Row> kept_;
  bool torn_ = false;
  bool resumed_ = false;
  size_t appended_ = 0;
};

} // namespace sift::tools
