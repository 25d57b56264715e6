//===- generators/PyTorchEmitter.cpp - Programs as PyTorch Python ---------===//
//
// The `pytorch` exchange format: a Python module that imports torch (and
// torchvision when the program has an NMS) and defines `program(*args)`,
// which computes the model's function on torch tensors and returns one
// tensor per result, in order. A value is the Python variable `v<id>`; the
// arguments are bound from `args`, and tensors the program creates itself
// (iotas, NMS rows) go on the device of the first argument.
//
// Spellings of the model's ops:
// - elementwise: one torch op per model step, so every step is rounded to
//   the element type as the model says (sigmoid is spelled as its three
//   steps, 1 / (1 + exp(-x))); constants are exact Python literals;
//   maximumf and minimumf are torch.maximum and torch.minimum (NaN wins)
//   with equal operands resolved as IEEE maximum / minimum do (+0 > -0);
//   integer ops wrap as torch's do; casts are Tensor.to.
// - iota: torch.arange along the dimension, reshaped and expanded.
// - slice: Python slicing with start, stop and step per dimension.
// - gather: torch.gather, the [B, K] indices reshaped and expanded to the
//   result's shape.
// - sort: torch.sort(stable=True) of the key (named orders, Less,
//   Greater), its absolute value (LessAbs) or its low byte (LessLowByte),
//   descending for `descending` and Greater; the returned indices then move
//   every payload, and a transformed key, with torch.gather.
// - top-k: torch.topk(k, dim, largest, sorted=True).
// - NMS: the helper `_nms` printed at the top of the module composes ONNX
//   NonMaxSuppression from torchvision.ops.nms, one (batch, class) at a
//   time: scores at or below the threshold are put last, the candidates
//   ordered by a stable descending sort (NaN first, ties to the lower box
//   index) and handed to torchvision with strictly decreasing stand-in
//   scores, so torchvision's own order of equal scores never matters;
//   boxes become (xmin, ymin, xmax, ymax) corners in f32 first (the
//   model's min / max of two corners, or center -/+ size / 2); two
//   zero-area boxes follow them, because torchvision's fake nms (what
//   torch.compile traces) promises at least two kept boxes; the kept
//   boxes are cut to the candidates and to max_output_boxes_per_class,
//   written as (batch, class, box) rows padded with -1, compacted over
//   all classes and counted.
//
//===----------------------------------------------------------------------===//

#include "generators/Exchange.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sift::gen {

namespace {

/// The `_nms` helper the module defines when the program has an NMS: boxes
/// [B, N, 4] and scores [B, C, N] (f16 or f32) in, the model's selected
/// [B * C * max_out, 3] i64 rows and count [1] i64 out.
constexpr const char *kNmsHelper = R"py(
def _nms_corners(boxes, center):
    # One batch's boxes [N, 4] in f32 as torchvision's (x1, y1, x2, y2).
    a, b, c, d = boxes.unbind(1)
    if center:
        half_w = c / 2.0
        half_h = d / 2.0
        return torch.stack([a - half_w, b - half_h, a + half_w, b + half_h], 1)
    return torch.stack([torch.minimum(b, d), torch.minimum(a, c),
                        torch.maximum(b, d), torch.maximum(a, c)], 1)


def _nms_class(corners, scores, b, c, max_out, iou, threshold):
    # The rows [max_out, 3] of one (batch, class), -1 past its count.
    n = scores.shape[0]
    dev = scores.device
    m = min(max_out, n)
    rows = torch.full((max_out, 3), -1, dtype=torch.int64, device=dev)
    if m == 0:
        return rows
    if threshold is None:
        order = torch.sort(scores, descending=True, stable=True).indices
        candidates = n
    else:
        above = scores > threshold
        keyed = torch.where(above, scores, float("-inf"))
        order = torch.sort(keyed, descending=True, stable=True).indices
        candidates = above.sum()
    rank = torch.arange(n, device=dev)
    # Stand-in scores n, n - 1, ..., -1: torchvision visits the boxes in
    # `order`, then two zero-area boxes, which suppress nothing and are
    # never suppressed (torchvision's fake nms for torch.compile asserts
    # that at least two boxes are kept).
    standin = torch.arange(n, -2, -1, dtype=torch.float32, device=dev)
    padded = torch.cat([corners[order], torch.zeros((2, 4), device=dev)])
    keep = torchvision.ops.nms(padded, standin, iou)
    chosen = torch.zeros(n + 2, dtype=torch.bool, device=dev)
    chosen = chosen.index_fill(0, keep, True)[:n]
    chosen = chosen & (rank < candidates)
    chosen = chosen & (torch.cumsum(chosen.to(torch.int64), 0) <= max_out)
    count = chosen.sum()
    first = torch.sort((~chosen).to(torch.uint8), stable=True).indices[:m]
    picked = torch.stack([torch.full((m,), b, dtype=torch.int64, device=dev),
                          torch.full((m,), c, dtype=torch.int64, device=dev),
                          order[first]], 1)
    valid = (rank[:m] < count).unsqueeze(1)
    picked = torch.where(valid, picked, torch.full_like(picked, -1))
    return torch.cat([picked, rows[m:]])


def _nms(boxes, scores, max_out, iou, threshold, center):
    nb, nc, n = scores.shape
    dev = scores.device
    if nb * nc * max_out == 0:
        return (torch.full((0, 3), -1, dtype=torch.int64, device=dev),
                torch.zeros(1, dtype=torch.int64, device=dev))
    boxes = boxes.to(torch.float32)
    scores = scores.to(torch.float32)
    parts = []
    for b in range(nb):
        corners = _nms_corners(boxes[b], center)
        for c in range(nc):
            parts.append(_nms_class(corners, scores[b, c], b, c, max_out, iou,
                                    threshold))
    rows = torch.cat(parts)
    valid = rows[:, 0] >= 0
    compact = torch.sort((~valid).to(torch.uint8), stable=True).indices
    return rows[compact], valid.sum().reshape(1)
)py";

/// torch's name of an element type.
std::string torchDtype(ElementType type) {
  switch (type) {
  case ElementType::I32: return "torch.int32";
  case ElementType::I64: return "torch.int64";
  case ElementType::F16: return "torch.float16";
  case ElementType::F32: return "torch.float32";
  case ElementType::F64: return "torch.float64";
  case ElementType::BF16: return "torch.bfloat16";
  }
  return "?";
}

/// A Python float literal that parses to exactly `value` (%.17g round-trips
/// a double; a literal without '.' or 'e' gets ".0", so -0.0 stays a float).
std::string pyFloat(double value) {
  if (std::isnan(value))
    return "float(\"nan\")";
  if (std::isinf(value))
    return value > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text(buffer);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

/// A Python tuple of integers: "(4,)", "(4, 8)".
std::string pyTuple(const std::vector<int64_t> &values) {
  std::string text = "(";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : "") + std::to_string(values[i]);
  return text + (values.size() == 1 ? ",)" : ")");
}

/// Writes one program; one method per op kind, each appending lines to the
/// body of `program`.
class PyTorchWriter {
public:
  explicit PyTorchWriter(const Program &program) : program(program) {}

  Result<std::string> write();

private:
  std::string v(int id) const { return "v" + std::to_string(id); }
  const TensorType &type(int id) const {
    return program.values[static_cast<size_t>(id)];
  }
  void line(const std::string &text) { body += "    " + text + "\n"; }

  Status elementwise(const Op &op);
  Result<std::string> floatExpression(const Op &op) const;
  Result<std::string> integerExpression(const Op &op) const;
  void iota(const Op &op);
  void sort(size_t index, const Op &op);
  void topK(size_t index, const Op &op);
  void slice(const Op &op);
  void gather(const Op &op);
  void nms(const Op &op);

  const Program &program;
  std::string body;
};

Result<std::string> PyTorchWriter::floatExpression(const Op &op) const {
  const std::string a = v(op.operands[0]);
  const std::string b = op.operands.size() > 1 ? v(op.operands[1]) : "";
  switch (op.ew) {
  case EwKind::NegF: return "torch.neg(" + a + ")";
  case EwKind::AbsF: return "torch.abs(" + a + ")";
  case EwKind::Sigmoid:
    return "torch.reciprocal(torch.add(torch.exp(torch.neg(" + a + ")), 1.0))";
  case EwKind::AddConstF:
    return "torch.add(" + a + ", " + pyFloat(op.constant) + ")";
  case EwKind::MulConstF:
    return "torch.mul(" + a + ", " + pyFloat(op.constant) + ")";
  case EwKind::AddF: return "torch.add(" + a + ", " + b + ")";
  case EwKind::SubF: return "torch.sub(" + a + ", " + b + ")";
  case EwKind::MulF: return "torch.mul(" + a + ", " + b + ")";
  case EwKind::MaximumF:
    // Equal operands differ at most in a zero's sign: -0 gives way.
    return "torch.where(" + a + " == " + b + ", torch.where(torch.signbit(" +
           a + "), " + b + ", " + a + "), torch.maximum(" + a + ", " + b + "))";
  case EwKind::MinimumF:
    return "torch.where(" + a + " == " + b + ", torch.where(torch.signbit(" +
           a + "), " + a + ", " + b + "), torch.minimum(" + a + ", " + b + "))";
  default: break;
  }
  return makeError("elementwise " + std::string(toString(op.ew)) +
                   " is not a float arithmetic op");
}

Result<std::string> PyTorchWriter::integerExpression(const Op &op) const {
  const std::string a = v(op.operands[0]);
  const std::string b = op.operands.size() > 1 ? v(op.operands[1]) : "";
  const std::string c = std::to_string(op.intConstant);
  switch (op.ew) {
  case EwKind::AddConstI: return "torch.add(" + a + ", " + c + ")";
  case EwKind::MulConstI: return "torch.mul(" + a + ", " + c + ")";
  case EwKind::AddI: return "torch.add(" + a + ", " + b + ")";
  case EwKind::SubI: return "torch.sub(" + a + ", " + b + ")";
  case EwKind::MulI: return "torch.mul(" + a + ", " + b + ")";
  case EwKind::XOrI: return "torch.bitwise_xor(" + a + ", " + b + ")";
  case EwKind::MaxSI: return "torch.maximum(" + a + ", " + b + ")";
  case EwKind::MinSI: return "torch.minimum(" + a + ", " + b + ")";
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI:
  case EwKind::TruncI:
    return a + ".to(" + torchDtype(type(op.results[0]).elementType) + ")";
  default: break;
  }
  return makeError("elementwise " + std::string(toString(op.ew)) +
                   " has no integer or cast spelling");
}

Status PyTorchWriter::elementwise(const Op &op) {
  const bool floatArith = isFloat(type(op.results[0]).elementType) &&
                          isFloat(type(op.operands[0]).elementType) &&
                          op.ew != EwKind::ExtF && op.ew != EwKind::TruncF;
  Result<std::string> expression =
      floatArith ? floatExpression(op) : integerExpression(op);
  if (!expression)
    return expression.status();
  line(v(op.results[0]) + " = " + *expression);
  return Status::success();
}

void PyTorchWriter::iota(const Op &op) {
  const TensorType &t = type(op.results[0]);
  std::vector<int64_t> lane(t.shape.size(), 1);
  lane[static_cast<size_t>(op.dimension)] = t.shape[op.dimension];
  line(v(op.results[0]) + " = torch.arange(" +
       std::to_string(t.shape[op.dimension]) +
       ", dtype=" + torchDtype(t.elementType) + ", device=dev).reshape(" +
       pyTuple(lane) + ").expand(" + pyTuple(t.shape) + ")");
}

void PyTorchWriter::sort(size_t index, const Op &op) {
  const std::string s = "s" + std::to_string(index);
  const std::string key = v(op.operands[0]);
  const std::string dim = std::to_string(op.dimension);
  const bool comparator = op.order == SortOrder::Comparator;
  const bool descending =
      op.order == SortOrder::Descending ||
      (comparator && op.comparator == ComparatorKind::Greater);
  std::string sorted = key;
  if (comparator && op.comparator == ComparatorKind::LessAbs)
    sorted = "torch.abs(" + key + ")";
  else if (comparator && op.comparator == ComparatorKind::LessLowByte)
    sorted = "torch.bitwise_and(" + key + ", 255)";
  const bool transformed = sorted != key;
  line(s + " = torch.sort(" + sorted + ", dim=" + dim +
       ", descending=" + (descending ? "True" : "False") + ", stable=True)");
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (i == 0 && !transformed)
      line(v(op.results[0]) + " = " + s + ".values");
    else
      line(v(op.results[i]) + " = torch.gather(" + v(op.operands[i]) + ", " +
           dim + ", " + s + ".indices)");
  }
}

void PyTorchWriter::topK(size_t index, const Op &op) {
  const std::string t = "t" + std::to_string(index);
  line(t + " = torch.topk(" + v(op.operands[0]) + ", " + std::to_string(op.k) +
       ", dim=" + std::to_string(op.dimension) +
       ", largest=" + (op.largest ? "True" : "False") + ", sorted=True)");
  line(v(op.results[0]) + " = " + t + ".values");
  line(v(op.results[1]) + " = " + t + ".indices");
}

void PyTorchWriter::slice(const Op &op) {
  std::string ranges;
  for (size_t d = 0; d < op.offsets.size(); ++d) {
    const int64_t start = op.offsets[d], size = op.sizes[d],
                  step = op.strides[d];
    const int64_t stop = size == 0 ? start : start + (size - 1) * step + 1;
    ranges += (d ? ", " : "") + std::to_string(start) + ":" +
              std::to_string(stop) + ":" + std::to_string(step);
  }
  line(v(op.results[0]) + " = " + v(op.operands[0]) + "[" + ranges + "]");
}

void PyTorchWriter::gather(const Op &op) {
  const TensorType &result = type(op.results[0]);
  // The indices [B, K] as [B, 1.., K, 1..], K at `axis`.
  std::vector<int64_t> spread(result.shape.size(), 1);
  spread[0] = result.shape[0];
  spread[static_cast<size_t>(op.axis)] = result.shape[op.axis];
  line(v(op.results[0]) + " = torch.gather(" + v(op.operands[0]) + ", " +
       std::to_string(op.axis) + ", " + v(op.operands[1]) + ".reshape(" +
       pyTuple(spread) + ").expand(" + pyTuple(result.shape) + "))");
}

void PyTorchWriter::nms(const Op &op) {
  const int64_t maxOut = std::max<int64_t>(op.maxOutputBoxesPerClass, 0);
  const std::string threshold =
      op.scoreThreshold ? pyFloat(*op.scoreThreshold) : "None";
  line(v(op.results[0]) + ", " + v(op.results[1]) + " = _nms(" +
       v(op.operands[0]) + ", " + v(op.operands[1]) + ", " +
       std::to_string(maxOut) + ", " + pyFloat(op.iouThreshold) + ", " +
       threshold + ", " + (op.centerPointBox ? "True" : "False") + ")");
}

Result<std::string> PyTorchWriter::write() {
  if (std::string problem = validate(program); !problem.empty())
    return makeError("the program is invalid: " + problem);
  bool hasNms = false;
  for (size_t i = 0; i < program.inputs.size(); ++i)
    line(v(program.inputs[i]) + " = args[" + std::to_string(i) + "]");
  line(program.inputs.empty() ? "dev = None" : "dev = args[0].device");
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const Op &op = program.ops[i];
    switch (op.kind) {
    case OpKind::Elementwise:
      if (Status s = elementwise(op); !s)
        return makeError("op " + std::to_string(i) + ": " + s.message());
      break;
    case OpKind::Iota: iota(op); break;
    case OpKind::Sort: sort(i, op); break;
    case OpKind::TopK: topK(i, op); break;
    case OpKind::Slice: slice(op); break;
    case OpKind::Gather: gather(op); break;
    case OpKind::Nms:
      nms(op);
      hasNms = true;
      break;
    }
  }
  std::string results;
  for (int id : program.outputs)
    results += v(id) + ", ";
  line("return (" + results + ")");
  std::string module = "import torch\n";
  if (hasNms)
    module += "import torchvision\n\n" + std::string(kNmsHelper);
  return module + "\n\ndef program(*args):\n" + body;
}

} // namespace

Result<std::string> emitPyTorchProgram(const Program &program) {
  return PyTorchWriter(program).write();
}

} // namespace sift::gen
