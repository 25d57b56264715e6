//===- generators/ProgramBuilder.cpp - Shared machinery of the generators -===//
//
// Typed op constructors and the random producer / consumer / slice builders.
//
//===----------------------------------------------------------------------===//
#include "generators/ProgramBuilder.h"

#include "generators/OpDescriptors.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace sift::gen {

namespace {
/// Float constants exact in f16 (hence in f32 and f64 too).
constexpr double kFloatConstants[] = {0.5,  2.0, -1.5,  3.0,   0.25,
                                      -1.0, 1.0, -0.75, 0.125, 1.5,
                                      -2.0, 4.0, 0.0,   -3.0,  0.375};
/// Integer constants; wide ones are used for i64 only.
constexpr int64_t kIntConstants[] = {1,  -1,  2,   3,      7,
                                     -5, 255, 256, -65536, 1 << 20};
constexpr int64_t kWideIntConstants[] = {
    int64_t(1) << 40, -(int64_t(1) << 33) + 1,
    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};

bool containsId(const std::vector<int> &ids, int id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}
} // namespace

ProgramBuilder::ProgramBuilder(const Policy &policy, Rng &rng)
    : policy(policy), rng(rng),
      producersLeft(
          policy.maxProducers > 0 ? rng.uniform(0, policy.maxProducers) : 0) {}

//===----------------------------------------------------------------------===//
// One op each.
//===----------------------------------------------------------------------===//

int ProgramBuilder::addInput(const TensorType &type) {
  int id = prog.addValue(type);
  prog.inputs.push_back(id);
  return id;
}

int ProgramBuilder::addElementwise(EwKind kind, std::vector<int> operands,
                                   ElementType resultType, double constant,
                                   int64_t intConstant) {
  assert(!operands.empty() && "elementwise op without operands");
  TensorType type{resultType,
                  prog.values[static_cast<size_t>(operands[0])].shape};
  Op op;
  op.kind = OpKind::Elementwise;
  op.ew = kind;
  op.operands = std::move(operands);
  op.constant = constant;
  op.intConstant = intConstant;
  op.results = {prog.addValue(std::move(type))};
  prog.ops.push_back(std::move(op));
  return prog.ops.back().results[0];
}

int ProgramBuilder::addIota(const TensorType &type, int64_t dimension) {
  Op op;
  op.kind = OpKind::Iota;
  op.dimension = dimension;
  op.results = {prog.addValue(type)};
  prog.ops.push_back(std::move(op));
  return prog.ops.back().results[0];
}

std::vector<int> ProgramBuilder::addSort(std::vector<int> operands,
                                         int64_t dimension, SortOrder order,
                                         ComparatorKind comparator) {
  Op op;
  op.kind = OpKind::Sort;
  op.dimension = dimension;
  op.order = order;
  op.comparator = comparator;
  for (int id : operands)
    op.results.push_back(prog.addValue(prog.values[static_cast<size_t>(id)]));
  op.operands = std::move(operands);
  prog.ops.push_back(std::move(op));
  return prog.ops.back().results;
}

std::pair<int, int> ProgramBuilder::addTopK(int input, int64_t dimension,
                                            int64_t k, bool largest) {
  TensorType values = prog.values[static_cast<size_t>(input)];
  values.shape[static_cast<size_t>(dimension)] = k;
  TensorType indices{ElementType::I64, values.shape};
  Op op;
  op.kind = OpKind::TopK;
  op.dimension = dimension;
  op.k = k;
  op.largest = largest;
  op.operands = {input};
  op.results = {prog.addValue(std::move(values)),
                prog.addValue(std::move(indices))};
  prog.ops.push_back(std::move(op));
  return {prog.ops.back().results[0], prog.ops.back().results[1]};
}

std::pair<int, int> ProgramBuilder::addNms(int boxes, int scores,
                                           int64_t maxOutputBoxesPerClass,
                                           float iouThreshold,
                                           std::optional<float> scoreThreshold,
                                           bool centerPointBox) {
  const TensorType &scoresType = prog.values[static_cast<size_t>(scores)];
  const int64_t classes = scoresType.shape[0] * scoresType.shape[1];
  const int64_t rows = classes * std::max<int64_t>(maxOutputBoxesPerClass, 0);
  Op op;
  op.kind = OpKind::Nms;
  op.operands = {boxes, scores};
  op.maxOutputBoxesPerClass = maxOutputBoxesPerClass;
  op.iouThreshold = iouThreshold;
  op.scoreThreshold = scoreThreshold;
  op.centerPointBox = centerPointBox;
  op.results = {prog.addValue(TensorType{ElementType::I64, {rows, 3}}),
                prog.addValue(TensorType{ElementType::I64, {1}})};
  prog.ops.push_back(std::move(op));
  return {prog.ops.back().results[0], prog.ops.back().results[1]};
}

int ProgramBuilder::addSlice(int source, std::vector<int64_t> offsets,
                             std::vector<int64_t> sizes,
                             std::vector<int64_t> strides) {
  TensorType type{prog.values[static_cast<size_t>(source)].elementType, sizes};
  Op op;
  op.kind = OpKind::Slice;
  op.operands = {source};
  op.offsets = std::move(offsets);
  op.sizes = std::move(sizes);
  op.strides = std::move(strides);
  op.results = {prog.addValue(std::move(type))};
  prog.ops.push_back(std::move(op));
  return prog.ops.back().results[0];
}

int ProgramBuilder::addGather(int source, int indices, int64_t axis) {
  TensorType type = prog.values[static_cast<size_t>(source)];
  type.shape[static_cast<size_t>(axis)] =
      prog.values[static_cast<size_t>(indices)].shape[1];
  Op op;
  op.kind = OpKind::Gather;
  op.operands = {source, indices};
  op.axis = axis;
  op.results = {prog.addValue(std::move(type))};
  prog.ops.push_back(std::move(op));
  return prog.ops.back().results[0];
}

void ProgramBuilder::addOutput(int value) {
  if (!containsId(prog.outputs, value))
    prog.outputs.push_back(value);
}

void ProgramBuilder::keepUnused(int value) { unused.push_back(value); }

//===----------------------------------------------------------------------===//
// Random building blocks.
//===----------------------------------------------------------------------===//

ElementType ProgramBuilder::pickType(const ElementTypeWeights &weights) {
  ElementTypeWeights allowed = weights;
  const size_t bf16 = static_cast<size_t>(ElementType::BF16);
  unsigned others = 0;
  for (size_t i = 0; i < weights.size(); ++i)
    others += i == bf16 ? 0 : weights[i];
  if (!policy.allowBf16 && others > 0)
    allowed[bf16] = 0;
  return kAllElementTypes[rng.pickWeighted(allowed.data(), allowed.size())];
}

std::vector<ElementType>
ProgramBuilder::allowed(std::vector<ElementType> types) const {
  if (!policy.allowBf16)
    types.erase(std::remove(types.begin(), types.end(), ElementType::BF16),
                types.end());
  return types;
}

double ProgramBuilder::pickFloatConstant() {
  constexpr size_t n = sizeof(kFloatConstants) / sizeof(kFloatConstants[0]);
  return kFloatConstants[static_cast<size_t>(rng.uniform(0, int64_t(n) - 1))];
}

int64_t ProgramBuilder::pickIntConstant(ElementType type) {
  constexpr size_t n = sizeof(kIntConstants) / sizeof(kIntConstants[0]);
  constexpr size_t wide =
      sizeof(kWideIntConstants) / sizeof(kWideIntConstants[0]);
  if (type == ElementType::I64 && rng.chance(0.2))
    return kWideIntConstants[static_cast<size_t>(
        rng.uniform(0, int64_t(wide) - 1))];
  if (type == ElementType::I32 && rng.chance(0.1))
    return rng.chance(0.5) ? std::numeric_limits<int32_t>::max()
                           : std::numeric_limits<int32_t>::min();
  return kIntConstants[static_cast<size_t>(rng.uniform(0, int64_t(n) - 1))];
}

std::vector<unsigned>
ProgramBuilder::ewWeightsFor(std::optional<ElementType> operand,
                             std::optional<ElementType> result,
                             bool exactOnly) const {
  std::vector<unsigned> weights(kNumEwKinds, 0);
  for (size_t i = 0; i < kNumEwKinds; ++i) {
    EwKind kind = kAllEwKinds[i];
    if (exactOnly && !descriptorOf(kind).exact)
      continue;
    bool ok = operand
                  ? (result ? isValidEwTyping(kind, *operand, *result)
                            : !allowed(resultTypesFor(kind, *operand)).empty())
                  : !allowed(operandTypesFor(kind, *result)).empty();
    if (ok)
      weights[i] = policy.ewWeights[i];
  }
  return weights;
}

std::vector<int>
ProgramBuilder::valuesOfType(const TensorType &type,
                             const std::vector<int> &avoid) const {
  std::vector<int> ids;
  for (size_t id = 0; id < prog.values.size(); ++id)
    if (prog.values[id] == type && !containsId(avoid, static_cast<int>(id)) &&
        !containsId(unused, static_cast<int>(id)))
      ids.push_back(static_cast<int>(id));
  return ids;
}

int ProgramBuilder::leaf(const TensorType &type,
                         const std::vector<int> &avoid) {
  if (rng.chance(policy.reuseValueChance)) {
    std::vector<int> candidates = valuesOfType(type, avoid);
    if (!candidates.empty())
      return rng.pick(candidates);
  }
  if (!isFloat(type.elementType) && rng.chance(policy.iotaLeafChance))
    return addIota(type, rng.uniform(0, type.rank() - 1));
  return addInput(type);
}

int ProgramBuilder::produce(const TensorType &type,
                            const std::vector<int> &avoid, bool exactOnly) {
  return produceAt(type, 0, avoid, exactOnly);
}

int ProgramBuilder::produceAt(const TensorType &type, int64_t depth,
                              const std::vector<int> &avoid, bool exactOnly) {
  if (depth >= policy.maxProducerDepth || producersLeft <= 0 ||
      !rng.chance(policy.producerChance))
    return leaf(type, avoid);
  std::vector<unsigned> weights =
      ewWeightsFor(std::nullopt, type.elementType, exactOnly);
  bool any = std::any_of(weights.begin(), weights.end(),
                         [](unsigned w) { return w > 0; });
  if (!any)
    return leaf(type, avoid);
  EwKind kind = kAllEwKinds[rng.pickWeighted(weights)];
  const EwDescriptor &d = descriptorOf(kind);
  ElementType operandType =
      rng.pick(allowed(operandTypesFor(kind, type.elementType)));
  --producersLeft;
  TensorType operandTensor{operandType, type.shape};
  std::vector<int> operands;
  operands.push_back(produceAt(operandTensor, depth + 1, {}, exactOnly));
  if (d.arity == 2)
    operands.push_back(
        rng.chance(0.1) ? operands[0]
                        : produceAt(operandTensor, depth + 1, {}, exactOnly));
  double constant = 0.0;
  int64_t intConstant = 0;
  if (d.hasConstant) {
    if (isFloat(operandType))
      constant = pickFloatConstant();
    else
      intConstant = pickIntConstant(operandType);
  }
  return addElementwise(kind, std::move(operands), type.elementType, constant,
                        intConstant);
}

int ProgramBuilder::consume(int value) {
  for (int64_t i = 0; i < policy.maxConsumers; ++i) {
    if (!rng.chance(policy.consumerChance))
      break;
    TensorType type = prog.values[static_cast<size_t>(value)];
    std::vector<unsigned> weights =
        ewWeightsFor(type.elementType, std::nullopt);
    if (std::none_of(weights.begin(), weights.end(),
                     [](unsigned w) { return w > 0; }))
      break;
    EwKind kind = kAllEwKinds[rng.pickWeighted(weights)];
    const EwDescriptor &d = descriptorOf(kind);
    ElementType resultType =
        rng.pick(allowed(resultTypesFor(kind, type.elementType)));
    std::vector<int> operands = {value};
    if (d.arity == 2) {
      // The partner: often another value of the same type (a sort payload,
      // the pre-sort operand, an input), else a fresh input.
      std::vector<int> partners = valuesOfType(type, {});
      if (!partners.empty() && rng.chance(0.6))
        operands.push_back(rng.pick(partners));
      else
        operands.push_back(addInput(type));
      if (rng.chance(0.5))
        std::swap(operands[0], operands[1]);
    }
    double constant = 0.0;
    int64_t intConstant = 0;
    if (d.hasConstant) {
      if (isFloat(type.elementType))
        constant = pickFloatConstant();
      else
        intConstant = pickIntConstant(type.elementType);
    }
    value = addElementwise(kind, std::move(operands), resultType, constant,
                           intConstant);
  }
  return value;
}

int ProgramBuilder::maybeSlice(int value) {
  const TensorType &type = prog.values[static_cast<size_t>(value)];
  if (type.numElements() == 0 || !rng.chance(policy.sliceChance))
    return value;
  return randomSlice(value);
}

int ProgramBuilder::randomSlice(int value) {
  std::vector<int64_t> shape = prog.values[static_cast<size_t>(value)].shape;
  // One dimension larger than 1 is always cut; the others sometimes.
  std::vector<int64_t> cuttable;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] > 1)
      cuttable.push_back(static_cast<int64_t>(i));
  // With every dimension 1, the only cut is an empty slice of one of them.
  int64_t mustCut = cuttable.empty()
                        ? rng.uniform(0, static_cast<int64_t>(shape.size()) - 1)
                        : rng.pick(cuttable);
  std::vector<int64_t> offsets, sizes, strides;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t dim = shape[i];
    assert(dim > 0 && "cannot slice a dimension of size 0");
    if (static_cast<int64_t>(i) != mustCut && !rng.chance(0.3)) {
      offsets.push_back(0);
      sizes.push_back(dim);
      strides.push_back(1);
      continue;
    }
    int64_t stride = static_cast<int64_t>(rng.pickWeighted({6, 2, 1})) + 1;
    int64_t offset = rng.chance(0.3) ? 0 : rng.uniform(0, dim - 1);
    // Largest size with offset + (size - 1) * stride <= dim - 1.
    int64_t maxSize = (dim - 1 - offset) / stride + 1;
    int64_t size = rng.chance(0.1) ? 0 : rng.uniform(1, maxSize);
    // A whole dimension is not a cut: drop its last element.
    if (offset == 0 && stride == 1 && size == dim)
      size = dim - 1;
    offsets.push_back(offset);
    sizes.push_back(size);
    strides.push_back(stride);
  }
  return addSlice(value, std::move(offsets), std::move(sizes),
                  std::move(strides));
}

void ProgramBuilder::maybeAddExtraOutput() {
  if (!rng.chance(policy.extraOutputChance))
    return;
  std::vector<int> candidates;
  for (const Op &op : prog.ops) {
    if (op.kind == OpKind::Sort || op.kind == OpKind::TopK ||
        op.kind == OpKind::Nms)
      continue;
    for (int id : op.results)
      if (!containsId(prog.outputs, id))
        candidates.push_back(id);
  }
  if (!candidates.empty())
    addOutput(rng.pick(candidates));
}

} // namespace sift::gen
