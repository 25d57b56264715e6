//===- harness/store/KnownCauses.h - Root causes a system is known for -*- C++
//-*-===//
//
// corpus/iree/known.json lists IREE's root causes sift found and checked by
// hand: each with regular expressions over a finding's signature
// (harness/case/CaseFolder.h's findingSignature). A campaign tags each IREE
// finding with the root causes whose expressions match its signature, so
// the database, the summary and the report count known bugs apart from
// new ones.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <regex>
#include <string>
#include <vector>

namespace sift::harness {

class KnownCauses {
public:
  /// Reads `path` (format "sift-known 1"); the error names the file and
  /// what is wrong (unreadable, not JSON, a bad expression).
  static Result<KnownCauses> load(const std::string &path);

  /// The root causes whose signatures match `signature`, joined by "|"
  /// in the file's order ("R4|R13"); "" when none does.
  std::string causesOf(const std::string &signature) const;

  const std::string &path() const { return path_; }
  size_t size() const { return causes_.size(); }

private:
  struct Cause {
    std::string id;
    std::vector<std::regex> signatures;
  };
  std::string path_;
  std::vector<Cause> causes_;
};

/// Where a campaign looks for IREE's known root causes by default: the
/// source tree's corpus/iree/known.json.
std::string defaultKnownCausesPath();

} // namespace sift::harness
