//===- Session.cpp - One MLIR context for parsing and compiling -----------===//
//
// Diagnostics are captured per call: parsing uses a SourceMgr handler so
// every message carries the line and column of the text; compiling collects
// the passes' diagnostics with their locations.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/sift/Session.h"

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Target/RocdlTarget.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

using namespace mlir;

namespace sift::harness {

namespace {

/// Where this process's compiles leave a crash reproducer (a file in the
/// temporary folder named after the process).
std::string reproducerPath() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec)
    dir = "/tmp";
  return (dir / ("sift-reproducer-" + std::to_string(::getpid()) + ".mlir"))
      .string();
}

/// The reason of the last fatal error (llvm::report_fatal_error), kept for
/// a crash's detail; the handler prints it as LLVM's own does.
std::string &lastFatalError() {
  static std::string reason;
  return reason;
}

void recordFatalError(void *, const char *reason, bool) {
  // The first of a compile only: the same crash again, in the run that
  // makes the reproducer, says nothing new.
  if (lastFatalError().empty()) {
    lastFatalError() = reason;
    std::fprintf(stderr, "LLVM ERROR: %s\n", reason);
    std::fflush(stderr);
    // The stack, for the finding's stderr.txt.
    llvm::sys::PrintStackTrace(llvm::errs());
    llvm::errs().flush();
  }
  // Inside a pass run under crash recovery: abort, which it catches (LLVM
  // would exit(1) for some fatal errors, ending the whole process).
  if (llvm::CrashRecoveryContext::GetCurrent())
    std::abort();
}

/// Tells a crashed pass from a failed one: a pass that fails ends with
/// runAfterPassFailed, one that crashes never ends (crash recovery jumps
/// out of it).
class CrashWitness final : public PassInstrumentation {
public:
  explicit CrashWitness(int &unfinished) : unfinished_(unfinished) {}
  void runBeforePass(Pass *, Operation *) override { ++unfinished_; }
  void runAfterPass(Pass *, Operation *) override { --unfinished_; }
  void runAfterPassFailed(Pass *, Operation *) override { --unfinished_; }

private:
  int &unfinished_;
};

} // namespace

Session::Session() {
  static bool installed =
      (llvm::install_fatal_error_handler(recordFatalError), true);
  (void)installed;
  DialectRegistry registry;
  // First: the first model attached to #rocdl.target wins (sift's links
  // HSACO in process).
  registerGpuTargetModels(registry);
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
  lastCrash_.reset();
  lastReproducer_.clear();
  lastFailedPass_.clear();
  lastFatalError().clear();
  // Passes begun and not ended: more than zero after a failed run means
  // one crashed (and crash recovery caught it).
  int unfinished = 0;
  CompileOptions withWitness = options;
  // A pass that crashes is recovered, and leaves the IR it ran on here.
  withWitness.crashReproducer = reproducerPath();
  std::error_code ec;
  std::filesystem::remove(withWitness.crashReproducer, ec);
  withWitness.instrument = [&](PassManager &pm) {
    if (options.instrument)
      options.instrument(pm);
    pm.addInstrumentation(std::make_unique<CrashWitness>(unfinished));
  };
  ScopedDiagnosticHandler handler(context_.get(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    // The crash reproducer's own messages: not the pass's error.
    std::string text = diag.str();
    if (text.find("A signal was caught while processing") !=
            std::string::npos ||
        text.find("Failures have been detected while processing an MLIR "
                  "pass pipeline") != std::string::npos)
      return success();
    if (firstMessage.empty())
      firstMessage = diag.str();
    llvm::raw_string_ostream os(diagnostics);
    os << diag.getLocation() << ": error: " << diag.str() << "\n";
    return success();
  });
  bool compiled =
      succeeded(sift::compile(module, withWitness, stage, output, error));
  if (!compiled)
    if (std::ifstream in(withWitness.crashReproducer); in)
      lastReproducer_.assign(std::istreambuf_iterator<char>(in),
                             std::istreambuf_iterator<char>());
  std::filesystem::remove(withWitness.crashReproducer, ec);
  if (compiled)
    return true;
  lastFailedPass_ = output.failedPass;
  if (unfinished > 0 || !lastFatalError().empty())
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
