//===- Compile.h - From a sift program module to an artifact ----*- C++ -*-===//
//
// The compiler's one entry point: run a pipeline on a module and stop at a
// stage (the final MLIR, LLVM IR, or a complete runtime artifact with the
// executables and the dispatch plan).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Target/HostTarget.h"
#include "runtime/Artifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sift {

/// Where `compile` stops.
enum class EmitStage { Mlir, Llvm, Ptx, Artifact };

/// Stable names: "mlir", "llvm", "ptx", "artifact".
std::string_view toString(EmitStage stage);
std::optional<EmitStage> parseEmitStage(std::string_view name);

/// Wall seconds of compiles by stage, summed: each pass under its argument
/// ("sift-lower-to-loops"; its own time, without the passes nested in it,
/// the verifier after it included), "instrumentation" (what runs around the
/// passes: the caller's oracles and the crash reproducer's copy of the IR),
/// "host-object" and "emu-object" (the host's code generator and linker),
/// "emu-lowering" (the emu kernels' host tail) and "other" (the rest of
/// `compile`: copies of the module, the plan, the artifact).
using CompileTimes = std::map<std::string, double>;

/// Everything that steers one compile.
struct CompileOptions {
  PipelineOptions pipeline;
  HostTargetOptions host;
  /// Verify the IR after every pass: a pass that breaks the IR is a
  /// compile error naming it, never a silent wrong result downstream.
  bool verifyEachPass = true;
  /// Called with the pass manager before it runs (to add instrumentation,
  /// such as the harness's per-pass static oracles).
  std::function<void(mlir::PassManager &)> instrument;
  /// When set, a pass that crashes (a signal, an abort, a fatal error) is
  /// recovered as a failure, and after any failure the pipeline runs again
  /// under MLIR's crash reproducer in local mode, which writes the IR the
  /// failing pass ran on, with the pass and its options, here for
  /// `sift-opt --run-reproducer`. A failure that does not come again the
  /// second time (a race in the compiler) leaves no file.
  std::string crashReproducer;
  /// GPU pipelines, --emit=artifact: the artifact also carries the kernels
  /// lowered for the host (an emu-so executable, which the emu device runs),
  /// made from the same module as the PTX or HSACO up to the GPU tail.
  bool emuKernels = false;
  /// When set, each compile adds its stages' wall seconds here.
  CompileTimes *times = nullptr;
};

/// What a compile produced, depending on the stage.
struct CompileOutput {
  /// EmitStage::Mlir: the module after the pipeline; EmitStage::Llvm: the
  /// optimized LLVM IR (host); EmitStage::Ptx: the PTX of every executable.
  std::string text;
  /// EmitStage::Artifact: executables and plan (no inputs or expectations).
  rt::Artifact artifact;
  /// After a failed pipeline: the argument of the pass that failed or
  /// crashed ("sift-lower-to-loops").
  std::string failedPass;
};

/// Runs the pipeline of `options` on `module` (changed in place) and stops at
/// `stage`. Pass failures emit MLIR diagnostics to the context's handler;
/// `error` gets a one-line summary naming the stage that failed.
mlir::LogicalResult compile(mlir::ModuleOp module,
                            const CompileOptions &options, EmitStage stage,
                            CompileOutput &output, std::string &error);

/// Reads the `sift.dispatch_plan` attribute that the pipeline recorded.
/// `executableNames` maps a dispatch's `executable` name to its index (GPU
/// pipelines); without a name a dispatch uses executable 0 (host).
std::optional<rt::Plan>
extractDispatchPlan(mlir::ModuleOp module,
                    const std::vector<std::string> &executableNames,
                    std::string &error);

/// The folder holding llvm/bin/ld.lld that links HSACO: $SIFT_AMDGPU_TOOLKIT,
/// else the one the build prepared.
std::string defaultAmdgpuToolkit();

/// CUDA's libdevice.10.bc for nvptx kernels: $SIFT_LIBDEVICE, else the one
/// found at configure time (may be empty: math calls stay unresolved).
std::string defaultLibdevice();

} // namespace sift
