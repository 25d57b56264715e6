//===- harness/commands/FuzzCommand.cpp - `harness fuzz` ------------------===//
//
// The flags of a campaign, their checks, and the campaign (FuzzCampaign).
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"
#include "harness/commands/Cli.h"
#include "harness/sut/Systems.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace sift::harness {

namespace {

/// The fuzz flags as given, checked and turned into FuzzOptions by
/// `toOptions`.
struct FuzzFlags {
  FuzzOptions options;
  std::string sizes = "default";
  std::string pipelines = "cpu", families = "sort,topk,nms", inputs = "mixed",
              time, targets = "nvptx,amdgpu", chips, device = "cpu",
              caseTimeout, memoryLimit = "4G", shard, frontEnd = "random";
  std::vector<std::string> systems;
  uint64_t count = 0;
  bool noIsolate = false;
  double progressSeconds = -1;
  CLI::Option *countOption = nullptr, *timeOption = nullptr,
              *progressOption = nullptr, *pipelineOption = nullptr,
              *targetOption = nullptr;
};

/// The runs of a file system's pipeline: the selected targets it compiles
/// for (--target given), else its host target when it has one, else all
/// of its targets.
void addFileRuns(const SystemPipeline &pipeline, const FuzzFlags &flags,
                 const std::vector<TargetKind> &targets,
                 std::vector<PipelineTarget> &runs) {
  std::vector<TargetKind> chosen;
  bool given = flags.targetOption && *flags.targetOption;
  for (TargetKind target : pipeline.targets)
    if (given ? std::count(targets.begin(), targets.end(), target) > 0
              : target == TargetKind::Host)
      chosen.push_back(target);
  if (!given && chosen.empty())
    chosen = pipeline.targets;
  for (TargetKind target : chosen) {
    PipelineTarget run{PipelineKind::File, target, "", pipeline.fullName};
    bool seen = false;
    for (const PipelineTarget &known : runs)
      seen |= known.pipeline == run.pipeline &&
              known.filePipeline == run.filePipeline && known.target == target;
    if (!seen)
      runs.push_back(run);
  }
}

/// --pipeline, --target, --chip: the (pipeline, target) runs. Every chip
/// must be in the chip table, for a selected target.
std::vector<PipelineTarget> runsFrom(const FuzzFlags &flags,
                                     std::vector<std::string> &systemFiles) {
  Systems systems;
  PipelineSelection selected = pipelinesFlag(
      systems, flags.pipelines, flags.systems,
      flags.pipelineOption && *flags.pipelineOption);
  systemFiles.insert(systemFiles.end(), flags.systems.begin(),
                     flags.systems.end());
  const std::vector<PipelineKind> &pipelines = selected.kinds;
  const std::vector<const SystemPipeline *> &files = selected.files;
  std::vector<TargetKind> targets;
  for (const std::string &name : listFlag(flags.targets, "--target")) {
    auto kind = parseTargetKind(name);
    if (!kind)
      throw UsageError{"unknown target '" + name +
                       "'; valid targets: nvptx, amdgpu, host (the cpu "
                       "and iree pipelines)"};
    // A target named twice is one target (its runs would be counted twice).
    if (std::find(targets.begin(), targets.end(), *kind) == targets.end())
      targets.push_back(*kind);
  }
  std::vector<std::string> chips;
  if (!flags.chips.empty())
    for (const std::string &chip : listFlag(flags.chips, "--chip")) {
      bool selected = false;
      for (TargetKind target : targets)
        selected |= findChip(target, chip).ok();
      if (!selected)
        throw UsageError{
            "--chip: '" + chip + "' is no chip of the selected targets; " +
            "nvptx chips: " + chipList(TargetKind::Nvptx) +
            "; amdgpu chips: " + chipList(TargetKind::Amdgpu)};
      chips.push_back(chip);
    }
  std::vector<PipelineTarget> selectedRuns =
      selectPipelineTargets(pipelines, targets, chips);
  for (const SystemPipeline *pipeline : files)
    addFileRuns(*pipeline, flags, targets, selectedRuns);
  // A pipeline or chip named twice selects its runs once.
  std::vector<PipelineTarget> runs;
  for (const PipelineTarget &run : selectedRuns)
    if (std::none_of(runs.begin(), runs.end(), [&](const PipelineTarget &r) {
          return r.pipeline == run.pipeline && r.target == run.target &&
                 r.chip == run.chip && r.filePipeline == run.filePipeline;
        }))
      runs.push_back(run);
  // A chip no run compiles for would be silently ignored.
  for (const std::string &chip : chips) {
    bool used = false;
    for (const PipelineTarget &run : runs)
      used |= run.target != TargetKind::Host && findChip(run.target, chip).ok();
    if (!used)
      throw UsageError{"--chip=" + chip +
                       ": no selected pipeline compiles for its target (the "
                       "cpu pipeline runs on the host); select a GPU "
                       "pipeline, or leave --chip out"};
  }
  return runs;
}

void addSelectionFlags(CLI::App *cmd, FuzzFlags &f) {
  f.pipelineOption =
      cmd->add_option("--pipeline", f.pipelines,
                      "Pipelines: sift's cpu, tileandfuse, distribute or "
                      "all; IREE's iree, iree-tileandfuse, iree-distribute "
                      "or iree-all; a system file's (xla, onnxruntime-basic, "
                      "xla-all: harness list systems); or a comma-separated "
                      "list")
          ->capture_default_str();
  cmd->add_option("--system", f.systems,
                  "A system file (TOML, docs/systems.md) of a compiler to "
                  "test; its pipelines are run unless --pipeline names "
                  "others (repeatable)");
  f.targetOption =
      cmd->add_option("--target", f.targets,
                      "Targets of the pipelines that choose one: nvptx, "
                      "amdgpu, host (iree and system files; cpu always runs "
                      "on the host; a system file's pipelines default to "
                      "host)")
          ->capture_default_str();
  cmd->add_option("--chip", f.chips,
                  "GPU chips, per target: sm_XX for nvptx (default sm_90), "
                  "gfxNNN for amdgpu (default gfx942)");
  f.countOption = cmd->add_option("--count", f.count,
                                  "Number of cases (default 100 without "
                                  "--time)")
                      ->check(wholeNumber());
  f.timeOption = cmd->add_option("--time", f.time,
                                 "Time budget: 90, 90s, 5m, 2h (with --count: "
                                 "whichever ends first)");
  cmd->add_option("--seed", f.options.seed, "Campaign seed")
      ->check(wholeNumber())
      ->capture_default_str();
  cmd->add_option("--skip", f.options.skip,
                  "Index of the first case (re-run case N alone)")
      ->check(wholeNumber())
      ->capture_default_str();
  cmd->add_option("--family", f.families, "Op families: sort,topk,nms")
      ->capture_default_str();
  cmd->add_option("--sizes", f.sizes,
                  "Tensor sizes: default (work dimension up to 4096, 2^16 "
                  "elements a tensor) or large (up to 2^20 each, for GPU "
                  "campaigns; exported artifacts then carry no inputs, "
                  "sift-run regenerates them)")
      ->capture_default_str();
  cmd->add_option("--inputs", f.inputs,
                  "Input data: mixed, uniform, ties, special, sorted, "
                  "reversed")
      ->capture_default_str();
  cmd->add_option("--inject", f.options.injectText,
                  "Faults to inject, comma-separated (harness list faults "
                  "prints the catalogue)");
  cmd->add_flag("--random-config", f.options.randomConfig,
                "GPU pipelines: draw a random valid lowering config per op "
                "from each case's seed");
  cmd->add_option("--frontend", f.frontEnd,
                  "IREE's pipelines: the input form of every case: "
                  "linalg_ext (iree_linalg_ext ops), torch (torch.aten ops), "
                  "onnx (ONNX operators; the only one with NMS), or random "
                  "(one per case from its seed, among those that can spell "
                  "its program)")
      ->capture_default_str();
  cmd->add_flag("--exact-keys", f.options.exactKeys,
                "No inexact op (sigmoid) before a sort or top-k, so the "
                "order is bit-exact on every device (implied by a GPU "
                "--device and by --export-artifacts)");
}

void addExecutionFlags(CLI::App *cmd, FuzzFlags &f) {
  cmd->add_option("--device", f.device,
                  "Where GPU runs execute: cpu (GPU pipelines get static "
                  "verdicts only), cuda (nvptx runs on the GPU), hip "
                  "(amdgpu runs on the GPU) or emu (both targets' kernels "
                  "run on the host, with checks)")
      ->capture_default_str();
  cmd->add_option("--shard", f.shard,
                  "Run shard I of N (--shard=I/N): cases i with i % N == I. "
                  "Without it, Slurm array and Kubernetes indexed-job "
                  "variables choose the shard when set");
  cmd->add_flag("--resume", f.options.resume,
                "Continue the last unfinished (stopped or killed) campaign "
                "with the same seed, pipelines, data, families, faults and "
                "configs in --out's database after its last finished case; "
                "--count stays the campaign's total");
  cmd->add_flag("--no-isolate", f.noIsolate,
                "Run cases in this process instead of a child process each "
                "(a hang then ends the campaign)");
  cmd->add_option("--jobs,-j", f.options.jobs,
                  "Isolated cases run at once, each in its own child "
                  "process; results are handled in case order")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--case-timeout", f.caseTimeout,
                  "Time limit of one isolated case (compile and run): 90, "
                  "90s, 5m; over it: compile-timeout or run-timeout "
                  "(default 60 s; 300 s with --device=emu, whose kernels "
                  "run on fibers, each thread in turn)");
  cmd->add_option("--memory-limit", f.memoryLimit,
                  "Memory limit of one isolated case: 512M, 4G, or none "
                  "(address space; resident memory in sanitizer builds)")
      ->capture_default_str();
}

void addOutputFlags(CLI::App *cmd, FuzzFlags &f) {
  cmd->add_option("--out", f.options.outDir,
                  "Output folder (findings.db, cases/, summary.json)")
      ->capture_default_str();
  cmd->add_option("--known", f.options.knownFile,
                  "IREE's known root causes, which tag IREE findings in the "
                  "database, summary and report (default: the source tree's "
                  "corpus/iree/known.json; none: no tagging)");
  cmd->add_flag("--explore-known", f.options.exploreKnown,
                "IREE runs: also compile the programs that meet an open "
                "known root cause's trigger (by default they are spelled "
                "around it or not compiled: known.json's \"steer\")");
  cmd->add_flag("--json", f.options.json,
                "Print the summary as JSON on stdout (what summary.json "
                "holds; the text summary goes to stderr), for scripts");
  cmd->add_option("--save-cases", f.options.saveCasesDir,
                  "Also write every case's folder (any verdict, corpus "
                  "format) to this folder");
  cmd->add_option("--export-artifacts", f.options.exportDir,
                  "Also write every compiled run as an artifact with its "
                  "inputs and reference outputs to this folder, for sift-run "
                  "on a GPU host");
  cmd->add_flag("--emu-kernels", f.options.emuKernels,
                "Compile GPU runs with their emu kernels too, so that the "
                "exported artifacts also run on sift-run --device=emu "
                "(--device=emu implies it)");
  f.progressOption = cmd->add_option(
      "--progress", f.progressSeconds,
      "Seconds between progress lines (0: none; default 1 on a terminal, "
      "10 otherwise)");
}

/// Where and how cases run: device, isolation, jobs, shard, limits, faults.
void checkExecution(FuzzFlags &f) {
  FuzzOptions &o = f.options;
  o.device = deviceFlag(f.device);
  o.isolate = !f.noIsolate;
  // cpu and emu run on the host: isolated workers may run them.
  bool host =
      o.device == rt::DeviceKind::Cpu || o.device == rt::DeviceKind::Emu;
  if (o.jobs > 1 && (!o.isolate || !host))
    throw UsageError{"--jobs=" + std::to_string(o.jobs) +
                     " runs isolated cases in parallel: it cannot be "
                     "combined with --no-isolate or a GPU --device (which "
                     "runs cases in this process)"};
  Result<std::pair<uint64_t, uint64_t>> shard = shardFrom(f.shard);
  if (!shard.ok())
    throw UsageError{shard.message()};
  o.shardIndex = shard->first;
  o.shardCount = shard->second;
  // The emu device runs a GPU's thousands of threads one at a time: its
  // heaviest cases take minutes where a GPU takes milliseconds, and a
  // run-timeout is to show a hang, not a slow host.
  o.caseTimeoutSeconds =
      f.caseTimeout.empty()
          ? defaultCaseTimeout(true, o.device == rt::DeviceKind::Emu)
          : durationFlag("--case-timeout", f.caseTimeout);
  o.memoryLimitBytes = memoryFlag(f.memoryLimit);
  std::string faultError;
  std::optional<FaultSet> faults =
      parseFaults(o.injectText, /*forFuzz=*/true, faultError,
                  /*isolated=*/o.isolate && host);
  if (!faults)
    throw UsageError{"--inject: " + faultError};
  o.faults = *faults;
}

/// --frontend: random (none) or one of IREE's, which only IREE's
/// pipelines take.
std::optional<gen::FrontEnd>
frontEndFlag(const std::string &name, const std::vector<PipelineTarget> &runs) {
  if (name == "random")
    return std::nullopt;
  std::optional<gen::FrontEnd> frontEnd = gen::parseFrontEnd(name);
  if (!frontEnd || *frontEnd == gen::FrontEnd::Sift)
    throw UsageError{"--frontend=" + name +
                     ": valid front ends: random, linalg_ext, torch, onnx"};
  for (const PipelineTarget &run : runs) {
    if (systemOf(run.pipeline) != SystemKind::Iree)
      throw UsageError{"--frontend=" + name + " applies to IREE's pipelines, "
                       "not " + std::string(toString(run.pipeline))};
  }
  return frontEnd;
}

FuzzOptions toOptions(FuzzFlags &f, const std::string &commandLine) {
  FuzzOptions &o = f.options;
  o.runs = runsFrom(f, o.systemFiles);
  checkExecution(f);
  o.families.clear();
  for (const std::string &name : listFlag(f.families, "--family")) {
    auto family = gen::parseFamily(name);
    if (!family)
      throw UsageError{"unknown family '" + name +
                       "'; valid families: sort, topk, nms"};
    o.families.push_back(*family);
  }
  if (o.device != rt::DeviceKind::Cpu || !o.exportDir.empty())
    o.exactKeys = true;
  o.inputs = inputModeFlag(f.inputs);
  std::optional<gen::SizeMode> sizes = gen::parseSizeMode(f.sizes);
  if (!sizes)
    throw UsageError{"--sizes: unknown size mode '" + f.sizes +
                     "'; valid: default, large"};
  o.sizes = *sizes;
  if (o.sizes == gen::SizeMode::Large)
    for (const PipelineTarget &run : o.runs)
      if (run.pipeline == PipelineKind::Cpu)
        throw UsageError{"--sizes=large is for the GPU pipelines: the cpu "
                         "pipeline sorts a row with one thread (quadratic in "
                         "its length), so rows of 2^20 would time out; drop "
                         "cpu from --pipeline"};
  o.frontEnd = frontEndFlag(f.frontEnd, o.runs);
  if (std::string why = faultsWithoutPipeline(o.faults, o.runs); !why.empty())
    throw UsageError{"--inject: " + why};
  // --known tags IREE's findings: on other pipelines it would do nothing.
  if (!o.knownFile.empty() && o.knownFile != "none" &&
      std::none_of(o.runs.begin(), o.runs.end(), [](const PipelineTarget &r) {
        return systemOf(r.pipeline) == SystemKind::Iree;
      }))
    throw UsageError{"--known=" + o.knownFile +
                     ": known root causes tag IREE's findings, and no "
                     "selected pipeline is IREE's (iree, iree-tileandfuse, "
                     "iree-distribute); leave --known out"};
  o.commandLine = commandLine;
  checkOutFolder("--out", o.outDir);
  if (*f.countOption)
    o.count = f.count;
  if (*f.timeOption)
    o.seconds = durationFlag("--time", f.time);
  if (!o.count && !o.seconds)
    o.count = 100;
  // Case indices are 64-bit: the last one a campaign could reach must fit
  // (with --time alone, 2^32 cases are reserved).
  const uint64_t reach = o.count.value_or(uint64_t(1) << 32);
  if (o.skip > std::numeric_limits<uint64_t>::max() - reach)
    throw UsageError{"--skip=" + std::to_string(o.skip) + ": case " +
                     std::to_string(o.skip) + " plus " +
                     std::to_string(reach) +
                     " cases overflows the 64-bit case index; give a smaller "
                     "--skip"};
  if (*f.progressOption) {
    if (f.progressSeconds < 0)
      throw UsageError{"--progress must be >= 0"};
    o.progressSeconds = f.progressSeconds;
  }
  return o;
}

} // namespace

CommandEntry addFuzzCommand(CLI::App &app, const std::string &commandLine) {
  auto flags = std::make_shared<FuzzFlags>();
  CLI::App *cmd =
      app.add_subcommand("fuzz", "Generate, compile, run and check random "
                                 "programs (the default command)");
  addSelectionFlags(cmd, *flags);
  addExecutionFlags(cmd, *flags);
  addOutputFlags(cmd, *flags);
  return {cmd, [flags, commandLine] {
            return runFuzzCommand(toOptions(*flags, commandLine));
          }};
}

int runFuzzCommand(const FuzzOptions &options) {
  return FuzzCampaign(options).run();
}

} // namespace sift::harness
