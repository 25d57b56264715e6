//===- BisectCommand.cpp - `harness bisect`: releases against cases -------===//
//
// Replays case folders against a range of a system's versions and prints
// where each case starts to fail (BisectGrid.h does the walking and the
// printing). IREE's cases walk IREE's releases: each release (its compiler
// and runtime wheels, and the ONNX package its importer needs) is
// installed from the Python package index into its own venv under a cache
// folder on first use, and every case is replayed with SIFT_IREE_DIR
// pointing at it. The cases of a system described by a file walk the
// versions its [install] table lists (BisectSystem.cpp).
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseFolder.h"
#include "harness/commands/BisectGrid.h"
#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/sut/Systems.h"

#include "support/Command.h"

#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// IREE's releases on the Python package index, oldest first: the compiler
/// wheel's version and the runtime's (3.7.1 was a compiler-only fix).
struct IreeRelease {
  const char *compiler;
  const char *runtime;
};
constexpr IreeRelease kReleases[] = {
    {"3.0.0", "3.0.0"},   {"3.1.0", "3.1.0"},   {"3.2.0", "3.2.0"},
    {"3.3.0", "3.3.0"},   {"3.4.0", "3.4.0"},   {"3.5.0", "3.5.0"},
    {"3.6.0", "3.6.0"},   {"3.7.1", "3.7.0"},   {"3.8.0", "3.8.0"},
    {"3.9.0", "3.9.0"},   {"3.10.0", "3.10.0"}, {"3.11.0", "3.11.0"},
    {"3.12.0", "3.12.0"}, {"3.13.0", "3.13.0"}};

/// The releases walked without --iree.
constexpr const char *kDefaultRange = "3.0.0..3.13.0";

/// The ONNX package every release's importer is given (the pinned one).
constexpr const char *kOnnxPackage = "onnx==1.17.0";

std::string releaseList() {
  std::string text;
  for (const IreeRelease &r : kReleases)
    text += (text.empty() ? "" : ", ") + std::string(r.compiler);
  return text;
}

int releaseIndex(const std::string &version) {
  for (size_t i = 0; i < std::size(kReleases); ++i)
    if (version == kReleases[i].compiler)
      return static_cast<int>(i);
  return -1;
}

/// The releases of "FROM..TO" (both among kReleases, FROM not after TO).
std::vector<IreeRelease> releasesOf(const std::string &range) {
  size_t dots = range.find("..");
  if (dots == std::string::npos)
    throw UsageError{"--iree=" + range +
                     ": expected FROM..TO, e.g. 3.0.0..3.13.0"};
  int from = releaseIndex(range.substr(0, dots));
  int to = releaseIndex(range.substr(dots + 2));
  if (from < 0 || to < 0)
    throw UsageError{"--iree=" + range + ": releases are " + releaseList()};
  if (from > to)
    throw UsageError{"--iree=" + range + ": " + range.substr(0, dots) +
                     " comes after " + range.substr(dots + 2)};
  return std::vector<IreeRelease>(kReleases + from, kReleases + to + 1);
}

/// The venv of `release` under `cache`, installed unless it is complete
/// (a marker written after pip succeeded); an error says why not.
Result<std::string> ensureRelease(const std::string &cache,
                                  const IreeRelease &release) {
  fs::path venv = fs::path(cache) / ("iree-" + std::string(release.compiler));
  fs::path done = venv / "sift-installed";
  if (fs::exists(done))
    return venv.string();
  std::error_code ec;
  fs::remove_all(venv, ec); // a half-made venv from a stopped install
  fs::create_directories(cache, ec);
  if (ec)
    return makeError("cannot create the cache " + cache + ": " + ec.message());
  std::printf("bisect: installing IREE %s into %s\n", release.compiler,
              venv.c_str());
  std::fflush(stdout);
  std::string pip = shellLine({(venv / "bin" / "pip").string()});
  std::string command =
      "python3 -m venv " + shellLine({venv.string()}) + " >&2 && " + pip +
      " install -q --disable-pip-version-check iree-base-compiler==" +
      release.compiler + " iree-base-runtime==" + release.runtime + " " +
      kOnnxPackage + " >&2";
  if (bisectShell(command) != 0) {
    fs::remove_all(venv, ec);
    return makeError("could not install IREE " + std::string(release.compiler) +
                     " into " + venv.string() + " (pip failed; see above)");
  }
  if (Status s = writeBisectText(done.string(), "ok\n"); !s.ok())
    return s.error();
  return venv.string();
}

/// IREE's releases walked as a bisect's columns.
class IreeVersions final : public BisectVersions {
public:
  IreeVersions(std::vector<IreeRelease> releases, std::string cache)
      : releases_(std::move(releases)), cache_(std::move(cache)) {}
  std::string system() const override { return "IREE"; }
  std::vector<std::string> labels() const override {
    std::vector<std::string> labels;
    for (const IreeRelease &r : releases_)
      labels.push_back(r.compiler);
    return labels;
  }
  Result<std::string> ensure(size_t index) override {
    return ensureRelease(cache_, releases_[index]);
  }
  std::string variable() const override { return "SIFT_IREE_DIR"; }
  std::string valueFor(const std::string &venv) const override { return venv; }

private:
  std::vector<IreeRelease> releases_;
  std::string cache_;
};

int fail(const std::string &message) {
  std::fprintf(stderr, "harness bisect: %s\n", message.c_str());
  return kExitUsage;
}

/// What the cases are: IREE's, or one system file's (`systemFile`, its
/// path); an error says why they cannot be bisected together.
struct CaseKind {
  bool iree = false;
  std::string systemFile;
};

/// The system file of a file system's case: the one its folder records,
/// else the one with its pipeline among the shipped ones.
Result<std::string> systemFileOf(Systems &systems, const StoredCase &stored) {
  if (!stored.options.systemFile.empty())
    if (Status added = systems.addFile(stored.options.systemFile); !added.ok())
      return makeError("case.json's system_file: " + added.message());
  Result<const SystemFile *> file =
      systems.fileWithPipeline(stored.options.filePipeline);
  if (!file.ok())
    return file.error();
  if (!*file)
    return makeError("no system file has the pipeline '" +
                     stored.options.filePipeline + "'");
  return (*file)->path;
}

Result<CaseKind> caseKindOf(const std::vector<fs::path> &folders) {
  CaseKind kind;
  Systems systems;
  std::string firstSystem;
  for (const fs::path &folder : folders) {
    Result<StoredCase> stored = loadCaseFolder(folder);
    if (!stored.ok())
      return makeError(folder.string() + ": " + stored.message());
    SystemKind system = systemOf(stored->options.pipeline);
    std::string name = system == SystemKind::Iree ? "IREE"
                       : system == SystemKind::File
                           ? stored->options.filePipeline
                           : "";
    if (system == SystemKind::Sift)
      return makeError(folder.string() + ": a " +
                       std::string(toString(stored->options.pipeline)) +
                       " case; bisect replays IREE's cases (iree, "
                       "iree-tileandfuse, iree-distribute) and those of "
                       "systems described by files");
    if (system == SystemKind::File) {
      Result<std::string> file = systemFileOf(systems, *stored);
      if (!file.ok())
        return makeError(folder.string() + ": " + file.message());
      name = *file;
      kind.systemFile = *file;
    }
    kind.iree |= system == SystemKind::Iree;
    if (firstSystem.empty())
      firstSystem = name;
    else if (name != firstSystem)
      return makeError(folder.string() + ": a case of " + name +
                       ", the first of " + firstSystem +
                       "; bisect walks one system's versions at a time");
  }
  return kind;
}

int runBisect(const BisectOptions &options) {
  std::vector<std::string> errors;
  std::vector<fs::path> folders = findCaseFolders(options.cases, errors);
  for (const std::string &error : errors)
    fail(error);
  if (folders.empty() || !errors.empty())
    return kExitUsage;
  Result<CaseKind> kind = caseKindOf(folders);
  if (!kind.ok())
    return fail(kind.message());
  if (!kind->iree) {
    if (!options.ireeRange.empty())
      return fail("--iree chooses IREE's releases; these are cases of " +
                  kind->systemFile + " (--versions=FROM..TO)");
    return runSystemBisect(kind->systemFile, folders, options);
  }
  if (!options.versionRange.empty())
    return fail("--versions is for the cases of a system file; IREE's "
                "releases are chosen with --iree=FROM..TO");
  IreeVersions versions(
      releasesOf(options.ireeRange.empty() ? kDefaultRange : options.ireeRange),
      options.cache.empty() ? defaultBisectCache("iree") : options.cache);
  return runBisectColumns(versions, folders, options);
}

} // namespace

CommandEntry addBisectCommand(CLI::App &app) {
  auto options = std::make_shared<BisectOptions>();
  auto timeout = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "bisect", "Replay IREE case folders against a range of IREE releases "
                "(each installed from the Python package index into its own "
                "cached venv on first use), or a system file's cases against "
                "the versions its [install] table lists, and print where "
                "each starts to fail");
  cmd->add_option("cases", options->cases,
                  "Case folders of IREE or of one system file, or folders of "
                  "them (corpus/iree)")
      ->required();
  cmd->add_option("--iree", options->ireeRange,
                  std::string("IREE's releases FROM..TO (default ") +
                      kDefaultRange + "); releases: " + releaseList());
  cmd->add_option("--versions", options->versionRange,
                  "A system file's versions FROM..TO (default: all its "
                  "[install] versions)");
  cmd->add_option("--cache", options->cache,
                  "Where the versions' venvs live (default "
                  "$XDG_CACHE_HOME/sift/iree or ~/.cache/sift/iree for IREE, "
                  "$XDG_CACHE_HOME/sift/SYSTEM or ~/.cache/sift/SYSTEM for a "
                  "system file's; a system file's under DIR/SYSTEM)");
  cmd->add_option("--table", options->table,
                  "Also write the grid of outcomes as a Markdown table here");
  cmd->add_option("--json", options->json,
                  "Also write the outcomes as JSON here");
  cmd->add_option("--case-timeout", *timeout,
                  "Time limit of one case (default 20 s)");
  return {cmd, [options, timeout] {
            if (!timeout->empty())
              options->caseTimeoutSeconds =
                  durationFlag("--case-timeout", *timeout);
            return runBisect(*options);
          }};
}

} // namespace sift::harness
