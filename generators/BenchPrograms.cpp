//===- BenchPrograms.cpp - The fixed programs `harness bench` times -------===//

#include "generators/BenchPrograms.h"

#include "generators/ProgramBuilder.h"
#include "generators/Rng.h"

#include <algorithm>
#include <cstdio>

namespace sift::gen {

namespace {

uint64_t bytesOf(const Program &p, const std::vector<int> &ids) {
  uint64_t bytes = 0;
  for (int id : ids) {
    const TensorType &t = p.values[static_cast<size_t>(id)];
    bytes += static_cast<uint64_t>(t.numElements()) * byteWidth(t.elementType);
  }
  return bytes;
}

BenchProgram finish(std::string name, Family family, Program program,
                    uint64_t seed) {
  BenchProgram b;
  b.name = std::move(name);
  b.family = family;
  b.bytesMoved =
      bytesOf(program, program.inputs) + bytesOf(program, program.outputs);
  b.program = std::move(program);
  b.seed = seed;
  return b;
}

/// The name suffix of a key type: "" for f32, "-bf16" for bf16.
std::string typeSuffix(ElementType type) {
  return type == ElementType::F32 ? "" : "-" + std::string(toString(type));
}

BenchProgram topk(int64_t rows, int64_t cols, int64_t k, uint64_t seed,
                  ElementType type = ElementType::F32) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int x = b.addInput({type, {rows, cols}});
  auto [values, indices] = b.addTopK(x, 1, k, /*largest=*/true);
  b.addOutput(values);
  b.addOutput(indices);
  return finish("topk-" + std::to_string(rows) + "x" + std::to_string(cols) +
                    "-k" + std::to_string(k) + typeSuffix(type),
                Family::TopK, b.take(), seed);
}

BenchProgram sort(int64_t rows, int64_t cols, uint64_t seed,
                  ElementType type = ElementType::F32) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int x = b.addInput({type, {rows, cols}});
  std::vector<int> sorted =
      b.addSort({x}, 1, SortOrder::Ascending, ComparatorKind::Less);
  b.addOutput(sorted[0]);
  return finish("sort-" + std::to_string(rows) + "x" + std::to_string(cols) +
                    typeSuffix(type),
                Family::Sort, b.take(), seed);
}

/// An argsort: each row's values descending with their indices (an i64
/// iota sorted as the payload), what top-p sampling sorts a vocabulary by.
BenchProgram argsort(int64_t rows, int64_t cols, uint64_t seed,
                     ElementType type = ElementType::F32) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int x = b.addInput({type, {rows, cols}});
  int index = b.addIota({ElementType::I64, {rows, cols}}, 1);
  std::vector<int> sorted = b.addSort({x, index}, 1, SortOrder::Descending,
                                      ComparatorKind::Greater);
  b.addOutput(sorted[0]);
  b.addOutput(sorted[1]);
  return finish("argsort-" + std::to_string(rows) + "x" + std::to_string(cols) +
                    typeSuffix(type),
                Family::Sort, b.take(), seed);
}

/// Boxes a detection head's NMS keeps a class at most.
constexpr int64_t kHeadMaxOut = 100;

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

/// A detection head's NMS: boxes [B, N, 4] and logits [B, C, N], a
/// sigmoid, then NMS per (image, class) with score threshold 0.5 (about
/// half of the boxes of a class pass whatever the logits' scale), IoU 0.5
/// and at most 100 boxes a class.
BenchProgram nmsHead(int64_t batches, int64_t classes, int64_t boxes,
                     uint64_t seed) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int box = b.addInput({ElementType::F32, {batches, boxes, 4}});
  int logits = b.addInput({ElementType::F32, {batches, classes, boxes}});
  int score = b.addElementwise(EwKind::Sigmoid, {logits}, ElementType::F32);
  auto [selected, count] =
      b.addNms(box, score, kHeadMaxOut, 0.5f, 0.5f, /*centerPointBox=*/false);
  b.addOutput(selected);
  b.addOutput(count);
  return finish("nms-head-" + std::to_string(batches) + "x" +
                    std::to_string(classes) + "x" + std::to_string(boxes),
                Family::Nms, b.take(), seed);
}

/// Candidates a production detection head keeps per image.
constexpr int64_t kDetectCandidates = 1000;

/// A detection head as production code runs it (a YOLO-style export, as
/// NmsGenerator's pre-filter spells it): boxes [B, N, 4], class scores
/// [B, C, N] (probabilities) and a per-box objectness [B, N]; the top 1,000
/// boxes of each image by objectness (all N when fewer), their boxes and
/// class scores gathered, then NMS per (image, class) with score threshold
/// 0.05, IoU 0.5 and at most 100 boxes a class. The outputs are the NMS's
/// rows (image, class, candidate), its count and the candidates' box
/// indices, which map a candidate back to its box.
BenchProgram detect(int64_t batches, int64_t classes, int64_t boxes,
                    uint64_t seed) {
  Policy policy;
  Rng rng(seed);
  ProgramBuilder b(policy, rng);
  int box = b.addInput({ElementType::F32, {batches, boxes, 4}});
  int score = b.addInput({ElementType::F32, {batches, classes, boxes}});
  int objectness = b.addInput({ElementType::F32, {batches, boxes}});
  const int64_t k = std::min(kDetectCandidates, boxes);
  auto [values, indices] = b.addTopK(objectness, 1, k, /*largest=*/true);
  b.keepUnused(values);
  int candidateBoxes = b.addGather(box, indices, 1);
  int candidateScores = b.addGather(score, indices, 2);
  auto [selected, count] = b.addNms(candidateBoxes, candidateScores,
                                    kHeadMaxOut, 0.5f, 0.05f,
                                    /*centerPointBox=*/false);
  b.addOutput(selected);
  b.addOutput(count);
  b.addOutput(indices);
  return finish("detect-" + std::to_string(batches) + "x" +
                    std::to_string(classes) + "x" + std::to_string(boxes),
                Family::Nms, b.take(), seed);
}

} // namespace

std::vector<BenchProgram> benchPrograms() {
  return {topk(1024, 1024, 8, 101),
          topk(4096, 4096, 8, 102),
          topk(64, 65536, 64, 103),
          topk(1, 1 << 20, 8, 104),
          // Today's models: MoE routing (16,384 tokens over 128 or 256
          // experts, top 8), sampling over a vocabulary (151,936: Qwen;
          // 129,280: DeepSeek) with top-k 50, greedy (k 1) and top-k 20,
          // and a beam search's top 8 of 128,000 (Llama 3).
          topk(16384, 128, 8, 105),
          topk(16384, 256, 8, 106),
          topk(64, 151936, 50, 107),
          topk(256, 129280, 1, 108),
          topk(256, 129280, 20, 109),
          topk(32, 128000, 8, 110),
          sort(1024, 1024, 201),
          sort(16384, 128, 202),
          sort(1, 1 << 20, 203),
          // The sort behind top-p sampling: a vocabulary (151,936: Qwen)
          // descending, with the indices.
          argsort(64, 151936, 204),
          // The same in bf16, what today's models sort and select.
          topk(1024, 1024, 8, 111, ElementType::BF16),
          topk(16384, 128, 8, 112, ElementType::BF16),
          topk(16384, 256, 8, 113, ElementType::BF16),
          topk(64, 151936, 50, 114, ElementType::BF16),
          topk(256, 129280, 1, 115, ElementType::BF16),
          topk(256, 129280, 20, 116, ElementType::BF16),
          topk(32, 128000, 8, 117, ElementType::BF16),
          sort(1024, 1024, 205, ElementType::BF16),
          sort(1, 1 << 20, 206, ElementType::BF16),
          argsort(64, 151936, 207, ElementType::BF16),
          nms(1000, 301),
          nms(5000, 302),
          nms(20000, 303),
          nmsHead(4, 80, 1000, 304),
          nmsHead(1, 80, 20000, 305),
          // Production detection heads: YOLO at 640 pixels (8,400 boxes, a
          // batch of 8; 25,200 with three anchors a cell), 80 classes.
          detect(8, 80, 8400, 306),
          detect(1, 80, 25200, 307)};
}

namespace {

/// A seed of its own for a shape outside the fixed programs.
uint64_t shapeSeed(uint64_t family, int64_t a, int64_t b, int64_t k) {
  return family * 1000000007ull + static_cast<uint64_t>(a) * 1000003ull +
         static_cast<uint64_t>(b) * 101ull + static_cast<uint64_t>(k);
}

constexpr int64_t kMaxElements = int64_t(1) << 24;

/// A benchmark name's shape: "topk-RxC-kK", "sort-RxC", "argsort-RxC",
/// "nms-N", "nms-head-BxCxN" or "detect-BxCxN",
/// spelled exactly (the name made from the numbers must be `name`).
std::optional<BenchProgram> parseBenchName(std::string name) {
  // A key type other than f32 is a suffix of the top-k and sort shapes.
  ElementType type = ElementType::F32;
  const std::string bf16 = "-bf16";
  if (name.size() > bf16.size() &&
      name.compare(name.size() - bf16.size(), bf16.size(), bf16) == 0) {
    type = ElementType::BF16;
    name.resize(name.size() - bf16.size());
    if (name.rfind("nms-", 0) == 0 || name.rfind("detect-", 0) == 0)
      return std::nullopt;
  }
  const std::string suffix = typeSuffix(type);
  long long r = 0, c = 0, k = 0;
  auto sane = [](long long a, long long b) {
    return a > 0 && b > 0 && b <= kMaxElements / a;
  };
  if (std::sscanf(name.c_str(), "topk-%lldx%lld-k%lld", &r, &c, &k) == 3 &&
      sane(r, c) && k > 0 && k <= c) {
    BenchProgram b = topk(r, c, k, shapeSeed(1, r, c, k), type);
    if (b.name == name + suffix)
      return b;
  } else if (std::sscanf(name.c_str(), "sort-%lldx%lld", &r, &c) == 2 &&
             sane(r, c)) {
    BenchProgram b = sort(r, c, shapeSeed(2, r, c, 0), type);
    if (b.name == name + suffix)
      return b;
  } else if (std::sscanf(name.c_str(), "argsort-%lldx%lld", &r, &c) == 2 &&
             sane(r, c)) {
    BenchProgram b = argsort(r, c, shapeSeed(5, r, c, 0), type);
    if (b.name == name + suffix)
      return b;
  } else if (std::sscanf(name.c_str(), "nms-head-%lldx%lldx%lld", &r, &c, &k) ==
                 3 &&
             sane(r, c) && sane(r * c, k)) {
    BenchProgram b = nmsHead(r, c, k, shapeSeed(4, r, c, k));
    if (b.name == name)
      return b;
  } else if (std::sscanf(name.c_str(), "detect-%lldx%lldx%lld", &r, &c, &k) ==
                 3 &&
             sane(r, c) && sane(r * c, k) && sane(r * k, 4)) {
    BenchProgram b = detect(r, c, k, shapeSeed(6, r, c, k));
    if (b.name == name)
      return b;
  } else if (std::sscanf(name.c_str(), "nms-%lld", &r) == 1 && sane(r, 4)) {
    BenchProgram b = nms(r, shapeSeed(3, r, 0, 0));
    if (b.name == name)
      return b;
  }
  return std::nullopt;
}

} // namespace

bool isFixedBench(const std::string &name) {
  for (const BenchProgram &b : benchPrograms())
    if (b.name == name)
      return true;
  return false;
}

std::optional<BenchProgram> findBenchProgram(const std::string &name) {
  for (BenchProgram &b : benchPrograms())
    if (b.name == name)
      return std::move(b);
  return parseBenchName(name);
}

std::vector<BenchProgram> benchLadder(const BenchProgram &bench) {
  std::vector<BenchProgram> rungs;
  const Program &p = bench.program;
  const TensorType &in = p.values[static_cast<size_t>(p.inputs[0])];
  if (bench.family == Family::Nms) {
    bool head = bench.name.rfind("nms-head-", 0) == 0;
    bool detector = bench.name.rfind("detect-", 0) == 0;
    std::string prefix =
        head || detector
            ? std::string(head ? "nms-head-" : "detect-") +
                  std::to_string(in.shape[0]) + "x" +
                  std::to_string(
                      p.values[static_cast<size_t>(p.inputs[1])].shape[1]) +
                  "x"
            : "nms-";
    for (int64_t boxes = in.shape[1] / 4; boxes >= 16; boxes /= 4)
      rungs.push_back(*findBenchProgram(prefix + std::to_string(boxes)));
    return rungs;
  }
  int64_t rows = in.shape[0], cols = in.shape[1];
  int64_t k = bench.family == Family::TopK ? p.ops[0].k : 0;
  int64_t minCols = std::max<int64_t>(4 * k, 16);
  for (;;) {
    if (cols >= rows && cols / 4 >= minCols)
      cols /= 4;
    else if (rows > 1)
      rows = std::max<int64_t>(rows / 4, 1);
    else
      break;
    if (rows * cols < 4096)
      break;
    std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
    std::string sortKind =
        bench.name.rfind("argsort-", 0) == 0 ? "argsort-" : "sort-";
    rungs.push_back(*findBenchProgram(
        (bench.family == Family::TopK
             ? "topk-" + shape + "-k" + std::to_string(k)
             : sortKind + shape) +
        typeSuffix(in.elementType)));
  }
  return rungs;
}

} // namespace sift::gen
