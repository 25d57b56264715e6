//===- harness/store/KnownCauses.cpp - Root causes a system is known for --===//

#include "harness/store/KnownCauses.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace sift::harness {

const char *toString(SteerRule::Then then) {
  return then == SteerRule::Then::StaticDims ? "static_dims" : "skip";
}

namespace {

using nlohmann::json;

/// A list of strings at `key` of `object` (absent: empty).
Result<std::vector<std::string>> stringList(const json &object,
                                            const char *key) {
  std::vector<std::string> out;
  if (!object.contains(key))
    return out;
  if (!object[key].is_array())
    return makeError(std::string("\"") + key + "\" is not a list");
  for (const json &item : object[key]) {
    if (!item.is_string())
      return makeError(std::string("\"") + key + "\" holds a non-string");
    out.push_back(item.get<std::string>());
  }
  return out;
}

/// One root cause's "steer": {"when": {...}, "then": "static_dims"|"skip"}.
Result<SteerRule> parseSteer(const std::string &id, const json &steer) {
  static const char *const kKeys[] = {
      "front_ends",      "targets",      "families", "unused_result",
      "unused_of_input", "dynamic_dims", "casts"};
  SteerRule rule;
  rule.id = id;
  if (!steer.is_object() || !steer.contains("when") ||
      !steer["when"].is_object())
    return makeError("\"steer\" is not {\"when\": {...}, \"then\": ...}");
  const json &when = steer["when"];
  for (const auto &[key, value] : when.items())
    if (std::find_if(std::begin(kKeys), std::end(kKeys), [&](const char *k) {
          return key == k;
        }) == std::end(kKeys))
      return makeError("\"steer\": unknown condition \"" + key + "\"");
  auto flag = [&](const char *key, bool &out) -> Status {
    if (!when.contains(key))
      return Status::success();
    if (!when[key].is_boolean() || !when[key].get<bool>())
      return makeError(std::string("\"") + key + "\" is not true");
    out = true;
    return Status::success();
  };
  for (auto [key, list] : {std::pair{"front_ends", &rule.when.frontEnds},
                           std::pair{"targets", &rule.when.targets},
                           std::pair{"families", &rule.when.families},
                           std::pair{"casts", &rule.when.casts}}) {
    auto items = stringList(when, key);
    if (!items.ok())
      return makeError("\"steer\": " + items.message());
    *list = *items;
  }
  for (auto [key, out] :
       {std::pair{"unused_result", &rule.when.unusedResult},
        std::pair{"unused_of_input", &rule.when.unusedOfInput},
        std::pair{"dynamic_dims", &rule.when.dynamicDims}})
    if (Status s = flag(key, *out); !s.ok())
      return makeError("\"steer\": " + s.message());
  std::string then = steer.value("then", "");
  if (then == "static_dims")
    rule.then = SteerRule::Then::StaticDims;
  else if (then == "skip")
    rule.then = SteerRule::Then::Skip;
  else
    return makeError("\"steer\": \"then\" is '" + then +
                     "', not static_dims or skip");
  if (rule.then == SteerRule::Then::StaticDims && !rule.when.dynamicDims)
    return makeError("\"steer\": static_dims needs \"dynamic_dims\": true "
                     "in \"when\" (a static program has nothing to change)");
  return rule;
}

/// The number in a root cause's id ("R10" -> 10): the file's order (a JSON
/// object's keys come sorted as text, R10 before R2).
long idNumber(const std::string &id) {
  size_t digits = id.find_first_of("0123456789");
  return digits == std::string::npos
             ? 0L
             : std::strtol(id.c_str() + digits, nullptr, 10);
}

/// One root cause's description and signatures; errors name `id`.
Result<KnownCauses::Cause> parseCause(const std::string &id,
                                      const nlohmann::json &cause) {
  if (!cause.is_object())
    return makeError(id + ": not an object");
  KnownCauses::Cause entry;
  entry.id = id;
  auto text = [&](const char *key) {
    return cause.contains(key) && cause[key].is_string()
               ? cause[key].get<std::string>()
               : std::string();
  };
  entry.summary = text("summary");
  entry.upstream = text("upstream");
  entry.state = text("state");
  entry.seenOn = text("seen_on");
  entry.needsDevice = text("needs_device");
  Result<std::vector<std::string>> cases = stringList(cause, "cases");
  if (!cases.ok())
    return makeError(id + ": " + cases.message());
  entry.cases = *cases;
  Result<std::vector<std::string>> patterns = stringList(cause, "signatures");
  if (!patterns.ok())
    return makeError(id + ": " + patterns.message());
  for (const std::string &pattern : *patterns) {
    try {
      entry.signatures.emplace_back(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error &e) {
      return makeError(id + ": bad expression '" + pattern + "': " + e.what());
    }
  }
  return entry;
}

/// Its steering rules: one, or a list (any of which steers); none for a
/// fixed root cause (campaigns should see whether the fix holds).
Status parseSteers(const std::string &id, const nlohmann::json &cause,
                   std::vector<SteerRule> &out) {
  if (!cause.contains("steer") || cause["steer"].is_null() ||
      cause.value("state", "").rfind("fixed", 0) == 0)
    return Status::success();
  const nlohmann::json &steer = cause["steer"];
  for (const nlohmann::json &one :
       steer.is_array() ? steer : nlohmann::json::array({steer})) {
    Result<SteerRule> rule = parseSteer(id, one);
    if (!rule.ok())
      return makeError(id + ": " + rule.message());
    out.push_back(std::move(*rule));
  }
  return Status::success();
}

} // namespace

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
    Result<Cause> entry = parseCause(id, cause);
    if (!entry.ok())
      return makeError(path + ": " + entry.message());
    known.causes_.push_back(std::move(*entry));
    if (Status s = parseSteers(id, cause, known.steer_); !s.ok())
      return makeError(path + ": " + s.message());
  }
  std::stable_sort(known.causes_.begin(), known.causes_.end(),
                   [](const Cause &a, const Cause &b) {
                     return idNumber(a.id) < idNumber(b.id);
                   });
  std::stable_sort(known.steer_.begin(), known.steer_.end(),
                   [](const SteerRule &a, const SteerRule &b) {
                     return idNumber(a.id) < idNumber(b.id);
                   });
  return known;
}

const KnownCauses::Cause *
KnownCauses::causeOfCase(const std::string &name) const {
  for (const Cause &cause : causes_)
    if (std::find(cause.cases.begin(), cause.cases.end(), name) !=
        cause.cases.end())
      return &cause;
  return nullptr;
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

std::optional<KnownCauses::Cause>
knownCauseOfFolder(const std::filesystem::path &folder, const char *tool) {
  namespace fs = std::filesystem;
  fs::path dir = fs::absolute(folder).lexically_normal().parent_path();
  for (int up = 0; up < 3 && !dir.empty(); ++up, dir = dir.parent_path()) {
    fs::path file = dir / "known.json";
    if (!fs::is_regular_file(file))
      continue;
    Result<KnownCauses> known = KnownCauses::load(file.string());
    if (!known.ok()) {
      std::fprintf(stderr, "%s: %s\n", tool, known.message().c_str());
      return std::nullopt;
    }
    if (const KnownCauses::Cause *cause =
            known->causeOfCase(folder.filename().string()))
      return *cause;
    return std::nullopt;
  }
  return std::nullopt;
}

std::string defaultKnownCausesPath() {
#ifdef SIFT_SOURCE_DIR
  return std::string(SIFT_SOURCE_DIR) + "/corpus/iree/known.json";
#else
  return "";
#endif
}

} // namespace sift::harness
