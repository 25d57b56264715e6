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
  ProgramBuilder b(policy, rng);
  const TopKPolicy &tp = policy.topk;

  ShapeChoice shape = generateShape(policy.shapes, rng);
  const int64_t dim = shape.dimension;
  ElementType type = b.pickType(tp.inputTypeWeights);

  int input = b.produce(TensorType{type, shape.shape}, {},
                        /*exactOnly=*/!policy.allowInexactKeys);
  if (isFloat(type) && policy.allowInexactKeys && rng.chance(tp.sigmoidChance))
    input = b.addElementwise(EwKind::Sigmoid, {input}, type);

  int64_t n = shape.shape[static_cast<size_t>(dim)];
  int64_t k = generateK(tp, n, rng);
  bool largest = rng.chance(tp.largestChance);
  auto [values, indices] = b.addTopK(input, dim, k, largest);

  switch (rng.pickWeighted(tp.useWeights.data(), tp.useWeights.size())) {
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
  return b.take();
}

} // namespace sift::gen
