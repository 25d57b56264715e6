//===- Reducer.cpp - Delta debugging on the program model -----------------===//
//
// Edits work on copies. Shapes and element types are changed only at the
// leaves (inputs, iotas, cast results, slice sizes, k) and then re-derived
// op by op in program order, so an edit never has to know every rule of
// every op: what cannot be re-derived, or fails gen::validate or the
// reference afterwards, is simply not a candidate.
//
//===----------------------------------------------------------------------===//

#include "harness/reduce/Reducer.h"

#include "generators/Half.h"
#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "oracles/Reference.h"

#include <algorithm>
#include <map>
#include <set>

namespace sift::harness {

using gen::EwKind;
using gen::Op;
using gen::OpKind;
using gen::Program;
using gen::TensorType;

namespace {

bool isCast(const Op &op) {
  if (op.kind != OpKind::Elementwise)
    return false;
  switch (op.ew) {
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI:
  case EwKind::TruncI: return true;
  default: return false;
  }
}

/// Replaces uses of `from` by `to` in every op operand and in the outputs.
void replaceUses(Program &p, int from, int to) {
  for (Op &op : p.ops)
    for (int &id : op.operands)
      if (id == from)
        id = to;
  for (int &id : p.outputs)
    if (id == from)
      id = to;
  // Outputs are returned once each.
  std::vector<int> unique;
  for (int id : p.outputs)
    if (std::find(unique.begin(), unique.end(), id) == unique.end())
      unique.push_back(id);
  p.outputs = std::move(unique);
}

/// True when the program is valid and the reference evaluates it.
bool acceptable(const ReductionCase &c) {
  if (!gen::validate(c.program).empty())
    return false;
  if (c.inputs.size() != c.program.inputs.size())
    return false;
  return oracle::evaluate(c.program, c.inputs).ok();
}

std::optional<ReductionCase> checked(ReductionCase c) {
  c = prune(std::move(c));
  if (!acceptable(c))
    return std::nullopt;
  return c;
}

/// The types of a top-k's results (k clamped to the extent).
bool typeTopK(Program &p, Op &op) {
  if (op.operands.size() != 1 || op.results.size() != 2)
    return false;
  TensorType values = p.values[static_cast<size_t>(op.operands[0])];
  if (op.dimension < 0 || op.dimension >= values.rank())
    return false;
  int64_t &n = values.shape[static_cast<size_t>(op.dimension)];
  op.k = std::min(op.k, n);
  n = op.k;
  p.values[static_cast<size_t>(op.results[1])] =
      TensorType{ElementType::I64, values.shape};
  p.values[static_cast<size_t>(op.results[0])] = values;
  return true;
}

/// The types of an NMS's results: selected indices and their count.
bool typeNms(Program &p, const Op &op) {
  if (op.operands.size() != 2 || op.results.size() != 2)
    return false;
  const TensorType &scores = p.values[static_cast<size_t>(op.operands[1])];
  if (scores.rank() != 3)
    return false;
  int64_t rows = scores.shape[0] * scores.shape[1] *
                 std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
  p.values[static_cast<size_t>(op.results[0])] =
      TensorType{ElementType::I64, {rows, 3}};
  p.values[static_cast<size_t>(op.results[1])] =
      TensorType{ElementType::I64, {1}};
  return true;
}

/// The type of a slice's result, its offsets and sizes clamped to fit.
bool typeSlice(Program &p, Op &op) {
  if (op.operands.size() != 1 || op.results.size() != 1)
    return false;
  const TensorType &src = p.values[static_cast<size_t>(op.operands[0])];
  if (op.offsets.size() != src.shape.size() ||
      op.sizes.size() != src.shape.size() ||
      op.strides.size() != src.shape.size())
    return false;
  for (size_t d = 0; d < src.shape.size(); ++d) {
    int64_t dim = src.shape[d];
    if (op.offsets[d] >= dim)
      op.offsets[d] = 0;
    if (op.strides[d] < 1)
      return false;
    int64_t fit =
        dim > op.offsets[d] ? (dim - 1 - op.offsets[d]) / op.strides[d] + 1 : 0;
    op.sizes[d] = std::min(op.sizes[d], fit);
  }
  p.values[static_cast<size_t>(op.results[0])] =
      TensorType{src.elementType, op.sizes};
  return true;
}

/// The type of a gather's result: the source's with the axis resized to
/// the indices' K; an operand that no longer fits drops the candidate
/// (indices outside the source are left to the reference, which rejects
/// them).
bool typeGather(Program &p, const Op &op) {
  if (op.operands.size() != 2 || op.results.size() != 1)
    return false;
  TensorType result = p.values[static_cast<size_t>(op.operands[0])];
  const TensorType &indices = p.values[static_cast<size_t>(op.operands[1])];
  if (indices.elementType != ElementType::I64 || indices.rank() != 2 ||
      result.rank() < 2 || result.shape[0] != indices.shape[0] ||
      op.axis < 1 || op.axis >= result.rank())
    return false;
  result.shape[static_cast<size_t>(op.axis)] = indices.shape[1];
  p.values[static_cast<size_t>(op.results[0])] = result;
  return true;
}

/// The type of an elementwise op's result (a cast keeps its element type).
bool typeElementwise(Program &p, const Op &op) {
  auto type = [&](int id) -> TensorType & {
    return p.values[static_cast<size_t>(id)];
  };
  if (op.operands.empty() || op.results.size() != 1)
    return false;
  const TensorType &a = type(op.operands[0]);
  if (isCast(op)) {
    type(op.results[0]).shape = a.shape;
    return true;
  }
  for (int id : op.operands)
    if (type(id) != a)
      return false;
  type(op.results[0]) = a;
  return true;
}

/// Re-derives every value type after the leaves, op by op; clamps k and
/// slices to their operands. False when an op cannot be typed.
bool rederive(Program &p) {
  for (Op &op : p.ops) {
    bool typed = true;
    switch (op.kind) {
    case OpKind::Elementwise: typed = typeElementwise(p, op); break;
    case OpKind::Iota: break;
    case OpKind::Sort:
      typed = op.operands.size() == op.results.size();
      for (size_t i = 0; typed && i < op.operands.size(); ++i)
        p.values[static_cast<size_t>(op.results[i])] =
            p.values[static_cast<size_t>(op.operands[i])];
      break;
    case OpKind::TopK: typed = typeTopK(p, op); break;
    case OpKind::Nms: typed = typeNms(p, op); break;
    case OpKind::Slice: typed = typeSlice(p, op); break;
    case OpKind::Gather: typed = typeGather(p, op); break;
    }
    if (!typed)
      return false;
  }
  return true;
}

/// Flat index of `index` in row-major `shape`.
int64_t flatten(const std::vector<int64_t> &shape,
                const std::vector<int64_t> &index) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + index[d];
  return flat;
}

/// The leading block of `tensor` of `shape` (each extent at most the old).
HostTensor crop(const HostTensor &tensor, const std::vector<int64_t> &shape) {
  HostTensor out(tensor.type, shape);
  size_t width = byteWidth(tensor.type);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < out.numElements(); ++i) {
    int64_t from = flatten(tensor.shape, index);
    std::copy_n(tensor.data.begin() + from * static_cast<int64_t>(width), width,
                out.data.begin() + i * static_cast<int64_t>(width));
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

/// `tensor` converted to `type` (same kind: float to float rounds to
/// nearest, integer to integer keeps the low bits).
HostTensor convert(const HostTensor &tensor, ElementType type) {
  HostTensor out(type, tensor.shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (isFloat(type)) {
      double v = gen::elementAsDouble(tensor, i);
      switch (type) {
      case ElementType::F16: out.set<uint16_t>(i, doubleToHalf(v)); break;
      case ElementType::BF16:
        out.set<uint16_t>(i, doubleToBfloat16(v));
        break;
      case ElementType::F32: out.set<float>(i, static_cast<float>(v)); break;
      default: out.set<double>(i, v); break;
      }
    } else {
      uint64_t bits = gen::elementBits(tensor, i);
      if (type == ElementType::I32)
        out.set<uint32_t>(i, static_cast<uint32_t>(bits));
      else
        out.set<int64_t>(i, tensor.type == ElementType::I32
                                ? static_cast<int64_t>(static_cast<int32_t>(bits))
                                : static_cast<int64_t>(bits));
    }
  }
  return out;
}

int64_t typeCost(ElementType type) {
  return type == ElementType::F32 || type == ElementType::I32 ? 1 : 2;
}

} // namespace

CaseSize caseSize(const ReductionCase &c) {
  CaseSize size;
  size.weight = c.program.weight();
  for (const TensorType &t : c.program.values)
    size.typeCost += typeCost(t.elementType);
  for (const HostTensor &t : c.inputs) {
    size_t width = byteWidth(t.type);
    for (int64_t i = 0; i < t.numElements(); ++i)
      size.dataCost += std::any_of(t.data.begin() + i * width,
                                   t.data.begin() + (i + 1) * width,
                                   [](uint8_t b) { return b != 0; });
  }
  return size;
}

int64_t opsTimesElements(const Program &program) {
  int64_t elements = 0;
  for (const TensorType &t : program.values)
    elements += t.numElements();
  return static_cast<int64_t>(program.ops.size()) * elements;
}

ReductionCase prune(ReductionCase c) {
  Program &p = c.program;
  std::set<int> used(p.outputs.begin(), p.outputs.end());
  std::vector<bool> live(p.ops.size(), false);
  for (size_t i = p.ops.size(); i-- > 0;) {
    const Op &op = p.ops[i];
    live[i] = std::any_of(op.results.begin(), op.results.end(),
                          [&](int id) { return used.count(id) != 0; });
    if (live[i])
      used.insert(op.operands.begin(), op.operands.end());
  }
  // The values that stay: read inputs and every result of a live op.
  std::set<int> kept;
  std::vector<int> inputs;
  std::vector<HostTensor> inputData;
  for (size_t i = 0; i < p.inputs.size(); ++i)
    if (used.count(p.inputs[i])) {
      kept.insert(p.inputs[i]);
      inputs.push_back(p.inputs[i]);
      if (i < c.inputs.size())
        inputData.push_back(std::move(c.inputs[i]));
    }
  std::vector<Op> ops;
  for (size_t i = 0; i < p.ops.size(); ++i)
    if (live[i]) {
      kept.insert(p.ops[i].results.begin(), p.ops[i].results.end());
      ops.push_back(std::move(p.ops[i]));
    }
  std::map<int, int> renumber;
  Program out;
  for (int id : kept)
    renumber[id] = out.addValue(p.values[static_cast<size_t>(id)]);
  auto map = [&](std::vector<int> &ids) {
    for (int &id : ids) {
      auto it = renumber.find(id);
      id = it == renumber.end() ? -1 : it->second;
    }
  };
  for (Op &op : ops) {
    map(op.operands);
    map(op.results);
  }
  map(inputs);
  out.inputs = std::move(inputs);
  out.ops = std::move(ops);
  out.outputs = p.outputs;
  map(out.outputs);
  c.program = std::move(out);
  c.inputs = std::move(inputData);
  return c;
}

std::optional<ReductionCase> keepOutputs(const ReductionCase &c,
                                         const std::vector<int> &outputs) {
  if (outputs.empty())
    return std::nullopt;
  ReductionCase next = c;
  next.program.outputs = outputs;
  return checked(std::move(next));
}

namespace {

/// Replaces every use of each of `values` by a new input holding the
/// reference's value for it, in place (nothing pruned: op indices stay).
/// False when the reference cannot evaluate them.
bool cutInPlace(ReductionCase &c, const std::vector<int> &values) {
  Program probe = c.program;
  probe.outputs = values;
  auto contents = oracle::evaluate(probe, c.inputs);
  if (!contents.ok() || contents->size() != values.size())
    return false;
  for (size_t i = 0; i < values.size(); ++i) {
    int input =
        c.program.addValue(c.program.values[static_cast<size_t>(values[i])]);
    replaceUses(c.program, values[i], input);
    c.program.inputs.push_back(input);
    c.inputs.push_back(std::move((*contents)[i]));
  }
  return true;
}

} // namespace

std::optional<ReductionCase> cutValues(const ReductionCase &c,
                                       const std::vector<int> &values) {
  ReductionCase next = c;
  if (values.empty() || !cutInPlace(next, values))
    return std::nullopt;
  return checked(std::move(next));
}

std::optional<ReductionCase> bypassValue(const ReductionCase &c, int value,
                                         int replacement) {
  const Program &p = c.program;
  if (value < 0 || replacement < 0 ||
      static_cast<size_t>(std::max(value, replacement)) >= p.values.size() ||
      p.values[static_cast<size_t>(value)] !=
          p.values[static_cast<size_t>(replacement)])
    return std::nullopt;
  ReductionCase next = c;
  replaceUses(next.program, value, replacement);
  return checked(std::move(next));
}

std::optional<ReductionCase> dropSortOperand(const ReductionCase &c,
                                             size_t opIndex, size_t index) {
  if (opIndex >= c.program.ops.size())
    return std::nullopt;
  const Op &sort = c.program.ops[opIndex];
  if (sort.kind != OpKind::Sort || index == 0 ||
      index >= sort.operands.size())
    return std::nullopt;
  int result = sort.results[index];
  ReductionCase next = c;
  // Returned: the sorted key is returned in its place, unless it is already.
  std::vector<int> &outputs = next.program.outputs;
  auto returned = std::find(outputs.begin(), outputs.end(), result);
  if (returned != outputs.end() &&
      std::find(outputs.begin(), outputs.end(), sort.results[0]) ==
          outputs.end())
    *returned = sort.results[0];
  bool used = std::find(outputs.begin(), outputs.end(), result) !=
              outputs.end();
  for (const Op &op : c.program.ops)
    used |= std::find(op.operands.begin(), op.operands.end(), result) !=
            op.operands.end();
  if (used && !cutInPlace(next, {result}))
    return std::nullopt;
  Op &op = next.program.ops[opIndex];
  op.operands.erase(op.operands.begin() + static_cast<long>(index));
  op.results.erase(op.results.begin() + static_cast<long>(index));
  return checked(std::move(next));
}

std::optional<ReductionCase> shrinkExtent(const ReductionCase &c, int64_t from,
                                          int64_t to) {
  if (to < 0 || to >= from)
    return std::nullopt;
  ReductionCase next = c;
  Program &p = next.program;
  bool changed = false;
  auto shrink = [&](std::vector<int64_t> &shape) {
    for (int64_t &d : shape)
      if (d == from) {
        d = to;
        changed = true;
      }
  };
  for (int id : p.inputs)
    shrink(p.values[static_cast<size_t>(id)].shape);
  for (Op &op : p.ops) {
    if (op.kind == OpKind::Iota)
      shrink(p.values[static_cast<size_t>(op.results[0])].shape);
    if (op.kind == OpKind::Slice)
      shrink(op.sizes);
  }
  if (!changed || !rederive(p))
    return std::nullopt;
  for (size_t i = 0; i < p.inputs.size(); ++i)
    next.inputs[i] =
        crop(next.inputs[i], p.values[static_cast<size_t>(p.inputs[i])].shape);
  return checked(std::move(next));
}

std::optional<ReductionCase> setTopK(const ReductionCase &c, size_t opIndex,
                                     int64_t k) {
  if (opIndex >= c.program.ops.size() ||
      c.program.ops[opIndex].kind != OpKind::TopK || k < 0)
    return std::nullopt;
  ReductionCase next = c;
  next.program.ops[opIndex].k = k;
  if (!rederive(next.program))
    return std::nullopt;
  return checked(std::move(next));
}

std::optional<ReductionCase> retype(const ReductionCase &c, ElementType from,
                                    ElementType to) {
  if (from == to || isFloat(from) != isFloat(to))
    return std::nullopt;
  ReductionCase next = c;
  Program &p = next.program;
  bool changed = false;
  auto change = [&](int id) {
    ElementType &type = p.values[static_cast<size_t>(id)].elementType;
    if (type == from) {
      type = to;
      changed = true;
    }
  };
  for (int id : p.inputs)
    change(id);
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Iota || isCast(op))
      change(op.results[0]);
  if (!changed || !rederive(p))
    return std::nullopt;
  // Casts between equal types are no casts: their users read the operand.
  for (const Op &op : p.ops)
    if (isCast(op) && p.values[static_cast<size_t>(op.operands[0])] ==
                          p.values[static_cast<size_t>(op.results[0])])
      replaceUses(p, op.results[0], op.operands[0]);
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    ElementType type = p.values[static_cast<size_t>(p.inputs[i])].elementType;
    if (next.inputs[i].type != type)
      next.inputs[i] = convert(next.inputs[i], type);
  }
  return checked(std::move(next));
}

std::optional<ReductionCase> zeroInput(const ReductionCase &c, size_t index) {
  if (index >= c.inputs.size())
    return std::nullopt;
  const HostTensor &t = c.inputs[index];
  if (std::all_of(t.data.begin(), t.data.end(),
                  [](uint8_t b) { return b == 0; }))
    return std::nullopt;
  ReductionCase next = c;
  std::fill(next.inputs[index].data.begin(), next.inputs[index].data.end(), 0);
  return checked(std::move(next));
}

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

} // namespace sift::harness
