//===- CompileCommand.cpp - harness compile -------------------------------===//
//
// `harness compile` stops one program at a stage and writes text or an
// artifact. An artifact compiled with `--input` files carries them and,
// when the program is in the reference's reach (every op has a counterpart
// in the program model, see importModel), the reference's expected
// outputs: `sift-run` runs it on a GPU host without LLVM and compares. No
// output may replace the program or an input.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/ProgramCommand.h"
#include "harness/commands/Commands.h"
#include "support/Shape.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseRunner.h"
#include "harness/case/ModelImporter.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "generators/BenchPrograms.h"
#include "generators/InputGenerator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "oracles/Compare.h"
#include "oracles/Reference.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "runtime/ExportedCase.h"
#include "runtime/Runner.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "support/Text.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// What an artifact of a hand-written program carries beside its code: the
/// case facts and, where the reference reaches the program, the expected
/// outputs (from the model read back from the IR before the pipeline
/// changes it). False when the inputs do not fit @main (printed).
bool describeCarried(const CompileCommandOptions &options,
                     mlir::func::FuncOp main,
                     const std::vector<HostTensor> &inputs,
                     rt::ExportedCase &info,
                     std::vector<HostTensor> &expected) {
  if (!checkInputs("harness compile", options.program, main, options.inputs,
                   inputs))
    return false;
  info.program = fs::path(options.program).filename().string();
  info.pipeline = options.pipeline;
  info.target = options.target;
  info.chip = options.chip.empty() ? std::string(defaultChip(options.target))
                                   : options.chip;
  info.inputs = "given";
  info.faults = faultListText(options.faults);
  Result<gen::Program> model = importModel(main);
  Result<std::vector<HostTensor>> reference =
      model.ok() ? oracle::evaluate(*model, inputs)
                 : Result<std::vector<HostTensor>>(model.error());
  if (reference.ok()) {
    expected = std::move(*reference);
    info.tolerances = oracle::outputTolerances(*model);
  } else {
    info.hasReference = false;
    info.noReferenceNote = oneLine(reference.message());
  }
  return true;
}

/// Writes a compiled artifact (with what it carries, when runnable).
int writeArtifactOutput(const CompileCommandOptions &options,
                        rt::Artifact &artifact, bool runnable,
                        std::vector<HostTensor> inputs,
                        std::vector<HostTensor> expected,
                        const rt::ExportedCase &info) {
  if (runnable) {
    artifact.inputs = std::move(inputs);
    artifact.expected = std::move(expected);
    rt::setExportedCase(artifact, info);
  }
  // writeArtifact verifies first (inputs and expected outputs against the
  // plan) and writes atomically: a failure leaves no file.
  if (Status s = rt::writeArtifact(options.output, artifact); !s.ok()) {
    std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
    return kExitUsage;
  }
  if (runnable) {
    std::string carries =
        info.hasReference
            ? "the reference's " +
                  counted(artifact.expected.size(), "expected output")
            : "no reference outputs (" + info.noReferenceNote +
                  "): sift-run runs it without comparing";
    std::printf("%s: case %s, %s, %s\n", options.output.c_str(),
                info.name().c_str(),
                counted(artifact.inputs.size(), "input").c_str(),
                carries.c_str());
  }
  return kExitOk;
}

/// Writes a compiled program as a run of benchmark `options.bench`: no
/// inputs (sift-run --bench generates the benchmark's), refused when the
/// plan does not take them.
int writeBenchArtifact(const CompileCommandOptions &options,
                       rt::Artifact &artifact) {
  std::optional<gen::BenchProgram> bench = gen::findBenchProgram(options.bench);
  std::vector<HostTensor> inputs =
      gen::generateInputs(bench->program, bench->inputs, bench->seed);
  if (Status s = rt::checkInputs(artifact.plan, inputs); !s) {
    std::fprintf(stderr,
                 "harness compile: %s does not take the inputs of benchmark "
                 "%s: %s\n",
                 options.program.c_str(), bench->name.c_str(),
                 s.message().c_str());
    return kExitUsage;
  }
  rt::ExportedCase info;
  info.program = fs::path(options.program).filename().string();
  info.seed = bench->seed;
  info.pipeline = options.pipeline;
  info.target = options.target;
  info.chip = options.chip.empty() ? std::string(defaultChip(options.target))
                                   : options.chip;
  info.inputs = std::string(gen::toString(bench->inputs));
  info.tolerances = oracle::outputTolerances(bench->program);
  info.faults = faultListText(options.faults);
  info.bench = bench->name;
  rt::setExportedCase(artifact, info);
  if (Status s = rt::writeArtifact(options.output, artifact); !s.ok()) {
    std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::printf("%s: a run of benchmark %s (sift-run --bench times it)\n",
              options.output.c_str(), bench->name.c_str());
  return kExitOk;
}

/// Writes a text stage to -o (stdout for "-").
int writeTextOutput(const std::string &output, const std::string &text) {
  if (output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return kExitOk;
  }
  if (Status s = writeFileAtomic(
          output, reinterpret_cast<const uint8_t *>(text.data()), text.size());
      !s.ok()) {
    std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
    return kExitUsage;
  }
  return kExitOk;
}

/// The pipeline and device of `harness run` fit each other (printed when
/// not, with what to do instead).

} // namespace

int runCompileCommand(const CompileCommandOptions &options) {
  if (options.emit == EmitStage::Artifact && options.output == "-") {
    std::fprintf(stderr, "harness compile: --emit=artifact needs -o PATH\n");
    return kExitUsage;
  }
  if (!options.bench.empty() && !options.inputs.empty()) {
    std::fprintf(stderr, "harness compile: --bench and --input exclude each "
                         "other (a benchmark run takes the benchmark's "
                         "inputs)\n");
    return kExitUsage;
  }
  if (!options.inputs.empty() && options.emit != EmitStage::Artifact) {
    std::fprintf(stderr, "harness compile: --input needs --emit=artifact (the "
                         "artifact carries the inputs)\n");
    return kExitUsage;
  }
  // The output must not replace what the compile reads.
  if (options.output != "-") {
    std::string read = isSameFile(options.output, options.program)
                           ? "the program"
                           : std::string();
    for (size_t i = 0; i < options.inputs.size() && read.empty(); ++i)
      if (isSameFile(options.output, options.inputs[i]))
        read = "--input #" + std::to_string(i + 1);
    if (!read.empty()) {
      std::fprintf(stderr,
                   "harness compile: -o %s is %s: writing the output there "
                   "would destroy it\n",
                   options.output.c_str(), read.c_str());
      return kExitUsage;
    }
  }
  Session session;
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.target = options.target;
  pipeline.chip = options.chip;
  pipeline.faults = options.faults;
  pipeline.randomConfigSeed = options.randomConfigSeed;
  if (!checkPipelineTarget(pipeline))
    return kExitUsage;
  std::vector<HostTensor> inputs;
  if (!readInputFiles("harness compile", options.inputs, inputs))
    return kExitUsage;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadProgram(session, options.program);
  if (!module)
    return kExitUsage;
  auto main = module->lookupSymbol<mlir::func::FuncOp>("main");
  // An artifact that runs as it is: with inputs, or for a program that
  // takes none.
  bool runnable = options.emit == EmitStage::Artifact &&
                  (!options.inputs.empty() || main.getNumArguments() == 0);
  rt::ExportedCase info;
  std::vector<HostTensor> expected;
  if (runnable && !describeCarried(options, main, inputs, info, expected))
    return kExitUsage;
  if (!forceConfigs("harness compile", *module, options.loweringConfigs,
                    options.configSource))
    return kExitUsage;
  CompileOutput output;
  if (std::optional<int> failed = compileProgram(
          session, *module, options.program, pipeline, options.emit, output,
          options.crashReproducer, options.emuKernels, options.timing))
    return *failed;
  if (!configsAllTaken("harness compile", *module, options.configSource))
    return kExitUsage;
  if (!options.bench.empty())
    return writeBenchArtifact(options, output.artifact);
  if (options.emit == EmitStage::Artifact)
    return writeArtifactOutput(options, output.artifact, runnable,
                               std::move(inputs), std::move(expected), info);
  return writeTextOutput(options.output, output.text);
}

namespace {

/// harness compile's flags as given.
struct CompileFlags {
  CompileCommandOptions options;
  std::string pipeline = "cpu", emit = "artifact", target, inject;
  std::string like, config;
};

/// --like=CASE and --config=FILE: the case's pipeline, target, chip and
/// faults in place of those flags (refused beside it), its seed and
/// recorded configs, and --config's configs over them. False after
/// printing why a file cannot be read.
bool takeLike(CompileFlags &flags, CLI::App *cmd) {
  CompileFlags *f = &flags;
  CompileCommandOptions &o = f->options;
  std::optional<LikeCase> like;
  if (!applyLikeAndConfig(cmd, "harness compile", f->like, f->config,
                          {"--pipeline", "--target", "--chip", "--inject"},
                          {f->pipeline, o.chip, f->inject, o.randomConfigSeed,
                           o.loweringConfigs, o.configSource},
                          like))
    return false;
  if (like) {
    f->target = std::string(toString(like->target));
    if (like->emuKernels && cmd->count("--emit") == 0)
      o.emuKernels = true;
  }
  return true;
}

/// The compile the flags ask for, checked.
int compileFromFlags(CompileFlags &flags, CLI::App *cmd) {
  CompileFlags *f = &flags;
  CompileCommandOptions &o = f->options;
  if (!takeLike(flags, cmd))
    return kExitUsage;
  if (!o.bench.empty() && !gen::findBenchProgram(o.bench)) {
    std::string names;
    for (const gen::BenchProgram &b : gen::benchPrograms())
      names += (names.empty() ? "" : ", ") + b.name;
    throw UsageError{"--bench: no benchmark '" + o.bench +
                     "'; the benchmarks: " + names +
                     " (or any topk-RxC-kK, sort-RxC, argsort-RxC, nms-N)"};
  }
  o.pipeline = siftPipelineFlag(f->pipeline, "compile");
  o.faults = faultsFlag(f->inject);
  std::optional<EmitStage> emit = parseEmitStage(f->emit);
  if (!emit)
    throw UsageError{"unknown stage '" + f->emit +
                     "' for --emit; valid stages: mlir, llvm, ptx, "
                     "artifact"};
  o.emit = *emit;
  if (!o.bench.empty() && o.emit != EmitStage::Artifact)
    throw UsageError{"--bench needs --emit=artifact"};
  o.target = !f->target.empty() ? targetFlag(f->target)
             : o.pipeline == PipelineKind::Cpu ? TargetKind::Host
                                               : TargetKind::Nvptx;
  if (o.emit == EmitStage::Ptx && o.target != TargetKind::Nvptx)
    throw UsageError{"--emit=ptx needs the nvptx target (this "
                     "compile targets " +
                     std::string(toString(o.target)) + ")"};
  if (o.emuKernels &&
      (o.emit != EmitStage::Artifact || o.target == TargetKind::Host))
    throw UsageError{"--emu-kernels needs --emit=artifact and a "
                     "GPU target (nvptx or amdgpu)"};
  if (o.target != TargetKind::Host)
    chipFlag(o.target, o.chip);
  else if (!o.chip.empty())
    throw UsageError{"--chip: the host target takes no GPU chip"};
  return runCompileCommand(o);
}

} // namespace

CommandEntry addCompileCommand(CLI::App &app) {
  auto f = std::make_shared<CompileFlags>();
  CLI::App *cmd =
      app.add_subcommand("compile", "Compile one program and stop at a stage");
  cmd->add_option("program", f->options.program, "Program (.mlir)")
      ->required();
  cmd->add_option("--pipeline", f->pipeline, "Pipeline")->capture_default_str();
  cmd->add_option("--emit", f->emit,
                  "Stage: mlir (after the pipeline), llvm (host LLVM IR), "
                  "ptx (nvptx kernels), artifact")
      ->capture_default_str();
  cmd->add_option("--target", f->target,
                  "Target: host (cpu pipeline), nvptx or amdgpu (GPU "
                  "pipelines; default nvptx)");
  cmd->add_option("--inject", f->inject,
                  "Faults to inject, comma-separated (harness list faults)");
  cmd->add_option("--crash-reproducer", f->options.crashReproducer,
                  "Keep MLIR's crash reproducer here when the compiler "
                  "crashes (replay it with sift-opt --run-reproducer)");
  cmd->add_option("--chip", f->options.chip,
                  "GPU chip (default sm_90 for nvptx, gfx942 for amdgpu)");
  cmd->add_option("--input", f->options.inputs,
                  "Input .npy for --emit=artifact, once per function "
                  "argument, in order: the artifact carries them and the "
                  "reference's outputs (sift-run runs it)");
  cmd->add_flag("--emu-kernels", f->options.emuKernels,
                "With --emit=artifact for a GPU target: the artifact also "
                "carries the kernels lowered for the host (sift-run "
                "--device=emu runs them, with checks)");
  cmd->add_flag("--timing", f->options.timing,
                "Print where the compile's time went to stderr: each pass's "
                "own seconds, the host's code generation and linking, the "
                "rest (a campaign's summary.json has the same, summed, as "
                "compile_stages)");
  cmd->add_option("--bench", f->options.bench,
                  "With --emit=artifact: the program is this benchmark's "
                  "(harness bench's names), e.g. with lowering configs set "
                  "by hand; sift-run --bench times the artifact on the "
                  "benchmark's inputs and checks it against its reference");
  cmd->add_option("-o,--output", f->options.output,
                  "Output path ('-': stdout, text stages only)")
      ->capture_default_str();
  cmd->add_option("--like", f->like,
                  "A case folder: compile as its campaign did (its "
                  "pipeline, target, chip, faults and lowering configs)");
  cmd->add_option("--config", f->config,
                  "Lowering configs for the ops, in order: a lowering.json "
                  "or a case.json with \"lowering\" (a finding's folder)");
  return {cmd, [f, cmd] { return compileFromFlags(*f, cmd); }};
}

} // namespace sift::harness
