//===- ReduceCommand.cpp - `harness reduce`: shrink a finding -------------===//
//
// Reads a case folder, reruns it (isolated, like replay) to learn its
// signature, then lets the model reducer (Reducer.h) shrink it, each
// candidate compiled and run in a child and kept only when its signature
// is the original's. The result is written as a case folder of its own,
// with where it came from and how much smaller it is, ready to be replayed
// or copied into corpus/.
//
//===----------------------------------------------------------------------===//

#include "harness/Commands.h"

#include "harness/CaseFolder.h"
#include "harness/FindingStore.h"
#include "harness/Isolation.h"
#include "harness/Reducer.h"
#include "harness/Session.h"

#include "generators/MlirEmitter.h"
#include "oracles/Reference.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// What one run of a candidate showed.
struct Observed {
  oracle::Verdict verdict = oracle::Verdict::Pass;
  std::string stage, detail, signature, reproducer;
};

std::string describeSize(const gen::Program &program) {
  return std::to_string(program.ops.size()) + " ops, " +
         std::to_string(opsTimesElements(program)) + " ops x elements";
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
  std::string output = options.output.empty()
                           ? folder.string() + "-reduced"
                           : options.output;
  if (fs::path(output).lexically_normal() == folder) {
    std::fprintf(stderr,
                 "harness reduce: -o %s: the output must not be the case "
                 "being reduced\n",
                 output.c_str());
    return kExitUsage;
  }
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    std::fprintf(stderr, "harness reduce: %s\n", device.message().c_str());
    return kExitUsage;
  }
  Session session;
  IsolationLimits limits;
  limits.timeoutSeconds = stored->timeoutSeconds
                              ? std::min(*stored->timeoutSeconds,
                                         options.caseTimeoutSeconds)
                              : options.caseTimeoutSeconds;
  limits.memoryBytes = options.memoryLimitBytes;

  auto observe = [&](const ReductionCase &c) {
    IsolatedOutcome outcome = runIsolated(
        [&](const std::function<void(const char *)> &phase) {
          CaseOptions caseOptions = stored->options;
          caseOptions.onPhase = phase;
          return runProgramCase(session, **device, caseOptions, c.program,
                                c.inputs, stored->seed);
        },
        nullptr, limits);
    Observed seen{outcome.verdict, outcome.stage, outcome.detail, {},
                  outcome.reproducer};
    if (!outcome.reported)
      describeUnreported(outcome, seen.verdict, seen.stage, seen.detail);
    CaseResult result;
    result.program = c.program;
    result.verdict = seen.verdict;
    result.stage = seen.stage;
    result.detail = seen.detail;
    seen.signature = findingSignature(result);
    return seen;
  };

  auto start = std::chrono::steady_clock::now();
  ReductionCase original{stored->program, stored->inputs};
  Observed first = observe(original);
  if (first.verdict == oracle::Verdict::Pass) {
    std::fprintf(stderr,
                 "harness reduce: %s: the case passes now (recorded %s); "
                 "there is nothing to reduce\n",
                 folder.c_str(),
                 std::string(oracle::toString(stored->expected)).c_str());
    return kExitUsage;
  }
  if (first.verdict != stored->expected)
    std::fprintf(stderr,
                 "harness reduce: %s: note: recorded %s, reproduced %s; "
                 "reducing what reproduces\n",
                 folder.c_str(),
                 std::string(oracle::toString(stored->expected)).c_str(),
                 std::string(oracle::toString(first.verdict)).c_str());
  std::printf("reducing %s: %s\n  signature %s\n", folder.c_str(),
              describeSize(original.program).c_str(), first.signature.c_str());
  std::fflush(stdout);

  Observed last = first;
  ReductionStats stats;
  ReductionCase reduced = reduce(
      original,
      [&](const ReductionCase &c) {
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
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();

  CaseResult result;
  result.seed = stored->seed;
  result.pipeline = stored->options.pipeline;
  result.target = stored->options.target;
  result.verdict = last.verdict;
  result.stage = last.stage;
  result.detail = last.detail;
  result.reproducer = last.reproducer;
  result.program = reduced.program;
  result.inputs = reduced.inputs;
  result.mlir = gen::emitMlir(reduced.program);
  if (auto expected = oracle::evaluate(reduced.program, reduced.inputs);
      expected.ok())
    result.expected = std::move(*expected);
  int64_t before = opsTimesElements(original.program);
  int64_t after = opsTimesElements(reduced.program);
  double ratio = before > 0 ? static_cast<double>(after) / before : 1.0;
  std::string repro = "harness replay " + output;
  nlohmann::json extra = {
      {"reduced_from", folder.string()},
      {"original_repro", stored->repro},
      {"original_ops_times_elements", before},
      {"ops_times_elements", after},
      {"reduction_tests", stats.tests},
  };
  // A hang is reproduced by its time limit: keep the one it was reduced
  // under.
  if (stored->timeoutSeconds || last.verdict == oracle::Verdict::CompileTimeout ||
      last.verdict == oracle::Verdict::RunTimeout)
    extra["timeout_seconds"] = limits.timeoutSeconds;
  Result<std::string> written =
      writeCaseFolderAt(output, result, stored->options, repro, extra);
  if (!written.ok()) {
    std::fprintf(stderr, "harness reduce: %s\n", written.message().c_str());
    return kExitUsage;
  }
  std::printf("reduced in %d tests (%d kept), %.1f s: ops x elements %lld -> "
              "%lld (ratio %.4f, %.0fx smaller)\n",
              stats.tests, stats.accepted, seconds,
              static_cast<long long>(before), static_cast<long long>(after),
              ratio, after > 0 ? static_cast<double>(before) / after : 0.0);
  std::printf("wrote %s\nrepro: %s\n", written->c_str(), repro.c_str());
  return kExitOk;
}

} // namespace sift::harness
