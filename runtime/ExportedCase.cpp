//===- runtime/ExportedCase.cpp - Case facts in artifact meta -------------===//

#include "runtime/ExportedCase.h"

#include "runtime/support/Text.h"

#include <cerrno>
#include <cstdlib>

using namespace sift;
using namespace sift::rt;

namespace {

/// Parses a whole decimal u64; false on anything else.
bool parseU64(const std::string &text, uint64_t &value) {
  if (text.empty() || text.size() > 20)
    return false;
  for (char c : text)
    if (c < '0' || c > '9')
      return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0')
    return false;
  value = parsed;
  return true;
}

} // namespace

std::string ExportedCase::name() const {
  return std::to_string(seed) + "-" + pipeline + "-" + target;
}

void rt::setExportedCase(Artifact &artifact, const ExportedCase &info) {
  artifact.meta["case.seed"] = std::to_string(info.seed);
  artifact.meta["case.pipeline"] = info.pipeline;
  artifact.meta["case.target"] = info.target;
  artifact.meta["case.chip"] = info.chip;
  artifact.meta["case.inputs"] = info.inputs;
  artifact.meta["case.faults"] = info.faults;
  std::string tolerances;
  for (size_t i = 0; i < info.tolerances.size(); ++i)
    tolerances += (i ? "," : "") + std::to_string(info.tolerances[i]);
  artifact.meta["case.tolerances"] = tolerances;
}

Result<ExportedCase> rt::getExportedCase(const Artifact &artifact) {
  auto get = [&](const char *key, std::string &out) -> Status {
    auto it = artifact.meta.find(key);
    if (it == artifact.meta.end())
      return makeError(std::string("meta has no '") + key +
                       "': not an artifact written by --export-artifacts");
    out = it->second;
    return Status::success();
  };
  ExportedCase info;
  std::string seed, tolerances;
  for (auto [key, slot] :
       {std::pair<const char *, std::string *>{"case.seed", &seed},
        {"case.pipeline", &info.pipeline},
        {"case.target", &info.target},
        {"case.chip", &info.chip},
        {"case.inputs", &info.inputs},
        {"case.faults", &info.faults},
        {"case.tolerances", &tolerances}})
    if (Status s = get(key, *slot); !s)
      return s.error();
  if (!parseU64(seed, info.seed))
    return makeError("meta 'case.seed' is not a decimal seed: '" + seed + "'");
  if (!tolerances.empty())
    for (const std::string &item : splitFields(tolerances, ',')) {
      uint64_t ulps = 0;
      if (!parseU64(item, ulps))
        return makeError("meta 'case.tolerances' has a bad entry '" + item +
                         "'");
      info.tolerances.push_back(ulps);
    }
  size_t outputs = artifact.plan.outputs().size();
  if (artifact.inputs.size() != artifact.plan.inputs().size() ||
      artifact.expected.size() != outputs)
    return makeError("the artifact does not carry its inputs and expected "
                     "outputs");
  if (info.tolerances.size() != outputs)
    return makeError("meta 'case.tolerances' has " +
                     std::to_string(info.tolerances.size()) +
                     " entries for " + std::to_string(outputs) + " outputs");
  return info;
}
