//===- tools/sift-run/Bench.cpp - `sift-run --bench`: timed runs ----------===//
//
// The GPU host's half of `harness bench`. Each exported run names its
// benchmark program (gen::benchPrograms); its inputs come from the
// program's seed and the reference computes what it must return. sift's
// artifacts run in this process: --warmup untimed runs, then --bench timed
// ones on the same buffers (inputs uploaded and kernels loaded once, as the
// vendors' baselines run), each timed by the device's events from its first
// launch to its synchronize; the first run's outputs and the last run's are
// checked, every run's outputs set to 0xFF before it (a kernel that races,
// keeps state between runs or leaves an output unwritten shows in the
// last). An
// IREE case runs once through iree-run-module (checked under IREE's
// policy), then through iree-benchmark-module --benchmark_repetitions. The
// result is Google Benchmark JSON: one entry per repetition and the median
// and spread aggregates, the verdict as the label, bytes moved as a
// counter (the bandwidth floor's numerator).
//
//===----------------------------------------------------------------------===//

#include "tools/sift-run/Bench.h"
#include "tools/sift-run/BenchRuns.h"

#include "generators/BenchPrograms.h"
#include "generators/InputGenerator.h"
#include "oracles/Reference.h"
#include "runtime/ExportedCase.h"
#include "runtime/gpu/GpuDriver.h"
#include "runtime/iree/IreeRun.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "support/Process.h"
#include "tools/sift-run/IreeCases.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <set>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

double elapsed(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       since)
      .count();
}

/// Runs one sift artifact with a benchmark's inputs.
BenchResult benchSift(rt::Device &device, const std::string &file,
                      const Options &options) {
  BenchResult r;
  r.file = file;
  Result<rt::Artifact> artifact = rt::readArtifact(file);
  Result<rt::ExportedCase> info = artifact.ok()
                                      ? rt::getExportedCase(*artifact)
                                      : Result<rt::ExportedCase>(artifact.error());
  if (!info.ok()) {
    r.verdict = "unreadable";
    r.detail = file + ": " + info.message();
    return r;
  }
  r.pipeline = std::string(toString(info->pipeline));
  r.target = std::string(toString(info->target));
  std::optional<gen::BenchProgram> bench = gen::findBenchProgram(info->bench);
  if (!bench) {
    r.verdict = "unreadable";
    r.detail = file + ": not a benchmark run (no known case.bench)";
    return r;
  }
  r.bench = bench->name;
  r.bytesMoved = bench->bytesMoved;
  artifact->inputs =
      gen::generateInputs(bench->program, bench->inputs, bench->seed);
  auto expected = oracle::evaluate(bench->program, artifact->inputs);
  if (!expected.ok()) {
    r.verdict = "unreadable";
    r.detail = "the reference failed: " + expected.message();
    return r;
  }
  timeRuns(device, options, *artifact, *info, *expected, r);
  if (r.verdict.empty())
    r.verdict = "pass";
  return r;
}

nlohmann::json resultToJson(const BenchResult &r) {
  return {{"file", r.file},       {"bench", r.bench},
          {"pipeline", r.pipeline}, {"target", r.target},
          {"verdict", r.verdict}, {"detail", r.detail},
          {"ms", r.ms},           {"bytes", r.bytesMoved},
          {"at_least_ms", r.atLeastMs}, {"device", r.device}};
}

BenchResult resultFromJson(const nlohmann::json &j) {
  BenchResult r;
  r.file = j.value("file", "");
  r.bench = j.value("bench", "");
  r.pipeline = j.value("pipeline", "");
  r.target = j.value("target", "");
  r.verdict = j.value("verdict", "");
  r.detail = j.value("detail", "");
  r.ms = j.value("ms", std::vector<double>{});
  r.bytesMoved = j.value("bytes", uint64_t(0));
  r.atLeastMs = j.value("at_least_ms", 0.0);
  r.device = j.value("device", "");
  return r;
}

/// benchSift on the cpu device, in this process.
BenchResult benchSiftLocal(const std::string &file, const Options &options) {
  auto device = rt::createDevice(options.device);
  if (!device.ok()) {
    BenchResult r;
    r.file = file;
    r.verdict = "runtime-error";
    r.detail = device.message();
    return r;
  }
  BenchResult r = benchSift(**device, file, options);
  r.device = (*device)->name();
  return r;
}

/// The worker's half of benchSiftIsolated: its result as JSON on `fd`.
[[noreturn]] void benchWorker(const std::string &file, const Options &options,
                              int fd) {
  BenchResult r = benchSiftLocal(file, options);
  std::string text = resultToJson(r).dump();
  (void)!::write(fd, text.data(), text.size());
  ::_exit(0);
}

/// benchSift in a child with its own device, so a kernel that never ends
/// (or a fault) costs this benchmark only: past --timeout plus the budget
/// it is killed and reported as a run-timeout.
BenchResult benchSiftIsolated(const std::string &file, const Options &options) {
  BenchResult failed;
  failed.file = file;
  // Named before the worker starts, so a worker that never answers still
  // leaves a row that says which benchmark it was.
  if (auto artifact = rt::readArtifact(file); artifact.ok()) {
    if (auto info = rt::getExportedCase(*artifact); info.ok()) {
      failed.pipeline = std::string(toString(info->pipeline));
      failed.target = std::string(toString(info->target));
      failed.bench = info->bench;
      if (auto bench = gen::findBenchProgram(info->bench))
        failed.bytesMoved = bench->bytesMoved;
    }
  }
  int fds[2];
  pid_t pid = ::pipe(fds) == 0 ? forkTiedChild() : -1;
  if (pid == 0) {
    ::close(fds[0]);
    benchWorker(file, options, fds[1]);
  }
  if (pid < 0) {
    failed.verdict = "runtime-error";
    failed.detail = "cannot start a worker";
    return failed;
  }
  ::close(fds[1]);
  std::string text;
  auto begin = std::chrono::steady_clock::now();
  double limit = options.timeoutSeconds + options.benchBudgetSeconds + 30;
  bool killed = false;
  char buffer[4096];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    if (::poll(&p, 1, 200) > 0) {
      ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
      if (n <= 0)
        break;
      text.append(buffer, static_cast<size_t>(n));
    } else if (elapsed(begin) > limit) {
      ::kill(pid, SIGKILL);
      killed = true;
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  auto json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_object())
    return resultFromJson(json);
  failed.verdict = killed ? "run-timeout" : "runtime-error";
  // Killed past --timeout plus the budget plus 30 s: the run in flight
  // (the first, or one begun within the budget) had run for --timeout at
  // least, the worker's start and the reference taking under 30 s.
  if (killed)
    failed.atLeastMs = options.timeoutSeconds * 1000.0;
  failed.detail = killed ? "the benchmark did not finish in " +
                               std::to_string(static_cast<int>(limit)) + " s"
                         : "the benchmark's worker died (status " +
                               std::to_string(status) + ")";
  return failed;
}

/// Per-repetition times (ms) of iree-benchmark-module's JSON.
Result<std::vector<double>> benchmarkTimes(const std::string &json) {
  auto parsed = nlohmann::json::parse(json, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("benchmarks"))
    return makeError("iree-benchmark-module printed no benchmark JSON");
  std::vector<double> ms;
  for (const auto &b : parsed["benchmarks"]) {
    if (b.value("run_type", "") != "iteration")
      continue;
    double t = b.value("real_time", 0.0);
    std::string unit = b.value("time_unit", "ns");
    double scale = unit == "ns" ? 1e-6 : unit == "us" ? 1e-3
                   : unit == "ms" ? 1.0 : 1e3;
    ms.push_back(t * scale);
  }
  if (ms.empty())
    return makeError("iree-benchmark-module's JSON holds no iteration");
  return ms;
}

/// Times an IREE case that passed with iree-benchmark-module.
BenchResult timeIree(const std::string &dir, const gen::BenchProgram &bench,
                     const Options &options, const std::string &runModule,
                     BenchResult r, int repetitions) {
  char pattern[] = "/tmp/sift-bench-XXXXXX";
  if (!mkdtemp(pattern)) {
    r.verdict = "runtime-error";
    r.detail = "cannot make a temporary folder";
    return r;
  }
  std::vector<HostTensor> inputs =
      gen::generateInputs(bench.program, bench.inputs, bench.seed);
  std::vector<std::string> args = {
      (fs::path(runModule).parent_path() / "iree-benchmark-module").string(),
      "--module=" + (fs::path(dir) / "module.vmfb").string(),
      std::string("--device=") +
          (options.device == rt::DeviceKind::Cuda  ? "cuda"
           : options.device == rt::DeviceKind::Hip ? "hip"
                                                   : "local-task"),
      "--function=main",
      "--benchmark_repetitions=" + std::to_string(repetitions),
      "--benchmark_min_time=1x", "--benchmark_format=json"};
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string path = std::string(pattern) + "/input" + std::to_string(i) +
                       ".npy";
    (void)writeNpy(path, inputs[i]);
    args.push_back("--input=@" + path);
  }
  rt::ToolRun run = rt::runTool(
      args, options.timeoutSeconds * (repetitions + 1) + 30);
  std::error_code ec;
  fs::remove_all(pattern, ec);
  size_t brace = run.output.find('{');
  auto times = run.status == 0 && brace != std::string::npos
                   ? benchmarkTimes(run.output.substr(brace))
                   : Result<std::vector<double>>(makeError(
                         run.timedOut ? "iree-benchmark-module did not finish "
                                        "in time"
                                      : rt::runFailure(run)));
  if (!times.ok()) {
    r.verdict = run.timedOut ? "run-timeout" : "runtime-error";
    r.detail = times.message();
    return r;
  }
  r.ms = *times;
  return r;
}

/// Runs one IREE benchmark case: checked once, then timed.
BenchResult benchIree(const std::string &dir, const Options &options,
                      const std::string &runModule) {
  std::string writeError;
  Row checked = runIreeCase(options, runModule, dir, "", writeError);
  BenchResult r;
  r.file = dir;
  r.pipeline = checked.pipeline;
  r.target = checked.target;
  std::ifstream in(fs::path(dir) / "case.json");
  auto facts = nlohmann::json::parse(in, nullptr, false);
  std::optional<gen::BenchProgram> bench =
      facts.is_object() ? gen::findBenchProgram(facts.value("bench", ""))
                        : std::nullopt;
  if (!bench || checked.unreadable) {
    r.verdict = "unreadable";
    r.detail = checked.unreadable ? checked.detail
                                  : dir + ": not a benchmark case (no bench)";
    return r;
  }
  r.bench = bench->name;
  r.bytesMoved = bench->bytesMoved;
  r.verdict = checked.verdict;
  r.detail = checked.detail;
  // iree-run-module was stopped at --timeout; its start, the module's load
  // and the driver's JIT take under 10 s of that.
  if (checked.verdict == "run-timeout")
    r.atLeastMs = std::max(options.timeoutSeconds - 10.0, 0.0) * 1000.0;
  if (checked.verdict != "pass")
    return r;
  // As many repetitions as the budget holds, judged by the checked run
  // (module load included, so an estimate from above); one at least.
  double runMs = std::max(checked.loadMs, 1.0);
  int repetitions = static_cast<int>(std::clamp(
      options.benchBudgetSeconds * 1000 / runMs, 1.0,
      static_cast<double>(options.benchRuns)));
  return timeIree(dir, *bench, options, runModule, r, repetitions);
}

} // namespace

namespace {

double medianOf(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Google Benchmark's entry for one time (or aggregate) of `r`.
nlohmann::json entry(const BenchResult &r, const std::string &name,
                     double ms, const char *aggregate, int index) {
  nlohmann::json e = {{"name", name + (aggregate ? std::string("_") +
                                                         aggregate
                                                   : std::string())},
                      {"run_name", name},
                      {"run_type", aggregate ? "aggregate" : "iteration"},
                      {"repetitions", r.ms.size()},
                      {"threads", 1},
                      {"iterations", 1},
                      {"real_time", ms},
                      {"cpu_time", ms},
                      {"time_unit", "ms"},
                      {"bytes_moved", r.bytesMoved},
                      {"label", r.verdict + (r.detail.empty()
                                                 ? std::string()
                                                 : ": " + r.detail.substr(
                                                              0, 200))}};
  if (aggregate && r.atLeastMs > 0)
    e["at_least_ms"] = r.atLeastMs;
  if (aggregate)
    e["aggregate_name"] = aggregate;
  else
    e["repetition_index"] = index;
  return e;
}

} // namespace

nlohmann::json benchJson(const std::vector<BenchResult> &results,
                         const std::string &device) {
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S+00:00",
                std::gmtime(&now));
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  nlohmann::json json = {{"context",
                          {{"date", date},
                           {"host_name", host},
                           {"executable", "sift-run --bench"},
                           {"device", device},
                           {"library_build_type", "release"}}},
                         {"benchmarks", nlohmann::json::array()}};
  for (const BenchResult &r : results) {
    std::string name = r.bench + "/" + r.pipeline + "/" + r.target;
    for (size_t i = 0; i < r.ms.size(); ++i)
      json["benchmarks"].push_back(entry(r, name, r.ms[i], nullptr,
                                         static_cast<int>(i)));
    double median = medianOf(r.ms);
    double spread = r.ms.empty() ? 0
                                 : *std::max_element(r.ms.begin(), r.ms.end()) -
                                       *std::min_element(r.ms.begin(), r.ms.end());
    json["benchmarks"].push_back(entry(r, name, median, "median", 0));
    json["benchmarks"].push_back(entry(r, name, spread, "spread", 0));
  }
  return json;
}

namespace {

/// The benchmark an exported run times: case.bench of an artifact,
/// "bench" of an IREE case's case.json.
Result<std::string> benchNameOf(const std::string &file) {
  if (isIreeCase(file)) {
    std::ifstream in(fs::path(file) / "case.json");
    auto facts = nlohmann::json::parse(in, nullptr, false);
    if (facts.is_object() && !facts.value("bench", "").empty())
      return facts.value("bench", "");
    return makeError(file + ": not a benchmark case (no bench in case.json)");
  }
  Result<rt::Artifact> artifact = rt::readArtifact(file);
  if (!artifact.ok())
    return makeError(file + ": " + artifact.message());
  Result<rt::ExportedCase> info = rt::getExportedCase(*artifact);
  if (!info.ok())
    return makeError(file + ": " + info.message());
  if (info->bench.empty())
    return makeError(file + ": not a benchmark run (no case.bench)");
  return info->bench;
}

} // namespace

int writeBenchInputs(const std::string &dir,
                     const std::vector<std::string> &files) {
  std::vector<gen::BenchProgram> benches;
  std::set<std::string> names;
  for (const std::string &file : files) {
    Result<std::string> name = benchNameOf(file);
    std::optional<gen::BenchProgram> bench =
        name.ok() ? gen::findBenchProgram(*name) : std::nullopt;
    if (!bench) {
      std::fprintf(stderr, "sift-run: %s\n",
                   name.ok() ? (file + ": no benchmark '" + *name + "'").c_str()
                             : name.message().c_str());
      return 2;
    }
    if (names.insert(bench->name).second)
      benches.push_back(std::move(*bench));
  }
  if (files.empty())
    benches = gen::benchPrograms();
  for (const gen::BenchProgram &bench : benches) {
    std::vector<HostTensor> inputs =
        gen::generateInputs(bench.program, bench.inputs, bench.seed);
    fs::path folder = fs::path(dir) / bench.name;
    std::error_code ec;
    fs::create_directories(folder, ec);
    // The reference's outputs beside them: the baselines check their
    // results against them before they are timed.
    auto expected = oracle::evaluate(bench.program, inputs);
    if (!expected.ok()) {
      std::fprintf(stderr, "sift-run: %s: the reference failed: %s\n",
                   bench.name.c_str(), expected.message().c_str());
      return 2;
    }
    for (auto [prefix, tensors] :
         {std::pair{"input", &inputs}, {"expected", &*expected}})
      for (size_t i = 0; i < tensors->size(); ++i)
        if (Status s = writeNpy((folder / (prefix + std::to_string(i) +
                                           ".npy"))
                                    .string(),
                                (*tensors)[i]);
            !s) {
          std::fprintf(stderr, "sift-run: %s\n", s.message().c_str());
          return 2;
        }
    std::printf("%s: %zu inputs, %zu expected outputs, %llu bytes moved at "
                "least\n",
                bench.name.c_str(), inputs.size(), expected->size(),
                static_cast<unsigned long long>(bench.bytesMoved));
  }
  return 0;
}

int runBench(const Options &options, const std::vector<std::string> &files) {
  std::vector<std::string> iree, sift;
  for (const std::string &file : files)
    (isIreeCase(file) ? iree : sift).push_back(file);
  std::vector<BenchResult> results;
  std::string deviceName = std::string(rt::toString(options.device));
  // The device is opened by each worker only: CUDA does not survive a
  // fork of a process that initialized it. Its name comes back with the
  // results.
  // After every benchmark the JSON is written again: a stopped or killed
  // run keeps what it timed.
  auto report = [&](const BenchResult &r) {
    std::printf("%-22s %-18s %-7s %-10s median %.3f ms of %zu%s\n",
                r.bench.c_str(), r.pipeline.c_str(), r.target.c_str(),
                r.verdict.c_str(), medianOf(r.ms), r.ms.size(),
                r.verdict == "pass" ? ""
                                    : ("  " + r.detail.substr(0, 120)).c_str());
    std::fflush(stdout);
    std::string text = benchJson(results, deviceName).dump(1) + "\n";
    return writeFileAtomic(options.benchOut,
                           reinterpret_cast<const uint8_t *>(text.data()),
                           text.size());
  };
  for (const std::string &file : sift) {
    results.push_back(options.device == rt::DeviceKind::Cpu
                          ? benchSiftLocal(file, options)
                          : benchSiftIsolated(file, options));
    if (!results.back().device.empty())
      deviceName = results.back().device;
    if (Status s = report(results.back()); !s) {
      std::fprintf(stderr, "sift-run: %s\n", s.message().c_str());
      return 2;
    }
  }
  if (!iree.empty()) {
    Result<std::string> runModule = findIreeRunModule(options);
    if (!runModule.ok()) {
      std::fprintf(stderr, "sift-run: %s\n", runModule.message().c_str());
      return 2;
    }
    for (const std::string &dir : iree) {
      results.push_back(benchIree(dir, options, *runModule));
      if (Status s = report(results.back()); !s) {
        std::fprintf(stderr, "sift-run: %s\n", s.message().c_str());
        return 2;
      }
    }
  }
  int unreadable = 0, notPass = 0;
  for (const BenchResult &r : results) {
    unreadable += r.verdict == "unreadable";
    notPass += r.verdict != "pass";
  }
  std::printf("sift-run: %zu benchmark runs timed on %s; Google Benchmark "
              "JSON in %s\n",
              results.size(), deviceName.c_str(), options.benchOut.c_str());
  // A wrong, crashed or hung run is timed as far as it went and kept in
  // the JSON, and it fails the command (exit 1), as a finding does.
  if (notPass > unreadable)
    std::printf("sift-run: %d of them not a pass (their label says why)\n",
                notPass - unreadable);
  return unreadable ? 2 : notPass ? 1 : 0;
}

} // namespace sift::tools
