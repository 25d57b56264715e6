//===- oracles/Reference.cpp - The reference evaluator --------------------===//
//
// Walks the ops of a program in order over host tensors. Each op first checks
// the types, shapes and attributes it relies on (so an invalid model is an
// error message, never an out-of-bounds access), then computes its results:
// elementwise ops through `oracles/Elementwise`, iota directly, sort and
// top-k lane by lane with `std::stable_sort` over the float total order,
// slices and gathers by index arithmetic, NMS through `oracles/ReferenceNms`. Elements
// that an op only moves are copied byte for byte, so NaN payloads and the sign
// of zero survive.
//
//===----------------------------------------------------------------------===//
#include "oracles/Reference.h"
#include "support/Shape.h"

#include "oracles/Elementwise.h"
#include "oracles/FloatBits.h"
#include "oracles/KeyOrder.h"
#include "oracles/ReferenceNms.h"
#include "oracles/TensorIndex.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>
#include <optional>
#include <string>

namespace sift::oracle {

using gen::ComparatorKind;
using gen::Op;
using gen::OpKind;
using gen::Program;
using gen::SortOrder;
using gen::TensorType;

namespace {

std::string typeName(const TensorType &type) {
  return describe(type.elementType, type.shape);
}


/// Copies element `from` of `source` to element `to` of `dest` (same type).
void copyElement(const HostTensor &source, int64_t from, HostTensor &dest,
                 int64_t to) {
  size_t width = byteWidth(source.type);
  std::copy_n(source.data.data() + from * width, width,
              dest.data.data() + to * width);
}

/// Evaluates one program; holds the value of every SSA id defined so far.
class Evaluator {
public:
  explicit Evaluator(const Program &program)
      : program_(program), values_(program.values.size()) {}

  Status bindInputs(const std::vector<HostTensor> &inputs);
  Status evaluateOp(size_t index);
  Result<std::vector<HostTensor>> collectOutputs() const;
  /// Flushes the denormal float results of op `index` (FTZ).
  void flushResults(size_t index) {
    for (int r : program_.ops[index].results)
      if (r >= 0 && static_cast<size_t>(r) < values_.size() && values_[r])
        flushDenormals(*values_[r]);
  }

private:
  Status elementwise(const Op &op);
  Status iota(const Op &op);
  Status sort(const Op &op);
  Status topK(const Op &op);
  Status slice(const Op &op);
  Status nms(const Op &op);
  Status gather(const Op &op);

  /// The tensor of operand `i`, after checking the id and that it is defined.
  Result<const HostTensor *> operand(const Op &op, size_t i) const;
  /// Checks result count and ids (in range, not yet defined).
  Status checkResults(const Op &op, size_t count) const;
  /// Checks the dimension attribute against `rank`.
  Status checkDimension(const Op &op, int64_t rank) const;
  const TensorType &typeOf(int id) const { return program_.values[id]; }
  Error fail(const std::string &message) const {
    return makeError("op " + std::to_string(current_) + " (" +
                     std::string(gen::toString(program_.ops[current_].kind)) +
                     "): " + message);
  }

  const Program &program_;
  std::vector<std::optional<HostTensor>> values_;
  size_t current_ = 0;
};

Status Evaluator::bindInputs(const std::vector<HostTensor> &inputs) {
  for (size_t id = 0; id < program_.values.size(); ++id)
    for (int64_t size : program_.values[id].shape)
      if (size < 0)
        return makeError("value " + std::to_string(id) + " has type " +
                         typeName(program_.values[id]) +
                         " with a negative size");
  if (inputs.size() != program_.inputs.size())
    return makeError("the program takes " +
                     std::to_string(program_.inputs.size()) +
                     " input(s), got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    int id = program_.inputs[i];
    std::string where = "input " + std::to_string(i);
    if (id < 0 || static_cast<size_t>(id) >= values_.size())
      return makeError(where + " names value " + std::to_string(id) +
                       ", which does not exist");
    if (values_[id])
      return makeError(where + " names value " + std::to_string(id) +
                       ", already bound by an earlier input");
    const TensorType &type = typeOf(id);
    const HostTensor &tensor = inputs[i];
    if (tensor.type != type.elementType || tensor.shape != type.shape)
      return makeError(where + ": expected " + typeName(type) + ", got " +
                       describe(tensor));
    size_t bytes =
        static_cast<size_t>(tensor.numElements()) * byteWidth(tensor.type);
    if (tensor.data.size() != bytes)
      return makeError(where + ": " + describe(tensor) + " needs " +
                       std::to_string(bytes) + " bytes, the tensor holds " +
                       std::to_string(tensor.data.size()));
    values_[id] = tensor;
  }
  return Status::success();
}

Result<const HostTensor *> Evaluator::operand(const Op &op, size_t i) const {
  int id = op.operands[i];
  if (id < 0 || static_cast<size_t>(id) >= values_.size())
    return fail("operand " + std::to_string(i) + " names value " +
                std::to_string(id) + ", which does not exist");
  if (!values_[id])
    return fail("operand " + std::to_string(i) + " uses value " +
                std::to_string(id) + " before it is defined");
  return &*values_[id];
}

Status Evaluator::checkResults(const Op &op, size_t count) const {
  if (op.results.size() != count)
    return fail("expected " + std::to_string(count) + " result(s), got " +
                std::to_string(op.results.size()));
  for (size_t i = 0; i < op.results.size(); ++i) {
    int id = op.results[i];
    if (id < 0 || static_cast<size_t>(id) >= values_.size())
      return fail("result " + std::to_string(i) + " names value " +
                  std::to_string(id) + ", which does not exist");
    if (values_[id])
      return fail("result " + std::to_string(i) + " redefines value " +
                  std::to_string(id));
    for (size_t j = 0; j < i; ++j)
      if (op.results[j] == id)
        return fail("results " + std::to_string(j) + " and " +
                    std::to_string(i) + " are the same value " +
                    std::to_string(id));
  }
  return Status::success();
}

Status Evaluator::checkDimension(const Op &op, int64_t rank) const {
  if (op.dimension < 0 || op.dimension >= rank)
    return fail("dimension " + std::to_string(op.dimension) +
                " is out of range for rank " + std::to_string(rank));
  return Status::success();
}

Status Evaluator::evaluateOp(size_t index) {
  current_ = index;
  const Op &op = program_.ops[index];
  switch (op.kind) {
  case OpKind::Elementwise:
    return elementwise(op);
  case OpKind::Iota:
    return iota(op);
  case OpKind::Sort:
    return sort(op);
  case OpKind::TopK:
    return topK(op);
  case OpKind::Slice:
    return slice(op);
  case OpKind::Nms:
    return nms(op);
  case OpKind::Gather:
    return gather(op);
  }
  return fail("unknown op kind");
}

Status Evaluator::elementwise(const Op &op) {
  if (Status s = checkResults(op, 1); !s)
    return s;
  std::vector<const HostTensor *> tensors;
  std::vector<TensorType> types;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    Result<const HostTensor *> tensor = operand(op, i);
    if (!tensor)
      return tensor.status();
    tensors.push_back(*tensor);
    types.push_back(TensorType{(*tensor)->type, (*tensor)->shape});
  }
  const TensorType &resultType = typeOf(op.results[0]);
  std::string problem = checkElementwiseTypes(op.ew, types, resultType);
  if (!problem.empty())
    return fail(problem);
  values_[op.results[0]] = applyElementwise(op, tensors, resultType);
  return Status::success();
}

Status Evaluator::iota(const Op &op) {
  if (!op.operands.empty())
    return fail("iota takes no operands, got " +
                std::to_string(op.operands.size()));
  if (Status s = checkResults(op, 1); !s)
    return s;
  const TensorType &type = typeOf(op.results[0]);
  if (isFloat(type.elementType))
    return fail("iota produces i32 or i64, not " + typeName(type));
  if (Status s = checkDimension(op, type.rank()); !s)
    return s;
  HostTensor result(type.elementType, type.shape);
  forEachLane(type.shape, op.dimension, type.shape[op.dimension],
              [&](int64_t base, int64_t, int64_t stride) {
                for (int64_t j = 0; j < type.shape[op.dimension]; ++j) {
                  uint8_t *element =
                      result.data.data() +
                      (base + j * stride) * byteWidth(type.elementType);
                  storeBits(type.elementType, element, uint64_t(j));
                }
              });
  values_[op.results[0]] = std::move(result);
  return Status::success();
}

Status Evaluator::sort(const Op &op) {
  if (op.operands.empty())
    return fail("sort takes at least one operand");
  if (Status s = checkResults(op, op.operands.size()); !s)
    return s;
  std::vector<const HostTensor *> inputs;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    Result<const HostTensor *> tensor = operand(op, i);
    if (!tensor)
      return tensor.status();
    const HostTensor &t = **tensor;
    if (!inputs.empty() && t.shape != inputs[0]->shape)
      return fail("operand " + std::to_string(i) + " " + describe(t) +
                  " and operand 0 " + describe(*inputs[0]) +
                  " differ in shape");
    const TensorType &resultType = typeOf(op.results[i]);
    if (resultType.elementType != t.type || resultType.shape != t.shape)
      return fail("result " + std::to_string(i) + " " + typeName(resultType) +
                  " differs from operand " + std::to_string(i) + " " +
                  describe(t));
    inputs.push_back(&t);
  }
  const HostTensor &key = *inputs[0];
  if (Status s = checkDimension(op, key.rank()); !s)
    return s;
  KeyOrder less(key.type, op.order, op.comparator);
  if (std::string problem = less.check(); !problem.empty())
    return fail(problem);

  std::vector<HostTensor> results;
  for (const HostTensor *input : inputs)
    results.emplace_back(input->type, input->shape);
  int64_t length = key.shape[op.dimension];
  size_t keyWidth = byteWidth(key.type);
  std::vector<uint64_t> keys(length);
  std::vector<int64_t> order(length);
  forEachLane(
      key.shape, op.dimension, length,
      [&](int64_t base, int64_t, int64_t stride) {
        for (int64_t j = 0; j < length; ++j)
          keys[j] = loadBits(key.type,
                             key.data.data() + (base + j * stride) * keyWidth);
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
          return less(keys[x], keys[y]);
        });
        for (size_t r = 0; r < inputs.size(); ++r)
          for (int64_t j = 0; j < length; ++j)
            copyElement(*inputs[r], base + order[j] * stride, results[r],
                        base + j * stride);
      });
  for (size_t r = 0; r < results.size(); ++r)
    values_[op.results[r]] = std::move(results[r]);
  return Status::success();
}

Status Evaluator::topK(const Op &op) {
  if (op.operands.size() != 1)
    return fail("topk takes one operand, got " +
                std::to_string(op.operands.size()));
  if (Status s = checkResults(op, 2); !s)
    return s;
  Result<const HostTensor *> tensor = operand(op, 0);
  if (!tensor)
    return tensor.status();
  const HostTensor &input = **tensor;
  if (Status s = checkDimension(op, input.rank()); !s)
    return s;
  int64_t length = input.shape[op.dimension];
  if (op.k < 0 || op.k > length)
    return fail("k = " + std::to_string(op.k) + " is outside [0, " +
                std::to_string(length) + "]");
  std::vector<int64_t> shape = input.shape;
  shape[op.dimension] = op.k;
  TensorType valuesType{input.type, shape};
  TensorType indicesType{ElementType::I64, shape};
  if (typeOf(op.results[0]) != valuesType)
    return fail("values result is " + typeName(typeOf(op.results[0])) +
                ", expected " + typeName(valuesType));
  if (typeOf(op.results[1]) != indicesType)
    return fail("indices result is " + typeName(typeOf(op.results[1])) +
                ", expected " + typeName(indicesType));

  HostTensor values(input.type, shape), indices(ElementType::I64, shape);
  size_t width = byteWidth(input.type);
  std::vector<uint64_t> keys(length);
  std::vector<int64_t> order(length);
  forEachLane(
      input.shape, op.dimension, op.k,
      [&](int64_t base, int64_t outBase, int64_t stride) {
        for (int64_t j = 0; j < length; ++j)
          keys[j] = loadBits(input.type,
                             input.data.data() + (base + j * stride) * width);
        std::iota(order.begin(), order.end(), 0);
        // Best first; the stable sort keeps ties in index order, so
        // the lower index comes first for largest and smallest.
        std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
          return op.largest ? totalLess(input.type, keys[y], keys[x])
                            : totalLess(input.type, keys[x], keys[y]);
        });
        for (int64_t j = 0; j < op.k; ++j) {
          copyElement(input, base + order[j] * stride, values,
                      outBase + j * stride);
          indices.set<int64_t>(outBase + j * stride, order[j]);
        }
      });
  values_[op.results[0]] = std::move(values);
  values_[op.results[1]] = std::move(indices);
  return Status::success();
}

Status Evaluator::slice(const Op &op) {
  if (op.operands.size() != 1)
    return fail("slice takes one operand, got " +
                std::to_string(op.operands.size()));
  if (Status s = checkResults(op, 1); !s)
    return s;
  Result<const HostTensor *> tensor = operand(op, 0);
  if (!tensor)
    return tensor.status();
  const HostTensor &input = **tensor;
  const TensorType &resultType = typeOf(op.results[0]);
  size_t rank = input.shape.size();
  if (op.offsets.size() != rank || op.sizes.size() != rank ||
      op.strides.size() != rank)
    return fail("offsets " + shapeString(op.offsets) + ", sizes " +
                shapeString(op.sizes) + " and strides " +
                shapeString(op.strides) + " must each have rank " +
                std::to_string(rank));
  if (resultType.elementType != input.type || resultType.shape != op.sizes)
    return fail("result is " + typeName(resultType) + ", expected " +
                describe(input.type, op.sizes));
  for (size_t d = 0; d < rank; ++d) {
    int64_t offset = op.offsets[d], size = op.sizes[d], stride = op.strides[d];
    bool inBounds = stride >= 1 && offset >= 0 && size >= 0 &&
                    (size == 0 ? offset <= input.shape[d]
                               : offset + (size - 1) * stride < input.shape[d]);
    if (!inBounds)
      return fail("dimension " + std::to_string(d) + ": offset " +
                  std::to_string(offset) + ", size " + std::to_string(size) +
                  ", stride " + std::to_string(stride) +
                  " leave the bounds of size " +
                  std::to_string(input.shape[d]));
  }
  HostTensor result(input.type, op.sizes);
  std::vector<int64_t> strides = rowMajorStrides(input.shape);
  for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
    std::vector<int64_t> index = unflattenIndex(i, op.sizes);
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source += (op.offsets[d] + index[d] * op.strides[d]) * strides[d];
    copyElement(input, source, result, i);
  }
  values_[op.results[0]] = std::move(result);
  return Status::success();
}

Status Evaluator::nms(const Op &op) {
  if (op.operands.size() != 2)
    return fail("nms takes two operands (boxes, scores), got " +
                std::to_string(op.operands.size()));
  if (Status s = checkResults(op, 2); !s)
    return s;
  Result<const HostTensor *> boxes = operand(op, 0);
  if (!boxes)
    return boxes.status();
  Result<const HostTensor *> scores = operand(op, 1);
  if (!scores)
    return scores.status();
  Result<NmsResults> results = referenceNms(op, **boxes, **scores);
  if (!results)
    return fail(results.message());
  const char *names[] = {"selected", "count"};
  const HostTensor *tensors[] = {&results->selected, &results->count};
  for (size_t r = 0; r < 2; ++r) {
    TensorType expected{tensors[r]->type, tensors[r]->shape};
    if (typeOf(op.results[r]) != expected)
      return fail(std::string(names[r]) + " result is " +
                  typeName(typeOf(op.results[r])) + ", expected " +
                  typeName(expected));
  }
  values_[op.results[0]] = std::move(results->selected);
  values_[op.results[1]] = std::move(results->count);
  return Status::success();
}

/// Out-of-range indices are reported, never clamped: the generators feed a
/// gather only top-k indices over the gathered dimension, so one outside the
/// source is a broken model (a reduction step that made it so is simply not
/// a candidate), and the reference never reads outside the source.
Status Evaluator::gather(const Op &op) {
  if (op.operands.size() != 2)
    return fail("gather takes two operands (source, indices), got " +
                std::to_string(op.operands.size()));
  if (Status s = checkResults(op, 1); !s)
    return s;
  Result<const HostTensor *> sourceTensor = operand(op, 0);
  if (!sourceTensor)
    return sourceTensor.status();
  Result<const HostTensor *> indicesTensor = operand(op, 1);
  if (!indicesTensor)
    return indicesTensor.status();
  const HostTensor &source = **sourceTensor, &indices = **indicesTensor;
  if (indices.type != ElementType::I64 || indices.rank() != 2)
    return fail("indices " + describe(indices) + " must be [B, K] i64");
  if (source.rank() < 2 || source.shape[0] != indices.shape[0])
    return fail("source " + describe(source) +
                " must have rank >= 2 and dimension 0 = " +
                std::to_string(indices.shape[0]));
  if (op.axis < 1 || op.axis >= source.rank())
    return fail("axis " + std::to_string(op.axis) + " is out of range for " +
                "rank " + std::to_string(source.rank()));
  const size_t axis = static_cast<size_t>(op.axis);
  std::vector<int64_t> shape = source.shape;
  shape[axis] = indices.shape[1];
  const TensorType &resultType = typeOf(op.results[0]);
  if (resultType.elementType != source.type || resultType.shape != shape)
    return fail("result is " + typeName(resultType) + ", expected " +
                describe(source.type, shape));
  HostTensor result(source.type, shape);
  const std::vector<int64_t> strides = rowMajorStrides(source.shape);
  const int64_t k = indices.shape[1], n = source.shape[axis];
  for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
    std::vector<int64_t> position = unflattenIndex(i, shape);
    int64_t at = indices.get<int64_t>(position[0] * k + position[axis]);
    if (at < 0 || at >= n)
      return fail("index " + std::to_string(at) + " at [" +
                  std::to_string(position[0]) + ", " +
                  std::to_string(position[axis]) + "] is outside [0, " +
                  std::to_string(n) + ") of dimension " +
                  std::to_string(op.axis));
    position[axis] = at;
    int64_t from = 0;
    for (size_t d = 0; d < position.size(); ++d)
      from += position[d] * strides[d];
    copyElement(source, from, result, i);
  }
  values_[op.results[0]] = std::move(result);
  return Status::success();
}

Result<std::vector<HostTensor>> Evaluator::collectOutputs() const {
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < program_.outputs.size(); ++i) {
    int id = program_.outputs[i];
    if (id < 0 || static_cast<size_t>(id) >= values_.size() || !values_[id])
      return makeError("output " + std::to_string(i) + " names value " +
                       std::to_string(id) + ", which is never defined");
    outputs.push_back(*values_[id]);
  }
  return outputs;
}

} // namespace

bool flushDenormals(HostTensor &t) {
  if (!isFloat(t.type))
    return false;
  const int fraction = mantissaBits(t.type);
  const int width = static_cast<int>(byteWidth(t.type)) * 8;
  const uint64_t fractionMask = (uint64_t(1) << fraction) - 1;
  const uint64_t exponentMask =
      ((uint64_t(1) << (width - 1 - fraction)) - 1) << fraction;
  const uint64_t signMask = uint64_t(1) << (width - 1);
  bool any = false;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    uint8_t *element = t.data.data() + i * byteWidth(t.type);
    uint64_t bits = loadBits(t.type, element);
    if ((bits & exponentMask) == 0 && (bits & fractionMask) != 0) {
      storeBits(t.type, element, bits & signMask);
      any = true;
    }
  }
  return any;
}

Result<std::vector<HostTensor>>
evaluateFlushingDenormals(const Program &program,
                          const std::vector<HostTensor> &inputs,
                          bool readAsZero) {
  std::vector<HostTensor> flushed = inputs;
  if (readAsZero)
    for (HostTensor &t : flushed)
      flushDenormals(t);
  // Read as zero too: a denormal threshold or constant the program holds.
  Program read = readAsZero ? flushDenormalAttributes(program) : program;
  Evaluator evaluator(read);
  if (Status s = evaluator.bindInputs(flushed); !s)
    return s;
  // And inside an NMS: each step of its IoU arithmetic (a box of denormal
  // area has none under flush-to-zero, so it overlaps nothing).
  NmsFlushScope flushNms(true);
  for (size_t i = 0; i < program.ops.size(); ++i) {
    if (Status s = evaluator.evaluateOp(i); !s)
      return s;
    evaluator.flushResults(i);
  }
  return evaluator.collectOutputs();
}

namespace {
/// `value` as a float of `type` reads it (DAZ): ±0 when it is a denormal.
double readAsZeroIfDenormal(double value, ElementType type) {
  double smallest = type == ElementType::F64   ? DBL_MIN
                    : type == ElementType::F32 ? FLT_MIN
                    : type == ElementType::BF16 ? FLT_MIN // f32's exponent range
                                                : 0.0;
  return value != 0 && std::fabs(value) < smallest ? std::copysign(0.0, value)
                                                  : value;
}
} // namespace

bool hasDenormalAttribute(const Program &program) {
  Program flushed = flushDenormalAttributes(program);
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const Op &a = program.ops[i], &b = flushed.ops[i];
    // Flushing changes a denormal only (a NaN stays NaN: compare bits).
    if (std::signbit(a.constant) != std::signbit(b.constant) ||
        (a.constant != b.constant && !std::isnan(a.constant)) ||
        a.iouThreshold != b.iouThreshold ||
        (a.scoreThreshold && *a.scoreThreshold != *b.scoreThreshold))
      return true;
  }
  return false;
}

Program flushDenormalAttributes(Program program) {
  for (Op &op : program.ops) {
    if (op.kind == OpKind::Nms) {
      // Computed in f32 (SEMANTICS.md).
      op.iouThreshold = static_cast<float>(
          readAsZeroIfDenormal(op.iouThreshold, ElementType::F32));
      if (op.scoreThreshold)
        op.scoreThreshold = static_cast<float>(
            readAsZeroIfDenormal(*op.scoreThreshold, ElementType::F32));
    }
    if (op.kind == OpKind::Elementwise && !op.results.empty())
      op.constant = readAsZeroIfDenormal(
          op.constant,
          program.values[static_cast<size_t>(op.results[0])].elementType);
  }
  return program;
}

Result<std::vector<HostTensor>>
evaluate(const Program &program, const std::vector<HostTensor> &inputs) {
  Evaluator evaluator(program);
  if (Status s = evaluator.bindInputs(inputs); !s)
    return s;
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (Status s = evaluator.evaluateOp(i); !s)
      return s;
  return evaluator.collectOutputs();
}

} // namespace sift::oracle
