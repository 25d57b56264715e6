//===- NightlyCommand.cpp - `harness nightly`: its flags ------------------===//
//
// The command line of one night (harness/nightly/Nightly.cpp does the work):
// --time and --out are required; pipelines, targets, families and input
// modes narrow the cells; a shard comes from --shard or the environment
// (Slurm arrays, Kubernetes indexed jobs), as for `harness fuzz`.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"

#include <memory>

namespace sift::harness {

namespace {

struct NightlyFlags {
  NightlyOptions options;
  std::string time, slot = "3m", reduceTime = "1m", caseTimeout, device = "cpu",
                    shard, pipelines, targets = "host,nvptx,amdgpu",
                    families = "sort,topk,nms", inputs = "all";
};

std::vector<PipelineKind> pipelinesFrom(const std::string &list) {
  std::vector<PipelineKind> out;
  for (const std::string &name : listFlag(list, "--pipeline")) {
    if (name == "all")
      out.insert(out.end(), std::begin(kSiftPipelineKinds),
                 std::end(kSiftPipelineKinds));
    else if (name == "iree-all")
      out.insert(out.end(), std::begin(kIreePipelineKinds),
                 std::end(kIreePipelineKinds));
    else
      out.push_back(pipelineFlag(name));
  }
  return out;
}

void toOptions(NightlyFlags &f) {
  NightlyOptions &o = f.options;
  o.seconds = durationFlag("--time", f.time);
  o.slotSeconds = durationFlag("--slot", f.slot);
  o.reduceSeconds = durationFlag("--reduce-time", f.reduceTime);
  o.device = deviceFlag(f.device);
  if (o.device != rt::DeviceKind::Cpu && o.device != rt::DeviceKind::Emu)
    throw UsageError{"--device=" + f.device +
                     ": a night runs its GPU cells on cpu (static verdicts) "
                     "or emu"};
  // As fuzz: the emu device's heaviest cases take minutes.
  o.caseTimeoutSeconds =
      f.caseTimeout.empty()
          ? defaultCaseTimeout(true, o.device == rt::DeviceKind::Emu)
          : durationFlag("--case-timeout", f.caseTimeout);
  Result<std::pair<uint64_t, uint64_t>> shard = shardFrom(f.shard);
  if (!shard.ok())
    throw UsageError{shard.message()};
  o.shardIndex = shard->first;
  o.shardCount = shard->second;
  if (!f.pipelines.empty()) {
    o.selection.pipelines = pipelinesFrom(f.pipelines);
    o.pipelinesGiven = true;
  }
  o.selection.targets.clear();
  for (const std::string &name : listFlag(f.targets, "--target"))
    o.selection.targets.push_back(targetFlag(name));
  o.selection.families.clear();
  for (const std::string &name : listFlag(f.families, "--family")) {
    auto family = gen::parseFamily(name);
    if (!family)
      throw UsageError{"unknown family '" + name +
                       "'; valid families: sort, topk, nms"};
    o.selection.families.push_back(*family);
  }
  if (f.inputs != "all") {
    o.selection.inputs.clear();
    for (const std::string &name : listFlag(f.inputs, "--inputs"))
      o.selection.inputs.push_back(inputModeFlag(name));
  }
  checkOutFolder("--out", o.outDir);
  if (o.corpus == "none")
    o.corpus.clear();
  if (!o.injectText.empty())
    o.faults = faultsFlag(o.injectText);
}

} // namespace

CommandEntry addNightlyCommand(CLI::App &app, const std::string &commandLine) {
  auto f = std::make_shared<NightlyFlags>();
  f->options.commandLine = commandLine;
  CLI::App *cmd = app.add_subcommand(
      "nightly",
      "One night: replay the corpus, fuzz the cells recent nights covered "
      "least, reduce new signatures, compare with the previous night "
      "(exit 0 nothing new, 1 new signatures, 3 a corpus regression)");
  cmd->add_option("--time", f->time, "The night's budget: 2h, 90m, 600")
      ->required();
  cmd->add_option("--out", f->options.outDir,
                  "The night's folder (findings.db, cases/, reduced/, "
                  "nightly.json); the same command on it again resumes")
      ->required();
  cmd->add_option("--previous", f->options.previous,
                  "The previous night's findings.db (new / open / fixed / "
                  "flaky, and the schedule)");
  cmd->add_option("--shard", f->shard,
                  "I/N: this job's share of each slot's cases and of the "
                  "corpus (default: Slurm's or Kubernetes' array index)");
  cmd->add_option("--corpus", f->options.corpus,
                  "Regression corpus replayed first (none: no replay)")
      ->capture_default_str();
  cmd->add_option("--seed", f->options.seed,
                  "The night's seed (default: its date, YYYYMMDD)");
  cmd->add_option("--pipeline", f->pipelines,
                  "Pipelines (default: sift's, and IREE's when installed)");
  cmd->add_option("--target", f->targets, "Targets")->capture_default_str();
  cmd->add_option("--family", f->families, "Families")->capture_default_str();
  cmd->add_option("--inputs", f->inputs, "Input modes, or all")
      ->capture_default_str();
  cmd->add_option("--inject", f->options.injectText,
                  "Faults for sift's pipelines (proves the night finds "
                  "them)");
  cmd->add_option("--known", f->options.knownFile,
                  "IREE's known root causes for the IREE slots (default: "
                  "the source tree's corpus/iree/known.json; none: neither "
                  "tagged nor steered around)");
  cmd->add_flag("--explore-known", f->options.exploreKnown,
                "IREE slots also compile what meets an open known root "
                "cause's trigger");
  cmd->add_option("--jobs", f->options.jobs, "Isolated cases at once")
      ->capture_default_str();
  cmd->add_option("--slot", f->slot, "One cell's fuzz time")
      ->capture_default_str();
  cmd->add_option("--reduce-time", f->reduceTime,
                  "Time box of one new signature's reduction")
      ->capture_default_str();
  cmd->add_option("--repeat", f->options.repeats,
                  "Replays of each signature's case (flaky check)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--case-timeout", f->caseTimeout,
                  "Time limit of one case (default 60 s; 300 s with "
                  "--device=emu)");
  cmd->add_option("--device", f->device,
                  "Where the GPU cells run: cpu (static verdicts only) or "
                  "emu (tileandfuse's and distribute's kernels for nvptx "
                  "and amdgpu on the host, with checks)")
      ->capture_default_str();
  cmd->add_option("--bench", f->options.benchTable,
                  "Tonight's GPU bench table folder (harness bench --results "
                  "-o DIR): its slow kernels and failed runs join tonight's "
                  "findings, and an earlier slow kernel it times within the "
                  "slow factor is fixed");
  return {cmd, [f] {
            toOptions(*f);
            return runNightlyCommand(f->options);
          }};
}

} // namespace sift::harness
