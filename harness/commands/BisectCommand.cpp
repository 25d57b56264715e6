//===- BisectCommand.cpp - `harness bisect`: IREE releases against cases --===//
//
// Replays IREE case folders against a range of IREE releases: each release
// (its compiler and runtime wheels, and the ONNX package its importer
// needs) is installed from the Python package index into its own venv under
// a cache folder on first use, one at a time, then every case is replayed
// with SIFT_IREE_DIR pointing at it. Per case it prints a row of outcomes,
// the first release where it fails as recorded and the last before that
// where it passed (or that it fails in every release, or passes in the
// newest). --table writes the grid as Markdown and --json as JSON.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseFolder.h"
#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/store/KnownCauses.h"

#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/wait.h>

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

std::string defaultCache() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "sift" / "iree").string();
  if (const char *home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "sift" / "iree").string();
  return (fs::temp_directory_path() / "sift-iree-releases").string();
}

/// Runs a shell command (its output to this process's stderr); its status.
int shell(const std::string &command) {
  int status = std::system(command.c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

Status writeText(const std::string &path, const std::string &text) {
  return writeFileAtomic(path, reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

std::string quoted(const std::string &text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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
  std::string pip = quoted((venv / "bin" / "pip").string());
  std::string command =
      "python3 -m venv " + quoted(venv.string()) + " >&2 && " + pip +
      " install -q --disable-pip-version-check iree-base-compiler==" +
      release.compiler + " iree-base-runtime==" + release.runtime + " " +
      kOnnxPackage + " >&2";
  if (shell(command) != 0) {
    fs::remove_all(venv, ec);
    return makeError("could not install IREE " + std::string(release.compiler) +
                     " into " + venv.string() + " (pip failed; see above)");
  }
  if (Status s = writeText(done.string(), "ok\n"); !s.ok())
    return s.error();
  return venv.string();
}

/// One case's outcome on one release: "fails" (as recorded: verdict and
/// signature), "passes", "other VERDICT" (another finding), "error".
std::string outcomeOf(const ReplayRecord &r) {
  if (!r.error.empty())
    return "error";
  if (r.observed == "pass" && r.recorded != "pass")
    return "passes";
  if (r.failure.empty() && r.fixedUpstream.empty())
    return "fails";
  return "other " + r.observed;
}

/// The verdict line of one case over the releases.
std::string summaryOf(const std::vector<std::string> &outcomes,
                      const std::vector<IreeRelease> &releases) {
  int firstFail = -1;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i] == "fails") {
      firstFail = static_cast<int>(i);
      break;
    }
  if (firstFail < 0)
    return outcomes.back() == "passes"
               ? "passes in " + std::string(releases.back().compiler) +
                     " and never fails as recorded in the range"
               : "never fails as recorded in the range";
  std::string text =
      "first fails in " + std::string(releases[firstFail].compiler);
  int lastPass = -1;
  for (int i = firstFail - 1; i >= 0; --i)
    if (outcomes[i] == "passes") {
      lastPass = i;
      break;
    }
  if (firstFail == 0)
    text += " (the range's first release)";
  else if (lastPass < 0)
    text += "; no earlier release in the range passes it (" +
            std::string(releases[firstFail - 1].compiler) + ": " +
            outcomes[firstFail - 1] + ")";
  else
    text += ", last passed in " + std::string(releases[lastPass].compiler);
  for (size_t i = firstFail + 1; i < outcomes.size(); ++i)
    if (outcomes[i] == "passes") {
      text += "; passes again from " + std::string(releases[i].compiler);
      break;
    }
  return text;
}

struct BisectOptions {
  std::vector<std::string> cases;
  std::string range = "3.0.0..3.13.0";
  std::string cache;
  std::string table, json;
  std::optional<double> caseTimeoutSeconds;
};

/// Why `folders` cannot be bisected (unreadable, or not IREE's); "".
std::string caseProblem(const std::vector<fs::path> &folders) {
  for (const fs::path &folder : folders) {
    Result<StoredCase> stored = loadCaseFolder(folder);
    if (!stored.ok())
      return folder.string() + ": " + stored.message();
    if (systemOf(stored->options.pipeline) != SystemKind::Iree)
      return folder.string() + ": a " +
             std::string(toString(stored->options.pipeline)) +
             " case; bisect replays IREE's cases (iree, iree-tileandfuse, "
             "iree-distribute)";
  }
  return "";
}

/// Copies of `folders` under `work` without their recorded chip: a GPU case
/// compiles for the first chip each release accepts (IreeChips.h; IREE
/// 3.11 does not know sm_89, which 3.13 cases record).
Result<std::vector<std::string>>
copiesWithoutChips(const std::vector<fs::path> &folders,
                   const std::string &work) {
  std::vector<std::string> paths;
  for (const fs::path &folder : folders) {
    fs::path copy = fs::path(work) / folder.filename();
    std::error_code ec;
    fs::copy(folder, copy, fs::copy_options::recursive, ec);
    nlohmann::json info;
    if (!ec) {
      std::ifstream in(copy / "case.json");
      info = nlohmann::json::parse(in, nullptr, false);
    }
    if (ec || info.is_discarded())
      return makeError(folder.string() + ": cannot copy the case: " +
                       (ec ? ec.message() : std::string("bad JSON")));
    info["chip"] = "";
    std::ofstream(copy / "case.json") << info.dump(2) << "\n";
    paths.push_back(copy.string());
  }
  return paths;
}

/// Each case's outcome per release, and the first line of what was seen
/// where it was not the recorded finding.
struct Grid {
  std::vector<std::vector<std::string>> outcomes, details;
};

/// Replays `paths` with `release` (installed under `cache` first) into
/// the next column of `grid`.
void replayRelease(const std::string &cache, const IreeRelease &release,
                   const std::vector<std::string> &paths,
                   const ReplayOptions &replay, Grid &grid) {
  Result<std::string> venv = ensureRelease(cache, release);
  if (!venv.ok()) {
    std::fprintf(stderr, "harness bisect: %s\n", venv.message().c_str());
    for (size_t c = 0; c < paths.size(); ++c) {
      grid.outcomes[c].push_back("not installed");
      grid.details[c].push_back(venv.message());
    }
    return;
  }
  ::setenv("SIFT_IREE_DIR", venv->c_str(), 1);
  Result<std::vector<ReplayRecord>> records = replayCaseFolders(paths, replay);
  ::unsetenv("SIFT_IREE_DIR");
  for (size_t c = 0; c < paths.size(); ++c) {
    const ReplayRecord *record = records.ok() ? &(*records)[c] : nullptr;
    grid.outcomes[c].push_back(record ? outcomeOf(*record) : "error");
    std::string seen = !record                  ? records.message()
                       : !record->error.empty() ? record->error
                                                : record->body;
    grid.details[c].push_back(seen.substr(0, seen.find('\n')));
  }
}

/// Prints the grid, and writes it as Markdown to `table` and as JSON to
/// `json` (each when given).
Status reportGrid(const std::vector<fs::path> &folders,
                  const std::vector<IreeRelease> &releases, const Grid &grid,
                  const std::string &table, const std::string &json) {
  std::string md = "| case |";
  for (const IreeRelease &r : releases)
    md += std::string(" ") + r.compiler + " |";
  md += " verdict |\n| --- |";
  for (size_t i = 0; i <= releases.size(); ++i)
    md += " --- |";
  md += "\n";
  nlohmann::json rows = nlohmann::json::array();
  std::printf("\n");
  for (size_t c = 0; c < folders.size(); ++c) {
    const std::vector<std::string> &outcomes = grid.outcomes[c];
    std::string name = folders[c].filename().string();
    std::string summary = summaryOf(outcomes, releases);
    std::printf("%s: %s\n  ", name.c_str(), summary.c_str());
    md += "| " + name + " |";
    nlohmann::json row = {{"case", name}, {"summary", summary}};
    for (size_t r = 0; r < releases.size(); ++r) {
      std::printf("%s %s%s", releases[r].compiler, outcomes[r].c_str(),
                  r + 1 < releases.size() ? ", " : "\n");
      md += " " + outcomes[r] + " |";
      row["outcomes"][releases[r].compiler] = outcomes[r];
      if (outcomes[r] != "fails" && !grid.details[c][r].empty())
        row["details"][releases[r].compiler] = grid.details[c][r];
    }
    md += " " + summary + " |\n";
    rows.push_back(row);
  }
  if (!table.empty())
    if (Status s = writeText(table, md); !s.ok())
      return s;
  if (!json.empty())
    if (Status s = writeText(json, rows.dump(1) + "\n"); !s.ok())
      return s;
  return Status::success();
}

int runBisect(const BisectOptions &options) {
  auto fail = [](const std::string &message) {
    std::fprintf(stderr, "harness bisect: %s\n", message.c_str());
    return kExitUsage;
  };
  std::vector<IreeRelease> releases = releasesOf(options.range);
  std::vector<std::string> errors;
  std::vector<fs::path> folders = findCaseFolders(options.cases, errors);
  for (const std::string &error : errors)
    fail(error);
  if (folders.empty() || !errors.empty())
    return kExitUsage;
  if (std::string why = caseProblem(folders); !why.empty())
    return fail(why);
  // A root cause that shows only on a GPU run: bisect's replays are static
  // or on the host, where such a case would pass in every release.
  std::vector<fs::path> kept;
  for (const fs::path &folder : folders) {
    std::optional<KnownCauses::Cause> known =
        knownCauseOfFolder(folder, "harness bisect");
    if (known && !known->needsDevice.empty())
      std::printf("left out %s: %s shows only on a %s run, which bisect "
                  "cannot make\n",
                  folder.filename().c_str(), known->id.c_str(),
                  known->needsDevice.c_str());
    else
      kept.push_back(folder);
  }
  std::fflush(stdout);
  if (kept.empty())
    return fail("no case left to bisect: each shows only on a GPU run");
  folders = std::move(kept);
  for (const std::string &file : {options.table, options.json})
    if (!file.empty())
      if (std::string why = unwritableReason(file); !why.empty())
        return fail(file + ": " + why);
  std::string work =
      (fs::temp_directory_path() / "sift-bisect-XXXXXX").string();
  if (!mkdtemp(work.data()))
    return fail("cannot make a work folder in " +
                fs::temp_directory_path().string());
  Result<std::vector<std::string>> paths = copiesWithoutChips(folders, work);
  Grid grid;
  grid.outcomes.resize(folders.size());
  grid.details.resize(folders.size());
  std::string cache = options.cache.empty() ? defaultCache() : options.cache;
  ReplayOptions replay;
  replay.caseTimeoutSeconds = options.caseTimeoutSeconds;
  for (size_t r = 0; paths.ok() && r < releases.size(); ++r) {
    std::printf("bisect: [%zu/%zu] IREE %s\n", r + 1, releases.size(),
                releases[r].compiler);
    std::fflush(stdout);
    replayRelease(cache, releases[r], *paths, replay, grid);
  }
  std::error_code removed;
  fs::remove_all(work, removed);
  if (!paths.ok())
    return fail(paths.message());
  if (Status s =
          reportGrid(folders, releases, grid, options.table, options.json);
      !s.ok())
    return fail(s.message());
  return kExitOk;
}

} // namespace

CommandEntry addBisectCommand(CLI::App &app) {
  auto options = std::make_shared<BisectOptions>();
  auto timeout = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "bisect", "Replay IREE case folders against a range of IREE releases "
                "(each installed from the Python package index into its own "
                "cached venv on first use) and print where each starts to "
                "fail");
  cmd->add_option("cases", options->cases,
                  "IREE case folders or folders of them (corpus/iree)")
      ->required();
  cmd->add_option("--iree", options->range,
                  "Releases FROM..TO (default 3.0.0..3.13.0); releases: " +
                      releaseList());
  cmd->add_option("--cache", options->cache,
                  "Where the releases' venvs live (default "
                  "$XDG_CACHE_HOME/sift/iree or ~/.cache/sift/iree)");
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
