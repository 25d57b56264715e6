//===- harness/sut/sift/SiftCompiler.cpp - sift's compiler under test -----===//
//
// Compile: parse the program's sift MLIR, run the pipeline under MLIR's
// crash reproducer with the IR oracles after every pass (GPU targets; the
// first finding is announced at once, so a later crash cannot lose it),
// then the binary oracles on every GPU binary. Run: the artifact on
// sift's runtime.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/sift/SiftCompiler.h"
#include "harness/sut/sift/KeptCompile.h"
#include "pipelines/Transforms/Passes.h"
#include "support/FileIO.h"

#include <filesystem>

#include "harness/Version.h"
#include "harness/case/Isolation.h"
#include "oracles/ir/StageChecks.h"
#include "oracles/static/BinaryChecks.h"
#include "runtime/Runner.h"
#include "runtime/emu/EmuDevice.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <chrono>

namespace sift::harness {

namespace {

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
  return {first.finding.verdict, Stage(Step::Static, first.pass), detail};
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

/// Instrumentation a kept compile adds first, told whether a static
/// finding has been made yet.
using ExtraInstrumentation = std::function<void(
    mlir::PassManager &, const std::function<bool()> &findingSeen)>;

/// The pipeline options of a case.
CompileOptions compileOptionsFor(const CaseOptions &options, uint64_t seed) {
  CompileOptions compileOptions;
  compileOptions.pipeline.kind = options.pipeline;
  compileOptions.pipeline.target = options.target;
  compileOptions.pipeline.chip = options.chip;
  compileOptions.pipeline.faults = options.faults;
  compileOptions.emuKernels = options.emuKernels;
  if (options.randomConfig)
    compileOptions.pipeline.randomConfigSeed =
        static_cast<int64_t>(seed & 0x7fffffffffffffffULL);
  return compileOptions;
}

/// A failed compile's verdict: a compile crash or error at the pass that
/// failed, unless an earlier pass made a static finding, which decides (the
/// failure follows in the detail).
bool compileFailed(Session &session, const std::string &error,
                   const std::vector<oracle::StageFinding> &ir,
                   CaseResult &result) {
  result.reproducer = session.lastReproducer();
  Stage stage(Step::Compile, session.lastFailedPass());
  oracle::Verdict verdict = session.lastCrash() ? oracle::Verdict::CompileCrash
                                                : oracle::Verdict::CompileError;
  std::string detail =
      session.lastCrash() ? *session.lastCrash() + "\n" + error : error;
  if (ir.empty())
    return failWith(result, verdict, stage, detail);
  EarlyFinding first = describeIrFindings(ir);
  return failWith(result, first.verdict, first.stage,
                  first.detail + "\nthen the compile failed: " +
                      std::string(oracle::toString(verdict)) + " at " +
                      stage.text() +
                      ": " + detail);
}

/// The static oracles of a compiled GPU case: the IR findings first (they
/// name their pass), then each binary's; the first finding decides.
bool checkStatically(const std::vector<oracle::StageFinding> &ir,
                     const rt::Artifact &artifact, CaseResult &result) {
  if (!ir.empty()) {
    EarlyFinding first = describeIrFindings(ir);
    return failWith(result, first.verdict, first.stage, first.detail);
  }
  for (const rt::Executable &executable : artifact.executables) {
    std::string unreadable;
    std::vector<oracle::StaticFinding> findings =
        oracle::checkExecutable(executable, unreadable);
    if (!unreadable.empty())
      return failWith(result, oracle::Verdict::CompileError, Stage(Step::Serialize),
                      executable.target + " binary is unreadable: " +
                          unreadable);
    if (!findings.empty()) {
      std::string detail = findings.front().message;
      if (findings.size() > 1)
        detail += " (and " + std::to_string(findings.size() - 1) + " more)";
      return failWith(result, findings.front().verdict, Stage(Step::Static),
                      detail);
    }
  }
  return true;
}

/// Compiles `module` for `options` and, on GPU targets, puts it through
/// the static oracles (after every pass, then on the binaries). False when
/// that decided `result`'s verdict (a compile error or crash, a static
/// finding); true when the case compiled clean (`output` holds it).
bool compileAndCheck(Session &session, mlir::ModuleOp module,
                     const CaseOptions &options, uint64_t seed,
                     CaseResult &result, CompileOutput &output,
                     const ExtraInstrumentation &extra = nullptr) {
  if (options.onPhase)
    options.onPhase("compile");
  auto start = std::chrono::steady_clock::now();
  CompileOptions compileOptions = compileOptionsFor(options, seed);
  compileOptions.times = &result.compileStages;
  // GPU pipelines: the IR-level oracles run after every pass, so a finding
  // names the pass that introduced it.
  bool gpu = options.target != TargetKind::Host;
  oracle::StageCheckInstrumentation stageChecks(oracle::workgroupMemoryBudget(
      options.chip.empty() ? defaultChip(options.target)
                           : std::string_view(options.chip)));
  if (!options.loweringConfigs.empty())
    if (Status s = forceLoweringConfigs(module, options.loweringConfigs,
                                        "the given lowering configs");
        !s.ok())
      return failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Parse),
                      s.message());
  compileOptions.instrument = [&](mlir::PassManager &pm) {
    // First: their runAfterPass comes last, after the oracles'.
    if (extra)
      extra(pm, [&] { return !stageChecks.findings().empty(); });
    // An isolated worker announces the first finding at once: if a later
    // pass kills it, that finding still decides the verdict.
    auto announce = [&](const oracle::StageFinding &finding) {
      if (options.onPhase)
        options.onPhase(
            earlyFindingPhase(describeIrFindings({finding})).c_str());
    };
    if (gpu)
      oracle::forwardStageChecks(pm, stageChecks, announce);
    if (options.onPhase)
      pm.addInstrumentation(
          std::make_unique<PhaseInstrumentation>(options.onPhase));
  };
  std::string error;
  bool compiled = session.compile(module, compileOptions, EmitStage::Artifact,
                                  output, error);
  result.compileSeconds = secondsSince(start);
  // Out of the passes: what follows (the oracles on the binaries) is not
  // the last pass's doing.
  if (options.onPhase)
    options.onPhase("compile");
  std::vector<oracle::StageFinding> ir =
      gpu ? stageChecks.findings() : std::vector<oracle::StageFinding>();
  if (!compiled)
    return compileFailed(session, error, ir, result);
  if (mlir::ArrayAttr left =
          module->getAttrOfType<mlir::ArrayAttr>(kForcedConfigsAttr))
    return failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Parse),
                    "the given lowering configs name " +
                        std::to_string(left.size()) +
                        " more ops than the program has");
  result.compiled = true;
  result.artifact = output.artifact;
  if (!gpu)
    return true;
  // Timed too, though after compileSeconds: the oracles' own cost.
  auto checks = std::chrono::steady_clock::now();
  bool clean = checkStatically(ir, output.artifact, result);
  result.compileStages["binary-checks"] += secondsSince(checks);
  return clean;
}

} // namespace

SiftCompiler::SiftCompiler() = default;

std::string SiftCompiler::version() const { return siftVersion(); }
SiftCompiler::~SiftCompiler() = default;

bool SiftCompiler::compile(const CaseOptions &options, CaseResult &result) {
  std::string error;
  auto module = session_.parse(
      result.mlir, "case-" + std::to_string(result.seed) + ".mlir", error);
  if (!module)
    return failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Parse), error);
  CompileOutput output;
  return compileAndCheck(session_, *module, options, result.seed, result,
                         output);
}

Result<std::vector<HostTensor>> SiftCompiler::run(const CaseResult &compiled,
                                                  rt::Device &device,
                                                  int repetition) {
  // On the emu device each run draws its own workgroup and thread orders
  // from the case's seed; the first run has the access checks.
  if (device.kind() == rt::DeviceKind::Emu)
    static_cast<rt::EmuDevice &>(device).reseed(
        compiled.seed * 2 + static_cast<uint64_t>(repetition), repetition == 0);
  return rt::runPlan({&device}, compiled.artifact, compiled.inputs,
                     rt::repeatedRunOptions(repetition));
}

CaseResult SiftCompiler::compileKeeping(const CaseOptions &options,
                                        const std::string &text,
                                        uint64_t seed,
                                        const KeepRequest &keep) {
  CaseResult result = blankCase(options, seed);
  result.mlir = text;
  std::string error;
  auto module = session_.parse(text, "program.mlir", error);
  if (!module)
    return decide(result, oracle::Verdict::GenInvalid, Stage(Step::Parse),
                  error);
  std::vector<LoweringChoice> choices;
  auto extra = [&](mlir::PassManager &pm,
                   const std::function<bool()> &findingSeen) {
    pm.addInstrumentation(makeIrKeeper(keep, findingSeen));
    pm.addInstrumentation(makeLoweringRecorder(choices));
  };
  CompileOutput output;
  compileAndCheck(session_, *module, options, seed, result, output, extra);
  // The record as far as the compile got (a crash after selection keeps
  // the configs it crashed with).
  if (options.target != TargetKind::Host) {
    std::string record = loweringJson(options, seed, choices).dump(2) + "\n";
    (void)writeFileAtomic((std::filesystem::path(keep.folder) /
                           "lowering.json")
                              .string(),
                          reinterpret_cast<const uint8_t *>(record.data()),
                          record.size());
  }
  if (result.compiled)
    (void)writeExecutables(keep.folder, result.artifact);
  return result;
}

CaseResult SiftCompiler::compileText(const CaseOptions &options,
                                     const std::string &text,
                                     const std::string &name, uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.mlir = text;
  std::string error;
  auto module = session_.parse(text, name, error);
  if (!module)
    return decide(result, oracle::Verdict::GenInvalid, Stage(Step::Parse),
                  error);
  CompileOutput output;
  compileAndCheck(session_, *module, options, seed, result, output);
  return result;
}

} // namespace sift::harness
