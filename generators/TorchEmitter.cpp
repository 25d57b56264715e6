//===- generators/TorchEmitter.cpp - The torch and ONNX front ends --------===//
//
// A program as PyTorch and ONNX models reach IREE: @main takes and returns
// !torch.vtensor values; sort, top-k and NMS are torch.aten ops (torch) or
// ONNX operators in the torch dialect, `torch.operator "onnx.TopK"` and
// friends, as iree-import-onnx writes them (onnx, with the module's
// torch.onnx_meta attributes, which make iree-compile take the ONNX input
// path). Everything else stays the linalg and tensor text of the other
// front ends, reached through torch_c.to_builtin_tensor and
// torch_c.from_builtin_tensor, so the three front ends differ exactly in
// how the ops under test are spelled.
//
// Spellings of the model's ops:
// - sort: the key itself (named orders, Less, Greater), its absolute value
//   (LessAbs) or its low byte (LessLowByte) is sorted ascending or
//   descending: torch.aten.sort, or onnx.TopK with k the size of the
//   dimension (onnx.Shape when it is dynamic); the indices then move the
//   key (when it was transformed) and every payload with torch.aten.gather
//   or onnx.GatherElements.
// - top-k: torch.aten.topk (sorted), onnx.TopK (sorted).
// - NMS (ONNX only): onnx.NonMaxSuppression on f32 boxes and scores (f16
//   ones go through onnx.Cast, exact), the maximum clamped at 0; its
//   [selected, 3] rows are padded with -1 to the model's fixed capacity
//   (tensor.pad) and counted (tensor.dim): the model's two results.
//
//===----------------------------------------------------------------------===//

#include "generators/Emitter.h"

#include <algorithm>

namespace sift::gen::detail {

namespace {

/// The torch dialect's name of an element type.
std::string torchElement(ElementType type) {
  switch (type) {
  case ElementType::I32: return "si32";
  case ElementType::I64: return "si64";
  default: return std::string(toString(type));
  }
}

/// ONNX's TensorProto data type number of an element type (onnx.Cast).
int onnxDataType(ElementType type) {
  switch (type) {
  case ElementType::F32: return 1;
  case ElementType::I32: return 6;
  case ElementType::I64: return 7;
  case ElementType::F16: return 10;
  case ElementType::F64: return 11;
  case ElementType::BF16: return 16;
  }
  return 0;
}

} // namespace

std::string Emitter::vtensorTypeWith(const TensorType &t,
                                     const std::vector<bool> &d) const {
  std::string s = "!torch.vtensor<[";
  for (size_t i = 0; i < t.shape.size(); ++i)
    s += (i ? "," : "") +
         (d[i] ? std::string("?") : std::to_string(t.shape[i]));
  return s + "]," + torchElement(t.elementType) + ">";
}

std::string Emitter::vtensorType(int id) const {
  return vtensorTypeWith(tensor(id), dyn[static_cast<size_t>(id)]);
}

std::string Emitter::toTorch(int id, const std::string &tag) {
  out += "    " + tag + " = torch_c.from_builtin_tensor " + name(id) + " : " +
         type(id) + " -> " + vtensorType(id) + "\n";
  return tag;
}

std::string Emitter::sortOperand(const Op &op, size_t i,
                                 const std::string &prefix) {
  const int id = op.operands[i];
  const std::vector<bool> &joined = dyn[static_cast<size_t>(op.results[0])];
  const std::string tag = prefix + "_" + std::to_string(i);
  std::string builtin = castTo(name(id), id, joined, "%cast" + tag.substr(1));
  out += "    " + tag + " = torch_c.from_builtin_tensor " + builtin + " : " +
         typeWith(tensor(id), joined) + " -> " +
         vtensorTypeWith(tensor(id), joined) + "\n";
  return tag;
}

void Emitter::fromTorch(int id, const std::string &torchValue) {
  out += "    " + defineValue(id) + " = torch_c.to_builtin_tensor " +
         torchValue + " : " + vtensorType(id) + " -> " + type(id) + "\n";
}

std::string Emitter::onnxConstant(const std::string &ssa,
                                  const std::string &value,
                                  const std::string &element) {
  std::string ty = "!torch.vtensor<[1]," + element + ">";
  out += "    " + ssa + " = torch.operator \"onnx.Constant\"() "
         "{torch.onnx.value = dense<" + value + "> : tensor<1x" + element +
         ">} : () -> " + ty + "\n";
  return ty;
}

std::string Emitter::emitTorchModule() {
  std::string signature, results;
  for (size_t i = 0; i < program.inputs.size(); ++i)
    signature += (i ? ", " : "") + std::string("%arg") + std::to_string(i) +
                 ": " + vtensorType(program.inputs[i]);
  for (size_t i = 0; i < program.outputs.size(); ++i)
    results += (i ? ", " : "") + vtensorType(program.outputs[i]);
  out += "module {\n  func.func @main(" + signature + ") -> (" + results + ")";
  if (frontEnd == FrontEnd::Onnx)
    out += " attributes {torch.onnx_meta.ir_version = 10 : si64, "
           "torch.onnx_meta.opset_version = 21 : si64, "
           "torch.onnx_meta.producer_name = \"sift\", "
           "torch.onnx_meta.producer_version = \"\"}";
  out += " {\n";
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    int id = program.inputs[i];
    out += "    %in" + std::to_string(i) + " = torch_c.to_builtin_tensor %arg" +
           std::to_string(i) + " : " + vtensorType(id) + " -> " + type(id) +
           "\n";
    names[static_cast<size_t>(id)] = "%in" + std::to_string(i);
  }
  emitBody();
  std::string returned;
  for (size_t i = 0; i < program.outputs.size(); ++i) {
    std::string r = "%ret" + std::to_string(i);
    toTorch(program.outputs[i], r);
    returned += (i ? ", " : "") + r;
  }
  out += "    return " + returned + " : " + results + "\n  }\n}\n";
  return std::move(out);
}

/// Emits the key a torch-like sort sorts (its operand itself, |key| or its
/// low byte) and returns its name.
std::string Emitter::emitTorchSortKey(const std::string &idx, const Op &op,
                                      const std::string &torchKey,
                                      const std::string &keyType,
                                      bool transformed) {
  const bool onnx = frontEnd == FrontEnd::Onnx;
  const int key = op.operands[0];
  std::string sorted = torchKey;
  if (transformed && op.comparator == ComparatorKind::LessAbs) {
    sorted = "%abs" + idx;
    out += "    " + sorted +
           (onnx ? " = torch.operator \"onnx.Abs\"(" + torchKey + ") : (" +
                       keyType + ")"
                 : " = torch.aten.abs " + torchKey + " : " + keyType) +
           " -> " + keyType + "\n";
  } else if (transformed) {
    sorted = "%low" + idx;
    const std::string mask = "%mask" + idx;
    if (onnx) {
      std::string maskType = onnxConstant(
          mask, "255", torchElement(tensor(key).elementType));
      out += "    " + sorted + " = torch.operator \"onnx.BitwiseAnd\"(" +
             torchKey + ", " + mask + ") : (" + keyType + ", " + maskType +
             ") -> " + keyType + "\n";
    } else {
      out += "    " + mask + " = torch.constant.int 255\n";
      out += "    " + sorted + " = torch.aten.bitwise_and.Scalar " + torchKey +
             ", " + mask + " : " + keyType + ", !torch.int -> " + keyType +
             "\n";
    }
  }
  return sorted;
}

/// Emits a torch-like sort of `sorted` (onnx.TopK of the whole dimension,
/// or torch.aten.sort) and returns its values and its order (the i64
/// indices that move the operands).
std::pair<std::string, std::string>
Emitter::emitTorchSort(const std::string &idx, const Op &op,
                       const std::string &sorted, const std::string &torchKey,
                       const std::string &keyType, const std::string &indices,
                       bool descending) {
  const bool onnx = frontEnd == FrontEnd::Onnx;
  const int key = op.operands[0];
  const std::string dimText = std::to_string(op.dimension);
  std::string values, order;
  if (onnx) {
    // k: the size of the sorted dimension.
    const std::string k = "%k" + idx;
    const std::string kType = "!torch.vtensor<[1],si64>";
    if (isDynamic(op.results[0], static_cast<size_t>(op.dimension)))
      out += "    " + k + " = torch.operator \"onnx.Shape\"(" + torchKey +
             ") {torch.onnx.end = " + std::to_string(op.dimension + 1) +
             " : si64, torch.onnx.start = " + dimText + " : si64} : (" +
             keyType + ") -> " + kType + "\n";
    else
      onnxConstant(k, std::to_string(tensor(key).shape[op.dimension]), "si64");
    values = "%top" + idx + "#0";
    order = "%top" + idx + "#1";
    out += "    %top" + idx + ":2 = torch.operator \"onnx.TopK\"(" + sorted +
           ", " + k + ") {torch.onnx.axis = " + dimText +
           " : si64, torch.onnx.largest = " + (descending ? "1" : "0") +
           " : si64, torch.onnx.sorted = 1 : si64} : (" + keyType + ", " +
           kType + ") -> (" + keyType + ", " + indices + ")\n";
  } else {
    values = "%sv" + idx;
    order = "%si" + idx;
    out += "    %dim" + idx + " = torch.constant.int " + dimText + "\n";
    out += "    %desc" + idx + " = torch.constant.bool " +
           (descending ? "true" : "false") + "\n";
    out += "    " + values + ", " + order + " = torch.aten.sort " + sorted +
           ", %dim" + idx + ", %desc" + idx + " : " + keyType +
           ", !torch.int, !torch.bool -> " + keyType + ", " + indices + "\n";
    out += "    %sparse" + idx + " = torch.constant.bool false\n";
  }
  return {values, order};
}

void Emitter::emitTorchLikeSort(size_t index, const Op &op) {
  const bool onnx = frontEnd == FrontEnd::Onnx;
  const std::string idx = std::to_string(index);
  const int key = op.operands[0];
  const std::string keyType = vtensorType(op.results[0]);
  // Every operand as the results' type (dynamic where any operand is).
  std::vector<std::string> torchOperands;
  for (size_t i = 0; i < op.operands.size(); ++i)
    torchOperands.push_back(sortOperand(op, i, "%to" + idx));
  const std::string &torchKey = torchOperands[0];
  bool descending = op.order == SortOrder::Descending ||
                    (op.order == SortOrder::Comparator &&
                     op.comparator == ComparatorKind::Greater);
  bool transformed = op.order == SortOrder::Comparator &&
                     (op.comparator == ComparatorKind::LessAbs ||
                      op.comparator == ComparatorKind::LessLowByte);
  // The key sorted: itself, |key| or its low byte.
  const std::string sorted =
      emitTorchSortKey(idx, op, torchKey, keyType, transformed);
  TensorType indexType = tensor(key);
  indexType.elementType = ElementType::I64;
  const std::string indices =
      vtensorTypeWith(indexType, dyn[static_cast<size_t>(op.results[0])]);
  const std::string dimText = std::to_string(op.dimension);
  // The sort: values and the order (i64 indices) that moves the operands.
  auto [values, order] =
      emitTorchSort(idx, op, sorted, torchKey, keyType, indices, descending);
  // The payloads, and a transformed key, moved by the order.
  for (size_t i = 0; i < op.results.size(); ++i) {
    std::string moved = values;
    if (i > 0 || transformed) {
      moved = "%sg" + idx + "_" + std::to_string(i);
      std::string ty = vtensorType(op.results[i]);
      out += "    " + moved +
             (onnx ? " = torch.operator \"onnx.GatherElements\"(" +
                         torchOperands[i] + ", " + order +
                         ") {torch.onnx.axis = " + dimText + " : si64} : (" +
                         ty + ", " + indices + ")"
                   : " = torch.aten.gather " + torchOperands[i] + ", %dim" +
                         idx + ", " + order + ", %sparse" + idx + " : " + ty +
                         ", !torch.int, " + indices + ", !torch.bool") +
             " -> " + ty + "\n";
    }
    fromTorch(op.results[i], moved);
  }
}

void Emitter::emitTorchTopK(size_t index, const Op &op) {
  const std::string idx = std::to_string(index);
  const int input = op.operands[0], values = op.results[0],
            indices = op.results[1];
  std::string in = toTorch(input, "%to" + idx + "_0");
  out += "    %k" + idx + " = torch.constant.int " + std::to_string(op.k) +
         "\n";
  out += "    %dim" + idx + " = torch.constant.int " +
         std::to_string(op.dimension) + "\n";
  out += "    %largest" + idx + " = torch.constant.bool " +
         (op.largest ? "true" : "false") + "\n";
  out += "    %sorted" + idx + " = torch.constant.bool true\n";
  out += "    %tv" + idx + ", %ti" + idx + " = torch.aten.topk " + in + ", %k" +
         idx + ", %dim" + idx + ", %largest" + idx + ", %sorted" + idx +
         " : " + vtensorType(input) +
         ", !torch.int, !torch.int, !torch.bool, !torch.bool -> " +
         vtensorType(values) + ", " + vtensorType(indices) + "\n";
  fromTorch(values, "%tv" + idx);
  fromTorch(indices, "%ti" + idx);
}

void Emitter::emitOnnxTopK(size_t index, const Op &op) {
  const std::string idx = std::to_string(index);
  const int input = op.operands[0], values = op.results[0],
            indices = op.results[1];
  std::string in = toTorch(input, "%to" + idx + "_0");
  std::string kType = onnxConstant("%k" + idx, std::to_string(op.k), "si64");
  out += "    %top" + idx + ":2 = torch.operator \"onnx.TopK\"(" + in + ", %k" +
         idx + ") {torch.onnx.axis = " + std::to_string(op.dimension) +
         " : si64, torch.onnx.largest = " + (op.largest ? "1" : "0") +
         " : si64, torch.onnx.sorted = 1 : si64} : (" + vtensorType(input) +
         ", " + kType + ") -> (" + vtensorType(values) + ", " +
         vtensorType(indices) + ")\n";
  fromTorch(values, "%top" + idx + "#0");
  fromTorch(indices, "%top" + idx + "#1");
}

void Emitter::emitOnnxNms(size_t index, const Op &op) {
  const std::string idx = std::to_string(index);
  const int selected = op.results[0], count = op.results[1];
  std::string boxes = toTorch(op.operands[0], "%to" + idx + "_0");
  std::string scores = toTorch(op.operands[1], "%to" + idx + "_1");
  std::string boxesType = vtensorType(op.operands[0]),
              scoresType = vtensorType(op.operands[1]);
  // ONNX's NonMaxSuppression takes f32 only: f16 widens exactly.
  auto widen = [&](std::string &value, std::string &ty, int id,
                   const std::string &tag) {
    if (tensor(id).elementType != ElementType::F16)
      return;
    TensorType wide = tensor(id);
    wide.elementType = ElementType::F32;
    std::string wideType = vtensorTypeWith(wide, dyn[static_cast<size_t>(id)]);
    out += "    " + tag + " = torch.operator \"onnx.Cast\"(" + value +
           ") {torch.onnx.to = " + std::to_string(onnxDataType(ElementType::F32)) +
           " : si64} : (" + ty + ") -> " + wideType + "\n";
    value = tag;
    ty = wideType;
  };
  widen(boxes, boxesType, op.operands[0], "%wb" + idx);
  widen(scores, scoresType, op.operands[1], "%ws" + idx);
  const int64_t maxOut = std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
  std::string operands = boxes + ", " + scores + ", %mo" + idx + ", %iou" + idx;
  std::string types = boxesType + ", " + scoresType + ", " +
                      onnxConstant("%mo" + idx, std::to_string(maxOut), "si64") +
                      ", " + onnxConstant("%iou" + idx, f32Hex(op.iouThreshold), "f32");
  if (op.scoreThreshold) {
    types += ", " + onnxConstant("%st" + idx, f32Hex(*op.scoreThreshold), "f32");
    operands += ", %st" + idx;
  }
  out += "    %nms" + idx + " = torch.operator \"onnx.NonMaxSuppression\"(" +
         operands + ") {torch.onnx.center_point_box = " +
         (op.centerPointBox ? "1" : "0") + " : si64} : (" + types +
         ") -> !torch.vtensor<[?,3],si64>\n";
  // The selected rows, padded with -1 to the model's capacity, and counted.
  const std::string rows = "%rows" + idx, n = "%n" + idx;
  out += "    " + rows + " = torch_c.to_builtin_tensor %nms" + idx +
         " : !torch.vtensor<[?,3],si64> -> tensor<?x3xi64>\n";
  out += "    %zero" + idx + " = arith.constant 0 : index\n";
  out += "    " + n + " = tensor.dim " + rows + ", %zero" + idx +
         " : tensor<?x3xi64>\n";
  out += "    %cap" + idx + " = arith.constant " +
         std::to_string(tensor(selected).shape[0]) + " : index\n";
  out += "    %high" + idx + " = arith.subi %cap" + idx + ", " + n + " : index\n";
  out += "    %fill" + idx + " = arith.constant -1 : i64\n";
  out += "    %pad" + idx + " = tensor.pad " + rows + " low[0, 0] high[%high" +
         idx + ", 0] {\n    ^bb0(%pi" + idx + ": index, %pj" + idx +
         ": index):\n      tensor.yield %fill" + idx +
         " : i64\n    } : tensor<?x3xi64> to tensor<?x3xi64>\n";
  out += "    " + defineValue(selected) + " = tensor.cast %pad" + idx +
         " : tensor<?x3xi64> to " + type(selected) + "\n";
  out += "    %n64" + idx + " = arith.index_cast " + n + " : index to i64\n";
  out += "    " + defineValue(count) + " = tensor.from_elements %n64" + idx +
         " : " + type(count) + "\n";
}

} // namespace sift::gen::detail
