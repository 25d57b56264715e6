//===- generators/InputGenerator.cpp - Random input tensors ---------------===//
//
// Value pools and element writers per element type, and the modes of
// InputGenerator.h built from them.
//
//===----------------------------------------------------------------------===//
#include "generators/InputGenerator.h"

#include "generators/Half.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

namespace sift::gen {

namespace {

//===----------------------------------------------------------------------===//
// Element writers.
//===----------------------------------------------------------------------===//

/// Writes the float `value` rounded (to nearest even) to the tensor's type.
void setFloat(HostTensor &t, int64_t i, double value) {
  switch (t.type) {
  case ElementType::F16: t.set<uint16_t>(i, doubleToHalfBits(value)); return;
  case ElementType::F32: t.set<float>(i, static_cast<float>(value)); return;
  case ElementType::F64: t.set<double>(i, value); return;
  case ElementType::I32:
  case ElementType::I64: return;
  }
}

/// Writes the integer `value`, truncated to the tensor's width.
void setInt(HostTensor &t, int64_t i, int64_t value) {
  if (t.type == ElementType::I32)
    t.set<int32_t>(i, static_cast<int32_t>(value));
  else if (t.type == ElementType::I64)
    t.set<int64_t>(i, value);
}

/// Writes raw bits (the low byteWidth bytes of `bits`).
void setBits(HostTensor &t, int64_t i, uint64_t bits) {
  switch (byteWidth(t.type)) {
  case 2: t.set<uint16_t>(i, static_cast<uint16_t>(bits)); return;
  case 4: t.set<uint32_t>(i, static_cast<uint32_t>(bits)); return;
  case 8: t.set<uint64_t>(i, bits); return;
  default: return;
  }
}

//===----------------------------------------------------------------------===//
// Pools.
//===----------------------------------------------------------------------===//

/// Special float bit patterns of each type: NaNs of both signs and several
/// payloads (quiet and signalling), infinities, zeros, denormals, extremes,
/// smallest normals.
std::vector<uint64_t> specialFloatBits(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return {0x7E00, 0xFE00, 0x7E01, 0x7C01, 0xFD55, // NaNs
            0x7C00, 0xFC00,                         // +-inf
            0x0000, 0x8000,                         // +-0
            0x0001, 0x8001, 0x03FF, 0x83FF,         // denormals
            0x7BFF, 0xFBFF,                         // max, lowest
            0x0400, 0x8400};                        // smallest normals
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

} // namespace

double elementAsDouble(const HostTensor &tensor, int64_t index) {
  switch (tensor.type) {
  case ElementType::F16: return halfBitsToDouble(tensor.get<uint16_t>(index));
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

HostTensor generateInput(const TensorType &type, InputMode mode, Rng &rng) {
  HostTensor t(type.elementType, type.shape);
  if (mode == InputMode::Mixed) {
    constexpr InputMode kModes[] = {InputMode::Uniform, InputMode::Ties,
                                    InputMode::Special, InputMode::Sorted,
                                    InputMode::Reversed};
    mode = kModes[rng.pickWeighted({3, 2, 2, 1, 1})];
  }
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
                                       Rng &rng) {
  std::vector<HostTensor> tensors;
  tensors.reserve(program.inputs.size());
  for (int id : program.inputs)
    tensors.push_back(
        generateInput(program.values[static_cast<size_t>(id)], mode, rng));
  return tensors;
}

std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       uint64_t seed) {
  Rng rng = Rng(seed).fork(kInputStream);
  return generateInputs(program, mode, rng);
}

} // namespace sift::gen
