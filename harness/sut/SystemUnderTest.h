//===- harness/sut/SystemUnderTest.h - A compiler sift tests ----*- C++ -*-===//
//
// The seam between the harness and the compiler it tests. Generators,
// reference, oracles, campaigns, case folders and reduction work on program
// models and verdicts; a system under test turns a program model into
// something that runs, for one (pipeline, target), checks what it can
// statically, and runs it on a device. sift's own compiler (sut/sift/) is
// the first system; another compiler is a new folder beside it that
// implements this interface, not edits across the harness.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseResult.h"
#include "oracles/ComparisonPolicy.h"
#include "runtime/Device.h"
#include "support/Result.h"

#include <string>
#include <string_view>
#include <vector>

namespace sift::harness {

class SystemUnderTest {
public:
  virtual ~SystemUnderTest();

  /// "sift": names the system in findings, summaries and reports.
  virtual std::string_view name() const = 0;

  /// The system's version, for summaries and findings.
  virtual std::string version() const = 0;

  /// Compiles `result.program` (whose sift MLIR text is `result.mlir` and
  /// whose seed, `result.seed`, draws random configs) for `options`'
  /// pipeline and target into `result.artifact`, and checks it statically.
  /// False when that decided the verdict (`result` then holds it: a
  /// program the system cannot read, a compile error or crash, a static
  /// finding); true when it compiled clean. Sets `result.compileSeconds`
  /// and, with a reproducer, `result.reproducer`.
  virtual bool compile(const CaseOptions &options, CaseResult &result) = 0;

  /// Compiles a program given as text in the system's input language
  /// (`name` in diagnostics) and checks it statically, without running it
  /// (no model, so no reference): what the IR half of `harness reduce`
  /// tests. A text the system cannot read is `gen-invalid` at `parse`.
  virtual CaseResult compileText(const CaseOptions &options,
                                 const std::string &text,
                                 const std::string &name, uint64_t seed) = 0;

  /// Runs `compiled.artifact` on `device` with `compiled.inputs`: the
  /// outputs of run `repetition` (0: in order; 1: queue-ordered buffers
  /// with every output exported, which a race or a wrong memory type shows
  /// up in).
  virtual Result<std::vector<HostTensor>>
  run(const CaseResult &compiled, rt::Device &device, int repetition) = 0;

  /// Whether `device` runs what `target` compiles to (cpu: host, cuda:
  /// nvptx, hip: amdgpu).
  virtual bool runsOn(const rt::Device &device, TargetKind target) const;

  /// What the system promises about tie order, NaN order and its
  /// documented limits for a case in `result`'s front end
  /// (oracles/ComparisonPolicy.h): sift's compiler the reference's answer
  /// exactly.
  virtual oracle::ComparisonPolicy
  comparisonPolicy(const CaseResult & /*result*/) const {
    return oracle::exactPolicy();
  }
};

} // namespace sift::harness
