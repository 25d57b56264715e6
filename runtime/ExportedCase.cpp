//===- runtime/ExportedCase.cpp - Case facts in artifact meta -------------===//

#include "runtime/ExportedCase.h"

#include "support/Text.h"

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
  if (program.empty())
    return std::to_string(seed) + "-" + std::string(toString(pipeline)) + "-" +
           std::string(toString(target));
  // The file name without its folders and its last extension.
  std::string stem = program.substr(program.find_last_of('/') + 1);
  if (size_t dot = stem.rfind('.'); dot != std::string::npos && dot > 0)
    stem.erase(dot);
  return stem + "-" + std::string(toString(pipeline)) + "-" +
         std::string(toString(target));
}

void rt::setExportedCase(Artifact &artifact, const ExportedCase &info) {
  if (info.program.empty())
    artifact.meta["case.seed"] = std::to_string(info.seed);
  else
    artifact.meta["case.program"] = info.program;
  // Fuzz exports always carry the reference and keep their keys as they
  // were; hand-written programs say which they carry.
  if (!info.program.empty() || !info.hasReference)
    artifact.meta["case.expected"] = info.hasReference ? "reference" : "none";
  if (!info.hasReference && !info.noReferenceNote.empty())
    artifact.meta["case.expected-note"] = info.noReferenceNote;
  if (!info.bench.empty())
    artifact.meta["case.bench"] = info.bench;
  if (!info.sizes.empty())
    artifact.meta["case.sizes"] = info.sizes;
  artifact.meta["case.pipeline"] = std::string(toString(info.pipeline));
  artifact.meta["case.target"] = std::string(toString(info.target));
  artifact.meta["case.chip"] = info.chip;
  artifact.meta["case.inputs"] = info.inputs;
  artifact.meta["case.faults"] = info.faults;
  std::string tolerances;
  for (size_t i = 0; i < info.tolerances.size(); ++i)
    tolerances += (i ? "," : "") + std::to_string(info.tolerances[i]);
  artifact.meta["case.tolerances"] = tolerances;
  if (!info.families.empty()) {
    artifact.meta["case.families"] = info.families;
    artifact.meta["case.exact-keys"] = info.exactKeys ? "1" : "0";
  }
  if (!info.staticVerdict.empty())
    artifact.meta["case.static-verdict"] = info.staticVerdict;
}

namespace {

/// The meta entry `key` into `out`, or an error naming it.
Status metaEntry(const Artifact &artifact, const char *key, std::string &out) {
  auto it = artifact.meta.find(key);
  if (it == artifact.meta.end())
    return makeError(std::string("meta has no '") + key +
                     "': not an artifact written by harness fuzz "
                     "--export-artifacts or harness compile --input");
  out = it->second;
  return Status::success();
}

/// Where the case comes from: its seed (a hand-written program's file name
/// instead, seed 0) and whether it carries the reference's outputs.
Status readOrigin(const Artifact &artifact, ExportedCase &info,
                  std::string &seed) {
  if (auto program = artifact.meta.find("case.program");
      program != artifact.meta.end()) {
    if (program->second.empty())
      return makeError("meta 'case.program' is empty");
    info.program = program->second;
    seed = "0";
  } else if (Status s = metaEntry(artifact, "case.seed", seed); !s) {
    return s;
  }
  if (auto expected = artifact.meta.find("case.expected");
      expected != artifact.meta.end()) {
    if (expected->second != "reference" && expected->second != "none")
      return makeError("meta 'case.expected' is neither 'reference' nor "
                       "'none': '" +
                       expected->second + "'");
    info.hasReference = expected->second == "reference";
  }
  if (auto note = artifact.meta.find("case.expected-note");
      note != artifact.meta.end())
    info.noReferenceNote = note->second;
  return Status::success();
}

/// The case's facts from the artifact's meta, each bad or missing key named.
Status readCaseMeta(const Artifact &artifact, ExportedCase &info) {
  std::string seed, tolerances, pipeline, target;
  if (Status s = readOrigin(artifact, info, seed); !s)
    return s;
  auto optional = [&](const char *key) {
    auto it = artifact.meta.find(key);
    return it == artifact.meta.end() ? std::string() : it->second;
  };
  info.families = optional("case.families");
  info.exactKeys = optional("case.exact-keys") == "1";
  info.staticVerdict = optional("case.static-verdict");
  info.bench = optional("case.bench");
  info.sizes = optional("case.sizes");
  if (!info.sizes.empty() && info.sizes != "default" && info.sizes != "large")
    return makeError("meta 'case.sizes' is neither 'default' nor 'large': '" +
                     info.sizes + "'");
  if (info.sizes == "large" && info.families.empty())
    return makeError("meta 'case.sizes' is large but 'case.families' is "
                     "missing: the program cannot be regenerated");
  for (auto [key, slot] :
       {std::pair<const char *, std::string *>{"case.pipeline", &pipeline},
        {"case.target", &target},
        {"case.chip", &info.chip},
        {"case.inputs", &info.inputs},
        {"case.faults", &info.faults},
        {"case.tolerances", &tolerances}})
    if (Status s = metaEntry(artifact, key, *slot); !s)
      return s;
  std::optional<PipelineKind> pipelineKind = parsePipelineKind(pipeline);
  std::optional<TargetKind> targetKind = parseTargetKind(target);
  if (!pipelineKind)
    return makeError("meta 'case.pipeline' names no pipeline: '" + pipeline +
                     "'");
  if (!targetKind)
    return makeError("meta 'case.target' names no target: '" + target + "'");
  info.pipeline = *pipelineKind;
  info.target = *targetKind;
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
  return Status::success();
}

/// Whether the artifact carries what its case needs: nothing when the
/// inputs and expected outputs are made again from the program, else its
/// inputs, and the expected outputs with a tolerance each when it has a
/// reference.
Status checkCarried(const Artifact &artifact, const ExportedCase &info) {
  size_t outputs = artifact.plan.outputs().size();
  auto oneTolerancePerOutput = [&]() -> Status {
    if (info.tolerances.size() != outputs)
      return makeError("meta 'case.tolerances' has " +
                       std::to_string(info.tolerances.size()) +
                       " entries for " + std::to_string(outputs) +
                       " outputs");
    return Status::success();
  };
  if (info.regenerated()) {
    // Inputs and expected outputs are made from the benchmark's or the
    // case's program.
    if (!artifact.inputs.empty() || !artifact.expected.empty())
      return makeError(std::string(info.bench.empty()
                                       ? "meta 'case.sizes' is large"
                                       : "meta 'case.bench' names a "
                                         "benchmark") +
                       " but the artifact carries inputs or expected outputs");
    return oneTolerancePerOutput();
  }
  if (artifact.inputs.size() != artifact.plan.inputs().size())
    return makeError("the artifact does not carry its inputs");
  if (!info.hasReference) {
    if (!artifact.expected.empty() || !info.tolerances.empty())
      return makeError("meta 'case.expected' is none but the artifact "
                       "carries expected outputs or tolerances");
    return Status::success();
  }
  if (artifact.expected.size() != outputs)
    return makeError("the artifact does not carry its inputs and expected "
                     "outputs");
  return oneTolerancePerOutput();
}

} // namespace

Result<ExportedCase> rt::getExportedCase(const Artifact &artifact) {
  ExportedCase info;
  if (Status s = readCaseMeta(artifact, info); !s)
    return s.error();
  if (Status s = checkCarried(artifact, info); !s)
    return s.error();
  return info;
}
