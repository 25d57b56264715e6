//===- oracles/OpenOrder.cpp - Ties a policy leaves open ------------------===//
//
// The sorts and top-ks whose order a policy leaves open on these inputs
// (ties, or both zeros where they are ordered), found in the reference's
// intermediate values, and the comparison of their direct results without
// the order of their tied elements. ComparisonPolicy.cpp decides what the
// rest of the outputs are compared against.
//
//===----------------------------------------------------------------------===//

#include "oracles/OpenOrder.h"

#include "oracles/FloatBits.h"
#include "oracles/KeyOrder.h"
#include "oracles/TensorIndex.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace sift::oracle {

using gen::Op;
using gen::OpKind;
using gen::Program;

namespace detail {

uint64_t bitsAt(const HostTensor &t, int64_t flat) {
  return loadBits(t.type, t.data.data() + flat * byteWidth(t.type));
}

} // namespace detail

namespace {

using detail::bitsAt;

/// The order top-k ranks by, best first (the float total order).
struct TopKOrder {
  ElementType type;
  bool largest;
  bool operator()(uint64_t a, uint64_t b) const {
    return largest ? totalLess(type, b, a) : totalLess(type, a, b);
  }
};

/// Whether `bits` is the value iree_linalg_ext.topk's outputs start with:
/// the worst under the NaN-aware order, -inf for largest, NaN for smallest.
bool isTopKFill(ElementType type, bool largest, uint64_t bits) {
  if (isFloat(type)) {
    double v = floatValue(type, bits);
    return largest ? std::isinf(v) && v < 0 : std::isnan(v);
  }
  int64_t v = signedValue(type, bits);
  if (type == ElementType::I32)
    return v == (largest ? std::numeric_limits<int32_t>::min()
                         : std::numeric_limits<int32_t>::max());
  return v == (largest ? std::numeric_limits<int64_t>::min()
                       : std::numeric_limits<int64_t>::max());
}

/// Whether a sort's sorted keys hold two equal keys in one lane.
bool sortHasTies(const Op &op, const HostTensor &sortedKeys) {
  KeyOrder less(sortedKeys.type, op.order, op.comparator);
  int64_t length = sortedKeys.shape[op.dimension];
  bool ties = false;
  forEachLane(sortedKeys.shape, op.dimension, length,
              [&](int64_t base, int64_t, int64_t stride) {
                for (int64_t j = 1; j < length && !ties; ++j)
                  ties = equivalent(less,
                                    bitsAt(sortedKeys, base + (j - 1) * stride),
                                    bitsAt(sortedKeys, base + j * stride));
              });
  return ties;
}

/// Whether a top-k's answer depends on how ties are broken: two equal
/// values among the best k, the k-th best equal to an element left out, or
/// (with the fill index allowed) a best value equal to the fill.
bool topkHasTies(const Op &op, const HostTensor &input, const HostTensor &best,
                 bool fillIndex) {
  TopKOrder order{input.type, op.largest};
  int64_t length = input.shape[op.dimension];
  bool ties = false;
  if (op.k == 0)
    return false;
  LaneLayout in(input.shape, op.dimension);
  for (int64_t o = 0; o < in.outer && !ties; ++o)
    for (int64_t i = 0; i < in.inner && !ties; ++i) {
      int64_t base = in.base(o, i, length), outBase = in.base(o, i, op.k);
      uint64_t last = bitsAt(best, outBase + (op.k - 1) * in.inner);
      int64_t kept = 0, all = 0;
      for (int64_t j = 0; j < op.k; ++j) {
        uint64_t v = bitsAt(best, outBase + j * in.inner);
        kept += equivalent(order, v, last);
        if (j > 0)
          ties |=
              equivalent(order, bitsAt(best, outBase + (j - 1) * in.inner), v);
        ties |= fillIndex && isTopKFill(input.type, op.largest, v);
      }
      for (int64_t j = 0; j < length; ++j)
        all += equivalent(order, bitsAt(input, base + j * in.inner), last);
      ties |= all > kept;
    }
  return ties;
}

/// Whether two elements agree within `ulps` (any NaN equals any NaN; 0 ulps
/// demands the same bits).
bool agree(ElementType type, uint64_t a, uint64_t b, uint64_t ulps) {
  if (a == b)
    return true;
  if (!isFloat(type))
    return false;
  if (isNaNBits(type, a) || isNaNBits(type, b))
    return isNaNBits(type, a) && isNaNBits(type, b);
  return ulps > 0 && ulpDistance(type, a, b) <= ulps;
}

Mismatch runMismatch(int output, const HostTensor &expected, int64_t flat,
                     int64_t count, const std::string &what) {
  Mismatch m;
  m.output = output;
  m.flatIndex = flat;
  m.index = unflattenIndex(flat, expected.shape);
  std::string at;
  for (size_t i = 0; i < m.index.size(); ++i)
    at += (i ? ", " : "") + std::to_string(m.index[i]);
  m.message = "output " + std::to_string(output) + " at [" + at + "]: " +
              what +
              (count > 1 ? " (a run of " + std::to_string(count) +
                               " tied elements, compared without their order)"
                         : " (the lane compared without the order of its "
                           "tied elements)");
  return m;
}

/// `actual` holds, in each run of tied elements of each lane (runs of
/// `runKeys`, equal under `tied`), the elements `expected` holds there.
/// With `selectedFrom` (a top-k's input), the last run of a lane may be a
/// choice among more tied input elements than it has slots: its elements
/// need only be tied to its key (which -0.0 or NaN payload is chosen is the
/// open tie order).
template <typename Tied>
std::optional<Mismatch> sameRuns(int output, const HostTensor &expected,
                                 const HostTensor &actual,
                                 const HostTensor &runKeys, int64_t dimension,
                                 uint64_t ulps, const Tied &tied,
                                 const HostTensor *selectedFrom = nullptr) {
  std::optional<Mismatch> found;
  int64_t length = expected.shape[dimension];
  TopKOrder byValue{expected.type, false};
  const HostTensor &lanes = selectedFrom ? *selectedFrom : expected;
  int64_t inLength = lanes.shape[dimension];
  forEachLane(lanes.shape, dimension, length,
              [&](int64_t inBase, int64_t base, int64_t stride) {
    if (!selectedFrom)
      base = inBase;
    for (int64_t start = 0; start < length && !found;) {
      int64_t end = start + 1;
      while (end < length &&
             tied(bitsAt(runKeys, base + start * stride),
                  bitsAt(runKeys, base + end * stride)))
        ++end;
      uint64_t key = bitsAt(runKeys, base + start * stride);
      if (selectedFrom && end == length) {
        int64_t candidates = 0;
        for (int64_t j = 0; j < inLength; ++j)
          candidates += tied(bitsAt(*selectedFrom, inBase + j * stride), key);
        if (candidates > end - start) {
          for (int64_t j = start; j < end && !found; ++j)
            if (!tied(bitsAt(actual, base + j * stride), key))
              found = runMismatch(
                  output, expected, base + j * stride, 1,
                  "expected a value tied to " +
                      formatValue(expected.type,
                                  reinterpret_cast<const uint8_t *>(&key)));
          start = end;
          continue;
        }
      }
      std::vector<uint64_t> want, got;
      for (int64_t j = start; j < end; ++j) {
        want.push_back(bitsAt(expected, base + j * stride));
        got.push_back(bitsAt(actual, base + j * stride));
      }
      auto order = [&](uint64_t a, uint64_t b) {
        return byValue(a, b) || (!byValue(b, a) && a < b);
      };
      std::sort(want.begin(), want.end(), order);
      std::sort(got.begin(), got.end(), order);
      for (size_t j = 0; j < want.size() && !found; ++j)
        if (!agree(expected.type, want[j], got[j], ulps))
          found = runMismatch(
              output, expected, base + start * stride, end - start,
              "expected " +
                  formatValue(expected.type,
                              reinterpret_cast<const uint8_t *>(&want[j])) +
                  " among the tied elements, got " +
                  formatValue(expected.type,
                              reinterpret_cast<const uint8_t *>(&got[j])));
      start = end;
    }
  });
  return found;
}

/// Each top-k index of `indices` points at an element of `input` equal to
/// the value at its slot, once per lane; -1 where `fillIndex` allows it.
std::optional<Mismatch> validIndices(int output, const Op &op,
                                     const HostTensor &input,
                                     const HostTensor &values, bool valuesExact,
                                     const HostTensor &indices,
                                     bool fillIndex) {
  int64_t length = input.shape[op.dimension];
  TopKOrder order{input.type, op.largest};
  LaneLayout in(input.shape, op.dimension);
  for (int64_t o = 0; o < in.outer; ++o)
    for (int64_t i = 0; i < in.inner; ++i) {
      int64_t base = in.base(o, i, length), outBase = in.base(o, i, op.k);
      std::set<int64_t> seen;
      for (int64_t j = 0; j < op.k; ++j) {
        int64_t flat = outBase + j * in.inner;
        int64_t index = indices.get<int64_t>(flat);
        uint64_t value = bitsAt(values, flat);
        std::string problem;
        if (index == -1 && fillIndex &&
            isTopKFill(input.type, op.largest, value))
          continue;
        if (index < 0 || index >= length)
          problem = "index " + std::to_string(index) + " is outside [0, " +
                    std::to_string(length) + ")";
        else if (!seen.insert(index).second)
          problem = "index " + std::to_string(index) + " appears twice";
        else {
          uint64_t at = bitsAt(input, base + index * in.inner);
          bool same = valuesExact ? agree(input.type, at, value, 0)
                                  : equivalent(order, at, value);
          if (!same)
            problem = "index " + std::to_string(index) +
                      " points at an element that is not the value " +
                      formatValue(input.type,
                                  reinterpret_cast<const uint8_t *>(&value));
        }
        if (!problem.empty()) {
          Mismatch m = runMismatch(output, indices, flat, 1, problem);
          m.message = m.message.substr(0, m.message.find(" (a run"));
          return m;
        }
      }
    }
  return std::nullopt;
}

/// Whether float tensor `t` holds both -0.0 and +0.0.
bool holdsBothZeros(const HostTensor &t) {
  if (!isFloat(t.type))
    return false;
  bool negative = false, positive = false;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    uint64_t bits = bitsAt(t, i);
    if (floatValue(t.type, bits) != 0)
      continue;
    bool sign = (bits >> (8 * byteWidth(t.type) - 1)) & 1;
    (sign ? negative : positive) = true;
  }
  return negative && positive;
}

} // namespace

namespace detail {

/// Which ops leave an order open on these inputs, from the intermediate
/// values.
std::vector<bool> openOps(const ComparisonPolicy &policy,
                          const Program &program,
                          const std::vector<HostTensor> &values) {
  std::vector<bool> open(program.ops.size(), false);
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const Op &op = program.ops[i];
    if (op.kind == OpKind::Sort && !policy.stableSort)
      open[i] = sortHasTies(op, values[op.results[0]]);
    if (op.kind == OpKind::TopK &&
        (!policy.topkLowerIndexFirst || policy.topkFillIndex))
      open[i] = topkHasTies(op, values[op.operands[0]], values[op.results[0]],
                            policy.topkFillIndex);
    if ((op.kind == OpKind::Sort || op.kind == OpKind::TopK) &&
        policy.signedZeroOrdered && holdsBothZeros(values[op.operands[0]]))
      open[i] = true;
  }
  return open;
}

/// Compares output `o`, a direct result of open op `op`, without the order
/// of its tied elements.
std::optional<Mismatch>
compareOpen(const ComparisonPolicy &policy, const Program &program,
            const Op &op, int o, uint64_t ulps,
            const std::vector<HostTensor> &values,
            const std::vector<HostTensor> &expectedOutputs,
            const std::vector<HostTensor> &actual) {
  int value = program.outputs[o];
  // The expected outputs decide; the reference's intermediate values only
  // say where the runs of tied elements are.
  const HostTensor &expected = expectedOutputs[o];
  if (op.kind == OpKind::Sort) {
    KeyOrder less(values[op.results[0]].type, op.order, op.comparator);
    return sameRuns(
        o, expected, actual[o], values[op.results[0]], op.dimension, ulps,
        [&](uint64_t a, uint64_t b) { return equivalent(less, a, b); });
  }
  TopKOrder order{expected.type, op.largest};
  const HostTensor &best = values[op.results[0]];
  if (value == op.results[0])
    return sameRuns(
        o, expected, actual[o], best, op.dimension, ulps,
        [&](uint64_t a, uint64_t b) { return equivalent(order, a, b); },
        &values[op.operands[0]]);
  // The indices: against the device's values when they are an output too.
  auto valuesOut = std::find(program.outputs.begin(), program.outputs.end(),
                             op.results[0]);
  bool exact = valuesOut != program.outputs.end();
  const HostTensor &slotValues =
      exact ? actual[valuesOut - program.outputs.begin()] : best;
  return validIndices(o, op, values[op.operands[0]], slotValues, exact,
                      actual[o], policy.topkFillIndex);
}

} // namespace detail

} // namespace sift::oracle
