//===- RunCommand.cpp - harness run ---------------------------------------===//
//
// `harness run` compiles one program, runs it on a device with `.npy`
// inputs and writes `.npy` outputs. Bad input (a missing file, malformed
// MLIR, an input of the wrong count, shape or type) gets a message naming
// the file or the argument and exit code 2; the helpers it shares with
// `harness compile` are in ProgramCommand.h.
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

bool runDeviceFits(const RunOptions &options) {
  std::string pipelineName(toString(options.pipeline));
  bool gpuPipeline = options.pipeline != PipelineKind::Cpu;
  if (!gpuPipeline && options.device != rt::DeviceKind::Cpu) {
    std::fprintf(stderr,
                 "harness run: the cpu pipeline compiles for the host; run "
                 "it with --device=cpu, or pick a GPU pipeline "
                 "(--pipeline=tileandfuse or distribute) for --device=%s\n",
                 std::string(rt::toString(options.device)).c_str());
    return false;
  }
  if (gpuPipeline && options.device == rt::DeviceKind::Cpu) {
    std::string inputs;
    for (const std::string &input : options.inputs)
      inputs += " --input=" + input;
    std::fprintf(stderr,
                 "harness run: the %s pipeline compiles for a GPU, which "
                 "--device=cpu cannot run; run it here with --device=cuda "
                 "(or hip), or compile an artifact here and run it on a GPU "
                 "host:\n"
                 "  harness compile %s --pipeline=%s --emit=artifact%s -o "
                 "program.siftart\n"
                 "  sift-run program.siftart --device=cuda --output-dir=%s\n",
                 pipelineName.c_str(), options.program.c_str(),
                 pipelineName.c_str(),
                 inputs.empty() ? " --input=..." : inputs.c_str(),
                 options.outputDir.c_str());
    return false;
  }
  std::error_code ec;
  if (fs::exists(options.outputDir, ec) &&
      !fs::is_directory(options.outputDir, ec)) {
    std::fprintf(stderr,
                 "harness run: --output-dir=%s: exists and is not a folder\n",
                 options.outputDir.c_str());
    return false;
  }
  return true;
}

/// Writes result<i>.npy files into --output-dir.
int writeResults(const std::string &outputDir,
                 const std::vector<HostTensor> &results) {
  std::error_code ec;
  fs::create_directories(outputDir, ec);
  if (ec) {
    std::fprintf(stderr, "harness run: %s: %s\n", outputDir.c_str(),
                 ec.message().c_str());
    return kExitUsage;
  }
  for (size_t i = 0; i < results.size(); ++i) {
    std::string path =
        (fs::path(outputDir) / ("result" + std::to_string(i) + ".npy"))
            .string();
    if (Status s = writeNpy(path, results[i]); !s.ok()) {
      std::fprintf(stderr, "harness run: %s\n", s.message().c_str());
      return kExitUsage;
    }
    std::printf("%s %s\n", path.c_str(), describe(results[i]).c_str());
  }
  return kExitOk;
}


} // namespace

static TargetKind runTarget(const RunOptions &options) {
  switch (options.device) {
  case rt::DeviceKind::Cpu: return TargetKind::Host;
  case rt::DeviceKind::Cuda: return TargetKind::Nvptx;
  case rt::DeviceKind::Hip: return TargetKind::Amdgpu;
  case rt::DeviceKind::Emu:
    return options.chip.rfind("gfx", 0) == 0 ? TargetKind::Amdgpu
                                             : TargetKind::Nvptx;
  }
  return TargetKind::Host;
}

int runRunCommand(const RunOptions &options) {
  if (!runDeviceFits(options))
    return kExitUsage;
  std::vector<HostTensor> inputs;
  if (!readInputFiles("harness run", options.inputs, inputs))
    return kExitUsage;
  Session session;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadProgram(session, options.program);
  if (!module)
    return kExitUsage;
  if (!checkInputs("harness run", options.program,
                   module->lookupSymbol<mlir::func::FuncOp>("main"),
                   options.inputs, inputs))
    return kExitUsage;
  // The device before the compile: a host without one learns it at once.
  auto device = rt::createDevice(options.device);
  if (!device.ok()) {
    std::string kind = options.device == rt::DeviceKind::Cuda  ? "CUDA"
                       : options.device == rt::DeviceKind::Hip ? "HIP"
                       : options.device == rt::DeviceKind::Emu ? "emu"
                                                               : "cpu";
    std::fprintf(stderr, "harness run: no %s device: %s\n", kind.c_str(),
                 device.message().c_str());
    return kExitUsage;
  }
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.target = runTarget(options);
  pipeline.chip = options.chip;
  pipeline.faults = options.faults;
  pipeline.randomConfigSeed = options.randomConfigSeed;
  if (!forceConfigs("harness run", *module, options.loweringConfigs,
                    options.configSource))
    return kExitUsage;
  CompileOutput output;
  bool emu = options.device == rt::DeviceKind::Emu;
  if (std::optional<int> failed = compileProgram(
          session, *module, options.program, pipeline, EmitStage::Artifact,
          output, options.crashReproducer, emu))
    return *failed;
  if (!configsAllTaken("harness run", *module, options.configSource))
    return kExitUsage;
  // The plan's inputs are @main's arguments; check them again all the same.
  if (Status s = rt::checkInputs(output.artifact.plan, inputs); !s) {
    std::fprintf(stderr, "harness run: %s: %s\n", options.program.c_str(),
                 s.message().c_str());
    return kExitUsage;
  }
  auto results = rt::runPlan(**device, output.artifact, inputs);
  if (!results.ok()) {
    std::fprintf(stderr, "harness run: %s on %s: %s\n",
                 options.program.c_str(), (*device)->name().c_str(),
                 results.message().c_str());
    return kExitFindings;
  }
  return writeResults(options.outputDir, *results);
}


namespace {

/// harness run's flags as given.
struct RunFlags {
  RunOptions options;
  std::string pipeline = "cpu", device = "cpu", inject;
  std::string like, config;
};

/// --like=CASE and --config=FILE: the case's pipeline, chip, faults,
/// device and inputs in place of those flags (refused beside it), its seed
/// and recorded configs, and --config's configs over them. False after
/// printing why a file cannot be read.
bool takeLike(RunFlags &flags, CLI::App *cmd) {
  RunFlags *f = &flags;
  RunOptions &o = f->options;
  std::optional<LikeCase> like;
  if (!applyLikeAndConfig(cmd, "harness run", f->like, f->config,
                          {"--pipeline", "--chip", "--inject"},
                          {f->pipeline, o.chip, f->inject, o.randomConfigSeed,
                           o.loweringConfigs, o.configSource},
                          like))
    return false;
  if (!like)
    return true;
  if (cmd->count("--device") == 0) {
    if (like->target == TargetKind::Host)
      f->device = "cpu";
    else if (like->device)
      f->device = std::string(rt::toString(*like->device));
    else
      throw UsageError{"--like=" + f->like +
                       ": its GPU runs executed nowhere (checked "
                       "statically); give --device=emu, cuda or hip"};
  }
  if (o.inputs.empty())
    o.inputs = like->inputs;
  return true;
}

/// The run the flags ask for.
int runFromFlags(RunFlags &flags, CLI::App *cmd) {
  RunFlags *f = &flags;
  if (!takeLike(flags, cmd))
    return kExitUsage;
  f->options.pipeline = siftPipelineFlag(f->pipeline, "run");
  f->options.device = deviceFlag(f->device);
  f->options.faults = faultsFlag(f->inject);
  if (f->options.device != rt::DeviceKind::Cpu)
    chipFlag(runTarget(f->options), f->options.chip);
  return runRunCommand(f->options);
}

} // namespace

CommandEntry addRunCommand(CLI::App &app) {
  auto f = std::make_shared<RunFlags>();
  CLI::App *cmd = app.add_subcommand(
      "run", "Compile one program, run it on .npy inputs, write .npy outputs");
  cmd->add_option("program", f->options.program, "Program (.mlir)")
      ->required();
  cmd->add_option("--pipeline", f->pipeline, "Pipeline")->capture_default_str();
  cmd->add_option("--device", f->device,
                  "Device: cpu (cpu pipeline), cuda (GPU pipelines, nvptx), "
                  "hip (GPU pipelines, amdgpu) or emu (GPU pipelines on the "
                  "host, with checks; amdgpu for a gfx --chip)")
      ->capture_default_str();
  cmd->add_option("--chip", f->options.chip,
                  "GPU chip (default sm_90 for cuda, gfx942 for hip)");
  cmd->add_option("--input", f->options.inputs,
                  "Input .npy, once per function argument, in order");
  cmd->add_option("--output-dir", f->options.outputDir,
                  "Folder for result0.npy, result1.npy, ...")
      ->capture_default_str();
  cmd->add_option("--inject", f->inject,
                  "Faults to inject, comma-separated (harness list faults)");
  cmd->add_option("--crash-reproducer", f->options.crashReproducer,
                  "Keep MLIR's crash reproducer here when the compiler "
                  "crashes (replay it with sift-opt --run-reproducer)");
  cmd->add_option("--like", f->like,
                  "A case folder: compile and run as its campaign did (its "
                  "pipeline, chip, faults, lowering configs, device and, "
                  "without --input, its inputs)");
  cmd->add_option("--config", f->config,
                  "Lowering configs for the ops, in order: a lowering.json "
                  "or a case.json with \"lowering\" (a finding's folder)");
  return {cmd, [f, cmd] { return runFromFlags(*f, cmd); }};
}

} // namespace sift::harness
