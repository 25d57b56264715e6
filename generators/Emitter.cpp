//===- generators/Emitter.cpp - The printer's ops -------------------------===//
//
// The ops of the printer in Emitter.h, one member each: elementwise ops and
// iotas as linalg.generic, slices and gathers in tensor and linalg, and sort,
// top-k and NMS as sift's ops or IREE's iree_linalg_ext ones (the torch and
// ONNX spellings are TorchEmitter.cpp's).
//
//===----------------------------------------------------------------------===//

#include "generators/Emitter.h"

namespace sift::gen::detail {

std::string Emitter::emitEwBody(size_t index, const Op &op,
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

void Emitter::emitElementwise(size_t index, const Op &op) {
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

void Emitter::emitIota(size_t index, const Op &op) {
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

void Emitter::emitComparator(size_t index, const Op &op,
                             const std::string &key) {
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

void Emitter::emitIreeSort(size_t index, const Op &op, const std::string &lhs,
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

void Emitter::emitSort(size_t index, const Op &op) {
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

std::string Emitter::topkFill(ElementType type, bool largest) {
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

void Emitter::emitIreeTopK(size_t index, const Op &op) {
  const std::string idx = std::to_string(index);
  const int values = op.results[0], indices = op.results[1];
  const std::string key = elem(op.operands[0]);
  const TensorType &inType = tensor(op.operands[0]);
  const int64_t rank = static_cast<int64_t>(inType.shape.size());
  TensorType in32 = inType, out32 = tensor(indices);
  in32.elementType = out32.elementType = ElementType::I32;
  const std::string
      inI32 = typeWith(in32, dyn[static_cast<size_t>(op.operands[0])]),
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
         operandList({name(op.operands[0]), iota},
                     {type(op.operands[0]), inI32}) +
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

void Emitter::emitTopK(size_t index, const Op &op) {
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

std::string Emitter::f32Hex(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  char text[16];
  std::snprintf(text, sizeof text, "0x%08X", bits);
  return text;
}

void Emitter::emitNms(size_t index, const Op &op) {
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

void Emitter::emitSlice(const Op &op) {
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

void Emitter::emitGather(size_t index, const Op &op) {
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

} // namespace sift::gen::detail
