//===- generators/OnnxEmitter.cpp - A program as an ONNX model ------------===//
//
// emitOnnxModel (Exchange.h): the bytes of an ONNX ModelProto (IR version 8,
// default domain at opset 17, or 18 when the program needs BitwiseXor) whose
// graph takes `input_<i>` and returns `output_<i>`, all with static shapes,
// written by OnnxWriter.h. Constants are initializers holding the exact bits
// of the model's constants.
//
// Spellings of the model's ops:
// - float elementwise: Neg, Abs, Add, Sub, Mul (a "Const" op with a scalar
//   initializer of the element type); Sigmoid as its four steps Neg, Exp,
//   Add 1, Div 1 / d, each one rounded to the element type as the model
//   says. maximumf / minimumf are composed, since ONNX's Max and Min say
//   nothing of NaN or signed zeros (and ONNX Runtime's Max returns either
//   zero): Where(IsNaN(a), a, Where(IsNaN(b), b, Where(Equal(a, b), the
//   zero of the right sign, Where(Greater or Less, a, b)))), a zero's sign
//   read as the sign of 1 / a.
// - integer elementwise: Add, Sub, Mul (wrapping), Max, Min, BitwiseXor
//   (which makes the model opset 18; nothing else the emitter uses changed
//   between 17 and 18); casts: Cast.
// - iota: Range(0, n, 1) reshaped to the op's dimension and expanded.
// - slice: Slice with starts, ends, axes and steps initializers.
// - gather: GatherElements on indices [B, K] reshaped to [B, .., K, .., 1]
//   (K at the axis) and expanded to the result's shape.
// - sort: TopK with k the size of the dimension (ties to the lower index,
//   so stable) of the key itself (named orders, Less, Greater), of |key|
//   (LessAbs) or of its low byte (LessLowByte: Mod(key, 256), the
//   non-negative remainder, because opset 17 has no BitwiseAnd), largest
//   for the descending orders; the indices move the payloads, and a
//   transformed key, with GatherElements. A sort of an empty dimension is
//   the identity.
// - top-k: TopK (largest or smallest, sorted = 1). With k = 0 the results
//   are empty initializers (TopK's K is "a single positive value").
// - NMS: NonMaxSuppression on f32 boxes and scores (f16 ones Cast, exact),
//   with max_output_boxes_per_class (clamped at 0), iou_threshold and
//   score_threshold (when given) as [1]-shaped initializers and the
//   center_point_box attribute; its [n, 3] rows are padded with -1 to the
//   model's fixed capacity (Pad) and counted (Shape from 0 to 1).
//
//===----------------------------------------------------------------------===//
#include "generators/Exchange.h"
#include "generators/OnnxWriter.h"
#include "support/Half.h"

#include <algorithm>

namespace sift::gen {

namespace {

using onnx::DataType;

/// `width` little-endian bytes of `bits`.
std::string littleEndian(uint64_t bits, size_t width) {
  std::string bytes;
  for (size_t i = 0; i < width; ++i)
    bytes.push_back(static_cast<char>((bits >> (8 * i)) & 0xFF));
  return bytes;
}

/// The bits of `value` in the float element type `type` (exact there).
uint64_t floatBits(double value, ElementType type) {
  switch (type) {
  case ElementType::F16: return doubleToHalf(value);
  case ElementType::F32: return bitCast<uint32_t>(static_cast<float>(value));
  default: return bitCast<uint64_t>(value);
  }
}

/// Writes the graph of one program.
class OnnxGraph {
public:
  explicit OnnxGraph(const Program &program)
      : program(program), names(program.values.size()) {}

  /// The model's bytes.
  std::string emit();

private:
  const TensorType &tensor(int id) const {
    return program.values[static_cast<size_t>(id)];
  }
  const std::string &name(int id) const {
    return names[static_cast<size_t>(id)];
  }

  /// A name no other tensor has: "<prefix><n>".
  std::string fresh(const char *prefix) {
    return prefix + std::to_string(counter++);
  }
  /// A node writing `outputs`.
  void node(std::string_view opType, const std::vector<std::string> &inputs,
            const std::vector<std::string> &outputs,
            const std::vector<std::string> &attributes = {}) {
    parts.nodes.push_back(
        onnx::nodeProto(opType, inputs, outputs,
                        "n" + std::to_string(parts.nodes.size()), attributes));
  }
  /// A node with one output, a fresh temporary; returns its name.
  std::string temp(std::string_view opType,
                   const std::vector<std::string> &inputs,
                   const std::vector<std::string> &attributes = {}) {
    std::string out = fresh("t");
    node(opType, inputs, {out}, attributes);
    return out;
  }
  /// An initializer; returns its name.
  std::string constant(DataType type, const std::vector<int64_t> &dims,
                       const std::string &rawData) {
    std::string constantName = fresh("c");
    parts.initializers.push_back(
        onnx::tensorProto(constantName, type, dims, rawData));
    return constantName;
  }
  /// A 1-D i64 initializer holding `values`.
  std::string int64s(const std::vector<int64_t> &values) {
    std::string raw;
    for (int64_t v : values)
      raw += littleEndian(static_cast<uint64_t>(v), 8);
    return constant(DataType::Int64, {static_cast<int64_t>(values.size())},
                    raw);
  }
  /// A rank-0 initializer of element type `type`: the float `value` (exact
  /// in it) or the integer `intValue`.
  std::string scalar(ElementType type, double value, int64_t intValue = 0) {
    uint64_t bits = isFloat(type) ? floatBits(value, type)
                                  : static_cast<uint64_t>(intValue);
    return constant(onnx::dataTypeOf(type), {},
                    littleEndian(bits, byteWidth(type)));
  }
  /// A rank-0 initializer of the integer `value`.
  std::string intScalar(ElementType type, int64_t value) {
    return scalar(type, 0.0, value);
  }
  /// An empty initializer of `type` (numElements() == 0).
  std::string empty(ElementType element, const std::vector<int64_t> &shape) {
    return constant(onnx::dataTypeOf(element), shape, "");
  }

  void emitOp(const Op &op);
  void elementwise(const Op &op);
  void sigmoid(const Op &op);
  void minMax(const Op &op);
  void iota(const Op &op);
  void slice(const Op &op);
  void gather(const Op &op);
  void sort(const Op &op);
  void topK(const Op &op);
  void nms(const Op &op);
  /// `value` reshaped to `shape` (zeros kept as zeros).
  std::string reshape(const std::string &value,
                      const std::vector<int64_t> &shape) {
    return temp("Reshape", {value, int64s(shape)},
                {onnx::intAttribute("allowzero", 1)});
  }

  const Program &program;
  std::vector<std::string> names;
  onnx::GraphParts parts;
  int counter = 0;
  bool needsOpset18 = false;
};

std::string OnnxGraph::emit() {
  parts.name = "main";
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    int id = program.inputs[i];
    names[static_cast<size_t>(id)] = "input_" + std::to_string(i);
    parts.inputs.push_back(onnx::valueInfo(
        name(id), onnx::dataTypeOf(tensor(id).elementType), tensor(id).shape));
  }
  for (size_t id = 0; id < names.size(); ++id)
    if (names[id].empty())
      names[id] = "v" + std::to_string(id);
  for (const Op &op : program.ops)
    emitOp(op);
  for (size_t i = 0; i < program.outputs.size(); ++i) {
    int id = program.outputs[i];
    std::string out = "output_" + std::to_string(i);
    node("Identity", {name(id)}, {out});
    parts.outputs.push_back(onnx::valueInfo(
        out, onnx::dataTypeOf(tensor(id).elementType), tensor(id).shape));
  }
  return onnx::modelProto(8, needsOpset18 ? 18 : 17, "sift",
                          onnx::graphProto(parts));
}

void OnnxGraph::emitOp(const Op &op) {
  switch (op.kind) {
  case OpKind::Elementwise: return elementwise(op);
  case OpKind::Iota: return iota(op);
  case OpKind::Sort: return sort(op);
  case OpKind::TopK: return topK(op);
  case OpKind::Slice: return slice(op);
  case OpKind::Nms: return nms(op);
  case OpKind::Gather: return gather(op);
  }
}

void OnnxGraph::elementwise(const Op &op) {
  const std::string &a = name(op.operands[0]);
  const std::string &result = name(op.results[0]);
  const ElementType type = tensor(op.results[0]).elementType;
  auto binary = [&](std::string_view opType) {
    node(opType, {a, name(op.operands[1])}, {result});
  };
  switch (op.ew) {
  case EwKind::NegF: return node("Neg", {a}, {result});
  case EwKind::AbsF: return node("Abs", {a}, {result});
  case EwKind::Sigmoid: return sigmoid(op);
  case EwKind::AddConstF:
    return node("Add", {a, scalar(type, op.constant)}, {result});
  case EwKind::MulConstF:
    return node("Mul", {a, scalar(type, op.constant)}, {result});
  case EwKind::AddConstI:
    return node("Add", {a, intScalar(type, op.intConstant)}, {result});
  case EwKind::MulConstI:
    return node("Mul", {a, intScalar(type, op.intConstant)}, {result});
  case EwKind::AddF:
  case EwKind::AddI: return binary("Add");
  case EwKind::SubF:
  case EwKind::SubI: return binary("Sub");
  case EwKind::MulF:
  case EwKind::MulI: return binary("Mul");
  case EwKind::MaximumF:
  case EwKind::MinimumF: return minMax(op);
  case EwKind::MaxSI: return binary("Max");
  case EwKind::MinSI: return binary("Min");
  case EwKind::XOrI: needsOpset18 = true; return binary("BitwiseXor");
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI:
  case EwKind::TruncI:
    return node("Cast", {a}, {result},
                {onnx::intAttribute(
                    "to", static_cast<int64_t>(onnx::dataTypeOf(type)))});
  }
}

void OnnxGraph::sigmoid(const Op &op) {
  const ElementType type = tensor(op.results[0]).elementType;
  std::string one = scalar(type, 1.0);
  std::string negated = temp("Neg", {name(op.operands[0])});
  std::string e = temp("Exp", {negated});
  std::string denominator = temp("Add", {one, e});
  node("Div", {one, denominator}, {name(op.results[0])});
}

void OnnxGraph::minMax(const Op &op) {
  const bool maximum = op.ew == EwKind::MaximumF;
  const ElementType type = tensor(op.results[0]).elementType;
  const std::string &a = name(op.operands[0]);
  const std::string &b = name(op.operands[1]);
  // Equal operands differ at most in the sign of a zero: a is -0 (or
  // negative) when 1 / a < 0; the maximum takes the other one, the minimum
  // this one.
  std::string aNegative =
      temp("Less", {temp("Div", {scalar(type, 1.0), a}), scalar(type, 0.0)});
  std::string equalPick = maximum ? temp("Where", {aNegative, b, a})
                                  : temp("Where", {aNegative, a, b});
  std::string ordered =
      temp("Where", {temp(maximum ? "Greater" : "Less", {a, b}), a, b});
  std::string numeric =
      temp("Where", {temp("Equal", {a, b}), equalPick, ordered});
  std::string bNaN = temp("Where", {temp("IsNaN", {b}), b, numeric});
  node("Where", {temp("IsNaN", {a}), a, bNaN}, {name(op.results[0])});
}

void OnnxGraph::iota(const Op &op) {
  const TensorType &type = tensor(op.results[0]);
  const int64_t n = type.shape[static_cast<size_t>(op.dimension)];
  std::string range = temp("Range", {intScalar(type.elementType, 0),
                                     intScalar(type.elementType, n),
                                     intScalar(type.elementType, 1)});
  std::vector<int64_t> lane(type.shape.size(), 1);
  lane[static_cast<size_t>(op.dimension)] = n;
  node("Expand", {reshape(range, lane), int64s(type.shape)},
       {name(op.results[0])});
}

void OnnxGraph::slice(const Op &op) {
  std::vector<int64_t> ends, axes;
  for (size_t d = 0; d < op.offsets.size(); ++d) {
    // The element after the last one taken; the start itself when none is.
    ends.push_back(op.sizes[d] == 0
                       ? op.offsets[d]
                       : op.offsets[d] + (op.sizes[d] - 1) * op.strides[d] + 1);
    axes.push_back(static_cast<int64_t>(d));
  }
  node("Slice",
       {name(op.operands[0]), int64s(op.offsets), int64s(ends), int64s(axes),
        int64s(op.strides)},
       {name(op.results[0])});
}

void OnnxGraph::gather(const Op &op) {
  const TensorType &result = tensor(op.results[0]);
  const TensorType &indexType = tensor(op.operands[1]);
  std::string indices = name(op.operands[1]);
  if (result.rank() != 2) {
    // [B, K] -> [B, 1, .., K, .., 1] -> the result's shape.
    std::vector<int64_t> lane(result.shape.size(), 1);
    lane[0] = indexType.shape[0];
    lane[static_cast<size_t>(op.axis)] = indexType.shape[1];
    indices = temp("Expand", {reshape(indices, lane), int64s(result.shape)});
  }
  node("GatherElements", {name(op.operands[0]), indices}, {name(op.results[0])},
       {onnx::intAttribute("axis", op.axis)});
}

void OnnxGraph::sort(const Op &op) {
  const int key = op.operands[0];
  const int64_t n = tensor(key).shape[static_cast<size_t>(op.dimension)];
  if (n == 0) {
    // Nothing to order: every result is its operand (empty).
    for (size_t i = 0; i < op.results.size(); ++i)
      node("Identity", {name(op.operands[i])}, {name(op.results[i])});
    return;
  }
  const bool descending = op.order == SortOrder::Descending ||
                          (op.order == SortOrder::Comparator &&
                           op.comparator == ComparatorKind::Greater);
  const bool byAbs = op.order == SortOrder::Comparator &&
                     op.comparator == ComparatorKind::LessAbs;
  const bool byLowByte = op.order == SortOrder::Comparator &&
                         op.comparator == ComparatorKind::LessLowByte;
  std::string sorted = name(key);
  if (byAbs)
    sorted = temp("Abs", {sorted});
  else if (byLowByte)
    sorted = temp("Mod", {sorted, intScalar(tensor(key).elementType, 256)});
  const bool transformed = byAbs || byLowByte;
  std::string values = transformed ? fresh("t") : name(op.results[0]);
  std::string order = fresh("t");
  node("TopK", {sorted, int64s({n})}, {values, order},
       {onnx::intAttribute("axis", op.dimension),
        onnx::intAttribute("largest", descending ? 1 : 0),
        onnx::intAttribute("sorted", 1)});
  for (size_t i = transformed ? 0 : 1; i < op.results.size(); ++i)
    node("GatherElements", {name(op.operands[i]), order}, {name(op.results[i])},
         {onnx::intAttribute("axis", op.dimension)});
}

void OnnxGraph::topK(const Op &op) {
  const int values = op.results[0], indices = op.results[1];
  if (op.k == 0) {
    node("Identity", {empty(tensor(values).elementType, tensor(values).shape)},
         {name(values)});
    node("Identity", {empty(ElementType::I64, tensor(indices).shape)},
         {name(indices)});
    return;
  }
  node("TopK", {name(op.operands[0]), int64s({op.k})},
       {name(values), name(indices)},
       {onnx::intAttribute("axis", op.dimension),
        onnx::intAttribute("largest", op.largest ? 1 : 0),
        onnx::intAttribute("sorted", 1)});
}

void OnnxGraph::nms(const Op &op) {
  // NonMaxSuppression takes f32 only: f16 widens exactly.
  auto asF32 = [&](int id) {
    if (tensor(id).elementType != ElementType::F16)
      return name(id);
    return temp(
        "Cast", {name(id)},
        {onnx::intAttribute("to", static_cast<int64_t>(DataType::Float))});
  };
  auto f32 = [&](float value) {
    return constant(DataType::Float, {1},
                    littleEndian(bitCast<uint32_t>(value), 4));
  };
  std::vector<std::string> inputs = {
      asF32(op.operands[0]), asF32(op.operands[1]),
      int64s({std::max<int64_t>(op.maxOutputBoxesPerClass, 0)}),
      f32(op.iouThreshold)};
  if (op.scoreThreshold)
    inputs.push_back(f32(*op.scoreThreshold));
  std::string rows =
      temp("NonMaxSuppression", inputs,
           {onnx::intAttribute("center_point_box", op.centerPointBox ? 1 : 0)});
  // The count, and the rows padded with -1 up to the capacity.
  const int selected = op.results[0], count = op.results[1];
  node("Shape", {rows}, {name(count)},
       {onnx::intAttribute("start", 0), onnx::intAttribute("end", 1)});
  std::string missing =
      temp("Sub", {int64s({tensor(selected).shape[0]}), name(count)});
  std::string pads = temp("Concat", {int64s({0, 0}), missing, int64s({0})},
                          {onnx::intAttribute("axis", 0)});
  node("Pad", {rows, pads, intScalar(ElementType::I64, -1)}, {name(selected)});
}

} // namespace

Result<std::string> emitOnnxModel(const Program &program) {
  std::string problem = validate(program);
  if (!problem.empty())
    return makeError("onnx: the program is invalid: " + problem);
  return OnnxGraph(program).emit();
}

} // namespace sift::gen
