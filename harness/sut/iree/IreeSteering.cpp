//===- harness/sut/iree/IreeSteering.cpp - Around IREE's known bugs -------===//

#include "harness/sut/iree/IreeSteering.h"

#include <algorithm>
#include <set>

namespace sift::harness {

namespace {

bool contains(const std::vector<std::string> &list, const std::string &item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

/// An empty condition list holds; else `item` must be in it.
bool allows(const std::vector<std::string> &list, const std::string &item) {
  return list.empty() || contains(list, item);
}

} // namespace

SteerFacts steerFacts(const gen::Program &program, gen::FrontEnd frontEnd,
                      TargetKind target, const gen::DynamicDims &dynamicDims) {
  SteerFacts facts;
  facts.frontEnd = std::string(gen::toString(frontEnd));
  facts.target = std::string(toString(target));
  std::set<int> used(program.outputs.begin(), program.outputs.end());
  for (const gen::Op &op : program.ops)
    used.insert(op.operands.begin(), op.operands.end());
  std::set<int> inputs(program.inputs.begin(), program.inputs.end());
  for (const gen::Op &op : program.ops) {
    if (op.kind == gen::OpKind::Sort || op.kind == gen::OpKind::TopK ||
        op.kind == gen::OpKind::Nms) {
      std::string family(gen::toString(op.kind));
      if (!contains(facts.families, family))
        facts.families.push_back(family);
    }
    if (op.kind == gen::OpKind::Sort || op.kind == gen::OpKind::TopK)
      for (size_t r = 0; r < op.results.size(); ++r) {
        if (used.count(op.results[r]))
          continue;
        facts.unusedResult = true;
        // A sort's result r comes from its operand r; both top-k results
        // come from its one operand.
        size_t from = op.kind == gen::OpKind::Sort ? r : 0;
        if (from < op.operands.size() && inputs.count(op.operands[from]))
          facts.unusedOfInput = true;
      }
    if (op.kind == gen::OpKind::Elementwise && !op.operands.empty() &&
        !op.results.empty()) {
      std::string cast =
          std::string(
              toString(program.values[static_cast<size_t>(op.operands[0])]
                           .elementType)) +
          "->" +
          std::string(toString(
              program.values[static_cast<size_t>(op.results[0])].elementType));
      bool isCast = op.ew == gen::EwKind::ExtF ||
                    op.ew == gen::EwKind::TruncF ||
                    op.ew == gen::EwKind::SIToFP ||
                    op.ew == gen::EwKind::ExtSI || op.ew == gen::EwKind::TruncI;
      if (isCast && !contains(facts.casts, cast))
        facts.casts.push_back(cast);
    }
  }
  for (const std::vector<bool> &dims : dynamicDims)
    facts.dynamicDims |=
        std::find(dims.begin(), dims.end(), true) != dims.end();
  return facts;
}

bool steerMatches(const SteerRule &rule, const SteerFacts &facts) {
  const SteerRule::When &when = rule.when;
  if (!allows(when.frontEnds, facts.frontEnd) ||
      !allows(when.targets, facts.target))
    return false;
  if (!when.families.empty() &&
      std::none_of(
          when.families.begin(), when.families.end(),
          [&](const std::string &f) { return contains(facts.families, f); }))
    return false;
  if (!when.casts.empty() && std::none_of(when.casts.begin(), when.casts.end(),
                                          [&](const std::string &c) {
                                            return contains(facts.casts, c);
                                          }))
    return false;
  return (!when.unusedResult || facts.unusedResult) &&
         (!when.unusedOfInput || facts.unusedOfInput) &&
         (!when.dynamicDims || facts.dynamicDims);
}

void addSteerTags(const SteerOutcome &outcome,
                  std::vector<std::string> &coverage) {
  for (const std::string &applied : outcome.applied)
    coverage.push_back(std::string(kSteeredTag) + applied);
}

SteerOutcome steerCase(const std::vector<SteerRule> &rules,
                       const gen::Program &program, gen::FrontEnd frontEnd,
                       TargetKind target, gen::DynamicDims &dynamicDims) {
  SteerOutcome outcome;
  SteerFacts facts = steerFacts(program, frontEnd, target, dynamicDims);
  for (const SteerRule &rule : rules)
    if (rule.then == SteerRule::Then::StaticDims && steerMatches(rule, facts))
      outcome.applied.push_back(rule.id + ":static_dims");
  if (!outcome.applied.empty()) {
    outcome.staticDims = true;
    dynamicDims.clear();
    facts.dynamicDims = false;
  }
  for (const SteerRule &rule : rules)
    if (rule.then == SteerRule::Then::Skip && steerMatches(rule, facts)) {
      outcome.applied.push_back(rule.id + ":skip");
      outcome.skippedBy = rule.id;
      break;
    }
  return outcome;
}

} // namespace sift::harness
