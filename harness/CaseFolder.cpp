//===- CaseFolder.cpp - Reading stored case folders ----------------------===//

#include "harness/CaseFolder.h"

#include "harness/ProgramJson.h"
#include "runtime/support/Npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace sift::harness {

Result<StoredCase> loadCaseFolder(const fs::path &folder) {
  StoredCase stored;
  stored.folder = folder.string();
  std::ifstream in(folder / "case.json");
  if (!in)
    return makeError("cannot read case.json");
  json info;
  try {
    info = json::parse(in);
    if (info.value("format", 0) != 1)
      return makeError("case.json has no \"format\": 1 (a case folder "
                       "written before the corpus format?)");
    stored.seed = info.at("seed").get<uint64_t>();
    std::string verdict = info.at("verdict").get<std::string>();
    std::optional<oracle::Verdict> parsed = oracle::parseVerdict(verdict);
    if (!parsed)
      return makeError("unknown verdict '" + verdict + "'");
    stored.expected = *parsed;
    std::string pipeline = info.at("pipeline").get<std::string>();
    std::string target = info.at("target").get<std::string>();
    std::optional<PipelineKind> kind = parsePipelineKind(pipeline);
    std::optional<TargetKind> targetKind = parseTargetKind(target);
    if (!kind || !targetKind)
      return makeError("unknown pipeline '" + pipeline + "' or target '" +
                       target + "'");
    stored.options.pipeline = *kind;
    stored.options.target = *targetKind;
    stored.options.chip = info.value("chip", std::string());
    stored.options.randomConfig = info.value("random_config", false);
    stored.repro = info.value("repro", std::string());
    if (info.contains("timeout_seconds"))
      stored.timeoutSeconds = info.at("timeout_seconds").get<double>();
    std::optional<gen::InputMode> mode =
        gen::parseInputMode(info.value("inputs", std::string("mixed")));
    stored.options.inputs = mode.value_or(gen::InputMode::Mixed);
    for (const json &name : info.value("faults", json::array())) {
      std::optional<Fault> fault = parseFault(name.get<std::string>());
      if (!fault)
        return makeError("unknown fault " + name.dump());
      stored.options.faults.insert(*fault);
    }
    Result<gen::Program> program = programFromJson(info.at("program"));
    if (!program.ok())
      return makeError("case.json: " + program.message());
    stored.program = std::move(*program);
  } catch (const json::exception &e) {
    return makeError(std::string("case.json: ") + e.what());
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
