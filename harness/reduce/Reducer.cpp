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

/// Re-derives every value type after the leaves, op by op; clamps k and
/// slices to their operands. False when an op cannot be typed.
bool rederive(Program &p) {
  auto type = [&](int id) -> TensorType & {
    return p.values[static_cast<size_t>(id)];
  };
  for (Op &op : p.ops) {
    switch (op.kind) {
    case OpKind::Elementwise: {
      if (op.operands.empty() || op.results.size() != 1)
        return false;
      const TensorType &a = type(op.operands[0]);
      if (isCast(op)) {
        type(op.results[0]).shape = a.shape;
        break;
      }
      for (int id : op.operands)
        if (type(id) != a)
          return false;
      type(op.results[0]) = a;
      break;
    }
    case OpKind::Iota: break;
    case OpKind::Sort:
      if (op.operands.size() != op.results.size())
        return false;
      for (size_t i = 0; i < op.operands.size(); ++i)
        type(op.results[i]) = type(op.operands[i]);
      break;
    case OpKind::TopK: {
      if (op.operands.size() != 1 || op.results.size() != 2)
        return false;
      TensorType values = type(op.operands[0]);
      if (op.dimension < 0 || op.dimension >= values.rank())
        return false;
      int64_t &n = values.shape[static_cast<size_t>(op.dimension)];
      op.k = std::min(op.k, n);
      n = op.k;
      TensorType indices{ElementType::I64, values.shape};
      type(op.results[0]) = values;
      type(op.results[1]) = indices;
      break;
    }
    case OpKind::Nms: {
      if (op.operands.size() != 2 || op.results.size() != 2)
        return false;
      const TensorType &scores = type(op.operands[1]);
      if (scores.rank() != 3)
        return false;
      int64_t rows = scores.shape[0] * scores.shape[1] *
                     std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
      type(op.results[0]) = TensorType{ElementType::I64, {rows, 3}};
      type(op.results[1]) = TensorType{ElementType::I64, {1}};
      break;
    }
    case OpKind::Slice: {
      if (op.operands.size() != 1 || op.results.size() != 1)
        return false;
      const TensorType &src = type(op.operands[0]);
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
            dim > op.offsets[d] ? (dim - 1 - op.offsets[d]) / op.strides[d] + 1
                                : 0;
        op.sizes[d] = std::min(op.sizes[d], fit);
      }
      type(op.results[0]) = TensorType{src.elementType, op.sizes};
      break;
    }
    case OpKind::Gather: {
      // The source's type with the axis resized to the indices' K; an
      // operand that no longer fits drops the candidate (indices outside
      // the source are left to the reference, which rejects them).
      if (op.operands.size() != 2 || op.results.size() != 1)
        return false;
      TensorType result = type(op.operands[0]);
      const TensorType &indices = type(op.operands[1]);
      if (indices.elementType != ElementType::I64 || indices.rank() != 2 ||
          result.rank() < 2 || result.shape[0] != indices.shape[0] ||
          op.axis < 1 || op.axis >= result.rank())
        return false;
      result.shape[static_cast<size_t>(op.axis)] = indices.shape[1];
      type(op.results[0]) = result;
      break;
    }
    }
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
      case ElementType::F16: out.set<uint16_t>(i, gen::doubleToHalfBits(v)); break;
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

namespace {

/// A candidate edit, built lazily from the current case.
struct Candidate {
  std::string what;
  std::function<std::optional<ReductionCase>(const ReductionCase &)> build;
};

/// Subsets to try removing from `n` items, delta-debugging style: halves,
/// then quarters, ..., then single items.
std::vector<std::vector<size_t>> chunks(size_t n) {
  std::vector<std::vector<size_t>> out;
  for (size_t size = std::max<size_t>(n / 2, 1);; size /= 2) {
    for (size_t start = 0; start < n; start += size) {
      std::vector<size_t> chunk;
      for (size_t i = start; i < std::min(n, start + size); ++i)
        chunk.push_back(i);
      out.push_back(std::move(chunk));
    }
    if (size == 1)
      break;
  }
  return out;
}

std::string plural(size_t n, const char *what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

/// Every edit worth trying on `c`, coarse ones first.
std::vector<Candidate> candidates(const ReductionCase &c) {
  const Program &p = c.program;
  std::vector<Candidate> out;
  // Fewer outputs.
  if (p.outputs.size() > 1)
    for (const std::vector<size_t> &chunk : chunks(p.outputs.size())) {
      std::vector<int> keep;
      for (size_t i = 0; i < p.outputs.size(); ++i)
        if (std::find(chunk.begin(), chunk.end(), i) == chunk.end())
          keep.push_back(p.outputs[i]);
      out.push_back({"drop " + plural(chunk.size(), "output"),
                     [keep](const ReductionCase &c) {
                       return keepOutputs(c, keep);
                     }});
    }
  // An output returned one op earlier: the op's operand instead.
  for (size_t i = 0; i < p.outputs.size(); ++i)
    for (const Op &op : p.ops)
      if (op.kind != OpKind::Sort && op.kind != OpKind::TopK &&
          op.kind != OpKind::Nms && op.results[0] == p.outputs[i])
        for (int operand : op.operands) {
          std::vector<int> outputs = p.outputs;
          outputs[i] = operand;
          out.push_back({"return the operand of an output's " +
                             std::string(gen::toString(op.kind)),
                         [outputs](const ReductionCase &c) {
                           return keepOutputs(c, outputs);
                         }});
        }
  // Fewer ops: results replaced by inputs, producers first in each chunk.
  std::vector<int> results;
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Elementwise || op.kind == OpKind::Iota ||
        op.kind == OpKind::Slice || op.kind == OpKind::Gather)
      results.push_back(op.results[0]);
  for (const std::vector<size_t> &chunk : chunks(results.size())) {
    std::vector<int> cut;
    for (size_t i : chunk)
      cut.push_back(results[i]);
    out.push_back({"cut " + plural(cut.size(), "value"),
                   [cut](const ReductionCase &c) { return cutValues(c, cut); }});
  }
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Elementwise)
      for (int operand : op.operands) {
        int result = op.results[0];
        out.push_back({"bypass an elementwise " +
                           std::string(gen::toString(op.ew)),
                       [result, operand](const ReductionCase &c) {
                         return bypassValue(c, result, operand);
                       }});
      }
  // Fewer sort operands.
  for (size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind == OpKind::Sort)
      for (size_t j = p.ops[i].operands.size(); j-- > 1;)
        out.push_back({"drop a sort operand", [i, j](const ReductionCase &c) {
                         return dropSortOperand(c, i, j);
                       }});
  // Smaller shapes: each extent, largest first, to small sizes first.
  std::set<int64_t> extents;
  for (const TensorType &t : p.values)
    for (int64_t d : t.shape)
      if (d > 1)
        extents.insert(d);
  for (auto it = extents.rbegin(); it != extents.rend(); ++it) {
    int64_t e = *it;
    std::set<int64_t> targets = {1, 2, 3, 4, 5, 6, 7, 8,
                                 e / 4, e / 2, e - 2, e - 1};
    for (int64_t to : targets)
      if (to >= 1 && to < e)
        out.push_back({"shrink extent " + std::to_string(e) + " to " +
                           std::to_string(to),
                       [e, to](const ReductionCase &c) {
                         return shrinkExtent(c, e, to);
                       }});
  }
  // Smaller k.
  for (size_t i = 0; i < p.ops.size(); ++i)
    if (p.ops[i].kind == OpKind::TopK) {
      int64_t k = p.ops[i].k;
      for (int64_t to : std::set<int64_t>{0, 1, k / 2, k - 1})
        if (to >= 0 && to < k)
          out.push_back({"k " + std::to_string(k) + " to " + std::to_string(to),
                         [i, to](const ReductionCase &c) {
                           return setTopK(c, i, to);
                         }});
    }
  // Plainer element types.
  for (auto [from, to] : {std::pair{ElementType::F64, ElementType::F32},
                          {ElementType::F16, ElementType::F32},
                          {ElementType::I64, ElementType::I32}})
    out.push_back({std::string(toString(from)) + " to " +
                       std::string(toString(to)),
                   [from, to](const ReductionCase &c) {
                     return retype(c, from, to);
                   }});
  // Simpler data.
  for (size_t i = 0; i < c.inputs.size(); ++i)
    out.push_back({"zero input " + std::to_string(i),
                   [i](const ReductionCase &c) { return zeroInput(c, i); }});
  return out;
}

} // namespace

ReductionCase reduce(ReductionCase start, const InterestingFn &interesting,
                     const AcceptedFn &onAccepted, ReductionStats &stats) {
  ReductionCase current = std::move(start);
  // Candidates already tested and found dull (the same program text and
  // data can come back in a later round).
  std::set<std::string> dull;
  auto key = [](const ReductionCase &c) {
    std::string text = gen::emitMlir(c.program);
    for (const HostTensor &t : c.inputs)
      text.append(reinterpret_cast<const char *>(t.data.data()), t.data.size());
    return text;
  };
  // Each accepted edit lowers caseSize, so this ends; each round rebuilds
  // the candidates from the case the last edit left.
  for (bool progress = true; progress;) {
    progress = false;
    CaseSize size = caseSize(current);
    for (const Candidate &candidate : candidates(current)) {
      std::optional<ReductionCase> next = candidate.build(current);
      if (!next || !(caseSize(*next) < size))
        continue;
      std::string nextKey = key(*next);
      if (dull.count(nextKey))
        continue;
      ++stats.tests;
      if (!interesting(*next)) {
        dull.insert(std::move(nextKey));
        continue;
      }
      ++stats.accepted;
      current = std::move(*next);
      if (onAccepted)
        onAccepted(candidate.what, current);
      progress = true;
      break;
    }
  }
  return current;
}

} // namespace sift::harness
