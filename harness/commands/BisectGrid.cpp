//===- harness/commands/BisectGrid.cpp - `harness bisect`'s common half ---===//
//
// The grid of a bisect, whatever system it walks (BisectGrid.h): one
// column per version, replayed in order, then printed, and written as
// Markdown and JSON. Outcomes: "fails" (as recorded: verdict and
// signature), "passes", "other VERDICT" (another finding), "error", "not
// installed".
//
//===----------------------------------------------------------------------===//

#include "harness/commands/BisectGrid.h"

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/store/KnownCauses.h"

#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace sift::harness {

std::string defaultBisectCache(const std::string &sub) {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "sift" / sub).string();
  if (const char *home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "sift" / sub).string();
  return (fs::temp_directory_path() / ("sift-" + sub)).string();
}

int bisectShell(const std::string &command) {
  std::fflush(stdout);
  int status = std::system(command.c_str());
  return status == -1 ? -1 : WEXITSTATUS(status);
}

Status writeBisectText(const std::string &path, const std::string &text) {
  return writeFileAtomic(path, reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

namespace {

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
                      const std::vector<std::string> &releases) {
  int firstFail = -1;
  for (size_t i = 0; i < outcomes.size(); ++i)
    if (outcomes[i] == "fails") {
      firstFail = static_cast<int>(i);
      break;
    }
  if (firstFail < 0)
    return outcomes.back() == "passes"
               ? "passes in " + releases.back() +
                     " and never fails as recorded in the range"
               : "never fails as recorded in the range";
  std::string text = "first fails in " + releases[firstFail];
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
            releases[firstFail - 1] + ": " + outcomes[firstFail - 1] + ")";
  else
    text += ", last passed in " + std::string(releases[lastPass]);
  for (size_t i = firstFail + 1; i < outcomes.size(); ++i)
    if (outcomes[i] == "passes") {
      text += "; passes again from " + releases[i];
      break;
    }
  return text;
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

/// Each case's outcome per version, and the first line of what was seen
/// where it was not the recorded finding.
struct Grid {
  std::vector<std::string> labels;
  std::vector<std::vector<std::string>> outcomes, details;
};

/// Sets an environment variable for a scope, then puts back what was there.
class ScopedVariable {
public:
  ScopedVariable(std::string name, const std::string &value)
      : name_(std::move(name)) {
    if (const char *old = std::getenv(name_.c_str()))
      old_ = old;
    ::setenv(name_.c_str(), value.c_str(), 1);
  }
  ~ScopedVariable() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }

private:
  std::string name_;
  std::optional<std::string> old_;
};

/// Replays `paths` with version `index` (made ready first) into the next
/// column of `grid`.
void replayColumn(BisectVersions &versions, size_t index,
                  const std::vector<std::string> &paths,
                  const ReplayOptions &replay, Grid &grid) {
  Result<std::string> venv = versions.ensure(index);
  if (!venv.ok()) {
    std::fprintf(stderr, "harness bisect: %s\n", venv.message().c_str());
    for (size_t c = 0; c < paths.size(); ++c) {
      grid.outcomes[c].push_back("not installed");
      grid.details[c].push_back(venv.message());
    }
    return;
  }
  Result<std::vector<ReplayRecord>> records = [&] {
    ScopedVariable set(versions.variable(), versions.valueFor(*venv));
    return replayCaseFolders(paths, replay);
  }();
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
Status reportGrid(const std::vector<fs::path> &folders, const Grid &grid,
                  const std::string &table, const std::string &json) {
  const std::vector<std::string> &labels = grid.labels;
  std::string md = "| case |";
  for (const std::string &label : labels)
    md += " " + label + " |";
  md += " verdict |\n| --- |";
  for (size_t i = 0; i <= labels.size(); ++i)
    md += " --- |";
  md += "\n";
  nlohmann::json rows = nlohmann::json::array();
  std::printf("\n");
  for (size_t c = 0; c < folders.size(); ++c) {
    const std::vector<std::string> &outcomes = grid.outcomes[c];
    std::string name = folders[c].filename().string();
    std::string summary = summaryOf(outcomes, labels);
    std::printf("%s: %s\n  ", name.c_str(), summary.c_str());
    md += "| " + name + " |";
    nlohmann::json row = {{"case", name}, {"summary", summary}};
    for (size_t r = 0; r < labels.size(); ++r) {
      std::printf("%s %s%s", labels[r].c_str(), outcomes[r].c_str(),
                  r + 1 < labels.size() ? ", " : "\n");
      md += " " + outcomes[r] + " |";
      row["outcomes"][labels[r]] = outcomes[r];
      if (outcomes[r] != "fails" && !grid.details[c][r].empty())
        row["details"][labels[r]] = grid.details[c][r];
    }
    md += " " + summary + " |\n";
    rows.push_back(row);
  }
  if (!table.empty())
    if (Status s = writeBisectText(table, md); !s.ok())
      return s;
  if (!json.empty())
    if (Status s = writeBisectText(json, rows.dump(1) + "\n"); !s.ok())
      return s;
  return Status::success();
}

int fail(const std::string &message) {
  std::fprintf(stderr, "harness bisect: %s\n", message.c_str());
  return kExitUsage;
}

/// `folders` without the cases whose root cause shows only on a GPU run:
/// bisect's replays are static or on the host, where such a case would
/// pass in every version.
std::vector<fs::path> withoutDeviceOnly(const std::vector<fs::path> &folders) {
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
  return kept;
}

} // namespace

int runBisectColumns(BisectVersions &versions, std::vector<fs::path> folders,
                     const BisectOptions &options) {
  folders = withoutDeviceOnly(folders);
  if (folders.empty())
    return fail("no case left to bisect: each shows only on a GPU run");
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
  grid.labels = versions.labels();
  grid.outcomes.resize(folders.size());
  grid.details.resize(folders.size());
  ReplayOptions replay;
  replay.caseTimeoutSeconds = options.caseTimeoutSeconds;
  for (size_t r = 0; paths.ok() && r < grid.labels.size(); ++r) {
    std::printf("bisect: [%zu/%zu] %s %s\n", r + 1, grid.labels.size(),
                versions.system().c_str(), grid.labels[r].c_str());
    std::fflush(stdout);
    replayColumn(versions, r, *paths, replay, grid);
  }
  std::error_code removed;
  fs::remove_all(work, removed);
  if (!paths.ok())
    return fail(paths.message());
  if (Status s = reportGrid(folders, grid, options.table, options.json);
      !s.ok())
    return fail(s.message());
  return kExitOk;
}

} // namespace sift::harness
