//===- support/Stage.cpp - The step that decided a verdict ----------------===//

#include "support/Stage.h"

namespace sift {

namespace {
constexpr Step kSteps[] = {Step::Generate,  Step::Parse,     Step::Reference,
                           Step::Compile,   Step::Static,    Step::Serialize,
                           Step::Run,       Step::Compare};
} // namespace

std::string_view toString(Step step) {
  switch (step) {
  case Step::None: return "";
  case Step::Generate: return "generate";
  case Step::Parse: return "parse";
  case Step::Reference: return "reference";
  case Step::Compile: return "compile";
  case Step::Static: return "static";
  case Step::Serialize: return "serialize";
  case Step::Run: return "run";
  case Step::Compare: return "compare";
  }
  return "";
}

std::optional<Step> parseStep(std::string_view name) {
  if (name.empty())
    return Step::None;
  for (Step step : kSteps)
    if (toString(step) == name)
      return step;
  return std::nullopt;
}

std::string Stage::text() const {
  std::string text(toString(step));
  if (!where.empty())
    text += ":" + where;
  return text;
}

std::optional<Stage> Stage::parse(std::string_view text) {
  size_t colon = text.find(':');
  std::optional<Step> step = parseStep(text.substr(0, colon));
  if (!step || (*step == Step::None && colon != std::string_view::npos))
    return std::nullopt;
  return Stage(*step, colon == std::string_view::npos
                          ? std::string()
                          : std::string(text.substr(colon + 1)));
}

} // namespace sift
