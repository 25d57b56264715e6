//===- CaseRunner.cpp - One fuzz case from seed to verdict ----------------===//
//
// Verdicts by step: an invalid model, unparsable text or a failing reference
// is `gen-invalid` (a generator bug, not a compiler finding); a pipeline
// failure is `compile-error`; a runtime failure is `runtime-error`; outputs
// that differ from the reference are `mismatch`.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseRunner.h"
#include "harness/case/Isolation.h"

#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "oracles/Compare.h"
#include "oracles/Reference.h"
#include "oracles/ir/StageChecks.h"
#include "oracles/static/BinaryChecks.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "runtime/Runner.h"

#include <chrono>

namespace sift::harness {

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Forwards to a StageCheckInstrumentation the caller owns (the pass manager
/// owns and destroys its instrumentations; the findings must outlive it).
class ForwardInstrumentation final : public mlir::PassInstrumentation {
public:
  /// `announce` is told the first finding as soon as a pass makes it.
  ForwardInstrumentation(oracle::StageCheckInstrumentation &target,
                         std::function<void(const oracle::StageFinding &)>
                             announce)
      : target_(target), announce_(std::move(announce)) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    target_.runBeforePass(pass, op);
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    target_.runAfterPass(pass, op);
    if (announced_ || !announce_)
      return;
    std::vector<oracle::StageFinding> findings = target_.findings();
    if (findings.empty())
      return;
    announced_ = true;
    announce_(findings.front());
  }

private:
  oracle::StageCheckInstrumentation &target_;
  std::function<void(const oracle::StageFinding &)> announce_;
  bool announced_ = false;
};

/// The verdict, stage and detail of the IR findings: the first decides;
/// the others follow in the detail.
EarlyFinding describeIrFindings(
    const std::vector<oracle::StageFinding> &findings) {
  const oracle::StageFinding &first = findings.front();
  // The first line is stable across cases (signatures use it); kernel names
  // and the other findings follow.
  std::string detail = first.finding.message + " (introduced by " +
                       first.pass + ")\nkernel " + first.finding.kernel;
  for (size_t i = 1; i < findings.size(); ++i)
    detail += "\nalso: " + findings[i].finding.message + " (" +
              findings[i].pass + ", kernel " + findings[i].finding.kernel +
              ")";
  return {first.finding.verdict, "static:" + first.pass, detail};
}

/// Tells `onPhase` each pass the compile enters ("compile:<pass>").
class PhaseInstrumentation final : public mlir::PassInstrumentation {
public:
  explicit PhaseInstrumentation(std::function<void(const char *)> onPhase)
      : onPhase_(std::move(onPhase)) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *) override {
    llvm::StringRef argument = pass->getArgument();
    if (argument.empty())
      return; // pass-manager adaptors
    std::string phase = "compile:" + argument.str();
    onPhase_(phase.c_str());
  }

private:
  std::function<void(const char *)> onPhase_;
};

CaseResult &fail(CaseResult &result, oracle::Verdict verdict, std::string stage,
                 std::string detail) {
  result.verdict = verdict;
  result.stage = std::move(stage);
  result.detail = std::move(detail);
  return result;
}

/// A result for `seed` under `options`, nothing in it yet.
CaseResult blankCase(const CaseOptions &options, uint64_t seed) {
  CaseResult result;
  result.seed = seed;
  result.pipeline = options.pipeline;
  result.target = options.target;
  return result;
}

/// fail() for compileAndCheck: records the verdict, returns false.
bool failedWith(CaseResult &result, oracle::Verdict verdict,
                std::string stage, std::string detail) {
  fail(result, verdict, std::move(stage), std::move(detail));
  return false;
}

/// Compiles `module` for `options` and, on GPU targets, puts it through
/// the static oracles (after every pass, then on the binaries). False when
/// that decided `result`'s verdict (a compile error or crash, a static
/// finding); true when the case compiled clean (`output` holds it).
bool compileAndCheck(Session &session, mlir::ModuleOp module,
                     const CaseOptions &options, uint64_t seed,
                     CaseResult &result, CompileOutput &output) {
  std::string error;
  if (options.onPhase)
    options.onPhase("compile");
  auto start = std::chrono::steady_clock::now();
  CompileOptions compileOptions;
  compileOptions.pipeline.kind = options.pipeline;
  compileOptions.pipeline.target = options.target;
  compileOptions.pipeline.chip = options.chip;
  compileOptions.pipeline.faults = options.faults;
  if (options.randomConfig)
    compileOptions.pipeline.randomConfigSeed =
        static_cast<int64_t>(seed & 0x7fffffffffffffffULL);
  // GPU pipelines: the IR-level oracles run after every pass, so a finding
  // names the pass that introduced it.
  bool gpu = options.target != TargetKind::Host;
  std::string chip = options.chip.empty()
                         ? std::string(defaultChip(options.target))
                         : options.chip;
  oracle::StageCheckInstrumentation stageChecks(
      oracle::workgroupMemoryBudget(chip));
  compileOptions.instrument = [&](mlir::PassManager &pm) {
    // An isolated worker announces the first finding at once: if a later
    // pass kills it, that finding still decides the verdict.
    auto announce = [&](const oracle::StageFinding &finding) {
      if (options.onPhase)
        options.onPhase(
            earlyFindingPhase(describeIrFindings({finding})).c_str());
    };
    if (gpu)
      pm.addInstrumentation(
          std::make_unique<ForwardInstrumentation>(stageChecks, announce));
    if (options.onPhase)
      pm.addInstrumentation(
          std::make_unique<PhaseInstrumentation>(options.onPhase));
  };
  bool compiled = session.compile(module, compileOptions, EmitStage::Artifact,
                                  output, error);
  result.compileSeconds = secondsSince(start);
  // Out of the passes: what follows (the oracles on the binaries) is not
  // the last pass's doing.
  if (options.onPhase)
    options.onPhase("compile");
  if (!compiled) {
    result.reproducer = session.lastReproducer();
    std::string pass = reproducerPass(result.reproducer);
    std::string stage = pass.empty() ? "compile" : "compile:" + pass;
    oracle::Verdict verdict = session.lastCrash()
                                  ? oracle::Verdict::CompileCrash
                                  : oracle::Verdict::CompileError;
    std::string detail =
        session.lastCrash() ? *session.lastCrash() + "\n" + error : error;
    // A static finding an earlier pass made comes first: it decides, and
    // the failure it may have caused follows in the detail.
    if (std::vector<oracle::StageFinding> ir = stageChecks.findings();
        gpu && !ir.empty()) {
      EarlyFinding first = describeIrFindings(ir);
      return failedWith(result, first.verdict, first.stage,
                        first.detail + "\nthen the compile failed: " +
                            std::string(oracle::toString(verdict)) + " at " +
                            stage + ": " + detail);
    }
    return failedWith(result, verdict, stage, detail);
  }
  result.compiled = true;
  result.artifact = output.artifact;

  if (gpu) {
    // IR findings first (they name their pass), then the binaries'.
    std::vector<oracle::StageFinding> irFindings = stageChecks.findings();
    if (!irFindings.empty()) {
      EarlyFinding first = describeIrFindings(irFindings);
      return failedWith(result, first.verdict, first.stage, first.detail);
    }
    // Static oracles on every GPU binary; the first finding decides.
    for (const rt::Executable &executable : output.artifact.executables) {
      std::string unreadable;
      std::vector<oracle::StaticFinding> findings =
          oracle::checkExecutable(executable, unreadable);
      if (!unreadable.empty())
        return failedWith(result, oracle::Verdict::CompileError, "serialize",
                    executable.target + " binary is unreadable: " + unreadable);
      if (!findings.empty()) {
        std::string detail = findings.front().message;
        if (findings.size() > 1)
          detail += " (and " + std::to_string(findings.size() - 1) + " more)";
        return failedWith(result, findings.front().verdict, "static", detail);
      }
    }
  }
  return true;
}

} // namespace

CaseResult runGeneratedCase(Session &session, rt::Device &device,
                            const CaseOptions &options, uint64_t seed) {
  gen::Program program = gen::generateProgram(options.policy, seed);
  std::vector<HostTensor> inputs =
      gen::generateInputs(program, options.inputs, seed);
  return runProgramCase(session, device, options, std::move(program),
                        std::move(inputs), seed);
}

CaseResult runProgramCase(Session &session, rt::Device &device,
                          const CaseOptions &options, gen::Program program,
                          std::vector<HostTensor> inputs, uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.program = std::move(program);
  result.inputs = std::move(inputs);
  if (std::string problem = gen::validate(result.program); !problem.empty())
    return fail(result, oracle::Verdict::GenInvalid, "generate", problem);
  result.mlir = gen::emitMlir(result.program);

  std::string error;
  auto module = session.parse(result.mlir,
                              "case-" + std::to_string(seed) + ".mlir", error);
  if (!module)
    return fail(result, oracle::Verdict::GenInvalid, "parse", error);

  auto reference = oracle::evaluate(result.program, result.inputs);
  if (!reference.ok())
    return fail(result, oracle::Verdict::GenInvalid, "reference",
                reference.message());
  result.expected = std::move(reference.value());

  CompileOutput output;
  if (!compileAndCheck(session, *module, options, seed, result, output))
    return result;
  bool gpu = options.target != TargetKind::Host;
  if (gpu && !deviceRunsTarget(device, options.target))
    return result;

  // A GPU runs each case twice (a race shows as a second result that
  // differs); the cpu device once.
  int runs = gpu ? 2 : 1;
  if (options.onPhase)
    options.onPhase("run");
  auto start = std::chrono::steady_clock::now();
  result.ran = true;
  for (int r = 0; r < runs; ++r) {
    // The second run allocates queue-ordered and exports every output as
    // DLPack (the export oracle).
    auto actual = rt::runPlan({&device}, output.artifact, result.inputs,
                              rt::repeatedRunOptions(r));
    if (!actual.ok()) {
      result.runSeconds = secondsSince(start);
      return fail(result, oracle::Verdict::RuntimeError, "run",
                  actual.message());
    }
    if (r == 0) {
      result.actual = std::move(actual.value());
      if (auto mismatch = oracle::compareOutputs(
              result.program, result.expected, result.actual)) {
        result.runSeconds = secondsSince(start);
        return fail(result, oracle::Verdict::Mismatch, "compare",
                    mismatch->message);
      }
      continue;
    }
    if (auto differ = oracle::compareOutputs(
            std::vector<uint64_t>(result.actual.size(), 0), result.actual,
            *actual)) {
      result.runSeconds = secondsSince(start);
      return fail(result, oracle::Verdict::Nondeterministic, "compare",
                  "run " + std::to_string(r + 1) +
                      " differs from run 1: " + differ->message);
    }
  }
  result.runSeconds = secondsSince(start);
  return result;
}

CaseResult uncompiledCase(const CaseOptions &options, uint64_t seed,
                          gen::Program program,
                          std::vector<HostTensor> inputs) {
  CaseResult result = blankCase(options, seed);
  result.program = std::move(program);
  result.inputs = std::move(inputs);
  result.mlir = gen::emitMlir(result.program);
  if (auto expected = oracle::evaluate(result.program, result.inputs);
      expected.ok())
    result.expected = std::move(*expected);
  return result;
}

CaseResult runMlirCase(Session &session, const CaseOptions &options,
                       const std::string &text, const std::string &name,
                       uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.mlir = text;
  std::string error;
  auto module = session.parse(text, name, error);
  if (!module)
    return fail(result, oracle::Verdict::GenInvalid, "parse", error);
  CompileOutput output;
  compileAndCheck(session, *module, options, seed, result, output);
  return result;
}

std::string reproducerPass(const std::string &reproducer) {
  const std::string key = "pipeline: \"";
  size_t start = reproducer.find(key);
  if (start == std::string::npos)
    return "";
  // The pipeline string, with its escapes undone and the passes' options
  // ({...}, which may hold parentheses and quotes) left out.
  std::string pipeline;
  int braces = 0;
  for (size_t i = start + key.size(); i < reproducer.size(); ++i) {
    char c = reproducer[i];
    if (c == '\\' && i + 1 < reproducer.size()) {
      if (braces == 0)
        pipeline += reproducer[i + 1];
      ++i;
      continue;
    }
    if (c == '"' && braces == 0)
      break;
    if (c == '{')
      ++braces;
    else if (c == '}')
      braces = braces > 0 ? braces - 1 : 0;
    else if (braces == 0)
      pipeline += c;
  }
  // The innermost element: after the last '(', before the closing ones.
  size_t open = pipeline.rfind('(');
  std::string pass =
      open == std::string::npos ? pipeline : pipeline.substr(open + 1);
  return pass.substr(0, pass.find_first_of("),"));
}

bool deviceRunsTarget(const rt::Device &device, TargetKind target) {
  switch (device.kind()) {
  case rt::DeviceKind::Cpu: return target == TargetKind::Host;
  case rt::DeviceKind::Cuda: return target == TargetKind::Nvptx;
  case rt::DeviceKind::Hip: return target == TargetKind::Amdgpu;
  }
  return false;
}

} // namespace sift::harness
