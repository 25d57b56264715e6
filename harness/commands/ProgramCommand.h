//===- ProgramCommand.h - What harness run and compile share ---*- C++ -*-===//
//
// `harness run` (RunCommand.cpp) and `harness compile` (CompileCommand.cpp)
// both take one program file and `--input` .npy files: reading them, checking
// the inputs against @main, checking the pipeline and target, and compiling
// with a recovered crash live here. Each prints its own error, naming the
// file or the argument, and the caller exits 2 (bad input) or 1 (a program
// the pipeline fails on).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "support/HostTensor.h"
#include "runtime/Device.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// Reads a program file; prints the error and returns nullopt on failure.
std::optional<std::string> readProgram(const std::string &path);

/// `count` `noun`, with an "s" unless it is one.
std::string counted(size_t count, const std::string &noun);

/// The program at `path` parsed and verified, with its @main; null after
/// printing why (a file that cannot be read or parsed, or no @main: bad
/// input).
mlir::OwningOpRef<mlir::ModuleOp> loadProgram(Session &session,
                                              const std::string &path);

/// "--input #2 (b.npy)": how messages name input `index` (0-based).
std::string inputName(const std::vector<std::string> &paths, size_t index);

/// Reads the `--input` files, before anything else is done. Prints the
/// first that cannot be read or is no well-formed .npy, naming it, and
/// returns false.
bool readInputFiles(const char *command, const std::vector<std::string> &paths,
                    std::vector<HostTensor> &inputs);

/// Checks the inputs read from `paths` against the arguments of `main`:
/// their count, then each one's element type and shape. Prints the first
/// problem, naming the argument, and returns false.
bool checkInputs(const char *command, const std::string &program,
                 mlir::func::FuncOp main, const std::vector<std::string> &paths,
                 const std::vector<HostTensor> &inputs);

/// Compiles `module` (changed in place) to `stage`. Returns nullopt on
/// success, else the exit code after printing why: 1 for a program the
/// pipeline fails on or crashes in. A crash is recovered and reported with
/// its pass; MLIR's crash reproducer is kept at `keepReproducer` when that
/// is not empty. `emuKernels`: the artifact also gets the kernels lowered
/// for the host. With `timing`, where the compile's time went is printed to
/// stderr (printCompileTimes), failed or not.
std::optional<int> compileProgram(Session &session, mlir::ModuleOp module,
                                  const std::string &path,
                                  const PipelineOptions &pipeline,
                                  EmitStage stage, CompileOutput &output,
                                  const std::string &keepReproducer,
                                  bool emuKernels = false, bool timing = false);

/// Prints compile seconds by stage (CompileTimes) to `out`: the total, then
/// each stage from the largest, with its share.
void printCompileTimes(FILE *out, const CompileTimes &times);

/// What a case folder gives `harness compile` and `run` (--like=CASE): the
/// campaign's pipeline, target, chip, faults and lowering configs (its
/// recorded ones, else its seed's draw), where its GPU runs executed and
/// its inputs.
struct LikeCase {
  PipelineKind pipeline = PipelineKind::Cpu;
  TargetKind target = TargetKind::Host;
  std::string chip;
  FaultSet faults;
  int64_t randomConfigSeed = -1;
  std::vector<std::string> configs;
  bool emuKernels = false;
  std::optional<rt::DeviceKind> device;
  std::vector<std::string> inputs;
};

/// Reads `folder` for --like; prints why not (a folder that is no case, a
/// case of another system) and returns nullopt.
std::optional<LikeCase> loadLikeCase(const char *command,
                                     const std::string &folder);

/// Reads --config's lowering configs (a lowering.json, or a case.json
/// with "lowering"); prints why not and returns nullopt.
std::optional<std::vector<std::string>>
loadConfigFile(const char *command, const std::string &path);

/// What --like and --config set in harness compile's and run's options.
struct LikeSettings {
  std::string &pipeline, &chip, &inject;
  int64_t &randomConfigSeed;
  std::vector<std::string> &configs;
  std::string &configSource;
};

/// Applies --like=`like` (the case's pipeline, chip, faults, seed and
/// recorded configs; `excluded` flags given beside it are a UsageError) and
/// then --config=`config` to `settings`; `loaded` is the case read (none
/// without --like). False after printing why a file cannot be read.
bool applyLikeAndConfig(CLI::App *cmd, const char *command,
                        const std::string &like, const std::string &config,
                        std::initializer_list<const char *> excluded,
                        LikeSettings settings,
                        std::optional<LikeCase> &loaded);

/// Gives `module` the configs before its compile; false after printing
/// why (one that does not parse).
bool forceConfigs(const char *command, mlir::ModuleOp module,
                  const std::vector<std::string> &configs,
                  const std::string &source);

/// After a compile with given configs: false after printing it, when the
/// program had fewer ops than configs (the configs are another program's).
bool configsAllTaken(const char *command, mlir::ModuleOp module,
                     const std::string &source);

/// Whether `pipeline` may target `target` (cpu the host, the GPU pipelines
/// nvptx or amdgpu); prints why not.
bool checkPipelineTarget(const PipelineOptions &pipeline);

} // namespace sift::harness
