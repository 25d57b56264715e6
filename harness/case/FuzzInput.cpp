//===- FuzzInput.cpp - libFuzzer bytes to a case --------------------------===//
//
// Sizes stay small (extents up to 40, three dimensions at most) so one
// execution compiles and runs in milliseconds; the random generator covers
// the large sizes. Every op is added through ProgramBuilder's typed
// helpers, so the model is correct by construction wherever the choices
// fit, and gen::validate rejects the rest.
//
//===----------------------------------------------------------------------===//

#include "harness/case/FuzzInput.h"

#include "generators/InputGenerator.h"
#include "generators/OpDescriptors.h"
#include "generators/ProgramBuilder.h"

#include <FuzzedDataProvider.h>

namespace sift::harness {

using gen::EwKind;
using gen::TensorType;

namespace {

constexpr ElementType kTypes[] = {ElementType::I32, ElementType::I64,
                                  ElementType::F16, ElementType::F32,
                                  ElementType::F64, ElementType::BF16};
constexpr double kFloatConstants[] = {0.5, -2.0, 3.0, 1.0, -0.0, 0.25};
constexpr int64_t kIntConstants[] = {1, -3, 7, 255, -1};

/// An elementwise kind that keeps `type` (ResultRule::Same), drawn from
/// the bytes.
EwKind pickSameTypeKind(FuzzedDataProvider &bytes, ElementType type) {
  std::vector<EwKind> kinds;
  for (EwKind kind : gen::kAllEwKinds) {
    const gen::EwDescriptor &d = gen::descriptorOf(kind);
    if (d.result == gen::ResultRule::Same &&
        (d.operandTypes & gen::maskOf(type)))
      kinds.push_back(kind);
  }
  return kinds[bytes.ConsumeIntegralInRange<size_t>(0, kinds.size() - 1)];
}

/// Applies an elementwise op of the bytes' choosing to `value`.
int elementwise(FuzzedDataProvider &bytes, gen::ProgramBuilder &builder,
                int value) {
  const TensorType type = builder.program().values[value];
  EwKind kind = pickSameTypeKind(bytes, type.elementType);
  const gen::EwDescriptor &d = gen::descriptorOf(kind);
  std::vector<int> operands = {value};
  if (d.arity == 2)
    operands.push_back(bytes.ConsumeBool() ? value : builder.addInput(type));
  return builder.addElementwise(kind, operands, type.elementType,
                                bytes.PickValueInArray(kFloatConstants),
                                bytes.PickValueInArray(kIntConstants));
}

} // namespace

std::optional<FuzzCase> fuzzCaseFromBytes(const uint8_t *data, size_t size) {
  FuzzedDataProvider bytes(data, size);
  gen::Policy policy;
  gen::Rng unused(0);
  gen::ProgramBuilder builder(policy, unused);

  bool sort = bytes.ConsumeBool();
  size_t rank = bytes.ConsumeIntegralInRange<size_t>(1, 3);
  std::vector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d)
    shape.push_back(bytes.ConsumeIntegralInRange<int64_t>(0, 40));
  int64_t dimension =
      bytes.ConsumeIntegralInRange<int64_t>(0, static_cast<int64_t>(rank) - 1);
  ElementType keyType = bytes.PickValueInArray(kTypes);
  int key = builder.addInput({keyType, shape});
  for (int n = bytes.ConsumeIntegralInRange<int>(0, 3); n > 0; --n)
    key = elementwise(bytes, builder, key);

  std::vector<int> returned;
  if (sort) {
    std::vector<int> operands = {key};
    for (int n = bytes.ConsumeIntegralInRange<int>(0, 2); n > 0; --n)
      operands.push_back(
          builder.addInput({bytes.PickValueInArray(kTypes), shape}));
    gen::SortOrder order = bytes.PickValueInArray(
        {gen::SortOrder::Ascending, gen::SortOrder::Descending,
         gen::SortOrder::Comparator});
    gen::ComparatorKind comparator =
        isFloat(keyType)
            ? bytes.PickValueInArray({gen::ComparatorKind::Less,
                                      gen::ComparatorKind::Greater,
                                      gen::ComparatorKind::LessAbs})
            : bytes.PickValueInArray({gen::ComparatorKind::Less,
                                      gen::ComparatorKind::Greater,
                                      gen::ComparatorKind::LessLowByte});
    std::vector<int> results =
        builder.addSort(operands, dimension, order, comparator);
    // Which results are returned: a bit each, at least one.
    uint8_t mask = bytes.ConsumeIntegral<uint8_t>();
    for (size_t i = 0; i < results.size(); ++i)
      if (mask & (1u << i))
        returned.push_back(results[i]);
    if (returned.empty())
      returned.push_back(results[mask % results.size()]);
  } else {
    int64_t n = shape[static_cast<size_t>(dimension)];
    int64_t k = bytes.ConsumeIntegralInRange<int64_t>(0, n);
    auto [values, indices] =
        builder.addTopK(key, dimension, k, bytes.ConsumeBool());
    switch (bytes.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: returned = {values}; break;
    case 1: returned = {indices}; break;
    default: returned = {values, indices}; break;
    }
  }
  // A consumer after the first returned result.
  if (bytes.ConsumeBool())
    returned.front() = elementwise(bytes, builder, returned.front());
  for (int value : returned)
    builder.addOutput(value);

  gen::InputMode mode = bytes.PickValueInArray(gen::kAllInputModes);
  uint64_t seed = bytes.ConsumeIntegral<uint64_t>();
  FuzzCase c;
  c.program = builder.take();
  if (!gen::validate(c.program).empty())
    return std::nullopt;
  c.inputs = gen::generateInputs(c.program, mode, seed);
  return c;
}

} // namespace sift::harness
