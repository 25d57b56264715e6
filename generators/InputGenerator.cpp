//===- generators/InputGenerator.cpp - Random input tensors ---------------===//
//
// Value pools and element writers per element type (InputWriters.h), the
// plain modes of InputGenerator.h built from them, and the dispatch of each
// program input to a plain mode or to an NMS box / score mode (NmsInputs.cpp).
//
//===----------------------------------------------------------------------===//
#include "generators/InputGenerator.h"

#include "generators/Half.h"
#include "generators/InputWriters.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace sift::gen {

namespace detail {

//===----------------------------------------------------------------------===//
// Element writers.
//===----------------------------------------------------------------------===//

namespace {
/// `value` rounded to f32, without the undefined behaviour of converting a
/// double beyond the float range: from half an ulp above FLT_MAX it is inf.
float toFloatRounded(double value) {
  constexpr double kOverflow = 0x1.ffffffp127; // FLT_MAX + half an ulp
  if (value >= kOverflow)
    return std::numeric_limits<float>::infinity();
  if (value <= -kOverflow)
    return -std::numeric_limits<float>::infinity();
  return static_cast<float>(value);
}
} // namespace

void setFloat(HostTensor &t, int64_t i, double value) {
  switch (t.type) {
  case ElementType::F16: t.set<uint16_t>(i, doubleToHalf(value)); return;
  case ElementType::BF16: t.set<uint16_t>(i, doubleToBfloat16(value)); return;
  case ElementType::F32: t.set<float>(i, toFloatRounded(value)); return;
  case ElementType::F64: t.set<double>(i, value); return;
  case ElementType::I32:
  case ElementType::I64: return;
  }
}

void setInt(HostTensor &t, int64_t i, int64_t value) {
  if (t.type == ElementType::I32)
    t.set<int32_t>(i, static_cast<int32_t>(value));
  else if (t.type == ElementType::I64)
    t.set<int64_t>(i, value);
}

void setBits(HostTensor &t, int64_t i, uint64_t bits) {
  switch (byteWidth(t.type)) {
  case 2: t.set<uint16_t>(i, static_cast<uint16_t>(bits)); return;
  case 4: t.set<uint32_t>(i, static_cast<uint32_t>(bits)); return;
  case 8: t.set<uint64_t>(i, bits); return;
  default: return;
  }
}

//===----------------------------------------------------------------------===//
// Pools and float steps.
//===----------------------------------------------------------------------===//

std::vector<uint64_t> specialFloatBits(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return {0x7E00, 0xFE00, 0x7E01, 0x7C01, 0xFD55, // NaNs
            0x7C00, 0xFC00,                         // +-inf
            0x0000, 0x8000,                         // +-0
            0x0001, 0x8001, 0x03FF, 0x83FF,         // denormals
            0x7BFF, 0xFBFF,                         // max, lowest
            0x0400, 0x8400};                        // smallest normals
  case ElementType::BF16:
    return {0x7FC0, 0xFFC0, 0x7FC1, 0x7F81, 0xFFA5, // NaNs
            0x7F80, 0xFF80,                         // +-inf
            0x0000, 0x8000,                         // +-0
            0x0001, 0x8001, 0x007F, 0x807F,         // denormals
            0x7F7F, 0xFF7F,                         // max, lowest
            0x0080, 0x8080,                         // smallest normals
            0x3F80, 0x3F81, 0xBF80, 0xBF81};        // 1 and its neighbours
  case ElementType::F32:
    return {0x7FC00000, 0xFFC00000, 0x7FC00123, 0x7F800001, 0xFFA5A5A5,
            0x7F800000, 0xFF800000, 0x00000000, 0x80000000, 0x00000001,
            0x80000001, 0x007FFFFF, 0x807FFFFF, 0x7F7FFFFF, 0xFF7FFFFF,
            0x00800000, 0x80800000};
  case ElementType::F64:
    return {0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF8000000000123ull,
            0x7FF0000000000001ull, 0xFFF5A5A5A5A5A5A5ull, 0x7FF0000000000000ull,
            0xFFF0000000000000ull, 0x0000000000000000ull, 0x8000000000000000ull,
            0x0000000000000001ull, 0x8000000000000001ull, 0x000FFFFFFFFFFFFFull,
            0x800FFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull,
            0x0010000000000000ull, 0x8010000000000000ull};
  case ElementType::I32:
  case ElementType::I64: return {};
  }
  return {};
}

bool isNanBits(ElementType type, uint64_t bits) {
  switch (type) {
  case ElementType::F16: return (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF);
  case ElementType::BF16: return (bits & 0x7F80) == 0x7F80 && (bits & 0x7F);
  case ElementType::F32:
    return (bits & 0x7F800000) == 0x7F800000 && (bits & 0x7FFFFF);
  case ElementType::F64:
    return (bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
           (bits & 0xFFFFFFFFFFFFFull);
  case ElementType::I32:
  case ElementType::I64: return false;
  }
  return false;
}

namespace {
uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}
float bitsFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
uint64_t doubleBits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  return bits;
}
/// One step of a sign-magnitude encoding towards +inf (`up`) or -inf, for a
/// non-NaN value: `signBit` and `infBits` (the +inf pattern) describe it.
uint64_t stepBits(uint64_t bits, uint64_t signBit, uint64_t infBits, bool up) {
  const bool negative = bits & signBit;
  const uint64_t magnitude = bits & ~signBit;
  if (up) {
    if (bits == infBits)
      return bits;
    if (magnitude == 0)
      return 1; // +-0 -> smallest positive denormal
    return negative ? bits - 1 : bits + 1;
  }
  if (bits == (infBits | signBit))
    return bits;
  if (magnitude == 0)
    return signBit | 1; // +-0 -> smallest negative denormal
  return negative ? bits + 1 : bits - 1;
}
} // namespace

uint64_t nextUpBits(uint64_t bits, ElementType type) {
  switch (type) {
  case ElementType::F16: return stepBits(bits, 0x8000, 0x7C00, true);
  case ElementType::BF16: return stepBits(bits, 0x8000, 0x7F80, true);
  case ElementType::F32: return stepBits(bits, 0x80000000, 0x7F800000, true);
  default:
    return stepBits(bits, 0x8000000000000000ull, 0x7FF0000000000000ull, true);
  }
}

uint64_t nextDownBits(uint64_t bits, ElementType type) {
  switch (type) {
  case ElementType::F16: return stepBits(bits, 0x8000, 0x7C00, false);
  case ElementType::BF16: return stepBits(bits, 0x8000, 0x7F80, false);
  case ElementType::F32: return stepBits(bits, 0x80000000, 0x7F800000, false);
  default:
    return stepBits(bits, 0x8000000000000000ull, 0x7FF0000000000000ull, false);
  }
}

uint64_t roundDownBits(double value, ElementType type) {
  switch (type) {
  case ElementType::F16: {
    uint16_t bits = doubleToHalf(value);
    return halfToDouble(bits) > value ? nextDownBits(bits, type) : bits;
  }
  case ElementType::BF16: {
    uint16_t bits = doubleToBfloat16(value);
    return bfloat16ToDouble(bits) > value ? nextDownBits(bits, type) : bits;
  }
  case ElementType::F32: {
    uint32_t bits = floatBits(toFloatRounded(value));
    return static_cast<double>(bitsFloat(bits)) > value
               ? nextDownBits(bits, type)
               : bits;
  }
  default: return doubleBits(value);
  }
}

void sortFlat(HostTensor &t, bool descending) {
  const int64_t n = t.numElements();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const HostTensor source = t;
  auto less = [&](int64_t a, int64_t b) {
    if (isFloat(source.type))
      return elementAsDouble(source, a) < elementAsDouble(source, b);
    int64_t x = source.type == ElementType::I32 ? source.get<int32_t>(a)
                                                : source.get<int64_t>(a);
    int64_t y = source.type == ElementType::I32 ? source.get<int32_t>(b)
                                                : source.get<int64_t>(b);
    return x < y;
  };
  if (descending)
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return less(b, a); });
  else
    std::stable_sort(order.begin(), order.end(), less);
  for (int64_t i = 0; i < n; ++i)
    setBits(t, i, elementBits(source, order[static_cast<size_t>(i)]));
}

} // namespace detail

namespace {

using detail::setBits;
using detail::setFloat;
using detail::setInt;
using detail::specialFloatBits;

/// Special integers of each type.
std::vector<int64_t> specialInts(ElementType type) {
  std::vector<int64_t> values = {0, -1, 1, 255, 256, -256};
  const int64_t i32Min = std::numeric_limits<int32_t>::min();
  const int64_t i32Max = std::numeric_limits<int32_t>::max();
  for (int64_t v : {i32Min, i32Max, i32Min + 1, i32Max - 1})
    values.push_back(v);
  if (type == ElementType::I64) {
    const int64_t i64Min = std::numeric_limits<int64_t>::min();
    const int64_t i64Max = std::numeric_limits<int64_t>::max();
    for (int64_t v : {i64Min, i64Max, i64Min + 1, i64Max - 1})
      values.push_back(v);
  }
  return values;
}

/// A per-tensor scale for uniform floats and its integer range.
double pickFloatScale(Rng &rng) {
  constexpr double kScales[] = {1.0, 10.0, 100.0, 1000.0};
  return kScales[static_cast<size_t>(rng.uniform(0, 3))];
}
int64_t pickIntRange(ElementType type, Rng &rng) {
  if (type == ElementType::I64 && rng.chance(0.2))
    return int64_t(1) << 40;
  constexpr int64_t kRanges[] = {10, 1000, 1 << 20};
  return kRanges[static_cast<size_t>(rng.uniform(0, 2))];
}

//===----------------------------------------------------------------------===//
// Modes.
//===----------------------------------------------------------------------===//

void fillUniform(HostTensor &t, Rng &rng) {
  const int64_t n = t.numElements();
  if (isFloat(t.type)) {
    double scale = pickFloatScale(rng);
    for (int64_t i = 0; i < n; ++i)
      setFloat(t, i, (rng.uniformDouble() * 2.0 - 1.0) * scale);
    return;
  }
  int64_t range = pickIntRange(t.type, rng);
  for (int64_t i = 0; i < n; ++i)
    setInt(t, i, rng.uniform(-range, range));
}

void fillTies(HostTensor &t, Rng &rng) {
  const int64_t n = t.numElements();
  const int64_t distinct = rng.uniform(1, 4);
  std::vector<uint64_t> poolBits;
  // Build the pool through a one-element scratch tensor, so each entry is
  // already rounded to the type.
  HostTensor scratch(t.type, {1});
  auto bitsOf = [&](const HostTensor &s) { return elementBits(s, 0); };
  if (isFloat(t.type)) {
    constexpr double kFloats[] = {-2.0, -1.0, -0.0, 0.0,   0.5,
                                  1.0,  1.5,  3.0,  100.25};
    if (rng.chance(0.3)) {
      setFloat(scratch, 0, -0.0);
      poolBits.push_back(bitsOf(scratch));
      setFloat(scratch, 0, 0.0);
      poolBits.push_back(bitsOf(scratch));
    }
    while (static_cast<int64_t>(poolBits.size()) < distinct) {
      double v = rng.chance(0.7)
                     ? kFloats[static_cast<size_t>(rng.uniform(0, 8))]
                     : (rng.uniformDouble() * 2.0 - 1.0) * 100.0;
      setFloat(scratch, 0, v);
      poolBits.push_back(bitsOf(scratch));
    }
  } else {
    std::vector<int64_t> extremes = specialInts(t.type);
    while (static_cast<int64_t>(poolBits.size()) < distinct) {
      int64_t v = rng.chance(0.7) ? rng.uniform(-3, 3) : rng.pick(extremes);
      setInt(scratch, 0, v);
      poolBits.push_back(bitsOf(scratch));
    }
  }
  for (int64_t i = 0; i < n; ++i)
    setBits(t, i, rng.pick(poolBits));
}

void fillSpecial(HostTensor &t, Rng &rng) {
  const int64_t n = t.numElements();
  if (isFloat(t.type)) {
    std::vector<uint64_t> specials = specialFloatBits(t.type);
    double scale = pickFloatScale(rng);
    for (int64_t i = 0; i < n; ++i) {
      if (rng.chance(0.5))
        setBits(t, i, rng.pick(specials));
      else
        setFloat(t, i, (rng.uniformDouble() * 2.0 - 1.0) * scale);
    }
    return;
  }
  std::vector<int64_t> specials = specialInts(t.type);
  int64_t range = pickIntRange(t.type, rng);
  for (int64_t i = 0; i < n; ++i)
    setInt(t, i,
           rng.chance(0.5) ? rng.pick(specials) : rng.uniform(-range, range));
}

/// Uniform or tie-heavy values, stably sorted in flat order (ascending or
/// descending). The values hold no NaN, so the numeric order is total.
void fillSorted(HostTensor &t, bool descending, Rng &rng) {
  if (rng.chance(0.25))
    fillTies(t, rng);
  else
    fillUniform(t, rng);
  detail::sortFlat(t, descending);
}

/// The stream that fills an NMS box input of the mixed mode as a cluster
/// grid instead (BoxMode::ClusterGrid), and the chance it does.
constexpr uint64_t kClusterGridStream = 0x636c7573746572ull;
constexpr double kClusterGridChance = 0.6;

/// The stream that puts bf16 extremes into a plain bf16 input of the mixed
/// mode, and the chance it does: -inf, the lowest finite value and huge
/// negatives are what an order that takes bf16 for f16 (its exponent
/// mask) gets wrong, and the modes above write them into few inputs.
constexpr uint64_t kBf16ExtremeStream = 0x6266313665787472ull;
constexpr double kBf16ExtremeChance = 0.9;

/// The stream that writes outliers into the rows of a plain input that a
/// top-k reads in the mixed mode, and the chance a row gets them: 1 to 3
/// values far beyond the row's others, on the side its top-k keeps. They sit in
/// a radix select's better bins, so the k-th value's bin is one that compacts a
/// row with better values already known (the edge where
/// radix-compact-drops-better lives); the uniform and tie-heavy modes otherwise
/// put a row's best and its k-th in one bin. Sorted and reversed inputs stay
/// ordered.
constexpr uint64_t kTopkOutlierStream = 0x6f75746c69657273ull;
constexpr double kTopkOutlierRowChance = 0.5;

/// The top-k ops that read value `id` directly.
std::vector<const Op *> topksReading(const Program &program, int id) {
  std::vector<const Op *> readers;
  for (const Op &op : program.ops)
    if (op.kind == OpKind::TopK && !op.operands.empty() && op.operands[0] == id)
      readers.push_back(&op);
  return readers;
}

/// An outlier of `type` on the large side (`large`) or the small one: at
/// least half the largest finite value's magnitude for floats, within 2^16
/// of the limit for integers.
void setOutlier(HostTensor &t, int64_t i, bool large, Rng &rng) {
  if (isFloat(t.type)) {
    double limit = std::numeric_limits<double>::max();
    if (t.type == ElementType::F16)
      limit = 65504.0;
    else if (t.type == ElementType::BF16)
      limit = 0x1.fep127; // 0x7F7F
    else if (t.type == ElementType::F32)
      limit = std::numeric_limits<float>::max();
    double value = limit * (0.5 + 0.5 * rng.uniformDouble());
    setFloat(t, i, large ? value : -value);
    return;
  }
  const int64_t offset = rng.uniform(0, int64_t(1) << 16);
  if (t.type == ElementType::I32)
    setInt(t, i,
           large ? std::numeric_limits<int32_t>::max() - offset
                 : std::numeric_limits<int32_t>::min() + offset);
  else
    setInt(t, i,
           large ? std::numeric_limits<int64_t>::max() - offset
                 : std::numeric_limits<int64_t>::min() + offset);
}

/// Writes outliers into rows of `t` along the dimension of `readers[0]`
/// (kTopkOutlierRowChance a row, 1 to 3 each); each takes the side of one
/// reader drawn at random.
void addTopkOutliers(HostTensor &t, const std::vector<const Op *> &readers,
                     Rng &rng) {
  const auto dim = static_cast<size_t>(readers.front()->dimension);
  if (dim >= t.shape.size() || t.shape[dim] < 2)
    return;
  const int64_t n = t.shape[dim];
  int64_t inner = 1, outer = 1;
  for (size_t d = 0; d < dim; ++d)
    outer *= t.shape[d];
  for (size_t d = dim + 1; d < t.shape.size(); ++d)
    inner *= t.shape[d];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      if (!rng.chance(kTopkOutlierRowChance))
        continue;
      const int64_t count = rng.uniform(1, 3);
      for (int64_t c = 0; c < count; ++c) {
        const Op *reader = readers[static_cast<size_t>(
            rng.uniform(0, static_cast<int64_t>(readers.size()) - 1))];
        setOutlier(t, (o * n + rng.uniform(0, n - 1)) * inner + i,
                   reader->largest, rng);
      }
    }
}

/// Writes 1 to 3 bf16 extremes at random places of `t` (bf16, non-empty).
void addBf16Extremes(HostTensor &t, Rng &rng) {
  constexpr uint16_t kExtremes[] = {0xFF80, 0xFF80, 0xFF80, 0xFF7F, 0xFF7F,
                                    0xFE80, 0x7F80, 0x7F7F};
  const int64_t count = rng.uniform(1, 3);
  for (int64_t i = 0; i < count; ++i)
    setBits(t, rng.uniform(0, t.numElements() - 1),
            kExtremes[rng.uniform(0, 7)]);
}

/// The sift.nms op whose operand `index` (0 boxes, 1 scores) is value `id`.
const Op *nmsUsing(const Program &program, int id, size_t index) {
  for (const Op &op : program.ops) {
    if (op.kind == OpKind::Nms && op.operands.size() == 2 &&
        op.operands[index] == id)
      return &op;
    // Through a pre-filter's gather: the boxes or scores it gathers are
    // still NMS boxes or scores.
    if (op.kind == OpKind::Gather && !op.operands.empty() &&
        op.operands[0] == id && !op.results.empty())
      if (const Op *nms = nmsUsing(program, op.results[0], index))
        return nms;
  }
  return nullptr;
}

/// Orders each batch's boxes [B, N, 4] by their first coordinate (a stable
/// sort of whole rows; the boxes hold no NaN).
void sortBoxes(HostTensor &t, bool descending) {
  const int64_t batches = t.shape[0], n = t.shape[1];
  const HostTensor source = t;
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    auto key = [&](int64_t i) {
      return elementAsDouble(source, (b * n + i) * 4);
    };
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return descending ? key(y) < key(x) : key(x) < key(y);
    });
    for (int64_t i = 0; i < n; ++i)
      for (int64_t c = 0; c < 4; ++c)
        setBits(t, (b * n + i) * 4 + c,
                elementBits(source,
                            (b * n + order[static_cast<size_t>(i)]) * 4 + c));
  }
}

} // namespace

double elementAsDouble(const HostTensor &tensor, int64_t index) {
  switch (tensor.type) {
  case ElementType::F16: return halfToDouble(tensor.get<uint16_t>(index));
  case ElementType::BF16:
    return bfloat16ToDouble(tensor.get<uint16_t>(index));
  case ElementType::F32: return tensor.get<float>(index);
  case ElementType::F64: return tensor.get<double>(index);
  case ElementType::I32: return tensor.get<int32_t>(index);
  case ElementType::I64: return static_cast<double>(tensor.get<int64_t>(index));
  }
  return 0.0;
}

uint64_t elementBits(const HostTensor &tensor, int64_t index) {
  switch (byteWidth(tensor.type)) {
  case 2: return tensor.get<uint16_t>(index);
  case 4: return tensor.get<uint32_t>(index);
  case 8: return tensor.get<uint64_t>(index);
  default: return 0;
  }
}

namespace {
/// The plain mode the mixed mode draws for one tensor.
InputMode pickMixedMode(Rng &rng) {
  constexpr InputMode kModes[] = {InputMode::Uniform, InputMode::Ties,
                                  InputMode::Special, InputMode::Sorted,
                                  InputMode::Reversed};
  return kModes[rng.pickWeighted({3, 2, 2, 1, 1})];
}
} // namespace

HostTensor generateInput(const TensorType &type, InputMode mode, Rng &rng) {
  HostTensor t(type.elementType, type.shape);
  if (mode == InputMode::Mixed)
    mode = pickMixedMode(rng);
  switch (mode) {
  case InputMode::Mixed: // Replaced above.
  case InputMode::Uniform: fillUniform(t, rng); break;
  case InputMode::Ties: fillTies(t, rng); break;
  case InputMode::Special: fillSpecial(t, rng); break;
  case InputMode::Sorted: fillSorted(t, /*descending=*/false, rng); break;
  case InputMode::Reversed: fillSorted(t, /*descending=*/true, rng); break;
  }
  return t;
}

std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       Rng &rng,
                                       std::vector<InputFill> *fills) {
  std::vector<HostTensor> tensors;
  tensors.reserve(program.inputs.size());
  if (fills)
    fills->assign(program.inputs.size(), InputFill{});
  const bool ordered = mode == InputMode::Sorted || mode == InputMode::Reversed;
  const bool descending = mode == InputMode::Reversed;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const int id = program.inputs[i];
    const TensorType &type = program.values[static_cast<size_t>(id)];
    InputFill fill;
    if (const Op *nms = nmsUsing(program, id, 0)) {
      fill.role = InputFill::Role::NmsBoxes;
      // The cluster grid's draws come from a stream of their own, after
      // the table's fill, so that every other input is as it was.
      Rng aim = rng.fork(kClusterGridStream);
      fill.boxMode = pickBoxMode(mode, rng);
      tensors.push_back(generateNmsBoxes(
          type, fill.boxMode, nms->centerPointBox, nms->iouThreshold, rng));
      if (mode == InputMode::Mixed && aim.chance(kClusterGridChance)) {
        fill.boxMode = BoxMode::ClusterGrid;
        tensors.back() = generateNmsBoxes(type, fill.boxMode,
                                          nms->centerPointBox,
                                          nms->iouThreshold, aim);
      }
      if (ordered)
        sortBoxes(tensors.back(), descending);
    } else if (const Op *nms = nmsUsing(program, id, 1)) {
      fill.role = InputFill::Role::NmsScores;
      fill.scoreMode = pickScoreMode(mode, rng);
      tensors.push_back(
          generateNmsScores(type, fill.scoreMode, nms->scoreThreshold, rng));
      if (ordered)
        detail::sortFlat(tensors.back(), descending);
    } else {
      Rng extremes = rng.fork(kBf16ExtremeStream);
      Rng outliers = rng.fork(kTopkOutlierStream);
      // The same draws as generateInput(type, mode, rng).
      const InputMode plain =
          mode == InputMode::Mixed ? pickMixedMode(rng) : mode;
      tensors.push_back(generateInput(type, plain, rng));
      if (type.elementType == ElementType::BF16 && mode == InputMode::Mixed &&
          tensors.back().numElements() > 0 &&
          extremes.chance(kBf16ExtremeChance))
        addBf16Extremes(tensors.back(), extremes);
      std::vector<const Op *> readers = topksReading(program, id);
      if (mode == InputMode::Mixed && plain != InputMode::Sorted &&
          plain != InputMode::Reversed && !readers.empty())
        addTopkOutliers(tensors.back(), readers, outliers);
    }
    if (fills)
      (*fills)[i] = fill;
  }
  return tensors;
}

std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       uint64_t seed,
                                       std::vector<InputFill> *fills) {
  Rng rng = Rng(seed).fork(kInputStream);
  return generateInputs(program, mode, rng, fills);
}

} // namespace sift::gen
