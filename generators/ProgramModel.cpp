//===- generators/ProgramModel.cpp - Names, size and validation -----------===//
//
// Stable names of the model's enums, the size measure `Program::weight()`,
// and `validate()`, which checks every structural and typing rule of the
// model, including the rules the MLIR verifiers of the emitted ops impose
// (for example `tensor.extract_slice` offsets strictly inside the source).
// A program that fails it is a generator bug (`gen-invalid`).
//
//===----------------------------------------------------------------------===//
#include "generators/ProgramModel.h"
#include "support/Shape.h"

#include "generators/Half.h"
#include "generators/MlirEmitter.h"
#include "generators/OpDescriptors.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sift::gen {

std::string_view toString(OpKind kind) {
  switch (kind) {
  case OpKind::Elementwise: return "elementwise";
  case OpKind::Iota: return "iota";
  case OpKind::Sort: return "sort";
  case OpKind::TopK: return "topk";
  case OpKind::Slice: return "slice";
  case OpKind::Nms: return "nms";
  case OpKind::Gather: return "gather";
  }
  return "?";
}

std::string_view toString(EwKind kind) {
  switch (kind) {
  case EwKind::NegF: return "negf";
  case EwKind::AbsF: return "absf";
  case EwKind::Sigmoid: return "sigmoid";
  case EwKind::AddConstF: return "addf_const";
  case EwKind::MulConstF: return "mulf_const";
  case EwKind::AddF: return "addf";
  case EwKind::SubF: return "subf";
  case EwKind::MulF: return "mulf";
  case EwKind::MaximumF: return "maximumf";
  case EwKind::MinimumF: return "minimumf";
  case EwKind::AddConstI: return "addi_const";
  case EwKind::MulConstI: return "muli_const";
  case EwKind::AddI: return "addi";
  case EwKind::SubI: return "subi";
  case EwKind::MulI: return "muli";
  case EwKind::XOrI: return "xori";
  case EwKind::MaxSI: return "maxsi";
  case EwKind::MinSI: return "minsi";
  case EwKind::ExtF: return "extf";
  case EwKind::TruncF: return "truncf";
  case EwKind::SIToFP: return "sitofp";
  case EwKind::ExtSI: return "extsi";
  case EwKind::TruncI: return "trunci";
  }
  return "?";
}

std::string_view toString(SortOrder order) {
  switch (order) {
  case SortOrder::Ascending: return "ascending";
  case SortOrder::Descending: return "descending";
  case SortOrder::Comparator: return "comparator";
  }
  return "?";
}

std::string_view toString(ComparatorKind kind) {
  switch (kind) {
  case ComparatorKind::Less: return "less";
  case ComparatorKind::Greater: return "greater";
  case ComparatorKind::LessAbs: return "less_abs";
  case ComparatorKind::LessLowByte: return "less_low_byte";
  }
  return "?";
}

/// Every op counts 1 plus the elements of its results, so removing any op
/// (even one producing an empty tensor) strictly lowers the weight.
int64_t Program::weight() const {
  int64_t total = 0;
  for (const Op &op : ops) {
    total += 1;
    for (int id : op.results)
      if (id >= 0 && id < static_cast<int>(values.size()))
        total += values[static_cast<size_t>(id)].numElements();
  }
  return total;
}

namespace {

/// The largest element count a value may have; keeps numElements() and byte
/// sizes far from overflow.
constexpr int64_t kMaxValueElements = int64_t(1) << 40;


bool isKnownElementType(ElementType type) {
  for (ElementType t : kAllElementTypes)
    if (t == type)
      return true;
  return false;
}

/// Checks one op; `program` is known to have valid value ids for `op`.
class OpChecker {
public:
  OpChecker(const Program &program, size_t index, const Op &op)
      : program(program), index(index), op(op) {}

  std::string check() {
    switch (op.kind) {
    case OpKind::Elementwise: return checkElementwise();
    case OpKind::Iota: return checkIota();
    case OpKind::Sort: return checkSort();
    case OpKind::TopK: return checkTopK();
    case OpKind::Slice: return checkSlice();
    case OpKind::Nms: return checkNms();
    case OpKind::Gather: return checkGather();
    }
    return fail("unknown op kind " + std::to_string(static_cast<int>(op.kind)));
  }

private:
  const TensorType &type(int id) const {
    return program.values[static_cast<size_t>(id)];
  }
  const TensorType &operand(size_t i) const { return type(op.operands[i]); }
  const TensorType &result(size_t i) const { return type(op.results[i]); }

  std::string fail(const std::string &what) const {
    return "op " + std::to_string(index) + " (" +
           std::string(toString(op.kind)) + "): " + what;
  }

  std::string expectCounts(size_t operands, size_t results) const {
    if (op.operands.size() != operands)
      return fail("expected " + std::to_string(operands) +
                  " operand(s), found " + std::to_string(op.operands.size()));
    if (op.results.size() != results)
      return fail("expected " + std::to_string(results) + " result(s), found " +
                  std::to_string(op.results.size()));
    return "";
  }

  std::string checkDimension(const TensorType &t) const {
    if (op.dimension < 0 || op.dimension >= t.rank())
      return fail("dimension " + std::to_string(op.dimension) +
                  " out of range for rank " + std::to_string(t.rank()));
    return "";
  }

  std::string checkElementwise() {
    if (static_cast<size_t>(op.ew) >= kNumEwKinds)
      return fail("unknown elementwise kind " +
                  std::to_string(static_cast<int>(op.ew)));
    const EwDescriptor &d = descriptorOf(op.ew);
    std::string name(toString(op.ew));
    if (std::string e = expectCounts(d.arity, 1); !e.empty())
      return e + " for " + name;
    const TensorType &res = result(0);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (operand(i).shape != res.shape)
        return fail(name + ": operand " + std::to_string(i) + " has shape " +
                    shapeString(operand(i).shape) + ", expected the result's " +
                    shapeString(res.shape));
      if (operand(i).elementType != operand(0).elementType)
        return fail(name + ": operands have different element types " +
                    std::string(toString(operand(0).elementType)) + " and " +
                    std::string(toString(operand(i).elementType)));
    }
    ElementType in = operand(0).elementType;
    if (!contains(d.operandTypes, in))
      return fail(name + " does not accept operands of type " +
                  std::string(toString(in)));
    if (!isValidEwTyping(op.ew, in, res.elementType))
      return fail(name + " cannot produce " +
                  std::string(toString(res.elementType)) + " from " +
                  std::string(toString(in)));
    if (d.hasConstant) {
      if (isFloat(in)) {
        if (!isExactFloat(op.constant, in))
          return fail(name + ": constant " + std::to_string(op.constant) +
                      " is not finite and exact in " +
                      std::string(toString(in)));
      } else if (in == ElementType::I32 &&
                 (op.intConstant < std::numeric_limits<int32_t>::min() ||
                  op.intConstant > std::numeric_limits<int32_t>::max())) {
        return fail(name + ": constant " + std::to_string(op.intConstant) +
                    " does not fit in i32");
      }
    }
    return "";
  }

  std::string checkIota() {
    if (std::string e = expectCounts(0, 1); !e.empty())
      return e;
    const TensorType &res = result(0);
    if (res.elementType != ElementType::I32 &&
        res.elementType != ElementType::I64)
      return fail("result must be i32 or i64, found " +
                  std::string(toString(res.elementType)));
    return checkDimension(res);
  }

  std::string checkSort() {
    if (op.operands.empty() || op.operands.size() > 3)
      return fail("expected 1 to 3 operands, found " +
                  std::to_string(op.operands.size()));
    if (op.results.size() != op.operands.size())
      return fail("expected one result per operand (" +
                  std::to_string(op.operands.size()) + "), found " +
                  std::to_string(op.results.size()));
    const TensorType &key = operand(0);
    for (size_t i = 0; i < op.operands.size(); ++i) {
      if (operand(i).shape != key.shape)
        return fail("operand " + std::to_string(i) + " has shape " +
                    shapeString(operand(i).shape) + ", expected the key's " +
                    shapeString(key.shape));
      if (result(i) != operand(i))
        return fail("result " + std::to_string(i) + " has type " +
                    toMlirType(result(i)) + ", expected " +
                    toMlirType(operand(i)));
    }
    if (std::string e = checkDimension(key); !e.empty())
      return e;
    switch (op.order) {
    case SortOrder::Ascending:
    case SortOrder::Descending: return "";
    case SortOrder::Comparator:
      switch (op.comparator) {
      case ComparatorKind::Less:
      case ComparatorKind::Greater: return "";
      case ComparatorKind::LessAbs:
        if (!isFloat(key.elementType))
          return fail("comparator less_abs needs a float key, found " +
                      std::string(toString(key.elementType)));
        return "";
      case ComparatorKind::LessLowByte:
        if (isFloat(key.elementType))
          return fail("comparator less_low_byte needs an integer key, found " +
                      std::string(toString(key.elementType)));
        return "";
      }
      return fail("unknown comparator kind " +
                  std::to_string(static_cast<int>(op.comparator)));
    }
    return fail("unknown sort order " +
                std::to_string(static_cast<int>(op.order)));
  }

  std::string checkTopK() {
    if (std::string e = expectCounts(1, 2); !e.empty())
      return e;
    const TensorType &in = operand(0);
    if (std::string e = checkDimension(in); !e.empty())
      return e;
    int64_t n = in.shape[static_cast<size_t>(op.dimension)];
    if (op.k < 0 || op.k > n)
      return fail("k = " + std::to_string(op.k) + " outside [0, " +
                  std::to_string(n) + "]");
    TensorType values = in;
    values.shape[static_cast<size_t>(op.dimension)] = op.k;
    TensorType indices{ElementType::I64, values.shape};
    if (result(0) != values)
      return fail("values result has type " + toMlirType(result(0)) +
                  ", expected " + toMlirType(values));
    if (result(1) != indices)
      return fail("indices result has type " + toMlirType(result(1)) +
                  ", expected " + toMlirType(indices));
    return "";
  }

  std::string checkSlice() {
    if (std::string e = expectCounts(1, 1); !e.empty())
      return e;
    const TensorType &src = operand(0);
    size_t rank = src.shape.size();
    if (op.offsets.size() != rank || op.sizes.size() != rank ||
        op.strides.size() != rank)
      return fail("offsets, sizes and strides need " + std::to_string(rank) +
                  " entries each, found " + std::to_string(op.offsets.size()) +
                  ", " + std::to_string(op.sizes.size()) + ", " +
                  std::to_string(op.strides.size()));
    for (size_t i = 0; i < rank; ++i) {
      int64_t dim = src.shape[i], off = op.offsets[i], size = op.sizes[i],
              stride = op.strides[i];
      std::string where = "dimension " + std::to_string(i) + " (size " +
                          std::to_string(dim) + "): ";
      if (stride < 1)
        return fail(where + "stride " + std::to_string(stride) +
                    " must be at least 1");
      if (size < 0)
        return fail(where + "negative size " + std::to_string(size));
      // MLIR's verifier wants every static offset strictly inside the source,
      // even for an empty slice, so a source dimension of 0 cannot be sliced.
      if (off < 0 || off >= dim)
        return fail(where + "offset " + std::to_string(off) +
                    " must lie in [0, " + std::to_string(dim) + ")");
      if (size > 0 && (size - 1) > (dim - 1 - off) / stride)
        return fail(where + "last element offset + (size - 1) * stride = " +
                    std::to_string(off) + " + " + std::to_string(size - 1) +
                    " * " + std::to_string(stride) + " is out of bounds");
    }
    if (result(0).elementType != src.elementType)
      return fail("result element type " +
                  std::string(toString(result(0).elementType)) +
                  " differs from the source's " +
                  std::string(toString(src.elementType)));
    if (result(0).shape != op.sizes)
      return fail("result shape " + shapeString(result(0).shape) +
                  " differs from the sizes " + shapeString(op.sizes));
    return "";
  }

  std::string checkNms() {
    if (std::string e = expectCounts(2, 2); !e.empty())
      return e;
    const TensorType &boxes = operand(0), &scores = operand(1);
    auto isBoxType = [](ElementType t) {
      return t == ElementType::F16 || t == ElementType::BF16 ||
             t == ElementType::F32;
    };
    if (!isBoxType(boxes.elementType) || !isBoxType(scores.elementType))
      return fail("boxes and scores must be f16, bf16 or f32, found " +
                  toMlirType(boxes) + " and " + toMlirType(scores));
    if (boxes.rank() != 3 || boxes.shape[2] != 4)
      return fail("boxes must be [B, N, 4], found " + shapeString(boxes.shape));
    if (scores.rank() != 3 || scores.shape[0] != boxes.shape[0] ||
        scores.shape[2] != boxes.shape[1])
      return fail("scores must be [B, C, N] = [" +
                  std::to_string(boxes.shape[0]) + ", C, " +
                  std::to_string(boxes.shape[1]) + "], found " +
                  shapeString(scores.shape));
    if (!(op.iouThreshold >= 0.0f && op.iouThreshold <= 1.0f))
      return fail("iou threshold " + std::to_string(op.iouThreshold) +
                  " outside [0, 1]");
    if (op.scoreThreshold && std::isnan(*op.scoreThreshold))
      return fail("score threshold is NaN");
    int64_t perClass = std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
    int64_t classes = scores.shape[0] * scores.shape[1];
    if (perClass > 0 && classes > kMaxValueElements / perClass)
      return fail("max_output_boxes_per_class " + std::to_string(perClass) +
                  " makes too many rows");
    TensorType selected{ElementType::I64, {classes * perClass, 3}};
    TensorType count{ElementType::I64, {1}};
    if (result(0) != selected)
      return fail("selected result has type " + toMlirType(result(0)) +
                  ", expected " + toMlirType(selected));
    if (result(1) != count)
      return fail("count result has type " + toMlirType(result(1)) +
                  ", expected " + toMlirType(count));
    return "";
  }

  std::string checkGather() {
    if (std::string e = expectCounts(2, 1); !e.empty())
      return e;
    const TensorType &src = operand(0), &indices = operand(1);
    if (indices.elementType != ElementType::I64 || indices.rank() != 2)
      return fail("indices must be [B, K] i64, found " + toMlirType(indices));
    if (src.rank() < 2 || src.shape[0] != indices.shape[0])
      return fail("source must have rank >= 2 and dimension 0 = " +
                  std::to_string(indices.shape[0]) + " (the indices' B), "
                  "found " + shapeString(src.shape));
    if (op.axis < 1 || op.axis >= src.rank())
      return fail("axis " + std::to_string(op.axis) + " outside [1, " +
                  std::to_string(src.rank()) + ")");
    const size_t axis = static_cast<size_t>(op.axis);
    TensorType expected = src;
    expected.shape[axis] = indices.shape[1];
    // Statically out of bounds: elements to read from an empty dimension.
    if (expected.numElements() > 0 && src.shape[axis] == 0)
      return fail("gathers " + std::to_string(indices.shape[1]) +
                  " indices from dimension " + std::to_string(op.axis) +
                  " of size 0");
    if (result(0) != expected)
      return fail("result has type " + toMlirType(result(0)) + ", expected " +
                  toMlirType(expected));
    return "";
  }

  const Program &program;
  size_t index;
  const Op &op;
};

/// Every value's type: a known element type, rank 1 or more, no negative
/// dimension, at most 2^40 elements. "" when they hold.
std::string checkValueTypes(const Program &program) {
  const int numValues = static_cast<int>(program.values.size());
  for (int id = 0; id < numValues; ++id) {
    const TensorType &t = program.values[static_cast<size_t>(id)];
    std::string where = "value " + std::to_string(id) + ": ";
    if (!isKnownElementType(t.elementType))
      return where + "unknown element type " +
             std::to_string(static_cast<int>(t.elementType));
    if (t.shape.empty())
      return where + "rank 0 is not supported (ranks start at 1)";
    int64_t elements = 1;
    for (int64_t d : t.shape) {
      if (d < 0)
        return where + "negative dimension in " + shapeString(t.shape);
      if (d > kMaxValueElements || (d > 0 && elements > kMaxValueElements / d))
        return where + "shape " + shapeString(t.shape) +
               " has more than 2^40 "
               "elements";
      elements *= d;
    }
  }
  return "";
}

/// Op `opIndex`'s operands are defined before it and its results by it
/// alone (recorded in `definedBy`: -2 undefined, -1 an input, else the
/// defining op). `where` names the op in the message. "" when they hold.
std::string checkOpDefinitions(const Op &op, size_t opIndex,
                               std::vector<int> &definedBy,
                               const std::string &where) {
  const int numValues = static_cast<int>(definedBy.size());
  auto inRange = [&](int id) { return id >= 0 && id < numValues; };
  for (size_t i = 0; i < op.operands.size(); ++i) {
    int id = op.operands[i];
    if (!inRange(id))
      return where + "operand " + std::to_string(i) + ": value id " +
             std::to_string(id) + " out of range [0, " +
             std::to_string(numValues) + ")";
    if (definedBy[static_cast<size_t>(id)] == -2)
      return where + "operand " + std::to_string(i) + ": value " +
             std::to_string(id) + " is used before it is defined";
  }
  for (size_t i = 0; i < op.results.size(); ++i) {
    int id = op.results[i];
    if (!inRange(id))
      return where + "result " + std::to_string(i) + ": value id " +
             std::to_string(id) + " out of range [0, " +
             std::to_string(numValues) + ")";
    int previous = definedBy[static_cast<size_t>(id)];
    if (previous != -2)
      return where + "result " + std::to_string(i) + ": value " +
             std::to_string(id) + " is already defined by " +
             (previous == -1 ? std::string("an input")
                             : "op " + std::to_string(previous));
    definedBy[static_cast<size_t>(id)] = static_cast<int>(opIndex);
  }
  return "";
}

} // namespace

std::string validate(const Program &program) {
  const int numValues = static_cast<int>(program.values.size());
  auto inRange = [&](int id) { return id >= 0 && id < numValues; };

  if (std::string e = checkValueTypes(program); !e.empty())
    return e;

  // Definitions: every value defined at most once, by an input or an op,
  // and used only after its definition.
  std::vector<int> definedBy(static_cast<size_t>(numValues), -2); // -1: input
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    int id = program.inputs[i];
    if (!inRange(id))
      return "input " + std::to_string(i) + ": value id " + std::to_string(id) +
             " out of range [0, " + std::to_string(numValues) + ")";
    if (definedBy[static_cast<size_t>(id)] != -2)
      return "input " + std::to_string(i) + ": value " + std::to_string(id) +
             " is already an input";
    definedBy[static_cast<size_t>(id)] = -1;
  }
  for (size_t opIndex = 0; opIndex < program.ops.size(); ++opIndex) {
    const Op &op = program.ops[opIndex];
    std::string where = "op " + std::to_string(opIndex) + " (" +
                        std::string(toString(op.kind)) + "): ";
    if (std::string e = checkOpDefinitions(op, opIndex, definedBy, where);
        !e.empty())
      return e;
    if (std::string e = OpChecker(program, opIndex, op).check(); !e.empty())
      return e;
  }

  // Outputs. (A value nothing defines is tolerated while nothing uses it, so
  // a reducer may delete ops without renumbering values.)
  if (program.outputs.empty())
    return "the program has no outputs (at least one is required)";
  for (size_t i = 0; i < program.outputs.size(); ++i) {
    int id = program.outputs[i];
    if (!inRange(id))
      return "output " + std::to_string(i) + ": value id " +
             std::to_string(id) + " out of range [0, " +
             std::to_string(numValues) + ")";
    if (definedBy[static_cast<size_t>(id)] == -2)
      return "output " + std::to_string(i) + ": value " + std::to_string(id) +
             " is never defined";
  }
  return "";
}

} // namespace sift::gen
