//===- harness/sut/iree/IreeSteering.h - Around IREE's known bugs -*- C++
//-*-===//
//
// A campaign steers around IREE's open root causes (corpus/iree/known.json's
// `steer` rules, harness/store/KnownCauses.h) unless --explore-known: a case
// whose program and spelling meet a rule's conditions is spelled with
// static dimensions (`static_dims`) or not compiled (`skip`). What was done
// is recorded as coverage tags ("steered=R4:static_dims") and, for a finding,
// in case.json ("steered", "static_dims"), so a replay spells it the same.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "generators/ProgramModel.h"
#include "harness/store/KnownCauses.h"
#include "support/Targets.h"

#include <string>
#include <vector>

namespace sift::harness {

/// The program features a rule's conditions look at.
struct SteerFacts {
  std::string frontEnd, target;
  std::vector<std::string> families; ///< "sort", "topk", "nms" present
  bool unusedResult = false, unusedOfInput = false, dynamicDims = false;
  std::vector<std::string> casts; ///< "f64->f16", ...
};

SteerFacts steerFacts(const gen::Program &program, gen::FrontEnd frontEnd,
                      TargetKind target, const gen::DynamicDims &dynamicDims);

/// Whether every condition of `rule` holds for `facts`.
bool steerMatches(const SteerRule &rule, const SteerFacts &facts);

struct SteerOutcome {
  /// "R4:static_dims", "R13:skip", in the rules' order.
  std::vector<std::string> applied;
  bool staticDims = false;
  /// The first rule that skips the case ("" when none).
  std::string skippedBy;
};

/// Adds a coverage tag (kSteeredTag) per rule `outcome` applied.
void addSteerTags(const SteerOutcome &outcome,
                  std::vector<std::string> &coverage);

/// Applies `rules` to one case: the static_dims rules first (clearing
/// `dynamicDims`), then the skip rules on what is left.
SteerOutcome steerCase(const std::vector<SteerRule> &rules,
                       const gen::Program &program, gen::FrontEnd frontEnd,
                       TargetKind target, gen::DynamicDims &dynamicDims);

} // namespace sift::harness
