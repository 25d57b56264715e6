//===- oracles/Compare.cpp - Device outputs against the reference ---------===//
//
// Element-by-element comparison over raw bits, ulp tolerances propagated
// through the program model, and value formatting for mismatch messages.
//
//===----------------------------------------------------------------------===//
#include "oracles/Compare.h"

#include "oracles/Elementwise.h"
#include "oracles/FloatBits.h"
#include "oracles/TensorIndex.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sift::oracle {

using gen::EwKind;
using gen::Op;
using gen::OpKind;
using gen::Program;

namespace {

uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t saturatingShiftLeft(uint64_t a, int shift) {
  if (a == 0)
    return 0;
  if (shift >= 64 || a > (UINT64_MAX >> shift))
    return UINT64_MAX;
  return a << shift;
}

/// Whether float `bits` of `type` encode an infinity.
bool isInfBits(ElementType type, uint64_t bits) {
  return isFloat(type) && !isNaNBits(type, bits) &&
         std::isinf(floatValue(type, bits));
}

std::string indexString(const std::vector<int64_t> &index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i)
    s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

/// The bits of `value` rounded to float type `type`.
uint64_t roundTo(ElementType type, double value) {
  switch (type) {
  case ElementType::F16:
    return doubleToHalf(value);
  case ElementType::BF16:
    return doubleToBfloat16(value);
  case ElementType::F32:
    return bitCast<uint32_t>(static_cast<float>(value));
  default:
    return bitCast<uint64_t>(value);
  }
}

/// A decimal that reads back to `bits` in `type`: integral values below
/// 1e16 in full ("65504.0"), others as the shortest "%g" form that does.
std::string shortestDecimal(ElementType type, uint64_t bits) {
  double value = floatValue(type, bits);
  char buffer[64];
  if (value == std::trunc(value) && std::fabs(value) < 1e16) {
    std::snprintf(buffer, sizeof(buffer), "%.0f.0", value);
    return buffer;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (roundTo(type, std::strtod(buffer, nullptr)) == bits)
      break;
  }
  std::string s = buffer;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

/// Checks that a tensor's byte size fits its type; "" when it does.
std::string checkByteSize(const HostTensor &tensor) {
  size_t bytes =
      static_cast<size_t>(std::max<int64_t>(tensor.numElements(), 0)) *
      byteWidth(tensor.type);
  if (tensor.data.size() == bytes)
    return "";
  return describe(tensor) + " needs " + std::to_string(bytes) +
         " bytes, the tensor holds " + std::to_string(tensor.data.size());
}

/// Whether `actual` is acceptable for `expected` under `tolerance` ulps.
bool elementMatches(ElementType type, uint64_t expected, uint64_t actual,
                    uint64_t tolerance) {
  if (expected == actual)
    return true;
  if (!isFloat(type))
    return false;
  bool nanExpected = isNaNBits(type, expected);
  bool nanActual = isNaNBits(type, actual);
  if (nanExpected || nanActual)
    return nanExpected && nanActual;
  if (tolerance == 0 || isInfBits(type, expected) || isInfBits(type, actual))
    return false;
  return ulpDistance(type, expected, actual) <= tolerance;
}

/// The tolerance (ulps) of an elementwise op's result whose operands carry
/// `inherited`; `fromKnown`: its first operand is a value of the program.
uint64_t elementwiseTolerance(const Program &program, const Op &op,
                              uint64_t inherited, bool fromKnown) {
  ElementType to = program.values[op.results[0]].elementType;
  ElementType from = to;
  if (fromKnown)
    from = program.values[op.operands[0]].elementType;
  if (!isFloat(to))
    return 0; // Integer results are exact.
  switch (op.ew) {
  case EwKind::Sigmoid:
    return saturatingAdd(inherited, kSigmoidUlps);
  case EwKind::ExtF: {
    int shift = std::clamp(mantissaBits(to) - mantissaBits(from), 0, 63);
    return saturatingShiftLeft(inherited, shift);
  }
  case EwKind::TruncF: {
    int shift = std::clamp(mantissaBits(from) - mantissaBits(to), 0, 63);
    return inherited == 0 ? 0 : saturatingAdd(inherited >> shift, 1);
  }
  case EwKind::SIToFP:
    return 0;
  default:
    return inherited;
  }
}

} // namespace

std::vector<uint64_t> outputTolerances(const Program &program) {
  std::vector<uint64_t> tolerance(program.values.size(), 0);
  auto valid = [&](int id) {
    return id >= 0 && static_cast<size_t>(id) < tolerance.size();
  };
  for (const Op &op : program.ops) {
    uint64_t inherited = 0;
    for (int id : op.operands)
      if (valid(id))
        inherited = std::max(inherited, tolerance[id]);
    uint64_t result = 0;
    switch (op.kind) {
    case OpKind::Elementwise:
      if (op.results.empty() || !valid(op.results[0]))
        break;
      result = elementwiseTolerance(program, op, inherited,
                                    !op.operands.empty() &&
                                        valid(op.operands[0]));
      break;
    case OpKind::Slice:
    case OpKind::Gather:
      // Elements moved, not computed: the source's tolerance.
      result = inherited;
      break;
    case OpKind::Iota:
      result = 0;
      break;
    case OpKind::Nms:
      // i64 rows and count, compared exactly: the reference pads with -1,
      // so "count and the first count rows exactly, the padding rows -1"
      // (SEMANTICS.md) is equality of every element, whatever tolerance the
      // boxes or scores carry (as for top-k indices).
      result = 0;
      break;
    case OpKind::Sort:
    case OpKind::TopK: {
      // Moved elements keep their bits. Keys, and everything whose place
      // the keys decide, demand exact bits: keys an ulp apart may swap (GPU
      // runs draw exact keys, gen::Policy::allowInexactKeys). A payload
      // operand sorted by exact keys keeps its own tolerance.
      bool exactKeys = !op.operands.empty() && valid(op.operands[0]) &&
                       tolerance[op.operands[0]] == 0;
      for (size_t r = 0; r < op.results.size(); ++r) {
        if (!valid(op.results[r]))
          continue;
        bool payload = op.kind == OpKind::Sort && r > 0 &&
                       r < op.operands.size() && valid(op.operands[r]);
        tolerance[op.results[r]] =
            payload && exactKeys ? tolerance[op.operands[r]] : 0;
      }
      continue;
    }
    }
    for (int id : op.results)
      if (valid(id))
        tolerance[id] = result;
  }
  std::vector<uint64_t> outputs;
  for (int id : program.outputs)
    outputs.push_back(valid(id) ? tolerance[id] : 0);
  return outputs;
}

std::string formatValue(ElementType type, const uint8_t *element) {
  uint64_t bits = loadBits(type, element);
  if (!isFloat(type))
    return std::to_string(signedValue(type, bits));
  bool negative = (bits >> (byteWidth(type) * 8 - 1)) & 1;
  std::string text;
  if (isNaNBits(type, bits))
    text = negative ? "-nan" : "nan";
  else if (isInfBits(type, bits))
    text = negative ? "-inf" : "inf";
  else
    text = shortestDecimal(type, bits);
  char hex[32];
  std::snprintf(hex, sizeof(hex), " (0x%0*" PRIx64 ")",
                int(byteWidth(type) * 2), bits);
  return text + hex;
}

std::optional<Mismatch> compareOutputs(const Program &program,
                                       const std::vector<HostTensor> &expected,
                                       const std::vector<HostTensor> &actual) {
  return compareOutputs(outputTolerances(program), expected, actual);
}

CarriedComparison compareCarried(const std::vector<uint64_t> &tolerances,
                                 const std::vector<HostTensor> &expected,
                                 const std::vector<HostTensor> &actual) {
  CarriedComparison result;
  std::vector<HostTensor> settled = actual;
  for (size_t o = 0; o < expected.size() && o < settled.size(); ++o) {
    uint64_t tolerance = o < tolerances.size() ? tolerances[o] : 0;
    const HostTensor &e = expected[o];
    if (tolerance == 0 || e.type != settled[o].type ||
        e.shape != settled[o].shape)
      continue;
    if (auto off = compareOutputs(std::vector<uint64_t>{tolerance}, {e},
                                  {settled[o]})) {
      result.unchecked.push_back(
          "output " + std::to_string(o) +
          " follows an inexact op and is off by more than its " +
          std::to_string(tolerance) + " ulp (" + off->message +
          "): the device's math is not the reference's, and the tolerance "
          "does not follow cancellation in later adds");
      settled[o] = e;
    }
  }
  result.mismatch = compareOutputs(tolerances, expected, settled);
  return result;
}

std::optional<Mismatch>
compareOutputs(const std::vector<uint64_t> &tolerances,
               const std::vector<HostTensor> &expected,
               const std::vector<HostTensor> &actual) {
  if (expected.size() != actual.size()) {
    Mismatch m;
    m.expected = std::to_string(expected.size()) + " outputs";
    m.actual = std::to_string(actual.size()) + " outputs";
    m.message = "expected " + m.expected + ", got " + m.actual;
    return m;
  }
  for (size_t o = 0; o < expected.size(); ++o) {
    const HostTensor &e = expected[o], &a = actual[o];
    std::string where = "output " + std::to_string(o);
    Mismatch m;
    m.output = static_cast<int>(o);
    if (e.type != a.type || e.shape != a.shape) {
      m.expected = describe(e);
      m.actual = describe(a);
      m.message = where + ": expected " + m.expected + ", got " + m.actual;
      return m;
    }
    for (const HostTensor *t : {&e, &a}) {
      std::string problem = checkByteSize(*t);
      if (!problem.empty()) {
        m.expected = describe(e);
        m.actual = describe(a);
        m.message =
            where + (t == &e ? " (expected): " : " (actual): ") + problem;
        return m;
      }
    }
    uint64_t tolerance = o < tolerances.size() ? tolerances[o] : 0;
    size_t width = byteWidth(e.type);
    int64_t count = e.numElements(), differing = 0, first = -1;
    for (int64_t i = 0; i < count; ++i) {
      uint64_t x = loadBits(e.type, e.data.data() + i * width);
      uint64_t y = loadBits(a.type, a.data.data() + i * width);
      if (elementMatches(e.type, x, y, tolerance))
        continue;
      if (first < 0)
        first = i;
      ++differing;
    }
    if (first < 0)
      continue;
    m.flatIndex = first;
    m.index = unflattenIndex(first, e.shape);
    m.expected = formatValue(e.type, e.data.data() + first * width);
    m.actual = formatValue(a.type, a.data.data() + first * width);
    m.message = where + " at " + indexString(m.index) + ": expected " +
                m.expected + ", got " + m.actual;
    if (tolerance > 0) {
      uint64_t x = loadBits(e.type, e.data.data() + first * width);
      uint64_t y = loadBits(a.type, a.data.data() + first * width);
      uint64_t distance = ulpDistance(e.type, x, y);
      m.message += distance == UINT64_MAX
                       ? "; NaN against a number"
                       : "; " + std::to_string(distance) + " ulp apart";
      m.message += ", tolerance " + std::to_string(tolerance) + " ulp";
    }
    m.message += "; " + std::to_string(differing) + " of " +
                 std::to_string(count) + " elements differ";
    return m;
  }
  return std::nullopt;
}

} // namespace sift::oracle
