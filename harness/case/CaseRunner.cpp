//===- CaseRunner.cpp - One fuzz case from seed to verdict ----------------===//
//
// Verdicts by step: an invalid model, unparsable text or a failing reference
// is `gen-invalid` (a generator bug, not a compiler finding); the system's
// compile decides compile errors, crashes and static findings; a runtime
// failure is `runtime-error`; outputs that differ from the reference are
// `mismatch`, a second run that differs from the first `nondeterministic`.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseRunner.h"

#include "generators/CoverageTags.h"

#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "oracles/Compare.h"
#include "oracles/ComparisonPolicy.h"
#include "oracles/Reference.h"
#include "support/Process.h"

#include <chrono>

namespace sift::harness {

namespace {

/// The verdict of a run that failed with `message`.
CaseResult runFailed(SystemUnderTest &system, rt::Device &device,
                     CaseResult &result, const std::string &message) {
  // The system's own word that it does not implement the program (a file
  // system's documented exit code or message): unsupported.
  if (oracle::runFailureVerdict(message, false) == oracle::Verdict::Unsupported)
    return decide(result, oracle::Verdict::Unsupported, Stage(Step::Run),
                  message.substr(kUnsupportedPrefix.size()));
  // A limit the system documents and checks on purpose is no finding.
  oracle::ComparisonPolicy policy = system.comparisonPolicy(result);
  if (std::optional<oracle::DocumentedLimit> limit =
          oracle::documentedLimitIn(policy, message)) {
    result.detail = "not compared: " + limit->why +
                    " (a documented limit, checked at run time)";
    return result;
  }
  // The emu device's checks and a tool's own time limit are verdicts of
  // their own.
  return decide(
      result,
      oracle::runFailureVerdict(message, device.kind() == rt::DeviceKind::Emu),
      Stage(Step::Run), std::string(oracle::runFailureDetail(message)));
}

/// Compares the first run's outputs with the reference under the system's
/// policy: a tie order it documents as open is not a mismatch; outputs
/// that policy leaves unchecked are noted. False (and the case decided) on
/// a mismatch.
bool firstRunMatches(SystemUnderTest &system, CaseResult &result) {
  oracle::PolicyComparison compared = oracle::compareUnderPolicy(
      system.comparisonPolicy(result), result.program, result.inputs,
      result.expected, result.actual);
  if (compared.mismatch) {
    decide(result, oracle::Verdict::Mismatch, Stage(Step::Compare),
           compared.mismatch->message);
    return false;
  }
  for (const std::string &line : compared.unchecked)
    result.detail += (result.detail.empty() ? "" : "\n") + line;
  return true;
}

} // namespace

CaseResult runGeneratedCase(SystemUnderTest &system, rt::Device &device,
                            const CaseOptions &options, uint64_t seed) {
  gen::Program program = gen::generateProgram(options.policy, seed);
  std::vector<HostTensor> inputs =
      gen::generateInputs(program, options.inputs, seed);
  return runProgramCase(system, device, options, std::move(program),
                        std::move(inputs), seed);
}

CaseResult runProgramCase(SystemUnderTest &system, rt::Device &device,
                          const CaseOptions &options, gen::Program program,
                          std::vector<HostTensor> inputs, uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.program = std::move(program);
  result.coverage = gen::coverageTags(result.program);
  result.inputs = std::move(inputs);
  if (std::string problem = gen::validate(result.program); !problem.empty())
    return decide(result, oracle::Verdict::GenInvalid, Stage(Step::Generate), problem);
  result.mlir = gen::emitMlir(result.program);

  auto reference = oracle::evaluate(result.program, result.inputs);
  if (!reference.ok())
    return decide(result, oracle::Verdict::GenInvalid, Stage(Step::Reference),
                reference.message());
  result.expected = std::move(reference.value());

  if (!system.compile(options, result))
    return result;
  bool gpu = options.target != TargetKind::Host;
  if (!system.runsOn(device, options.target)) {
    // sift's and IREE's GPU runs were checked statically; a file system's
    // have no static oracle: not run is not a pass.
    if (systemOf(options.pipeline) == SystemKind::File)
      return decide(result, oracle::Verdict::Unsupported, Stage(Step::Run),
                    "not run: its " + std::string(toString(options.target)) +
                        " code runs on a GPU this campaign has not "
                        "(export it and run it on a GPU host)");
    return result;
  }

  // A GPU runs each case twice (a race shows as a second result that
  // differs); the cpu device once.
  int runs = gpu ? 2 : 1;
  if (options.onPhase)
    options.onPhase("run");
  auto start = std::chrono::steady_clock::now();
  result.ran = true;
  for (int r = 0; r < runs; ++r) {
    // The second run allocates queue-ordered and exports every output as
    // DLPack (the export oracle).
    auto actual = system.run(result, device, r);
    if (!actual.ok()) {
      result.runSeconds = secondsSince(start);
      return runFailed(system, device, result, actual.message());
    }
    if (r == 0) {
      result.actual = std::move(actual.value());
      if (!firstRunMatches(system, result)) {
        result.runSeconds = secondsSince(start);
        return result;
      }
      continue;
    }
    if (auto differ = oracle::compareOutputs(
            std::vector<uint64_t>(result.actual.size(), 0), result.actual,
            *actual)) {
      result.runSeconds = secondsSince(start);
      return decide(result, oracle::Verdict::Nondeterministic, Stage(Step::Compare),
                  "run " + std::to_string(r + 1) +
                      " differs from run 1: " + differ->message);
    }
  }
  result.runSeconds = secondsSince(start);
  return result;
}

CaseResult uncompiledCase(const CaseOptions &options, uint64_t seed,
                          gen::Program program,
                          std::vector<HostTensor> inputs) {
  CaseResult result = blankCase(options, seed);
  result.program = std::move(program);
  result.coverage = gen::coverageTags(result.program);
  result.inputs = std::move(inputs);
  result.mlir = gen::emitMlir(result.program);
  if (auto expected = oracle::evaluate(result.program, result.inputs);
      expected.ok())
    result.expected = std::move(*expected);
  return result;
}

} // namespace sift::harness
