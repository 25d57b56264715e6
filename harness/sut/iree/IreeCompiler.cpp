//===- harness/sut/iree/IreeCompiler.cpp - IREE as a system under test ----===//
//
// Each compile works in a folder of its own under the temporary directory
// (removed afterwards): program.mlir, module.vmfb and executables/ with
// what --iree-hal-dump-executable-{binaries,intermediates}-to wrote. The
// module's bytes travel in the case result, so a run needs no folder of
// the compile's.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/iree/IreeCompiler.h"

#include "generators/MlirEmitter.h"
#include "harness/sut/iree/IreeChips.h"
#include "harness/sut/iree/IreeConfigs.h"
#include "harness/sut/iree/IreeSteering.h"
#include "oracles/ComparisonPolicy.h"
#include "oracles/static/BinaryChecks.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// The time one iree-compile or iree-run-module may take.
constexpr double kToolSeconds = 120;
/// How much of a tool's output a finding's detail keeps.
constexpr size_t kOutputBytes = 6000;

/// A fresh folder under the temporary directory; removed with the object.
class WorkFolder {
public:
  WorkFolder() {
    std::string pattern =
        (fs::temp_directory_path() / "sift-iree-XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path_ = pattern;
  }
  ~WorkFolder() {
    std::error_code ec;
    if (!path_.empty())
      fs::remove_all(path_, ec);
  }
  bool ok() const { return !path_.empty(); }
  std::string file(const std::string &name) const {
    return (fs::path(path_) / name).string();
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

std::string readWhole(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

std::string clip(const std::string &text) {
  return text.size() <= kOutputBytes
             ? text
             : text.substr(0, kOutputBytes) + "\n[... " +
                   std::to_string(text.size() - kOutputBytes) +
                   " more bytes]";
}

/// The static oracles over the dumped executables: PTX, HSACO, and the
/// device LLVM IR after linking (vendor libraries resolved there).
std::vector<oracle::StaticFinding> checkDumps(const std::string &dumpDir,
                                              std::string &unreadable) {
  std::vector<oracle::StaticFinding> findings;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(dumpDir, ec))
    files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path &file : files) {
    std::string name = file.filename().string();
    std::vector<oracle::StaticFinding> found;
    auto endsWith = [&](const std::string &suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(),
                          suffix) == 0;
    };
    if (endsWith(".ptx")) {
      found = oracle::checkPtx(readWhole(file));
    } else if (endsWith(".hsaco")) {
      std::string bytes = readWhole(file), error;
      found = oracle::checkHsaco(
          reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), error);
      if (!error.empty())
        unreadable = name + ": " + error;
    } else if (endsWith(".optimized.ll")) {
      found = oracle::checkLlvmIr(readWhole(file), /*libdeviceLinked=*/true,
                                  /*rocmDeviceLibsLinked=*/true);
    }
    for (oracle::StaticFinding &f : found) {
      f.message += " (" + name + ")";
      findings.push_back(std::move(f));
    }
  }
  return findings;
}

} // namespace

std::string ireeDiagnostic(const std::string &output,
                           const std::string &fallback) {
  static const std::regex error(R"(error: (.*))");
  static const std::regex fatal(
      R"((Assertion .* failed\.?|LLVM ERROR: .*|UNREACHABLE executed.*))");
  // IREE names dispatches after their shapes
  // ("main_dispatch_0_topk_17x2039xf32_dispatch_tensor_store"): one name
  // for all, so that a signature does not split by shape.
  static const std::regex dispatch(R"([A-Za-z0-9_$]*dispatch_\d+[A-Za-z0-9_]*)");
  auto named = [](const std::string &text) {
    return std::regex_replace(text, dispatch, "DISPATCH");
  };
  std::istringstream lines(output);
  std::string line, firstFatal;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, match, error))
      return named(match[1].str());
    if (firstFatal.empty() && std::regex_search(line, match, fatal))
      firstFatal = match[1].str();
  }
  return firstFatal.empty() ? fallback : named(firstFatal);
}

std::vector<std::string> ireeExtraFlags(const CaseOptions &options) {
  // A program without inputs is evaluated at compile time for the host;
  // a GPU pipeline forced on its ops cannot build there, which says
  // nothing about the GPU code: forced pipelines compile without it.
  if (options.pipeline == PipelineKind::IreeTileAndFuse ||
      options.pipeline == PipelineKind::IreeDistribute)
    return {"--iree-opt-const-eval=false"};
  return {};
}

std::string ireeCompileCommand(const CaseOptions &options,
                               const std::string &file,
                               const std::string &output) {
  std::string command = "iree-compile " + file;
  for (const std::string &flag : ireeTargetFlags(options.target, options.chip))
    command += " " + flag;
  for (const std::string &flag : ireeExtraFlags(options))
    command += " " + flag;
  return command + " -o " + output;
}

gen::IreeSpelling ireeSpelling(const CaseOptions &options,
                               const gen::Program &program, uint64_t seed,
                               SteerOutcome &steered) {
  gen::IreeSpelling spelling;
  spelling.frontEnd = ireeFrontEnd(program, options.frontEnd, seed);
  spelling.dynamicDims =
      options.staticDims ? gen::DynamicDims() : ireeDynamicDims(program, seed);
  steered = SteerOutcome();
  if (options.steering)
    steered = steerCase(*options.steering, program, spelling.frontEnd,
                        options.target, spelling.dynamicDims);
  return spelling;
}

IreeCompiler::IreeCompiler(IreeToolchain toolchain)
    : iree_(std::move(toolchain)) {}

oracle::ComparisonPolicy
IreeCompiler::comparisonPolicy(const CaseResult &result) const {
  return oracle::ireePolicy(result.frontEnd);
}

bool IreeCompiler::runsOn(const rt::Device &device, TargetKind target) const {
  return device.kind() == rt::DeviceKind::Cpu && target == TargetKind::Host;
}

bool IreeCompiler::compile(const CaseOptions &options, CaseResult &result) {
  std::vector<std::string> attributes =
      ireeOpAttributes(result.program, options.pipeline, options.target,
                       options.randomConfig, result.seed);
  SteerOutcome steered;
  gen::IreeSpelling spelling =
      ireeSpelling(options, result.program, result.seed, steered);
  spelling.opAttributes = std::move(attributes);
  result.frontEnd = spelling.frontEnd;
  addSteerTags(steered, result.coverage);
  if (!steered.skippedBy.empty())
    return failWith(result, oracle::Verdict::Unsupported, Stage(Step::Generate),
                    "not compiled: steered around " + steered.skippedBy +
                        ", an open known root cause (--explore-known "
                        "compiles it)");
  if (std::string why = oracle::documentedUnsupported(
          comparisonPolicy(result), result.program);
      !why.empty())
    return failWith(result, oracle::Verdict::Unsupported, Stage(Step::Generate),
                    "not compiled: " + why + " (a documented limit)");
  Result<std::string> text = gen::emitForIree(result.program, spelling);
  if (!text.ok())
    return failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Generate),
                    "the " + std::string(gen::toString(spelling.frontEnd)) +
                        " front end: " + text.message());
  result.mlir = *text;
  return compileIn(options, *text, result);
}

namespace {

bool forcedPipeline(PipelineKind pipeline) {
  return pipeline == PipelineKind::IreeTileAndFuse ||
         pipeline == PipelineKind::IreeDistribute;
}

/// Decides `result` from a failed or timed-out iree-compile `run` (false),
/// or returns true when it succeeded.
bool judgeCompile(const ToolRun &run, const std::string &command,
                  CaseResult &result) {
  if (run.timedOut)
    return failWith(result, oracle::Verdict::CompileTimeout,
                    Stage(Step::Compile),
                    "iree-compile ran past " +
                        std::to_string(static_cast<int>(kToolSeconds)) +
                        " s\n" + command + "\n" + clip(run.output));
  if (run.signal == 0 && run.status == 0)
    return true;
  bool crashed = run.signal != 0;
  std::string fallback =
      crashed ? "iree-compile was killed by signal " +
                    std::to_string(run.signal)
              : "iree-compile exited with status " + std::to_string(run.status);
  return failWith(result,
                  crashed ? oracle::Verdict::CompileCrash
                          : oracle::Verdict::CompileError,
                  Stage(Step::Compile),
                  ireeDiagnostic(run.output, fallback) + "\n" + command +
                      "\n" + clip(run.output));
}

/// The forced pipelines' input: `text` (a torch or ONNX program first
/// through IREE's input phase in `dir`) with a compilation_info on every
/// sort and top-k; nullopt when that decided `result`.
std::optional<std::string> forcedInput(const IreeToolchain &iree,
                                       const CaseOptions &options,
                                       const std::string &text,
                                       const WorkFolder &dir,
                                       CaseResult &result) {
  std::string input = text;
  if (text.find("!torch.vtensor") != std::string::npos) {
    // Torch and ONNX programs: IREE's input phase writes their sorts and
    // top-ks as iree_linalg_ext ops, which are then forced like the
    // linalg_ext front end's.
    std::string in = dir.file("program.mlir"), lowered = dir.file("input.mlir");
    std::ofstream(in, std::ios::binary) << text;
    std::vector<std::string> args = {iree.compile, in, "--compile-to=input"};
    std::string command = "iree-compile program.mlir --compile-to=input";
    for (const std::string &flag :
         ireeTargetFlags(options.target, options.chip)) {
      args.push_back(flag);
      command += " " + flag;
    }
    args.insert(args.end(), {"-o", lowered});
    command += " -o input.mlir";
    if (!judgeCompile(runTool(args, kToolSeconds), command, result))
      return std::nullopt;
    input = readWhole(lowered);
  }
  int forced = 0;
  Result<std::string> annotated =
      forceLinalgExtOps(input, options.pipeline, options.target,
                        options.randomConfig, result.seed, forced);
  if (!annotated.ok()) {
    failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Generate),
             "forcing " + std::string(toString(options.pipeline)) + ": " +
                 annotated.message());
    return std::nullopt;
  }
  if (forced == 0 && input.find("compilation_info") == std::string::npos) {
    // Nothing to force: the pipeline would be IREE's own choice, which
    // the iree pipeline already tests.
    failWith(result, oracle::Verdict::Unsupported, Stage(Step::Generate),
             "not compiled: IREE's input phase left no iree_linalg_ext sort "
             "or top-k to force " +
                 std::string(toString(options.pipeline)) + " on");
    return std::nullopt;
  }
  return *annotated;
}

} // namespace

bool IreeCompiler::compileIn(const CaseOptions &given,
                             const std::string &source, CaseResult &result) {
  // A case without a chip (an older case folder, a command that did not
  // choose one) compiles for a chip this IREE takes, not sift's default.
  CaseOptions options = given;
  if (options.chip.empty() && options.target != TargetKind::Host)
    if (Result<std::string> chip = ireeChipFor(iree_, options.target, "");
        chip.ok())
      options.chip = *chip;
  if (options.onPhase)
    options.onPhase("compile");
  result.systemVersion = iree_.version;
  auto start = std::chrono::steady_clock::now();
  WorkFolder dir;
  if (!dir.ok())
    return failWith(result, oracle::Verdict::GenInvalid, Stage(Step::Compile),
                    "cannot make a work folder for iree-compile");
  std::string text = source;
  if (forcedPipeline(options.pipeline)) {
    std::optional<std::string> input = forcedInput(iree_, options, source, dir, result);
    result.compileSeconds = secondsSince(start);
    if (!input)
      return false;
    // What is compiled, and what a replay or an upstream report starts
    // from: IREE input with every forced op's compilation_info.
    text = *input;
    result.mlir = text;
  }
  std::ofstream(dir.file("program.mlir"), std::ios::binary) << text;
  IreeModule module;
  ToolRun run = ireeCompile(iree_, dir.file("program.mlir"), options.target,
                            options.chip, ireeExtraFlags(options), dir.path(),
                            kToolSeconds, module);
  result.compileSeconds = secondsSince(start);
  std::string command = ireeCompileCommand(options, "program.mlir");
  if (!judgeCompile(run, command, result)) {
    std::string first = result.detail.substr(0, result.detail.find('\n'));
    std::string why = forcedPipeline(options.pipeline) &&
                              result.verdict == oracle::Verdict::CompileError
                          ? forcedConfigRejection(first)
                          : "";
    if (!why.empty())
      return failWith(result, oracle::Verdict::Unsupported, Stage(Step::Compile),
                      "not a finding: IREE rejects the forced config (" + why +
                          "): " + first);
    return false;
  }
  std::string vmfb = readWhole(module.vmfb);
  result.ireeModule.assign(vmfb.begin(), vmfb.end());
  result.compiled = true;
  if (options.target == TargetKind::Host)
    return true;
  std::string unreadable;
  std::vector<oracle::StaticFinding> findings =
      checkDumps(module.dumpDir, unreadable);
  if (!unreadable.empty())
    return failWith(result, oracle::Verdict::CompileError,
                    Stage(Step::Serialize),
                    "IREE's dumped binary is unreadable: " + unreadable);
  if (findings.empty())
    return true;
  std::string detail = findings.front().message;
  if (findings.size() > 1)
    detail += " (and " + std::to_string(findings.size() - 1) + " more)";
  return failWith(result, findings.front().verdict, Stage(Step::Static),
                  detail + "\n" + command);
}

CaseResult IreeCompiler::compileText(const CaseOptions &options,
                                     const std::string &text,
                                     const std::string &, uint64_t seed) {
  CaseResult result = blankCase(options, seed);
  result.mlir = text;
  compileIn(options, text, result);
  return result;
}

Result<std::vector<HostTensor>> IreeCompiler::run(const CaseResult &compiled,
                                                  rt::Device &device, int) {
  if (!runsOn(device, compiled.target))
    return makeError("IREE's " + std::string(toString(compiled.target)) +
                     " modules do not run on this device here");
  WorkFolder dir;
  if (!dir.ok())
    return makeError("cannot make a work folder for iree-run-module");
  IreeModule module;
  module.vmfb = dir.file("module.vmfb");
  std::ofstream(module.vmfb, std::ios::binary)
      .write(reinterpret_cast<const char *>(compiled.ireeModule.data()),
             static_cast<std::streamsize>(compiled.ireeModule.size()));
  return ireeRunLocal(iree_, module, compiled.inputs,
                      compiled.program.outputs.size(), dir.path(),
                      kToolSeconds);
}

} // namespace sift::harness
