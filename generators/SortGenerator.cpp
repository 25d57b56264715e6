//===- generators/SortGenerator.cpp - Random programs around sift.sort ----===//
//
// Shape, key, payloads, order, then the sort and what uses its results.
//
//===----------------------------------------------------------------------===//
#include "generators/SortGenerator.h"

#include "generators/ProgramBuilder.h"
#include "generators/ShapeGenerator.h"

#include <algorithm>

namespace sift::gen {

namespace {

/// A comparator valid for `keyType`, by the policy's weights (falls back to
/// Less, valid for every type).
ComparatorKind pickComparator(const SortPolicy &policy, ElementType keyType,
                              Rng &rng) {
  std::array<unsigned, 4> weights = policy.comparatorWeights;
  if (isFloat(keyType))
    weights[static_cast<size_t>(ComparatorKind::LessLowByte)] = 0;
  else
    weights[static_cast<size_t>(ComparatorKind::LessAbs)] = 0;
  if (std::all_of(weights.begin(), weights.end(),
                  [](unsigned w) { return w == 0; }))
    return ComparatorKind::Less;
  return static_cast<ComparatorKind>(
      rng.pickWeighted(weights.data(), weights.size()));
}

} // namespace

/// The stream of the edge aim (SortPolicy::edgeChance), forked from the
/// program's engine before its first draw: an aimed program overrides the
/// main stream's shape, never skips a draw, so the programs that are not
/// aimed are those of before.
constexpr uint64_t kSortEdgeStream = 0x8CB92BA72F3D8DD7ull;

Program generateSortProgram(const Policy &policy, Rng &rng) {
  Rng aim = rng.fork(kSortEdgeStream);
  ProgramBuilder b(policy, rng);
  const SortPolicy &sp = policy.sort;

  ShapeChoice shape = generateShape(policy.shapes, rng);
  if (aim.chance(sp.edgeChance))
    aimShape(policy.shapes, shape, aim);
  const int64_t dim = shape.dimension;
  ElementType keyType = b.pickType(sp.keyTypeWeights);

  int64_t maxOperands = std::clamp<int64_t>(sp.maxOperands, 1, 3);
  int64_t numOperands =
      static_cast<int64_t>(rng.pickWeighted(sp.operandCountWeights.data(),
                                            static_cast<size_t>(maxOperands))) +
      1;

  // Operands, all distinct values: the key, then payloads.
  std::vector<int> operands;
  operands.push_back(b.produce(TensorType{keyType, shape.shape}, {},
                               /*exactOnly=*/!policy.allowInexactKeys));
  for (int64_t i = 1; i < numOperands; ++i) {
    if (rng.chance(sp.iotaPayloadChance)) {
      ElementType iotaType =
          rng.chance(sp.iotaI32Chance) ? ElementType::I32 : ElementType::I64;
      operands.push_back(b.addIota(TensorType{iotaType, shape.shape}, dim));
    } else {
      ElementType payloadType = b.pickType(policy.payloadTypeWeights);
      operands.push_back(
          b.produce(TensorType{payloadType, shape.shape}, operands));
    }
  }

  SortOrder order = static_cast<SortOrder>(
      rng.pickWeighted(sp.orderWeights.data(), sp.orderWeights.size()));
  ComparatorKind comparator = ComparatorKind::Less;
  if (order == SortOrder::Comparator)
    comparator = pickComparator(sp, keyType, rng);

  std::vector<int> results = b.addSort(operands, dim, order, comparator);

  // Which results the rest of the program uses: all, or a non-empty subset.
  std::vector<bool> used(results.size(), true);
  if (results.size() > 1 && rng.chance(sp.dropResultsChance)) {
    bool any = false;
    for (size_t i = 0; i < used.size(); ++i) {
      used[i] = rng.chance(0.5);
      any |= used[i];
    }
    if (!any)
      used[static_cast<size_t>(
          rng.uniform(0, static_cast<int64_t>(used.size()) - 1))] = true;
    else if (std::all_of(used.begin(), used.end(), [](bool u) { return u; }))
      used[static_cast<size_t>(
          rng.uniform(0, static_cast<int64_t>(used.size()) - 1))] = false;
  }
  for (size_t i = 0; i < results.size(); ++i)
    if (!used[i])
      b.keepUnused(results[i]);
  for (size_t i = 0; i < results.size(); ++i)
    if (used[i])
      b.addOutput(b.maybeSlice(b.consume(results[i])));
  b.maybeAddExtraOutput();
  return b.take();
}

} // namespace sift::gen
