//===- support/Stage.h - The step that decided a verdict --------*- C++ -*-===//
//
// A case's verdict is decided by one step (generate, parse, reference,
// compile, static, serialize, run, compare), for a compile often in one pass
// (`compile:sift-lower-to-loops`, `static:sift-workgroup-rows`) and for a run
// on one device (`run:cuda`). Code asks the typed Stage; its text is for
// case.json, the findings database, signatures and messages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sift {

/// The steps of a case, in order.
enum class Step {
  None, ///< no step decided (a pass)
  Generate,
  Parse,
  Reference,
  Compile,
  Static,
  Serialize,
  Run,
  Compare
};

/// "generate", "parse", ...; "" for None.
std::string_view toString(Step step);
/// The step named `name`; nullopt for an unknown name.
std::optional<Step> parseStep(std::string_view name);

/// A step and where in it: the pass of a compile or static finding, the
/// device of a run; empty when the step has none.
struct Stage {
  Step step = Step::None;
  std::string where;

  Stage() = default;
  Stage(Step step, std::string where = {})
      : step(step), where(std::move(where)) {}

  /// "compile:sift-lower-to-loops", "static", "run:cuda"; "" for None.
  std::string text() const;
  /// The stage `text()` printed; nullopt when its step is unknown.
  static std::optional<Stage> parse(std::string_view text);

  bool empty() const { return step == Step::None; }
  /// Whether the compile decided it (compile, static, serialize): what the
  /// IR half of a reduction can reproduce without running anything.
  bool byCompile() const {
    return step == Step::Compile || step == Step::Static ||
           step == Step::Serialize;
  }
  bool operator==(const Stage &other) const {
    return step == other.step && where == other.where;
  }
  bool operator!=(const Stage &other) const { return !(*this == other); }
};

} // namespace sift
