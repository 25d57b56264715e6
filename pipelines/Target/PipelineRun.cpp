//===- PipelineRun.cpp - Running a compile's pass managers ----------------===//

#include "pipelines/Target/PipelineRun.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"

#include "llvm/Support/CrashRecoveryContext.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace mlir;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

/// Times every pass for CompileTimes. Two hooks share one stack: the outer
/// one is added before every other instrumentation (its before-hook runs
/// first, its after-hook last) and the inner one after them, so the inner
/// pair brackets only the pass and what lies between the pairs is the
/// instrumentation's. A pass's own time leaves out the passes nested in it.
class sift::PassClock {
public:
  enum Level { Outer, Inner, Levels };

  explicit PassClock(sift::CompileTimes &times) : times_(times) {}

  std::unique_ptr<PassInstrumentation> hook(Level level) {
    return std::make_unique<Hook>(*this, level);
  }

private:
  struct Frame {
    Clock::time_point start[Levels], end[Levels];
    double nested = 0; ///< the outer seconds of the passes nested in it
  };

  class Hook final : public PassInstrumentation {
  public:
    Hook(PassClock &clock, Level level) : clock_(clock), level_(level) {}
    void runBeforePass(Pass *, Operation *) override { clock_.begin(level_); }
    void runAfterPass(Pass *pass, Operation *) override {
      clock_.end(level_, pass);
    }
    void runAfterPassFailed(Pass *pass, Operation *) override {
      clock_.end(level_, pass);
    }

  private:
    PassClock &clock_;
    Level level_;
  };

  void begin(Level level) {
    if (level == Outer)
      stack_.emplace_back();
    if (!stack_.empty())
      stack_.back().start[level] = Clock::now();
  }

  void end(Level level, Pass *pass) {
    if (stack_.empty())
      return;
    stack_.back().end[level] = Clock::now();
    if (level != Outer)
      return;
    Frame frame = stack_.back();
    stack_.pop_back();
    auto span = [&](Level l) {
      return std::chrono::duration<double>(frame.end[l] - frame.start[l])
          .count();
    };
    double outer = span(Outer), inner = span(Inner);
    if (!stack_.empty())
      stack_.back().nested += outer;
    StringRef argument = pass->getArgument();
    times_[argument.empty() ? "pass-manager" : argument.str()] +=
        std::max(0.0, inner - frame.nested);
    times_["instrumentation"] += std::max(0.0, outer - inner);
  }

  sift::CompileTimes &times_;
  std::vector<Frame> stack_;
};

namespace {

/// The pass a failed run failed in: the innermost one that failed, else
/// the innermost one that began and never ended (it crashed).
class FailedPass final : public PassInstrumentation {
public:
  void runBeforePass(Pass *pass, Operation *) override {
    open_.push_back(pass);
  }
  void runAfterPass(Pass *, Operation *) override { open_.pop_back(); }
  void runAfterPassFailed(Pass *pass, Operation *) override {
    if (failed_.empty())
      failed_ = pass->getArgument().str();
    open_.pop_back();
  }
  std::string name() const {
    if (!failed_.empty() || open_.empty())
      return failed_;
    return open_.back()->getArgument().str();
  }

private:
  std::vector<Pass *> open_;
  std::string failed_;
};

/// Runs `pm` on `module`; with `recover`, under crash recovery: a pass that
/// crashes (a signal, an abort, a fatal error) fails the run instead of
/// ending the process. MLIR's crash reproducer recovers too, but copies
/// the IR before every pass (15 % of a campaign's compile time), so the
/// reproducer is made only after a failure (writeReproducer).
LogicalResult runPasses(PassManager &pm, ModuleOp module, bool recover) {
  if (!recover)
    return pm.run(module);
  llvm::CrashRecoveryContext::Enable();
  LogicalResult result = failure();
  llvm::CrashRecoveryContext context;
  if (!context.RunSafelyOnThread([&] { result = pm.run(module); }))
    return failure();
  return result;
}

/// After a failed compile: the pipeline again, on `original` (the module
/// as the compile got it), under MLIR's crash reproducer in local mode,
/// which writes the IR the failing pass ran on, with the pass and its
/// options, to `path`. Quiet: the first run gave the diagnostics. A failure
/// that does not come again (a race in the compiler) writes nothing.
void writeReproducer(ModuleOp original, sift::PipelineOptions pipeline,
                     bool emu, bool verify, const std::string &path) {
  MLIRContext *context = original.getContext();
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  PassManager pm(context);
  pm.enableVerifier(verify);
  pipeline.withoutBinary = emu;
  std::string error;
  if (failed(sift::addPipeline(pm, pipeline, error)))
    return;
  pm.enableCrashReproducerGeneration(path, /*genLocalReproducer=*/true);
  if (failed(pm.run(original)) || !emu)
    return;
  PassManager binary(context);
  binary.enableVerifier(verify);
  sift::addGpuSerialization(binary, pipeline);
  binary.enableCrashReproducerGeneration(path, /*genLocalReproducer=*/true);
  (void)binary.run(original);
}

} // namespace

sift::PipelineRun::PipelineRun(ModuleOp module, const CompileOptions &options,
                               const PipelineOptions &pipeline, bool emu,
                               CompileTimes *times, CompileOutput &output,
                               std::string &error)
    : module_(module), options_(options), pipeline_(pipeline), emu_(emu),
      times_(times), output_(output), error_(error),
      recover_(!options.crashReproducer.empty()) {
  if (times)
    clock_ = std::make_unique<PassClock>(*times);
  // The module as given, for the reproducer of a failure.
  if (recover_)
    original_ = module.clone();
}

sift::PipelineRun::~PipelineRun() = default;

bool sift::PipelineRun::operator()(PassManager &pm) {
  if (clock_)
    pm.addInstrumentation(clock_->hook(PassClock::Outer));
  if (options_.instrument)
    options_.instrument(pm);
  auto witness = std::make_unique<FailedPass>();
  FailedPass *failedPass = witness.get();
  pm.addInstrumentation(std::move(witness));
  if (clock_)
    pm.addInstrumentation(clock_->hook(PassClock::Inner));
  if (succeeded(runPasses(pm, module_, recover_)))
    return true;
  output_.failedPass = failedPass->name();
  error_ = "the " + std::string(toString(options_.pipeline.kind)) +
           " pipeline failed";
  if (recover_) {
    Clock::time_point start = Clock::now();
    writeReproducer(*original_, pipeline_, emu_, options_.verifyEachPass,
                    options_.crashReproducer);
    if (times_)
      (*times_)["reproducer"] += secondsSince(start);
  }
  return false;
}
