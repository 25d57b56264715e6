//===- ReplayCommand.cpp - `harness replay`: the corpus as a test suite ---===//
//
// Every case folder under the given folders (corpus/, or a campaign's
// cases/) is compiled and run again from its stored program model and
// inputs, in an isolated child, and its verdict compared with the one it
// records (corpus/FORMAT.md). A changed verdict fails the replay; an
// unreadable case is an error naming the folder and what is wrong.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseFolder.h"
#include "harness/case/CaseRunner.h"
#include "harness/case/Isolation.h"
#include "harness/store/FindingStore.h"
#include "harness/sut/sift/SiftCompiler.h"

#include "generators/MlirEmitter.h"
#include "support/FileIO.h"
#include "oracles/Reference.h"

#include <memory>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// A verdict with the step that decided it and what went wrong.
struct Observed {
  oracle::Verdict verdict;
  std::string stage, detail;
};

/// Writes `stored`'s folder again from its model and inputs, with what the
/// replay observed: program.mlir, the reference's and the device's outputs,
/// and case.json's verdict, stage, detail and signature. Fields case.json
/// has beyond the ones the folder writer sets (a time limit, where a
/// reduced case came from) are kept.
Status rewriteCase(SystemUnderTest &system, rt::Device &device,
                   const StoredCase &stored, const IsolatedOutcome &outcome,
                   const Observed &seen) {
  CaseResult result;
  if (outcome.reported && seen.verdict != oracle::Verdict::CompileCrash) {
    // It finished in the child: run it here for the outputs.
    result = runProgramCase(system, device, stored.options, stored.program,
                            stored.inputs, stored.seed);
  } else {
    result = uncompiledCase(stored.options, stored.seed, stored.program,
                            stored.inputs);
    result.reproducer = outcome.reproducer;
    result.log = outcome.stderrTail;
  }
  result.verdict = seen.verdict;
  result.stage = seen.stage;
  result.detail = seen.detail;
  Result<std::string> done =
      writeCaseFolderAt(stored.folder, result, stored.options,
                        "harness replay " + stored.folder, stored.keptFields,
                        /*keepOtherFiles=*/true);
  return done.ok() ? Status::success() : Status(done.error());
}

/// One case folder's outcome, for the JUnit report.
struct ReplayRecord {
  std::string name;
  double seconds = 0;
  /// "" when the verdict held; else the failure's one-line message.
  std::string failure;
  /// "" when the case was read and run; else why not.
  std::string error;
  /// The detail behind a failure (the observed verdict's full text).
  std::string body;
};

/// `text` with XML's five special characters escaped and the control
/// characters XML 1.0 cannot hold replaced by '?'.
std::string xmlEscaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' &&
          c != '\r')
        out += '?';
      else
        out += c;
    }
  }
  return out;
}

/// Writes the JUnit XML report of a replay (one testsuite, "sift-corpus").
Status writeJUnit(const std::string &path,
                  const std::vector<ReplayRecord> &records, double seconds) {
  int failures = 0, errors = 0;
  for (const ReplayRecord &r : records) {
    failures += !r.failure.empty();
    errors += !r.error.empty();
  }
  char header[256];
  std::snprintf(header, sizeof header,
                "<testsuite name=\"sift-corpus\" tests=\"%zu\" "
                "failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
                records.size(), failures, errors, seconds);
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += "<testsuites>\n";
  xml += header;
  for (const ReplayRecord &r : records) {
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", r.seconds);
    xml += "  <testcase classname=\"replay\" name=\"" + xmlEscaped(r.name) +
           "\" time=\"" + time + "\"";
    if (r.failure.empty() && r.error.empty()) {
      xml += "/>\n";
      continue;
    }
    xml += ">\n";
    if (!r.error.empty())
      xml += "    <error message=\"" + xmlEscaped(r.error) + "\"/>\n";
    else
      xml += "    <failure message=\"" + xmlEscaped(r.failure) + "\">" +
             xmlEscaped(r.body) + "</failure>\n";
    xml += "  </testcase>\n";
  }
  xml += "</testsuite>\n</testsuites>\n";
  return writeFileAtomic(path, reinterpret_cast<const uint8_t *>(xml.data()),
                         xml.size());
}

} // namespace

int runReplayCommand(const ReplayOptions &options) {
  std::vector<std::string> errors;
  std::vector<fs::path> folders = findCaseFolders(options.folders, errors);
  for (const std::string &error : errors)
    std::fprintf(stderr, "harness replay: %s\n", error.c_str());
  if (folders.empty())
    return kExitUsage;
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    std::fprintf(stderr, "harness replay: %s\n", device.message().c_str());
    return kExitUsage;
  }
  SiftCompiler system;
  IsolationLimits limits;
  limits.timeoutSeconds = options.caseTimeoutSeconds;
  int unchanged = 0, changed = 0, unreadable = 0;
  std::vector<ReplayRecord> records;
  auto start = std::chrono::steady_clock::now();
  for (const fs::path &folder : folders) {
    auto caseStart = std::chrono::steady_clock::now();
    ReplayRecord &record = records.emplace_back();
    record.name = folder.filename().string();
    Result<StoredCase> stored = loadCaseFolder(folder);
    if (!stored.ok()) {
      ++unreadable;
      record.error = stored.message();
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
          return runProgramCase(system, **device, caseOptions,
                                stored->program, stored->inputs,
                                stored->seed);
        },
        nullptr, caseLimits);
    record.seconds = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - caseStart)
                         .count();
    if (!outcome.startError.empty()) {
      ++unreadable;
      record.error = "cannot start a worker: " + outcome.startError;
      std::fprintf(stderr, "harness replay: %s: cannot start a worker: %s\n",
                   folder.c_str(), outcome.startError.c_str());
      continue;
    }
    oracle::Verdict verdict = outcome.verdict;
    std::string stage = outcome.stage, detail = outcome.detail;
    if (!outcome.reported)
      describeUnreported(outcome, verdict, stage, detail);
    bool same = verdict == stored->expected;
    (same ? unchanged : changed)++;
    if (!same) {
      record.failure = "verdict changed: recorded " +
                       std::string(oracle::toString(stored->expected)) +
                       ", observed " + std::string(oracle::toString(verdict)) +
                       (stage.empty() ? "" : " at " + stage);
      record.body = detail;
    }
    if (options.rewrite) {
      if (Status s = rewriteCase(system, **device, *stored, outcome,
                                 {verdict, stage, detail});
          !s.ok()) {
        std::fprintf(stderr, "harness replay: %s: --rewrite: %s\n",
                     folder.c_str(), s.message().c_str());
        ++unreadable;
        record.error = "--rewrite: " + s.message();
      }
    }
    std::printf("%s %s: %s%s\n", same ? "unchanged" : "CHANGED",
                folder.filename().c_str(),
                std::string(oracle::toString(verdict)).c_str(),
                same ? ""
                     : (" (recorded " +
                        std::string(oracle::toString(stored->expected)) +
                        ")" +
                        (detail.empty()
                             ? std::string()
                             : ": " + detail.substr(0, detail.find('\n'))))
                           .c_str());
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::printf("replayed %zu cases in %.1f s: %d unchanged, %d changed, %d "
              "unreadable\n",
              folders.size(), seconds, unchanged, changed, unreadable);
  if (!options.junit.empty()) {
    std::error_code ec;
    if (fs::path parent = fs::path(options.junit).parent_path();
        !parent.empty())
      fs::create_directories(parent, ec);
    if (Status s = writeJUnit(options.junit, records, seconds); !s.ok()) {
      std::fprintf(stderr, "harness replay: --junit: %s\n",
                   s.message().c_str());
      return kExitUsage;
    }
  }
  if (unreadable > 0 || !errors.empty())
    return kExitUsage;
  return changed > 0 && !options.rewrite ? kExitFindings : kExitOk;
}

CommandEntry addReplayCommand(CLI::App &app) {
  auto options = std::make_shared<ReplayOptions>();
  auto timeout = std::make_shared<std::string>("20");
  CLI::App *cmd = app.add_subcommand(
      "replay", "Run stored cases again (corpus/, a campaign's cases/) and "
                "fail when a verdict changed");
  cmd->add_option("folders", options->folders,
                  "Case folders or folders of them")
      ->required();
  cmd->add_flag("--rewrite", options->rewrite,
                "Write each case folder again with the verdict observed: "
                "program.mlir, expected and actual outputs, case.json "
                "(accepts a changed verdict; completes a hand-made case.json "
                "and inputs)");
  cmd->add_option("--junit", options->junit,
                  "Also write a JUnit XML report here: one test case per "
                  "case folder, a changed verdict as a failure, an "
                  "unreadable case as an error");
  cmd->add_option("--case-timeout", *timeout,
                  "Time limit of one case: 20, 20s, 1m")
      ->capture_default_str();
  return {cmd, [options, timeout] {
            options->caseTimeoutSeconds =
                durationFlag("--case-timeout", *timeout);
            return runReplayCommand(*options);
          }};
}

} // namespace sift::harness
