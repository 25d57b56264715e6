//===- generators/StableHloEmitter.cpp - A program as StableHLO text ------===//
//
// Writes a program as a StableHLO module whose `func.func @main` takes and
// returns the program's arguments and results, in order. Every op is
// printed in the generic form ("stablehlo.add"(%a, %b) : (...) -> ...), so
// the text parses alike across StableHLO versions. Arguments are %argI,
// every other value %tN (unique in the module, regions included); no call
// prints from two of its arguments, so the text is the same whatever order
// a C++ compiler evaluates them in.
//
// Spellings of the model's ops:
// - elementwise: stablehlo.negate / abs / add / subtract / multiply / xor /
//   maximum / minimum (the spec's maximum and minimum are IEEE-754's for
//   floats) in the element type; constants are splats written exactly
//   (hexadecimal bit patterns for floats); sigmoid is negate, exponential,
//   add and divide. Casts are stablehlo.convert, except i64 -> i32, whose
//   out-of-range convert the spec leaves "TBD": the low 32 bits are taken
//   with and, compare and select, then converted exactly.
// - iota: stablehlo.iota; slice: stablehlo.slice; gather: stablehlo.gather
//   of single elements at full coordinates (iotas and the broadcast
//   indices, concatenated).
// - sort: one stablehlo.sort of every operand, is_stable = true, with a
//   comparator on the key's pair: the NaN-aware less (ascending, Less, and
//   LessAbs on |key|) or greater (descending, Greater), -0.0 == +0.0 by the
//   FLOAT compare; signed compares for integers; LessLowByte compares
//   key & 255.
// - top-k: chlo.top_k (is_stable = true: equal elements lower index first)
//   along the last dimension (a transpose brings `dimension` there) over an
//   integer key monotone in SEMANTICS.md's total order: the integer itself,
//   or for floats the bits of the value with -0.0 as +0.0 and every NaN as
//   the quiet NaN, the magnitude bits of negatives flipped; smallest takes
//   the key's complement. The values are gathered from the input by the
//   indices (bits unchanged). An empty result is a constant.
// - NMS: ONNX's semantics written out: f32 corners and areas, the pairwise
//   "suppresses" matrix (IoU > threshold), candidates ordered by a sort
//   whose comparator is total (score descending, NaN first, then box
//   index), a stablehlo.while that visits one rank per step in every
//   (batch, class), and the kept boxes moved to their output rows by a
//   one-hot matching (no scatter, no reliance on sort stability); rows past
//   the count are -1.
//
//===----------------------------------------------------------------------===//

#include "generators/Exchange.h"
#include "generators/Half.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "generators/StableHloWriter.h"
#include "generators/Half.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace sift::gen::stablehlo {


Val Writer::gen(const std::string &name, const std::vector<Val> &operands,
                const std::string &attrs, const Elem &elem,
                const Shape &shape) {
  Val r{fresh(), elem, shape};
  std::string names, types;
  for (size_t i = 0; i < operands.size(); ++i) {
    names += (i ? ", " : "") + operands[i].name;
    types += (i ? ", " : "") + operands[i].type();
  }
  line(r.name + " = \"" + name + "\"(" + names + ")" +
       (attrs.empty() ? "" : " {" + attrs + "}") + " : (" + types + ") -> " +
       r.type());
  return r;
}

Val Writer::splat(const std::string &lit, const Elem &elem,
                  const Shape &shape) {
  Val r{fresh(), elem, shape};
  line(r.name + " = \"stablehlo.constant\"() {value = dense<" + lit +
       "> : " + r.type() + "} : () -> " + r.type());
  return r;
}

Val Writer::compare(const char *dir, const Val &a, const Val &b) {
  const char *kind = isFloatElem(a.elem) ? "FLOAT" : "SIGNED";
  return gen("stablehlo.compare", {a, b},
             std::string("comparison_direction = #stablehlo<comparison_"
                         "direction ") +
                 dir +
                 ">, compare_type = "
                 "#stablehlo<comparison_type " +
                 kind + ">",
             kI1, a.shape);
}

Val Writer::transpose(const Val &a, const Shape &perm) {
  Shape shape;
  for (int64_t p : perm)
    shape.push_back(a.shape[static_cast<size_t>(p)]);
  return gen("stablehlo.transpose", {a}, "permutation = " + i64Array(perm),
             a.elem, shape);
}

Val Writer::concatenate(const std::vector<Val> &parts, int64_t dim) {
  Shape shape = parts[0].shape;
  shape[static_cast<size_t>(dim)] = 0;
  for (const Val &p : parts)
    shape[static_cast<size_t>(dim)] += p.shape[static_cast<size_t>(dim)];
  return gen("stablehlo.concatenate", parts,
             "dimension = " + std::to_string(dim) + " : i64", parts[0].elem,
             shape);
}

Val Writer::takeAlongAxis(const Val &source, const Val &index, int64_t axis) {
  const int64_t rank = static_cast<int64_t>(index.shape.size());
  Shape column = index.shape, all, ones(static_cast<size_t>(rank), 1);
  column.push_back(1);
  std::vector<Val> parts;
  for (int64_t d = 0; d < rank; ++d) {
    Val c = d == axis ? index : iota(kI64, index.shape, d);
    parts.push_back(reshape(c, column));
    all.push_back(d);
  }
  Val coordinates = concatenate(parts, rank);
  return gen(
      "stablehlo.gather", {source, coordinates},
      "dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [" +
          joinInts(all) + "], start_index_map = [" + joinInts(all) +
          "], index_vector_dim = " + std::to_string(rank) +
          ">, indices_are_sorted = false, slice_sizes = " + i64Array(ones),
      source.elem, index.shape);
}

Val Writer::lessThan(const Val &a, const Val &b, bool greater) {
  if (!isFloatElem(a.elem))
    return compare(greater ? "GT" : "LT", a, b);
  // less: (!isnan(a) && isnan(b)) || a < b; greater: the mirror.
  Val nanA = isNan(a), nanB = isNan(b);
  Val nanPart =
      greater ? binary("stablehlo.and", nanA, unary("stablehlo.not", nanB))
              : binary("stablehlo.and", unary("stablehlo.not", nanA), nanB);
  return binary("stablehlo.or", nanPart, compare(greater ? "GT" : "LT", a, b));
}

Val Writer::reduce(const Val &a, const char *combiner, const std::string &init,
                   const Shape &dims) {
  Val start = splat(init, a.elem, {});
  Shape shape;
  for (size_t i = 0; i < a.shape.size(); ++i)
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) ==
        dims.end())
      shape.push_back(a.shape[i]);
  Val r{fresh(), a.elem, shape};
  std::string scalar = tensorType(a.elem, {});
  line(r.name + " = \"stablehlo.reduce\"(" + a.name + ", " + start.name +
       ") ({");
  Val x{fresh(), a.elem, {}}, y{fresh(), a.elem, {}};
  line("^bb0(" + x.name + ": " + scalar + ", " + y.name + ": " + scalar + "):");
  ++depth;
  Val z = binary(combiner, x, y);
  line("\"stablehlo.return\"(" + z.name + ") : (" + scalar + ") -> ()");
  --depth;
  line("}) {dimensions = " + i64Array(dims) + "} : (" + a.type() + ", " +
       scalar + ") -> " + r.type());
  return r;
}

Val Writer::truncI(const Val &a) {
  // low = a & 0xFFFFFFFF; low >= 2^31 ? low - 2^32 : low; exact convert.
  Val low =
      binary("stablehlo.and", a, splatOf(0, 0xFFFFFFFFll, a.elem, a.shape));
  Val big = compare("GE", low, splatOf(0, 0x80000000ll, a.elem, a.shape));
  Val wrapped = binary("stablehlo.subtract", low,
                       splatOf(0, 0x100000000ll, a.elem, a.shape));
  return convert(select(big, wrapped, low), kI32);
}

Val Writer::elementwise(const Op &op) {
  const Val &a = value(op.operands[0]);
  const Elem result =
      elemOf(program.values[static_cast<size_t>(op.results[0])].elementType);
  auto b = [&] { return value(op.operands[1]); };
  auto constant = [&] {
    return splatOf(op.constant, op.intConstant, a.elem, a.shape);
  };
  switch (op.ew) {
  case EwKind::NegF: return unary("stablehlo.negate", a);
  case EwKind::AbsF: return unary("stablehlo.abs", a);
  case EwKind::Sigmoid: {
    Val one = splatOf(1.0, 1, a.elem, a.shape);
    Val e = unary("stablehlo.exponential", unary("stablehlo.negate", a));
    return binary("stablehlo.divide", one, binary("stablehlo.add", one, e));
  }
  case EwKind::AddConstF:
  case EwKind::AddConstI: return binary("stablehlo.add", a, constant());
  case EwKind::MulConstF:
  case EwKind::MulConstI: return binary("stablehlo.multiply", a, constant());
  case EwKind::AddF:
  case EwKind::AddI: return binary("stablehlo.add", a, b());
  case EwKind::SubF:
  case EwKind::SubI: return binary("stablehlo.subtract", a, b());
  case EwKind::MulF:
  case EwKind::MulI: return binary("stablehlo.multiply", a, b());
  case EwKind::MaximumF:
  case EwKind::MaxSI: return binary("stablehlo.maximum", a, b());
  case EwKind::MinimumF:
  case EwKind::MinSI: return binary("stablehlo.minimum", a, b());
  case EwKind::XOrI: return binary("stablehlo.xor", a, b());
  case EwKind::TruncI: return truncI(a);
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI: return convert(a, result);
  }
  return a;
}

void Writer::comparator(const Op &op, const Val &lhs, const Val &rhs) {
  Val a = lhs, b = rhs;
  bool greater = op.order == SortOrder::Descending;
  if (op.order == SortOrder::Comparator) {
    greater = op.comparator == ComparatorKind::Greater;
    if (op.comparator == ComparatorKind::LessAbs) {
      a = unary("stablehlo.abs", a);
      b = unary("stablehlo.abs", b);
    } else if (op.comparator == ComparatorKind::LessLowByte) {
      Val mask = splatOf(0, 255, a.elem, {});
      a = binary("stablehlo.and", a, mask);
      b = binary("stablehlo.and", b, mask);
    }
  }
  Val r = lessThan(a, b, greater);
  line("\"stablehlo.return\"(" + r.name + ") : (tensor<i1>) -> ()");
}

void Writer::sortOp(const Op &op) {
  const std::string base = fresh();
  std::string names, types, results, params;
  std::vector<Val> lhs, rhs;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Val &v = value(op.operands[i]);
    names += (i ? ", " : "") + v.name;
    types += (i ? ", " : "") + v.type();
    lhs.push_back(Val{fresh(), v.elem, {}});
    rhs.push_back(Val{fresh(), v.elem, {}});
    params += std::string(i ? ", " : "") + lhs.back().name + ": " +
              lhs.back().type() + ", " + rhs.back().name + ": " +
              rhs.back().type();
    define(op.results[i], Val{base + "#" + std::to_string(i), v.elem, v.shape});
  }
  line(base + ":" + std::to_string(op.operands.size()) +
       " = \"stablehlo.sort\"(" + names + ") ({");
  line("^bb0(" + params + "):");
  ++depth;
  comparator(op, lhs[0], rhs[0]);
  --depth;
  line("}) {dimension = " + std::to_string(op.dimension) +
       " : i64, is_stable = true} : (" + types + ") -> (" + types + ")");
}

Val Writer::totalKey(const Val &input) {
  if (!isFloatElem(input.elem))
    return input;
  Val x = input.elem == "f16" ? convert(input, kF32) : input;
  const bool wide = x.elem == "f64";
  const Elem bits = wide ? kI64 : kI32;
  Val zero = splatOf(0.0, 0, x.elem, x.shape);
  x = select(compare("EQ", x, zero), zero, x);
  Val nan = isNan(x);
  x = select(nan,
             splat(wide ? "0x7FF8000000000000" : "0x7FC00000", x.elem, x.shape),
             x);
  Val i = gen("stablehlo.bitcast_convert", {x}, "", bits, x.shape);
  Val negative = compare("LT", i, splatOf(0, 0, bits, x.shape));
  Val magnitude = splatOf(0, wide ? INT64_MAX : INT32_MAX, bits, x.shape);
  return select(negative, binary("stablehlo.xor", i, magnitude), i);
}

void Writer::topkOp(const Op &op) {
  const Val &input = value(op.operands[0]);
  const TensorType &vt = program.values[static_cast<size_t>(op.results[0])];
  if (vt.numElements() == 0) {
    define(op.results[0], splatOf(0, 0, elemOf(vt.elementType), vt.shape));
    define(op.results[1], splatOf(0, 0, kI64, vt.shape));
    return;
  }
  const int64_t last = static_cast<int64_t>(input.shape.size()) - 1;
  Shape perm;
  for (int64_t d = 0; d <= last; ++d)
    perm.push_back(d == op.dimension ? last : d == last ? op.dimension : d);
  Val key = totalKey(op.dimension == last ? input : transpose(input, perm));
  if (!op.largest)
    key = unary("stablehlo.not", key);
  Shape outShape = key.shape;
  outShape.back() = op.k;
  const std::string base = fresh();
  Val i32{base + "#1", kI32, outShape};
  line(base + ":2 = chlo.top_k(" + key.name + ", k = " + std::to_string(op.k) +
       ", is_stable = true) : " + key.type() + " -> (" +
       tensorType(key.elem, outShape) + ", " + i32.type() + ")");
  Val index = convert(i32, kI64);
  if (op.dimension != last)
    index = transpose(index, perm);
  define(op.results[1], index);
  define(op.results[0], takeAlongAxis(input, index, op.dimension));
}

Val Writer::gatherOp(const Op &op) {
  const Val &source = value(op.operands[0]), &indices = value(op.operands[1]);
  const TensorType &rt = program.values[static_cast<size_t>(op.results[0])];
  if (rt.numElements() == 0)
    return splatOf(0, 0, elemOf(rt.elementType), rt.shape);
  Val full = broadcast(indices, {0, op.axis}, rt.shape);
  return takeAlongAxis(source, full, op.axis);
}

void Writer::emitOp(const Op &op) {
  switch (op.kind) {
  case OpKind::Elementwise: define(op.results[0], elementwise(op)); return;
  case OpKind::Iota: {
    const TensorType &t = program.values[static_cast<size_t>(op.results[0])];
    define(op.results[0], iota(elemOf(t.elementType), t.shape, op.dimension));
    return;
  }
  case OpKind::Slice: {
    const Val &s = value(op.operands[0]);
    Shape limit;
    for (size_t i = 0; i < op.offsets.size(); ++i)
      limit.push_back(op.sizes[i] == 0
                          ? op.offsets[i]
                          : op.offsets[i] + (op.sizes[i] - 1) * op.strides[i] +
                                1);
    define(op.results[0], slice(s, op.offsets, limit, op.strides, op.sizes));
    return;
  }
  case OpKind::Sort: sortOp(op); return;
  case OpKind::TopK: topkOp(op); return;
  case OpKind::Gather: define(op.results[0], gatherOp(op)); return;
  case OpKind::Nms: nmsOp(op); return;
  }
}

std::string Writer::emit() {
  std::string params, results;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const TensorType &t =
        program.values[static_cast<size_t>(program.inputs[i])];
    Val v{"%arg" + std::to_string(i), elemOf(t.elementType), t.shape};
    params += (i ? ", " : "") + v.name + ": " + v.type();
    define(program.inputs[i], v);
  }
  for (size_t i = 0; i < program.outputs.size(); ++i)
    results += (i ? ", " : "") + tensorOf(program.outputs[i]);
  std::string header =
      "module {\n  func.func @main(" + params + ") -> (" + results + ") {\n";
  for (const Op &op : program.ops)
    emitOp(op);
  std::string names;
  for (size_t i = 0; i < program.outputs.size(); ++i)
    names += (i ? ", " : "") + value(program.outputs[i]).name;
  line("return " + names + " : " + results);
  return header + out + "  }\n}\n";
}

} // namespace sift::gen::stablehlo

namespace sift::gen {

Result<std::string> emitStableHlo(const Program &program) {
  std::string invalid = validate(program);
  if (!invalid.empty())
    return makeError("stablehlo: the program is invalid: " + invalid);
  return stablehlo::Writer(program).emit();
}

} // namespace sift::gen
