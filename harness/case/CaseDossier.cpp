//===- CaseDossier.cpp - What a finding's folder gives its reader ---------===//

#include "harness/case/CaseDossier.h"

#include "harness/case/CaseFolder.h"
#include "harness/sut/Systems.h"
#include "support/FileIO.h"
#include "support/Text.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// The pass whose modules a finding's reader wants: the one a compile
/// error, crash, hang or IR oracle names.
std::string blamedPass(const CaseResult &result) {
  if (result.stage.step != Step::Compile && result.stage.step != Step::Static)
    return "";
  return result.stage.where;
}

/// Adds lowering.json's record to case.json ("lowering"), rewritten whole.
Status mergeLowering(const fs::path &folder) {
  std::error_code ec;
  if (!fs::exists(folder / "lowering.json", ec))
    return Status::success();
  Result<std::vector<uint8_t>> record = readFileBytes(folder / "lowering.json");
  Result<std::vector<uint8_t>> info = readFileBytes(folder / "case.json");
  if (!record.ok() || !info.ok())
    return makeError((folder / "case.json").string() +
                     ": cannot add the lowering record");
  nlohmann::json lowering =
      nlohmann::json::parse(record->begin(), record->end(), nullptr, false);
  nlohmann::json caseJson =
      nlohmann::json::parse(info->begin(), info->end(), nullptr, false);
  if (lowering.is_discarded() || caseJson.is_discarded())
    return makeError((folder / "case.json").string() +
                     ": cannot add the lowering record (unreadable JSON)");
  caseJson["lowering"] = lowering;
  std::string text = caseJson.dump(2) + "\n";
  return writeFileAtomic((folder / "case.json").string(),
                         reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

/// The lines of repro.sh that show the compiler's own view of the case.
std::string compilerLines(const StoredCase &stored, const fs::path &folder) {
  std::string lines;
  const CaseOptions &o = stored.options;
  switch (systemOf(o.pipeline)) {
  case SystemKind::Sift: {
    lines += "# What the campaign compiled (the case's pipeline, target, "
             "chip, faults and\n# lowering configs), from this folder:\n";
    bool gpu = o.target != TargetKind::Host;
    if (gpu) {
      lines += "#   \"$harness\" compile --like=\"$here\" "
               "\"$here/program.mlir\" --emit=" +
               std::string(o.target == TargetKind::Amdgpu ? "mlir" : "ptx") +
               "\n";
      lines += "#   \"$harness\" compile --like=\"$here\" "
               "\"$here/program.mlir\" --emit=artifact -o case.siftart\n";
      lines += "#   sift-run case.siftart --device=" +
               std::string(o.target == TargetKind::Amdgpu ? "hip" : "cuda") +
               "    # on a GPU host\n";
    }
    lines += "#   \"$harness\" run --like=\"$here\" \"$here/program.mlir\" "
             "--output-dir=out\n";
    if (fs::exists(folder / "reproducer.mlir"))
      lines += "#   sift-opt --run-reproducer \"$here/reproducer.mlir\"\n";
    break;
  }
  case SystemKind::Iree:
    lines += "# IREE's own command line on the kept program:\n#   " +
             ireeCompileCommand(o, "\"$here/program.mlir\"") + "\n";
    break;
  case SystemKind::File:
    if (!stored.systemCommand.empty())
      lines += "# The system's own command line (harness check lays the "
               "inputs out as CASE/inputs):\n#   " +
               stored.systemCommand + "\n";
    break;
  }
  return lines;
}

} // namespace

std::string harnessBinary() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("harness") : self.string();
}

Status writeReproScript(const std::string &folderText) {
  fs::path folder = fs::absolute(folderText).lexically_normal();
  Result<StoredCase> stored = loadCaseFolder(folder);
  if (!stored.ok())
    return stored.error();
  std::string run =
      pipelineName(stored->options) + "/" +
      std::string(toString(stored->options.target)) +
      (stored->options.device
           ? " on " + std::string(rt::toString(*stored->options.device))
           : std::string());
  std::string script =
      "#!/bin/sh\n"
      "# sift finding: " +
      std::string(oracle::toString(stored->expected)) + " at " +
      stored->stage + " (" + run + ", seed " + std::to_string(stored->seed) +
      ")\n#   " + stored->detail.substr(0, stored->detail.find('\n')).substr(0, 300) +
      "\n#\n"
      "# Reproduces it from this folder alone (no findings database), in "
      "any shell:\n"
      "# exit 1 while the finding is there, 0 once it is gone, 2 when the "
      "folder\n# cannot be read. HARNESS names another harness binary.\n"
      "set -u\n"
      "here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
      "harness=${HARNESS:-" +
      shellQuoted(harnessBinary()) +
      "}\n#\n" + compilerLines(*stored, folder) +
      "exec \"$harness\" check \"$here\"\n";
  std::string path = (folder / "repro.sh").string();
  if (Status s = writeFileAtomic(
          path, reinterpret_cast<const uint8_t *>(script.data()),
          script.size());
      !s.ok())
    return s;
  if (::chmod(path.c_str(), 0755) != 0)
    return makeError(path + ": cannot make it executable");
  return Status::success();
}

Status writeCaseDossier(Systems &systems, const std::string &folder,
                        const CaseResult &result, const CaseOptions &options,
                        const IsolationLimits &limits) {
  if (systemOf(result.pipeline) == SystemKind::Sift && !result.mlir.empty()) {
    KeepRequest keep{folder, blamedPass(result)};
    CaseOptions o = options;
    IsolatedOutcome outcome = runIsolated(
        [&](const std::function<void(const char *)> &phase) {
          o.onPhase = phase;
          return systems.sift().compileKeeping(o, result.mlir, result.seed,
                                               keep);
        },
        nullptr, limits);
    if (!outcome.startError.empty())
      return makeError(folder + ": cannot compile the case again for its "
                                "folder: " + outcome.startError);
    if (Status s = mergeLowering(folder); !s.ok())
      return s;
  }
  return writeReproScript(folder);
}

} // namespace sift::harness
