//===- oracles/ComparisonPolicy.h - What each compiler promises -*- C++ -*-===//
//
// The reference computes one answer: stable sorts, top-k ties to the lower
// index. A compiler may document less: IREE's sort is not stable and its
// top-k leaves the order of equal values open, and iree_linalg_ext.topk
// merges its input into initial outputs, so an element equal to the fill
// value need not displace the fill's index. A policy lists such freedoms in
// one place; the comparison then accepts exactly the answers they allow,
// and everything else stays a mismatch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "oracles/Compare.h"

#include <optional>
#include <string>
#include <vector>

namespace sift::oracle {

/// A limit a system documents (an error it raises on purpose for what it
/// does not implement): a run failing with `marker` in its message is not
/// a finding.
struct DocumentedLimit {
  std::string marker;
  std::string why;
};

struct ComparisonPolicy {
  /// Names the system in notes ("sift", "iree").
  std::string system = "sift";
  /// Sorts keep equal keys in input order.
  bool stableSort = true;
  /// Top-k puts the lower index first among equal values.
  bool topkLowerIndexFirst = true;
  /// Top-k may report index -1 (its initial index) for a value equal to its
  /// fill (-inf for largest, NaN for smallest, the integer extremes).
  bool topkFillIndex = false;
  /// Float code flushes denormal results to zero and reads denormal
  /// operands as zero (FTZ and DAZ): where a denormal takes part, outputs
  /// are not compared (the reference keeps IEEE denormals).
  bool flushesDenormals = false;
  /// Outputs computed through an inexact op (sigmoid) that miss their ulp
  /// tolerance are named unchecked instead of a mismatch: the system's
  /// transcendental math differs from the reference's by a few ulps, which
  /// a later subtraction can magnify beyond any fixed tolerance.
  bool inexactUnchecked = false;
  /// Where NaN is the order's concern is left open (ONNX does not say
  /// where TopK puts NaN): a sort or top-k whose input holds a NaN is not
  /// compared, nor anything computed from it.
  bool nanOrderOpen = false;
  /// NMS may visit equal scores in any order (ONNX does not say), and NaN
  /// scores anywhere: an NMS whose scores hold a NaN or two equal scores in
  /// one (batch, class) is not compared, nor anything computed from it.
  bool nmsTieOrderOpen = false;
  /// Boxes the front end's NMS gives no meaning are left open: a NaN or
  /// infinite coordinate, or a negative width or height in center format
  /// (ONNX defines a box by two opposite corners or by its center and
  /// size, and says nothing of either): such an NMS is not compared, nor
  /// anything computed from it.
  bool nmsOddBoxesOpen = false;
  /// Sorts and top-k order -0.0 before +0.0 (a total order on the bits,
  /// as XLA's sort documents) instead of keeping them equal keys: where a
  /// sort's key or a top-k's input holds both zeros, the order of its
  /// equal elements is compared as a set.
  bool signedZeroOrdered = false;
  /// Runtime errors the system raises on purpose for what it does not
  /// implement.
  std::vector<DocumentedLimit> documentedLimits;
  /// NMS is implemented for one batch and one class only (boxes [1, N, 4],
  /// scores [1, 1, N]): other NMS programs are outside what the system
  /// documents and are not compiled.
  bool nmsOneBatchOneClass = false;
};

/// A point of a policy as system files and exported cases write it
/// (docs/systems.md): its key, the values it takes (the first is sift's
/// own rule) and what it means.
struct PolicyPoint {
  const char *key;
  std::vector<const char *> values;
  const char *meaning;
};

/// Every point a policy is written with (oracles/PolicyPoints.cpp).
const std::vector<PolicyPoint> &policyPoints();

/// The point named `key`, or null.
const PolicyPoint *findPolicyPoint(const std::string &key);

/// Sets point `key` to `value` in `policy`; false when the point does not
/// take that value (or there is no such point).
bool applyPolicyPoint(ComparisonPolicy &policy, const std::string &key,
                      const std::string &value);

/// Why `program` is outside what the system documents it implements, or
/// "" (then any failure of it is a finding).
std::string documentedUnsupported(const ComparisonPolicy &policy,
                                  const gen::Program &program);

/// The documented limit `message` (a failed run's) shows, or none. A copy:
/// policies are often temporaries (`ireePolicy(frontEnd)`), and a pointer
/// into one dangled (sift-run's rows showed freed bytes).
std::optional<DocumentedLimit>
documentedLimitIn(const ComparisonPolicy &policy, const std::string &message);

/// sift's own compiler: the reference's answer, exactly.
ComparisonPolicy exactPolicy();
/// IREE: unstable sort, open top-k tie order, denormals flushed (its CPU
/// code runs with FTZ and DAZ), for a program spelled in `frontEnd`:
/// linalg_ext: top-k is iree_linalg_ext.topk with filled initial outputs
/// (the fill index); onnx: the NaN order and NMS's order among equal
/// scores are ONNX's to leave open, and IREE's ONNX NonMaxSuppression
/// documents two limits (one batch and one class; no score_threshold above
/// the smallest score), which it checks at run time.
ComparisonPolicy ireePolicy(gen::FrontEnd frontEnd);

/// What a comparison under a policy found.
struct PolicyComparison {
  std::optional<Mismatch> mismatch;
  /// Outputs that the policy left unchecked: they are computed from a sort
  /// or top-k result whose order the policy leaves open, through other
  /// ops, on inputs with ties (one line each).
  std::vector<std::string> unchecked;
};

/// Compares `actual` with `expected` (the reference's outputs of `program`
/// on `inputs`) under `policy`. Where a sort or top-k has ties the policy
/// leaves open, its results are compared without the order of the tied
/// elements: each run of equal keys holds the same elements (within the
/// output's tolerance), and each top-k index points at an input element
/// equal to its value, distinct within its lane (or -1 at the fill value,
/// where the policy allows).
PolicyComparison compareUnderPolicy(const ComparisonPolicy &policy,
                                    const gen::Program &program,
                                    const std::vector<HostTensor> &inputs,
                                    const std::vector<HostTensor> &expected,
                                    const std::vector<HostTensor> &actual);

} // namespace sift::oracle
