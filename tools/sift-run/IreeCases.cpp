//===- tools/sift-run/IreeCases.cpp - IREE's modules on a GPU host --------===//

#include "tools/sift-run/IreeCases.h"

#include "generators/InputGenerator.h"
#include "generators/ProgramJson.h"
#include "oracles/ComparisonPolicy.h"
#include "oracles/Reference.h"
#include "runtime/iree/IreeRun.h"
#include "support/Npy.h"
#include "support/Text.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

/// What a case folder holds, read and checked.
struct IreeCase {
  gen::Program program;
  std::string pipeline, target, name;
  std::vector<HostTensor> inputs, expected;
  uint64_t seed = 0;
  std::optional<gen::InputMode> inputMode;
  /// The input form it was compiled from (cases exported before front
  /// ends were recorded are linalg_ext).
  gen::FrontEnd frontEnd = gen::FrontEnd::LinalgExt;
};

/// The case's tensors named `prefix`<i>.npy; when the folder has none of
/// them and the case is regenerable, `regenerate()` instead.
template <typename Regenerate>
Status readTensors(const std::string &dir, const char *prefix, size_t count,
                   std::vector<HostTensor> &tensors, bool regenerable,
                   Regenerate regenerate) {
  std::error_code ec;
  bool none = !fs::exists(fs::path(dir) / (prefix + std::string("0.npy")), ec);
  if (none && count > 0 && regenerable) {
    Result<std::vector<HostTensor>> made = regenerate();
    if (!made.ok())
      return made.error();
    tensors = std::move(*made);
    return Status::success();
  }
  for (size_t i = 0; i < count; ++i) {
    Result<HostTensor> t = readNpy(
        (fs::path(dir) / (prefix + std::to_string(i) + ".npy")).string());
    if (!t.ok())
      return makeError(dir + ": " + t.message());
    tensors.push_back(std::move(*t));
  }
  return Status::success();
}

Result<IreeCase> readIreeCase(const std::string &dir) {
  std::ifstream in(fs::path(dir) / "case.json", std::ios::binary);
  if (!in)
    return makeError(dir + ": no case.json");
  IreeCase c;
  try {
    nlohmann::json facts = nlohmann::json::parse(
        std::string(std::istreambuf_iterator<char>(in), {}));
    if (facts.value("format", "") != "sift-iree-case 1")
      return makeError(dir + "/case.json: not a sift IREE case (format '" +
                       facts.value("format", "") + "')");
    c.pipeline = facts.at("pipeline").get<std::string>();
    c.target = facts.at("target").get<std::string>();
    c.name = facts.at("name").get<std::string>();
    Result<gen::Program> program = gen::programFromJson(facts.at("program"));
    if (!program.ok())
      return makeError(dir + "/case.json: program: " + program.message());
    c.program = std::move(*program);
    c.seed = facts.value("seed", uint64_t(0));
    std::string frontEnd = facts.value("frontend", "linalg_ext");
    std::optional<gen::FrontEnd> parsed = gen::parseFrontEnd(frontEnd);
    if (!parsed || *parsed == gen::FrontEnd::Sift)
      return makeError(dir + "/case.json: unknown front end '" + frontEnd +
                       "'");
    c.frontEnd = *parsed;
    if (facts.value("regenerable", false))
      c.inputMode = gen::parseInputMode(facts.value("inputs", ""));
  } catch (const nlohmann::json::exception &error) {
    return makeError(dir + "/case.json: " + gen::jsonProblem(error));
  }
  // A case harness fuzz exported may travel without its .npy files: its
  // inputs come again from its seed and the reference computes the
  // expected outputs (the same code, so the same bytes).
  bool regenerable = c.inputMode.has_value();
  if (Status s = readTensors(dir, "input", c.program.inputs.size(), c.inputs,
                             regenerable,
                             [&]() -> Result<std::vector<HostTensor>> {
                               return gen::generateInputs(c.program,
                                                          *c.inputMode, c.seed);
                             });
      !s)
    return s.error();
  if (Status s = readTensors(dir, "expected", c.program.outputs.size(),
                             c.expected, regenerable, [&] {
                               return oracle::evaluate(c.program, c.inputs);
                             });
      !s)
    return s.error();
  return c;
}

/// iree-run-module's device for sift-run's, and the target it runs.
std::pair<std::string, std::string> ireeDevice(rt::DeviceKind device) {
  switch (device) {
  case rt::DeviceKind::Cuda: return {"cuda", "nvptx"};
  case rt::DeviceKind::Hip: return {"hip", "amdgpu"};
  case rt::DeviceKind::Cpu: return {"local-task", "host"};
  case rt::DeviceKind::Emu: break; // IREE's modules have no emu kernels
  }
  return {"", ""};
}

/// A fresh folder for one run's .npy files; removed with the object.
struct RunDir {
  std::string path;
  RunDir() {
    std::string pattern =
        (fs::temp_directory_path() / "sift-run-iree-XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path = pattern;
  }
  ~RunDir() {
    std::error_code ec;
    if (!path.empty())
      fs::remove_all(path, ec);
  }
};

Row unreadableRow(const std::string &dir, const std::string &detail) {
  Row row;
  row.file = dir;
  row.name = fs::path(dir).stem().string();
  row.unreadable = true;
  row.verdict = "unreadable";
  row.detail = detail;
  return row;
}

} // namespace

bool isIreeCase(const std::string &path) {
  std::error_code ec;
  return fs::path(path).extension() == rt::kIreeCaseExtension &&
         fs::is_directory(path, ec);
}

Result<std::string> findIreeRunModule(const Options &options) {
  if (!options.ireeRunModule.empty()) {
    if (access(options.ireeRunModule.c_str(), X_OK) != 0)
      return makeError("--iree-run-module=" + options.ireeRunModule +
                       ": not an executable file");
    return options.ireeRunModule;
  }
  if (const char *path = std::getenv("PATH"))
    for (const std::string &dir : splitFields(path, ':'))
      if (!dir.empty() &&
          access((fs::path(dir) / "iree-run-module").c_str(), X_OK) == 0)
        return (fs::path(dir) / "iree-run-module").string();
  return makeError("IREE cases need iree-run-module (from the "
                   "iree-base-runtime package): none on PATH; give "
                   "--iree-run-module=PATH");
}

namespace {

/// The row of an IREE case whose run failed with `message`: a limit
/// IREE documents passes uncompared; a time-out and other failures are
/// verdicts of their own.
Row ireeRunFailed(Row &row, gen::FrontEnd frontEnd,
                  const std::string &message) {
  if (std::optional<oracle::DocumentedLimit> limit = oracle::documentedLimitIn(
          oracle::ireePolicy(frontEnd), message)) {
    row.verdict = "pass";
    row.detail = "not compared: " + limit->why + " (a documented limit)";
    return row;
  }
  bool late = message.find("did not finish in time") != std::string::npos;
  row.verdict = late ? "run-timeout" : "runtime-error";
  row.detail = message;
  return row;
}

/// Writes a run's outputs as OUTDIR/resultI.npy; the first failure goes to
/// `writeError`.
void writeIreeOutputs(const std::string &outputDir,
                      const std::vector<HostTensor> &outputs,
                      std::string &writeError) {
  std::error_code ec;
  fs::create_directories(outputDir, ec);
  for (size_t i = 0; i < outputs.size() && writeError.empty(); ++i)
    if (Status s = writeNpy(
            (fs::path(outputDir) / ("result" + std::to_string(i) + ".npy"))
                .string(),
            outputs[i]);
        !s)
      writeError = s.message();
}

} // namespace

Row runIreeCase(const Options &options, const std::string &runModule,
                const std::string &dir, const std::string &outputDir,
                std::string &writeError) {
  Result<IreeCase> c = readIreeCase(dir);
  if (!c.ok())
    return unreadableRow(dir, c.message());
  Row row;
  row.file = dir;
  row.name = c->name;
  row.pipeline = c->pipeline;
  row.target = c->target;
  auto [device, target] = ireeDevice(options.device);
  if (c->target != target)
    return unreadableRow(dir, dir + ": a case compiled for " + c->target +
                                   " does not run on --device=" +
                                   std::string(rt::toString(options.device)));
  std::string vmfb = (fs::path(dir) / "module.vmfb").string();
  std::vector<HostTensor> first;
  for (int r = 0; r < std::max(1, options.repeat); ++r) {
    RunDir work;
    if (work.path.empty())
      return unreadableRow(dir, "cannot make a temporary folder");
    auto start = std::chrono::steady_clock::now();
    Result<std::vector<HostTensor>> outputs =
        rt::ireeRunModule(runModule, device, vmfb, c->inputs,
                          c->program.outputs.size(), work.path,
                          options.timeoutSeconds);
    if (r == 0)
      row.loadMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    if (!outputs.ok())
      return ireeRunFailed(row, c->frontEnd, outputs.message());
    if (r > 0) {
      if (auto differ = oracle::compareOutputs(
              std::vector<uint64_t>(first.size(), 0), first, *outputs)) {
        row.verdict = "nondeterministic";
        row.detail = "run " + std::to_string(r + 1) +
                     " differs from run 1: " + differ->message;
        return row;
      }
      continue;
    }
    first = std::move(*outputs);
    if (!outputDir.empty())
      writeIreeOutputs(outputDir, first, writeError);
    oracle::PolicyComparison judged = oracle::compareUnderPolicy(
        oracle::ireePolicy(c->frontEnd), c->program, c->inputs,
        c->expected, first);
    if (judged.mismatch) {
      row.verdict = "mismatch";
      row.detail = judged.mismatch->message;
      return row;
    }
    for (const std::string &line : judged.unchecked)
      row.detail += (row.detail.empty() ? "" : "; ") + line;
  }
  row.verdict = "pass";
  return row;
}

Status runIreeCases(const Options &options,
                    const std::vector<std::string> &dirs,
                    std::vector<Row> &rows, const RowSink &sink,
                    std::vector<std::string> &writeErrors) {
  if (dirs.empty())
    return Status::success();
  Result<std::string> runModule = findIreeRunModule(options);
  if (!runModule.ok())
    return runModule.error();
  for (size_t i = 0; i < dirs.size(); ++i) {
    std::string writeError;
    Row row = runIreeCase(options, *runModule, dirs[i],
                          outputDirFor(options, dirs, i), writeError);
    if (!writeError.empty())
      writeErrors.push_back(dirs[i] + ": " + writeError);
    rows.push_back(row);
    if (Status s = sink(row); !s)
      return s;
  }
  return Status::success();
}

} // namespace sift::tools
