//===- harness/store/KnownCauses.h - Root causes a system is known for -*- C++
//-*-===//
//
// corpus/iree/known.json lists IREE's root causes sift found and checked by
// hand: each with regular expressions over a finding's signature
// (harness/case/CaseFolder.h's findingSignature). A campaign tags each IREE
// finding with the root causes whose expressions match its signature, so
// the database, the summary and the report count known bugs apart from
// new ones. An open root cause may also say how campaigns steer around
// it (`steer`: when a program and its spelling meet `when`, spell its
// dimensions static or do not compile it): SteerRule below, applied by
// harness/sut/iree/IreeSteering.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace sift::harness {

/// How campaigns stay away from one open root cause's trigger. Every
/// condition given must hold (an empty list or an unset field holds).
struct SteerRule {
  std::string id; ///< the root cause ("R4")
  struct When {
    std::vector<std::string> frontEnds; ///< "linalg_ext", "torch", "onnx"
    std::vector<std::string> targets;   ///< "host", "nvptx", "amdgpu"
    std::vector<std::string> families;  ///< the program has an op of one
    /// A sort or top-k result nothing uses (and, with unusedOfInput, the
    /// operand it comes from is a function argument).
    bool unusedResult = false, unusedOfInput = false;
    /// The spelling has a dynamic dimension.
    bool dynamicDims = false;
    /// Element-type conversions the program has ("f64->f16").
    std::vector<std::string> casts;
  } when;
  enum class Then { StaticDims, Skip } then = Then::Skip;
};

/// The coverage tag of a run steered by a rule: "steered=R4:static_dims"
/// (IreeSteering.h adds it; the summary and case folders read it).
inline constexpr std::string_view kSteeredTag = "steered=";

/// "static_dims" or "skip".
const char *toString(SteerRule::Then then);

class KnownCauses {
public:
  /// Reads `path` (format "sift-known 1"); the error names the file and
  /// what is wrong (unreadable, not JSON, a bad expression).
  static Result<KnownCauses> load(const std::string &path);

  /// The root causes whose signatures match `signature`, joined by "|"
  /// in the file's order ("R4|R13"); "" when none does.
  std::string causesOf(const std::string &signature) const;

  /// What the file says of each root cause, in its order (R1, R2, ...).
  struct Cause {
    std::string id, summary, upstream, state, seenOn;
    /// The device its wrong answer shows on ("cuda"; "" any replay).
    std::string needsDevice;
    /// corpus/iree folders that reproduce it.
    std::vector<std::string> cases;
    std::vector<std::regex> signatures;
  };
  const std::vector<Cause> &causes() const { return causes_; }
  /// The root cause that lists case folder `name` in its "cases" (null
  /// when none does).
  const Cause *causeOfCase(const std::string &name) const;

  /// The steering rules of the root causes not fixed, in the file's order.
  const std::vector<SteerRule> &steerRules() const { return steer_; }

  const std::string &path() const { return path_; }
  size_t size() const { return causes_.size(); }

private:
  std::string path_;
  std::vector<Cause> causes_;
  std::vector<SteerRule> steer_;
};

/// The known root cause a case folder reproduces: the entry of the nearest
/// known.json in the folder's parents (up to three levels: corpus/iree/
/// known.json) whose "cases" list the folder's name. None when no
/// known.json lists it; a malformed one is reported on stderr, prefixed by
/// `tool`, and taken as none.
std::optional<KnownCauses::Cause>
knownCauseOfFolder(const std::filesystem::path &folder, const char *tool);

/// Where a campaign looks for IREE's known root causes by default: the
/// source tree's corpus/iree/known.json.
std::string defaultKnownCausesPath();

} // namespace sift::harness
