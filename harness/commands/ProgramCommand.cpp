//===- ProgramCommand.cpp - What harness run and compile share ------------===//

#include "harness/commands/ProgramCommand.h"
#include "harness/commands/Commands.h"
#include "support/Shape.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseRunner.h"
#include "harness/case/ModelImporter.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "harness/sut/sift/KeptCompile.h"
#include "harness/case/CaseFolder.h"
#include "pipelines/Transforms/Passes.h"
#include "generators/BenchPrograms.h"
#include "generators/InputGenerator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "oracles/Compare.h"
#include "oracles/Reference.h"
#include "oracles/ir/StageChecks.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "runtime/ExportedCase.h"
#include "runtime/Runner.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "support/Text.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::harness {

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
std::optional<LikeCase> loadLikeCase(const char *command,
                                     const std::string &folder) {
  Result<StoredCase> stored = loadCaseFolder(folder);
  if (!stored.ok()) {
    std::fprintf(stderr, "%s: --like=%s: %s\n", command, folder.c_str(),
                 stored.message().c_str());
    return std::nullopt;
  }
  const CaseOptions &o = stored->options;
  if (systemOf(o.pipeline) != SystemKind::Sift) {
    std::fprintf(stderr,
                 "%s: --like=%s: a case of %s, which %s does not compile; "
                 "its repro.sh has that system's own command line, and "
                 "harness check %s runs it\n",
                 command, folder.c_str(), pipelineName(o).c_str(), command,
                 folder.c_str());
    return std::nullopt;
  }
  LikeCase like;
  like.pipeline = o.pipeline;
  like.target = o.target;
  like.chip = o.chip;
  like.faults = o.faults;
  like.device = o.device;
  like.emuKernels = o.device == rt::DeviceKind::Emu;
  if (o.randomConfig)
    like.randomConfigSeed =
        static_cast<int64_t>(stored->seed & 0x7fffffffffffffffULL);
  // The configs it recorded, when it did: they stay what the campaign
  // compiled even where the seed's draw would change.
  std::string info = (fs::path(folder) / "case.json").string();
  if (o.target != TargetKind::Host) {
    Result<std::vector<std::string>> configs = readLoweringConfigs(info);
    if (configs.ok())
      like.configs = std::move(*configs);
  }
  for (size_t i = 0;; ++i) {
    fs::path input = fs::path(folder) / ("input" + std::to_string(i) + ".npy");
    std::error_code ec;
    if (!fs::exists(input, ec))
      break;
    like.inputs.push_back(input.string());
  }
  return like;
}

std::optional<std::vector<std::string>>
loadConfigFile(const char *command, const std::string &path) {
  Result<std::vector<std::string>> configs = readLoweringConfigs(path);
  if (!configs.ok()) {
    std::fprintf(stderr, "%s: --config=%s\n", command,
                 configs.message().c_str());
    return std::nullopt;
  }
  return *configs;
}

bool applyLikeAndConfig(CLI::App *cmd, const char *command,
                        const std::string &like, const std::string &config,
                        std::initializer_list<const char *> excluded,
                        LikeSettings settings,
                        std::optional<LikeCase> &loaded) {
  if (!like.empty()) {
    for (const char *flag : excluded)
      if (cmd->count(flag))
        throw UsageError{std::string(flag) +
                         " and --like exclude each other (the case folder "
                         "says it)"};
    loaded = loadLikeCase(command, like);
    if (!loaded)
      return false;
    settings.pipeline = std::string(toString(loaded->pipeline));
    settings.chip = loaded->chip;
    settings.inject = faultListText(loaded->faults);
    settings.randomConfigSeed = loaded->randomConfigSeed;
    settings.configs = loaded->configs;
    settings.configSource = like + "/case.json";
  }
  if (!config.empty()) {
    std::optional<std::vector<std::string>> configs =
        loadConfigFile(command, config);
    if (!configs)
      return false;
    settings.configs = *configs;
    settings.configSource = config;
  }
  return true;
}

bool forceConfigs(const char *command, mlir::ModuleOp module,
                  const std::vector<std::string> &configs,
                  const std::string &source) {
  if (configs.empty())
    return true;
  if (Status s = forceLoweringConfigs(module, configs, source); !s.ok()) {
    std::fprintf(stderr, "%s: %s\n", command, s.message().c_str());
    return false;
  }
  return true;
}

bool configsAllTaken(const char *command, mlir::ModuleOp module,
                     const std::string &source) {
  mlir::ArrayAttr left =
      module->getAttrOfType<mlir::ArrayAttr>(kForcedConfigsAttr);
  if (!left)
    return true;
  std::fprintf(stderr,
               "%s: %s: %zu lowering configs more than the program has ops "
               "to take them (the configs of another program?)\n",
               command, source.c_str(), static_cast<size_t>(left.size()));
  return false;
}

void printCompileTimes(FILE *out, const CompileTimes &times) {
  std::vector<std::pair<double, std::string>> stages;
  double total = 0;
  for (const auto &[name, seconds] : times) {
    stages.emplace_back(seconds, name);
    total += seconds;
  }
  std::sort(stages.rbegin(), stages.rend());
  std::fprintf(out, "compile: %.3f s\n", total);
  for (const auto &[seconds, name] : stages)
    std::fprintf(out, "  %8.3f s %5.1f %%  %s\n", seconds,
                 total > 0 ? 100 * seconds / total : 0.0, name.c_str());
}

std::optional<int> compileProgram(Session &session, mlir::ModuleOp module,
                                  const std::string &path,
                                  const PipelineOptions &pipeline,
                                  EmitStage stage, CompileOutput &output,
                                  const std::string &keepReproducer,
                                  bool emuKernels, bool timing) {
  CompileOptions compileOptions;
  compileOptions.pipeline = pipeline;
  compileOptions.emuKernels = emuKernels;
  CompileTimes times;
  if (timing)
    compileOptions.times = &times;
  // GPU pipelines: the IR oracles a campaign runs after every pass run here
  // too, and what they find is printed (the output is still written: a
  // hand-set config over the chip's workgroup memory, say, is what the
  // user asked for, but ptxas or the loader may refuse it). The first is
  // printed as soon as a pass makes it, before a later pass fails or
  // crashes on what it found.
  bool gpu = pipeline.target != TargetKind::Host;
  oracle::StageCheckInstrumentation stageChecks(oracle::workgroupMemoryBudget(
      pipeline.chip.empty() ? defaultChip(pipeline.target)
                            : std::string_view(pipeline.chip)));
  std::set<std::string> printed;
  auto print = [&](const oracle::StageFinding &finding) {
    std::string line = path + ": static oracle: " +
                       std::string(oracle::toString(finding.finding.verdict)) +
                       " (introduced by " + finding.pass +
                       "): " + finding.finding.message + ", kernel " +
                       finding.finding.kernel + "\n";
    if (printed.insert(line).second) {
      std::fputs(line.c_str(), stderr);
      std::fflush(stderr);
    }
  };
  if (gpu)
    compileOptions.instrument = [&](mlir::PassManager &pm) {
      oracle::forwardStageChecks(pm, stageChecks, print);
    };
  std::string error;
  bool compiled = session.compile(module, compileOptions, stage, output, error);
  if (timing)
    printCompileTimes(stderr, times);
  for (const oracle::StageFinding &finding : stageChecks.findings())
    print(finding);
  if (compiled)
    return std::nullopt;
  if (!session.lastCrash()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
    return kExitFindings;
  }
  const std::string &reproducer = session.lastReproducer();
  const std::string &pass = session.lastFailedPass();
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

} // namespace sift::harness
