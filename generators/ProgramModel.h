//===- generators/ProgramModel.h - Plain-data model of a sift program -----===//
//
// A generated program as plain data: typed tensor values, the ops that define
// them, the function inputs and outputs. Generators build it, `MlirEmitter`
// prints it as MLIR text, and the reference (`oracles/Reference`) evaluates it
// directly, never the IR, so the oracle does not depend on the compiler under
// test. Semantics of every op are those of its sift op's description
// (pipelines/Dialect/SiftOps.td) and the comments below.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"
#include "support/Shape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sift::gen {

/// A static tensor type.
struct TensorType {
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const { return elementCount(shape); }
  bool operator==(const TensorType &o) const {
    return elementType == o.elementType && shape == o.shape;
  }
  bool operator!=(const TensorType &o) const { return !(*this == o); }
};

/// The kinds of op a program holds.
enum class OpKind {
  Elementwise, ///< linalg.generic, identity maps, all-parallel.
  Iota,        ///< linalg.generic writing linalg.index(dimension), no inputs.
  Sort,        ///< sift.sort
  TopK,        ///< sift.topk
  Slice,       ///< tensor.extract_slice (same rank, static offsets/sizes/strides)
  Nms,         ///< sift.nms (ONNX NonMaxSuppression, fixed-capacity output)
  Gather,      ///< linalg.generic gathering along one axis by i64 indices
};

/// Elementwise operations. Binary ops take two operands of identical type;
/// "Const" ops take one operand and `Op::constant` (exactly representable in
/// the element type). Float ops round to the element type after every step
/// (f16 computed as f32 then rounded to f16 per step, as LLVM does on x86).
/// Integer arithmetic wraps (two's complement).
enum class EwKind {
  // float, unary
  NegF,      ///< -x (flips the sign bit, NaN too)
  AbsF,      ///< |x| (clears the sign bit)
  Sigmoid,   ///< 1 / (1 + exp(-x)), each step rounded to the element type
  AddConstF, ///< x + c
  MulConstF, ///< x * c
  // float, binary
  AddF,
  SubF,
  MulF,
  MaximumF, ///< arith.maximumf: NaN if either is NaN; +0 > -0
  MinimumF, ///< arith.minimumf: NaN if either is NaN; -0 < +0
  // integer, unary
  AddConstI, ///< x + c (wraps)
  MulConstI, ///< x * c (wraps)
  // integer, binary
  AddI,
  SubI,
  MulI,
  XOrI,
  MaxSI,
  MinSI,
  // casts (one operand; result element type from the result value)
  ExtF,   ///< f16->f32, f16->f64, f32->f64 (exact)
  TruncF, ///< f64->f32, f64->f16, f32->f16 (round to nearest even)
  SIToFP, ///< i32/i64 -> f16/f32/f64 (round to nearest even)
  ExtSI,  ///< i32 -> i64
  TruncI, ///< i64 -> i32 (keeps the low 32 bits)
};

/// Sort orders: the two named orders of SEMANTICS.md, or a comparator region.
enum class SortOrder { Ascending, Descending, Comparator };

/// Comparator regions the generator can build; each is a strict weak order over
/// every value of its key type. `less(a, b)` is what the region yields.
enum class ComparatorKind {
  Less,       ///< float: (!isnan(a) && isnan(b)) || a < b ; int: a < b (signed)
  Greater,    ///< float: (isnan(a) && !isnan(b)) || a > b ; int: a > b (signed)
  LessAbs,    ///< float only: Less applied to |a| and |b|
  LessLowByte ///< int only: (a & 255) < (b & 255), many ties (stability)
};

/// One op. Fields that do not apply to its kind are ignored.
struct Op {
  OpKind kind = OpKind::Elementwise;
  std::vector<int> operands; ///< value ids
  std::vector<int> results;  ///< value ids

  // Elementwise
  EwKind ew = EwKind::AddF;
  double constant = 0.0; ///< float "Const" ops (exact in the element type)
  int64_t intConstant = 0; ///< integer "Const" ops

  // Sort, TopK and Iota: the dimension they work along.
  int64_t dimension = 0;

  // Sort: operands 1..3 of identical shape, moved in lockstep; result i is
  // operand i sorted by operand 0 (the key). Stable.
  SortOrder order = SortOrder::Ascending;
  ComparatorKind comparator = ComparatorKind::Less;

  // TopK: one operand; results[0] = values, results[1] = i64 indices, both
  // always present in the model (either may be unused by the rest).
  int64_t k = 0;
  bool largest = true;

  // Slice
  std::vector<int64_t> offsets, sizes, strides;

  // Nms: operands {boxes [B, N, 4], scores [B, C, N]} (each f16 or f32,
  // computed in f32); results {selected [B * C * max(maxOutputBoxesPerClass,
  // 0), 3] i64, count [1] i64}. Candidates of a (batch, class) have
  // score > scoreThreshold (strict; every box, NaN included, without a
  // threshold), visited by descending score (NaN largest, ties to the lower
  // box index); one is selected unless its f32 IoU with an already selected
  // box is > iouThreshold (strict); at most maxOutputBoxesPerClass per class
  // (negative counts as 0). Boxes are [y1, x1, y2, x2] with any two diagonal
  // corners, or [x_center, y_center, width, height] when centerPointBox.
  // Degenerate boxes (an area or the intersection <= 0) never suppress.
  // Rows (batch, class, box) in batch, class, selection order; rows past
  // count are -1.
  int64_t maxOutputBoxesPerClass = 0;
  float iouThreshold = 0.5f;
  std::optional<float> scoreThreshold;
  bool centerPointBox = false;

  // Gather: operands {source [B, ...] (rank >= 2, any element type),
  // indices [B, K] i64}; result: the source's type with dimension `axis`
  // (>= 1) replaced by K, result[b, ..., k, ...] = source[b, ..., indices[b,
  // k], ...] (elements copied bit for bit). An index outside [0, size of the
  // source's dimension `axis`) makes the program invalid: validate() rejects
  // what is known statically (a source dimension of 0 with indices to read),
  // the reference reports the others as an error. The generators only feed a
  // gather the indices of a top-k over the gathered dimension (NmsGenerator's
  // pre-filter), which are in range by construction.
  int64_t axis = 1;
};

/// A program: one function `@main(inputs...) -> (outputs...)`.
struct Program {
  std::vector<TensorType> values; ///< the type of every SSA tensor value, by id
  std::vector<int> inputs;        ///< value ids of the function arguments
  std::vector<Op> ops;            ///< in program order (defs before uses)
  std::vector<int> outputs;       ///< value ids returned, in order (at least one)

  /// Adds a value of `type`, returning its id.
  int addValue(TensorType type) {
    values.push_back(std::move(type));
    return static_cast<int>(values.size()) - 1;
  }
  /// Number of ops times the elements they produce: the size measure used by
  /// reduction and reports.
  int64_t weight() const;
};

/// Stable names for messages, reports and descriptor tables.
std::string_view toString(OpKind kind);
std::string_view toString(EwKind kind);
std::string_view toString(SortOrder order);
std::string_view toString(ComparatorKind kind);

/// Checks the model's own invariants (value ids in range, defs before uses,
/// shapes and types consistent per op, k in [0, n], dimensions in range, slice
/// bounds). Returns an empty string when valid, else what is wrong. A program
/// that fails this is a generator bug (`gen-invalid`).
std::string validate(const Program &program);

} // namespace sift::gen
