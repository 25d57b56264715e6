//===- Commands.h - The harness commands over plain option structs -*- C++
//-*-===//
//
// main.cpp parses the command line (CLI11) into these structs; each command
// is a function that returns the process exit code of DESIGN.md:
// 0 nothing found, 1 findings (or a failed compile/run of a given program),
// 2 bad usage or bad input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "generators/Policy.h"
#include "harness/nightly/NightlyPlan.h"
#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Target/Compile.h"
#include "runtime/Device.h"
#include "support/Result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

/// Exit codes.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitUsage = 2;
/// `harness nightly`: a corpus case changed its verdict (a regression).
inline constexpr int kExitRegression = 3;

/// One pipeline and the target it compiles for.
struct PipelineTarget {
  PipelineKind pipeline = PipelineKind::Cpu;
  TargetKind target = TargetKind::Host;
  std::string chip;
  /// PipelineKind::File: the system file's pipeline, by its full name.
  std::string filePipeline;
};

/// The (pipeline, target) pairs `--pipeline` and `--target` select: cpu
/// targets the host; each GPU pipeline every selected GPU target.
/// Chips are given per target ("sm_90", "gfx942").
std::vector<PipelineTarget>
selectPipelineTargets(const std::vector<PipelineKind> &pipelines,
                      const std::vector<TargetKind> &targets,
                      const std::vector<std::string> &chips);

/// `harness [fuzz]`.
struct FuzzOptions {
  /// Every (pipeline, target) each case is compiled for.
  std::vector<PipelineTarget> runs = {PipelineTarget{}};
  /// System files given with --system (their pipelines are in `runs`);
  /// shipped ones (systems/) are found by their pipeline's name.
  std::vector<std::string> systemFiles;
  /// IREE's known root causes (--known): "" the source tree's
  /// corpus/iree/known.json when it exists, "none" no tagging.
  std::string knownFile;
  /// Compile the programs that meet an open known root cause's trigger too
  /// (--explore-known); by default IREE runs steer around them.
  bool exploreKnown = false;
  /// Cases to run; with `seconds` too, whichever ends first.
  std::optional<uint64_t> count;
  std::optional<double> seconds;
  uint64_t seed = 1;
  /// Index of the first case (to re-run case N of a campaign alone).
  uint64_t skip = 0;
  std::vector<gen::Family> families = {gen::Family::Sort, gen::Family::TopK,
                                       gen::Family::Nms};
  gen::InputMode inputs = gen::InputMode::Mixed;
  /// Random valid lowering configs, drawn from each case's seed.
  bool randomConfig = false;
  /// IREE's front end (--frontend); none: drawn per case.
  std::optional<gen::FrontEnd> frontEnd;
  /// Injected faults (--inject) and the list as given, for repro commands.
  FaultSet faults;
  std::string injectText;
  std::string outDir = "sift-out";
  /// The device GPU runs execute on (cpu: static verdicts only).
  rt::DeviceKind device = rt::DeviceKind::Cpu;
  /// When set, every compiled GPU run is also written here as an artifact
  /// carrying its inputs, reference outputs and tolerances (sift-run).
  std::string exportDir;
  /// GPU runs are compiled with their emu kernels too, without running them
  /// here (--emu-kernels: the exports run on any device; --device=emu
  /// implies it).
  bool emuKernels = false;
  /// No inexact op feeds a sort key or top-k input (gen::Policy::
  /// allowInexactKeys off): on with a GPU device or exports, whose results
  /// are compared with the host reference bit for bit.
  bool exactKeys = false;
  /// How large the generated tensors get (--sizes); large exports carry no
  /// inputs or expected outputs (sift-run regenerates them from the seed).
  gen::SizeMode sizes = gen::SizeMode::Default;
  /// Every case in a child process with these limits (on by default; off
  /// with a GPU device, whose context a child cannot share).
  bool isolate = true;
  /// Isolated cases run at once (--jobs); results are handled in case
  /// order, so a campaign's output does not depend on it.
  size_t jobs = 1;
  /// Continue the last unfinished campaign with the same seed, runs, data,
  /// families, faults and configs in the output folder's database.
  bool resume = false;
  /// When set, every case's folder (any verdict) is written here in the
  /// corpus format, to keep a slice of a campaign as a regression suite.
  std::string saveCasesDir;
  /// Shard `shardIndex` of `shardCount`: only cases i with
  /// i % shardCount == shardIndex run (--shard, or Slurm / Kubernetes).
  uint64_t shardIndex = 0, shardCount = 1;
  double caseTimeoutSeconds = 60;
  uint64_t memoryLimitBytes = uint64_t(4) << 30;
  /// Progress every this many seconds (0: never); default 1 s on a
  /// terminal, 10 s otherwise.
  std::optional<double> progressSeconds;
  /// The summary as JSON on stdout (summary.json's), the text summary on
  /// stderr.
  bool json = false;
  /// A slot of a nightly: a stop says nothing of --resume (the nightly
  /// says how it goes on: the same command again).
  bool nightlySlot = false;
  /// The command line, stored with the run.
  std::string commandLine;
};

/// `harness run`.
struct RunOptions {
  std::string program;
  PipelineKind pipeline = PipelineKind::Cpu;
  /// cpu runs the cpu pipeline; cuda (nvptx) and hip (amdgpu) the GPU ones.
  rt::DeviceKind device = rt::DeviceKind::Cpu;
  /// The GPU chip to compile for; empty: the target's default.
  std::string chip;
  std::vector<std::string> inputs;
  std::string outputDir = ".";
  FaultSet faults;
  /// Where a compiler crash leaves MLIR's reproducer; "" keeps none.
  std::string crashReproducer;
  /// The lowering configs the ops get (--like's recorded ones, --config's),
  /// named by `configSource` in messages; and --like's random-config seed
  /// (-1: the default strategy).
  std::vector<std::string> loweringConfigs;
  std::string configSource;
  int64_t randomConfigSeed = -1;
};

/// `harness compile`.
struct CompileCommandOptions {
  std::string program;
  PipelineKind pipeline = PipelineKind::Cpu;
  /// Host for cpu; nvptx or amdgpu for the GPU pipelines.
  TargetKind target = TargetKind::Host;
  std::string chip;
  FaultSet faults;
  EmitStage emit = EmitStage::Artifact;
  /// Input .npy files (--emit=artifact): the artifact carries them and,
  /// where the reference reaches the program, its expected outputs.
  std::vector<std::string> inputs;
  /// --bench: the artifact is a run of this benchmark program (sift-run
  /// --bench times it on the benchmark's inputs and checks it against the
  /// benchmark's reference), e.g. the program with hand-set lowering configs.
  std::string bench;
  /// GPU targets: the artifact also carries the emu kernels (--emu-kernels).
  bool emuKernels = false;
  /// --timing: where the compile's time went, on stderr.
  bool timing = false;
  std::string output = "-";
  /// Where a compiler crash leaves MLIR's reproducer; "" keeps none.
  std::string crashReproducer;
  /// The lowering configs the ops get (--like's recorded ones, --config's),
  /// named by `configSource` in messages; and --like's random-config seed
  /// (-1: the default strategy).
  std::vector<std::string> loweringConfigs;
  std::string configSource;
  int64_t randomConfigSeed = -1;
};

/// `harness import`.
struct ImportOptions {
  std::vector<std::string> csvFiles;
  std::string outDir = "sift-out";
  /// Where the exported artifacts are (default: each row's file path).
  std::string artifactsDir;
  std::string commandLine;
};

/// `harness replay`.
/// A case's default time limit: a campaign's (fuzz, nightly) or a replayed
/// one's (replay, reduce); on the emu device, which runs a GPU's threads
/// one at a time and takes minutes on its heaviest cases, 300 s for both.
inline double defaultCaseTimeout(bool campaign, bool emu) {
  return emu ? 300.0 : campaign ? 60.0 : 20.0;
}

struct ReplayOptions {
  std::vector<std::string> folders;
  /// A case's time limit; none: 20 s, 300 s for a case run on emu.
  std::optional<double> caseTimeoutSeconds;
  /// Write each folder again with the verdict observed (to accept a
  /// changed verdict, or to complete a hand-made case.json and inputs).
  bool rewrite = false;
  /// Where to write a JUnit XML report (one test case per case folder), for
  /// CI dashboards; "" writes none.
  std::string junit;
  /// Replay sift's cases with these faults instead of their recorded ones
  /// (the nightly judges a previous night's case against tonight's
  /// compiler, which is sift with tonight's --inject).
  std::optional<FaultSet> faults;
  /// Where the GPU pipelines' cases run (--device): none, each case where
  /// its case.json says ("device"; static verdicts only without one); cpu,
  /// every one statically; emu, every one's kernels on the host.
  std::optional<rt::DeviceKind> device;
  /// When set, each case's compiled GPU run is also written here as an
  /// artifact (sift's .siftart, IREE's .ireecase) for sift-run on a GPU
  /// host; a case that shows only on a GPU run is compiled to be exported
  /// (--export-artifacts), not judged here.
  std::string exportDir;
};

/// One case folder replayed (`harness replay`, the nightly's corpus).
struct ReplayRecord {
  std::string name, folder;
  /// The verdicts recorded in case.json and seen now ("" when unreadable).
  std::string recorded, observed;
  double seconds = 0;
  /// "" when the verdict held; else the failure's one-line message.
  std::string failure;
  /// "" when the case was read and run; else why not.
  std::string error;
  /// The detail behind a failure (the observed verdict's full text).
  std::string body;
  /// A known root cause's case (known.json beside its folder or above it)
  /// that passes now: "R5 (iree-org/iree#19474)"; not a failure.
  std::string fixedUpstream;
  /// A known root cause's case that shows only on a GPU run (its
  /// "needs_device"), which a replay here cannot give: why it was not
  /// replayed ("R9 shows only on a cuda run"); neither a pass nor a failure.
  std::string needsDevice;
};

/// Replays each case folder (not a folder of them) in an isolated worker,
/// printing one line per case as `harness replay` does; an error only when
/// no device could be opened.
Result<std::vector<ReplayRecord>>
replayCaseFolders(const std::vector<std::string> &folders,
                  const ReplayOptions &options);

/// `harness reduce`.
struct ReduceOptions {
  std::string folder;
  /// Where the reduced case folder goes (default: the case's folder name
  /// with "-reduced").
  std::string output;
  /// One test's time limit; none: 20 s, 300 s for a case run on emu.
  std::optional<double> caseTimeoutSeconds;
  uint64_t memoryLimitBytes = uint64_t(4) << 30;
  /// After the model, reduce the IR with sift-reduce (mlir-reduce) when the
  /// compile decides the verdict.
  bool reduceIr = true;
};

/// `harness check`.
struct CheckOptions {
  /// A case folder (judged as replay judges it, on its device), or a
  /// program (.mlir) checked against `like`.
  std::string program;
  /// The case folder whose options (pipeline, target, faults, ...) and
  /// signature the program is checked against.
  std::string like;
  /// Where a case folder's GPU runs execute instead of its own device.
  std::optional<rt::DeviceKind> device;
  /// A program with --like: the lowering configs its ops get (a
  /// lowering.json, or a case.json with "lowering"); "" the case's seed.
  std::string config;
  std::optional<double> caseTimeoutSeconds;
};

/// `harness merge`.
struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
};

/// `harness bench`.
struct BenchOptions {
  std::vector<PipelineTarget> runs;
  /// Only these benchmarks (empty: every one).
  std::vector<std::string> benches;
  std::string exportDir;
  /// A table folder (harness bench --results -o): export the ladders of
  /// its slow kernels instead of the fixed programs.
  std::string ladderOf;
};

/// `harness report`.
struct ReportOptions {
  std::vector<std::string> databases;
  std::string output;
  /// IREE's known root causes for the upstream section ("" the source
  /// tree's corpus/iree/known.json when it exists; "none": no section) and
  /// `harness bisect --json`'s file ("" bisect.json beside known.json when
  /// it exists; "none": no bisection column).
  std::string knownFile, bisectFile;
};

/// `harness nightly`.
struct NightlyOptions {
  /// The night's budget (--time), corpus replay to the last comparison.
  double seconds = 0;
  /// The night's folder: findings.db, cases/, reduced/, nightly.json.
  std::string outDir;
  /// The previous night's findings.db ("" none: every signature is new).
  std::string previous;
  uint64_t shardIndex = 0, shardCount = 1;
  /// Replayed first ("" replays nothing: --corpus=none).
  std::string corpus = "corpus";
  /// 0: the night's date (YYYYMMDD) when it started.
  uint64_t seed = 0;
  /// The cells a night draws (pipelines: sift's, and IREE's when its tools
  /// are installed).
  NightSelection selection;
  bool pipelinesGiven = false;
  /// The --system file (absolute) each of the selection's file pipelines
  /// comes from, by its full name; shipped ones are found by name.
  std::map<std::string, std::string> systemFiles;
  /// Faults injected into sift's pipelines (IREE's take none).
  FaultSet faults;
  std::string injectText;
  /// IREE's known root causes and whether to explore them (the fuzz
  /// slots' --known and --explore-known).
  std::string knownFile;
  bool exploreKnown = false;
  size_t jobs = 1;
  double slotSeconds = 180;
  /// Reduction of one new signature at most (and never past the budget).
  double reduceSeconds = 60;
  /// Replays of each signature's case for the flaky check.
  int repeats = 2;
  double caseTimeoutSeconds = 60;
  /// Where the GPU cells' runs execute: cpu (static verdicts only) or emu
  /// (their kernels on the host, with checks).
  rt::DeviceKind device = rt::DeviceKind::Cpu;
  std::string commandLine;
  /// Tonight's GPU bench table (`harness bench --results -o DIR`; "" none):
  /// its slow kernels and failed runs are tonight's findings, and an
  /// earlier night's slow kernel is fixed when it times within the factor.
  std::string benchTable;
};

/// The shard of `--shard=I/N`, or when it is absent of the environment:
/// Slurm arrays (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN of
/// SLURM_ARRAY_TASK_COUNT) or Kubernetes indexed jobs (JOB_COMPLETION_INDEX
/// of SIFT_SHARD_COUNT, the Job's completions). {0, 1} when none applies;
/// an error for a malformed or out-of-range shard.
Result<std::pair<uint64_t, uint64_t>> shardFrom(const std::string &flag);

int runFuzzCommand(const FuzzOptions &options);
int runMergeCommand(const MergeOptions &options);
int runNightlyCommand(const NightlyOptions &options);
int runReportCommand(const ReportOptions &options);
int runBenchCommand(const BenchOptions &options);
int runReplayCommand(const ReplayOptions &options);
int runReduceCommand(const ReduceOptions &options);
int runCheckCommand(const CheckOptions &options);
int runImportCommand(const ImportOptions &options);
int runRunCommand(const RunOptions &options);
int runCompileCommand(const CompileCommandOptions &options);

/// Parses `--inject=a,b`: every name must be a fault of the catalogue;
/// `forFuzz` refuses the runtime's faults (sift-run injects those) and,
/// unless `isolated`, the faults that crash or hang the compiler. On
/// failure returns nullopt and sets `error`.
std::optional<FaultSet> parseFaults(const std::string &list, bool forFuzz,
                                    std::string &error, bool isolated = false);

/// Why none of `runs` has a fault of `faults` ("" when each has one
/// that does): faults are planted in sift's compiler, most of them in its
/// GPU pipelines' kernels.
std::string faultsWithoutPipeline(const FaultSet &faults,
                                  const std::vector<PipelineTarget> &runs);

/// Parses a byte size: "4G", "512M", "1024K", "123". Nullopt if malformed
/// or zero.
std::optional<uint64_t> parseByteSize(const std::string &text);

} // namespace sift::harness
