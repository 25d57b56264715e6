//===- BenchCases.h - Fixed pools of generated cases for sift-bench ------===//
//
// Every benchmark of sift-bench works on the cases of consecutive seeds
// kFirstSeed, kFirstSeed + 1, ... taken from a fixed pool and cycled, so the
// mix of programs (families, shapes, element types) is the same in every run
// and on every machine, whatever iteration count Google Benchmark picks, and
// benchmarks that share a pool measure the same programs (their times can be
// divided). Pools are built once, outside every timed region.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/Policy.h"
#include "generators/ProgramGenerator.h"
#include "generators/ProgramModel.h"
#include "support/HostTensor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sift::bench {

/// The seed of the first case of every pool.
inline constexpr uint64_t kFirstSeed = 1;

/// The seed of iteration `iteration` of a benchmark that cycles over a pool
/// of `poolSize` consecutive seeds.
inline uint64_t seedAt(size_t iteration, size_t poolSize) {
  return kFirstSeed + iteration % poolSize;
}

/// One generated case: the program of a seed, its MLIR text and its inputs.
struct BenchCase {
  uint64_t seed = 0;
  gen::Program program;
  std::string mlir;
  std::vector<HostTensor> inputs;
};

/// Total byte size of `tensors`.
inline int64_t byteSize(const std::vector<HostTensor> &tensors) {
  int64_t bytes = 0;
  for (const HostTensor &tensor : tensors)
    bytes += static_cast<int64_t>(tensor.byteSize());
  return bytes;
}

/// The cases of seeds kFirstSeed .. kFirstSeed + count - 1 under the default
/// Policy, with inputs of `mode` and their MLIR text.
inline std::vector<BenchCase> generateCases(size_t count, gen::InputMode mode) {
  gen::Policy policy;
  std::vector<BenchCase> cases(count);
  for (size_t i = 0; i < count; ++i) {
    BenchCase &c = cases[i];
    c.seed = seedAt(i, count);
    c.program = gen::generateProgram(policy, c.seed);
    c.mlir = gen::emitMlir(c.program);
    c.inputs = gen::generateInputs(c.program, mode, c.seed);
  }
  return cases;
}

} // namespace sift::bench
