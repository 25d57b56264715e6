//===- harness/case/IsolatedCase.h - A case in a child, whole ---*- C++ -*-===//
//
// The one way the harness turns what an isolated child reported into a
// case result: fuzz (many cases in a WorkerPool), replay, reduce and check
// (runCaseIsolated) all use resultFromOutcome, so the result is complete
// (verdict, stage, detail, reproducer, log, program, inputs, outputs) and
// nothing the child computed is computed again.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/Isolation.h"
#include "harness/sut/SystemUnderTest.h"

#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// What one isolated case runs: a program model with its inputs, or a
/// program given as text (compiled and checked statically only).
struct CaseSpec {
  CaseOptions options;
  uint64_t seed = 0;
  gen::Program program;
  std::vector<HostTensor> inputs;
  /// Set: the program is this text in the system's input language, named
  /// `textName` in diagnostics.
  std::optional<std::string> text;
  std::string textName;
};

/// The case of `seed` under `options`: its program and inputs drawn from
/// the seed.
CaseSpec generatedSpec(const CaseOptions &options, uint64_t seed);

/// The result of `spec`'s isolated run: what its worker sent (whole, or its
/// summary for a pass nobody asked in full), or for a worker that did not
/// report the case rebuilt from `spec` (program, inputs, reference) with
/// how it ended (an announced finding first) and the end of its stderr.
CaseResult resultFromOutcome(const IsolatedOutcome &outcome,
                             const CaseSpec &spec);

/// Runs `spec` through `system` on `device` in a child under `limits` and
/// returns the whole result. When no child could run it (or its report was
/// unreadable), `startError` says why: a problem of the harness, never a
/// finding.
CaseResult runCaseIsolated(SystemUnderTest &system, rt::Device &device,
                           const CaseSpec &spec, const IsolationLimits &limits,
                           std::string &startError);

} // namespace sift::harness
