//===- NightlyCommand.cpp - `harness nightly`: its flags ------------------===//
//
// The command line of one night (harness/nightly/Nightly.cpp does the work):
// --time and --out are required; pipelines, targets, families and input
// modes narrow the cells; a shard comes from --shard or the environment
// (Slurm arrays, Kubernetes indexed jobs), as for `harness fuzz`. Systems
// described by files take part only when asked for, as in `harness fuzz`
// (--pipeline=xla, xla-all, --system=FILE), with cells on the host. The
// default corpus is the installation's, found from where the program is.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/sut/Systems.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

struct NightlyFlags {
  NightlyOptions options;
  std::string corpus, time,
      slot = "3m", reduceTime = "1m", caseTimeout, device = "cpu", shard,
      pipelines, targets = "host,nvptx,amdgpu", families = "sort,topk,nms",
      inputs = "all";
  std::vector<std::string> systems;
};

/// --pipeline and --system: the night's pipelines, a system file's those
/// that run on the host (its GPU targets run on the GPU host), each with
/// the --system file it comes from.
void pipelinesFrom(const NightlyFlags &f, NightlyOptions &o) {
  Systems systems;
  PipelineSelection selected =
      pipelinesFlag(systems, f.pipelines, f.systems, !f.pipelines.empty());
  o.selection.pipelines = selected.kinds;
  std::string gpuOnly;
  for (const SystemPipeline *pipeline : selected.files) {
    if (std::count(pipeline->targets.begin(), pipeline->targets.end(),
                   TargetKind::Host) == 0) {
      gpuOnly += (gpuOnly.empty() ? "" : ", ") + pipeline->fullName;
      continue;
    }
    o.selection.filePipelines.push_back(pipeline->fullName);
    const SystemFile *file = *systems.fileWithPipeline(pipeline->fullName);
    std::error_code ec;
    for (const std::string &path : f.systems)
      if (fs::equivalent(path, file->path, ec))
        o.systemFiles[pipeline->fullName] =
            fs::absolute(path).lexically_normal().string();
  }
  if (!gpuOnly.empty() && o.selection.pipelines.empty() &&
      o.selection.filePipelines.empty())
    throw UsageError{"--pipeline: " + gpuOnly +
                     " runs on no host target: a night runs a system "
                     "file's pipelines on the host (GPU targets run on the "
                     "GPU host: harness fuzz --export-artifacts, sift-run)"};
}

/// The source tree's corpus of the build whose folder is `dir` or holds
/// it (its CMakeCache.txt names the source tree); "" when neither is a
/// build's. `looked` gets where it looked.
std::string buildSourceCorpus(const fs::path &dir, std::string &looked) {
  std::error_code ec;
  for (const fs::path &build : {dir, dir.parent_path()}) {
    std::ifstream cache(build / "CMakeCache.txt");
    const std::string key = "CMAKE_HOME_DIRECTORY:INTERNAL=";
    for (std::string line; cache && std::getline(cache, line);)
      if (line.rfind(key, 0) == 0) {
        fs::path corpus = fs::path(line.substr(key.size())) / "corpus";
        looked = corpus.string() + " (the source tree of the build in " +
                 build.string() + ")";
        return fs::is_directory(corpus, ec) ? corpus.string() : "";
      }
  }
  looked = "for a build's CMakeCache.txt in " + dir.string() + " or " +
           dir.parent_path().string() + " (its source tree's corpus)";
  return "";
}

/// The installation's corpus, found from where this program is, not from
/// the current folder (cron and Slurm start a night anywhere):
/// <prefix>/share/sift/corpus beside <prefix>/bin/harness, else the source
/// tree's corpus/ of the build the program is in. None found is a usage
/// error naming both, before the night writes anything.
std::string defaultCorpus() {
  std::error_code ec;
  fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  fs::path share = dir.parent_path() / "share" / "sift" / "corpus";
  if (fs::is_directory(share, ec))
    return share.string();
  std::string looked;
  std::string source = buildSourceCorpus(dir, looked);
  if (!source.empty())
    return source;
  throw UsageError{"no corpus to replay: looked for " + share.string() +
                   " (beside the program) and " + looked +
                   "; give --corpus=DIR, or --corpus=none"};
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
  if (!f.pipelines.empty() || !f.systems.empty()) {
    pipelinesFrom(f, o);
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
  std::error_code ec;
  if (f.corpus.empty())
    o.corpus = defaultCorpus();
  else if (f.corpus == "none")
    o.corpus.clear();
  else if (!fs::is_directory(f.corpus, ec))
    throw UsageError{"--corpus: " + f.corpus + ": no such folder"};
  else
    o.corpus = f.corpus;
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
      "(exit 0 nothing new: known root causes are not new; 1 new "
      "signatures; 3 a corpus regression)");
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
  cmd->add_option("--corpus", f->corpus,
                  "Regression corpus replayed first (default: the "
                  "installation's, share/sift/corpus beside the program or "
                  "its build's source tree's corpus/; none: no replay)");
  cmd->add_option("--seed", f->options.seed,
                  "The night's seed (default: its date, YYYYMMDD)");
  cmd->add_option("--pipeline", f->pipelines,
                  "Pipelines, as harness fuzz takes them: sift's, IREE's, "
                  "a system file's (xla, onnxruntime-basic, xla-all: "
                  "harness list systems; on the host) (default: sift's, "
                  "and IREE's when installed)");
  cmd->add_option("--system", f->systems,
                  "A system file (TOML, docs/systems.md) of a compiler to "
                  "test; its pipelines are the night's unless --pipeline "
                  "names others (repeatable)");
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
