//===- UpstreamCommand.cpp - harness upstream: an issue upstream ----------===//
//
// `harness upstream CASE -o DIR` turns an IREE case folder (a finding,
// best reduced first) into what an IREE developer can act on: the case is
// run again through IREE (isolated, like replay), and DIR gets report.md
// (the verdict, the IREE version, pipeline and target, the input program,
// the exact iree-compile and iree-run-module commands, the inputs, expected
// and actual outputs, and IREE's diagnostics), repro.mlir and the inputs as
// .npy files the commands read. A case that passes now, or one of sift's
// own pipelines, is refused with a reason. A case of a system described by
// a file gets its issue from its folder alone (report/UpstreamIssue.h).
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseFolder.h"
#include "harness/case/IsolatedCase.h"
#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/report/UpstreamIssue.h"
#include "harness/sut/Systems.h"
#include "oracles/Compare.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "support/Shape.h"

#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// IREE's diagnostics as an issue shows them: the program is repro.mlir
/// (not the temporary file sift compiled, a path of this machine), and the
/// IR dumps after the first lines are left out (repro.mlir reproduces them).
std::string sawText(const std::string &detail) {
  static const std::regex temporary(R"([^\s:'"]*sift-iree-[A-Za-z0-9_]+/program\.mlir)");
  std::string text = std::regex_replace(detail, temporary, "repro.mlir");
  constexpr size_t kLines = 16, kColumns = 400;
  std::string out;
  size_t lines = 0, at = 0;
  while (at < text.size() && lines < kLines) {
    size_t end = text.find('\n', at);
    std::string line =
        text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.size() > kColumns)
      line = line.substr(0, kColumns) + " [...]";
    out += line + "\n";
    ++lines;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  if (at < text.size())
    out += "[... " + std::to_string(text.size() - at) +
           " more bytes: compile repro.mlir to see them]\n";
  return out;
}


struct UpstreamOptions {
  std::string folder, output;
  double caseTimeoutSeconds = 120;
};

/// The iree-run-module command for the case's inputs (input<i>.npy).
std::string runCommand(const CaseResult &result) {
  std::string device = result.target == TargetKind::Host ? "local-task"
                       : result.target == TargetKind::Nvptx ? "cuda"
                                                            : "hip";
  std::string command =
      "iree-run-module --module=repro.vmfb --device=" + device +
      " --function=main";
  for (size_t i = 0; i < result.inputs.size(); ++i)
    command += " --input=@input" + std::to_string(i) + ".npy";
  return command;
}

std::string reportText(const CaseResult &result, const CaseOptions &options,
                       const std::string &folder) {
  std::string first = result.detail.substr(0, result.detail.find('\n'));
  std::ostringstream md;
  md << "# " << oracle::toString(result.verdict) << " in IREE ("
     << toString(result.pipeline) << ", " << toString(result.target)
     << "): " << first << "\n\n";
  md << "- IREE: " << result.systemVersion << "\n";
  md << "- target: " << toString(result.target)
     << (options.chip.empty() ? "" : " (" + options.chip + ")") << "\n";
  md << "- pipeline: "
     << (result.pipeline == PipelineKind::Iree
             ? std::string("IREE's own choice")
             : std::string("forced with the compilation_info in the "
                           "program"))
     << "\n";
  md << "- found by sift (case " << folder << ", seed " << result.seed
     << ")\n\n";
  md << "## Program (`repro.mlir`)\n\n" << issueFenced("mlir", result.mlir);
  md << "\n## Reproduce\n\n";
  std::string commands =
      ireeCompileCommand(options, "repro.mlir", "repro.vmfb");
  if (result.compiled)
    commands += "\n" + runCommand(result);
  md << issueFenced("sh", commands);
  md << "\n## Inputs\n\n";
  std::string inputs;
  for (size_t i = 0; i < result.inputs.size(); ++i)
    inputs += "input" + std::to_string(i) + ": " +
              issueValues(result.inputs[i]) + "\n";
  md << issueFenced("", inputs);
  if (result.verdict == oracle::Verdict::Mismatch) {
    md << "\n## Expected and actual outputs\n\nExpected per the ops' "
          "tensor semantics (a sort orders each lane by the comparator, "
          "top-k keeps the k best); the outputs IREE's policy leaves open "
          "(order of equal keys) are not counted as differences.\n\n";
    std::string outputs;
    for (size_t i = 0; i < result.expected.size(); ++i) {
      outputs += "expected " + std::to_string(i) + ": " +
                 issueValues(result.expected[i]) + "\n";
      if (i < result.actual.size())
        outputs += "actual   " + std::to_string(i) + ": " +
                   issueValues(result.actual[i]) + "\n";
    }
    md << issueFenced("", outputs);
  }
  md << "\n## What sift saw\n\n" << issueFenced("", sawText(result.detail));
  return md.str();
}

Status writeText(const fs::path &file, const std::string &text) {
  return writeFileAtomic(file.string(),
                         reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

/// The issue of a case of a system described by a file, from its folder
/// alone (UpstreamIssue.h): the system file it records, else the one with
/// its pipeline among the shipped ones.
int runFileUpstream(const UpstreamOptions &options, const StoredCase &stored) {
  if (!oracle::isFinding(stored.expected)) {
    std::fprintf(stderr,
                 "harness upstream: %s: the case records %s, not a finding; "
                 "nothing to report\n",
                 options.folder.c_str(),
                 std::string(oracle::toString(stored.expected)).c_str());
    return kExitUsage;
  }
  Systems systems;
  if (!stored.options.systemFile.empty())
    if (Status added = systems.addFile(stored.options.systemFile);
        !added.ok()) {
      std::fprintf(stderr,
                   "harness upstream: %s: case.json's system_file: %s\n",
                   options.folder.c_str(), added.message().c_str());
      return kExitUsage;
    }
  Result<const SystemFile *> file =
      systems.fileWithPipeline(stored.options.filePipeline);
  if (!file.ok() || !*file) {
    std::fprintf(stderr, "harness upstream: %s: %s\n", options.folder.c_str(),
                 file.ok() ? ("no system file has the pipeline '" +
                              stored.options.filePipeline +
                              "' (case.json records no system_file, and no "
                              "shipped one has it: harness list systems)")
                                 .c_str()
                           : file.message().c_str());
    return kExitUsage;
  }
  Result<SystemIssueFiles> written =
      writeSystemIssue(stored, **file, options.output);
  if (!written.ok()) {
    std::fprintf(stderr, "harness upstream: %s\n", written.message().c_str());
    return kExitUsage;
  }
  std::string copied;
  for (const std::string &name : written->copied)
    copied += ", " + name;
  std::printf("wrote %s (report.md, %s, %zu inputs%s): %s in %s%s\n",
              options.output.c_str(), written->programFile.c_str(),
              written->inputs, copied.c_str(),
              std::string(oracle::toString(stored.expected)).c_str(),
              (*file)->name.c_str(),
              stored.stage.empty() ? "" : (" at " + stored.stage).c_str());
  return kExitOk;
}

int runUpstreamCommand(const UpstreamOptions &options) {
  Result<StoredCase> stored = loadCaseFolder(options.folder);
  if (!stored.ok()) {
    std::fprintf(stderr, "harness upstream: %s: %s\n", options.folder.c_str(),
                 stored.message().c_str());
    return kExitUsage;
  }
  if (stored->options.pipeline == PipelineKind::File)
    return runFileUpstream(options, *stored);
  if (systemOf(stored->options.pipeline) != SystemKind::Iree) {
    std::fprintf(stderr,
                 "harness upstream: %s: a case of sift's own %s pipeline: "
                 "upstream reports are for IREE's cases and those of "
                 "systems described by files (sift's own findings are "
                 "sift's to fix)\n",
                 options.folder.c_str(),
                 std::string(toString(stored->options.pipeline)).c_str());
    return kExitUsage;
  }
  Systems systems;
  Result<SystemUnderTest *> system = systems.forCase(stored->options);
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!system.ok() || !device.ok()) {
    std::fprintf(stderr, "harness upstream: %s\n",
                 system.ok() ? device.message().c_str()
                             : system.message().c_str());
    return kExitUsage;
  }
  IsolationLimits limits;
  limits.timeoutSeconds = options.caseTimeoutSeconds;
  std::string startError;
  CaseSpec spec{stored->options, stored->seed, stored->program,
                stored->inputs, std::nullopt, ""};
  CaseResult result =
      runCaseIsolated(**system, **device, spec, limits, startError);
  if (!startError.empty()) {
    std::fprintf(stderr, "harness upstream: cannot start a worker: %s\n",
                 startError.c_str());
    return kExitUsage;
  }
  if (!oracle::isFinding(result.verdict)) {
    std::fprintf(stderr,
                 "harness upstream: %s: the finding does not reproduce: the "
                 "case's verdict is %s now (IREE %s); nothing to report\n",
                 options.folder.c_str(),
                 std::string(oracle::toString(result.verdict)).c_str(),
                 result.systemVersion.c_str());
    return kExitFindings;
  }
  fs::path out = options.output;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "harness upstream: -o %s: %s\n", out.c_str(),
                 ec.message().c_str());
    return kExitUsage;
  }
  Status written = writeText(out / "repro.mlir", result.mlir);
  for (size_t i = 0; i < result.inputs.size() && written.ok(); ++i)
    written = writeNpy((out / ("input" + std::to_string(i) + ".npy")).string(),
                       result.inputs[i]);
  if (written.ok())
    written = writeText(out / "report.md",
                        reportText(result, stored->options, options.folder));
  if (!written.ok()) {
    std::fprintf(stderr, "harness upstream: %s\n", written.message().c_str());
    return kExitUsage;
  }
  std::printf("wrote %s (report.md, repro.mlir, %zu inputs): %s at %s\n",
              out.c_str(), result.inputs.size(),
              std::string(oracle::toString(result.verdict)).c_str(),
              result.stage.text().c_str());
  return kExitOk;
}

} // namespace

CommandEntry addUpstreamCommand(CLI::App &app) {
  auto options = std::make_shared<UpstreamOptions>();
  CLI::App *cmd = app.add_subcommand(
      "upstream", "Write an issue the compiler's developers can act on "
                  "from a case folder of IREE or of a system described by "
                  "a file (reduce it first)");
  cmd->add_option("case", options->folder, "The case folder")->required();
  cmd->add_option("-o,--output", options->output,
                  "Folder for report.md, the program and the inputs (a "
                  "system file's case: inputs/, expected/, actual/ and the "
                  "runner its command names)")
      ->required();
  auto timeout = std::make_shared<std::string>("120");
  cmd->add_option("--case-timeout", *timeout,
                  "Time the case may take: 120, 120s, 2m")
      ->capture_default_str();
  return {cmd, [options, timeout] {
            options->caseTimeoutSeconds =
                durationFlag("--case-timeout", *timeout);
            return runUpstreamCommand(*options);
          }};
}

} // namespace sift::harness
