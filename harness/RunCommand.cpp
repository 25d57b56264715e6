//===- RunCommand.cpp - harness run and harness compile -------------------===//
//
// The two commands a user runs on one program by hand: `run` compiles it,
// runs it on a device with `.npy` inputs and writes `.npy` outputs;
// `compile` stops at a stage and writes text or an artifact. Bad input (a
// missing file, malformed MLIR, an input of the wrong shape or type) gets a
// message naming the file and exit code 2.
//
//===----------------------------------------------------------------------===//

#include "harness/Commands.h"

#include "harness/CaseRunner.h"
#include "harness/Session.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "runtime/Runner.h"
#include "runtime/support/FileIO.h"
#include "runtime/support/Npy.h"

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

/// Reads, parses and compiles `path` to `stage`. Returns nullopt on
/// success, else the exit code after printing why: 2 for a file that cannot
/// be read or parsed, 1 for a program the pipeline fails on or crashes in.
/// A crash is recovered: it is reported with its pass, and MLIR's crash
/// reproducer is kept at `keepReproducer` when that is not empty.
std::optional<int> loadAndCompile(Session &session, const std::string &path,
                                  const PipelineOptions &pipeline,
                                  EmitStage stage, CompileOutput &output,
                                  const std::string &keepReproducer) {
  if ((pipeline.kind == PipelineKind::Cpu) !=
      (pipeline.target == TargetKind::Host)) {
    std::fprintf(stderr,
                 "harness: the %s pipeline cannot target %s (cpu targets "
                 "host; the GPU pipelines nvptx or amdgpu)\n",
                 std::string(toString(pipeline.kind)).c_str(),
                 std::string(toString(pipeline.target)).c_str());
    return kExitUsage;
  }
  std::optional<std::string> text = readProgram(path);
  if (!text)
    return kExitUsage;
  std::string error;
  auto module = session.parse(*text, path, error);
  if (!module) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return kExitUsage;
  }
  if (!module->lookupSymbol<mlir::func::FuncOp>("main")) {
    std::fprintf(stderr, "%s: no func.func @main to compile\n", path.c_str());
    return kExitUsage;
  }
  CompileOptions compileOptions;
  compileOptions.pipeline = pipeline;
  if (session.compile(*module, compileOptions, stage, output, error))
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

} // namespace

int runCompileCommand(const CompileCommandOptions &options) {
  if (options.emit == EmitStage::Artifact && options.output == "-") {
    std::fprintf(stderr, "harness compile: --emit=artifact needs -o PATH\n");
    return kExitUsage;
  }
  Session session;
  CompileOutput output;
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.target = options.target;
  pipeline.chip = options.chip;
  pipeline.faults = options.faults;
  if (std::optional<int> failed =
          loadAndCompile(session, options.program, pipeline, options.emit,
                         output, options.crashReproducer))
    return *failed;
  if (options.emit == EmitStage::Artifact) {
    if (Status s = rt::writeArtifact(options.output, output.artifact);
        !s.ok()) {
      std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
      return kExitUsage;
    }
    return kExitOk;
  }
  if (options.output == "-") {
    std::fwrite(output.text.data(), 1, output.text.size(), stdout);
    return kExitOk;
  }
  if (Status s = writeFileAtomic(
          options.output, reinterpret_cast<const uint8_t *>(output.text.data()),
          output.text.size());
      !s.ok()) {
    std::fprintf(stderr, "harness compile: %s\n", s.message().c_str());
    return kExitUsage;
  }
  return kExitOk;
}

int runRunCommand(const RunOptions &options) {
  std::vector<HostTensor> inputs;
  for (const std::string &path : options.inputs) {
    auto tensor = readNpy(path);
    if (!tensor.ok()) {
      std::fprintf(stderr, "harness run: %s\n", tensor.message().c_str());
      return kExitUsage;
    }
    inputs.push_back(std::move(*tensor));
  }
  Session session;
  CompileOutput output;
  PipelineOptions pipeline;
  pipeline.kind = options.pipeline;
  pipeline.faults = options.faults;
  if (std::optional<int> failed =
          loadAndCompile(session, options.program, pipeline,
                         EmitStage::Artifact, output, options.crashReproducer))
    return *failed;

  // Check the inputs against the program's signature before running.
  const rt::Plan &plan = output.artifact.plan;
  std::vector<int> planInputs = plan.inputs();
  if (planInputs.size() != inputs.size()) {
    std::fprintf(stderr,
                 "harness run: %s takes %zu inputs but %zu --input files "
                 "were given\n",
                 options.program.c_str(), planInputs.size(), inputs.size());
    return kExitUsage;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const rt::PlanBuffer &buffer = plan.buffers[planInputs[i]];
    if (buffer.type != inputs[i].type || buffer.shape != inputs[i].shape) {
      std::fprintf(stderr, "harness run: %s (input %zu): expected %s, got %s\n",
                   options.inputs[i].c_str(), i,
                   describe(buffer.type, buffer.shape).c_str(),
                   describe(inputs[i]).c_str());
      return kExitUsage;
    }
  }

  auto device = rt::createDevice(options.device);
  if (!device.ok()) {
    std::fprintf(stderr, "harness run: %s\n", device.message().c_str());
    return kExitUsage;
  }
  auto results = rt::runPlan(**device, output.artifact, inputs);
  if (!results.ok()) {
    std::fprintf(stderr, "harness run: %s: %s\n", options.program.c_str(),
                 results.message().c_str());
    return kExitFindings;
  }
  std::error_code ec;
  fs::create_directories(options.outputDir, ec);
  if (ec) {
    std::fprintf(stderr, "harness run: %s: %s\n", options.outputDir.c_str(),
                 ec.message().c_str());
    return kExitUsage;
  }
  for (size_t i = 0; i < results->size(); ++i) {
    std::string path =
        (fs::path(options.outputDir) / ("result" + std::to_string(i) + ".npy"))
            .string();
    if (Status s = writeNpy(path, (*results)[i]); !s.ok()) {
      std::fprintf(stderr, "harness run: %s\n", s.message().c_str());
      return kExitUsage;
    }
    std::printf("%s %s\n", path.c_str(), describe((*results)[i]).c_str());
  }
  return kExitOk;
}

} // namespace sift::harness
