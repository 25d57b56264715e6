//===- CaseFolder.cpp - Reading stored case folders ----------------------===//

#include "harness/case/CaseFolder.h"

#include "harness/case/ProgramJson.h"
#include "support/Npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <type_traits>
#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sift::harness {

namespace {

/// A field of case.json that is missing or of the wrong type.
struct FieldError {
  std::string message;
};

template <typename T> const char *kindName() {
  if constexpr (std::is_same_v<T, bool>)
    return "true or false";
  else if constexpr (std::is_arithmetic_v<T>)
    return "a number";
  else
    return "a string";
}

/// `value` (the field `key`) as a T, or a FieldError naming the field.
template <typename T> T fieldAs(const json &value, const std::string &key) {
  bool fits = false;
  if constexpr (std::is_same_v<T, json>)
    return value; // the caller checks its shape
  else if constexpr (std::is_same_v<T, bool>)
    fits = value.is_boolean();
  else if constexpr (std::is_unsigned_v<T>)
    fits = value.is_number_unsigned();
  else if constexpr (std::is_arithmetic_v<T>)
    fits = value.is_number();
  else
    fits = value.is_string();
  if (!fits)
    throw FieldError{"field '" + key + "' is " + value.dump() + ", not " +
                     kindName<T>()};
  return value.get<T>();
}

/// The field `key` of `object`, which must be there.
template <typename T> T field(const json &object, const std::string &key) {
  auto it = object.find(key);
  if (it == object.end())
    throw FieldError{"missing field '" + key + "'"};
  return fieldAs<T>(*it, key);
}

/// The field `key` of `object`, or `fallback` when it is not there.
template <typename T>
T fieldOr(const json &object, const std::string &key, T fallback) {
  auto it = object.find(key);
  return it == object.end() ? fallback : fieldAs<T>(*it, key);
}

} // namespace

Result<StoredCase> loadCaseFolder(const fs::path &folder) {
  StoredCase stored;
  stored.folder = folder.string();
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return makeError(fs::exists(folder, ec) ? "not a case folder (a file)"
                                            : "no such folder");
  std::ifstream in(folder / "case.json");
  if (!in)
    return makeError(fs::exists(folder / "case.json", ec)
                         ? "cannot read case.json"
                         : "no case.json in it: not a case folder");
  json info;
  try {
    info = json::parse(in);
    if (!info.is_object() || fieldOr<int>(info, "format", 0) != 1)
      return makeError("case.json has no \"format\": 1 (a case folder "
                       "written before the corpus format?)");
    stored.seed = field<uint64_t>(info, "seed");
    std::string verdict = field<std::string>(info, "verdict");
    std::optional<oracle::Verdict> parsed = oracle::parseVerdict(verdict);
    if (!parsed)
      return makeError("unknown verdict '" + verdict + "'");
    stored.expected = *parsed;
    std::string pipeline = field<std::string>(info, "pipeline");
    std::string target = field<std::string>(info, "target");
    std::optional<PipelineKind> kind = parsePipelineKind(pipeline);
    std::optional<TargetKind> targetKind = parseTargetKind(target);
    if (!kind || !targetKind)
      return makeError("unknown pipeline '" + pipeline + "' or target '" +
                       target + "'");
    stored.options.pipeline = *kind;
    stored.options.target = *targetKind;
    stored.options.chip = fieldOr<std::string>(info, "chip", "");
    stored.options.randomConfig = fieldOr<bool>(info, "random_config", false);
    stored.repro = fieldOr<std::string>(info, "repro", "");
    if (info.contains("timeout_seconds"))
      stored.timeoutSeconds = field<double>(info, "timeout_seconds");
    std::optional<gen::InputMode> mode =
        gen::parseInputMode(fieldOr<std::string>(info, "inputs", "mixed"));
    stored.options.inputs = mode.value_or(gen::InputMode::Mixed);
    json faults = fieldOr<json>(info, "faults", json::array());
    if (!faults.is_array())
      throw FieldError{"field 'faults' is " + faults.dump() +
                       ", not an array of fault names"};
    for (const json &name : faults) {
      std::optional<Fault> fault =
          parseFault(fieldAs<std::string>(name, "faults"));
      if (!fault)
        return makeError("unknown fault " + name.dump());
      stored.options.faults.insert(*fault);
    }
    Result<gen::Program> program = programFromJson(field<json>(info, "program"));
    if (!program.ok())
      return makeError("case.json: " + program.message());
    stored.program = std::move(*program);
  } catch (const json::exception &e) {
    return makeError("case.json: " + jsonProblem(e));
  } catch (const FieldError &e) {
    return makeError("case.json: " + e.message);
  }
  for (size_t i = 0; i < stored.program.inputs.size(); ++i) {
    fs::path file = folder / ("input" + std::to_string(i) + ".npy");
    Result<HostTensor> tensor = readNpy(file.string());
    if (!tensor.ok())
      return makeError(tensor.message());
    const gen::TensorType &type =
        stored.program.values[static_cast<size_t>(stored.program.inputs[i])];
    if (tensor->type != type.elementType || tensor->shape != type.shape)
      return makeError(file.filename().string() + " holds " +
                       describe(*tensor) + ", but input " + std::to_string(i) +
                       " of the program is " +
                       describe(type.elementType, type.shape));
    stored.inputs.push_back(std::move(*tensor));
  }
  return stored;
}

std::vector<fs::path> findCaseFolders(const std::vector<std::string> &roots,
                                  std::vector<std::string> &errors) {
  std::vector<fs::path> folders;
  for (const std::string &root : roots) {
    std::error_code ec;
    if (fs::exists(fs::path(root) / "case.json", ec)) {
      folders.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      errors.push_back(root + ": no such folder");
      continue;
    }
    std::vector<fs::path> found;
    for (const fs::directory_entry &entry : fs::directory_iterator(root, ec))
      // Hidden folders are a writer's temporary ones (.tmp-*, .old-*).
      if (entry.is_directory() &&
          entry.path().filename().string().rfind('.', 0) != 0 &&
          fs::exists(entry.path() / "case.json"))
        found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    if (found.empty())
      errors.push_back(root + ": no case folders (with case.json) in it");
    folders.insert(folders.end(), found.begin(), found.end());
  }
  return folders;
}

} // namespace sift::harness
