//===- harness/sut/file/FileSystem.cpp - A system a file describes --------===//

#include "harness/sut/file/FileSystem.h"

#include "generators/ProgramJson.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "oracles/StepVerdict.h"
#include "support/Process.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>

#include <unistd.h>

namespace sift::harness {

namespace fs = std::filesystem;

namespace {

/// What the system file says its failures mean.
oracle::StepRules rulesOf(const SystemFile &file) {
  oracle::StepRules rules;
  rules.system = file.name;
  rules.unsupportedExitCodes = file.unsupportedExitCodes;
  for (const SystemLimit &limit : file.limits)
    rules.limits.push_back({limit.contains, limit.why + " (" + limit.source + ")"});
  return rules;
}

} // namespace

FileSystem::FileSystem(SystemFile file, std::string version)
    : file_(std::move(file)), version_(std::move(version)) {
  std::error_code ec;
  std::string pattern =
      (fs::temp_directory_path(ec) / ("sift-" + file_.name + "-XXXXXX"))
          .string();
  if (mkdtemp(pattern.data())) {
    workRoot_ = pattern;
    workOwner_ = getpid();
  } else {
    workError_ = std::strerror(errno);
  }
}

FileSystem::~FileSystem() {
  if (!workRoot_.empty() && workOwner_ == getpid()) {
    std::error_code ec;
    fs::remove_all(workRoot_, ec);
  }
}

Result<std::string> FileSystem::freshCaseDir() {
  std::error_code ec;
  if (workRoot_.empty())
    return makeError("cannot make a work folder for " + file_.name + ": " +
                     workError_);
  std::string dir = workRoot_ + "/" + std::to_string(getpid()) + "/case";
  fs::remove_all(dir, ec);
  for (const char *sub : {"inputs", "outputs", "artifacts"})
    if (!fs::create_directories(fs::path(dir) / sub, ec) && ec)
      return makeError(dir + ": " + ec.message());
  return dir;
}

const SystemPipeline &
FileSystem::pipelineOf(PipelineKind kind, const std::string &fullName) const {
  return systemPipelineOf(file_, kind, fullName);
}

const SystemPipeline &systemPipelineOf(const SystemFile &file,
                                       PipelineKind kind,
                                       const std::string &fullName) {
  const SystemPipeline *pipeline =
      kind == PipelineKind::File ? file.pipeline(fullName) : nullptr;
  // The harness only hands a system its own pipelines (Systems::of).
  return pipeline ? *pipeline : file.pipelines.front();
}

CommandValues systemCommandValues(const SystemFile &file,
                                  const CaseOptions &options,
                                  const std::string &caseDir) {
  const SystemPipeline &pipeline =
      systemPipelineOf(file, options.pipeline, options.filePipeline);
  CommandValues v;
  v.options = pipeline.options;
  fs::path dir(caseDir);
  v.values = {
      {"python", systemPython()},
      {"here", file.folder},
      {"program", (dir / gen::programFileName(file.format)).string()},
      {"inputs", (dir / "inputs").string()},
      {"outputs", (dir / "outputs").string()},
      {"artifacts", (dir / "artifacts").string()},
      {"device", options.target == TargetKind::Host    ? "cpu"
                 : options.target == TargetKind::Nvptx ? "cuda"
                                                       : "hip"},
      {"target", std::string(toString(options.target))},
      {"chip", options.chip},
      {"pipeline", pipeline.name},
  };
  return v;
}

CommandValues FileSystem::valuesFor(const CaseOptions &options,
                                    const std::string &caseDir) const {
  return systemCommandValues(file_, options, caseDir);
}

std::string FileSystem::commandLine(const CaseOptions &options,
                                    const std::string &step,
                                    const std::string &caseDir) const {
  const CommandTemplate &command =
      step == "compile" && file_.compile ? *file_.compile : file_.run;
  std::string env;
  for (const auto &[name, value] :
       pipelineOf(options.pipeline, options.filePipeline).env)
    env += shellLine({name + "=" + value}) + " ";
  return env + shellLine(expandCommand(command, valuesFor(options, caseDir)));
}

bool FileSystem::compile(const CaseOptions &options, CaseResult &result) {
  auto start = std::chrono::steady_clock::now();
  result.systemVersion = version_;
  result.systemName = file_.name;
  // The system's own command line, over a folder CASE laid out as the
  // system sees it (the program, inputs/input_<i>.npy, outputs/).
  result.systemCommand =
      (file_.compile ? commandLine(options, "compile", "CASE") + " && " : "") +
      commandLine(options, "run", "CASE");
  pending_.reset();
  if (std::string why =
          oracle::documentedUnsupported(file_.policy, result.program);
      !why.empty())
    return failWith(result, oracle::Verdict::Unsupported,
                    Stage(Step::Generate), "not compiled: " + why +
                                               " (a documented limit)");
  Result<gen::ExchangeProgram> program =
      file_.format == gen::ExchangeFormat::ModelJson
          ? Result<gen::ExchangeProgram>(gen::ExchangeProgram{
                file_.format, gen::programToJson(result.program).dump(1)})
          : gen::emitExchange(result.program, file_.format);
  if (!program.ok())
    return failWith(result, oracle::Verdict::Unsupported,
                    Stage(Step::Generate),
                    "the " + std::string(gen::toString(file_.format)) +
                        " format cannot express this program: " +
                        program.message());
  result.mlir = program->bytes;
  result.programFile = std::string(gen::programFileName(file_.format));
  Result<std::string> dir = freshCaseDir();
  if (!dir.ok())
    return failWith(result, oracle::Verdict::CompileError,
                    Stage(Step::Compile), dir.message());
  caseDir_ = *dir;
  lastOptions_ = options;
  Status written = writeFileAtomic(
      (fs::path(caseDir_) / result.programFile).string(),
      reinterpret_cast<const uint8_t *>(result.mlir.data()), result.mlir.size());
  for (size_t i = 0; written.ok() && i < result.inputs.size(); ++i)
    written = writeNpy((fs::path(caseDir_) / "inputs" /
                        ("input_" + std::to_string(i) + ".npy"))
                           .string(),
                       result.inputs[i]);
  if (!written.ok())
    return failWith(result, oracle::Verdict::CompileError,
                    Stage(Step::Compile), written.message());
  // A GPU target's steps need the GPU host: here the program is only
  // written (for --export-artifacts and sift-run, SystemExport.cpp).
  if (options.target != TargetKind::Host) {
    result.compiled = true;
    result.detail = "not run here: " + file_.name + "'s " +
                    std::string(toString(options.target)) +
                    " steps run on the GPU host (--export-artifacts, sift-run)";
    return true;
  }
  if (options.onPhase)
    options.onPhase("compile");
  bool ok = file_.compile ? compileStep(options, result)
                          : compileByRunning(options, result);
  result.compileSeconds = secondsSince(start);
  result.compiled = ok;
  return ok;
}

bool FileSystem::compileStep(const CaseOptions &options, CaseResult &result) {
  std::vector<std::string> args =
      expandCommand(*file_.compile, valuesFor(options, caseDir_));
  CommandRun run =
      runCommand(args, pipelineOf(options.pipeline, options.filePipeline).env,
                 caseDir_, file_.compileSeconds, file_.memoryMiB);
  oracle::StepJudgement judged = oracle::judgeStep(
      run, oracle::StepKind::Compile, rulesOf(file_),
      commandLine(options, "compile", "CASE"), file_.compileSeconds);
  if (judged.verdict == oracle::Verdict::Pass)
    return true;
  return failWith(result, judged.verdict, Stage(Step::Compile), judged.detail);
}

bool FileSystem::compileByRunning(const CaseOptions &options,
                                  CaseResult &result) {
  std::vector<std::string> args =
      expandCommand(file_.run, valuesFor(options, caseDir_));
  CommandRun run =
      runCommand(args, pipelineOf(options.pipeline, options.filePipeline).env,
                 caseDir_, file_.runSeconds, file_.memoryMiB);
  oracle::StepJudgement judged = oracle::judgeStep(
      run, oracle::StepKind::JitRun, rulesOf(file_),
      commandLine(options, "run", "CASE"), file_.runSeconds);
  if (judged.verdict != oracle::Verdict::Pass && judged.compiling)
    return failWith(result, judged.verdict, Stage(Step::Compile),
                    judged.detail);
  pending_ = outcomeOf(judged, result.program.outputs.size());
  pendingSeed_ = result.seed;
  return true;
}

Result<std::vector<HostTensor>>
FileSystem::outcomeOf(const oracle::StepJudgement &judged, size_t outputs) {
  switch (judged.verdict) {
  case oracle::Verdict::Pass: break;
  case oracle::Verdict::RunTimeout:
    return makeError(std::string(kRunTimedOutPrefix) + judged.detail);
  case oracle::Verdict::Unsupported:
    return makeError(std::string(kUnsupportedPrefix) + judged.detail);
  default: return makeError(judged.detail);
  }
  std::vector<HostTensor> tensors;
  for (size_t i = 0; i < outputs; ++i) {
    std::string path = (fs::path(caseDir_) / "outputs" /
                        ("output_" + std::to_string(i) + ".npy"))
                           .string();
    Result<HostTensor> tensor = readNpy(path);
    if (!tensor.ok())
      return makeError(file_.name + "'s run wrote no readable output " +
                       std::to_string(i) + ": " + tensor.message());
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

Result<std::vector<HostTensor>> FileSystem::run(const CaseResult &compiled,
                                                rt::Device &device,
                                                int repetition) {
  if (!runsOn(device, compiled.target))
    return makeError(file_.name + "'s " +
                     std::string(toString(compiled.target)) +
                     " pipelines do not run on this device here");
  if (pending_ && pendingSeed_ == compiled.seed && repetition == 0) {
    Result<std::vector<HostTensor>> outcome = std::move(*pending_);
    pending_.reset();
    return outcome;
  }
  std::error_code ec;
  fs::remove_all(fs::path(caseDir_) / "outputs", ec);
  fs::create_directories(fs::path(caseDir_) / "outputs", ec);
  std::vector<std::string> args =
      expandCommand(file_.run, valuesFor(lastOptions_, caseDir_));
  CommandRun run = runCommand(
      args, pipelineOf(lastOptions_.pipeline, lastOptions_.filePipeline).env,
      caseDir_, file_.runSeconds, file_.memoryMiB);
  oracle::StepJudgement judged = oracle::judgeStep(
      run, file_.compile ? oracle::StepKind::Run : oracle::StepKind::JitRun,
      rulesOf(file_), commandLine(lastOptions_, "run", "CASE"),
      file_.runSeconds);
  return outcomeOf(judged, compiled.program.outputs.size());
}

CaseResult FileSystem::compileText(const CaseOptions &options,
                                   const std::string &text,
                                   const std::string &, uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.mlir = text;
  result.programFile = std::string(gen::programFileName(file_.format));
  Result<std::string> dir = freshCaseDir();
  if (!dir.ok()) {
    decide(result, oracle::Verdict::CompileError, Stage(Step::Compile),
           dir.message());
    return result;
  }
  caseDir_ = *dir;
  lastOptions_ = options;
  Status written = writeFileAtomic(
      (fs::path(caseDir_) / result.programFile).string(),
      reinterpret_cast<const uint8_t *>(text.data()), text.size());
  if (!written.ok()) {
    decide(result, oracle::Verdict::CompileError, Stage(Step::Compile),
           written.message());
    return result;
  }
  if (file_.compile)
    result.compiled = compileStep(options, result);
  else
    result.detail = file_.name + " has no compile step: a program text "
                                 "alone is not judged";
  return result;
}

bool FileSystem::runsOn(const rt::Device &device, TargetKind target) const {
  return device.kind() == rt::DeviceKind::Cpu && target == TargetKind::Host;
}

Result<std::unique_ptr<FileSystem>> makeFileSystem(SystemFile file) {
  std::string version = file.versionText;
  if (file.versionCommand) {
    CommandValues values;
    values.values = {{"python", systemPython()}, {"here", file.folder}};
    std::vector<std::string> args = expandCommand(*file.versionCommand, values);
    CommandRun run = runCommand(args, {}, "", 120, 0);
    std::string first = run.output.substr(0, run.output.find('\n'));
    if (run.status != 0 || first.empty())
      return makeError(
          file.path + ":" + std::to_string(file.versionCommand->line) +
          ": the version command failed (is " + file.name +
          " installed? scripts/bootstrap.sh installs the shipped systems)\n$ " +
          shellLine(args) + "\n" + lastLines(run.output, 12));
    version = first;
  }
  return std::make_unique<FileSystem>(std::move(file), std::move(version));
}

} // namespace sift::harness
