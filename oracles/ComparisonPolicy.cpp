//===- oracles/ComparisonPolicy.cpp - What each compiler promises ---------===//
//
// The exact comparison runs first; only when it fails and the policy leaves
// an order open does the program's intermediate values (the reference
// evaluated with every value as an output) say which sorts and top-ks had
// ties on these inputs. Their direct results are compared without the
// order of tied elements; outputs computed from them through other ops are
// named as unchecked; every other output is compared exactly. This file
// holds the policies and decides how each output is compared; finding the
// open sorts and top-ks and comparing their direct results is in
// OpenOrder.cpp.
//
//===----------------------------------------------------------------------===//

#include "oracles/ComparisonPolicy.h"

#include "oracles/FloatBits.h"
#include "oracles/OpenOrder.h"
#include "oracles/Reference.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

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

using detail::bitsAt;
using detail::compareOpen;
using detail::openOps;

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
  bool hasNms =
      std::any_of(program.ops.begin(), program.ops.end(),
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
