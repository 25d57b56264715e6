//===- main.cpp - The harness command line --------------------------------===//
//
// Parses the command line with CLI11 into the option structs of Commands.h
// and calls the command. `fuzz` is the default command: `harness
// --pipeline=cpu --count=10` means `harness fuzz --pipeline=cpu --count=10`.
// Every usage error prints what was wrong and exits with 2.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/Version.h"

#include <CLI/CLI.hpp>

#include "llvm/Support/Signals.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace sift;
using namespace sift::harness;

namespace {

/// "a, b, c" from a list of names.
template <typename Range, typename ToName>
std::string joinNames(const Range &values, ToName toName) {
  std::string text;
  for (const auto &value : values)
    text += (text.empty() ? "" : ", ") + std::string(toName(value));
  return text;
}

/// Thrown from option callbacks; turned into exit code 2.
struct UsageError {
  std::string message;
};

PipelineKind pipelineFromName(const std::string &name) {
  if (auto kind = parsePipelineKind(name))
    return *kind;
  throw UsageError{
      "unknown pipeline '" + name + "'; valid pipelines: " +
      joinNames(kAllPipelineKinds, [](PipelineKind k) { return toString(k); })};
}

gen::InputMode inputModeFromName(const std::string &name) {
  if (auto mode = gen::parseInputMode(name))
    return *mode;
  throw UsageError{"unknown input mode '" + name +
                   "'; valid modes: mixed, uniform, ties, special, sorted, "
                   "reversed"};
}

/// Splits "a,b,c"; an empty item is an error naming `what`.
std::vector<std::string> splitList(const std::string &list,
                                   const std::string &what) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    size_t end = list.find(',', start);
    std::string item = list.substr(start, end - start);
    if (item.empty())
      throw UsageError{what + ": empty item in '" + list + "'"};
    items.push_back(item);
    if (end == std::string::npos)
      return items;
    start = end + 1;
  }
}

std::vector<PipelineTarget> fuzzRunsFrom(const std::string &pipelineName,
                                         const std::string &targetList,
                                         const std::string &chipList) {
  std::vector<PipelineKind> pipelines;
  for (const std::string &name : splitList(pipelineName, "--pipeline")) {
    std::vector<PipelineKind> named;
    if (name == "all")
      named = {PipelineKind::Cpu, PipelineKind::TileAndFuse,
               PipelineKind::Distribute};
    else
      named = {pipelineFromName(name)};
    for (PipelineKind kind : named)
      if (std::find(pipelines.begin(), pipelines.end(), kind) ==
          pipelines.end())
        pipelines.push_back(kind);
  }
  std::vector<TargetKind> targets;
  for (const std::string &name : splitList(targetList, "--target")) {
    auto kind = parseTargetKind(name);
    if (!kind || *kind == TargetKind::Host)
      throw UsageError{"unknown GPU target '" + name +
                       "'; valid GPU targets: nvptx, amdgpu"};
    targets.push_back(*kind);
  }
  std::vector<std::string> chips;
  if (!chipList.empty())
    for (const std::string &chip : splitList(chipList, "--chip")) {
      if (chip.rfind("sm_", 0) != 0 && chip.rfind("gfx", 0) != 0)
        throw UsageError{"--chip: '" + chip +
                         "' is neither an nvptx chip (sm_XX) nor an amdgpu "
                         "chip (gfxNNN)"};
      chips.push_back(chip);
    }
  return selectPipelineTargets(pipelines, targets, chips);
}

std::vector<gen::Family> familiesFromList(const std::string &list) {
  std::vector<gen::Family> families;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    std::string name = list.substr(start, end - start);
    auto family = gen::parseFamily(name);
    if (!family)
      throw UsageError{"unknown family '" + name +
                       "'; valid families: sort, topk, nms"};
    families.push_back(*family);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return families;
}

rt::DeviceKind deviceFromName(const std::string &name) {
  for (rt::DeviceKind kind :
       {rt::DeviceKind::Cpu, rt::DeviceKind::Cuda, rt::DeviceKind::Hip})
    if (rt::toString(kind) == name)
      return kind;
  throw UsageError{"unknown device '" + name +
                   "'; valid devices: cpu, cuda, hip"};
}

EmitStage emitFromName(const std::string &name) {
  if (auto stage = parseEmitStage(name))
    return *stage;
  throw UsageError{"unknown stage '" + name +
                   "' for --emit; valid stages: mlir, llvm, ptx, artifact"};
}

TargetKind targetFromName(const std::string &name) {
  if (auto kind = parseTargetKind(name))
    return *kind;
  throw UsageError{
      "unknown target '" + name + "'; valid targets: " +
      joinNames(kAllTargetKinds, [](TargetKind k) { return toString(k); })};
}

/// The seconds of a duration flag (`90`, `90s`, `5m`, `2h`), or a usage
/// error naming the flag.
double durationFlag(const std::string &flag, const std::string &text) {
  std::optional<double> seconds = parseDuration(text);
  if (!seconds)
    throw UsageError{flag + ": '" + text +
                     "' is not a positive duration (90, 90s, 5m, 2h)"};
  return *seconds;
}

/// --memory-limit: a size (512M, 4G), or "none" (0: no limit, for hosts
/// where cgroups or the scheduler limit memory already).
uint64_t memoryFlag(const std::string &text) {
  if (text == "none")
    return 0;
  std::optional<uint64_t> bytes = parseByteSize(text);
  if (!bytes)
    throw UsageError{"--memory-limit: '" + text +
                     "' is not a size (512M, 4G) or none"};
  return *bytes;
}

/// A CLI11 check for unsigned options: CLI11 itself would wrap "-5" into a
/// huge unsigned count.
CLI::Validator wholeNumber() {
  return CLI::Validator(
      [](std::string &text) -> std::string {
        if (text.empty() ||
            text.find_first_not_of("0123456789") != std::string::npos)
          return "'" + text + "' is not a whole number (0, 1, 2, ...)";
        uint64_t value = 0;
        auto [end, ec] =
            std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
          return "'" + text + "' is larger than 2^64 - 1";
        return "";
      },
      "N");
}

/// The faults of a by-hand command's --inject, or a usage error.
FaultSet faultsFlag(const std::string &text) {
  std::string error;
  std::optional<FaultSet> faults =
      parseFaults(text, /*forFuzz=*/false, error);
  if (!faults)
    throw UsageError{"--inject: " + error};
  return *faults;
}

} // namespace

int main(int argc, char **argv) {
  // A crash that nothing recovers prints its stack (kept in the finding's
  // stderr.txt when it happens in an isolated case).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  // `fuzz` is the default command.
  std::vector<std::string> args(argv, argv + argc);
  static const char *commands[] = {"fuzz",  "run",    "compile", "import",
                                   "merge", "replay", "reduce", "check"};
  bool hasCommand = false;
  if (args.size() > 1)
    for (const char *command : commands)
      hasCommand |= args[1] == command;
  bool wantsTopHelp =
      args.size() > 1 &&
      (args[1] == "--help" || args[1] == "-h" || args[1] == "--version");
  if (!hasCommand && !wantsTopHelp)
    args.insert(args.begin() + 1, "fuzz");
  std::string commandLine;
  for (size_t i = 0; i < args.size(); ++i)
    commandLine += (i ? " " : "") + args[i];

  CLI::App app{"sift: differential fuzzing of MLIR GPU lowering of sort, "
               "top-k and NMS"};
  app.set_version_flag("--version", "sift " + siftVersion());
  app.require_subcommand(1);

  // harness fuzz
  FuzzOptions fuzz;
  std::string fuzzPipeline = "cpu", fuzzFamilies = "sort,topk,nms",
              fuzzInputs = "mixed", fuzzTime, fuzzTargets = "nvptx,amdgpu",
              fuzzChips;
  uint64_t fuzzCount = 0;
  CLI::App *fuzzCmd =
      app.add_subcommand("fuzz", "Generate, compile, run and check random "
                                 "programs (the default command)");
  fuzzCmd
      ->add_option("--pipeline", fuzzPipeline,
                   "Pipelines: cpu, tileandfuse, distribute or all, or a "
                   "comma-separated list")
      ->capture_default_str();
  fuzzCmd
      ->add_option("--target", fuzzTargets,
                   "GPU targets of the GPU pipelines: nvptx,amdgpu")
      ->capture_default_str();
  fuzzCmd->add_option("--chip", fuzzChips,
                      "GPU chips, per target: sm_XX for nvptx (default "
                      "sm_90), gfxNNN for amdgpu (default gfx942)");
  auto *countOpt =
      fuzzCmd
          ->add_option("--count", fuzzCount,
                       "Number of cases (default 100 without --time)")
          ->check(wholeNumber());
  auto *timeOpt =
      fuzzCmd->add_option("--time", fuzzTime,
                          "Time budget: 90, 90s, 5m, 2h (with --count: "
                          "whichever ends first)");
  fuzzCmd->add_option("--seed", fuzz.seed, "Campaign seed")
      ->check(wholeNumber())
      ->capture_default_str();
  fuzzCmd
      ->add_option("--skip", fuzz.skip,
                   "Index of the first case (re-run case N alone)")
      ->check(wholeNumber())
      ->capture_default_str();
  fuzzCmd->add_option("--family", fuzzFamilies, "Op families: sort,topk,nms")
      ->capture_default_str();
  fuzzCmd
      ->add_option("--inputs", fuzzInputs,
                   "Input data: mixed, uniform, ties, special, sorted, "
                   "reversed")
      ->capture_default_str();
  fuzzCmd->add_option("--inject", fuzz.injectText,
                      "Faults to inject, comma-separated (the README lists "
                      "the catalogue)");
  std::string fuzzDevice = "cpu";
  fuzzCmd
      ->add_option("--device", fuzzDevice,
                   "Where GPU runs execute: cpu (GPU pipelines get static "
                   "verdicts only), cuda (nvptx runs on the GPU) or hip "
                   "(amdgpu runs on the GPU)")
      ->capture_default_str();
  bool noIsolate = false;
  std::string caseTimeout = "60", memoryLimit = "4G";
  std::string shard;
  fuzzCmd->add_option("--shard", shard,
                      "Run shard I of N (--shard=I/N): cases i with i % N == "
                      "I. Without it, Slurm array and Kubernetes indexed-job "
                      "variables choose the shard when set");
  fuzzCmd->add_option("--save-cases", fuzz.saveCasesDir,
                      "Also write every case's folder (any verdict, corpus "
                      "format) to this folder");
  fuzzCmd->add_flag("--resume", fuzz.resume,
                    "Continue the last unfinished (killed) campaign with the "
                    "same seed, pipelines, data, families, faults and configs "
                    "in --out's database after its last finished case; "
                    "--count stays the campaign's total");
  fuzzCmd->add_flag("--no-isolate", noIsolate,
                    "Run cases in this process instead of a child process "
                    "each (a hang then ends the campaign)");
  fuzzCmd
      ->add_option("--jobs,-j", fuzz.jobs,
                   "Isolated cases run at once, each in its own child "
                   "process; results are handled in case order")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  fuzzCmd
      ->add_option("--case-timeout", caseTimeout,
                   "Time limit of one isolated case (compile and run): 90, "
                   "90s, 5m; over it: compile-timeout or run-timeout")
      ->capture_default_str();
  fuzzCmd
      ->add_option("--memory-limit", memoryLimit,
                   "Memory limit of one isolated case: 512M, 4G, or none "
                   "(address space; resident memory in sanitizer builds)")
      ->capture_default_str();
  fuzzCmd->add_flag("--exact-keys", fuzz.exactKeys,
                    "No inexact op (sigmoid) before a sort or top-k, so the "
                    "order is bit-exact on every device (implied by a GPU "
                    "--device and by --export-artifacts)");
  fuzzCmd->add_option("--export-artifacts", fuzz.exportDir,
                      "Also write every compiled run as an artifact with "
                      "its inputs and reference outputs to this folder, for "
                      "sift-run on a GPU host");
  fuzzCmd->add_flag("--random-config", fuzz.randomConfig,
                    "GPU pipelines: draw a random valid lowering config per "
                    "op from each case's seed");
  fuzzCmd
      ->add_option("--out", fuzz.outDir,
                   "Output folder (findings.db, cases/, summary.json)")
      ->capture_default_str();
  double progressSeconds = -1;
  auto *progressOpt = fuzzCmd->add_option(
      "--progress", progressSeconds,
      "Seconds between progress lines (0: none; default 1 on a terminal, "
      "10 otherwise)");

  // harness replay
  ReplayOptions replay;
  std::string replayTimeout = "20";
  CLI::App *replayCmd = app.add_subcommand(
      "replay", "Run stored cases again (corpus/, a campaign's cases/) and "
                "fail when a verdict changed");
  replayCmd->add_option("folders", replay.folders,
                        "Case folders or folders of them")
      ->required();
  replayCmd->add_flag(
      "--rewrite", replay.rewrite,
      "Write each case folder again with the verdict observed: program.mlir, "
      "expected and actual outputs, case.json (accepts a changed verdict; "
      "completes a hand-made case.json and inputs)");
  replayCmd->add_option(
      "--junit", replay.junit,
      "Also write a JUnit XML report here: one test case per case folder, "
      "a changed verdict as a failure, an unreadable case as an error");
  replayCmd
      ->add_option("--case-timeout", replayTimeout,
                   "Time limit of one case: 20, 20s, 1m")
      ->capture_default_str();

  // harness reduce
  ReduceOptions reduceOpts;
  std::string reduceTimeout = "20", reduceMemory = "4G";
  CLI::App *reduceCmd = app.add_subcommand(
      "reduce", "Shrink a finding's case folder while its signature stays "
                "the same");
  reduceCmd->add_option("case", reduceOpts.folder, "A case folder (case.json)")
      ->required();
  reduceCmd->add_option("-o,--output", reduceOpts.output,
                        "The reduced case folder (default: CASE-reduced)");
  reduceCmd
      ->add_option("--case-timeout", reduceTimeout,
                   "Time limit of one test (a case's own timeout_seconds "
                   "wins when shorter): 20, 20s, 1m")
      ->capture_default_str();
  reduceCmd
      ->add_option("--memory-limit", reduceMemory,
                   "Memory limit of one test: 512M, 4G, or none")
      ->capture_default_str();

  reduceCmd->add_flag("!--no-ir", reduceOpts.reduceIr,
                      "Stop after the model: skip the IR phase (sift-reduce)");

  // harness check
  CheckOptions check;
  CLI::App *checkCmd = app.add_subcommand(
      "check", "Compile a program given as MLIR with a case folder's options "
               "and static oracles; exit 1 when it shows the case's "
               "signature (the test harness reduce gives mlir-reduce)");
  checkCmd->add_option("program", check.program, "The program (.mlir)")
      ->required();
  checkCmd->add_option("--like", check.like,
                       "The case folder (case.json) to compare with")
      ->required();

  // harness merge
  MergeOptions merge;
  CLI::App *mergeCmd = app.add_subcommand(
      "merge", "Join the findings databases of a campaign's shards into one, "
               "without duplicates");
  mergeCmd->add_option("databases", merge.inputs, "findings.db files")
      ->required();
  mergeCmd->add_option("-o,--output", merge.output, "The merged database")
      ->required();

  // harness import
  ImportOptions import;
  CLI::App *importCmd = app.add_subcommand(
      "import", "Bring the verdicts of sift-run CSVs (a GPU host's half of "
                "a campaign) into the findings database");
  importCmd->add_option("results", import.csvFiles, "sift-run CSV files")
      ->required();
  importCmd
      ->add_option("--out", import.outDir,
                   "Output folder (findings.db, cases/)")
      ->capture_default_str();
  importCmd->add_option("--artifacts", import.artifactsDir,
                        "Folder of the exported artifacts (default: the "
                        "CSV's file column)");

  // harness run
  RunOptions run;
  std::string runPipeline = "cpu", runDevice = "cpu";
  CLI::App *runCmd = app.add_subcommand(
      "run", "Compile one program, run it on .npy inputs, write .npy outputs");
  runCmd->add_option("program", run.program, "Program (.mlir)")->required();
  runCmd->add_option("--pipeline", runPipeline, "Pipeline")
      ->capture_default_str();
  runCmd
      ->add_option("--device", runDevice,
                   "Device: cpu (cpu pipeline), cuda (GPU pipelines, "
                   "nvptx) or hip (GPU pipelines, amdgpu)")
      ->capture_default_str();
  runCmd->add_option("--chip", run.chip,
                     "GPU chip (default sm_90 for cuda, gfx942 for hip)");
  runCmd->add_option("--input", run.inputs,
                     "Input .npy, once per function argument, in order");
  runCmd
      ->add_option("--output-dir", run.outputDir,
                   "Folder for result0.npy, result1.npy, ...")
      ->capture_default_str();
  std::string runInject;
  runCmd->add_option("--inject", runInject,
                     "Faults to inject, comma-separated (the README lists "
                     "them)");
  runCmd->add_option("--crash-reproducer", run.crashReproducer,
                     "Keep MLIR's crash reproducer here when the compiler "
                     "crashes (replay it with sift-opt --run-reproducer)");

  // harness compile
  CompileCommandOptions compile;
  std::string compilePipeline = "cpu", compileEmit = "artifact", compileTarget;
  CLI::App *compileCmd =
      app.add_subcommand("compile", "Compile one program and stop at a stage");
  compileCmd->add_option("program", compile.program, "Program (.mlir)")
      ->required();
  compileCmd->add_option("--pipeline", compilePipeline, "Pipeline")
      ->capture_default_str();
  compileCmd
      ->add_option("--emit", compileEmit,
                   "Stage: mlir (after the pipeline), llvm (host LLVM "
                   "IR), ptx (nvptx kernels), artifact")
      ->capture_default_str();
  compileCmd->add_option("--target", compileTarget,
                         "Target: host (cpu pipeline), nvptx or amdgpu "
                         "(GPU pipelines; default nvptx)");
  std::string compileInject;
  compileCmd->add_option("--inject", compileInject,
                         "Faults to inject, comma-separated (the README "
                         "lists them)");
  compileCmd->add_option("--crash-reproducer", compile.crashReproducer,
                         "Keep MLIR's crash reproducer here when the "
                         "compiler crashes (replay it with sift-opt "
                         "--run-reproducer)");
  compileCmd->add_option("--chip", compile.chip,
                         "GPU chip (default sm_90 for nvptx, gfx942 for "
                         "amdgpu)");
  compileCmd->add_option("--input", compile.inputs,
                         "Input .npy for --emit=artifact, once per function "
                         "argument, in order: the artifact carries them and "
                         "the reference's outputs (sift-run runs it)");
  compileCmd
      ->add_option("-o,--output", compile.output,
                   "Output path ('-': stdout, text stages only)")
      ->capture_default_str();

  std::vector<const char *> cargs;
  for (const std::string &arg : args)
    cargs.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(cargs.size()), cargs.data());
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "harness: %s\nRun 'harness --help' for usage.\n",
                 e.what());
    return kExitUsage;
  }

  try {
    if (mergeCmd->parsed())
      return runMergeCommand(merge);
    if (replayCmd->parsed()) {
      replay.caseTimeoutSeconds = durationFlag("--case-timeout", replayTimeout);
      return runReplayCommand(replay);
    }
    if (checkCmd->parsed())
      return runCheckCommand(check);
    if (reduceCmd->parsed()) {
      reduceOpts.caseTimeoutSeconds =
          durationFlag("--case-timeout", reduceTimeout);
      reduceOpts.memoryLimitBytes = memoryFlag(reduceMemory);
      return runReduceCommand(reduceOpts);
    }
    if (importCmd->parsed()) {
      import.commandLine = commandLine;
      return runImportCommand(import);
    }
    if (fuzzCmd->parsed()) {
      fuzz.runs = fuzzRunsFrom(fuzzPipeline, fuzzTargets, fuzzChips);
      fuzz.device = deviceFromName(fuzzDevice);
      fuzz.isolate = !noIsolate;
      if (fuzz.jobs > 1 && (!fuzz.isolate || fuzz.device != rt::DeviceKind::Cpu))
        throw UsageError{"--jobs=" + std::to_string(fuzz.jobs) +
                         " runs isolated cases in parallel: it cannot be "
                         "combined with --no-isolate or a GPU --device "
                         "(which runs cases in this process)"};
      Result<std::pair<uint64_t, uint64_t>> shardChoice = shardFrom(shard);
      if (!shardChoice.ok())
        throw UsageError{shardChoice.message()};
      fuzz.shardIndex = shardChoice->first;
      fuzz.shardCount = shardChoice->second;
      fuzz.caseTimeoutSeconds = durationFlag("--case-timeout", caseTimeout);
      fuzz.memoryLimitBytes = memoryFlag(memoryLimit);
      std::string faultError;
      std::optional<FaultSet> faults = parseFaults(
          fuzz.injectText, /*forFuzz=*/true, faultError,
          /*isolated=*/fuzz.isolate && fuzz.device == rt::DeviceKind::Cpu);
      if (!faults)
        throw UsageError{"--inject: " + faultError};
      fuzz.faults = *faults;
      fuzz.families = familiesFromList(fuzzFamilies);
      if (fuzz.device != rt::DeviceKind::Cpu || !fuzz.exportDir.empty())
        fuzz.exactKeys = true;
      fuzz.inputs = inputModeFromName(fuzzInputs);
      fuzz.commandLine = commandLine;
      if (fuzz.outDir.empty())
        throw UsageError{"--out needs a folder name"};
      if (*countOpt)
        fuzz.count = fuzzCount;
      if (*timeOpt) {
        fuzz.seconds = durationFlag("--time", fuzzTime);
      }
      if (!fuzz.count && !fuzz.seconds)
        fuzz.count = 100;
      if (*progressOpt) {
        if (progressSeconds < 0)
          throw UsageError{"--progress must be >= 0"};
        fuzz.progressSeconds = progressSeconds;
      }
      return runFuzzCommand(fuzz);
    }
    if (runCmd->parsed()) {
      run.pipeline = pipelineFromName(runPipeline);
      run.device = deviceFromName(runDevice);
      run.faults = faultsFlag(runInject);
      return runRunCommand(run);
    }
    if (compileCmd->parsed()) {
      compile.pipeline = pipelineFromName(compilePipeline);
      compile.faults = faultsFlag(compileInject);
      compile.emit = emitFromName(compileEmit);
      if (!compileTarget.empty())
        compile.target = targetFromName(compileTarget);
      else
        compile.target = compile.pipeline == PipelineKind::Cpu
                             ? TargetKind::Host
                             : TargetKind::Nvptx;
      return runCompileCommand(compile);
    }
  } catch (const UsageError &e) {
    std::fprintf(stderr, "harness: %s\n", e.message.c_str());
    return kExitUsage;
  }
  return kExitUsage;
}
