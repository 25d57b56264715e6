//===- CaseResult.h - What a case is and what it produced ------*- C++ -*-===//
//
// The options every case of a campaign shares and everything one case
// produced: the data that flows between the case runner, the systems under
// test, isolated workers (CaseWire), case folders and the findings store.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "harness/store/KnownCauses.h"
#include "oracles/Verdict.h"
#include "runtime/Artifact.h"
#include "runtime/Device.h"
#include "support/Fault.h"
#include "support/HostTensor.h"
#include "support/Stage.h"
#include "support/Targets.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// What every case of a campaign shares.
struct CaseOptions {
  PipelineKind pipeline = PipelineKind::Cpu;
  /// PipelineKind::File: the pipeline's full name ("xla", "onnxruntime-
  /// basic"), which the loaded system files resolve (harness/sut/file/).
  std::string filePipeline;
  /// PipelineKind::File: the system file given with --system (a case
  /// folder's "system_file"), or "" for a shipped one (found by name).
  std::string systemFile;
  /// Host for cpu; nvptx or amdgpu for the GPU pipelines.
  TargetKind target = TargetKind::Host;
  /// The GPU chip; empty: the target's default.
  std::string chip;
  /// Draw a random valid lowering config per op from the case's seed
  /// (--random-config) instead of the default strategy.
  bool randomConfig = false;
  /// sift's GPU pipelines: the lowering configs the ops get, in strategy
  /// selection's order, whatever the seed (`--config`, a lowering record:
  /// KeptCompile.h); empty: drawn or default.
  std::vector<std::string> loweringConfigs;
  /// IREE's pipelines: the front end every case is spelled in; none: one
  /// drawn per case from its seed among those that can spell it (--frontend).
  std::optional<gen::FrontEnd> frontEnd;
  /// IREE: the open root causes' steering rules a campaign applies (none
  /// with --explore-known or --known=none; IreeSteering.h).
  std::shared_ptr<const std::vector<SteerRule>> steering;
  /// IREE: spell every dimension static (a case folder steered that way:
  /// case.json's "static_dims").
  bool staticDims = false;
  /// Injected compiler faults.
  FaultSet faults;
  /// GPU pipelines: the artifact also carries the kernels lowered for the
  /// host, which the emu device runs (--device=emu).
  bool emuKernels = false;
  /// Where the GPU pipelines' runs execute (the campaign's --device; a case
  /// folder's "device"); none: nowhere, they get static verdicts only.
  std::optional<rt::DeviceKind> device;
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
  /// PipelineKind::File: the pipeline's full name (CaseOptions's).
  std::string filePipeline;
  TargetKind target = TargetKind::Host;
  oracle::Verdict verdict = oracle::Verdict::Pass;
  /// The step that decided a non-pass verdict: generate, parse, compile,
  /// reference, static (an oracle on the GPU binaries), run, compare.
  Stage stage;
  /// What went wrong, with the diagnostics or the first differing element.
  std::string detail;
  gen::Program program;
  /// The program's coverage tags (gen::coverageTags), kept in every result
  /// (an isolated pass returns no program) for the campaign's coverage.
  std::vector<std::string> coverage;
  /// The input form `mlir` is in (sift's ops for sift's compiler; IREE's
  /// drawn or chosen front end).
  gen::FrontEnd frontEnd = gen::FrontEnd::Sift;
  /// The program as the system was given it: MLIR text, or for a system
  /// described by a file the bytes of its exchange format's file, named
  /// `programFile` ("program.py", "model.onnx"; empty for MLIR).
  std::string mlir;
  std::string programFile;
  /// A system described by a file: its name, and its own command line on
  /// the kept program (the run step, or the compile step that failed).
  std::string systemName, systemCommand;
  std::vector<HostTensor> inputs, expected, actual;
  double compileSeconds = 0, runSeconds = 0;
  /// Where the compile's seconds went, by stage (sift's compiler only:
  /// CompileTimes); empty for other systems.
  std::map<std::string, double> compileStages;
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
  /// The version of the system that compiled the case, when it is not
  /// sift's own (IREE's "3.13.0rc20261016 @ 89ece87b...").
  std::string systemVersion;
  /// IREE's compiled module (.vmfb bytes) in place of `artifact`.
  std::vector<uint8_t> ireeModule;
  bool compiled = false;
};

/// A result for `seed` under `options`, nothing in it yet.
inline CaseResult blankCase(const CaseOptions &options, uint64_t seed) {
  CaseResult result;
  result.seed = seed;
  result.pipeline = options.pipeline;
  result.filePipeline = options.filePipeline;
  result.target = options.target;
  return result;
}

/// Records the verdict that decides `result`, the step (stage) that made
/// it and what went wrong.
inline CaseResult &decide(CaseResult &result, oracle::Verdict verdict,
                          Stage stage, std::string detail) {
  result.verdict = verdict;
  result.stage = std::move(stage);
  result.detail = std::move(detail);
  return result;
}

/// decide(), for steps that return whether the case goes on: false.
inline bool failWith(CaseResult &result, oracle::Verdict verdict,
                     Stage stage, std::string detail) {
  decide(result, verdict, std::move(stage), std::move(detail));
  return false;
}

/// How findings, summaries and case folders name a pipeline: its stable
/// name, or a file system's pipeline by its full name.
inline std::string pipelineName(PipelineKind pipeline,
                                const std::string &filePipeline) {
  return pipeline == PipelineKind::File ? filePipeline
                                        : std::string(toString(pipeline));
}
inline std::string pipelineName(const CaseResult &result) {
  return pipelineName(result.pipeline, result.filePipeline);
}
inline std::string pipelineName(const CaseOptions &options) {
  return pipelineName(options.pipeline, options.filePipeline);
}

/// Seconds since `start` (steady clock).
inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

} // namespace sift::harness
