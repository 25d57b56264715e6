//===- CaseWire.cpp - A case result through a pipe ------------------------===//

#include "harness/case/CaseWire.h"

#include "generators/ProgramJson.h"
#include "runtime/Artifact.h"
#include "support/Npy.h"

#include <cstdio>
#include <cstdlib>
#include <map>

namespace sift::harness {

namespace {

void put(std::string &out, const std::string &name, std::string_view bytes) {
  out += name;
  out += ' ';
  out += std::to_string(bytes.size());
  out += '\n';
  out.append(bytes.data(), bytes.size());
}

void putBytes(std::string &out, const std::string &name,
              const std::vector<uint8_t> &bytes) {
  put(out, name,
      std::string_view(reinterpret_cast<const char *>(bytes.data()),
                       bytes.size()));
}

void putTensors(std::string &out, const std::string &name,
                const std::vector<HostTensor> &tensors) {
  put(out, name + ".count", std::to_string(tensors.size()));
  for (const HostTensor &tensor : tensors)
    putBytes(out, name, encodeNpy(tensor));
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

/// The fields of an encoding, in order (tensor lists repeat a name).
using Fields = std::multimap<std::string, std::string>;

Result<std::vector<HostTensor>> takeTensors(const Fields &fields,
                                            const std::string &name) {
  std::vector<HostTensor> tensors;
  auto [begin, end] = fields.equal_range(name);
  size_t index = 0;
  for (auto it = begin; it != end; ++it, ++index) {
    const std::string &bytes = it->second;
    auto tensor = parseNpy(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size(),
                           name + " #" + std::to_string(index));
    if (!tensor)
      return tensor.error();
    tensors.push_back(std::move(*tensor));
  }
  auto count = fields.find(name + ".count");
  if (count == fields.end() ||
      std::to_string(tensors.size()) != count->second)
    return makeError("case result: " + name + " has " +
                     std::to_string(tensors.size()) +
                     " tensors, not the count it announced");
  return tensors;
}

} // namespace

std::string encodeCaseResult(const CaseResult &result, bool full) {
  std::string out;
  put(out, "full", full ? "1" : "0");
  put(out, "seed", std::to_string(result.seed));
  put(out, "pipeline", pipelineName(result));
  put(out, "program_file", result.programFile);
  put(out, "system_name", result.systemName);
  put(out, "system_command", result.systemCommand);
  put(out, "target", toString(result.target));
  put(out, "verdict", oracle::toString(result.verdict));
  put(out, "stage", result.stage.text());
  put(out, "detail", result.detail);
  put(out, "compile_seconds", number(result.compileSeconds));
  put(out, "run_seconds", number(result.runSeconds));
  std::string stages;
  for (const auto &[name, seconds] : result.compileStages)
    stages += (stages.empty() ? "" : ";") + name + "=" + number(seconds);
  put(out, "compile_stages", stages);
  put(out, "ran", result.ran ? "1" : "0");
  put(out, "compiled", result.compiled ? "1" : "0");
  put(out, "reproducer", result.reproducer);
  put(out, "system_version", result.systemVersion);
  put(out, "frontend", gen::toString(result.frontEnd));
  std::string coverage;
  for (const std::string &tag : result.coverage)
    coverage += (coverage.empty() ? "" : ",") + tag;
  put(out, "coverage", coverage);
  if (!full)
    return out;
  put(out, "program", gen::programToJson(result.program).dump());
  put(out, "mlir", result.mlir);
  put(out, "log", result.log);
  putTensors(out, "inputs", result.inputs);
  putTensors(out, "expected", result.expected);
  putTensors(out, "actual", result.actual);
  if (!result.ireeModule.empty())
    putBytes(out, "iree_module", result.ireeModule);
  else if (result.compiled)
    putBytes(out, "artifact", rt::encodeArtifact(result.artifact));
  return out;
}

namespace {

/// The `NAME LENGTH\n` + bytes fields of an encoding.
Result<Fields> splitFieldsOf(const std::string &bytes) {
  Fields fields;
  size_t at = 0;
  while (at < bytes.size()) {
    size_t space = bytes.find(' ', at);
    size_t newline = bytes.find('\n', at);
    if (space == std::string::npos || newline == std::string::npos ||
        space > newline)
      return makeError("case result: a field header at byte " +
                       std::to_string(at) + " is malformed");
    std::string name = bytes.substr(at, space - at);
    char *end = nullptr;
    std::string lengthText = bytes.substr(space + 1, newline - space - 1);
    unsigned long long length = std::strtoull(lengthText.c_str(), &end, 10);
    if (lengthText.empty() || *end != '\0' ||
        length > bytes.size() - (newline + 1))
      return makeError("case result: field '" + name + "' is cut short");
    fields.emplace(name, bytes.substr(newline + 1, length));
    at = newline + 1 + length;
  }
  return fields;
}

/// The field `name`, or null.
const std::string *fieldText(const Fields &fields, const char *name) {
  auto it = fields.find(name);
  return it == fields.end() ? nullptr : &it->second;
}

/// The summary every encoding carries.
Status decodeSummary(const Fields &fields, CaseResult &result) {
  for (const char *required :
       {"full", "seed", "pipeline", "target", "verdict", "stage", "detail",
        "compile_seconds", "run_seconds", "ran", "compiled", "reproducer"})
    if (!fieldText(fields, required))
      return makeError(std::string("case result: missing field '") +
                       required + "'");
  auto text = [&](const char *name) { return *fieldText(fields, name); };
  result.seed = std::strtoull(text("seed").c_str(), nullptr, 10);
  auto pipeline = parseStoredPipeline(text("pipeline"));
  auto target = parseTargetKind(text("target"));
  auto verdict = oracle::parseVerdict(text("verdict"));
  if (!pipeline || !target || !verdict)
    return makeError("case result: unknown pipeline, target or verdict");
  result.pipeline = pipeline->kind;
  result.filePipeline = pipeline->file;
  if (const std::string *file = fieldText(fields, "program_file"))
    result.programFile = *file;
  if (const std::string *name = fieldText(fields, "system_name"))
    result.systemName = *name;
  if (const std::string *command = fieldText(fields, "system_command"))
    result.systemCommand = *command;
  result.target = *target;
  result.verdict = *verdict;
  std::optional<Stage> stage = Stage::parse(text("stage"));
  if (!stage)
    return makeError("case result: unknown stage '" + text("stage") + "'");
  result.stage = *stage;
  result.detail = text("detail");
  result.compileSeconds = std::atof(text("compile_seconds").c_str());
  result.runSeconds = std::atof(text("run_seconds").c_str());
  if (const std::string *stages = fieldText(fields, "compile_stages"))
    for (size_t at = 0; at < stages->size();) {
      size_t end = std::min(stages->find(';', at), stages->size());
      std::string item = stages->substr(at, end - at);
      size_t equals = item.find('=');
      if (equals == std::string::npos)
        return makeError("case result: malformed compile stage '" + item +
                         "'");
      result.compileStages[item.substr(0, equals)] +=
          std::atof(item.c_str() + equals + 1);
      at = end + 1;
    }
  result.ran = text("ran") == "1";
  result.compiled = text("compiled") == "1";
  result.reproducer = text("reproducer");
  if (const std::string *version = fieldText(fields, "system_version"))
    result.systemVersion = *version;
  if (const std::string *frontEnd = fieldText(fields, "frontend")) {
    std::optional<gen::FrontEnd> parsed = gen::parseFrontEnd(*frontEnd);
    if (!parsed)
      return makeError("case result: unknown front end '" + *frontEnd + "'");
    result.frontEnd = *parsed;
  }
  if (const std::string *coverage = fieldText(fields, "coverage")) {
    result.coverage.clear();
    size_t at = 0;
    while (at < coverage->size()) {
      size_t comma = coverage->find(',', at);
      if (comma == std::string::npos)
        comma = coverage->size();
      result.coverage.push_back(coverage->substr(at, comma - at));
      at = comma + 1;
    }
  }
  return Status::success();
}

/// What a full encoding adds: program, text, log, tensors, artifact.
Status decodeWhole(const Fields &fields, CaseResult &result) {
  for (const char *required : {"program", "mlir", "log"})
    if (!fieldText(fields, required))
      return makeError(std::string("case result: missing field '") +
                       required + "'");
  try {
    auto program = gen::programFromJson(
        nlohmann::json::parse(*fieldText(fields, "program")), /*check=*/false);
    if (!program)
      return makeError("case result: program: " + program.message());
    result.program = std::move(*program);
  } catch (const nlohmann::json::exception &error) {
    return makeError("case result: program: " + gen::jsonProblem(error));
  }
  result.mlir = *fieldText(fields, "mlir");
  result.log = *fieldText(fields, "log");
  for (auto [name, tensors] :
       {std::pair{"inputs", &result.inputs}, {"expected", &result.expected},
        {"actual", &result.actual}}) {
    auto decoded = takeTensors(fields, name);
    if (!decoded)
      return decoded.error();
    *tensors = std::move(*decoded);
  }
  if (!result.compiled)
    return Status::success();
  if (const std::string *module = fieldText(fields, "iree_module")) {
    result.ireeModule.assign(module->begin(), module->end());
    return Status::success();
  }
  const std::string *artifact = fieldText(fields, "artifact");
  if (!artifact)
    return makeError("case result: missing field 'artifact'");
  auto parsed = rt::parseArtifact(
      reinterpret_cast<const uint8_t *>(artifact->data()), artifact->size(),
      "case result artifact");
  if (!parsed)
    return parsed.error();
  result.artifact = std::move(*parsed);
  return Status::success();
}

} // namespace

Result<CaseResult> decodeCaseResult(const std::string &bytes, bool &full) {
  Result<Fields> fields = splitFieldsOf(bytes);
  if (!fields.ok())
    return fields.error();
  CaseResult result;
  if (Status s = decodeSummary(*fields, result); !s.ok())
    return s.error();
  full = *fieldText(*fields, "full") == "1";
  if (full)
    if (Status s = decodeWhole(*fields, result); !s.ok())
      return s.error();
  return result;
}

} // namespace sift::harness
