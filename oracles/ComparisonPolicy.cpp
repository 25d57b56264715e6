//===- oracles/ComparisonPolicy.cpp - What each compiler promises ---------===//
//
// The exact comparison runs first; only when it fails and the policy leaves
// an order open does the program's intermediate values (the reference
// evaluated with every value as an output) say which sorts and top-ks had
// ties on these inputs. Their direct results are compared without the
// order of tied elements; outputs computed from them through other ops are
// named as unchecked; every other output is compared exactly.
//
//===----------------------------------------------------------------------===//

#include "oracles/ComparisonPolicy.h"

#include "oracles/FloatBits.h"
#include "oracles/KeyOrder.h"
#include "oracles/Reference.h"
#include "oracles/TensorIndex.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

namespace sift::oracle {

using gen::Op;
using gen::OpKind;
using gen::Program;

ComparisonPolicy exactPolicy() { return ComparisonPolicy{}; }

ComparisonPolicy ireePolicy(gen::FrontEnd frontEnd) {
  ComparisonPolicy policy;
  policy.system = "iree";
  policy.stableSort = false;
  policy.topkLowerIndexFirst = false;
  policy.topkFillIndex = frontEnd == gen::FrontEnd::LinalgExt;
  policy.flushesDenormals = true;
  policy.inexactUnchecked = true;
  if (frontEnd == gen::FrontEnd::Onnx) {
    policy.nanOrderOpen = true;
    policy.nmsTieOrderOpen = true;
    policy.nmsOddBoxesOpen = true;
    policy.nmsOneBatchOneClass = true;
    // torch-mlir's onnx.NonMaxSuppression lowering (TorchOnnxToTorch):
    // "TODO: Support multiple batches and classes" (a squeeze checked at
    // run time) and score_threshold "unimplemented" above min(scores).
    policy.documentedLimits = {
        {"squeeze operation possible for dim only when input_shape[dim] == 1",
         "IREE's ONNX NonMaxSuppression takes one batch and one class"},
        {"score_threshold should be <= min(scores)",
         "IREE's ONNX NonMaxSuppression does not implement a score_threshold "
         "above the smallest score"}};
  }
  return policy;
}

std::string documentedUnsupported(const ComparisonPolicy &policy,
                                  const gen::Program &program) {
  if (!policy.nmsOneBatchOneClass)
    return "";
  for (const Op &op : program.ops) {
    if (op.kind != OpKind::Nms)
      continue;
    const std::vector<int64_t> &scores = program.values[op.operands[1]].shape;
    if (scores.size() == 3 && (scores[0] != 1 || scores[1] != 1))
      return policy.system + "'s ONNX NonMaxSuppression takes one batch and "
             "one class (torch-mlir: \"TODO: Support multiple batches and "
             "classes\"); this one has " + std::to_string(scores[0]) +
             " and " + std::to_string(scores[1]);
  }
  return "";
}

std::optional<DocumentedLimit>
documentedLimitIn(const ComparisonPolicy &policy, const std::string &message) {
  for (const DocumentedLimit &limit : policy.documentedLimits)
    if (message.find(limit.marker) != std::string::npos)
      return limit;
  return std::nullopt;
}

namespace {

uint64_t bitsAt(const HostTensor &t, int64_t flat) {
  return loadBits(t.type, t.data.data() + flat * byteWidth(t.type));
}

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

/// Whether `t` holds a denormal (a float with a zero exponent field and a
/// non-zero fraction).
bool holdsDenormal(const HostTensor &t) {
  if (!isFloat(t.type))
    return false;
  int fraction = mantissaBits(t.type);
  int width = static_cast<int>(byteWidth(t.type)) * 8;
  uint64_t fractionMask = (uint64_t(1) << fraction) - 1;
  uint64_t exponentMask =
      ((uint64_t(1) << (width - 1 - fraction)) - 1) << fraction;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    uint64_t bits = bitsAt(t, i);
    if ((bits & exponentMask) == 0 && (bits & fractionMask) != 0)
      return true;
  }
  return false;
}

/// Whether a sort's sorted keys hold two equal keys in one lane.
bool sortHasTies(const Op &op, const HostTensor &sortedKeys) {
  KeyOrder less(sortedKeys.type, op.order, op.comparator);
  int64_t length = sortedKeys.shape[op.dimension];
  bool ties = false;
  forEachLane(sortedKeys.shape, op.dimension, length,
              [&](int64_t base, int64_t, int64_t stride) {
                for (int64_t j = 1; j < length && !ties; ++j)
                  ties = equivalent(less, bitsAt(sortedKeys, base + (j - 1) * stride),
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
          ties |= equivalent(order, bitsAt(best, outBase + (j - 1) * in.inner), v);
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
              found = runMismatch(output, expected, base + j * stride, 1,
                                  "expected a value tied to " +
                                      formatValue(expected.type, reinterpret_cast<const uint8_t *>(&key)));
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
          found = runMismatch(output, expected, base + start * stride,
                              end - start,
                              "expected " + formatValue(expected.type, reinterpret_cast<const uint8_t *>(&want[j])) +
                                  " among the tied elements, got " +
                                  formatValue(expected.type, reinterpret_cast<const uint8_t *>(&got[j])));
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
                                     const HostTensor &indices, bool fillIndex) {
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
                      formatValue(input.type, reinterpret_cast<const uint8_t *>(&value));
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

/// Whether `t` holds a NaN.
bool holdsNaN(const HostTensor &t) {
  if (!isFloat(t.type))
    return false;
  for (int64_t i = 0; i < t.numElements(); ++i)
    if (isNaNBits(t.type, bitsAt(t, i)))
      return true;
  return false;
}

/// Whether an NMS's scores [B, C, N] hold a NaN or two equal scores in one
/// (batch, class).
bool nmsScoresTie(const HostTensor &scores) {
  if (holdsNaN(scores))
    return true;
  int64_t n = scores.shape.size() == 3 ? scores.shape[2] : 0;
  for (int64_t row = 0; n > 0 && row < scores.numElements() / n; ++row) {
    std::vector<double> seen;
    for (int64_t j = 0; j < n; ++j)
      seen.push_back(floatValue(scores.type, bitsAt(scores, row * n + j)));
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
      return true;
  }
  return false;
}

/// Whether NMS `op`'s boxes hold one ONNX gives no meaning: a non-finite
/// coordinate, or (center format) a negative width or height.
bool nmsOddBoxes(const Op &op, const HostTensor &boxes) {
  for (int64_t b = 0; b + 4 <= boxes.numElements(); b += 4) {
    double v[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = floatValue(boxes.type, bitsAt(boxes, b + k));
      if (!std::isfinite(v[k]))
        return true;
    }
    if (op.centerPointBox && (v[2] < 0 || v[3] < 0))
      return true;
  }
  return false;
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

/// Why op `op` is not compared at all on these inputs under `policy`
/// (nor anything computed from it), or "".
std::string opaqueWhy(const ComparisonPolicy &policy, const Op &op,
                      const std::vector<HostTensor> &values) {
  if (policy.nanOrderOpen &&
      (op.kind == OpKind::Sort || op.kind == OpKind::TopK) &&
      holdsNaN(values[op.operands[0]]))
    return "its input holds a NaN, whose place the front end's op leaves "
           "open";
  if (policy.nmsTieOrderOpen && op.kind == OpKind::Nms &&
      nmsScoresTie(values[op.operands[1]]))
    return "its scores hold a NaN or equal scores, whose order the front "
           "end's NMS leaves open";
  if (policy.nmsOddBoxesOpen && op.kind == OpKind::Nms &&
      nmsOddBoxes(op, values[op.operands[0]]))
    return "its boxes hold a NaN or infinite coordinate or a negative "
           "center-format size, which the front end's NMS gives no meaning";
  return "";
}

/// Which ops leave an order open on these inputs, from the intermediate
/// values.
std::vector<bool> openOps(const ComparisonPolicy &policy, const Program &program,
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
std::optional<Mismatch> compareOpen(const ComparisonPolicy &policy,
                                    const Program &program, const Op &op,
                                    int o, uint64_t ulps,
                                    const std::vector<HostTensor> &values,
                                    const std::vector<HostTensor> &expectedOutputs,
                                    const std::vector<HostTensor> &actual) {
  int value = program.outputs[o];
  // The expected outputs decide; the reference's intermediate values only
  // say where the runs of tied elements are.
  const HostTensor &expected = expectedOutputs[o];
  if (op.kind == OpKind::Sort) {
    KeyOrder less(values[op.results[0]].type, op.order, op.comparator);
    return sameRuns(o, expected, actual[o], values[op.results[0]], op.dimension,
                    ulps, [&](uint64_t a, uint64_t b) { return equivalent(less, a, b); });
  }
  TopKOrder order{expected.type, op.largest};
  const HostTensor &best = values[op.results[0]];
  if (value == op.results[0])
    return sameRuns(o, expected, actual[o], best, op.dimension, ulps,
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

/// Outputs after an inexact op that miss their tolerance: named in
/// `unchecked` and settled to the expected value.
void settleInexact(const ComparisonPolicy &policy,
                   const std::vector<uint64_t> &tolerances,
                   const std::vector<HostTensor> &expected,
                   std::vector<HostTensor> &settled,
                   std::vector<std::string> &unchecked) {
  for (size_t o = 0; o < settled.size(); ++o) {
    if (tolerances[o] == 0)
      continue;
    if (auto off = compareOutputs(std::vector<uint64_t>{tolerances[o]},
                                  {expected[o]}, {settled[o]})) {
      unchecked.push_back(
          "output " + std::to_string(o) + " follows an inexact op and is " +
          "off by more than its " + std::to_string(tolerances[o]) + " ulp (" +
          off->message + "): " + policy.system +
          "'s math is not the reference's, and the tolerance does not "
          "follow cancellation in later adds");
      settled[o] = expected[o];
    }
  }
}

/// Whether any float value the program computes or reads is denormal.
bool anyDenormal(const std::vector<HostTensor> &inputs,
                 const std::vector<HostTensor> &values) {
  return std::any_of(inputs.begin(), inputs.end(), holdsDenormal) ||
         std::any_of(values.begin(), values.end(), holdsDenormal);
}

} // namespace

namespace {

/// The comparison under `policy` once the exact one failed: `values` are
/// every value of the program as the reference computes it, `expected`
/// its outputs.
PolicyComparison judge(const ComparisonPolicy &policy, const Program &program,
                       const std::vector<HostTensor> &values,
                       const std::vector<HostTensor> &expected,
                       const std::vector<HostTensor> &actual) {
  PolicyComparison result;
  std::vector<bool> open = openOps(policy, program, values);
  // A value is tainted when an open op produced it or it was computed from
  // a tainted one; a direct result of an open op from untainted operands is
  // comparable without order. An opaque op (opaqueWhy) taints what it
  // produces without a direct comparison; the reason follows its results.
  std::vector<int> producer(program.values.size(), -1);
  std::vector<bool> tainted(program.values.size(), false);
  std::vector<bool> direct(program.values.size(), false);
  std::vector<std::string> why(program.values.size());
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const Op &op = program.ops[i];
    bool fromTainted = false;
    std::string own = opaqueWhy(policy, op, values), reason = own;
    for (int operand : op.operands) {
      fromTainted |= tainted[operand];
      if (reason.empty())
        reason = why[operand];
    }
    for (int r : op.results) {
      producer[r] = static_cast<int>(i);
      tainted[r] = fromTainted || open[i] || !own.empty();
      direct[r] = open[i] && !fromTainted && own.empty();
      why[r] = reason;
    }
  }
  std::vector<uint64_t> tolerances = outputTolerances(program);
  std::vector<HostTensor> settled = actual;
  if (policy.inexactUnchecked)
    settleInexact(policy, tolerances, expected, settled, result.unchecked);
  for (size_t o = 0; o < program.outputs.size(); ++o) {
    int value = program.outputs[o];
    if (!tainted[value])
      continue;
    if (!direct[value] && !why[value].empty()) {
      result.unchecked.push_back(
          "output " + std::to_string(o) + " is computed from an op that is "
          "not compared: " + why[value]);
    } else if (!direct[value]) {
      result.unchecked.push_back(
          "output " + std::to_string(o) +
          " is computed, through other ops, from a sort or top-k with ties "
          "whose order " + policy.system + " leaves open");
    } else if (auto m = compareOpen(policy, program,
                                    program.ops[producer[value]],
                                    static_cast<int>(o), tolerances[o], values,
                                    expected, actual)) {
      result.mismatch = m;
      return result;
    }
    settled[o] = expected[o];
  }
  result.mismatch = compareOutputs(program, expected, settled);
  return result;
}

} // namespace

namespace {

/// The comparison of `actual` with the reference that flushes denormal
/// results (and, with `readAsZero`, denormal inputs) to zero, where the
/// outputs match it up to denormals; nullopt where they do not. `all` is
/// `program` with every value an output.
std::optional<PolicyComparison>
judgeFlushed(const ComparisonPolicy &policy, const Program &all,
             const Program &program, const std::vector<HostTensor> &inputs,
             const std::vector<HostTensor> &actual, bool readAsZero) {
  Result<std::vector<HostTensor>> flushed =
      evaluateFlushingDenormals(all, inputs, readAsZero);
  if (!flushed.ok())
    return std::nullopt;
  std::vector<HostTensor> flushedExpected;
  for (int id : program.outputs)
    flushedExpected.push_back((*flushed)[static_cast<size_t>(id)]);
  // The actual outputs up to denormals too: a sort moves a denormal's bits
  // while ordering it as zero.
  std::vector<HostTensor> flushedActual = actual;
  for (HostTensor &t : flushedActual)
    flushDenormals(t);
  PolicyComparison ftz =
      judge(policy, program, *flushed, flushedExpected, flushedActual);
  if (ftz.mismatch)
    return std::nullopt;
  ftz.unchecked.insert(
      ftz.unchecked.begin(),
      std::string("the outputs match, up to denormals, the reference with "
                  "denormal results flushed to zero (FTZ") +
          (readAsZero ? ", DAZ" : ", denormal inputs read exactly") +
          "), as " + policy.system + " computes");
  return ftz;
}

} // namespace

PolicyComparison compareUnderPolicy(const ComparisonPolicy &policy,
                                    const Program &program,
                                    const std::vector<HostTensor> &inputs,
                                    const std::vector<HostTensor> &expected,
                                    const std::vector<HostTensor> &actual) {
  PolicyComparison result;
  result.mismatch = compareOutputs(program, expected, actual);
  bool strict = policy.stableSort && policy.topkLowerIndexFirst &&
                !policy.topkFillIndex && !policy.flushesDenormals &&
                !policy.inexactUnchecked && !policy.nanOrderOpen &&
                !policy.nmsTieOrderOpen && !policy.nmsOddBoxesOpen &&
                !policy.signedZeroOrdered;
  if (!result.mismatch || strict || result.mismatch->flatIndex < 0)
    return result;
  // Every value of the program, from the reference.
  Program all = program;
  all.outputs.resize(program.values.size());
  std::iota(all.outputs.begin(), all.outputs.end(), 0);
  Result<std::vector<HostTensor>> values = evaluate(all, inputs);
  if (!values.ok())
    return result;
  PolicyComparison ieee = judge(policy, program, *values, expected, actual);
  // Denormals can also arise inside an NMS alone (a box's area, the
  // intersection), with none among the values between ops.
  bool hasNms = std::any_of(program.ops.begin(), program.ops.end(),
                            [](const Op &op) { return op.kind == gen::OpKind::Nms; });
  if (!ieee.mismatch || !policy.flushesDenormals ||
      (!anyDenormal(inputs, *values) && !hasDenormalAttribute(program) &&
       !hasNms))
    return ieee;
  // A system that flushes denormals computes the reference's program with
  // denormal results written as zero, and reads denormal inputs as zero
  // too (DAZ) or exactly (an f16 widened to f32 before it is added): its
  // answer must be one of the two.
  for (bool readAsZero : {true, false}) {
    if (auto ftz = judgeFlushed(policy, all, program, inputs, actual,
                                readAsZero))
      return *ftz;
  }
  return ieee;
}

} // namespace sift::oracle
