//===- CaseRunner.h - One fuzz case from seed to verdict --------*- C++ -*-===//
//
// The per-case function every driver shares (the fuzz loop now; replay,
// reduction and the libFuzzer target later): generate a program and its
// data from a seed, emit and parse it, compile it, run it on a device,
// evaluate the reference on the model and compare. The first failing step
// decides the verdict.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "harness/case/Session.h"
#include "oracles/Verdict.h"
#include "runtime/Device.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sift::harness {

/// What every case of a campaign shares.
struct CaseOptions {
  PipelineKind pipeline = PipelineKind::Cpu;
  /// Host for cpu; nvptx or amdgpu for the GPU pipelines.
  TargetKind target = TargetKind::Host;
  /// The GPU chip; empty: the target's default.
  std::string chip;
  /// Draw a random valid lowering config per op from the case's seed
  /// (--random-config) instead of the default strategy.
  bool randomConfig = false;
  /// Injected compiler faults.
  FaultSet faults;
  gen::Policy policy;
  gen::InputMode inputs = gen::InputMode::Mixed;
  /// Told "compile", "compile:<pass>" before each pass, and "run" as the
  /// case enters those steps (isolated workers report it, so a hang or a
  /// crash is blamed on the right step and pass).
  std::function<void(const char *)> onPhase;
};

/// Everything a case produced, kept for reports and findings.
struct CaseResult {
  uint64_t seed = 0;
  PipelineKind pipeline = PipelineKind::Cpu;
  TargetKind target = TargetKind::Host;
  oracle::Verdict verdict = oracle::Verdict::Pass;
  /// The step that decided a non-pass verdict: generate, parse, compile,
  /// reference, static (an oracle on the GPU binaries), run, compare.
  std::string stage;
  /// What went wrong, with the diagnostics or the first differing element.
  std::string detail;
  gen::Program program;
  std::string mlir;
  std::vector<HostTensor> inputs, expected, actual;
  double compileSeconds = 0, runSeconds = 0;
  /// False when the case was only checked statically (GPU pipelines without
  /// a device of their target).
  bool ran = false;
  /// When the compile failed in a pass: MLIR's local crash reproducer, the
  /// IR that pass ran on with the pass and its options, which
  /// `sift-opt --run-reproducer` replays.
  std::string reproducer;
  /// What the isolated child wrote to stderr, when it crashed or hung (the
  /// fatal error and its stack): kept as the case folder's stderr.txt.
  std::string log;
  /// The compiled artifact (empty when the compile failed), for export.
  rt::Artifact artifact;
  bool compiled = false;
};

/// True when `device` runs what `target` compiles to (cpu: host, cuda:
/// nvptx, hip: amdgpu).
bool deviceRunsTarget(const rt::Device &device, TargetKind target);

/// A case not compiled here: the program, its inputs, its text and the
/// reference's outputs, the rest left for the caller (a case folder written
/// from what an isolated child reported).
CaseResult uncompiledCase(const CaseOptions &options, uint64_t seed,
                          gen::Program program, std::vector<HostTensor> inputs);

/// Compiles a program given as MLIR text (`name` in diagnostics) and puts
/// it through the static oracles, without running it (no model, so no
/// reference): what the IR half of `harness reduce` tests. A text that does
/// not parse is `gen-invalid` at `parse`.
CaseResult runMlirCase(Session &session, const CaseOptions &options,
                       const std::string &text, const std::string &name,
                       uint64_t seed);

/// The pass a local crash reproducer names ("sift-lower-to-loops" from
/// `pipeline: "builtin.module(func.func(sift-lower-to-loops{...}))"`), or
/// "" when it names none.
std::string reproducerPass(const std::string &reproducer);

/// Generates, compiles, runs and checks the case of `seed`. GPU pipelines
/// go through the static oracles first; they run only when `device` runs
/// their target (deviceRunsTarget), twice: outputs that differ from the
/// reference are a `mismatch`, a second run (queue-ordered buffers, outputs
/// exported as DLPack) that differs from the first is `nondeterministic`.
CaseResult runGeneratedCase(Session &session, rt::Device &device,
                            const CaseOptions &options, uint64_t seed);

/// Compiles, runs and checks a given program model with given inputs (used by
/// runGeneratedCase and by tests with hand-made programs).
CaseResult runProgramCase(Session &session, rt::Device &device,
                          const CaseOptions &options, gen::Program program,
                          std::vector<HostTensor> inputs, uint64_t seed);

} // namespace sift::harness
