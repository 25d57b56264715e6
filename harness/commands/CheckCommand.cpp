//===- CheckCommand.cpp - `harness check`: is the finding still there? ----===//
//
// Two forms. `harness check CASE` judges a case folder exactly as `harness
// replay` does (the same run, on the case's device, with the same verdict
// and signature logic): exit 1 while its finding is there, 0 once it is
// gone, 2 when the folder cannot be read or judged here; repro.sh runs
// it. `harness check PROGRAM --like=CASE` compiles an edited program with
// the case's options and static oracles (no model, so no reference): exit 1
// when it shows the case's signature, which makes it the test the IR half
// of `harness reduce` gives mlir-reduce.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"

#include "harness/case/CaseFolder.h"
#include "harness/case/IsolatedCase.h"
#include "harness/sut/Systems.h"
#include "harness/sut/sift/KeptCompile.h"
#include "generators/MlirEmitter.h"
#include "support/FileIO.h"

#include <cstdio>
#include <filesystem>
#include <memory>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// `harness check CASE`: replay's judgement of one folder, as an answer.
int checkCaseFolder(const CheckOptions &options) {
  ReplayOptions replay;
  replay.folders = {options.program};
  replay.device = options.device;
  replay.caseTimeoutSeconds = options.caseTimeoutSeconds;
  Result<std::vector<ReplayRecord>> records =
      replayCaseFolders({options.program}, replay);
  if (!records.ok() || records->size() != 1) {
    std::fprintf(stderr, "harness check: %s: %s\n", options.program.c_str(),
                 records.ok() ? "nothing to judge" : records.message().c_str());
    return kExitUsage;
  }
  const ReplayRecord &r = records->front();
  if (!r.error.empty())
    return kExitUsage; // replay printed what is wrong, naming the folder
  if (!r.needsDevice.empty()) {
    std::fprintf(stderr,
                 "harness check: %s: not judged here: %s (run it where that "
                 "device is)\n",
                 options.program.c_str(), r.needsDevice.c_str());
    return kExitUsage;
  }
  bool recordedFinding =
      r.recorded != std::string(oracle::toString(oracle::Verdict::Pass));
  if (!r.fixedUpstream.empty()) {
    std::printf("gone: %s\n", r.fixedUpstream.c_str());
    return kExitOk;
  }
  if (r.failure.empty()) {
    std::printf(recordedFinding ? "still there: %s\n"
                                : "passes, as recorded (%s)\n",
                r.observed.c_str());
    return recordedFinding ? kExitFindings : kExitOk;
  }
  bool observedFinding =
      r.observed != std::string(oracle::toString(oracle::Verdict::Pass));
  if (!recordedFinding) {
    // A case recorded as passing that fails now: a finding of its own.
    std::printf("a finding now: %s\n", r.failure.c_str());
    return kExitFindings;
  }
  std::printf("gone: %s%s\n", r.failure.c_str(),
              observedFinding ? " (the recorded finding is gone; another "
                                "one shows instead)"
                              : "");
  return kExitOk;
}

/// A program with --like that is the case's own (sift's: what its model
/// emits; another system's: its kept program file) is judged as the case
/// is, on its device; an edited one of a finding a run decided cannot be
/// (no model, no reference). The exit code then; nullopt: judge the text
/// statically.
std::optional<int> checkOwnOrEdited(const CheckOptions &options,
                                    const StoredCase &stored,
                                    const std::string &text) {
  // The case's own program (sift's: what its model emits; another
  // system's: its kept program file): judged as the case is, on its device.
  std::string kept = stored.programFile.empty() ? "program.mlir"
                                                 : stored.programFile;
  Result<std::vector<uint8_t>> own =
      readFileBytes((fs::path(options.like) / kept).string());
  bool ownProgram =
      systemOf(stored.options.pipeline) == SystemKind::Sift
          ? gen::emitMlir(stored.program) == text
          : own.ok() && std::string(own->begin(), own->end()) == text;
  // (Given configs are compiled as given: the text path.)
  if (ownProgram && options.config.empty()) {
    CheckOptions asCase = options;
    asCase.program = options.like;
    return checkCaseFolder(asCase);
  }
  // An edited program has no model, so no reference: only a verdict the
  // compile decides can show on it.
  if (oracle::isFinding(stored.expected)) {
    std::optional<Stage> decided = Stage::parse(stored.stage);
    if (decided && !decided->byCompile()) {
      std::fprintf(stderr,
                   "harness check: %s: the case's %s is decided at %s, by a "
                   "run against the reference, which an edited program has "
                   "not (no model); edit case.json's \"program\" and run "
                   "harness check %s, or reduce it with harness reduce\n",
                   options.program.c_str(),
                   std::string(oracle::toString(stored.expected)).c_str(),
                   stored.stage.c_str(), options.like.c_str());
      return kExitUsage;
    }
  }
  return std::nullopt;
}

/// `harness check PROGRAM --like=CASE`: the program compiled with the
/// case's options, judged statically.
int checkProgramLike(const CheckOptions &options) {
  Result<StoredCase> stored = loadCaseFolder(options.like);
  if (!stored.ok()) {
    std::fprintf(stderr, "harness check: --like=%s: %s\n",
                 options.like.c_str(), stored.message().c_str());
    return kExitUsage;
  }
  Result<std::vector<uint8_t>> bytes = readFileBytes(options.program);
  if (!bytes.ok()) {
    std::fprintf(stderr, "harness check: %s: cannot read the program\n",
                 options.program.c_str());
    return kExitUsage;
  }
  std::string text(bytes->begin(), bytes->end());
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "harness check: %s: the program is empty\n",
                 options.program.c_str());
    return kExitUsage;
  }
  if (std::optional<int> decided = checkOwnOrEdited(options, *stored, text))
    return *decided;
  CaseSpec spec{stored->options, stored->seed, {}, {}, text, options.program};
  if (!options.config.empty()) {
    Result<std::vector<std::string>> configs =
        readLoweringConfigs(options.config);
    if (!configs.ok()) {
      std::fprintf(stderr, "harness check: --config=%s\n",
                   configs.message().c_str());
      return kExitUsage;
    }
    spec.options.loweringConfigs = std::move(*configs);
  }
  Systems systems;
  Result<SystemUnderTest *> system = systems.forCase(stored->options);
  if (!system.ok()) {
    std::fprintf(stderr, "harness check: %s\n", system.message().c_str());
    return kExitUsage;
  }
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  IsolationLimits limits;
  limits.timeoutSeconds = systems.caseTimeoutFor(
      stored->options,
      options.caseTimeoutSeconds.value_or(stored->timeoutSeconds.value_or(20)));
  std::string startError;
  CaseResult result = device.ok() ? runCaseIsolated(**system, **device, spec,
                                                    limits, startError)
                                  : CaseResult();
  if (!device.ok() || !startError.empty()) {
    std::fprintf(stderr, "harness check: cannot start a worker: %s\n",
                 device.ok() ? startError.c_str() : device.message().c_str());
    return kExitUsage;
  }
  // A program that does not parse is bad input (never the case's
  // signature, so also "not interesting" to mlir-reduce), unless the case
  // itself is a parse finding.
  if (result.verdict == oracle::Verdict::GenInvalid &&
      result.stage.step == Step::Parse &&
      stored->expected != oracle::Verdict::GenInvalid) {
    std::fprintf(stderr, "harness check: %s: does not parse: %s\n",
                 options.program.c_str(),
                 result.detail.substr(0, result.detail.find('\n')).c_str());
    return kExitUsage;
  }
  std::string signature = findingSignature(result);
  bool same = !stored->signature.empty() && signature == stored->signature;
  std::printf("%s at %s: %s\nsignature %s (%s the case's)\n",
              std::string(oracle::toString(result.verdict)).c_str(),
              result.stage.text().c_str(),
              result.detail.substr(0, result.detail.find('\n')).c_str(),
              signature.c_str(), same ? "same as" : "differs from");
  return same ? kExitFindings : kExitOk;
}

} // namespace

int runCheckCommand(const CheckOptions &options) {
  std::error_code ec;
  bool folder = fs::is_directory(options.program, ec);
  if (folder && !options.like.empty()) {
    std::fprintf(stderr,
                 "harness check: %s is a folder: give a case folder alone "
                 "(harness check CASE), or a program with --like=CASE\n",
                 options.program.c_str());
    return kExitUsage;
  }
  if (folder && !options.config.empty()) {
    std::fprintf(stderr, "harness check: --config is for a program with "
                         "--like; a case folder is judged with its own\n");
    return kExitUsage;
  }
  if (folder)
    return checkCaseFolder(options);
  if (options.like.empty()) {
    std::fprintf(stderr,
                 "harness check: %s: %s; give a case folder (harness check "
                 "CASE), or a program with the case it is like "
                 "(harness check PROGRAM --like=CASE)\n",
                 options.program.c_str(),
                 fs::exists(options.program, ec) ? "a program needs --like"
                                                 : "no such file or folder");
    return kExitUsage;
  }
  if (options.device) {
    std::fprintf(stderr,
                 "harness check: --device is for a case folder (harness "
                 "check CASE); a program with --like is judged statically\n");
    return kExitUsage;
  }
  return checkProgramLike(options);
}

CommandEntry addCheckCommand(CLI::App &app) {
  auto options = std::make_shared<CheckOptions>();
  auto timeout = std::make_shared<std::string>();
  auto device = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "check",
      "Is a finding still there? A case folder is run again as replay runs "
      "it (on its device); a program (.mlir) with --like=CASE is compiled "
      "with the case's options and judged statically (mlir-reduce's test). "
      "Exit 1: still there; 0: gone; 2: unreadable or not judged here");
  cmd->add_option("case-or-program", options->program,
                  "A case folder (case.json), or a program (.mlir) with "
                  "--like")
      ->required();
  cmd->add_option("--like", options->like,
                  "The case folder (case.json) a program is checked against");
  cmd->add_option("--device", *device,
                  "A case folder's GPU runs: on its case.json's device by "
                  "default; cpu: statically; emu: kernels on the host")
      ->check(CLI::IsMember({"cpu", "emu"}));
  cmd->add_option("--config", options->config,
                  "A program with --like: the lowering configs its ops get "
                  "(a lowering.json, or a case.json with \"lowering\")");
  cmd->add_option("--case-timeout", *timeout,
                  "Time limit: 20, 20s, 1m (default: replay's, or the "
                  "case's own)");
  return {cmd, [options, timeout, device] {
            if (!timeout->empty())
              options->caseTimeoutSeconds =
                  durationFlag("--case-timeout", *timeout);
            if (!device->empty())
              options->device = rt::parseDeviceKind(*device);
            return runCheckCommand(*options);
          }};
}

} // namespace sift::harness
