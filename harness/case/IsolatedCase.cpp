//===- harness/case/IsolatedCase.cpp - A case in a child, whole -----------===//

#include "harness/case/IsolatedCase.h"

#include "generators/InputGenerator.h"
#include "generators/ProgramGenerator.h"
#include "harness/case/CaseRunner.h"

namespace sift::harness {

CaseSpec generatedSpec(const CaseOptions &options, uint64_t seed) {
  CaseSpec spec;
  spec.options = options;
  spec.options.onPhase = nullptr;
  spec.seed = seed;
  spec.program = gen::generateProgram(options.policy, seed);
  spec.inputs = gen::generateInputs(spec.program, options.inputs, seed);
  return spec;
}

CaseResult resultFromOutcome(const IsolatedOutcome &outcome,
                             const CaseSpec &spec) {
  if (outcome.result) {
    CaseResult result = *outcome.result;
    if (outcome.resultIsFull && result.log.empty())
      result.log = outcome.stderrTail;
    return result;
  }
  CaseResult result;
  if (spec.text) {
    result = blankCase(spec.options, spec.seed);
    result.mlir = *spec.text;
  } else {
    result = uncompiledCase(spec.options, spec.seed, spec.program, spec.inputs);
  }
  result.reproducer = outcome.reproducer;
  result.log = outcome.stderrTail;
  result.compileSeconds = outcome.compileSeconds;
  result.compileStages = outcome.compileStages;
  describeUnreported(outcome, result.verdict, result.stage, result.detail);
  return result;
}

CaseResult runCaseIsolated(SystemUnderTest &system, rt::Device &device,
                           const CaseSpec &spec, const IsolationLimits &limits,
                           std::string &startError) {
  IsolatedOutcome outcome = runIsolated(
      [&](const std::function<void(const char *)> &phase) {
        CaseOptions options = spec.options;
        options.onPhase = phase;
        if (spec.text)
          return system.compileText(options, *spec.text, spec.textName,
                                    spec.seed);
        return runProgramCase(system, device, options, spec.program,
                              spec.inputs, spec.seed);
      },
      nullptr, limits);
  startError = outcome.startError;
  return resultFromOutcome(outcome, spec);
}

} // namespace sift::harness
