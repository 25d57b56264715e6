//===- harness/store/KnownCauses.cpp - Root causes a system is known for --===//

#include "harness/store/KnownCauses.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace sift::harness {

Result<KnownCauses> KnownCauses::load(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return makeError(path + ": cannot read the known root causes");
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object())
    return makeError(path + ": not a JSON object");
  if (json.value("format", "") != "sift-known 1")
    return makeError(path + ": format is not \"sift-known 1\"");
  const nlohmann::json &causes = json.value("root_causes", nlohmann::json());
  if (!causes.is_object())
    return makeError(path + ": no \"root_causes\" object");
  KnownCauses known;
  known.path_ = path;
  for (const auto &[id, cause] : causes.items()) {
    Cause entry;
    entry.id = id;
    const nlohmann::json &patterns =
        cause.value("signatures", nlohmann::json::array());
    if (!patterns.is_array())
      return makeError(path + ": " + id + ": \"signatures\" is not a list");
    for (const nlohmann::json &pattern : patterns) {
      if (!pattern.is_string())
        return makeError(path + ": " + id + ": a signature is not a string");
      try {
        entry.signatures.emplace_back(pattern.get<std::string>(),
                                      std::regex::ECMAScript);
      } catch (const std::regex_error &e) {
        return makeError(path + ": " + id + ": bad expression '" +
                         pattern.get<std::string>() + "': " + e.what());
      }
    }
    known.causes_.push_back(std::move(entry));
  }
  // nlohmann's object keeps keys sorted: R10 would come before R2.
  std::stable_sort(known.causes_.begin(), known.causes_.end(),
                   [](const Cause &a, const Cause &b) {
                     auto number = [](const std::string &id) {
                       size_t digits = id.find_first_of("0123456789");
                       return digits == std::string::npos
                                  ? 0L
                                  : std::strtol(id.c_str() + digits, nullptr,
                                                10);
                     };
                     return number(a.id) < number(b.id);
                   });
  return known;
}

std::string KnownCauses::causesOf(const std::string &signature) const {
  std::string causes;
  for (const Cause &cause : causes_)
    for (const std::regex &pattern : cause.signatures)
      if (std::regex_search(signature, pattern)) {
        causes += (causes.empty() ? "" : "|") + cause.id;
        break;
      }
  return causes;
}

std::string defaultKnownCausesPath() {
#ifdef SIFT_SOURCE_DIR
  return std::string(SIFT_SOURCE_DIR) + "/corpus/iree/known.json";
#else
  return "";
#endif
}

} // namespace sift::harness
