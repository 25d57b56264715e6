//===- CompileBench.cpp - Cost of compiling and running one case on cpu ---===//
//
// The compiler's share of a fuzz case (cpu pipeline unless named), with one
// harness::Session reused for the whole process as the fuzz loop does:
//   BM_CompileCase           - generate, emit, parse and compile to an
//                              artifact (what the fuzz loop pays per case
//                              before running it);
//   BM_Parse                 - parsing and verifying the emitted text only,
//                              the baseline the stages are compared with;
//   BM_CompilePipeline/P_T   - a full compile with pipeline P for target T
//                              (cpu_host, tileandfuse_*, distribute_*);
//   BM_AllPipelinesCase      - one fuzz case of --pipeline=all: generate,
//                              then compile for all five (pipeline, target)
//                              pairs, run cpu, static oracles on the rest;
//   BM_CompileStage/mlir     - the pass pipeline alone;
//   BM_CompileStage/llvm     - the pipeline, translation to LLVM IR and its
//                              optimization;
//   BM_CompileStage/artifact - all of that, object emission and the ld.lld
//                              link into an artifact;
//   BM_RunGeneratedCase      - runGeneratedCase on the cpu device: all of the
//                              above plus the reference, the run and the
//                              comparison.
// The stage benchmarks parse with the timer paused (a compile changes its
// module in place, so every iteration needs a fresh one). All of them take
// the same kCompilePool consecutive seeds in order, so their times divide
// into per-stage ratios. Iteration counts are fixed and small: one compile
// takes milliseconds, and the whole of sift-bench must stay short. Times and
// items/s are wall-clock (UseRealTime): the link runs ld.lld as a child
// process, whose CPU time the process CPU timer would not see; the
// `child_cpu_ms` counter adds it back for a load-insensitive CPU figure.
//
//===----------------------------------------------------------------------===//

#include "BenchCases.h"

#include "harness/case/CaseRunner.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "oracles/Verdict.h"
#include "oracles/ir/IrChecks.h"
#include "oracles/ir/StageChecks.h"
#include "runtime/Device.h"

#include <benchmark/benchmark.h>

#include <memory>

#include <sys/resource.h>

using namespace sift;
using namespace sift::bench;

namespace {

/// Seeds per compile pool; every compile benchmark runs a multiple of this
/// many iterations, so each seed counts equally.
constexpr size_t kCompilePool = 64;

/// The kCompilePool cases (program and MLIR text; inputs mixed), built on
/// first use.
const std::vector<BenchCase> &compileCases() {
  static const std::vector<BenchCase> cases =
      generateCases(kCompilePool, gen::InputMode::Mixed);
  return cases;
}

std::string bufferName(uint64_t seed) {
  return "case-" + std::to_string(seed) + ".mlir";
}

/// A Session warmed by compiling the first pool case to an artifact once, so
/// one-time initialization (LLVM targets, pass registration, the first
/// ld.lld start) is not charged to whichever benchmark happens to run first.
std::unique_ptr<harness::Session> makeWarmSession() {
  auto session = std::make_unique<harness::Session>();
  const BenchCase &first = compileCases().front();
  std::string error;
  if (auto module = session->parse(first.mlir, bufferName(first.seed), error)) {
    CompileOutput output;
    (void)session->compile(*module, CompileOptions(), EmitStage::Artifact,
                           output, error);
  }
  return session;
}

/// The Session every compile benchmark shares (an MLIRContext with every
/// dialect loaded, built once, like the fuzz loop's).
/// sift's compiler as the harness's system under test, warmed up by one
/// case.
harness::SiftCompiler &siftCompiler() {
  static harness::SiftCompiler *system = [] {
    auto *sift = new harness::SiftCompiler();
    if (auto device = rt::createDevice(rt::DeviceKind::Cpu); device.ok())
      (void)harness::runGeneratedCase(*sift, **device,
                                      harness::CaseOptions(), 1);
    return sift;
  }();
  return *system;
}

harness::Session &session() {
  static const std::unique_ptr<harness::Session> session = makeWarmSession();
  return *session;
}

/// CPU seconds (user and system) of the child processes waited for so far:
/// the ld.lld links, which the benchmark's process CPU timer does not see.
double childCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// Adds the counters every compile benchmark reports: `failures`, the cases
/// that did not compile or pass (a plain total, expected 0), and
/// `child_cpu_ms`, the CPU time of child processes per iteration since
/// `childCpuAtStart` (CPU column + child_cpu_ms = the CPU cost of a case,
/// which unlike wall time barely moves when the machine is busy).
void reportCounters(benchmark::State &state, int64_t failures,
                    double childCpuAtStart) {
  state.counters["failures"] =
      benchmark::Counter(static_cast<double>(failures));
  state.counters["child_cpu_ms"] =
      benchmark::Counter(1e3 * (childCpuSeconds() - childCpuAtStart),
                         benchmark::Counter::kAvgIterations);
}

/// Generate, emit, parse and compile to an artifact, all timed; items are
/// cases.
void BM_CompileCase(benchmark::State &state) {
  harness::Session &s = session();
  gen::Policy policy;
  CompileOptions options;
  size_t i = 0;
  int64_t failures = 0;
  double childCpuAtStart = childCpuSeconds();
  for (auto _ : state) {
    uint64_t seed = seedAt(i++, kCompilePool);
    gen::Program program = gen::generateProgram(policy, seed);
    std::string text = gen::emitMlir(program);
    std::string error;
    auto module = s.parse(text, bufferName(seed), error);
    CompileOutput output;
    if (!module ||
        !s.compile(*module, options, EmitStage::Artifact, output, error))
      ++failures;
    benchmark::DoNotOptimize(output);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  reportCounters(state, failures, childCpuAtStart);
}
BENCHMARK(BM_CompileCase)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);

/// Parse (and verify) the emitted text only; items are modules, bytes text.
void BM_Parse(benchmark::State &state) {
  harness::Session &s = session();
  const std::vector<BenchCase> &cases = compileCases();
  size_t i = 0;
  int64_t failures = 0, bytes = 0;
  double childCpuAtStart = childCpuSeconds();
  for (auto _ : state) {
    const BenchCase &c = cases[i++ % cases.size()];
    std::string error;
    auto module = s.parse(c.mlir, bufferName(c.seed), error);
    if (!module)
      ++failures;
    bytes += static_cast<int64_t>(c.mlir.size());
    benchmark::DoNotOptimize(module.get());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(bytes);
  reportCounters(state, failures, childCpuAtStart);
}
BENCHMARK(BM_Parse)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(8 * kCompilePool);

/// Compiles a freshly parsed module (the parse not timed) with `options` up
/// to `stage`; items are cases.
void compileParsedCases(benchmark::State &state, const CompileOptions &options,
                        EmitStage stage) {
  harness::Session &s = session();
  const std::vector<BenchCase> &cases = compileCases();
  size_t i = 0;
  int64_t failures = 0;
  double childCpuAtStart = childCpuSeconds();
  for (auto _ : state) {
    state.PauseTiming();
    const BenchCase &c = cases[i++ % cases.size()];
    std::string error;
    auto module = s.parse(c.mlir, bufferName(c.seed), error);
    state.ResumeTiming();
    CompileOutput output;
    if (!module || !s.compile(*module, options, stage, output, error))
      ++failures;
    benchmark::DoNotOptimize(output);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  reportCounters(state, failures, childCpuAtStart);
}

/// The cpu pipeline up to `stage`.
void BM_CompileStage(benchmark::State &state, EmitStage stage) {
  compileParsedCases(state, CompileOptions(), stage);
}
BENCHMARK_CAPTURE(BM_CompileStage, mlir, EmitStage::Mlir)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompileStage, llvm, EmitStage::Llvm)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompileStage, artifact, EmitStage::Artifact)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);

/// A full compile to an artifact with one pipeline and target; same
/// programs as BM_CompileStage, so the pipelines compare within one run.
void BM_CompilePipeline(benchmark::State &state, PipelineKind pipeline,
                        TargetKind target) {
  CompileOptions options;
  options.pipeline.kind = pipeline;
  options.pipeline.target = target;
  compileParsedCases(state, options, EmitStage::Artifact);
}
BENCHMARK_CAPTURE(BM_CompilePipeline, cpu_host, PipelineKind::Cpu,
                  TargetKind::Host)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompilePipeline, tileandfuse_nvptx,
                  PipelineKind::TileAndFuse, TargetKind::Nvptx)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompilePipeline, tileandfuse_amdgpu,
                  PipelineKind::TileAndFuse, TargetKind::Amdgpu)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompilePipeline, distribute_nvptx,
                  PipelineKind::Distribute, TargetKind::Nvptx)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_CompilePipeline, distribute_amdgpu,
                  PipelineKind::Distribute, TargetKind::Amdgpu)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);

/// The distribute pipeline to PTX with and without the IR checks after
/// every pass (the fuzz loop always runs them): the ratio of the two is the
/// checks' overhead.
void BM_DistributeStageChecks(benchmark::State &state, bool checked) {
  CompileOptions options;
  options.pipeline.kind = PipelineKind::Distribute;
  options.pipeline.target = TargetKind::Nvptx;
  if (checked)
    options.instrument = [](mlir::PassManager &pm) {
      sift::oracle::addStageChecks(
          pm, sift::oracle::workgroupMemoryBudget("sm_90"));
    };
  compileParsedCases(state, options, EmitStage::Artifact);
}
BENCHMARK_CAPTURE(BM_DistributeStageChecks, plain, false)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);
BENCHMARK_CAPTURE(BM_DistributeStageChecks, checked, true)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);

/// runGeneratedCase on the cpu device: generate, compile, run, evaluate the
/// reference and compare; items are cases. Counters: the case runner's own
/// compile and run times (mean per case) and the cases that did not pass.
void BM_RunGeneratedCase(benchmark::State &state) {
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    state.SkipWithError(("no cpu device: " + device.message()).c_str());
    return;
  }
  harness::SiftCompiler &s = siftCompiler();
  harness::CaseOptions options;
  size_t i = 0;
  int64_t failures = 0;
  double compileSeconds = 0, runSeconds = 0;
  double childCpuAtStart = childCpuSeconds();
  for (auto _ : state) {
    harness::CaseResult result = harness::runGeneratedCase(
        s, **device, options, seedAt(i++, kCompilePool));
    if (result.verdict != oracle::Verdict::Pass)
      ++failures;
    compileSeconds += result.compileSeconds;
    runSeconds += result.runSeconds;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  reportCounters(state, failures, childCpuAtStart);
  state.counters["compile_ms"] = benchmark::Counter(
      1e3 * compileSeconds, benchmark::Counter::kAvgIterations);
  state.counters["run_ms"] =
      benchmark::Counter(1e3 * runSeconds, benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_RunGeneratedCase)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool);

/// One case of `harness --pipeline=all`: every (pipeline, target) pair,
/// with the static oracles; items are cases (seeds).
void BM_AllPipelinesCase(benchmark::State &state) {
  harness::SiftCompiler &s = siftCompiler();
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  const std::pair<PipelineKind, TargetKind> runs[] = {
      {PipelineKind::Cpu, TargetKind::Host},
      {PipelineKind::TileAndFuse, TargetKind::Nvptx},
      {PipelineKind::TileAndFuse, TargetKind::Amdgpu},
      {PipelineKind::Distribute, TargetKind::Nvptx},
      {PipelineKind::Distribute, TargetKind::Amdgpu}};
  harness::CaseOptions options;
  size_t i = 0;
  int64_t failures = 0;
  double childCpuAtStart = childCpuSeconds();
  for (auto _ : state) {
    uint64_t seed = seedAt(i++, kCompilePool);
    for (auto [pipeline, target] : runs) {
      options.pipeline = pipeline;
      options.target = target;
      harness::CaseResult result =
          harness::runGeneratedCase(s, **device, options, seed);
      if (result.verdict != oracle::Verdict::Pass)
        ++failures;
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  reportCounters(state, failures, childCpuAtStart);
}
BENCHMARK(BM_AllPipelinesCase)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kCompilePool / 2);

} // namespace
