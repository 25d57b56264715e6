//===- generators/Policy.cpp - Stable names and default weights -----------===//
//
// The one mapping between Family / InputMode and their stable names, and the
// default elementwise weights taken from the descriptor table.
//
//===----------------------------------------------------------------------===//
#include "generators/Policy.h"

namespace sift::gen {

std::string_view toString(Family family) {
  switch (family) {
  case Family::Sort: return "sort";
  case Family::TopK: return "topk";
  case Family::Nms: return "nms";
  }
  return "?";
}

std::optional<Family> parseFamily(std::string_view name) {
  for (Family family : kAllFamilies)
    if (toString(family) == name)
      return family;
  return std::nullopt;
}

std::string_view toString(InputMode mode) {
  switch (mode) {
  case InputMode::Mixed: return "mixed";
  case InputMode::Uniform: return "uniform";
  case InputMode::Ties: return "ties";
  case InputMode::Special: return "special";
  case InputMode::Sorted: return "sorted";
  case InputMode::Reversed: return "reversed";
  }
  return "?";
}

std::optional<InputMode> parseInputMode(std::string_view name) {
  for (InputMode mode : kAllInputModes)
    if (toString(mode) == name)
      return mode;
  return std::nullopt;
}

std::string_view toString(SizeMode mode) {
  switch (mode) {
  case SizeMode::Default: return "default";
  case SizeMode::Large: return "large";
  }
  return "?";
}

std::optional<SizeMode> parseSizeMode(std::string_view name) {
  for (SizeMode mode : kAllSizeModes)
    if (toString(mode) == name)
      return mode;
  return std::nullopt;
}

void Policy::setSizes(SizeMode mode) {
  ShapePolicy defaults;
  shapes.maxWorkDimSize = defaults.maxWorkDimSize;
  shapes.maxElements = defaults.maxElements;
  shapes.workDimInnermostThree = mode == SizeMode::Large;
  NmsPolicy nmsDefaults;
  nms.maxBoxes = nmsDefaults.maxBoxes;
  nms.maxClasses = nmsDefaults.maxClasses;
  nms.maxElements = nmsDefaults.maxElements;
  if (mode == SizeMode::Large) {
    shapes.maxWorkDimSize = int64_t{1} << 20;
    shapes.maxElements = int64_t{1} << 20;
    // Detection-model NMS: up to 80 classes and 8192 boxes (the cpu
    // reference still checks a row of 8192 candidates in about a second).
    nms.maxBoxes = 8192;
    nms.maxClasses = 80;
    nms.maxElements = int64_t{1} << 20;
  }
}

Policy policyFor(std::string_view families, bool exactKeys, SizeMode sizes) {
  Policy policy;
  policy.allowInexactKeys = !exactKeys;
  policy.setSizes(sizes);
  policy.familyWeights = {};
  while (!families.empty()) {
    size_t comma = families.find(',');
    std::string_view name = families.substr(0, comma);
    if (std::optional<Family> family = parseFamily(name))
      policy.familyWeights[static_cast<size_t>(*family)] = 1;
    families = comma == std::string_view::npos ? std::string_view()
                                                : families.substr(comma + 1);
  }
  return policy;
}

std::array<unsigned, kNumEwKinds> defaultEwWeights() {
  std::array<unsigned, kNumEwKinds> weights{};
  for (size_t i = 0; i < kNumEwKinds; ++i)
    weights[i] = descriptorOf(kAllEwKinds[i]).defaultWeight;
  return weights;
}

} // namespace sift::gen
