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
#include "harness/report/BenchReport.h"
#include "harness/store/FindingStore.h"
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

/// "topk-1024x1024-k8" as words a signature keeps apart by family only:
/// "topk [1024, 1024] k = 8" (numbers become N in signatures; slashes
/// and dashes would read as paths and signs).
std::string benchWords(const gen::BenchProgram &bench) {
  const gen::Program &p = bench.program;
  const gen::TensorType &in = p.values[static_cast<size_t>(p.inputs[0])];
  std::string shape;
  for (size_t i = 0; i < in.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(in.shape[i]);
  std::string text = std::string(gen::toString(bench.family)) + " [" + shape +
                     "]";
  if (bench.family == gen::Family::TopK)
    text += " k = " + std::to_string(p.ops[0].k);
  return text;
}

/// The finding of a run of the table that is not a pass (a slow kernel, a
/// wrong answer, a hang, a crash, a compile failure), or nullopt. Its
/// detail names the benchmark, so a signature is a (family, pipeline,
/// verdict) after numbers are normalized.
std::optional<CaseResult> benchFinding(const BenchRow &row, double factor) {
  std::optional<gen::BenchProgram> bench = gen::findBenchProgram(row.bench);
  std::optional<PipelineKind> pipeline = parsePipelineKind(row.impl);
  std::optional<TargetKind> target = parseTargetKind(row.target);
  std::optional<oracle::Verdict> verdict =
      row.slow ? oracle::Verdict::SlowKernel : oracle::parseVerdict(row.verdict);
  if (!bench || !pipeline || !target || !verdict ||
      !oracle::isFinding(*verdict))
    return std::nullopt;
  CaseResult result;
  result.seed = bench->seed;
  result.pipeline = *pipeline;
  result.target = *target;
  result.verdict = *verdict;
  bool compile = *verdict == oracle::Verdict::CompileError ||
                 *verdict == oracle::Verdict::CompileCrash;
  result.stage = Stage(compile ? Step::Compile : Step::Run, "bench");
  char text[256];
  std::string what = benchWords(*bench) + " on " + row.impl + " for " +
                     row.target;
  if (row.slow && row.medianMs <= 0)
    std::snprintf(text, sizeof(text),
                  "%s: did not finish in %.0f ms, over %.0fx the best vendor "
                  "baseline (over %.0fx is slow)",
                  what.c_str(), row.atLeastMs, row.ratio, factor);
  else if (row.slow)
    std::snprintf(text, sizeof(text),
                  "%s: median %.3f ms, %.0fx the best vendor baseline (over "
                  "%.0fx is slow)",
                  what.c_str(), row.medianMs, row.ratio, factor);
  else
    std::snprintf(text, sizeof(text), "%s: %s", what.c_str(),
                  row.detail.c_str());
  result.detail = text;
  return result;
}

/// Stores the table's findings in `dir`'s findings database (one run).
Status recordBenchFindings(const BenchTable &table, const BenchFlags &f) {
  auto store = FindingStore::open(f.findingsDir);
  if (!store.ok())
    return store.error();
  RunInfo info;
  info.command = "harness bench --results=" + f.results;
  info.pipeline = "bench";
  auto run = (*store)->beginRun(info);
  if (!run.ok())
    return run.error();
  int64_t findings = 0;
  for (const BenchRow &row : table.rows) {
    std::optional<CaseResult> finding = benchFinding(row, f.slowFactor);
    if (!finding)
      continue;
    CaseOptions options;
    options.pipeline = finding->pipeline;
    options.target = finding->target;
    std::string repro = "harness bench --export=DIR --bench=" + row.bench +
                        " --pipeline=" + row.impl + " --target=" + row.target +
                        " && scripts/bench-gpu.sh DIR (on the GPU host)";
    if (auto s = (*store)->recordFinding(*run, *finding, options, repro);
        !s.ok())
      return s.error();
    ++findings;
  }
  return (*store)->endRun(*run, static_cast<int64_t>(table.rows.size()),
                          findings, 0);
}

/// `harness bench --results=... -o DIR`: the GPU job's table.
int runBenchReport(const BenchFlags &f) {
  Result<BenchTable> table = readBenchTable(
      listFlag(f.results, "--results"), f.manifest, f.slowFactor);
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
    if (Status s = recordBenchFindings(*table, f); !s.ok()) {
      std::fprintf(stderr, "harness bench: %s\n", s.message().c_str());
      return kExitUsage;
    }
  int slow = 0;
  for (const BenchRow &row : table->rows)
    slow += row.slow;
  std::printf("%d slow kernel(s) (over %.0fx the best vendor baseline); "
              "%s/bench.md, bench.csv, bench.html\n",
              slow, f.slowFactor, f.report.c_str());
  return slow > 0 ? kExitFindings : kExitOk;
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

} // namespace

int runBenchCommand(const BenchOptions &options) {
  std::error_code ec;
  fs::create_directories(options.exportDir, ec);
  if (ec) {
    std::fprintf(stderr, "harness bench: %s: cannot create the folder: %s\n",
                 options.exportDir.c_str(), ec.message().c_str());
    return kExitUsage;
  }
  Systems systems;
  nlohmann::json rows = nlohmann::json::array();
  for (const gen::BenchProgram &bench : gen::benchPrograms()) {
    if (!options.benches.empty() &&
        std::find(options.benches.begin(), options.benches.end(),
                  bench.name) == options.benches.end())
      continue;
    for (const PipelineTarget &run : options.runs) {
      std::string error;
      CaseResult result = compileBench(systems, bench, run, error);
      if (!error.empty()) {
        std::fprintf(stderr, "harness bench: %s\n", error.c_str());
        return kExitUsage;
      }
      std::string file;
      if (result.compiled) {
        Result<std::string> written = exportBench(options, bench, run, result);
        if (!written.ok()) {
          std::fprintf(stderr, "harness bench: %s\n",
                       written.message().c_str());
          return kExitUsage;
        }
        file = *written;
      }
      std::string verdict(oracle::toString(result.verdict));
      std::string first = result.detail.substr(0, result.detail.find('\n'));
      std::printf("%-22s %-24s %-18s %6.1f s %s\n", bench.name.c_str(),
                  runName(run).c_str(), verdict.c_str(),
                  result.compileSeconds, first.substr(0, 100).c_str());
      std::fflush(stdout);
      rows.push_back({{"bench", bench.name},
                      {"pipeline", std::string(toString(run.pipeline))},
                      {"target", std::string(toString(run.target))},
                      {"verdict", verdict},
                      {"detail", first},
                      {"compile_seconds", result.compileSeconds},
                      {"bytes_moved", bench.bytesMoved},
                      {"file", file}});
    }
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
                  "With --results: the compile host's bench.json (runs that "
                  "did not compile)");
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
                 selectPipelineTargets(pipelines, targets, {})) {
              PipelineTarget r = run;
              // The pinned IREE rejects sm_90 (iree-org/iree#22147).
              if (systemOf(r.pipeline) == SystemKind::Iree &&
                  r.target == TargetKind::Nvptx && r.chip.empty())
                r.chip = "sm_89";
              f->options.runs.push_back(r);
            }
            if (!f->benches.empty())
              f->options.benches = listFlag(f->benches, "--bench");
            for (const std::string &name : f->options.benches)
              if (!gen::findBenchProgram(name))
                throw UsageError{"--bench: no benchmark '" + name + "'"};
            return runBenchCommand(f->options);
          }};
}

} // namespace sift::harness
