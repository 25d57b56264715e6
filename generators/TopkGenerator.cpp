//===- generators/TopkGenerator.cpp - Random programs around sift.topk ----===//
//
// Shape, input (with an optional sigmoid), k and direction, then the top-k
// and the uses of its values and indices.
//
//===----------------------------------------------------------------------===//
#include "generators/TopkGenerator.h"

#include "generators/ProgramBuilder.h"
#include "generators/ShapeGenerator.h"

#include <algorithm>

namespace sift::gen {

namespace {

/// The stream of the edge aim (TopKPolicy::edgeChance), forked from the
/// program's engine before its first draw: an aimed program overrides some
/// of the main stream's draws, never skips one, so the programs that are
/// not aimed are those of before.
constexpr uint64_t kTopkEdgeStream = 0xD6E8FEB86659FD93ull;

/// An edge k for a row of `n` (TopKPolicy::edgeKWeights), in [1, n].
int64_t edgeK(const TopKPolicy &policy, int64_t n, Rng &aim) {
  if (n <= 1)
    return n;
  switch (aim.pickWeighted(policy.edgeKWeights.data(),
                           policy.edgeKWeights.size())) {
  case 0: return 1;
  case 1: return aim.uniform(2, std::min<int64_t>(8, n));
  case 2: return aim.uniform(std::min<int64_t>(9, n), std::min<int64_t>(32, n));
  default:
    return aim.uniform(std::min<int64_t>(33, n - 1),
                       std::max<int64_t>(1, std::min<int64_t>(256, n - 1)));
  }
}

} // namespace

int64_t generateK(const TopKPolicy &policy, int64_t n, Rng &rng) {
  if (n <= 0)
    return 0;
  switch (rng.pickWeighted(policy.kWeights.data(), policy.kWeights.size())) {
  case 0: return 0;
  case 1: return 1;
  case 2: return n;
  case 3: return n < 2 ? n : rng.uniform(2, std::min<int64_t>(8, n));
  default: return rng.uniform(0, n);
  }
}

Program generateTopkProgram(const Policy &policy, Rng &rng) {
  Rng aim = rng.fork(kTopkEdgeStream);
  ProgramBuilder b(policy, rng);
  const TopKPolicy &tp = policy.topk;
  const bool aimed = aim.chance(tp.edgeChance);

  ShapeChoice shape = generateShape(policy.shapes, rng);
  if (aimed)
    aimShape(policy.shapes, shape, aim);
  const int64_t dim = shape.dimension;
  ElementType type = b.pickType(tp.inputTypeWeights);
  if (aimed && policy.allowBf16 && aim.chance(tp.edgeBf16Chance))
    type = ElementType::BF16;

  int input = b.produce(TensorType{type, shape.shape}, {},
                        /*exactOnly=*/!policy.allowInexactKeys);
  if (isFloat(type) && policy.allowInexactKeys && rng.chance(tp.sigmoidChance))
    input = b.addElementwise(EwKind::Sigmoid, {input}, type);

  int64_t n = shape.shape[static_cast<size_t>(dim)];
  int64_t k = generateK(tp, n, rng);
  if (aimed)
    k = edgeK(tp, n, aim);
  bool largest = rng.chance(tp.largestChance);
  auto [values, indices] = b.addTopK(input, dim, k, largest);

  size_t use = rng.pickWeighted(tp.useWeights.data(), tp.useWeights.size());
  if (aimed && use == 1)
    use = 0; // The indices say where a kernel took each value from.
  switch (use) {
  case 0: // both
    b.addOutput(b.maybeSlice(b.consume(values)));
    b.addOutput(b.maybeSlice(b.consume(indices)));
    break;
  case 1: // values only
    b.keepUnused(indices);
    b.addOutput(b.maybeSlice(b.consume(values)));
    break;
  default: // indices only
    b.keepUnused(values);
    b.addOutput(b.maybeSlice(b.consume(indices)));
    break;
  }
  b.maybeAddExtraOutput();
  // Last, so that every op before it (and its config draw) is as it was.
  if (aimed && n >= 2 && aim.chance(tp.secondTopkChance)) {
    auto [values2, indices2] =
        b.addTopK(input, dim, edgeK(tp, n, aim), !largest);
    b.addOutput(values2);
    b.addOutput(indices2);
  }
  return b.take();
}

} // namespace sift::gen
