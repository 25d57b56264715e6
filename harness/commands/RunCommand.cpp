//===- RunCommand.cpp - harness run and harness compile -------------------===//
//
// The two commands a user runs on one program by hand: `run` compiles it,
// runs it on a device with `.npy` inputs and writes `.npy` outputs;
// `compile` stops at a stage and writes text or an artifact. An artifact
// compiled with `--input` files carries them and, when the program is in the
// reference's reach (every op has a counterpart in the program model, see
// importModel), the reference's expected outputs: `sift-run` runs it on a
// GPU host without LLVM and compares. Bad input (a missing file, malformed
// MLIR, an input of the wrong count, shape or type) gets a message naming
// the file or the argument and exit code 2.
//
//===----------------------------------------------------------------------===//

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

/// Reads a program file; prints the error and returns nullopt on failure.
std::optional<std::string> readProgram(const std::string &path) {
  auto bytes = readFileBytes(path);
  if (!bytes.ok()) {
    std::fprintf(stderr, "harness: %s\n", bytes.message().c_str());
    return std::nullopt;
  }
  return std::string(bytes->begin(), bytes->end());
}


/// `count` `noun`, with an "s" unless it is one.
std::string counted(size_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// null after printing why (a file that cannot be read or parsed, or no
/// @main: bad input).
mlir::OwningOpRef<mlir::ModuleOp> loadProgram(Session &session,
                                              const std::string &path) {
  std::optional<std::string> text = readProgram(path);
  if (!text)
    return nullptr;
  std::string error;
  auto module = session.parse(*text, path, error);
  if (!module) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return nullptr;
  }
  if (!module->lookupSymbol<mlir::func::FuncOp>("main")) {
    std::fprintf(stderr, "%s: no func.func @main to compile\n", path.c_str());
    return nullptr;
  }
  return module;
}

/// "--input #2 (b.npy)": how messages name input `index` (0-based).
std::string inputName(const std::vector<std::string> &paths, size_t index) {
  return "--input #" + std::to_string(index + 1) + " (" + paths[index] + ")";
}

/// Reads the `--input` files, before anything else is done. Prints the
/// first that cannot be read or is no well-formed .npy, naming it (`--input
/// #2 (b.npy): truncated .npy file: ...`), and returns false.
bool readInputFiles(const char *command, const std::vector<std::string> &paths,
                    std::vector<HostTensor> &inputs) {
  for (size_t i = 0; i < paths.size(); ++i) {
    Result<HostTensor> tensor = readNpy(paths[i]);
    if (!tensor.ok()) {
      // The reader's messages start with the path, which the name holds.
      std::string message = tensor.message();
      if (message.rfind(paths[i] + ": ", 0) == 0)
        message.erase(0, paths[i].size() + 2);
      std::fprintf(stderr, "%s: %s: %s\n", command, inputName(paths, i).c_str(),
                   message.c_str());
      return false;
    }
    inputs.push_back(std::move(*tensor));
  }
  return true;
}

/// Checks the inputs read from `paths` against the arguments of `main`:
/// their count, then each one's element type and shape. Prints the first
/// problem, naming the argument (`--input #2 (b.npy): shape [3,4] does not
/// match argument 2 of @main, tensor<4x3xf32>`), and returns false.
bool checkInputs(const char *command, const std::string &program,
                 mlir::func::FuncOp main, const std::vector<std::string> &paths,
                 const std::vector<HostTensor> &inputs) {
  mlir::FunctionType signature = main.getFunctionType();
  size_t arguments = signature.getNumInputs();
  if (inputs.size() != arguments) {
    std::string given = counted(inputs.size(), "--input file") +
                        (inputs.size() == 1 ? " was" : " were");
    std::fprintf(stderr, "%s: %s: @main takes %s but %s given\n", command,
                 program.c_str(), counted(arguments, "argument").c_str(),
                 given.c_str());
    return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string which = inputName(paths, i);
    mlir::Type argument = signature.getInput(i);
    std::string argumentText =
        "argument " + std::to_string(i + 1) + " of @main, " + printed(argument);
    std::optional<gen::TensorType> type = tensorTypeOf(argument);
    if (!type) {
      std::fprintf(stderr,
                   "%s: %s: %s is not a static tensor of f16, f32, f64, i32 "
                   "or i64, which no .npy input can feed\n",
                   command, which.c_str(), argumentText.c_str());
      return false;
    }
    if (inputs[i].type != type->elementType) {
      std::fprintf(
          stderr, "%s: %s: element type %s (%s) does not match %s\n", command,
          which.c_str(), std::string(toString(inputs[i].type)).c_str(),
          std::string(npyDtype(inputs[i].type)).c_str(), argumentText.c_str());
      return false;
    }
    if (inputs[i].shape != type->shape) {
      std::fprintf(stderr, "%s: %s: shape %s does not match %s\n", command,
                   which.c_str(), shapeString(inputs[i].shape).c_str(),
                   argumentText.c_str());
      return false;
    }
  }
  return true;
}

/// Compiles `module` (changed in place) to `stage`. Returns nullopt on
/// success, else the exit code after printing why: 1 for a program the
/// pipeline fails on or crashes in. A crash is recovered: it is reported
/// with its pass, and MLIR's crash reproducer is kept at `keepReproducer`
/// when that is not empty.
std::optional<int> compileProgram(Session &session, mlir::ModuleOp module,
                                  const std::string &path,
                                  const PipelineOptions &pipeline,
                                  EmitStage stage, CompileOutput &output,
                                  const std::string &keepReproducer,
                                  bool emuKernels = false) {
  CompileOptions compileOptions;
  compileOptions.pipeline = pipeline;
  compileOptions.emuKernels = emuKernels;
  std::string error;
  if (session.compile(module, compileOptions, stage, output, error))
    return std::nullopt;
  if (!session.lastCrash()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return kExitFindings;
  }
  const std::string &reproducer = session.lastReproducer();
  std::string pass = reproducerPass(reproducer);
  std::fprintf(stderr, "%s: the compiler crashed%s: %s\n", path.c_str(),
               pass.empty() ? "" : (" in pass " + pass).c_str(),
               session.lastCrash()->c_str());
  if (!keepReproducer.empty()) {
    std::error_code ec;
    if (fs::path parent = fs::path(keepReproducer).parent_path();
        !parent.empty())
      fs::create_directories(parent, ec);
    Status kept = reproducer.empty()
                      ? Status(makeError("the crash left no reproducer"))
                      : writeFileAtomic(
                            keepReproducer,
                            reinterpret_cast<const uint8_t *>(reproducer.data()),
                            reproducer.size());
    if (kept.ok())
      std::fprintf(stderr,
                   "reproducer: %s (replay it with: sift-opt "
                   "--run-reproducer %s)\n",
                   keepReproducer.c_str(), keepReproducer.c_str());
    else
      std::fprintf(stderr, "no reproducer written to %s: %s\n",
                   keepReproducer.c_str(), kept.message().c_str());
  } else if (!reproducer.empty())
    std::fprintf(stderr, "(--crash-reproducer=PATH keeps MLIR's reproducer of "
                         "the pass's input)\n");
  return kExitFindings;
}

/// Whether `pipeline` may target `target` (cpu the host, the GPU pipelines
/// nvptx or amdgpu); prints why not.
bool checkPipelineTarget(const PipelineOptions &pipeline) {
  if ((pipeline.kind == PipelineKind::Cpu) ==
      (pipeline.target == TargetKind::Host))
    return true;
  std::fprintf(stderr,
               "harness: the %s pipeline cannot target %s (cpu targets "
               "host; the GPU pipelines nvptx or amdgpu)\n",
               std::string(toString(pipeline.kind)).c_str(),
               std::string(toString(pipeline.target)).c_str());
  return false;
}

/// "a,b" of the faults in `faults`.
std::string faultList(const FaultSet &faults) {
  std::string list;
  for (Fault fault : kAllFaults)
    if (faults.contains(fault))
      list += (list.empty() ? "" : ",") + std::string(toString(fault));
  return list;
}

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
  info.faults = faultList(options.faults);
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
  info.faults = faultList(options.faults);
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
  CompileOutput output;
  if (std::optional<int> failed = compileProgram(
          session, *module, options.program, pipeline, options.emit, output,
          options.crashReproducer, options.emuKernels))
    return *failed;
  if (!options.bench.empty())
    return writeBenchArtifact(options, output.artifact);
  if (options.emit == EmitStage::Artifact)
    return writeArtifactOutput(options, output.artifact, runnable,
                               std::move(inputs), std::move(expected), info);
  return writeTextOutput(options.output, output.text);
}

/// The target `harness run` compiles for: the device's; on emu amdgpu for
/// a gfx chip, else nvptx.
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
  CompileOutput output;
  bool emu = options.device == rt::DeviceKind::Emu;
  if (std::optional<int> failed = compileProgram(
          session, *module, options.program, pipeline, EmitStage::Artifact,
          output, options.crashReproducer, emu))
    return *failed;
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

CommandEntry addRunCommand(CLI::App &app) {
  struct Flags {
    RunOptions options;
    std::string pipeline = "cpu", device = "cpu", inject;
  };
  auto f = std::make_shared<Flags>();
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
                  "Faults to inject, comma-separated (the README lists them)");
  cmd->add_option("--crash-reproducer", f->options.crashReproducer,
                  "Keep MLIR's crash reproducer here when the compiler "
                  "crashes (replay it with sift-opt --run-reproducer)");
  return {cmd, [f] {
            f->options.pipeline = siftPipelineFlag(f->pipeline, "run");
            f->options.device = deviceFlag(f->device);
            f->options.faults = faultsFlag(f->inject);
            if (f->options.device != rt::DeviceKind::Cpu)
              chipFlag(runTarget(f->options), f->options.chip);
            return runRunCommand(f->options);
          }};
}

CommandEntry addCompileCommand(CLI::App &app) {
  struct Flags {
    CompileCommandOptions options;
    std::string pipeline = "cpu", emit = "artifact", target, inject;
  };
  auto f = std::make_shared<Flags>();
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
                  "Faults to inject, comma-separated (the README lists them)");
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
  cmd->add_option("--bench", f->options.bench,
                  "With --emit=artifact: the program is this benchmark's "
                  "(harness bench's names), e.g. with lowering configs set "
                  "by hand; sift-run --bench times the artifact on the "
                  "benchmark's inputs and checks it against its reference");
  cmd->add_option("-o,--output", f->options.output,
                  "Output path ('-': stdout, text stages only)")
      ->capture_default_str();
  return {cmd, [f] {
            CompileCommandOptions &o = f->options;
            if (!o.bench.empty() && !gen::findBenchProgram(o.bench)) {
              std::string names;
              for (const gen::BenchProgram &b : gen::benchPrograms())
                names += (names.empty() ? "" : ", ") + b.name;
              throw UsageError{"--bench: no benchmark '" + o.bench +
                               "'; the benchmarks: " + names +
                               " (or any topk-RxC-kK, sort-RxC, nms-N)"};
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
          }};
}

} // namespace sift::harness
