//===- BenchPrograms.cpp - The fixed programs `harness bench` times -------===//

#include "generators/BenchPrograms.h"

#include "generators/ProgramBuilder.h"
#include "generators/Rng.h"

namespace sift::gen {

namespace {

uint64_t bytesOf(const Program &p, const std::vector<int> &ids) {
  uint64_t bytes = 0;
  for (int id : ids) {
    const TensorType &t = p.values[static_cast<size_t>(id)];
    bytes += static_cast<uint64_t>(t.numElements()) *
             byteWidth(t.elementType);
  }
  return bytes;
}

BenchProgram finish(std::string name, Family family, Program program,
                    uint64_t seed) {
  BenchProgram b;
  b.name = std::move(name);
  b.family = family;
  b.bytesMoved = bytesOf(program, program.inputs) +
                 bytesOf(program, program.outputs);
  b.program = std::move(program);
  b.seed = seed;
  return b;
}

BenchProgram topk(int64_t rows, int64_t cols, int64_t k, uint64_t seed) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {rows, cols}});
  auto [values, indices] = b.addTopK(x, 1, k, /*largest=*/true);
  b.addOutput(values);
  b.addOutput(indices);
  return finish("topk-" + std::to_string(rows) + "x" + std::to_string(cols) +
                    "-k" + std::to_string(k),
                Family::TopK, b.take(), seed);
}

BenchProgram sort(int64_t rows, int64_t cols, uint64_t seed) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int x = b.addInput({ElementType::F32, {rows, cols}});
  std::vector<int> sorted =
      b.addSort({x}, 1, SortOrder::Ascending, ComparatorKind::Less);
  b.addOutput(sorted[0]);
  return finish("sort-" + std::to_string(rows) + "x" + std::to_string(cols),
                Family::Sort, b.take(), seed);
}

BenchProgram nms(int64_t boxes, uint64_t seed) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int box = b.addInput({ElementType::F32, {1, boxes, 4}});
  int score = b.addInput({ElementType::F32, {1, 1, boxes}});
  auto [selected, count] =
      b.addNms(box, score, boxes, 0.5f, std::nullopt, /*centerPointBox=*/false);
  b.addOutput(selected);
  b.addOutput(count);
  return finish("nms-" + std::to_string(boxes), Family::Nms, b.take(), seed);
}

} // namespace

std::vector<BenchProgram> benchPrograms() {
  return {topk(1024, 1024, 8, 101),     topk(4096, 4096, 8, 102),
          topk(64, 65536, 64, 103),     topk(1, 1 << 20, 8, 104),
          sort(1024, 1024, 201),        sort(16384, 128, 202),
          sort(1, 1 << 20, 203),        nms(1000, 301),
          nms(5000, 302),               nms(20000, 303)};
}

std::optional<BenchProgram> findBenchProgram(const std::string &name) {
  for (BenchProgram &b : benchPrograms())
    if (b.name == name)
      return std::move(b);
  return std::nullopt;
}

} // namespace sift::gen
