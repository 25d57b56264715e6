//===- Session.cpp - One MLIR context for parsing and compiling -----------===//
//
// Diagnostics are captured per call: parsing uses a SourceMgr handler so
// every message carries the line and column of the text; compiling collects
// the passes' diagnostics with their locations.
//
//===----------------------------------------------------------------------===//

#include "harness/Session.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

using namespace mlir;

namespace sift::harness {

namespace {

/// The reason of the last fatal error (llvm::report_fatal_error), kept for
/// a crash's detail; the handler prints it as LLVM's own does, and LLVM
/// aborts after it returns (an abort a crash-recovery context catches).
std::string &lastFatalError() {
  static std::string reason;
  return reason;
}

void recordFatalError(void *, const char *reason, bool) {
  lastFatalError() = reason;
  std::fprintf(stderr, "LLVM ERROR: %s\n", reason);
  std::fflush(stderr);
}

} // namespace

Session::Session() {
  static bool installed =
      (llvm::install_fatal_error_handler(recordFatalError), true);
  (void)installed;
  DialectRegistry registry;
  registerSiftDialects(registry);
  context_ =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context_->loadAllAvailableDialects();
}

Session::~Session() = default;

OwningOpRef<ModuleOp> Session::parse(const std::string &text,
                                     const std::string &bufferName,
                                     std::string &error) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, context_.get(), os);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, context_.get());
  if (!module) {
    error = diagnostics.empty() ? bufferName + ": cannot parse the module"
                                : diagnostics;
    while (!error.empty() && error.back() == '\n')
      error.pop_back();
    return nullptr;
  }
  return module;
}

bool Session::compile(ModuleOp module, const CompileOptions &options,
                      EmitStage stage, CompileOutput &output,
                      std::string &error) {
  std::string diagnostics, firstMessage;
  bool caughtSignal = false;
  lastCrash_.reset();
  lastFatalError().clear();
  ScopedDiagnosticHandler handler(context_.get(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    // MLIR's crash recovery: a pass that crashed is reported by a signal
    // message, or only by the closing "Failures have been detected" with
    // no error of the pass's own before it; a pass that failed by itself
    // emitted its error first.
    std::string text = diag.str();
    if (text.find("A signal was caught while processing") !=
        std::string::npos) {
      caughtSignal = true;
      return success();
    }
    if (text.find("Failures have been detected while processing an MLIR "
                  "pass pipeline") != std::string::npos) {
      caughtSignal |= firstMessage.empty();
      return success();
    }
    if (firstMessage.empty())
      firstMessage = diag.str();
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": error: " << diag.str() << "\n";
    return success();
  });
  if (succeeded(sift::compile(module, options, stage, output, error)))
    return true;
  if (caughtSignal || !lastFatalError().empty())
    lastCrash_ = lastFatalError().empty()
                     ? std::string("a pass crashed (a signal was caught)")
                     : "LLVM ERROR: " + lastFatalError();
  // The first line names what failed first (signatures use it); every
  // diagnostic follows with its location.
  if (!firstMessage.empty())
    error += ": " + firstMessage.substr(0, firstMessage.find('\n'));
  if (!diagnostics.empty())
    error += "\n" + diagnostics;
  while (!error.empty() && error.back() == '\n')
    error.pop_back();
  return false;
}

} // namespace sift::harness
