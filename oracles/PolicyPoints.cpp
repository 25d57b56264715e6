//===- oracles/PolicyPoints.cpp - A comparison policy, point by point ------===//
//
// The vocabulary in which a system described by a file states its
// comparison policy (docs/systems.md, `[semantics]`), and in which an
// exported case carries it to sift-run: each point of docs/SEMANTICS.md
// where a compiler may document something else, the values it takes (the
// first is sift's rule) and the policy field each value sets.
//
//===----------------------------------------------------------------------===//

#include "oracles/ComparisonPolicy.h"

namespace sift::oracle {

const std::vector<PolicyPoint> &policyPoints() {
  static const std::vector<PolicyPoint> points = {
      {"stable_sort", {"true", "false"},
       "sorts keep equal keys in input order"},
      {"topk_ties", {"lower-index", "open"},
       "top-k puts the lower index first among equal values"},
      {"nan_order", {"largest", "open"},
       "NaN (either sign) ranks above +inf in sorts and top-k"},
      {"signed_zero", {"equal", "ordered"},
       "-0.0 and +0.0 are equal keys (ordered: -0.0 sorts first)"},
      {"nms_ties", {"lower-index", "open"},
       "NMS visits equal scores lower box index first"},
      {"nms_boxes", {"any-corners", "open"},
       "NMS boxes are any two diagonal corners (or center and size); open: "
       "non-finite coordinates and negative sizes have no meaning"},
      {"nms_scope", {"any", "one-batch-one-class"},
       "NMS over any batch and class count"},
      {"denormals", {"ieee", "flushed"},
       "float code keeps IEEE denormals (flushed: FTZ and DAZ)"},
      {"transcendentals", {"checked", "unchecked"},
       "inexact ops (sigmoid) within their ulp tolerance (unchecked: outputs "
       "past it are noted, not findings)"},
  };
  return points;
}

const PolicyPoint *findPolicyPoint(const std::string &key) {
  for (const PolicyPoint &point : policyPoints())
    if (key == point.key)
      return &point;
  return nullptr;
}

bool applyPolicyPoint(ComparisonPolicy &policy, const std::string &key,
                      const std::string &value) {
  const PolicyPoint *point = findPolicyPoint(key);
  if (!point)
    return false;
  bool known = false;
  for (const char *v : point->values)
    known |= value == v;
  if (!known)
    return false;
  // The first value is sift's rule; the second relaxes the comparison.
  bool relaxed = value == point->values[1];
  if (key == "stable_sort")
    policy.stableSort = !relaxed;
  else if (key == "topk_ties")
    policy.topkLowerIndexFirst = !relaxed;
  else if (key == "nan_order")
    policy.nanOrderOpen = relaxed;
  else if (key == "signed_zero")
    policy.signedZeroOrdered = relaxed;
  else if (key == "nms_ties")
    policy.nmsTieOrderOpen = relaxed;
  else if (key == "nms_boxes")
    policy.nmsOddBoxesOpen = relaxed;
  else if (key == "nms_scope")
    policy.nmsOneBatchOneClass = relaxed;
  else if (key == "denormals")
    policy.flushesDenormals = relaxed;
  else if (key == "transcendentals")
    policy.inexactUnchecked = relaxed;
  return true;
}

} // namespace sift::oracle
