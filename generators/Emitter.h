//===- generators/Emitter.h - The MLIR text printer (internal) -*- C++ -*-===//
//
// The printer behind MlirEmitter.h, shared by its two source files:
// MlirEmitter.cpp (sift's ops, IREE's iree_linalg_ext ops and everything
// around them in linalg, tensor and arith) and TorchEmitter.cpp (the torch
// and ONNX front ends, which wrap the same linalg text in !torch.vtensor
// conversions). Not part of the generators' interface.
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

  /// Body statements of one elementwise op; `args` are the block arguments of
  /// the inputs; returns the yielded SSA name.
  std::string emitEwBody(size_t index, const Op &op,
                         const std::vector<std::string> &args,
                         const std::string &in, const std::string &res) {
    int temp = 0;
    auto fresh = [&] {
      return "%t" + std::to_string(index) + "_" + std::to_string(temp++);
    };
    auto line = [&](const std::string &text) {
      std::string n = fresh();
      out += "      " + n + " = " + text + "\n";
      return n;
    };
    auto binary = [&](const char *mnemonic, const std::string &a,
                      const std::string &b) {
      return line(std::string(mnemonic) + " " + a + ", " + b + " : " + in);
    };
    auto cast = [&](const char *mnemonic) {
      return line(std::string(mnemonic) + " " + args[0] + " : " + in + " to " +
                  res);
    };
    ElementType inType = tensor(op.operands[0]).elementType;
    auto floatConst = [&](double value) {
      return line("arith.constant " + floatBitsLiteral(value, inType) + " : " +
                  in);
    };
    auto intConst = [&](int64_t value) {
      return line("arith.constant " + std::to_string(value) + " : " + in);
    };
    switch (op.ew) {
    case EwKind::NegF: return line("arith.negf " + args[0] + " : " + in);
    case EwKind::AbsF: return line("math.absf " + args[0] + " : " + in);
    case EwKind::Sigmoid: {
      std::string neg = line("arith.negf " + args[0] + " : " + in);
      std::string exp = line("math.exp " + neg + " : " + in);
      std::string one = floatConst(1.0);
      std::string den = binary("arith.addf", one, exp);
      return binary("arith.divf", one, den);
    }
    case EwKind::AddConstF:
      return binary("arith.addf", args[0], floatConst(op.constant));
    case EwKind::MulConstF:
      return binary("arith.mulf", args[0], floatConst(op.constant));
    case EwKind::AddF: return binary("arith.addf", args[0], args[1]);
    case EwKind::SubF: return binary("arith.subf", args[0], args[1]);
    case EwKind::MulF: return binary("arith.mulf", args[0], args[1]);
    case EwKind::MaximumF: return binary("arith.maximumf", args[0], args[1]);
    case EwKind::MinimumF: return binary("arith.minimumf", args[0], args[1]);
    case EwKind::AddConstI:
      return binary("arith.addi", args[0], intConst(op.intConstant));
    case EwKind::MulConstI:
      return binary("arith.muli", args[0], intConst(op.intConstant));
    case EwKind::AddI: return binary("arith.addi", args[0], args[1]);
    case EwKind::SubI: return binary("arith.subi", args[0], args[1]);
    case EwKind::MulI: return binary("arith.muli", args[0], args[1]);
    case EwKind::XOrI: return binary("arith.xori", args[0], args[1]);
    case EwKind::MaxSI: return binary("arith.maxsi", args[0], args[1]);
    case EwKind::MinSI: return binary("arith.minsi", args[0], args[1]);
    case EwKind::ExtF: return cast("arith.extf");
    case EwKind::TruncF: return cast("arith.truncf");
    case EwKind::SIToFP: return cast("arith.sitofp");
    case EwKind::ExtSI: return cast("arith.extsi");
    case EwKind::TruncI: return cast("arith.trunci");
    }
    return args[0];
  }

  void emitElementwise(size_t index, const Op &op) {
    const std::string idx = std::to_string(index);
    const int result = op.results[0];
    const std::string empty = "%e" + idx;
    emitEmpty(empty, result, tensor(result).elementType, op.operands);
    std::vector<std::string> ssa, types, args;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      ssa.push_back(name(op.operands[i]));
      types.push_back(type(op.operands[i]));
      args.push_back("%x" + idx + "_" + std::to_string(i));
    }
    const std::string in = elem(op.operands[0]);
    const std::string res = elem(result);
    out += "    " + defineValue(result) + " = " +
           genericHeader(tensor(result).rank(), op.operands.size()) + " ins(" +
           operandList(ssa, types) + ") outs(" + empty + " : " + type(result) +
           ") {\n";
    out += "    ^bb0(";
    for (const std::string &a : args)
      out += a + ": " + in + ", ";
    out += "%o" + idx + ": " + res + "):\n";
    std::string yielded = emitEwBody(index, op, args, in, res);
    out += "      linalg.yield " + yielded + " : " + res + "\n";
    out += "    } -> " + type(result) + "\n";
  }

  void emitIota(size_t index, const Op &op) {
    const std::string idx = std::to_string(index);
    const int result = op.results[0];
    const std::string empty = "%e" + idx;
    const std::string res = elem(result);
    out += "    " + empty + " = tensor.empty() : " + type(result) + "\n";
    out += "    " + defineValue(result) + " = " +
           genericHeader(tensor(result).rank(), 0) + " outs(" + empty + " : " +
           type(result) + ") {\n";
    out += "    ^bb0(%o" + idx + ": " + res + "):\n";
    out += "      %t" + idx + "_0 = linalg.index " +
           std::to_string(op.dimension) + " : index\n";
    out += "      %t" + idx + "_1 = arith.index_cast %t" + idx +
           "_0 : index to " + res + "\n";
    out += "      linalg.yield %t" + idx + "_1 : " + res + "\n";
    out += "    } -> " + type(result) + "\n";
  }

  /// The comparator region body (after the block label), yielding less(a, b).
  void emitComparator(size_t index, const Op &op, const std::string &key) {
    const std::string idx = std::to_string(index);
    const std::string lhs = "%lhs" + idx, rhs = "%rhs" + idx;
    int temp = 0;
    auto line = [&](const std::string &text) {
      std::string n = "%t" + idx + "_" + std::to_string(temp++);
      out += "      " + n + " = " + text + "\n";
      return n;
    };
    bool isF = isFloat(tensor(op.operands[0]).elementType);
    // NaN-aware float less/greater over a and b (after any |.|).
    auto nanAware = [&](const std::string &a, const std::string &b,
                        bool greater) {
      // less:    (!isnan(a) && isnan(b)) || a < b
      // greater: (isnan(a) && !isnan(b)) || a > b
      std::string aClass =
          line(std::string("arith.cmpf ") + (greater ? "uno" : "ord") + ", " +
               a + ", " + a + " : " + key);
      std::string bClass =
          line(std::string("arith.cmpf ") + (greater ? "ord" : "uno") + ", " +
               b + ", " + b + " : " + key);
      std::string nanPart =
          line("arith.andi " + aClass + ", " + bClass + " : i1");
      std::string cmp =
          line(std::string("arith.cmpf ") + (greater ? "ogt" : "olt") + ", " +
               a + ", " + b + " : " + key);
      return line("arith.ori " + nanPart + ", " + cmp + " : i1");
    };
    std::string result;
    switch (op.comparator) {
    case ComparatorKind::Less:
      result = isF ? nanAware(lhs, rhs, false)
                   : line("arith.cmpi slt, " + lhs + ", " + rhs + " : " + key);
      break;
    case ComparatorKind::Greater:
      result = isF ? nanAware(lhs, rhs, true)
                   : line("arith.cmpi sgt, " + lhs + ", " + rhs + " : " + key);
      break;
    case ComparatorKind::LessAbs: {
      std::string a = line("math.absf " + lhs + " : " + key);
      std::string b = line("math.absf " + rhs + " : " + key);
      result = nanAware(a, b, false);
      break;
    }
    case ComparatorKind::LessLowByte: {
      std::string mask = line("arith.constant 255 : " + key);
      std::string a = line("arith.andi " + lhs + ", " + mask + " : " + key);
      std::string b = line("arith.andi " + rhs + ", " + mask + " : " + key);
      result = line("arith.cmpi ult, " + a + ", " + b + " : " + key);
      break;
    }
    }
    out += std::string("      ") +
           (iree ? "iree_linalg_ext.yield " : "sift.yield ") + result +
           " : i1\n";
  }

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
                    const std::string &resultTypes) {
    const std::string idx = std::to_string(index);
    out += "    " + lhs + " = iree_linalg_ext.sort" + attributesOf(index) +
           " dimension(" +
           std::to_string(op.dimension) + ") outs(" + operands + ") {\n";
    out += "    ^bb0(";
    for (size_t i = 0; i < op.operands.size(); ++i) {
      std::string e = elem(op.operands[i]);
      std::string a = i ? "%a" + idx + "_" + std::to_string(i) : "%lhs" + idx;
      std::string b = i ? "%b" + idx + "_" + std::to_string(i) : "%rhs" + idx;
      out += (i ? ", " : "") + a + ": " + e + ", " + b + ": " + e;
    }
    out += "):\n";
    Op comparator = op;
    if (op.order != SortOrder::Comparator)
      comparator.comparator = namedOrderComparator(op);
    emitComparator(index, comparator, elem(op.operands[0]));
    out += "    } -> " + resultTypes + "\n";
  }

  void emitSort(size_t index, const Op &op) {
    if (torchLike)
      return emitTorchLikeSort(index, op);
    const std::string idx = std::to_string(index);
    // Every operand as the results' type (dynamic where any operand is).
    const std::vector<bool> &joined = dyn[static_cast<size_t>(op.results[0])];
    std::vector<std::string> ssa, types;
    for (size_t i = 0; i < op.operands.size(); ++i) {
      int id = op.operands[i];
      ssa.push_back(castTo(name(id), id, joined,
                           "%cast" + idx + "_" + std::to_string(i)));
      types.push_back(typeWith(tensor(id), joined));
    }
    // Result names.
    std::string lhs;
    if (op.results.size() == 1) {
      lhs = defineValue(op.results[0]);
    } else {
      std::string base = "%s" + idx;
      lhs = base + ":" + std::to_string(op.results.size());
      for (size_t i = 0; i < op.results.size(); ++i)
        names[static_cast<size_t>(op.results[i])] =
            base + "#" + std::to_string(i);
    }
    std::string resultTypes;
    for (size_t i = 0; i < op.results.size(); ++i)
      resultTypes += (i ? ", " : "") + type(op.results[i]);

    if (iree)
      return emitIreeSort(index, op, lhs, operandList(ssa, types),
                          resultTypes);
    out += "    " + lhs + " = sift.sort dimension(" +
           std::to_string(op.dimension) + ")";
    switch (op.order) {
    case SortOrder::Ascending: out += " ascending"; break;
    case SortOrder::Descending: out += " descending"; break;
    case SortOrder::Comparator: break;
    }
    out += " outs(" + operandList(ssa, types) + ")";
    if (op.order == SortOrder::Comparator) {
      const std::string key = elem(op.operands[0]);
      out += " {\n    ^bb0(%lhs" + idx + ": " + key + ", %rhs" + idx + ": " +
             key + "):\n";
      emitComparator(index, op, key);
      out += "    }";
    }
    out += " -> " + resultTypes + "\n";
  }

  /// The fill of an iree_linalg_ext.topk's values: what every element
  /// beats or ties under the NaN-aware order: -inf for largest (NaN is the
  /// largest), NaN for smallest (every number is less than NaN, +inf too),
  /// the integer extremes.
  static std::string topkFill(ElementType type, bool largest) {
    switch (type) {
    case ElementType::F16: return largest ? "0xFC00" : "0x7E00";
    case ElementType::BF16: return largest ? "0xFF80" : "0x7FC0";
    case ElementType::F32: return largest ? "0xFF800000" : "0x7FC00000";
    case ElementType::F64:
      return largest ? "0xFFF0000000000000" : "0x7FF8000000000000";
    case ElementType::I32: return largest ? "-2147483648" : "2147483647";
    case ElementType::I64:
      return largest ? "-9223372036854775808" : "9223372036854775807";
    }
    return "0";
  }

  /// iree_linalg_ext.topk merges its input into its initial outputs: the
  /// values start as topkFill and the i32 indices as -1 (an element equal to
  /// the fill need not displace it: the comparison policy accepts index -1
  /// there); the input's indices are an explicit i32 iota along the
  /// dimension. The comparator is the NaN-aware greater (largest) or less
  /// (smallest); the i32 indices are widened to the model's i64.
  void emitIreeTopK(size_t index, const Op &op) {
    const std::string idx = std::to_string(index);
    const int values = op.results[0], indices = op.results[1];
    const std::string key = elem(op.operands[0]);
    const TensorType &inType = tensor(op.operands[0]);
    const int64_t rank = static_cast<int64_t>(inType.shape.size());
    TensorType in32 = inType, out32 = tensor(indices);
    in32.elementType = out32.elementType = ElementType::I32;
    const std::string inI32 = typeWith(in32, dyn[static_cast<size_t>(op.operands[0])]),
                      outI32 = typeWith(out32, dyn[static_cast<size_t>(indices)]);
    const std::string iota = "%iota" + idx, raw = "%raw" + idx;
    const int input = op.operands[0];
    emitEmpty("%ei" + idx, input, ElementType::I32, {input});
    out += "    " + iota + " = " + genericHeader(rank, 0) + " outs(%ei" + idx +
           " : " + inI32 + ") {\n    ^bb0(%o" + idx + ": i32):\n";
    out += "      %x" + idx + " = linalg.index " +
           std::to_string(op.dimension) + " : index\n";
    out += "      %y" + idx + " = arith.index_cast %x" + idx +
           " : index to i32\n      linalg.yield %y" + idx + " : i32\n";
    out += "    } -> " + inI32 + "\n";
    const std::string c0 = "%c" + idx + "_0", c1 = "%c" + idx + "_1";
    out += "    " + c0 + " = arith.constant " +
           topkFill(inType.elementType, op.largest) + " : " + key + "\n";
    out += "    " + c1 + " = arith.constant -1 : i32\n";
    const std::string e0 = "%e" + idx + "_0", e1 = "%e" + idx + "_1";
    emitEmpty(e0, values, tensor(values).elementType, {input});
    emitEmpty(e1, indices, ElementType::I32, {input});
    const std::string f0 = "%f" + idx + "_0", f1 = "%f" + idx + "_1";
    out += "    " + f0 + " = linalg.fill ins(" + c0 + " : " + key + ") outs(" +
           e0 + " : " + type(values) + ") -> " + type(values) + "\n";
    out += "    " + f1 + " = linalg.fill ins(" + c1 + " : i32) outs(" + e1 +
           " : " + outI32 + ") -> " + outI32 + "\n";
    std::string v = defineValue(values);
    out += "    " + v + ", " + raw + " = iree_linalg_ext.topk" +
           attributesOf(index) + " dimension(" +
           std::to_string(op.dimension) + ") ins(" +
           operandList({name(op.operands[0]), iota}, {type(op.operands[0]), inI32}) +
           ") outs(" + operandList({f0, f1}, {type(values), outI32}) + ") {\n";
    out += "    ^bb0(%lhs" + idx + ": " + key + ", %rhs" + idx + ": " + key +
           "):\n";
    Op comparator = op;
    comparator.comparator =
        op.largest ? ComparatorKind::Greater : ComparatorKind::Less;
    emitComparator(index, comparator, key);
    out += "    } -> " + type(values) + ", " + outI32 + "\n";
    std::string i = defineValue(indices);
    const int64_t outRank = static_cast<int64_t>(out32.shape.size());
    emitEmpty("%ew" + idx, indices, ElementType::I64, {input});
    out += "    " + i + " = " + genericHeader(outRank, 1) + " ins(" + raw +
           " : " + outI32 + ") outs(%ew" + idx + " : " + type(indices) +
           ") {\n    ^bb0(%n" + idx + ": i32, %w" + idx + ": i64):\n";
    out += "      %z" + idx + " = arith.extsi %n" + idx +
           " : i32 to i64\n      linalg.yield %z" + idx + " : i64\n";
    out += "    } -> " + type(indices) + "\n";
  }

  void emitTopK(size_t index, const Op &op) {
    if (iree)
      return emitIreeTopK(index, op);
    if (frontEnd == FrontEnd::Torch)
      return emitTorchTopK(index, op);
    if (frontEnd == FrontEnd::Onnx)
      return emitOnnxTopK(index, op);
    const std::string idx = std::to_string(index);
    const int values = op.results[0], indices = op.results[1];
    const std::string e0 = "%e" + idx + "_0", e1 = "%e" + idx + "_1";
    out += "    " + e0 + " = tensor.empty() : " + type(values) + "\n";
    out += "    " + e1 + " = tensor.empty() : " + type(indices) + "\n";
    std::string v = defineValue(values);
    std::string i = defineValue(indices);
    out += "    " + v + ", " + i + " = sift.topk dimension(" +
           std::to_string(op.dimension) + ") k(" + std::to_string(op.k) + ") " +
           (op.largest ? "largest" : "smallest") + " ins(" +
           name(op.operands[0]) + " : " + type(op.operands[0]) + ") outs(" +
           operandList({e0, e1}, {type(values), type(indices)}) + ") -> " +
           type(values) + ", " + type(indices) + "\n";
  }

  /// A float attribute as the hex of its f32 bits, so it parses back exactly.
  static std::string f32Hex(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", bits);
    return text;
  }

  void emitNms(size_t index, const Op &op) {
    if (frontEnd == FrontEnd::Onnx)
      return emitOnnxNms(index, op);
    const std::string idx = std::to_string(index);
    const int selected = op.results[0], count = op.results[1];
    const std::string e0 = "%e" + idx + "_0", e1 = "%e" + idx + "_1";
    out += "    " + e0 + " = tensor.empty() : " + type(selected) + "\n";
    out += "    " + e1 + " = tensor.empty() : " + type(count) + "\n";
    std::string s = defineValue(selected);
    std::string c = defineValue(count);
    out += "    " + s + ", " + c + " = sift.nms max_output_boxes_per_class(" +
           std::to_string(op.maxOutputBoxesPerClass) + ") iou_threshold(" +
           f32Hex(op.iouThreshold) + ")";
    if (op.scoreThreshold)
      out += " score_threshold(" + f32Hex(*op.scoreThreshold) + ")";
    if (op.centerPointBox)
      out += " center_point_box(1)";
    out += " ins(" +
           operandList({name(op.operands[0]), name(op.operands[1])},
                       {type(op.operands[0]), type(op.operands[1])}) +
           ") outs(" + operandList({e0, e1}, {type(selected), type(count)}) +
           ") -> " + type(selected) + ", " + type(count) + "\n";
  }

  void emitSlice(const Op &op) {
    auto list = [](const std::vector<int64_t> &v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
      return s + "]";
    };
    const int result = op.results[0];
    std::string source = name(op.operands[0]);
    out += "    " + defineValue(result) + " = tensor.extract_slice " + source +
           list(op.offsets) + " " + list(op.sizes) + " " + list(op.strides) +
           " : " + type(op.operands[0]) + " to " + type(result) + "\n";
  }

  /// A linalg.generic over the result's domain reading the indices at
  /// (d0, d_axis) and extracting from the source, captured from above, at
  /// the result's position with the index in place of d_axis.
  void emitGather(size_t index, const Op &op) {
    const std::string idx = std::to_string(index);
    const int result = op.results[0], source = op.operands[0],
              indices = op.operands[1];
    const int64_t rank = tensor(result).rank();
    const std::string empty = "%e" + idx;
    const std::string res = elem(result);
    std::string dims;
    for (int64_t i = 0; i < rank; ++i)
      dims += (i ? ", d" : "d") + std::to_string(i);
    out += "    " + empty + " = tensor.empty() : " + type(result) + "\n";
    out += "    " + defineValue(result) +
           " = linalg.generic {indexing_maps = [affine_map<(" + dims +
           ") -> (d0, d" + std::to_string(op.axis) + ")>, " +
           identityMap(rank) + "], iterator_types = [";
    for (int64_t i = 0; i < rank; ++i)
      out += i ? ", \"parallel\"" : "\"parallel\"";
    out += "]} ins(" + name(indices) + " : " + type(indices) + ") outs(" +
           empty + " : " + type(result) + ") {\n";
    out += "    ^bb0(%x" + idx + "_0: i64, %o" + idx + ": " + res + "):\n";
    const std::string position = "%t" + idx + "_a";
    out += "      " + position + " = arith.index_cast %x" + idx +
           "_0 : i64 to index\n";
    std::string at;
    for (int64_t i = 0; i < rank; ++i) {
      std::string coordinate = position;
      if (i != op.axis) {
        coordinate = "%t" + idx + "_" + std::to_string(i);
        out += "      " + coordinate + " = linalg.index " + std::to_string(i) +
               " : index\n";
      }
      at += (i ? ", " : "") + coordinate;
    }
    out += "      %t" + idx + "_e = tensor.extract " + name(source) + "[" + at +
           "] : " + type(source) + "\n";
    out += "      linalg.yield %t" + idx + "_e : " + res + "\n";
    out += "    } -> " + type(result) + "\n";
  }

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
