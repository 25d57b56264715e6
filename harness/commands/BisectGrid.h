//===- harness/commands/BisectGrid.h - Bisect, any system ---*- C++ -*-===//
//
// What `harness bisect` does the same for every system it walks: the case
// folders are checked and copied into a work folder, each version (a
// column) is installed into its own venv and every case replayed with an
// environment variable pointing at it, and the grid of outcomes is printed
// (where each case first fails as recorded), written as Markdown and as
// JSON. What differs (IREE's releases and how one is installed, or a
// system file's [install] table) is a BisectVersions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// `harness bisect`.
struct BisectOptions {
  std::vector<std::string> cases;
  /// IREE's releases FROM..TO (--iree); "" for the default.
  std::string ireeRange;
  /// A system file's versions FROM..TO (--versions); "" for all.
  std::string versionRange;
  std::string cache;
  std::string table, json;
  std::optional<double> caseTimeoutSeconds;
};

/// The versions one bisect walks and how each is made ready.
class BisectVersions {
public:
  virtual ~BisectVersions() = default;
  /// What a progress line calls the system ("IREE", "onnxruntime").
  virtual std::string system() const = 0;
  /// The versions, oldest first: the grid's columns.
  virtual std::vector<std::string> labels() const = 0;
  /// The venv of column `index`, installed first unless it is complete; an
  /// error says why it could not be.
  virtual Result<std::string> ensure(size_t index) = 0;
  /// The environment variable a replay reads the venv from, and its value.
  virtual std::string variable() const = 0;
  virtual std::string valueFor(const std::string &venv) const = 0;
};

/// The cache folder under the user's cache ($XDG_CACHE_HOME/sift/SUB or
/// ~/.cache/sift/SUB).
std::string defaultBisectCache(const std::string &sub);

/// Runs a shell command line (its output to this process's stderr); its
/// exit status, -1 when it did not run.
int bisectShell(const std::string &command);

/// Writes `text` to `path` (atomically).
Status writeBisectText(const std::string &path, const std::string &text);

/// Bisects `folders` (readable cases of the system `versions` walks) over
/// every version: the exit status of `harness bisect`.
int runBisectColumns(BisectVersions &versions,
                     std::vector<std::filesystem::path> folders,
                     const BisectOptions &options);

/// Bisects the case folders of the system `systemFile` describes (a
/// system file with an [install] table, else exit 2).
int runSystemBisect(const std::string &systemFile,
                    const std::vector<std::filesystem::path> &folders,
                    const BisectOptions &options);

} // namespace sift::harness
