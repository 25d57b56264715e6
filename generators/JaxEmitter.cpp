//===- generators/JaxEmitter.cpp - A program as JAX Python ----------------===//
//
// Writes a program as a Python module over jax.numpy and jax.lax whose
// `program(*args)` computes the model's function (docs/SEMANTICS.md) and
// returns one array per result; systems/runners/jax_run.py jits and runs it.
// Every value is a local `v<id>`; the module holds only the helpers the
// program uses, each a plain jnp/lax function defined before `program`.
//
// Spellings of the model's ops:
// - elementwise: jnp arithmetic in the element type, constants written
//   exactly (float.fromhex). XLA may fuse a multiply into the add that uses
//   it (one FMA rounding; XLA:CPU always allows FMA fusion) and may skip an
//   f16 rounding (--xla_allow_excess_precision), so every rounded float step
//   goes through _exact, a select on NaN that leaves the value alone but is
//   no multiply or convert. maximumf/minimumf are written out (NaN first,
//   +0 above -0); sigmoid is exp, add, divide, each step rounded;
//   f64->f16 rounds to odd in f32 first, so that it rounds once.
// - iota: lax.broadcasted_iota; slice: lax.slice with explicit limits;
//   gather: jnp.take_along_axis by the indices broadcast along the axis.
// - sort: one lax.sort (is_stable=True, num_keys=1) of every operand, led
//   by a transformed key where the comparator sorts one (|key| for
//   LessAbs, key & 255 for LessLowByte). lax.sort's own comparator orders
//   floats as SEMANTICS.md does (-0.0 == +0.0, every NaN last). Descending
//   (and Greater) reverse the operands along the dimension, sort ascending
//   and reverse the results (jnp.argsort's stable descending), so equal
//   keys keep their input order.
// - top-k: lax.top_k on the dimension moved last, over an integer key: the
//   integer itself, or for floats the bits made monotone in SEMANTICS.md's
//   total order (-0.0 as +0.0, every NaN above +inf); smallest takes the
//   key's complement. XLA documents TopK's ties (lower index first) but
//   neither its NaN order nor -0.0 against +0.0 (seen on CPU and GPU:
//   -0.0 below +0.0, -NaN below everything). The values are gathered from
//   the input by the indices, bits unchanged.
// - NMS: no JAX op; written out with ONNX's semantics: f32 corners and
//   areas, candidates by one stable descending sort of an integer score key
//   (non-candidates last), a lax.while_loop keeping one candidate per step
//   in every (batch, class), then a stable sort that compacts the rows, -1
//   padding to the fixed capacity, and the count.
//
//===----------------------------------------------------------------------===//

#include "generators/Exchange.h"

#include <cstdio>
#include <iterator>

namespace sift::gen {

namespace {

/// The helpers a module may need, in the order they are written.
enum Helper : unsigned {
  kExact = 1u << 0,
  kMinMax = 1u << 1,
  kSigmoid = 1u << 2,
  kF64ToF16 = 1u << 3,
  kSort = 1u << 4,
  kTotalKey = 1u << 5,
  kTopK = 1u << 6,
  kGather = 1u << 7,
  kNms = 1u << 8,
};

struct HelperText {
  Helper helper;
  unsigned needs; ///< helpers this one calls
  const char *text;
};

const HelperText kHelpers[] = {
    {kExact, 0, R"PY(
def _exact(x):
    # The rounded step itself: a select XLA cannot fuse into an FMA or skip.
    return jnp.where(jnp.isnan(x), jnp.asarray(jnp.nan, x.dtype), x)
)PY"},
    {kMinMax, 0, R"PY(
def _maximum(a, b):
    r = jnp.where(a == b, jnp.where(jnp.signbit(a), b, a), jnp.where(a > b, a, b))
    return jnp.where(jnp.isnan(a), a, jnp.where(jnp.isnan(b), b, r))


def _minimum(a, b):
    r = jnp.where(a == b, jnp.where(jnp.signbit(a), a, b), jnp.where(a < b, a, b))
    return jnp.where(jnp.isnan(a), a, jnp.where(jnp.isnan(b), b, r))
)PY"},
    {kSigmoid, kExact, R"PY(
def _sigmoid(x):
    one = jnp.ones((), x.dtype)
    return _exact(one / _exact(one + _exact(jnp.exp(-x))))
)PY"},
    {kF64ToF16, 0, R"PY(
def _f64_to_f16(x):
    # f64 -> f32 rounded to odd, then -> f16: one rounding to nearest even.
    y = x.astype(jnp.float32)
    bits = lax.bitcast_convert_type(y, jnp.int32)
    wide = y.astype(jnp.float64)
    step = jnp.where(jnp.abs(wide) > jnp.abs(x), -1, 1).astype(jnp.int32)
    fix = (wide != x) & ~jnp.isnan(x) & ((bits & 1) == 0)
    bits = jnp.where(fix, bits + step, bits)
    return lax.bitcast_convert_type(bits, jnp.float32).astype(jnp.float16)
)PY"},
    {kSort, 0, R"PY(
def _sort(operands, dimension, descending, key=None):
    # Stable; descending sorts the reversed operands and reverses the result.
    if key is not None:
        operands = (key,) + tuple(operands)
    if descending:
        operands = tuple(lax.rev(x, (dimension,)) for x in operands)
    results = lax.sort(tuple(operands), dimension=dimension, is_stable=True,
                       num_keys=1)
    if descending:
        results = tuple(lax.rev(x, (dimension,)) for x in results)
    return tuple(results[1:]) if key is not None else tuple(results)
)PY"},
    {kTotalKey, 0, R"PY(
def _canonical(x):
    # -0.0 as +0.0 and every NaN as the positive quiet NaN.
    x = jnp.where(x == 0, jnp.zeros_like(x), x)
    return jnp.where(jnp.isnan(x), jnp.asarray(jnp.nan, x.dtype), x)


def _total_key(x):
    # Integers in the order of SEMANTICS.md's float total order.
    width = {2: jnp.int16, 4: jnp.int32, 8: jnp.int64}[x.dtype.itemsize]
    bits = lax.bitcast_convert_type(_canonical(x), width)
    key = jnp.where(bits < 0, bits ^ jnp.asarray(jnp.iinfo(width).max, width),
                    bits)
    return key.astype(jnp.int32) if x.dtype.itemsize == 2 else key
)PY"},
    {kTopK, kTotalKey, R"PY(
def _topk(x, k, dimension, largest):
    # Integer keys: lax.top_k's order of NaN and of -0.0 is not documented.
    moved = jnp.moveaxis(x, dimension, -1)
    key = _total_key(moved) if jnp.issubdtype(x.dtype, jnp.floating) else moved
    _, indices = lax.top_k(key if largest else ~key, k)
    indices = indices.astype(jnp.int64)
    values = jnp.take_along_axis(moved, indices, axis=-1)
    return (jnp.moveaxis(values, -1, dimension),
            jnp.moveaxis(indices, -1, dimension))
)PY"},
    {kGather, 0, R"PY(
def _gather(source, indices, axis):
    shape = [1] * source.ndim
    shape[0], shape[axis] = indices.shape
    result = list(source.shape)
    result[axis] = indices.shape[1]
    index = jnp.broadcast_to(indices.reshape(shape), result)
    return jnp.take_along_axis(source, index, axis=axis)
)PY"},
    {kNms, kExact | kMinMax | kSort | kTotalKey, R"PY(
def _nms_boxes(boxes, center):
    # [B, N, 5]: ymin, xmin, ymax, xmax, area, each step in f32.
    b = boxes.astype(jnp.float32)
    if center:
        half_w, half_h = _exact(b[..., 2] / 2), _exact(b[..., 3] / 2)
        ymin, xmin = b[..., 1] - half_h, b[..., 0] - half_w
        ymax, xmax = b[..., 1] + half_h, b[..., 0] + half_w
    else:
        ymin, ymax = _minimum(b[..., 0], b[..., 2]), _maximum(b[..., 0], b[..., 2])
        xmin, xmax = _minimum(b[..., 1], b[..., 3]), _maximum(b[..., 1], b[..., 3])
    area = _exact((ymax - ymin) * (xmax - xmin))
    return jnp.stack([ymin, xmin, ymax, xmax, area], axis=-1)


def _nms_iou(a, b):
    zero = jnp.zeros((), jnp.float32)
    height = _maximum(zero, _minimum(a[..., 2], b[..., 2]) -
                      _maximum(a[..., 0], b[..., 0]))
    width = _maximum(zero, _minimum(a[..., 3], b[..., 3]) -
                     _maximum(a[..., 1], b[..., 1]))
    inter = _exact(height * width)
    union = (a[..., 4] + b[..., 4]) - inter
    none = (inter <= 0) | (a[..., 4] <= 0) | (b[..., 4] <= 0) | (union <= 0)
    return jnp.where(none, zero, inter / union)


def _nms_select(boxes, candidate, order, slots, iou_threshold):
    # Per (batch, class): the kept boxes [B, C, slots] (-1 after count).
    batches, classes, n = candidate.shape
    per_class = jnp.broadcast_to(boxes[:, None], (batches, classes, n, 5))
    seen = jnp.sum(candidate, axis=2, dtype=jnp.int32)
    slot = lax.broadcasted_iota(jnp.int32, (batches, classes, slots), 2)
    threshold = jnp.asarray(iou_threshold, jnp.float32)

    def more(state):
        i, _, count = state
        return (i < n) & jnp.any((i < seen) & (count < slots))

    def visit(state):
        i, kept, count = state
        box = order[:, :, i]
        mine = jnp.take_along_axis(per_class, box[:, :, None, None], axis=2)
        theirs = jnp.take_along_axis(per_class, jnp.maximum(kept, 0)[..., None],
                                     axis=2)
        hit = (slot < count[..., None]) & (_nms_iou(theirs, mine) > threshold)
        keep = (i < seen) & (count < slots) & ~jnp.any(hit, axis=2)
        kept = jnp.where(keep[..., None] & (slot == count[..., None]),
                         box[..., None], kept)
        return i + 1, kept, count + keep.astype(jnp.int32)

    kept = jnp.full((batches, classes, slots), -1, jnp.int32)
    count = jnp.zeros((batches, classes), jnp.int32)
    _, kept, count = lax.while_loop(more, visit, (0, kept, count))
    return kept, count


def _nms(boxes, scores, max_out, iou_threshold, score_threshold, center):
    # ONNX NonMaxSuppression, rows padded with -1 to B * C * max_out.
    batches, classes, n = scores.shape
    rows = batches * classes * max(max_out, 0)
    if rows == 0 or n == 0:
        return jnp.full((rows, 3), -1, jnp.int64), jnp.zeros((1,), jnp.int64)
    s = scores.astype(jnp.float32)
    candidate = jnp.ones(s.shape, jnp.bool_)
    if score_threshold is not None:
        candidate = s > jnp.asarray(score_threshold, jnp.float32)
    key = jnp.where(candidate, _total_key(s), jnp.iinfo(jnp.int32).min)
    (order,) = _sort((lax.broadcasted_iota(jnp.int32, s.shape, 2),), 2, True,
                     key=key)
    slots = min(max_out, n)
    kept, count = _nms_select(_nms_boxes(boxes, center), candidate, order,
                              slots, iou_threshold)
    shape = (batches, classes, slots)
    valid = lax.broadcasted_iota(jnp.int32, shape, 2) < count[..., None]
    columns = [jnp.where(valid, c, -1).reshape(-1) for c in (
        lax.broadcasted_iota(jnp.int64, shape, 0),
        lax.broadcasted_iota(jnp.int64, shape, 1), kept.astype(jnp.int64))]
    columns = _sort(columns, 0, False, key=(~valid).reshape(-1).astype(jnp.int32))
    selected = jnp.stack(columns, axis=1)
    selected = jnp.pad(selected, ((0, rows - selected.shape[0]), (0, 0)),
                       constant_values=-1)
    return selected, jnp.sum(count, dtype=jnp.int64).reshape(1)
)PY"},
};

/// The jnp name of an element type's dtype.
std::string dtypeName(ElementType type) {
  switch (type) {
  case ElementType::I32: return "jnp.int32";
  case ElementType::I64: return "jnp.int64";
  case ElementType::F16: return "jnp.float16";
  case ElementType::F32: return "jnp.float32";
  case ElementType::F64: return "jnp.float64";
  case ElementType::BF16: return "jnp.bfloat16";
  }
  return "?";
}

/// A Python float written exactly: float.fromhex of C's %a ('inf' too).
std::string floatLiteral(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%a", value);
  return "float.fromhex('" + std::string(buffer) + "')";
}

/// A Python list or tuple of integers.
std::string intList(const std::vector<int64_t> &values, bool tuple = true) {
  std::string s = tuple ? "(" : "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  if (tuple && values.size() == 1)
    s += ",";
  return s + (tuple ? ")" : "]");
}

/// Writes one program: the body line by line, then the helpers it used.
class JaxWriter {
public:
  explicit JaxWriter(const Program &program) : program(program) {}

  Result<std::string> write();

private:
  std::string name(int id) const { return "v" + std::to_string(id); }
  const TensorType &type(int id) const {
    return program.values[static_cast<size_t>(id)];
  }
  /// `value` as a 0-d array of `type` (exact there).
  std::string constant(const Op &op, ElementType type) const;
  /// "v1, v2" (or "(v1,)") for a tuple of results.
  std::string targets(const std::vector<int> &ids) const;
  void line(const std::string &text) { body += "    " + text + "\n"; }

  Status emitOp(const Op &op);
  Status emitElementwise(const Op &op);
  std::string floatStep(const Op &op, const std::string &a,
                        const std::string &b);
  std::string cast(const Op &op, const std::string &a);
  Status emitSort(const Op &op);
  void emitTopK(const Op &op);
  void emitSlice(const Op &op);
  void emitNms(const Op &op);

  const Program &program;
  std::string body;
  unsigned helpers = 0;
};

std::string JaxWriter::constant(const Op &op, ElementType type) const {
  std::string value = isFloat(type) ? floatLiteral(op.constant)
                                    : std::to_string(op.intConstant);
  return "jnp.asarray(" + value + ", " + dtypeName(type) + ")";
}

std::string JaxWriter::targets(const std::vector<int> &ids) const {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + name(ids[i]);
  return ids.size() == 1 ? "(" + s + ",)" : s;
}

std::string JaxWriter::floatStep(const Op &op, const std::string &a,
                                 const std::string &b) {
  const ElementType t = type(op.results[0]).elementType;
  switch (op.ew) {
  case EwKind::NegF: return "-" + a;
  case EwKind::AbsF: return "jnp.abs(" + a + ")";
  case EwKind::Sigmoid: helpers |= kSigmoid; return "_sigmoid(" + a + ")";
  case EwKind::MaximumF:
    helpers |= kMinMax;
    return "_maximum(" + a + ", " + b + ")";
  case EwKind::MinimumF:
    helpers |= kMinMax;
    return "_minimum(" + a + ", " + b + ")";
  default: break;
  }
  std::string expr;
  switch (op.ew) {
  case EwKind::AddConstF: expr = a + " + " + constant(op, t); break;
  case EwKind::MulConstF: expr = a + " * " + constant(op, t); break;
  case EwKind::AddF: expr = a + " + " + b; break;
  case EwKind::SubF: expr = a + " - " + b; break;
  default: expr = a + " * " + b; break; // MulF
  }
  helpers |= kExact;
  return "_exact(" + expr + ")";
}

std::string JaxWriter::cast(const Op &op, const std::string &a) {
  const ElementType from = type(op.operands[0]).elementType;
  const ElementType to = type(op.results[0]).elementType;
  const std::string converted = a + ".astype(" + dtypeName(to) + ")";
  switch (op.ew) {
  case EwKind::ExtF:
  case EwKind::ExtSI:
  case EwKind::TruncI: return converted;
  default: break;
  }
  helpers |= kExact;
  if (from == ElementType::F64 && to == ElementType::F16) {
    helpers |= kF64ToF16;
    return "_exact(_f64_to_f16(" + a + "))";
  }
  return "_exact(" + converted + ")"; // TruncF, SIToFP
}

Status JaxWriter::emitElementwise(const Op &op) {
  const std::string a = name(op.operands[0]);
  const std::string b = op.operands.size() > 1 ? name(op.operands[1]) : "";
  const ElementType t = type(op.results[0]).elementType;
  std::string expr;
  switch (op.ew) {
  case EwKind::AddConstI: expr = a + " + " + constant(op, t); break;
  case EwKind::MulConstI: expr = a + " * " + constant(op, t); break;
  case EwKind::AddI: expr = a + " + " + b; break;
  case EwKind::SubI: expr = a + " - " + b; break;
  case EwKind::MulI: expr = a + " * " + b; break;
  case EwKind::XOrI: expr = a + " ^ " + b; break;
  case EwKind::MaxSI: expr = "jnp.maximum(" + a + ", " + b + ")"; break;
  case EwKind::MinSI: expr = "jnp.minimum(" + a + ", " + b + ")"; break;
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI:
  case EwKind::TruncI: expr = cast(op, a); break;
  default: expr = floatStep(op, a, b); break;
  }
  line(name(op.results[0]) + " = " + expr);
  return Status::success();
}

Status JaxWriter::emitSort(const Op &op) {
  const int key = op.operands[0];
  const ElementType keyType = type(key).elementType;
  bool descending = op.order == SortOrder::Descending;
  std::string transformed;
  if (op.order == SortOrder::Comparator) {
    switch (op.comparator) {
    case ComparatorKind::Less: break;
    case ComparatorKind::Greater: descending = true; break;
    case ComparatorKind::LessAbs:
      if (!isFloat(keyType))
        return makeError("jax: sort comparator less_abs needs a float key");
      transformed = "jnp.abs(" + name(key) + ")";
      break;
    case ComparatorKind::LessLowByte:
      if (isFloat(keyType))
        return makeError("jax: sort comparator less_low_byte needs an "
                         "integer key");
      transformed =
          name(key) + " & jnp.asarray(255, " + dtypeName(keyType) + ")";
      break;
    }
  }
  std::vector<std::string> operands;
  for (int id : op.operands)
    operands.push_back(name(id));
  std::string tuple = "(";
  for (size_t i = 0; i < operands.size(); ++i)
    tuple += (i ? ", " : "") + operands[i];
  tuple += operands.size() == 1 ? ",)" : ")";
  helpers |= kSort;
  line(targets(op.results) + " = _sort(" + tuple + ", " +
       std::to_string(op.dimension) + ", " + (descending ? "True" : "False") +
       (transformed.empty() ? "" : ", key=" + transformed) + ")");
  return Status::success();
}

void JaxWriter::emitTopK(const Op &op) {
  helpers |= kTopK;
  line(targets(op.results) + " = _topk(" + name(op.operands[0]) + ", " +
       std::to_string(op.k) + ", " + std::to_string(op.dimension) + ", " +
       (op.largest ? "True" : "False") + ")");
}

void JaxWriter::emitSlice(const Op &op) {
  std::vector<int64_t> limits;
  for (size_t i = 0; i < op.offsets.size(); ++i)
    limits.push_back(op.sizes[i] > 0
                         ? op.offsets[i] + (op.sizes[i] - 1) * op.strides[i] + 1
                         : op.offsets[i]);
  line(name(op.results[0]) + " = lax.slice(" + name(op.operands[0]) + ", " +
       intList(op.offsets) + ", " + intList(limits) + ", " +
       intList(op.strides) + ")");
}

void JaxWriter::emitNms(const Op &op) {
  helpers |= kNms;
  line(targets(op.results) + " = _nms(" + name(op.operands[0]) + ", " +
       name(op.operands[1]) + ", " + std::to_string(op.maxOutputBoxesPerClass) +
       ", " + floatLiteral(op.iouThreshold) + ", " +
       (op.scoreThreshold ? floatLiteral(*op.scoreThreshold) : "None") + ", " +
       (op.centerPointBox ? "True" : "False") + ")");
}

Status JaxWriter::emitOp(const Op &op) {
  switch (op.kind) {
  case OpKind::Elementwise: return emitElementwise(op);
  case OpKind::Iota:
    line(name(op.results[0]) + " = lax.broadcasted_iota(" +
         dtypeName(type(op.results[0]).elementType) + ", " +
         intList(type(op.results[0]).shape) + ", " +
         std::to_string(op.dimension) + ")");
    return Status::success();
  case OpKind::Sort: return emitSort(op);
  case OpKind::TopK: emitTopK(op); return Status::success();
  case OpKind::Slice: emitSlice(op); return Status::success();
  case OpKind::Nms: emitNms(op); return Status::success();
  case OpKind::Gather:
    helpers |= kGather;
    line(name(op.results[0]) + " = _gather(" + name(op.operands[0]) + ", " +
         name(op.operands[1]) + ", " + std::to_string(op.axis) + ")");
    return Status::success();
  }
  return makeError("jax: unknown op kind");
}

Result<std::string> JaxWriter::write() {
  if (std::string problem = validate(program); !problem.empty())
    return makeError("jax: the program is invalid: " + problem);
  if (!program.inputs.empty()) {
    std::vector<int> inputs(program.inputs.begin(), program.inputs.end());
    line(targets(inputs) + " = args");
  }
  for (const Op &op : program.ops)
    if (Status s = emitOp(op); !s.ok())
      return s.error();
  std::vector<int> outputs(program.outputs.begin(), program.outputs.end());
  std::string returned = targets(outputs);
  line("return " + (outputs.size() == 1 ? returned : "(" + returned + ")"));

  // Helpers pull in the helpers they call; the table is in dependency order.
  for (auto it = std::rbegin(kHelpers); it != std::rend(kHelpers); ++it)
    if (helpers & it->helper)
      helpers |= it->needs;
  std::string module =
      "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n";
  for (const HelperText &h : kHelpers)
    if (helpers & h.helper)
      module += "\n" + std::string(h.text);
  return module + "\n\ndef program(*args):\n" + body;
}

} // namespace

Result<std::string> emitJaxProgram(const Program &program) {
  return JaxWriter(program).write();
}

} // namespace sift::gen
