//===- harness/campaign/SystemExport.cpp - A file system's case to carry --===//
//
// The GPU half of a campaign over a system described by a file: its GPU
// runs (nvptx, amdgpu) cannot run on the compile host, so
// `--export-artifacts` writes each as NAME.syscase/ for sift-run on the GPU
// host (tools/sift-run/SystemCases.cpp), which has the system's Python
// packages and the sources (so {here} and systems/runners/ are there):
//
//   case.json          format "sift-system-case 1"; the case's facts, the
//                      program model (sift-run judges the outputs with the
//                      reference's), the system's run (and compile) command
//                      templates with the pipeline's options and
//                      environment, its limits, what its exit codes and
//                      messages mean, and its semantic points
//   <program file>     the program in the system's exchange format
//   input<i>.npy       the inputs
//   expected<i>.npy    the reference's outputs
//
// Written under a temporary name and renamed into place.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"

#include "generators/ProgramJson.h"

#include <filesystem>


namespace sift::harness {

namespace fs = std::filesystem;

namespace {

/// `folder` relative to the source tree when it is inside it (the GPU host
/// has the same tree), else absolute.
std::string portableFolder(const std::string &folder) {
  std::error_code ec;
  fs::path source = fs::path(shippedSystemsDir()).parent_path();
  fs::path relative = fs::relative(folder, source, ec);
  if (!ec && !relative.empty() && relative.native().rfind("..", 0) != 0)
    return relative.string();
  return fs::absolute(folder, ec).string();
}

nlohmann::json commandJson(const CommandTemplate &command) {
  return command.args;
}

/// What sift-run needs of the system file.
nlohmann::json systemFacts(const SystemFile &file,
                           const SystemPipeline &pipeline) {
  nlohmann::json facts = {
      {"system", file.name},
      {"here", portableFolder(file.folder)},
      {"run", commandJson(file.run)},
      {"run_seconds", file.runSeconds},
      {"options", pipeline.options},
      {"env", pipeline.env},
      {"memory_mib", file.memoryMiB},
      {"unsupported_exit_codes", file.unsupportedExitCodes},
      {"limits", nlohmann::json::array()},
      {"semantics", nlohmann::json::object()}};
  if (file.compile) {
    facts["compile"] = commandJson(*file.compile);
    facts["compile_seconds"] = file.compileSeconds;
  }
  for (const SystemLimit &limit : file.limits)
    facts["limits"].push_back(
        {{"contains", limit.contains},
         {"why", limit.why + " (" + limit.source + ")"}});
  for (const SemanticPoint &point : file.semantics)
    facts["semantics"][point.key] = point.value;
  return facts;
}

} // namespace

Status exportSystemCase(const FuzzOptions &options, const rt::ExportedCase &info,
                        const std::string &filePipeline,
                        const CaseResult &result, const std::string &name) {
  Systems systems;
  for (const std::string &path : options.systemFiles)
    if (Status added = systems.addFile(path); !added.ok())
      return added;
  Result<const SystemFile *> file = systems.fileWithPipeline(filePipeline);
  if (!file.ok())
    return file.error();
  if (!*file)
    return makeError("no system file has the pipeline " + filePipeline);
  nlohmann::json facts = systemFacts(**file, *(*file)->pipeline(filePipeline));
  facts.update({{"format", "sift-system-case 1"},
                {"name", name},
                {"seed", result.seed},
                {"pipeline", filePipeline},
                {"target", std::string(toString(info.target))},
                {"chip", info.chip},
                {"inputs", info.inputs},
                {"system_version", result.systemVersion},
                {"program_file", result.programFile},
                {"static_verdict", info.staticVerdict},
                {"program", gen::programToJson(result.program)}});
  return writeExportFolder(fs::path(options.exportDir) / (name + ".syscase"),
                           {{"case.json", facts.dump(1)},
                            {result.programFile, result.mlir}},
                           result);
}

} // namespace sift::harness
