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

std::array<unsigned, kNumEwKinds> defaultEwWeights() {
  std::array<unsigned, kNumEwKinds> weights{};
  for (size_t i = 0; i < kNumEwKinds; ++i)
    weights[i] = descriptorOf(kAllEwKinds[i]).defaultWeight;
  return weights;
}

} // namespace sift::gen
