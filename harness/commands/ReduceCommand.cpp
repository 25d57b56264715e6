//===- ReduceCommand.cpp - `harness reduce`: shrink a finding -------------===//
//
// Reads a case folder, reruns it (isolated, like replay) to learn its
// signature, then lets the model reducer (Reducer.h) shrink it, each
// candidate compiled and run in a child and kept only when its signature
// is the original's. The result is written as a case folder of its own,
// with where it came from and how much smaller it is, ready to be replayed
// or copied into corpus/. A finding the compile decides then goes through
// mlir-reduce (sift-reduce) on its IR, with `harness check --like=FOLDER`
// (same signature as the case folder: exit 1) as the interestingness test.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseDossier.h"
#include "harness/case/CaseFolder.h"
#include "harness/store/FindingStore.h"
#include "harness/case/IsolatedCase.h"
#include "harness/reduce/IrReduction.h"
#include "harness/reduce/Reducer.h"
#include "harness/sut/Systems.h"
#include "harness/campaign/StopSignals.h"

#include "generators/MlirEmitter.h"
#include "oracles/Reference.h"
#include "support/FileIO.h"
#include "support/Text.h"

#include <memory>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>


namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// What one run of a candidate showed: its whole result and signature.
struct Observed {
  CaseResult result;
  std::string signature;
};

std::string describeSize(const gen::Program &program) {
  return std::to_string(program.ops.size()) + " ops, " +
         std::to_string(opsTimesElements(program)) + " ops x elements";
}

/// Whether the case folder `output` is an earlier reduction of `folder`
/// (its case.json's "reduced_from" names it), which a new one may replace.
bool isReductionOf(const fs::path &output, const fs::path &folder) {
  std::ifstream in(output / "case.json");
  nlohmann::json facts = nlohmann::json::parse(in, nullptr, false);
  if (facts.is_discarded() || !facts.is_object() ||
      !facts.contains("reduced_from") || !facts["reduced_from"].is_string())
    return false;
  std::error_code ec;
  return fs::weakly_canonical(facts["reduced_from"].get<std::string>(), ec) ==
         fs::weakly_canonical(folder, ec);
}

/// The reduced case's folder: it is replaced, so it must not be the case,
/// hold it, or be any folder that is not a case folder (the writer
/// checks the last).
std::optional<std::string> outputFolder(const fs::path &folder,
                                        const std::string &given) {
  std::string output = given.empty() ? folder.string() + "-reduced" : given;
  std::error_code ec;
  fs::path out = fs::weakly_canonical(output, ec);
  fs::path in = fs::weakly_canonical(folder, ec);
  auto [mismatch, rest] =
      std::mismatch(out.begin(), out.end(), in.begin(), in.end());
  (void)rest;
  if (mismatch == out.end()) {
    std::fprintf(stderr,
                 "harness reduce: -o %s: the output must not be the case "
                 "being reduced or a folder that holds it\n",
                 output.c_str());
    return std::nullopt;
  }
  // Checked now rather than after the whole reduction: a file in the way,
  // a folder that is not a case, a place that cannot be written.
  std::string problem;
  if (fs::exists(output, ec) && !fs::is_directory(output, ec))
    problem = "exists and is not a folder";
  else if (fs::is_directory(output, ec) &&
           !fs::exists(fs::path(output) / "case.json", ec))
    problem = "is a folder that is not a case folder (no case.json): it is "
              "never replaced";
  else if (fs::is_directory(output, ec) && !isReductionOf(output, folder))
    problem = "holds another case (its case.json was not reduced from " +
              folder.string() +
              "), which the reduction would replace; give a new folder, or "
              "remove that one first";
  else
    problem = unwritableReason(output);
  if (!problem.empty()) {
    std::fprintf(stderr, "harness reduce: -o %s: %s\n", output.c_str(),
                 problem.c_str());
    return std::nullopt;
  }
  return output;
}

/// One `harness reduce`: the case, where it goes, and how candidates run.
struct Reduction {
  const ReduceOptions &options;
  fs::path folder;
  StoredCase stored;
  std::string output;
  rt::Device &device;
  Systems systems;
  /// The system of the case's pipeline.
  SystemUnderTest *system = nullptr;
  IsolationLimits limits;
  /// Why a worker could not start: it ends the reduction with an error
  /// instead of reading as "not interesting".
  std::string startError;

  /// Runs `c` isolated: its whole result and signature.
  Observed observe(const ReductionCase &c) {
    CaseSpec spec{stored.options, stored.seed, c.program, c.inputs,
                  std::nullopt, ""};
    std::string error;
    Observed seen{runCaseIsolated(*system, device, spec, limits, error), ""};
    if (!error.empty())
      startError = error;
    seen.signature = findingSignature(seen.result);
    return seen;
  }

  /// Whether the case still shows a finding worth reducing (printed).
  bool reproduces(const Observed &first) {
    oracle::Verdict verdict = first.result.verdict;
    std::string recorded(oracle::toString(stored.expected));
    if (verdict == oracle::Verdict::Pass) {
      std::fprintf(stderr,
                   "harness reduce: %s: the case passes now (recorded %s); "
                   "there is nothing to reduce\n",
                   folder.c_str(), recorded.c_str());
      return false;
    }
    if (verdict != stored.expected)
      std::fprintf(stderr,
                   "harness reduce: %s: note: recorded %s, reproduced %s; "
                   "reducing what reproduces\n",
                   folder.c_str(), recorded.c_str(),
                   std::string(oracle::toString(verdict)).c_str());
    return true;
  }

  int run();
  /// Writes the reduced case; returns its folder, or nullopt (printed).
  std::optional<std::string> write(const ReductionCase &original,
                                   const Observed &last,
                                   const ReductionStats &stats,
                                   bool interrupted, double seconds);
};

int Reduction::run() {
  auto start = std::chrono::steady_clock::now();
  ReductionCase original{stored.program, stored.inputs};
  Observed first = observe(original);
  if (!startError.empty()) {
    std::fprintf(stderr, "harness reduce: cannot start a worker: %s\n",
                 startError.c_str());
    return kExitUsage;
  }
  if (!reproduces(first))
    return kExitUsage;
  std::printf("reducing %s: %s\n  signature %s\n", folder.c_str(),
              describeSize(original.program).c_str(), first.signature.c_str());
  std::fflush(stdout);
  Observed last = first;
  ReductionStats stats;
  // Ctrl-C or SIGTERM: the test in progress finishes, every later candidate
  // is turned down, and the smallest case so far is written.
  StopSignals stop;
  bool interrupted = false;
  int refused = 0; // candidates turned down untested after the stop
  reduce(
      original,
      [&](const ReductionCase &c) {
        if (stop.requested()) {
          if (!interrupted)
            std::printf("  interrupted: writing the smallest case so far\n");
          interrupted = true;
          ++refused;
          return false;
        }
        Observed seen = observe(c);
        if (seen.signature != first.signature)
          return false;
        last = std::move(seen);
        return true;
      },
      [&](const std::string &edit, const ReductionCase &c) {
        std::printf("  [%d tests] %s: %s\n", stats.tests, edit.c_str(),
                    describeSize(c.program).c_str());
        std::fflush(stdout);
      },
      stats);
  stats.tests -= refused;
  if (!startError.empty()) {
    std::fprintf(stderr, "harness reduce: cannot start a worker: %s\n",
                 startError.c_str());
    return kExitUsage;
  }
  std::optional<std::string> written =
      write(original, last, stats, interrupted, secondsSince(start));
  if (!written)
    return kExitUsage;
  if (interrupted) {
    // A stopped job exits non-zero; reducing the written folder again goes
    // on from the smallest case so far.
    std::printf("stopped by %s: go on with harness reduce %s\n",
                stop.signalName(), shellQuoted(*written).c_str());
    return stop.exitCode();
  }
  // The IR half: only a verdict the compile decides can be checked on IR
  // alone (no model, no reference).
  // sift's IR alone: IREE's input goes through the model reducer.
  if (options.reduceIr && last.result.stage.byCompile() &&
      system == &systems.sift())
    reduceIr(systems.sift().session(), *written, last.result.mlir, limits);
  return kExitOk;
}

std::optional<std::string> Reduction::write(const ReductionCase &original,
                                            const Observed &last,
                                            const ReductionStats &stats,
                                            bool interrupted, double seconds) {
  int64_t before = opsTimesElements(original.program);
  int64_t after = opsTimesElements(last.result.program);
  double ratio = before > 0 ? static_cast<double>(after) / before : 1.0;
  std::string repro = "harness replay " + shellQuoted(output);
  nlohmann::json extra = {
      {"reduced_from", folder.string()},
      {"original_repro", stored.repro},
      {"original_ops_times_elements", before},
      {"ops_times_elements", after},
      {"reduction_tests", stats.tests},
  };
  if (interrupted)
    extra["reduction_interrupted"] = true;
  // The time limit it was reduced under: a hang is reproduced by it, and
  // `harness check --like` (the IR half's test) runs under it.
  extra["timeout_seconds"] = limits.timeoutSeconds;
  // The last interesting run's whole result is the reduced case.
  Result<std::string> written =
      writeCaseFolderAt(output, last.result, stored.options, repro, extra);
  if (!written.ok()) {
    std::fprintf(stderr, "harness reduce: %s\n", written.message().c_str());
    return std::nullopt;
  }
  if (Status s = writeCaseDossier(systems, *written, last.result,
                                  stored.options, limits);
      !s.ok())
    std::fprintf(stderr, "harness reduce: %s\n", s.message().c_str());
  std::printf("reduced in %d tests (%d kept), %.1f s: ops x elements %lld -> "
              "%lld (ratio %.4f, %.0fx smaller)\n",
              stats.tests, stats.accepted, seconds,
              static_cast<long long>(before), static_cast<long long>(after),
              ratio, after > 0 ? static_cast<double>(before) / after : 0.0);
  std::printf("wrote %s\nrepro: %s\n", written->c_str(), repro.c_str());
  std::fflush(stdout);
  return *written;
}

} // namespace

int runReduceCommand(const ReduceOptions &options) {
  fs::path folder = fs::path(options.folder).lexically_normal();
  if (folder.filename().empty())
    folder = folder.parent_path();
  Result<StoredCase> stored = loadCaseFolder(folder);
  if (!stored.ok()) {
    std::fprintf(stderr, "harness reduce: %s: %s\n", folder.c_str(),
                 stored.message().c_str());
    return kExitUsage;
  }
  std::optional<std::string> output = outputFolder(folder, options.output);
  if (!output)
    return kExitUsage;
  // The case's GPU runs execute where they did when it was found (emu on
  // this host; cuda or hip where there is one).
  rt::DeviceKind kind = stored->options.device.value_or(rt::DeviceKind::Cpu);
  auto device = rt::createDevice(kind);
  if (!device.ok()) {
    std::fprintf(stderr,
                 "harness reduce: %s: its GPU runs execute on %s, which this "
                 "host cannot open: %s\n",
                 folder.c_str(), std::string(rt::toString(kind)).c_str(),
                 device.message().c_str());
    return kExitUsage;
  }
  Reduction reduction{options, folder, *stored, *output, **device,
                      {},      nullptr, {},      ""};
  Result<SystemUnderTest *> system =
      reduction.systems.forCase(stored->options);
  if (!system.ok()) {
    std::fprintf(stderr, "harness reduce: %s: %s\n", folder.c_str(),
                 system.message().c_str());
    return kExitUsage;
  }
  reduction.system = *system;
  // The emu device runs a GPU's threads one at a time: minutes, not 20 s.
  double limit = options.caseTimeoutSeconds.value_or(
      defaultCaseTimeout(false, kind == rt::DeviceKind::Emu));
  reduction.limits.timeoutSeconds = reduction.systems.caseTimeoutFor(
      stored->options,
      std::min(limit, stored->timeoutSeconds.value_or(limit)));
  reduction.limits.memoryBytes = options.memoryLimitBytes;
  return reduction.run();
}

CommandEntry addReduceCommand(CLI::App &app) {
  auto options = std::make_shared<ReduceOptions>();
  auto timeout = std::make_shared<std::string>();
  auto memory = std::make_shared<std::string>("4G");
  CLI::App *cmd = app.add_subcommand(
      "reduce", "Shrink a finding's case folder while its signature stays "
                "the same");
  cmd->add_option("case", options->folder, "A case folder (case.json)")
      ->required();
  cmd->add_option("-o,--output", options->output,
                  "The reduced case folder (default: CASE-reduced)");
  cmd->add_option("--case-timeout", *timeout,
                  "Time limit of one test (a case's own timeout_seconds wins "
                  "when shorter): 20, 20s, 1m (default 20 s; 300 s for a "
                  "case whose kernels run on emu)");
  cmd->add_option("--memory-limit", *memory,
                  "Memory limit of one test: 512M, 4G, or none")
      ->capture_default_str();
  cmd->add_flag("!--no-ir", options->reduceIr,
                "Stop after the model: skip the IR phase (sift-reduce)");
  return {cmd, [options, timeout, memory] {
            if (!timeout->empty())
              options->caseTimeoutSeconds =
                  durationFlag("--case-timeout", *timeout);
            options->memoryLimitBytes = memoryFlag(*memory);
            return runReduceCommand(*options);
          }};
}

} // namespace sift::harness
