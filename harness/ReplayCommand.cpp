//===- ReplayCommand.cpp - `harness replay`: the corpus as a test suite ---===//
//
// Every case folder under the given folders (corpus/, or a campaign's
// cases/) is compiled and run again from its stored program model and
// inputs, in an isolated child, and its verdict compared with the one it
// records (corpus/FORMAT.md). A changed verdict fails the replay; an
// unreadable case is an error naming the folder and what is wrong.
//
//===----------------------------------------------------------------------===//

#include "harness/Commands.h"

#include "harness/CaseRunner.h"
#include "harness/Isolation.h"
#include "harness/ProgramJson.h"
#include "harness/Session.h"
#include "runtime/support/FileIO.h"
#include "runtime/support/Npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sift::harness {

namespace {

/// One stored case, ready to run.
struct StoredCase {
  std::string folder;
  uint64_t seed = 0;
  oracle::Verdict expected = oracle::Verdict::Pass;
  CaseOptions options;
  gen::Program program;
  std::vector<HostTensor> inputs;
  /// The case's own time limit ("timeout_seconds"), if it has one.
  std::optional<double> timeoutSeconds;
};

Result<StoredCase> loadCase(const fs::path &folder) {
  StoredCase stored;
  stored.folder = folder.string();
  std::ifstream in(folder / "case.json");
  if (!in)
    return makeError("cannot read case.json");
  json info;
  try {
    info = json::parse(in);
    if (info.value("format", 0) != 1)
      return makeError("case.json has no \"format\": 1 (a case folder "
                       "written before the corpus format?)");
    stored.seed = info.at("seed").get<uint64_t>();
    std::string verdict = info.at("verdict").get<std::string>();
    std::optional<oracle::Verdict> parsed = oracle::parseVerdict(verdict);
    if (!parsed)
      return makeError("unknown verdict '" + verdict + "'");
    stored.expected = *parsed;
    std::string pipeline = info.at("pipeline").get<std::string>();
    std::string target = info.at("target").get<std::string>();
    std::optional<PipelineKind> kind = parsePipelineKind(pipeline);
    std::optional<TargetKind> targetKind = parseTargetKind(target);
    if (!kind || !targetKind)
      return makeError("unknown pipeline '" + pipeline + "' or target '" +
                       target + "'");
    stored.options.pipeline = *kind;
    stored.options.target = *targetKind;
    stored.options.chip = info.value("chip", std::string());
    stored.options.randomConfig = info.value("random_config", false);
    if (info.contains("timeout_seconds"))
      stored.timeoutSeconds = info.at("timeout_seconds").get<double>();
    std::optional<gen::InputMode> mode =
        gen::parseInputMode(info.value("inputs", std::string("mixed")));
    stored.options.inputs = mode.value_or(gen::InputMode::Mixed);
    for (const json &name : info.value("faults", json::array())) {
      std::optional<Fault> fault = parseFault(name.get<std::string>());
      if (!fault)
        return makeError("unknown fault " + name.dump());
      stored.options.faults.insert(*fault);
    }
    Result<gen::Program> program = programFromJson(info.at("program"));
    if (!program.ok())
      return makeError("case.json: " + program.message());
    stored.program = std::move(*program);
  } catch (const json::exception &e) {
    return makeError(std::string("case.json: ") + e.what());
  }
  for (size_t i = 0; i < stored.program.inputs.size(); ++i) {
    fs::path file = folder / ("input" + std::to_string(i) + ".npy");
    Result<HostTensor> tensor = readNpy(file.string());
    if (!tensor.ok())
      return makeError(tensor.message());
    stored.inputs.push_back(std::move(*tensor));
  }
  return stored;
}

/// Case folders: the given folders that hold case.json, and their
/// subfolders that do, in name order.
std::vector<fs::path> caseFolders(const std::vector<std::string> &roots,
                                  std::vector<std::string> &errors) {
  std::vector<fs::path> folders;
  for (const std::string &root : roots) {
    std::error_code ec;
    if (fs::exists(fs::path(root) / "case.json", ec)) {
      folders.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      errors.push_back(root + ": no such folder");
      continue;
    }
    std::vector<fs::path> found;
    for (const fs::directory_entry &entry : fs::directory_iterator(root, ec))
      if (entry.is_directory() && fs::exists(entry.path() / "case.json"))
        found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    if (found.empty())
      errors.push_back(root + ": no case folders (with case.json) in it");
    folders.insert(folders.end(), found.begin(), found.end());
  }
  return folders;
}

} // namespace

int runReplayCommand(const ReplayOptions &options) {
  std::vector<std::string> errors;
  std::vector<fs::path> folders = caseFolders(options.folders, errors);
  for (const std::string &error : errors)
    std::fprintf(stderr, "harness replay: %s\n", error.c_str());
  if (folders.empty())
    return kExitUsage;
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    std::fprintf(stderr, "harness replay: %s\n", device.message().c_str());
    return kExitUsage;
  }
  Session session;
  IsolationLimits limits;
  limits.timeoutSeconds = options.caseTimeoutSeconds;
  int unchanged = 0, changed = 0, unreadable = 0;
  auto start = std::chrono::steady_clock::now();
  for (const fs::path &folder : folders) {
    Result<StoredCase> stored = loadCase(folder);
    if (!stored.ok()) {
      ++unreadable;
      std::fprintf(stderr, "harness replay: %s: %s\n", folder.c_str(),
                   stored.message().c_str());
      continue;
    }
    IsolationLimits caseLimits = limits;
    if (stored->timeoutSeconds)
      caseLimits.timeoutSeconds =
          std::min(caseLimits.timeoutSeconds, *stored->timeoutSeconds);
    IsolatedOutcome outcome = runIsolated(
        [&](const std::function<void(const char *)> &phase) {
          CaseOptions caseOptions = stored->options;
          caseOptions.onPhase = phase;
          return runProgramCase(session, **device, caseOptions,
                                stored->program, stored->inputs,
                                stored->seed);
        },
        nullptr, caseLimits);
    oracle::Verdict verdict = outcome.verdict;
    std::string stage = outcome.stage, detail = outcome.detail;
    if (!outcome.reported)
      describeUnreported(outcome, verdict, stage, detail);
    bool same = verdict == stored->expected;
    (same ? unchanged : changed)++;
    std::printf("%s %s: %s%s\n", same ? "unchanged" : "CHANGED",
                folder.filename().c_str(),
                std::string(oracle::toString(verdict)).c_str(),
                same ? ""
                     : (" (recorded " +
                        std::string(oracle::toString(stored->expected)) +
                        "): " + detail.substr(0, detail.find('\n')))
                           .c_str());
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::printf("replayed %zu cases in %.1f s: %d unchanged, %d changed, %d "
              "unreadable\n",
              folders.size(), seconds, unchanged, changed, unreadable);
  if (unreadable > 0 || !errors.empty())
    return kExitUsage;
  return changed > 0 ? kExitFindings : kExitOk;
}

} // namespace sift::harness
