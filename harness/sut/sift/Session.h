//===- Session.h - One MLIR context for parsing and compiling ---*- C++ -*-===//
//
// A harness process holds one Session: an MLIRContext with the sift dialect
// and everything the pipelines need, single-threaded for reproducibility.
// It parses program text with diagnostics captured as "FILE:LINE:COL: error:
// ..." strings, and compiles modules through pipelines/Target/Compile.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Target/Compile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <optional>
#include <string>

namespace sift::harness {

/// The MLIR half of the harness.
class Session {
public:
  Session();
  ~Session();

  mlir::MLIRContext &context() { return *context_; }

  /// Parses and verifies `text` as a module; `bufferName` names it in
  /// diagnostics. On failure returns null and sets `error` to the
  /// diagnostics, each with file, line and column.
  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &text,
                                          const std::string &bufferName,
                                          std::string &error);

  /// Compiles `module` (changed in place) and stops at `stage`, under
  /// MLIR's crash reproducer (local mode, in a temporary file): a pass that
  /// crashes is recovered. On failure `error` holds the summary and every
  /// diagnostic the passes emitted.
  bool compile(mlir::ModuleOp module, const CompileOptions &options,
               EmitStage stage, CompileOutput &output, std::string &error);

  /// After a failed compile: the fatal error or signal of a pass that
  /// crashed and was recovered, or nullopt when the compile failed without
  /// a crash.
  const std::optional<std::string> &lastCrash() const { return lastCrash_; }
  /// After a failed compile: MLIR's crash reproducer (the IR the crashing
  /// pass ran on, with the pipeline), or "" when none was written.
  const std::string &lastReproducer() const { return lastReproducer_; }
  /// After a failed compile: the pass that failed or crashed (also when a
  /// crash did not come again for the reproducer); "" when no pass failed.
  const std::string &lastFailedPass() const { return lastFailedPass_; }

private:
  std::unique_ptr<mlir::MLIRContext> context_;
  std::optional<std::string> lastCrash_;
  std::string lastReproducer_;
  std::string lastFailedPass_;
};

} // namespace sift::harness
