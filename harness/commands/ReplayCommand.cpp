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

#include "harness/campaign/FuzzCampaign.h"
#include "harness/case/CaseDossier.h"
#include "harness/case/CaseFolder.h"
#include "harness/case/CaseRunner.h"
#include "harness/case/IsolatedCase.h"
#include "harness/store/FindingStore.h"
#include "harness/store/KnownCauses.h"
#include "harness/sut/Systems.h"

#include "generators/MlirEmitter.h"
#include "support/FileIO.h"
#include "support/Text.h"
#include "oracles/Reference.h"

#include <memory>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// Writes `stored`'s folder again with what the replay observed (the
/// worker's whole result: program.mlir, the reference's and the device's
/// outputs, case.json's verdict, stage, detail and signature). Fields
/// case.json has beyond the ones the folder writer sets (a time limit,
/// where a reduced case came from) are kept.
Status rewriteCase(const StoredCase &stored, const CaseResult &result) {
  Result<std::string> done =
      writeCaseFolderAt(stored.folder, result, stored.options,
                        "harness replay " + shellQuoted(stored.folder), stored.keptFields,
                        /*keepOtherFiles=*/true);
  return done.ok() ? Status::success() : Status(done.error());
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
    xml += "  <testcase classname=\"replay\" name=\"" + markupEscaped(r.name) +
           "\" time=\"" + time + "\"";
    if (!r.fixedUpstream.empty() || !r.needsDevice.empty()) {
      xml += ">\n    <skipped message=\"" +
             markupEscaped(r.fixedUpstream.empty()
                               ? "needs a device: " + r.needsDevice
                               : "fixed upstream: " + r.fixedUpstream) +
             "\"/>\n  </testcase>\n";
      continue;
    }
    if (r.failure.empty() && r.error.empty()) {
      xml += "/>\n";
      continue;
    }
    xml += ">\n";
    if (!r.error.empty())
      xml += "    <error message=\"" + markupEscaped(r.error) + "\"/>\n";
    else
      xml += "    <failure message=\"" + markupEscaped(r.failure) + "\">" +
             markupEscaped(r.body) + "</failure>\n";
    xml += "  </testcase>\n";
  }
  xml += "</testsuite>\n</testsuites>\n";
  return writeFileAtomic(path, reinterpret_cast<const uint8_t *>(xml.data()),
                         xml.size());
}


/// Counts of a replay.
struct ReplayTotals {
  int unchanged = 0, changed = 0, unreadable = 0, fixedUpstream = 0,
      needsDevice = 0;
};

/// "R5 (iree-org/iree#19474)".
std::string describeCause(const KnownCauses::Cause &cause) {
  return cause.id + " (" +
         (cause.upstream.empty() ? "not found upstream" : cause.upstream) + ")";
}

/// The line replay prints for a case, and its record's failure.
void reportCase(const fs::path &folder, const StoredCase &stored,
                const CaseResult &seen, ReplayRecord &record,
                ReplayTotals &totals) {
  bool same = seen.verdict == stored.expected;
  // A known root cause's case that passes now was fixed in the system
  // under test: news, not a regression.
  if (!same && seen.verdict == oracle::Verdict::Pass &&
      stored.expected != oracle::Verdict::Pass) {
    if (std::optional<KnownCauses::Cause> known =
            knownCauseOfFolder(folder, "harness replay")) {
      std::string cause = describeCause(*known);
      ++totals.fixedUpstream;
      record.recorded = oracle::toString(stored.expected);
      record.observed = oracle::toString(seen.verdict);
      record.fixedUpstream = cause;
      std::printf(
          "FIXED UPSTREAM %s: %s passes now (recorded %s)%s\n",
          folder.filename().c_str(), cause.c_str(), record.recorded.c_str(),
          seen.systemVersion.empty() ? ""
                                     : (" on " + seen.systemVersion).c_str());
      return;
    }
  }
  // A finding that keeps its verdict but not its signature (another pass,
  // another op, another first line) is another bug: changed too. Cases
  // without a recorded signature (hand-made) compare the verdict only.
  std::string signature = findingSignature(seen);
  bool sameSignature = !same || seen.verdict == oracle::Verdict::Pass ||
                       stored.signature.empty() ||
                       stored.signature == signature;
  (same && sameSignature ? totals.unchanged : totals.changed)++;
  std::string recorded(oracle::toString(stored.expected));
  std::string observed(oracle::toString(seen.verdict));
  record.recorded = recorded;
  record.observed = observed;
  if (!same) {
    record.failure = "verdict changed: recorded " + recorded + ", observed " +
                     observed +
                     (seen.stage.empty() ? "" : " at " + seen.stage.text());
    record.body = seen.detail;
  } else if (!sameSignature) {
    record.failure = "signature changed: recorded " + stored.signature +
                     ", observed " + signature;
    record.body = seen.detail;
    std::printf("CHANGED %s: %s (same verdict, signature recorded %s, "
                "observed %s)\n",
                folder.filename().c_str(), observed.c_str(),
                stored.signature.c_str(), signature.c_str());
    return;
  }
  std::string why =
      same ? ""
           : " (recorded " + recorded + ")" +
                 (seen.detail.empty()
                      ? std::string()
                      : ": " + seen.detail.substr(0, seen.detail.find('\n')));
  std::printf("%s %s: %s%s\n", same ? "unchanged" : "CHANGED",
              folder.filename().c_str(), observed.c_str(), why.c_str());
}

/// The devices a replay runs cases on, each made when a case first needs
/// it.
class ReplayDevices {
public:
  /// The device `options` run on (and which `options` may now carry emu
  /// kernels for); an error when this host has no such device.
  Result<rt::Device *> forCase(CaseOptions &options,
                               std::optional<rt::DeviceKind> forced) {
    rt::DeviceKind kind = rt::DeviceKind::Cpu;
    if (options.target != TargetKind::Host &&
        systemOf(options.pipeline) == SystemKind::Sift)
      kind = forced.value_or(options.device.value_or(rt::DeviceKind::Cpu));
    options.device = kind == rt::DeviceKind::Cpu
                         ? std::nullopt
                         : std::optional<rt::DeviceKind>(kind);
    options.emuKernels = kind == rt::DeviceKind::Emu;
    std::unique_ptr<rt::Device> &slot = devices_[static_cast<size_t>(kind)];
    if (!slot) {
      auto made = rt::createDevice(kind);
      if (!made.ok())
        return makeError("its GPU runs execute on " +
                         std::string(rt::toString(kind)) +
                         ", which this host cannot open (" + made.message() +
                         "); --device=emu runs its kernels on the host, "
                         "--device=cpu checks it statically");
      slot = std::move(*made);
    }
    return slot.get();
  }

private:
  std::unique_ptr<rt::Device> devices_[std::size(rt::kAllDeviceKinds)];
};

/// Writes `seen`, the replay of `stored`, as an artifact in `dir` named
/// after the case folder, with the case's inputs and reference outputs:
/// sift-run runs it on a GPU host.
Status exportReplayed(const std::string &dir, const StoredCase &stored,
                      const CaseResult &seen) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": " + ec.message());
  FuzzOptions fuzz;
  fuzz.exportDir = dir;
  fuzz.inputs = stored.options.inputs;
  fuzz.randomConfig = stored.options.randomConfig;
  fuzz.injectText = faultListText(stored.options.faults);
  if (!stored.options.systemFile.empty())
    fuzz.systemFiles = {stored.options.systemFile};
  return exportCase(fuzz,
                    PipelineTarget{stored.options.pipeline,
                                   stored.options.target, stored.options.chip,
                                   stored.options.filePipeline},
                    seen, fs::path(stored.folder).filename().string());
}

/// An IREE case whose root cause shows only on a GPU run: a replay here
/// (static, or on the host) would pass and call it fixed. Says so (NEEDS
/// DEVICE, and where it can be judged), records it and returns true.
bool announceNeedsDevice(const fs::path &folder, const StoredCase &stored,
                         const ReplayOptions &options, ReplayRecord &record,
                         ReplayTotals &totals) {
  if (systemOf(stored.options.pipeline) != SystemKind::Iree)
    return false;
  std::optional<KnownCauses::Cause> known =
      knownCauseOfFolder(folder, "harness replay");
  if (!known || known->needsDevice.empty())
    return false;
  record.needsDevice =
      known->id + " shows only on a " + known->needsDevice + " run";
  record.recorded = oracle::toString(stored.expected);
  ++totals.needsDevice;
  // A corpus case keeps the compiled module it failed with.
  fs::path module = folder / (known->needsDevice + ".ireecase");
  std::string there =
      !options.exportDir.empty() ? "compiled here for " + options.exportDir
      : fs::exists(module) ? "on a GPU host: sift-run " + module.string() +
                                 " --device=" + known->needsDevice
                           : "on a GPU host: export it "
                             "(--export-artifacts) and run it "
                             "with sift-run";
  std::printf("NEEDS DEVICE %s: %s; not judged here (%s)\n",
              folder.filename().c_str(), record.needsDevice.c_str(),
              there.c_str());
  return true;
}

/// A replay runs the program case.json's model describes; a program file
/// edited by hand is not what runs, and it says so.
void noticeEditedProgram(const fs::path &folder, const StoredCase &stored,
                         const CaseResult &seen) {
  if (seen.mlir.empty())
    return;
  std::string name =
      stored.programFile.empty() ? "program.mlir" : stored.programFile;
  Result<std::vector<uint8_t>> kept = readFileBytes((folder / name).string());
  if (!kept.ok() || std::string(kept->begin(), kept->end()) == seen.mlir)
    return;
  std::fprintf(stderr,
               "harness replay: %s: %s differs from the program case.json's "
               "model describes (edited?); the replay ran the model. Check "
               "an edited program with: harness check %s --like=%s\n",
               folder.c_str(), name.c_str(),
               shellQuoted((folder / name).string()).c_str(),
               shellQuoted(folder.string()).c_str());
}

/// Replays one case folder into `record`.
void replayOne(Systems &systems, ReplayDevices &devices, const fs::path &folder,
               const ReplayOptions &options, ReplayRecord &record,
               ReplayTotals &totals) {
  auto start = std::chrono::steady_clock::now();
  record.name = folder.filename().string();
  record.folder = folder.string();
  auto problem = [&](const std::string &what) {
    ++totals.unreadable;
    record.error = what;
    std::fprintf(stderr, "harness replay: %s: %s\n", folder.c_str(),
                 what.c_str());
  };
  Result<StoredCase> stored = loadCaseFolder(folder);
  if (!stored.ok())
    return problem(stored.message());
  // Not judged here; with --export-artifacts compiled to be exported.
  const bool needsDevice =
      announceNeedsDevice(folder, *stored, options, record, totals);
  if (needsDevice && options.exportDir.empty())
    return;
  CaseSpec spec{stored->options, stored->seed, stored->program,
                stored->inputs, std::nullopt, ""};
  if (options.faults && systemOf(stored->options.pipeline) == SystemKind::Sift)
    spec.options.faults = *options.faults;
  Result<rt::Device *> device = devices.forCase(spec.options, options.device);
  if (!device.ok())
    return problem(device.message());
  // The emu device runs a GPU's threads one at a time: minutes, not 20 s.
  double limit = options.caseTimeoutSeconds.value_or(
      defaultCaseTimeout(false, spec.options.device == rt::DeviceKind::Emu));
  IsolationLimits limits;
  limits.timeoutSeconds =
      std::min(limit, stored->timeoutSeconds.value_or(limit));
  std::string startError;
  Result<SystemUnderTest *> system = systems.forCase(stored->options);
  if (!system.ok())
    return problem(system.message());
  limits.timeoutSeconds =
      systems.caseTimeoutFor(stored->options, limits.timeoutSeconds);
  CaseResult seen =
      runCaseIsolated(**system, **device, spec, limits, startError);
  record.seconds = secondsSince(start);
  if (!startError.empty())
    return problem("cannot start a worker: " + startError);
  if (!options.exportDir.empty() && seen.compiled &&
      stored->options.target != TargetKind::Host) {
    if (Status s = exportReplayed(options.exportDir, *stored, seen); !s.ok())
      return problem("--export-artifacts: " + s.message());
    std::printf("exported %s to %s\n", folder.filename().c_str(),
                options.exportDir.c_str());
  } else if (needsDevice) {
    return problem("--export-artifacts: it did not compile here (" +
                   std::string(oracle::toString(seen.verdict)) + ": " +
                   seen.detail + ")");
  }
  if (needsDevice)
    return; // judged on the GPU host, not here
  noticeEditedProgram(folder, *stored, seen);
  reportCase(folder, *stored, seen, record, totals);
  if (options.rewrite) {
    stored->options.device = spec.options.device;
    if (Status s = rewriteCase(*stored, seen); !s.ok())
      return problem("--rewrite: " + s.message());
    // A finding's folder gets what its reader opens first and repro.sh.
    if (oracle::isFinding(seen.verdict))
      if (Status s = writeCaseDossier(systems, stored->folder, seen,
                                      spec.options, limits);
          !s.ok())
        problem("--rewrite: " + s.message());
  }
}

} // namespace

Result<std::vector<ReplayRecord>>
replayCaseFolders(const std::vector<std::string> &folders,
                  const ReplayOptions &options) {
  ReplayDevices devices;
  Systems systems;
  ReplayTotals totals;
  std::vector<ReplayRecord> records(folders.size());
  for (size_t i = 0; i < folders.size(); ++i)
    replayOne(systems, devices, folders[i], options, records[i], totals);
  return records;
}

int runReplayCommand(const ReplayOptions &options) {
  std::vector<std::string> errors;
  std::vector<fs::path> folders = findCaseFolders(options.folders, errors);
  for (const std::string &error : errors)
    std::fprintf(stderr, "harness replay: %s\n", error.c_str());
  if (folders.empty())
    return kExitUsage;
  // The JUnit report must not land in a case folder it replays (over its
  // case.json or an input).
  if (!options.junit.empty()) {
    fs::path parent = fs::path(options.junit).parent_path();
    for (const fs::path &folder : folders) {
      if (isSameFile(parent.empty() ? "." : parent.string(), folder.string())) {
        std::fprintf(stderr,
                     "harness replay: --junit=%s is inside the case folder "
                     "%s: the report would overwrite or clutter the case\n",
                     options.junit.c_str(), folder.c_str());
        return kExitUsage;
      }
    }
    if (std::string why = unwritableReason(options.junit); !why.empty()) {
      std::fprintf(stderr, "harness replay: --junit=%s: %s\n",
                   options.junit.c_str(), why.c_str());
      return kExitUsage;
    }
  }
  auto start = std::chrono::steady_clock::now();
  Result<std::vector<ReplayRecord>> replayed = replayCaseFolders(
      std::vector<std::string>(folders.begin(), folders.end()), options);
  if (!replayed.ok()) {
    std::fprintf(stderr, "harness replay: %s\n", replayed.message().c_str());
    return kExitUsage;
  }
  std::vector<ReplayRecord> &records = *replayed;
  ReplayTotals totals;
  for (const ReplayRecord &r : records)
    (!r.error.empty()           ? totals.unreadable
     : !r.fixedUpstream.empty() ? totals.fixedUpstream
     : !r.needsDevice.empty()   ? totals.needsDevice
     : r.failure.empty()        ? totals.unchanged
                                : totals.changed)++;
  double seconds = secondsSince(start);
  std::printf("replayed %zu cases in %.1f s: %d unchanged, %d changed, %d "
              "unreadable%s\n",
              folders.size(), seconds, totals.unchanged, totals.changed,
              totals.unreadable,
              totals.fixedUpstream
                  ? (", " + std::to_string(totals.fixedUpstream) +
                     " fixed upstream (known root causes that pass now)")
                        .c_str()
                  : "");
  if (totals.needsDevice)
    std::printf("not replayed: %d needing a GPU run (known root causes that "
                "show only there)\n",
                totals.needsDevice);
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
  if (totals.unreadable > 0 || !errors.empty())
    return kExitUsage;
  return totals.changed > 0 && !options.rewrite ? kExitFindings : kExitOk;
}

CommandEntry addReplayCommand(CLI::App &app) {
  auto options = std::make_shared<ReplayOptions>();
  auto timeout = std::make_shared<std::string>();
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
                  "Time limit of one case: 20, 20s, 1m (default 20 s; 300 s "
                  "for a case run on emu)");
  auto device = std::make_shared<std::string>();
  cmd->add_option("--device", *device,
                  "Where the GPU pipelines' cases run: by default each where "
                  "its case.json's \"device\" says (static verdicts only "
                  "without one); cpu: all statically; emu: all with their "
                  "kernels on the host, with checks")
      ->check(CLI::IsMember({"cpu", "emu"}));
  cmd->add_option("--export-artifacts", options->exportDir,
                  "Also write each case's compiled GPU run here as an "
                  "artifact with its inputs and reference outputs, for "
                  "sift-run on a GPU host; a case of a known root cause that "
                  "shows only on a GPU run is compiled and exported instead "
                  "of skipped");
  return {cmd, [options, timeout, device] {
            if (!timeout->empty())
              options->caseTimeoutSeconds =
                  durationFlag("--case-timeout", *timeout);
            if (!device->empty())
              options->device = rt::parseDeviceKind(*device);
            return runReplayCommand(*options);
          }};
}

} // namespace sift::harness
