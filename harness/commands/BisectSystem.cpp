//===- BisectSystem.cpp - `harness bisect` over a system file's versions --===//
//
// The cases of a system described by a file walk the versions its
// [install] table lists (docs/systems.md): each version gets a venv at
// CACHE/<system>/<version>/, made with `python3 -m venv` on first use, and
// the table's command is run with "{python}" naming that venv's Python;
// a stamp file written after it succeeded marks the venv complete, so the
// next bisect reuses it (a venv without one is made afresh). Every case is
// then replayed with $SIFT_PYTHON naming that Python, so the system's
// version and run commands use the version installed there.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/BisectGrid.h"

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/sut/file/SystemFile.h"

#include "support/Command.h"

#include <algorithm>
#include <cstdio>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// The versions of "FROM..TO" among `all` (FROM not after TO); all of
/// them for "".
std::vector<std::string> versionsOf(const std::vector<std::string> &all,
                                    const std::string &range) {
  if (range.empty())
    return all;
  size_t dots = range.find("..");
  if (dots == std::string::npos)
    throw UsageError{"--versions=" + range + ": expected FROM..TO, e.g. " +
                     all.front() + ".." + all.back()};
  auto from = std::find(all.begin(), all.end(), range.substr(0, dots));
  auto to = std::find(all.begin(), all.end(), range.substr(dots + 2));
  if (from == all.end() || to == all.end()) {
    std::string list;
    for (const std::string &version : all)
      list += (list.empty() ? "" : ", ") + version;
    throw UsageError{"--versions=" + range + ": the [install] versions are " +
                     list};
  }
  if (from > to)
    throw UsageError{"--versions=" + range + ": " + *from + " comes after " +
                     *to};
  return std::vector<std::string>(from, to + 1);
}

/// A system file's [install] versions walked as a bisect's columns.
class SystemVersions final : public BisectVersions {
public:
  SystemVersions(SystemFile file, std::vector<std::string> versions,
                 std::string root)
      : file_(std::move(file)), versions_(std::move(versions)),
        root_(std::move(root)) {}
  std::string system() const override { return file_.name; }
  std::vector<std::string> labels() const override { return versions_; }
  Result<std::string> ensure(size_t index) override;
  std::string variable() const override { return "SIFT_PYTHON"; }
  std::string valueFor(const std::string &venv) const override {
    return (fs::path(venv) / "bin" / "python").string();
  }

private:
  SystemFile file_;
  std::vector<std::string> versions_;
  /// CACHE/<system>: each version's venv is a folder in it.
  std::string root_;
};

Result<std::string> SystemVersions::ensure(size_t index) {
  const std::string &version = versions_[index];
  fs::path venv = fs::path(root_) / version;
  fs::path done = venv / "sift-installed";
  if (fs::exists(done))
    return venv.string();
  std::error_code ec;
  fs::remove_all(venv, ec); // a half-made venv from a stopped install
  fs::create_directories(root_, ec);
  if (ec)
    return makeError("cannot create the cache " + root_ + ": " + ec.message());
  std::printf("bisect: installing %s %s into %s\n", file_.name.c_str(),
              version.c_str(), venv.c_str());
  auto failed = [&](const std::string &why) {
    fs::remove_all(venv, ec);
    return makeError("could not install " + file_.name + " " + version +
                     " into " + venv.string() + ": " + why + " (see above)");
  };
  if (bisectShell("python3 -m venv " + shellLine({venv.string()}) + " >&2") !=
      0)
    return failed("python3 -m venv failed");
  CommandValues values;
  values.values = {{"python", valueFor(venv.string())},
                   {"here", file_.folder},
                   {"version", version},
                   {"venv", venv.string()}};
  std::vector<std::string> args = expandCommand(file_.install->command, values);
  if (int status = bisectShell(shellLine(args) + " >&2"); status != 0)
    return failed("the [install] command exited with " +
                  std::to_string(status));
  if (Status s = writeBisectText(done.string(), "ok\n"); !s.ok())
    return s.error();
  return venv.string();
}

} // namespace

int runSystemBisect(const std::string &systemFile,
                    const std::vector<fs::path> &folders,
                    const BisectOptions &options) {
  Result<SystemFile> file = loadSystemFile(systemFile);
  if (!file.ok()) {
    std::fprintf(stderr, "harness bisect: %s\n", file.message().c_str());
    return kExitUsage;
  }
  if (!file->install) {
    std::fprintf(stderr,
                 "harness bisect: %s has no [install] table: bisect needs "
                 "to know how to install a version\n",
                 systemFile.c_str());
    return kExitUsage;
  }
  std::vector<std::string> versions =
      versionsOf(file->install->versions, options.versionRange);
  std::string root = options.cache.empty()
                         ? defaultBisectCache(file->name)
                         : (fs::path(options.cache) / file->name).string();
  SystemVersions walked(std::move(*file), std::move(versions), root);
  return runBisectColumns(walked, folders, options);
}

} // namespace sift::harness
