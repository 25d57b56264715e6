//===- GeneratorBench.cpp - Throughput of the generators and the oracle ---===//
//
// The host-side cost of one fuzz case before and after the compiler: drawing
// a program from a seed (generateProgram), printing it as MLIR (emitMlir),
// filling its inputs in each InputMode (generateInputs) and evaluating the
// reference on them (oracle::evaluate). Items are programs or cases; bytes
// are emitted MLIR text or input tensor bytes. All benchmarks cycle over the
// same kGeneratorPool consecutive seeds (BenchCases.h), so their per-item
// times are comparable with each other and with CompileBench.cpp's.
//
//===----------------------------------------------------------------------===//

#include "BenchCases.h"

#include "oracles/Reference.h"

#include <benchmark/benchmark.h>

using namespace sift;
using namespace sift::bench;

namespace {

/// Seeds per generator pool: enough to cover every family, element type and
/// shape class many times over.
constexpr size_t kGeneratorPool = 256;

/// Each generator benchmark runs at least this long (seconds).
constexpr double kGeneratorMinTime = 0.3;

/// The kGeneratorPool cases with mixed inputs, built on first use.
const std::vector<BenchCase> &mixedCases() {
  static const std::vector<BenchCase> cases =
      generateCases(kGeneratorPool, gen::InputMode::Mixed);
  return cases;
}

/// generateProgram over consecutive seeds; items are programs.
void BM_GenerateProgram(benchmark::State &state) {
  gen::Policy policy;
  size_t i = 0;
  for (auto _ : state) {
    gen::Program program =
        gen::generateProgram(policy, seedAt(i++, kGeneratorPool));
    benchmark::DoNotOptimize(program);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_GenerateProgram)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);

/// emitMlir of pre-generated programs; items are programs, bytes MLIR text.
void BM_EmitMlir(benchmark::State &state) {
  const std::vector<BenchCase> &cases = mixedCases();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    std::string text = gen::emitMlir(cases[i++ % cases.size()].program);
    bytes += static_cast<int64_t>(text.size());
    benchmark::DoNotOptimize(text);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_EmitMlir)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);

/// generateInputs in `mode` for pre-generated programs; items are cases,
/// bytes the input tensors filled.
void BM_GenerateInputs(benchmark::State &state, gen::InputMode mode) {
  const std::vector<BenchCase> &cases = mixedCases();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const BenchCase &c = cases[i++ % cases.size()];
    std::vector<HostTensor> inputs =
        gen::generateInputs(c.program, mode, c.seed);
    bytes += byteSize(inputs);
    benchmark::DoNotOptimize(inputs);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK_CAPTURE(BM_GenerateInputs, mixed, gen::InputMode::Mixed)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);
BENCHMARK_CAPTURE(BM_GenerateInputs, uniform, gen::InputMode::Uniform)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);
BENCHMARK_CAPTURE(BM_GenerateInputs, ties, gen::InputMode::Ties)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);
BENCHMARK_CAPTURE(BM_GenerateInputs, special, gen::InputMode::Special)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);
BENCHMARK_CAPTURE(BM_GenerateInputs, sorted, gen::InputMode::Sorted)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);
BENCHMARK_CAPTURE(BM_GenerateInputs, reversed, gen::InputMode::Reversed)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);

/// oracle::evaluate of pre-generated cases with mixed inputs; items are
/// cases, bytes the input tensors read.
void BM_ReferenceEvaluate(benchmark::State &state) {
  const std::vector<BenchCase> &cases = mixedCases();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const BenchCase &c = cases[i++ % cases.size()];
    auto outputs = oracle::evaluate(c.program, c.inputs);
    if (!outputs.ok()) {
      state.SkipWithError(("seed " + std::to_string(c.seed) +
                           ": the reference failed: " + outputs.message())
                              .c_str());
      break;
    }
    bytes += byteSize(c.inputs);
    benchmark::DoNotOptimize(outputs);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ReferenceEvaluate)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(kGeneratorMinTime);

} // namespace
