//===- CaseFolder.cpp - Case folders: case.json -----------------------------===//

#include "harness/case/CaseFolder.h"

#include "generators/ProgramGenerator.h"
#include "generators/ProgramJson.h"
#include "support/FileIO.h"
#include "support/Npy.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <unistd.h>

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
  else if constexpr (std::is_unsigned_v<T>)
    return "a whole number from 0 to 2^64 - 1";
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

/// The fields of case.json a folder writer makes (fillCaseFolder); the
/// others are kept on a rewrite.
const char *const kWrittenFields[] = {
    "seed",       "pipeline",       "target",    "inputs",
    "verdict",    "stage",          "signature", "detail",
    "repro",      "program_weight", "format",    "generator_version",
    "chip",       "random_config",  "program",   "faults",
    "reproducer", "frontend",       "device",    "steered",
    "static_dims", "system",        "program_file", "system_file",
    "system_command", "system_version"};

bool isWrittenField(const std::string &name) {
  for (const char *field : kWrittenFields)
    if (name == field)
      return true;
  return false;
}

/// The fields of case.json that say what the case is: format, seed,
/// verdict, pipeline, target, chip, configs, signature, kept fields. An
/// error (or a FieldError) names what is wrong.
Status readCaseFacts(const json &info, StoredCase &stored) {
  if (!info.is_object() || !info.contains("format"))
    return makeError("case.json has no \"format\": 1 (a case folder "
                     "written before the corpus format?)");
  if (int format = field<int>(info, "format"); format != 1)
    return makeError("case.json has \"format\": " + std::to_string(format) +
                     "; this harness reads format 1 (corpus/FORMAT.md; "
                     "a folder written by another version of sift?)");
  stored.seed = field<uint64_t>(info, "seed");
  std::string verdict = field<std::string>(info, "verdict");
  std::optional<oracle::Verdict> parsed = oracle::parseVerdict(verdict);
  if (!parsed)
    return makeError("unknown verdict '" + verdict + "'");
  stored.expected = *parsed;
  std::string pipeline = field<std::string>(info, "pipeline");
  std::string target = field<std::string>(info, "target");
  std::optional<StoredPipeline> kind = parseStoredPipeline(pipeline);
  std::optional<TargetKind> targetKind = parseTargetKind(target);
  if (!kind || !targetKind)
    return makeError("unknown pipeline '" + pipeline + "' or target '" +
                     target + "'");
  stored.options.pipeline = kind->kind;
  stored.options.filePipeline = kind->file;
  if (kind->kind == PipelineKind::File)
    stored.options.systemFile = fieldOr<std::string>(info, "system_file", "");
  stored.options.target = *targetKind;
  stored.options.chip = fieldOr<std::string>(info, "chip", "");
  if (*targetKind != TargetKind::Host)
    if (Result<ChipInfo> chip = findChip(*targetKind, stored.options.chip);
        !chip.ok())
      return makeError("case.json: field 'chip': " + chip.message());
  stored.options.randomConfig = fieldOr<bool>(info, "random_config", false);
  if (info.contains("device")) {
    std::string device = field<std::string>(info, "device");
    std::optional<rt::DeviceKind> kind = rt::parseDeviceKind(device);
    if (!kind || *kind == rt::DeviceKind::Cpu ||
        *targetKind == TargetKind::Host)
      return makeError("case.json: field 'device' is '" + device +
                       "', not where a GPU pipeline's case ran (cuda, hip "
                       "or emu)");
    stored.options.device = kind;
    stored.options.emuKernels = *kind == rt::DeviceKind::Emu;
  }
  if (info.contains("frontend")) {
    std::string frontEnd = field<std::string>(info, "frontend");
    stored.options.frontEnd = gen::parseFrontEnd(frontEnd);
    if (!stored.options.frontEnd)
      return makeError("case.json: field 'frontend' is '" + frontEnd +
                       "', not linalg_ext, torch or onnx");
  }
  stored.options.staticDims = fieldOr<bool>(info, "static_dims", false);
  stored.repro = fieldOr<std::string>(info, "repro", "");
  stored.signature = fieldOr<std::string>(info, "signature", "");
  stored.detail = fieldOr<std::string>(info, "detail", "");
  stored.stage = fieldOr<std::string>(info, "stage", "");
  if (kind->kind == PipelineKind::File) {
    stored.systemName = fieldOr<std::string>(info, "system", "");
    stored.systemCommand = fieldOr<std::string>(info, "system_command", "");
    stored.systemVersion = fieldOr<std::string>(info, "system_version", "");
    stored.programFile = fieldOr<std::string>(info, "program_file", "");
  }
  for (const auto &[name, value] : info.items())
    if (!isWrittenField(name))
      stored.keptFields[name] = value;
  if (info.contains("timeout_seconds")) {
    stored.timeoutSeconds = field<double>(info, "timeout_seconds");
    if (!(*stored.timeoutSeconds > 0) || *stored.timeoutSeconds > 86400)
      throw FieldError{"field 'timeout_seconds' is " +
                       info["timeout_seconds"].dump() +
                       ", not a number of seconds from 0 to 86400 "
                       "(exclusive of 0)"};
  }
  return Status::success();
}

/// The fields of case.json that say how it was made and what it is: the
/// input mode, the faults and the program model.
Status readCaseProgram(const json &info, StoredCase &stored) {
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
  Result<gen::Program> program = gen::programFromJson(field<json>(info, "program"));
  if (!program.ok())
    return makeError("case.json: " + program.message());
  stored.program = std::move(*program);
  return Status::success();
}

/// The input<i>.npy files of `folder`, checked against the program.
Status readCaseInputs(const fs::path &folder, StoredCase &stored) {
  for (size_t i = 0; i < stored.program.inputs.size(); ++i) {
    fs::path file = folder / ("input" + std::to_string(i) + ".npy");
    Result<HostTensor> tensor = readNpy(file.string());
    if (!tensor.ok())
      return tensor.error();
    const gen::TensorType &type =
        stored.program.values[static_cast<size_t>(stored.program.inputs[i])];
    if (tensor->type != type.elementType || tensor->shape != type.shape)
      return makeError(file.filename().string() + " holds " +
                       describe(*tensor) + ", but input " + std::to_string(i) +
                       " of the program is " +
                       describe(type.elementType, type.shape));
    stored.inputs.push_back(std::move(*tensor));
  }
  return Status::success();
}

} // namespace

Result<StoredCase> loadCaseFolder(const fs::path &folder) {
  StoredCase stored;
  stored.folder = folder.string();
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return makeError(fs::exists(folder, ec) ? "not a case folder (a file)"
                                            : "no such folder");
  if (!fs::exists(folder / "case.json", ec))
    return makeError("no case.json in it: not a case folder");
  // Read whole through the checked reader: a case.json that is a folder or
  // unreadable is a message, never an exception out of a stream.
  Result<std::vector<uint8_t>> bytes =
      readFileBytes((folder / "case.json").string());
  if (!bytes.ok())
    return makeError("cannot read case.json: " + bytes.message());
  try {
    json info = json::parse(bytes->begin(), bytes->end());
    if (Status s = readCaseFacts(info, stored); !s.ok())
      return s.error();
    if (Status s = readCaseProgram(info, stored); !s.ok())
      return s.error();
  } catch (const json::exception &e) {
    return makeError("case.json: " + gen::jsonProblem(e));
  } catch (const FieldError &e) {
    return makeError("case.json: " + e.message);
  }
  if (Status s = readCaseInputs(folder, stored); !s.ok())
    return s.error();
  return stored;
}

Result<std::vector<HostTensor>> loadCaseTensors(const fs::path &folder,
                                                const std::string &prefix) {
  std::vector<HostTensor> tensors;
  std::error_code ec;
  for (size_t i = 0;; ++i) {
    fs::path file = folder / (prefix + std::to_string(i) + ".npy");
    if (!fs::exists(file, ec))
      return tensors;
    Result<HostTensor> tensor = readNpy(file.string());
    if (!tensor.ok())
      return tensor.error();
    tensors.push_back(std::move(*tensor));
  }
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
      bool file = fs::exists(root, ec);
      errors.push_back(
          root + (file ? ": a file, not a case folder (give the folder that "
                         "holds case.json, or a folder of such folders)"
                       : ": no such folder"));
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

namespace {

Status writeTensors(const fs::path &dir, const std::string &prefix,
                    const std::vector<HostTensor> &tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::string path = (dir / (prefix + std::to_string(i) + ".npy")).string();
    if (Status status = writeNpy(path, tensors[i]); !status.ok())
      return status;
  }
  return Status::success();
}

} // namespace

Result<std::string> writeCaseFolder(const std::string &parent,
                                    const CaseResult &result,
                                    const CaseOptions &options,
                                    const std::string &reproCommand) {
  char name[128];
  std::snprintf(name, sizeof(name), "%s-%s-%s-%016llx",
                std::string(oracle::toString(result.verdict)).c_str(),
                pipelineName(result).c_str(),
                std::string(toString(result.target)).c_str(),
                static_cast<unsigned long long>(result.seed));
  return writeCaseFolderAt((fs::path(parent) / name).string(), result,
                           options, reproCommand, nlohmann::json::object(),
                           /*keepOtherFiles=*/false);
}

namespace {

/// case.json's fields for a case steered around a known IREE bug (a
/// replay spells the case the same) and for static dimensions.
void addSteering(const CaseResult &result, const CaseOptions &options,
                 nlohmann::json &info) {
  json steered = json::array();
  bool staticDims = options.staticDims;
  const std::string spelledStatic =
      std::string(":") + toString(SteerRule::Then::StaticDims);
  for (const std::string &tag : result.coverage)
    if (tag.rfind(kSteeredTag, 0) == 0) {
      std::string applied = tag.substr(kSteeredTag.size());
      steered.push_back(applied);
      staticDims |= applied.size() > spelledStatic.size() &&
                    applied.compare(applied.size() - spelledStatic.size(),
                                    spelledStatic.size(), spelledStatic) == 0;
    }
  if (!steered.empty())
    info["steered"] = steered;
  if (staticDims)
    info["static_dims"] = true;
}

/// case.json's fields of where the case ran: its GPU device (a replay runs
/// it there again), a file system's name, files and command, the system's
/// version.
void addSystem(const CaseResult &result, const CaseOptions &options,
               nlohmann::json &info) {
  if (options.device && result.target != TargetKind::Host &&
      systemOf(result.pipeline) == SystemKind::Sift)
    info["device"] = std::string(rt::toString(*options.device));
  if (result.pipeline == PipelineKind::File) {
    info["system"] = result.systemName;
    info["program_file"] = result.programFile;
    if (!options.systemFile.empty())
      info["system_file"] = options.systemFile;
    if (!result.systemCommand.empty())
      info["system_command"] = result.systemCommand;
  }
  if (!result.systemVersion.empty())
    info[(result.pipeline == PipelineKind::File
              ? std::string("system")
              : std::string(toString(systemOf(result.pipeline)))) +
         "_version"] = result.systemVersion;
}

/// The case's case.json (corpus/FORMAT.md), `extra`'s fields last.
nlohmann::json caseJson(const CaseResult &result, const CaseOptions &options,
                        const std::string &reproCommand,
                        const nlohmann::json &extra) {
  nlohmann::json info = {
      {"seed", result.seed},
      {"pipeline", pipelineName(result)},
      {"target", std::string(toString(result.target))},
      {"inputs", std::string(gen::toString(options.inputs))},
      {"verdict", std::string(oracle::toString(result.verdict))},
      {"stage", result.stage.text()},
      {"signature", findingSignature(result)},
      {"detail", result.detail},
      {"repro", reproCommand},
      {"program_weight", result.program.weight()},
      // What `harness replay` needs (corpus/FORMAT.md).
      {"format", 1},
      {"generator_version", gen::kGeneratorVersion},
      {"chip", options.chip},
      {"random_config", options.randomConfig},
      {"program", gen::programToJson(result.program)},
  };
  json faults = json::array();
  for (Fault fault : kAllFaults)
    if (options.faults.contains(fault))
      faults.push_back(std::string(toString(fault)));
  info["faults"] = faults;
  if (!result.reproducer.empty())
    info["reproducer"] = "sift-opt --run-reproducer reproducer.mlir";
  if (result.frontEnd != gen::FrontEnd::Sift)
    info["frontend"] = std::string(gen::toString(result.frontEnd));
  addSteering(result, options, info);
  addSystem(result, options, info);
  for (const auto &[field, value] : extra.items())
    info[field] = value;
  return info;
}

/// Writes the files of a case folder into `dir` (which exists).
Status fillCaseFolder(const fs::path &dir, const CaseResult &result,
                      const CaseOptions &options,
                      const std::string &reproCommand,
                      const nlohmann::json &extra) {
  // The texts: the program always (in a file system's exchange format,
  // under its file name), a crash's stderr and reproducer when there are
  // any.
  const std::string programName =
      result.programFile.empty() ? "program.mlir" : result.programFile;
  for (auto [name, text] : {std::pair{programName.c_str(), &result.mlir},
                            {"stderr.txt", &result.log},
                            {"reproducer.mlir", &result.reproducer}}) {
    if (text->empty() && std::string(name) != programName)
      continue;
    if (Status s = writeFileAtomic(
            (dir / name).string(),
            reinterpret_cast<const uint8_t *>(text->data()), text->size());
        !s.ok())
      return s.error();
  }
  for (auto [prefix, tensors] : {std::pair{"input", &result.inputs},
                                 {"expected", &result.expected},
                                 {"actual", &result.actual}})
    if (Status s = writeTensors(dir, prefix, *tensors); !s.ok())
      return s.error();
  std::string text =
      caseJson(result, options, reproCommand, extra).dump(2) + "\n";
  if (Status s = writeFileAtomic((dir / "case.json").string(),
                                 reinterpret_cast<const uint8_t *>(text.data()),
                                 text.size());
      !s.ok())
    return s.error();
  return Status::success();
}

/// Removes a temporary folder when its writer gives up.
struct RemoveOnFailure {
  fs::path dir;
  bool keep = false;
  ~RemoveOnFailure() {
    std::error_code ec;
    if (!keep)
      fs::remove_all(dir, ec);
  }
};

} // namespace

Result<std::string> writeCaseFolderAt(const std::string &folder,
                                      const CaseResult &result,
                                      const CaseOptions &options,
                                      const std::string &reproCommand,
                                      const nlohmann::json &extra,
                                      bool keepOtherFiles) {
  fs::path finalDir = fs::path(folder).lexically_normal();
  if (finalDir.filename().empty())
    finalDir = finalDir.parent_path();
  std::error_code ec;
  // Only a case folder is ever replaced.
  if (fs::exists(finalDir, ec) && !fs::exists(finalDir / "case.json", ec))
    return makeError(finalDir.string() +
                     ": exists and is not a case folder (no case.json); "
                     "refusing to replace it");
  fs::path parent = finalDir.parent_path();
  if (parent.empty())
    parent = ".";
  std::string suffix = finalDir.filename().string() + "-" +
                       std::to_string(::getpid());
  fs::path tempDir = parent / (".tmp-" + suffix);
  fs::path oldDir = parent / (".old-" + suffix);
  fs::create_directories(parent, ec);
  fs::remove_all(tempDir, ec);
  fs::create_directories(tempDir, ec);
  if (ec)
    return makeError(tempDir.string() + ": " + ec.message());
  RemoveOnFailure cleanup{tempDir};
  if (Status s = fillCaseFolder(tempDir, result, options, reproCommand, extra);
      !s.ok())
    return s.error();
  // Files of the old folder this writer does not make (a reduced.mlir, a
  // note), when asked to keep them.
  if (keepOtherFiles && fs::is_directory(finalDir, ec))
    for (const fs::directory_entry &entry :
         fs::directory_iterator(finalDir, ec))
      if (entry.is_regular_file() &&
          !fs::exists(tempDir / entry.path().filename(), ec)) {
        std::string name = entry.path().filename().string();
        bool generated = name.rfind("input", 0) == 0 ||
                         name.rfind("expected", 0) == 0 ||
                         name.rfind("actual", 0) == 0 ||
                         name == "reproducer.mlir" || name == "stderr.txt";
        if (!generated)
          fs::copy_file(entry.path(), tempDir / name, ec);
      }
  // Swap: the old folder aside, the new one in, then the old one away, so
  // a failure leaves one of them whole.
  bool hadOld = fs::exists(finalDir, ec);
  if (hadOld) {
    fs::remove_all(oldDir, ec);
    fs::rename(finalDir, oldDir, ec);
    if (ec)
      return makeError(finalDir.string() + ": " + ec.message());
  }
  fs::rename(tempDir, finalDir, ec);
  if (ec) {
    std::string message = finalDir.string() + ": " + ec.message();
    if (hadOld)
      fs::rename(oldDir, finalDir, ec);
    return makeError(message);
  }
  cleanup.keep = true;
  if (hadOld)
    fs::remove_all(oldDir, ec);
  return finalDir.string();
}


} // namespace sift::harness
