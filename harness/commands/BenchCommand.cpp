//===- BenchCommand.cpp - `harness bench`: the benchmark programs compiled -===//
//
// The compile host's half of a benchmark: every program of
// gen::benchPrograms() through every selected pipeline and GPU target,
// with the static oracles, exported for the GPU host without its inputs
// (sift-run --bench makes them, and the reference, from the program; the
// largest would not travel). sift's runs become NAME.siftart with
// `case.bench`; IREE's become NAME.ireecase folders with "bench". A run
// that does not compile is a row of bench.json with its verdict, not an
// error: a pipeline that cannot compile a model-sized program is a result.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"
#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/report/BenchFindings.h"
#include "harness/report/BenchReport.h"
#include "harness/sut/Systems.h"

#include "generators/BenchPrograms.h"
#include "generators/MlirEmitter.h"
#include "oracles/Compare.h"
#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

struct BenchFlags {
  BenchOptions options;
  std::string pipelines = "tileandfuse,distribute,iree-all",
              targets = "nvptx", benches, results, manifest, report,
              findingsDir;
  double slowFactor = 20;
};

/// `harness bench --results=... -o DIR`: the GPU job's table.
int runBenchReport(const BenchFlags &f) {
  Result<BenchTable> table = readBenchTable(
      listFlag(f.results, "--results"),
      f.manifest.empty() ? std::vector<std::string>{}
                         : listFlag(f.manifest, "--manifest"),
      f.slowFactor);
  if (!table.ok()) {
    std::fprintf(stderr, "harness bench: %s\n", table.message().c_str());
    return kExitUsage;
  }
  if (Status s = writeBenchReport(*table, f.report); !s.ok()) {
    std::fprintf(stderr, "harness bench: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::printf("%s", benchMarkdown(*table).c_str());
  if (!f.findingsDir.empty())
    if (Status s = recordBenchFindings(*table, f.findingsDir,
                                       "harness bench --results=" + f.results);
        !s.ok()) {
      std::fprintf(stderr, "harness bench: %s\n", s.message().c_str());
      return kExitUsage;
    }
  int slow = 0, reduced = 0, failed = 0;
  std::set<std::string> unbased;
  for (const BenchRow &row : table->rows) {
    // A compiler's timed run with no vendor baseline beside it (a vendor
    // file missing from the job, or every baseline wrong): nothing says
    // whether it is fast.
    if (!isVendor(row.impl) && !row.rung && row.verdict == "pass" && row.ratio <= 0 &&
        unbased.insert(row.bench).second)
      std::printf("no baseline: %s has no passing vendor run in this job\n",
                  row.bench.c_str());
    slow += row.slow && !row.rung;
    reduced += !row.reducedTo.empty();
    // A wrong answer, a crash, a hang or a run the job never timed, of a
    // compiler or a vendor: the table cannot be trusted as a whole.
    if (row.verdict != "pass") {
      ++failed;
      std::printf("not a pass: %s/%s/%s: %s%s%s\n", row.bench.c_str(),
                  row.impl.c_str(), row.target.c_str(), row.verdict.c_str(),
                  row.detail.empty() ? "" : ": ", row.detail.c_str());
    }
  }
  std::printf("%d slow kernel(s) (over %.0fx the best vendor baseline), %d "
              "reduced, %d run(s) not a pass, %zu benchmark(s) without a "
              "baseline; %s/bench.md, bench.csv, bench.html, table.json\n",
              slow, f.slowFactor, reduced, failed, unbased.size(),
              f.report.c_str());
  return slow > 0 || failed > 0 || !unbased.empty() ? kExitFindings : kExitOk;
}

/// The front end IREE's runs spell a benchmark in: linalg_ext, but NMS
/// reaches IREE only through ONNX.
gen::FrontEnd ireeFrontEnd(const gen::BenchProgram &bench) {
  return bench.family == gen::Family::Nms ? gen::FrontEnd::Onnx
                                          : gen::FrontEnd::LinalgExt;
}

/// Compiles `bench` for `run`; the result holds the verdict of the compile
/// and static oracles.
CaseResult compileBench(Systems &systems, const gen::BenchProgram &bench,
                        const PipelineTarget &run, std::string &error) {
  CaseOptions o;
  o.pipeline = run.pipeline;
  o.target = run.target;
  o.chip = run.chip;
  o.inputs = bench.inputs;
  bool iree = systemOf(run.pipeline) == SystemKind::Iree;
  if (iree)
    o.frontEnd = ireeFrontEnd(bench);
  CaseResult result = blankCase(o, bench.seed);
  result.program = bench.program;
  result.mlir = gen::emitMlir(result.program);
  Result<SystemUnderTest *> system = systems.of(run.pipeline);
  if (!system.ok()) {
    error = system.message();
    return result;
  }
  auto start = std::chrono::steady_clock::now();
  (*system)->compile(o, result);
  result.compileSeconds = secondsSince(start);
  return result;
}

/// Writes the compiled run for the GPU host; its file or folder name.
Result<std::string> exportBench(const BenchOptions &options,
                                const gen::BenchProgram &bench,
                                const PipelineTarget &run, CaseResult &result) {
  FuzzOptions fuzz;
  fuzz.exportDir = options.exportDir;
  fuzz.inputs = bench.inputs;
  fuzz.families = {bench.family};
  rt::ExportedCase info;
  info.seed = bench.seed;
  info.pipeline = run.pipeline;
  info.target = run.target;
  info.chip = run.chip.empty() ? std::string(defaultChip(run.target)) : run.chip;
  info.inputs = std::string(gen::toString(bench.inputs));
  info.tolerances = oracle::outputTolerances(result.program);
  info.staticVerdict = std::string(oracle::toString(result.verdict));
  info.bench = bench.name;
  std::string name = bench.name + "-" + std::string(toString(run.pipeline)) +
                     "-" + std::string(toString(run.target));
  if (systemOf(run.pipeline) == SystemKind::Iree) {
    if (Status s = exportIreeBench(fuzz, info, result, name); !s.ok())
      return s.error();
    return name + rt::kIreeCaseExtension;
  }
  rt::Artifact artifact = result.artifact;
  artifact.inputs.clear();
  artifact.expected.clear();
  rt::setExportedCase(artifact, info);
  std::string path = (fs::path(options.exportDir) / (name + ".siftart")).string();
  if (Status s = rt::writeArtifact(path, artifact); !s)
    return makeError(path + ": " + s.message());
  return name + ".siftart";
}

/// One program through one pipeline and target.
struct BenchJob {
  gen::BenchProgram bench;
  PipelineTarget run;
};

/// The fixed programs, or those --bench names (a fixed one or any
/// well-formed shape: topk-RxC-kK, sort-RxC, nms-N), through every
/// selected run.
std::vector<BenchJob> fixedJobs(const BenchOptions &options) {
  std::vector<gen::BenchProgram> benches;
  if (options.benches.empty())
    benches = gen::benchPrograms();
  for (const std::string &name : options.benches)
    if (std::optional<gen::BenchProgram> bench = gen::findBenchProgram(name))
      benches.push_back(*bench);
  std::vector<BenchJob> jobs;
  for (const gen::BenchProgram &bench : benches)
    for (const PipelineTarget &run : options.runs)
      jobs.push_back({bench, run});
  return jobs;
}

/// The rungs of the ladder of every slow kernel of a table (those not
/// fixed programs themselves, each once), through its pipeline and target.
Result<std::vector<BenchJob>> ladderJobs(const std::string &tableDir) {
  std::string path = (fs::path(tableDir) / "table.json").string();
  Result<BenchTable> table = readBenchTableJson(path);
  if (!table.ok())
    return table.error();
  std::vector<BenchJob> jobs;
  std::set<std::string> seen;
  for (const BenchRow &row : table->rows) {
    std::optional<gen::BenchProgram> bench =
        row.slow && !row.rung ? gen::findBenchProgram(row.bench) : std::nullopt;
    std::optional<PipelineKind> pipeline = parsePipelineKind(row.impl);
    std::optional<TargetKind> target = parseTargetKind(row.target);
    if (!bench || !pipeline || !target)
      continue;
    for (gen::BenchProgram &rung : gen::benchLadder(*bench))
      if (!gen::isFixedBench(rung.name) &&
          seen.insert(rung.name + "/" + row.impl + "/" + row.target).second)
        jobs.push_back({std::move(rung), {*pipeline, *target, "", ""}});
  }
  return jobs;
}

/// Compiles and exports one job; its bench.json row, or an error that
/// stops the export (a system that cannot start, a file not written).
Result<nlohmann::json> runJob(Systems &systems, const BenchOptions &options,
                              const BenchJob &job) {
  const gen::BenchProgram &bench = job.bench;
  std::string error;
  CaseResult result = compileBench(systems, bench, job.run, error);
  if (!error.empty())
    return makeError(error);
  std::string file;
  if (result.compiled) {
    Result<std::string> written = exportBench(options, bench, job.run, result);
    if (!written.ok())
      return written.error();
    file = *written;
  }
  std::string verdict(oracle::toString(result.verdict));
  std::string first = result.detail.substr(0, result.detail.find('\n'));
  std::printf("%-22s %-24s %-18s %6.1f s %s\n", bench.name.c_str(),
              runName(job.run).c_str(), verdict.c_str(), result.compileSeconds,
              first.substr(0, 100).c_str());
  std::fflush(stdout);
  return nlohmann::json{{"bench", bench.name},
                        {"pipeline", std::string(toString(job.run.pipeline))},
                        {"target", std::string(toString(job.run.target))},
                        {"verdict", verdict},
                        {"detail", first},
                        {"compile_seconds", result.compileSeconds},
                        {"bytes_moved", bench.bytesMoved},
                        {"file", file}};
}

} // namespace

int runBenchCommand(const BenchOptions &options) {
  std::vector<BenchJob> jobs = fixedJobs(options);
  if (!options.ladderOf.empty()) {
    Result<std::vector<BenchJob>> ladder = ladderJobs(options.ladderOf);
    if (!ladder.ok()) {
      std::fprintf(stderr, "harness bench: --ladder: %s\n",
                   ladder.message().c_str());
      return kExitUsage;
    }
    jobs = std::move(*ladder);
  }
  std::error_code ec;
  fs::create_directories(options.exportDir, ec);
  if (ec) {
    std::fprintf(stderr, "harness bench: %s: cannot create the folder: %s\n",
                 options.exportDir.c_str(), ec.message().c_str());
    return kExitUsage;
  }
  Systems systems;
  // Every IREE GPU run gets a chip the installed IREE takes (IreeChips.h)
  // before anything compiles; one it does not take is a usage error.
  for (BenchJob &job : jobs) {
    if (systemOf(job.run.pipeline) != SystemKind::Iree)
      continue;
    Result<std::string> chip =
        systems.chipFor(job.run.pipeline, job.run.target, job.run.chip);
    if (!chip.ok()) {
      std::fprintf(stderr, "harness bench: %s\n", chip.message().c_str());
      return kExitUsage;
    }
    job.run.chip = *chip;
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const BenchJob &job : jobs) {
    Result<nlohmann::json> row = runJob(systems, options, job);
    if (!row.ok()) {
      std::fprintf(stderr, "harness bench: %s\n", row.message().c_str());
      return kExitUsage;
    }
    rows.push_back(*row);
  }
  std::string text = nlohmann::json{{"format", "sift-bench 1"},
                                    {"runs", rows}}
                         .dump(1) +
                     "\n";
  std::string path = (fs::path(options.exportDir) / "bench.json").string();
  if (Status s = writeFileAtomic(
          path, reinterpret_cast<const uint8_t *>(text.data()), text.size());
      !s) {
    std::fprintf(stderr, "harness bench: %s\n", s.message().c_str());
    return kExitUsage;
  }
  std::printf("wrote %zu runs to %s (bench.json lists them); time them on "
              "the GPU host with sift-run --bench\n",
              rows.size(), options.exportDir.c_str());
  return kExitOk;
}

CommandEntry addBenchCommand(CLI::App &app) {
  auto f = std::make_shared<BenchFlags>();
  CLI::App *cmd = app.add_subcommand(
      "bench", "Compile the benchmark programs (model-sized top-k, sort and "
               "NMS) through every selected pipeline and export them for "
               "sift-run --bench on a GPU host");
  cmd->add_option("--export", f->options.exportDir,
                  "Folder for the exported runs and bench.json");
  cmd->add_option("--results", f->results,
                  "Instead of compiling: Google Benchmark JSON files of one "
                  "GPU job (sift-run --bench, the CUB and PyTorch "
                  "baselines), comma-separated, into a table (-o)");
  cmd->add_option("--manifest", f->manifest,
                  "With --results: the compile host's bench.json files "
                  "(comma-separated; runs that did not compile, and the "
                  "exported files a reduced case keeps)");
  cmd->add_option("--ladder", f->options.ladderOf,
                  "With --export: instead of the fixed programs, the "
                  "smaller shapes of every slow kernel of this table folder "
                  "(-o of an earlier --results; its table.json), each "
                  "through its own pipeline and target: timed with the "
                  "fixed runs, they reduce each slow kernel");
  cmd->add_option("-o,--output", f->report, "With --results: the table's folder");
  cmd->add_option("--out", f->findingsDir,
                  "With --results: also store every slow kernel and failed "
                  "run as a finding in this folder's findings.db (harness "
                  "report reads it)");
  cmd->add_option("--slow-factor", f->slowFactor,
                  "A run slower than this many times the best vendor "
                  "baseline is a slow kernel")
      ->capture_default_str();
  cmd->add_option("--pipeline", f->pipelines, "Pipelines")
      ->capture_default_str();
  cmd->add_option("--target", f->targets, "GPU targets")->capture_default_str();
  cmd->add_option("--bench", f->benches,
                  "Only these benchmarks (comma-separated names)");
  return {cmd, [f] {
            if (!f->results.empty()) {
              if (f->report.empty())
                throw UsageError{"--results needs -o DIR"};
              return runBenchReport(*f);
            }
            if (f->options.exportDir.empty())
              throw UsageError{"bench needs --export=DIR (compile and export) "
                               "or --results=FILES -o DIR (a GPU job's table)"};
            std::vector<PipelineKind> pipelines;
            for (const std::string &name : listFlag(f->pipelines, "--pipeline")) {
              if (name == "all" || name == "iree-all") {
                const PipelineKind *begin = name == "all"
                                                ? std::begin(kSiftPipelineKinds)
                                                : std::begin(kIreePipelineKinds);
                pipelines.insert(pipelines.end(), begin, begin + 3);
              } else {
                pipelines.push_back(pipelineFlag(name));
              }
            }
            std::vector<TargetKind> targets;
            for (const std::string &name : listFlag(f->targets, "--target"))
              targets.push_back(targetFlag(name));
            f->options.runs = {};
            for (const PipelineTarget &run :
                 selectPipelineTargets(pipelines, targets, {}))
              f->options.runs.push_back(run);
            if (!f->benches.empty())
              f->options.benches = listFlag(f->benches, "--bench");
            for (const std::string &name : f->options.benches)
              if (!gen::findBenchProgram(name))
                throw UsageError{"--bench: no benchmark '" + name +
                                 "': give one of harness list benchmarks, or "
                                 "a shape topk-RxC-kK, sort-RxC, argsort-RxC "
                                 "(each with an optional -bf16), nms-N, "
                                 "nms-head-BxCxN or detect-BxCxN"};
            return runBenchCommand(f->options);
          }};
}

} // namespace sift::harness
