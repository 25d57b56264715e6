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

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace sift::harness {

Session::Session() {
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
  ScopedDiagnosticHandler handler(context_.get(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (firstMessage.empty())
      firstMessage = diag.str();
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": error: " << diag.str() << "\n";
    return success();
  });
  if (succeeded(sift::compile(module, options, stage, output, error)))
    return true;
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
