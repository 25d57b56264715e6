//===- generators/Emitter.h - The MLIR text printer (internal) -*- C++ -*-===//
//
// The printer behind MlirEmitter.h, shared by its three source files:
// MlirEmitter.cpp (the entry points), Emitter.cpp (the ops: sift's, IREE's
// iree_linalg_ext ones and everything around them in linalg, tensor and
// arith) and TorchEmitter.cpp (the torch and ONNX front ends, which wrap the
// same linalg text in !torch.vtensor conversions). Not part of the
// generators' interface.
//
// SSA names: function arguments are %argI; a single result of op N is %vID
// (ID the value id); a multi-result sort is %sN:K with results %sN#i; a top-k
// prints its two results as %vID, %vID. Names inside regions carry the op
// index (%xN_i block arguments, %oN output, %tN_j temporaries, %lhsN/%rhsN
// comparator arguments), so every name in the module is unique.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "generators/Half.h"
#include "generators/MlirEmitter.h"

#include <cassert>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace sift::gen {
namespace detail {

/// The hexadecimal bit pattern of `value` rounded to the float type `type`;
/// the caller guarantees the value is exact there (validate() checks it).
inline std::string floatBitsLiteral(double value, ElementType type) {
  char buffer[32];
  switch (type) {
  case ElementType::F16:
    std::snprintf(buffer, sizeof(buffer), "0x%04X",
                  static_cast<unsigned>(doubleToHalf(value)));
    break;
  case ElementType::BF16:
    std::snprintf(buffer, sizeof(buffer), "0x%04X",
                  static_cast<unsigned>(doubleToBfloat16(value)));
    break;
  case ElementType::F32: {
    float f = static_cast<float>(value);
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    std::snprintf(buffer, sizeof(buffer), "0x%08" PRIX32, b);
    break;
  }
  default: {
    uint64_t b;
    std::memcpy(&b, &value, sizeof(b));
    std::snprintf(buffer, sizeof(buffer), "0x%016" PRIX64, b);
    break;
  }
  }
  return buffer;
}

/// "(d0, d1) -> (d0, d1)" wrapped in affine_map<...>.
inline std::string identityMap(int64_t rank) {
  std::string dims;
  for (int64_t i = 0; i < rank; ++i)
    dims += (i ? ", d" : "d") + std::to_string(i);
  return "affine_map<(" + dims + ") -> (" + dims + ")>";
}

class Emitter {
public:
  explicit Emitter(const Program &program, FrontEnd frontEnd = FrontEnd::Sift,
                   std::vector<std::string> opAttributes = {},
                   const DynamicDims &dynamicDims = {})
      : program(program), names(program.values.size()), frontEnd(frontEnd),
        iree(frontEnd == FrontEnd::LinalgExt),
        torchLike(frontEnd == FrontEnd::Torch || frontEnd == FrontEnd::Onnx),
        opAttributes(std::move(opAttributes)) {
    propagateDynamic(dynamicDims);
  }

  std::string emit() {
    if (torchLike)
      return emitTorchModule();
    out += "module {\n  func.func @main(";
    for (size_t i = 0; i < program.inputs.size(); ++i) {
      int id = program.inputs[i];
      names[static_cast<size_t>(id)] = "%arg" + std::to_string(i);
      out += (i ? ", " : "") + names[static_cast<size_t>(id)] + ": " + type(id);
    }
    out += ") -> (";
    for (size_t i = 0; i < program.outputs.size(); ++i)
      out += (i ? ", " : "") + type(program.outputs[i]);
    out += ") {\n";
    emitBody();
    out += "    return ";
    for (size_t i = 0; i < program.outputs.size(); ++i)
      out += (i ? ", " : "") + name(program.outputs[i]);
    out += " : ";
    for (size_t i = 0; i < program.outputs.size(); ++i)
      out += (i ? ", " : "") + type(program.outputs[i]);
    out += "\n  }\n}\n";
    return std::move(out);
  }

private:
  void emitBody() {
    for (size_t i = 0; i < program.ops.size(); ++i)
      emitOp(i, program.ops[i]);
  }

  /// Which dimensions of each value are dynamic: the arguments' as given;
  /// an elementwise result is dynamic where any operand is; a sort's
  /// results where any operand is; a top-k's where its input is, but for
  /// the k of its dimension; iotas, slices, gathers and NMS results are
  /// static (their sizes are the model's constants).
  void propagateDynamic(const DynamicDims &inputs) {
    dyn.resize(program.values.size());
    for (size_t v = 0; v < program.values.size(); ++v)
      dyn[v].assign(program.values[v].shape.size(), false);
    for (size_t i = 0; i < program.inputs.size() && i < inputs.size(); ++i) {
      std::vector<bool> &d = dyn[static_cast<size_t>(program.inputs[i])];
      for (size_t j = 0; j < d.size() && j < inputs[i].size(); ++j)
        d[j] = inputs[i][j];
    }
    for (const Op &op : program.ops) {
      if (op.kind != OpKind::Elementwise && op.kind != OpKind::Sort &&
          op.kind != OpKind::TopK)
        continue;
      std::vector<bool> joined = dyn[static_cast<size_t>(op.operands[0])];
      for (int operand : op.operands)
        for (size_t j = 0; j < joined.size(); ++j)
          joined[j] = joined[j] || dyn[static_cast<size_t>(operand)][j];
      if (op.kind == OpKind::TopK)
        joined[static_cast<size_t>(op.dimension)] = false;
      for (int result : op.results)
        if (program.values[static_cast<size_t>(result)].shape.size() ==
            joined.size())
          dyn[static_cast<size_t>(result)] = joined;
    }
  }

  bool isDynamic(int id, size_t dim) const {
    return dyn[static_cast<size_t>(id)][dim];
  }

  /// The tensor type of `t` with '?' where `d` says a dimension is dynamic.
  std::string typeWith(const TensorType &t, const std::vector<bool> &d) const {
    std::string s = "tensor<";
    for (size_t i = 0; i < t.shape.size(); ++i)
      s += (d[i] ? std::string("?") : std::to_string(t.shape[i])) + "x";
    return s + std::string(toString(t.elementType)) + ">";
  }

  /// "%eTAG = tensor.empty(%dims) : TYPE" for a value typed like `id` but
  /// of element type `element`, its dynamic sizes read with tensor.dim from
  /// `sources` (values of the same rank, the first dynamic there wins);
  /// returns the type.
  std::string emitEmpty(const std::string &ssa, int id, ElementType element,
                        const std::vector<int> &sources,
                        const std::vector<bool> *mask = nullptr) {
    TensorType t = tensor(id);
    t.elementType = element;
    const std::vector<bool> &d = mask ? *mask : dyn[static_cast<size_t>(id)];
    std::string sizes;
    for (size_t i = 0; i < d.size(); ++i) {
      if (!d[i])
        continue;
      int from = -1;
      for (int s : sources)
        if (isDynamic(s, i)) {
          from = s;
          break;
        }
      assert(from >= 0 && "a dynamic dimension without a dynamic source");
      std::string dim = ssa + "_d" + std::to_string(i);
      out += "    " + ssa + "_c" + std::to_string(i) + " = arith.constant " +
             std::to_string(i) + " : index\n";
      out += "    " + dim + " = tensor.dim " + name(from) + ", " + ssa + "_c" +
             std::to_string(i) + " : " + type(from) + "\n";
      sizes += (sizes.empty() ? "" : ", ") + dim;
    }
    std::string ty = typeWith(t, d);
    out += "    " + ssa + " = tensor.empty(" + sizes + ") : " + ty + "\n";
    return ty;
  }

  /// `ssa` (a value of `id`'s shape) cast to the type with dynamic
  /// dimensions `to` when its own differ; returns the name to use.
  std::string castTo(const std::string &ssa, int id,
                     const std::vector<bool> &to, const std::string &tag) {
    if (dyn[static_cast<size_t>(id)] == to)
      return ssa;
    out += "    " + tag + " = tensor.cast " + ssa + " : " + type(id) +
           " to " + typeWith(tensor(id), to) + "\n";
    return tag;
  }

  // The torch and ONNX front ends (TorchEmitter.cpp).
  std::string emitTorchModule();
  std::string vtensorType(int id) const;
  std::string vtensorTypeWith(const TensorType &t,
                              const std::vector<bool> &d) const;
  std::string toTorch(int id, const std::string &tag);
  /// Sort operand `i` as a !torch.vtensor of the results' type.
  std::string sortOperand(const Op &op, size_t i, const std::string &prefix);
  void fromTorch(int id, const std::string &torchValue);
  std::string onnxConstant(const std::string &ssa, const std::string &value,
                           const std::string &element);
  /// A sort as torch.aten.sort (torch) or onnx.TopK with k = n (onnx).
  void emitTorchLikeSort(size_t index, const Op &op);
  std::string emitTorchSortKey(const std::string &idx, const Op &op,
                               const std::string &torchKey,
                               const std::string &keyType, bool transformed);
  std::pair<std::string, std::string>
  emitTorchSort(const std::string &idx, const Op &op,
                const std::string &sorted, const std::string &torchKey,
                const std::string &keyType, const std::string &indices,
                bool descending);
  void emitTorchTopK(size_t index, const Op &op);
  void emitOnnxTopK(size_t index, const Op &op);
  void emitOnnxNms(size_t index, const Op &op);
  const TensorType &tensor(int id) const {
    return program.values[static_cast<size_t>(id)];
  }
  std::string type(int id) const {
    return typeWith(tensor(id), dyn[static_cast<size_t>(id)]);
  }
  std::string elem(int id) const {
    return std::string(toString(tensor(id).elementType));
  }
  const std::string &name(int id) const {
    const std::string &n = names[static_cast<size_t>(id)];
    assert(!n.empty() && "value used before it is named");
    return n;
  }
  std::string defineValue(int id) {
    names[static_cast<size_t>(id)] = "%v" + std::to_string(id);
    return names[static_cast<size_t>(id)];
  }

  /// "%a, %b : T1, T2" for `ids`.
  std::string operandList(const std::vector<std::string> &ssa,
                          const std::vector<std::string> &types) const {
    std::string s;
    for (size_t i = 0; i < ssa.size(); ++i)
      s += (i ? ", " : "") + ssa[i];
    s += " : ";
    for (size_t i = 0; i < types.size(); ++i)
      s += (i ? ", " : "") + types[i];
    return s;
  }

  void emitOp(size_t index, const Op &op) {
    switch (op.kind) {
    case OpKind::Elementwise: emitElementwise(index, op); return;
    case OpKind::Iota: emitIota(index, op); return;
    case OpKind::Sort: emitSort(index, op); return;
    case OpKind::TopK: emitTopK(index, op); return;
    case OpKind::Slice: emitSlice(op); return;
    case OpKind::Nms: emitNms(index, op); return;
    case OpKind::Gather: emitGather(index, op); return;
    }
  }

  /// The header of a linalg.generic with identity maps over `rank` dims,
  /// `numInputs` inputs and one output, through " {\n".
  std::string genericHeader(int64_t rank, size_t numInputs) const {
    std::string s = "linalg.generic {indexing_maps = [";
    std::string map = identityMap(rank);
    for (size_t i = 0; i <= numInputs; ++i)
      s += (i ? ", " : "") + map;
    s += "], iterator_types = [";
    for (int64_t i = 0; i < rank; ++i)
      s += i ? ", \"parallel\"" : "\"parallel\"";
    s += "]}";
    return s;
  }

  // The ops, one member each (Emitter.cpp).
  /// Body statements of one elementwise op; `args` are the block arguments of
  /// the inputs; returns the yielded SSA name.
  std::string emitEwBody(size_t index, const Op &op,
                         const std::vector<std::string> &args,
                         const std::string &in, const std::string &res);

  void emitElementwise(size_t index, const Op &op);

  void emitIota(size_t index, const Op &op);

  /// The comparator region body (after the block label), yielding less(a, b).
  void emitComparator(size_t index, const Op &op, const std::string &key);

  /// The named orders as a comparator (IREE's sort has no named order):
  /// ascending is the NaN-aware less, descending the NaN-aware greater.
  ComparatorKind namedOrderComparator(const Op &op) const {
    return op.order == SortOrder::Descending ? ComparatorKind::Greater
                                             : ComparatorKind::Less;
  }

  /// iree_linalg_ext.sort: a comparator region over every operand's pair
  /// (only the key's decides).
  void emitIreeSort(size_t index, const Op &op, const std::string &lhs,
                    const std::string &operands,
                    const std::string &resultTypes);

  void emitSort(size_t index, const Op &op);

  /// The fill of an iree_linalg_ext.topk's values: what every element
  /// beats or ties under the NaN-aware order: -inf for largest (NaN is the
  /// largest), NaN for smallest (every number is less than NaN, +inf too),
  /// the integer extremes.
  static std::string topkFill(ElementType type, bool largest);

  /// iree_linalg_ext.topk merges its input into its initial outputs: the
  /// values start as topkFill and the i32 indices as -1 (an element equal to
  /// the fill need not displace it: the comparison policy accepts index -1
  /// there); the input's indices are an explicit i32 iota along the
  /// dimension. The comparator is the NaN-aware greater (largest) or less
  /// (smallest); the i32 indices are widened to the model's i64.
  void emitIreeTopK(size_t index, const Op &op);

  void emitTopK(size_t index, const Op &op);

  /// A float attribute as the hex of its f32 bits, so it parses back exactly.
  static std::string f32Hex(float value);

  void emitNms(size_t index, const Op &op);

  void emitSlice(const Op &op);

  /// A linalg.generic over the result's domain reading the indices at
  /// (d0, d_axis) and extracting from the source, captured from above, at
  /// the result's position with the index in place of d_axis.
  void emitGather(size_t index, const Op &op);

  const Program &program;
  std::vector<std::string> names;
  std::string out;
  FrontEnd frontEnd = FrontEnd::Sift;
  /// iree_linalg_ext ops (the linalg_ext front end).
  bool iree = false;
  /// !torch.vtensor at the boundary, torch or ONNX ops for sort, top-k, NMS.
  bool torchLike = false;
  /// Per value id, which of its dimensions are dynamic.
  std::vector<std::vector<bool>> dyn;
  /// Per op: an attribute dictionary's contents for its linalg_ext form.
  std::vector<std::string> opAttributes;

  /// " {attrs}" for op `index`, or "".
  std::string attributesOf(size_t index) const {
    if (index >= opAttributes.size() || opAttributes[index].empty())
      return "";
    return " {" + opAttributes[index] + "}";
  }
};

} // namespace detail

} // namespace sift::gen
