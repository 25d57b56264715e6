//===- tools/sift-run/SystemCases.cpp - File systems' cases on a GPU host -===//

#include "tools/sift-run/SystemCases.h"

#include "generators/ProgramJson.h"
#include "oracles/Compare.h"
#include "oracles/ComparisonPolicy.h"
#include "oracles/StepVerdict.h"
#include "support/Command.h"
#include "support/Npy.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

/// What a case folder holds, read and checked.
struct SystemCase {
  std::string name, pipeline, target, programFile, here;
  gen::Program program;
  std::vector<HostTensor> inputs, expected;
  std::optional<CommandTemplate> compile;
  CommandTemplate run;
  double compileSeconds = 120, runSeconds = 120;
  uint64_t memoryMiB = 0;
  std::vector<std::string> options;
  std::map<std::string, std::string> env;
  oracle::StepRules rules;
  oracle::ComparisonPolicy policy;
};

Status readTensors(const std::string &dir, const char *prefix, size_t count,
                   std::vector<HostTensor> &tensors) {
  for (size_t i = 0; i < count; ++i) {
    Result<HostTensor> t = readNpy(
        (fs::path(dir) / (prefix + std::to_string(i) + ".npy")).string());
    if (!t.ok())
      return makeError(dir + ": " + t.message());
    tensors.push_back(std::move(*t));
  }
  return Status::success();
}

CommandTemplate commandOf(const nlohmann::json &args) {
  CommandTemplate command;
  command.args = args.get<std::vector<std::string>>();
  if (command.args.empty())
    throw std::invalid_argument("an empty command");
  return command;
}

/// The system's facts of case.json (SystemExport.cpp writes them).
void readSystemFacts(const nlohmann::json &facts, SystemCase &c) {
  c.name = facts.at("name").get<std::string>();
  c.pipeline = facts.at("pipeline").get<std::string>();
  c.target = facts.at("target").get<std::string>();
  c.programFile = facts.at("program_file").get<std::string>();
  c.here = facts.at("here").get<std::string>();
  c.run = commandOf(facts.at("run"));
  c.runSeconds = facts.value("run_seconds", 120.0);
  if (facts.contains("compile")) {
    c.compile = commandOf(facts.at("compile"));
    c.compileSeconds = facts.value("compile_seconds", 120.0);
  }
  c.memoryMiB = facts.value("memory_mib", uint64_t(0));
  c.options = facts.value("options", std::vector<std::string>{});
  c.env = facts.value("env", std::map<std::string, std::string>{});
  c.rules.system = facts.at("system").get<std::string>();
  c.rules.unsupportedExitCodes =
      facts.value("unsupported_exit_codes", std::vector<int>{});
  c.policy.system = c.rules.system;
  const nlohmann::json limits = facts.value("limits", nlohmann::json::array());
  const nlohmann::json semantics =
      facts.value("semantics", nlohmann::json::object());
  for (const nlohmann::json &limit : limits) {
    oracle::DocumentedLimit read{limit.at("contains").get<std::string>(),
                                 limit.at("why").get<std::string>()};
    c.rules.limits.push_back(read);
  }
  for (const auto &[key, value] : semantics.items())
    if (!oracle::applyPolicyPoint(c.policy, key, value.get<std::string>()))
      throw std::invalid_argument("unknown semantics point " + key + " = " +
                                  value.dump());
}

Result<SystemCase> readSystemCase(const std::string &dir) {
  std::ifstream in(fs::path(dir) / "case.json", std::ios::binary);
  if (!in)
    return makeError(dir + ": no case.json");
  SystemCase c;
  try {
    nlohmann::json facts = nlohmann::json::parse(
        std::string(std::istreambuf_iterator<char>(in), {}));
    if (facts.value("format", "") != "sift-system-case 1")
      return makeError(dir + "/case.json: not a sift system case (format '" +
                       facts.value("format", "") + "')");
    readSystemFacts(facts, c);
    Result<gen::Program> program = gen::programFromJson(facts.at("program"));
    if (!program.ok())
      return makeError(dir + "/case.json: program: " + program.message());
    c.program = std::move(*program);
  } catch (const nlohmann::json::exception &error) {
    return makeError(dir + "/case.json: " + gen::jsonProblem(error));
  } catch (const std::invalid_argument &error) {
    return makeError(dir + "/case.json: " + error.what());
  }
  if (Status s = readTensors(dir, "input", c.program.inputs.size(), c.inputs); !s)
    return s.error();
  if (Status s = readTensors(dir, "expected", c.program.outputs.size(),
                             c.expected);
      !s)
    return s.error();
  return c;
}

/// A fresh folder for one run (inputs/, outputs/, artifacts/); removed with
/// the object.
struct WorkDir {
  std::string path;
  WorkDir() {
    std::string pattern =
        (fs::temp_directory_path() / "sift-run-system-XXXXXX").string();
    if (mkdtemp(pattern.data()))
      path = pattern;
    std::error_code ec;
    for (const char *sub : {"inputs", "outputs", "artifacts"})
      fs::create_directories(fs::path(path) / sub, ec);
  }
  ~WorkDir() {
    std::error_code ec;
    if (!path.empty())
      fs::remove_all(path, ec);
  }
};

/// The case's system folder ("here"): exported relative to the source
/// tree when it was inside it, found under $SIFT_SOURCE_DIR, else the
/// source tree sift-run was built from, else the working folder.
std::string hereOf(const SystemCase &c) {
  fs::path here(c.here);
  if (here.is_absolute())
    return here.string();
  std::error_code ec;
  for (const char *root : {static_cast<const char *>(std::getenv("SIFT_SOURCE_DIR")),
#ifdef SIFT_SOURCE_DIR
                           SIFT_SOURCE_DIR,
#endif
                           "."})
    if (root && *root && fs::is_directory(fs::path(root) / here, ec))
      return fs::absolute(fs::path(root) / here).string();
  return fs::absolute(here).string();
}

CommandValues valuesFor(const SystemCase &c, const std::string &dir,
                        const std::string &work, const Options &options) {
  CommandValues v;
  const char *python = std::getenv("SIFT_PYTHON");
  v.values = {{"python", python && *python ? python : "python3"},
              {"here", hereOf(c)},
              {"program", fs::absolute(fs::path(dir) / c.programFile).string()},
              {"inputs", work + "/inputs"},
              {"outputs", work + "/outputs"},
              {"artifacts", work + "/artifacts"},
              {"device", std::string(rt::toString(options.device))},
              {"target", c.target},
              {"chip", ""},
              {"pipeline", c.pipeline}};
  v.options = c.options;
  return v;
}

Row failedRow(Row row, const std::string &verdict, const std::string &detail) {
  row.verdict = verdict;
  row.detail = detail;
  return row;
}

} // namespace

bool isSystemCase(const std::string &path) {
  std::error_code ec;
  return fs::path(path).extension() == kSystemCaseExtension &&
         fs::is_directory(path, ec);
}

Row runSystemCase(const Options &options, const std::string &dir) {
  Row row;
  row.file = dir;
  row.name = fs::path(dir).stem().string();
  Result<SystemCase> c = readSystemCase(dir);
  if (!c.ok()) {
    row.unreadable = true;
    return failedRow(row, "unreadable", c.message());
  }
  row.pipeline = c->pipeline;
  row.target = c->target;
  std::vector<HostTensor> first;
  for (int r = 0; r < std::max(1, options.repeat); ++r) {
    WorkDir work;
    for (size_t i = 0; i < c->inputs.size(); ++i)
      if (Status s = writeNpy(work.path + "/inputs/input_" +
                                  std::to_string(i) + ".npy",
                              c->inputs[i]);
          !s)
        return failedRow(row, "runtime-error", s.message());
    CommandValues values = valuesFor(*c, dir, work.path, options);
    double seconds = std::min(options.timeoutSeconds, c->runSeconds);
    if (c->compile) {
      std::vector<std::string> args = expandCommand(*c->compile, values);
      CommandRun run = runCommand(args, c->env, work.path,
                                  c->compileSeconds, c->memoryMiB);
      oracle::StepJudgement judged =
          oracle::judgeStep(run, oracle::StepKind::Compile, c->rules,
                            shellLine(args), c->compileSeconds);
      if (judged.verdict != oracle::Verdict::Pass)
        return failedRow(row, std::string(oracle::toString(judged.verdict)),
                         judged.detail);
    }
    std::vector<std::string> args = expandCommand(c->run, values);
    CommandRun run = runCommand(args, c->env, work.path, seconds, c->memoryMiB);
    if (r == 0)
      row.loadMs = run.seconds * 1000;
    oracle::StepJudgement judged = oracle::judgeStep(
        run, c->compile ? oracle::StepKind::Run : oracle::StepKind::JitRun,
        c->rules, shellLine(args), seconds);
    if (judged.verdict != oracle::Verdict::Pass)
      return failedRow(row, std::string(oracle::toString(judged.verdict)),
                       judged.detail);
    std::vector<HostTensor> outputs;
    for (size_t i = 0; i < c->program.outputs.size(); ++i) {
      Result<HostTensor> t = readNpy(work.path + "/outputs/output_" +
                                     std::to_string(i) + ".npy");
      if (!t.ok())
        return failedRow(row, "runtime-error",
                         c->rules.system + "'s run wrote no readable output " +
                             std::to_string(i) + ": " + t.message());
      outputs.push_back(std::move(*t));
    }
    if (r > 0) {
      if (auto differ = oracle::compareOutputs(
              std::vector<uint64_t>(first.size(), 0), first, outputs))
        return failedRow(row, "nondeterministic",
                         "run " + std::to_string(r + 1) +
                             " differs from run 1: " + differ->message);
      continue;
    }
    first = std::move(outputs);
    oracle::PolicyComparison judgedOutputs = oracle::compareUnderPolicy(
        c->policy, c->program, c->inputs, c->expected, first);
    if (judgedOutputs.mismatch)
      return failedRow(row, "mismatch", judgedOutputs.mismatch->message);
    for (const std::string &line : judgedOutputs.unchecked)
      row.detail += (row.detail.empty() ? "" : "; ") + line;
  }
  row.verdict = "pass";
  return row;
}

Status runSystemCases(const Options &options,
                      const std::vector<std::string> &dirs,
                      std::vector<Row> &rows, const RowSink &sink) {
  for (size_t i = 0; i < dirs.size(); ++i) {
    Row row = runSystemCase(options, dirs[i]);
    std::fprintf(stderr, "[%zu/%zu] %s: %s\n", i + 1, dirs.size(),
                 row.name.c_str(), row.verdict.c_str());
    rows.push_back(row);
    if (Status s = sink(row); !s)
      return s;
  }
  return Status::success();
}

} // namespace sift::tools
