//===- PipelineRun.h - Running a compile's pass managers --------*- C++ -*-===//
//
// How `compile` runs its pass managers: each pass timed for CompileTimes,
// the caller's instrumentation, and (when a reproducer is asked for) crash
// recovery, with the reproducer made only after a failure by running the
// pipeline again under MLIR's crash reproducer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Target/Compile.h"

#include <memory>
#include <string>

namespace sift {

class PassClock;

/// Runs the pass managers of one compile on its module: with the pass
/// clock, the caller's instrumentation and, with a reproducer asked for,
/// crash recovery; after a failure it names the failing pass
/// (`output.failedPass`), sets `error` and writes the reproducer.
class PipelineRun {
public:
  PipelineRun(mlir::ModuleOp module, const CompileOptions &options,
              const PipelineOptions &pipeline, bool emu, CompileTimes *times,
              CompileOutput &output, std::string &error);
  ~PipelineRun();
  PipelineRun(const PipelineRun &) = delete;
  PipelineRun &operator=(const PipelineRun &) = delete;

  /// Runs `pm` on the module; false when it failed.
  bool operator()(mlir::PassManager &pm);

private:
  mlir::ModuleOp module_;
  const CompileOptions &options_;
  PipelineOptions pipeline_;
  bool emu_;
  CompileTimes *times_;
  CompileOutput &output_;
  std::string &error_;
  bool recover_;
  std::unique_ptr<PassClock> clock_;
  mlir::OwningOpRef<mlir::ModuleOp> original_;
};

} // namespace sift
