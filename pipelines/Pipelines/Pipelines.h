//===- Pipelines.h - The sift pipelines as C++ recipes ----------*- C++ -*-===//
//
// Each pipeline is a function over typed options that adds numbered steps to
// a pass manager. The kind is an enum with one to/from-name function pair;
// textual registration (`--sift-cpu-pipeline`) exists only for lit and
// sift-opt users.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Pass/PassManager.h"

#include <optional>
#include <string>
#include <string_view>

namespace sift {

/// The pipelines sift compiles with.
enum class PipelineKind { Cpu, TileAndFuse, Distribute };

/// Every pipeline kind, in enum order.
inline constexpr PipelineKind kAllPipelineKinds[] = {
    PipelineKind::Cpu, PipelineKind::TileAndFuse, PipelineKind::Distribute};

/// Stable names: "cpu", "tileandfuse", "distribute".
std::string_view toString(PipelineKind kind);
std::optional<PipelineKind> parsePipelineKind(std::string_view name);

/// Options every pipeline reads.
struct PipelineOptions {
  PipelineKind kind = PipelineKind::Cpu;
  /// The function the runtime dispatches.
  std::string entry = "main";
};

/// The cpu pipeline, from tensors to the LLVM dialect with the host ABI.
void addCpuPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Adds the pipeline `options.kind` names; fails for a pipeline that is not
/// built yet, with a message saying so.
mlir::LogicalResult addPipeline(mlir::OpPassManager &pm,
                                const PipelineOptions &options,
                                std::string &error);

/// Registers `--sift-cpu-pipeline` for sift-opt.
void registerSiftPipelines();

} // namespace sift
