//===- generators/StableHloWriter.h - The StableHLO printer -*- C++ -*-===//
//
// The printer behind gen::emitStableHlo (generators/Exchange.h): a value's
// name, element type and shape, and the Writer that prints ops in generic
// form with fresh names. StableHloEmitter.cpp prints elementwise ops, sort,
// top-k and gather (and says how each model op is spelled);
// StableHloNms.cpp prints NMS as StableHLO while loops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Exchange.h"
#include "generators/Half.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace sift::gen::stablehlo {

using Shape = std::vector<int64_t>;

/// An element type's name: "f32", ..., and "i1" for compare results.
using Elem = std::string;
inline Elem elemOf(ElementType e) { return std::string(toString(e)); }
inline const Elem kI1 = "i1", kI32 = "i32", kI64 = "i64", kF32 = "f32";
inline bool isFloatElem(const Elem &e) { return !e.empty() && e[0] == 'f'; }

/// "tensor<2x3xf32>" (rank 0: "tensor<f32>").
inline std::string tensorType(const Elem &e, const Shape &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + e + ">";
}

/// The exact literal of `value` in element type `e`: a hexadecimal bit
/// pattern for floats (the caller guarantees exactness), decimal integers.
inline std::string literal(double value, int64_t intValue, const std::string &e) {
  char buffer[32];
  if (e == "f16") {
    std::snprintf(buffer, sizeof buffer, "0x%04X",
                  static_cast<unsigned>(doubleToHalf(value)));
    return buffer;
  }
  if (e == "f32") {
    float f = static_cast<float>(value);
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    std::snprintf(buffer, sizeof buffer, "0x%08" PRIX32, b);
    return buffer;
  }
  if (e == "f64") {
    uint64_t b;
    std::memcpy(&b, &value, sizeof b);
    std::snprintf(buffer, sizeof buffer, "0x%016" PRIX64, b);
    return buffer;
  }
  return std::to_string(intValue);
}

inline std::string joinInts(const Shape &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

/// " array<i64: a, b>" attribute value.
inline std::string i64Array(const Shape &v) {
  return v.empty() ? "array<i64>" : "array<i64: " + joinInts(v) + ">";
}

/// A typed SSA value: its name, element type and shape.
struct Val {
  std::string name;
  Elem elem = kF32;
  Shape shape;
  std::string type() const { return tensorType(elem, shape); }
};

/// Prints one module; `line` appends at the current region depth.
class Writer {
public:
  explicit Writer(const Program &program)
      : program(program), vals(program.values.size()) {}

  std::string emit();

private:
  // Generic-form printing.
  std::string fresh() { return "%t" + std::to_string(counter++); }
  void line(const std::string &text) {
    out += std::string(static_cast<size_t>(depth) * 2 + 4, ' ') + text + "\n";
  }
  /// `name`(operands) {attrs} : (operand types) -> result; one result.
  Val gen(const std::string &name, const std::vector<Val> &operands,
          const std::string &attrs, const Elem &elem, const Shape &shape);
  Val unary(const char *name, const Val &a) {
    return gen(name, {a}, "", a.elem, a.shape);
  }
  Val binary(const char *name, const Val &a, const Val &b) {
    return gen(name, {a, b}, "", a.elem, a.shape);
  }
  Val splat(const std::string &lit, const Elem &elem, const Shape &shape);
  Val splatOf(double value, int64_t intValue, const Elem &e, const Shape &s) {
    return splat(literal(value, intValue, e), e, s);
  }
  Val compare(const char *dir, const Val &a, const Val &b);
  Val select(const Val &p, const Val &a, const Val &b) {
    return gen("stablehlo.select", {p, a, b}, "", a.elem, a.shape);
  }
  Val convert(const Val &a, const Elem &to) {
    return gen("stablehlo.convert", {a}, "", to, a.shape);
  }
  Val iota(const Elem &e, const Shape &shape, int64_t dim) {
    return gen("stablehlo.iota", {},
               "iota_dimension = " + std::to_string(dim) + " : i64", e, shape);
  }
  Val reshape(const Val &a, const Shape &shape) {
    return gen("stablehlo.reshape", {a}, "", a.elem, shape);
  }
  Val broadcast(const Val &a, const Shape &dims, const Shape &shape) {
    return gen("stablehlo.broadcast_in_dim", {a},
               "broadcast_dimensions = " + i64Array(dims), a.elem, shape);
  }
  Val slice(const Val &a, const Shape &start, const Shape &limit,
            const Shape &strides, const Shape &shape) {
    return gen("stablehlo.slice", {a},
               "start_indices = " + i64Array(start) + ", limit_indices = " +
                   i64Array(limit) + ", strides = " + i64Array(strides),
               a.elem, shape);
  }
  Val transpose(const Val &a, const Shape &perm);
  Val concatenate(const std::vector<Val> &parts, int64_t dim);
  /// result[i...] = source[i... with position `axis` = index[i...]]; the
  /// indices (i64) have the result's shape.
  Val takeAlongAxis(const Val &source, const Val &index, int64_t axis);
  Val isNan(const Val &a) { return compare("NE", a, a); }
  /// less (or greater) with NaN above every number, on floats or ints.
  Val lessThan(const Val &a, const Val &b, bool greater);
  Val reduce(const Val &a, const char *combiner, const std::string &init,
             const Shape &dims);

  // The model's ops.
  std::string tensorOf(int id) const {
    const TensorType &t = program.values[static_cast<size_t>(id)];
    return tensorType(elemOf(t.elementType), t.shape);
  }
  const Val &value(int id) const { return vals[static_cast<size_t>(id)]; }
  void define(int id, Val v) { vals[static_cast<size_t>(id)] = std::move(v); }
  Val elementwise(const Op &op);
  Val truncI(const Val &a);
  void sortOp(const Op &op);
  void comparator(const Op &op, const Val &lhs, const Val &rhs);
  Val totalKey(const Val &x);
  void topkOp(const Op &op);
  Val gatherOp(const Op &op);
  void emitOp(const Op &op);
  /// A stablehlo.while over `state`: `cond` maps the block arguments to an
  /// i1 scalar, `body` to the next state; returns the final state.
  template <typename Cond, typename Body>
  std::vector<Val> whileLoop(const std::vector<Val> &state, Cond cond,
                             Body body);
  Val dynamicSlice(const Val &a, const std::vector<Val> &starts,
                   const Shape &sizes);
  // NMS.
  void nmsOp(const Op &op);
  /// [B, N, 5] f32: ymin, xmin, ymax, xmax and area of every box.
  Val boxGeometry(const Op &op, const Val &boxes);
  /// [B, C, N] i1: the IoU of each (b, c)'s candidate `cand` [B, C] with
  /// every box of its batch is > the threshold.
  Val suppressedBy(const Op &op, const Val &geometry, const Val &cand,
                   int64_t classes);
  std::vector<Val> nmsStep(const Op &op, const std::vector<Val> &s,
                           int64_t maxOut);
  Val nmsRows(const Val &count, const Val &kept, int64_t maxOut);

  const Program &program;
  std::vector<Val> vals;
  std::string out;
  int counter = 0;
  int depth = 0;
};

} // namespace sift::gen::stablehlo
