//===- ReduceCommand.cpp - `harness reduce`: shrink a finding -------------===//
//
// Reads a case folder, reruns it (isolated, like replay) to learn its
// signature, then lets the model reducer (Reducer.h) shrink it, each
// candidate compiled and run in a child and kept only when its signature
// is the original's. The result is written as a case folder of its own,
// with where it came from and how much smaller it is, ready to be replayed
// or copied into corpus/. A finding the compile decides then goes through
// mlir-reduce (sift-reduce) on its IR, with `harness check --like=FOLDER`
// (same signature as the case folder: exit 1) as the interestingness test.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseFolder.h"
#include "harness/store/FindingStore.h"
#include "harness/case/Isolation.h"
#include "harness/reduce/Reducer.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "harness/campaign/StopSignals.h"

#include "generators/MlirEmitter.h"
#include "oracles/Reference.h"

#include <memory>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>


namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// What one run of a candidate showed.
struct Observed {
  oracle::Verdict verdict = oracle::Verdict::Pass;
  std::string stage, detail, signature, reproducer, log;
};

std::string describeSize(const gen::Program &program) {
  return std::to_string(program.ops.size()) + " ops, " +
         std::to_string(opsTimesElements(program)) + " ops x elements";
}

/// Operations in `text` (0 when it does not parse).
size_t countOps(Session &session, const std::string &text) {
  std::string error;
  auto module = session.parse(text, "count.mlir", error);
  if (!module)
    return 0;
  size_t n = 0;
  module->walk([&](mlir::Operation *) { ++n; });
  return n;
}

/// The folder this executable lives in.
fs::path toolsFolder() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

/// sift-reduce: next to this harness (an install), in the build tree's
/// tools/ beside harness/, or on PATH; empty when none is found.
fs::path findSiftReduce(const fs::path &tools) {
  std::error_code ec;
  for (const fs::path &candidate :
       {tools / "sift-reduce", tools.parent_path() / "tools" / "sift-reduce"})
    if (!tools.empty() && fs::exists(candidate, ec))
      return candidate;
  const char *path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end - start);
    if (!dir.empty() && fs::exists(fs::path(dir) / "sift-reduce", ec))
      return fs::path(dir) / "sift-reduce";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return {};
}

/// Runs `args` (args[0] the program's path) with stdout and stderr to
/// `log` ("" : /dev/null), killed with this process and after `seconds`.
/// Returns its exit code, or -1 (with `message`) when it could not run,
/// was killed or timed out.
int runTool(const std::vector<std::string> &args, const std::string &log,
            double seconds, std::string &message) {
  std::string sink = log.empty() ? "/dev/null" : log;
  pid_t pid = forkTiedChild();
  if (pid == 0) {
    int fd = open(sink.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    std::vector<char *> argv;
    for (const std::string &arg : args)
      argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  if (pid < 0) {
    message = std::string("fork: ") + std::strerror(errno);
    return -1;
  }
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(seconds);
  int status = 0;
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR) {
      message = std::string("waitpid: ") + std::strerror(errno);
      return -1;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      message = "timed out after " + std::to_string(seconds) + " s";
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status)) {
    message = std::string("killed by ") + strsignal(WTERMSIG(status));
    return -1;
  }
  return WEXITSTATUS(status);
}

/// Runs `harness check FILE --like=CASE` in this process's stead: true
/// when FILE shows CASE's signature.
bool sameSignatureAsCase(const fs::path &harness, const fs::path &file,
                         const std::string &caseFolder) {
  std::string message;
  int code = runTool({harness.string(), "check", file.string(),
                      "--like=" + caseFolder},
                     "", 3600, message);
  return code == kExitFindings;
}

/// mlir-reduce (as sift-reduce, which knows the sift dialect) over the
/// model-reduced program, with `harness check --like=FOLDER` as its
/// interestingness test; the result, when smaller, is FOLDER/reduced.mlir.
void reduceIr(Session &session, const std::string &folder,
              const std::string &mlir, const IsolationLimits &limits) {
  fs::path tools = toolsFolder();
  fs::path reducer = findSiftReduce(tools), harness = tools / "harness";
  std::error_code ec;
  if (tools.empty() || reducer.empty() || !fs::exists(harness, ec)) {
    std::printf("IR phase skipped: no sift-reduce next to this harness, in "
                "the build tree's tools/ or on PATH\n");
    return;
  }
  // mlir-reduce's test arguments are one comma-separated option value.
  std::string where = fs::absolute(folder, ec).string();
  if (where.find_first_of(" ,\"'") != std::string::npos) {
    std::printf("IR phase skipped: the folder's path (%s) has a space, comma "
                "or quote, which mlir-reduce's test-arg cannot carry\n",
                where.c_str());
    return;
  }
  fs::path work = fs::path(where) / ".ir-reduce";
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  fs::path input = work / "input.mlir", output = work / "reduced.mlir",
           log = work / "sift-reduce.log";
  {
    std::ofstream out(input);
    out << mlir;
    out.close();
    if (!out) {
      std::printf("IR phase skipped: cannot write %s\n", input.c_str());
      return;
    }
  }
  if (!sameSignatureAsCase(harness, input, where)) {
    std::printf("IR phase skipped: the program's text alone does not show "
                "the signature\n");
    fs::remove_all(work, ec);
    return;
  }
  auto start = std::chrono::steady_clock::now();
  std::string test = "test=" + harness.string() +
                     " test-arg=check,--like=" + where;
  std::string tree = "--reduction-tree=traversal-mode=0 " + test;
  std::string canonicalize = "--opt-reduction-pass=opt-pass=canonicalize " + test;
  std::string outFlag = "-o=" + output.string();
  // Each test is one isolated compile: give the whole phase a bound.
  double budget = std::max(60.0, 50 * limits.timeoutSeconds);
  std::string message;
  int code = runTool({reducer.string(), input.string(), tree, canonicalize,
                      outFlag},
                     log.string(), budget, message);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::ifstream in(output);
  std::string reduced((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  size_t before = countOps(session, mlir), after = countOps(session, reduced);
  if (code != 0 || reduced.empty() || after == 0) {
    std::printf("IR phase (sift-reduce) failed after %.1f s%s%s: see %s\n",
                seconds, message.empty() ? "" : ": ", message.c_str(),
                log.c_str());
    return;
  }
  if (after >= before || !sameSignatureAsCase(harness, output, where)) {
    std::printf("IR phase (sift-reduce, %.1f s): no smaller IR with the "
                "signature (%zu operations)\n",
                seconds, before);
    fs::remove_all(work, ec);
    return;
  }
  fs::path kept = fs::path(folder) / "reduced.mlir";
  fs::rename(output, kept, ec);
  if (ec) {
    std::printf("IR phase: cannot keep the result as %s: %s (it is in %s)\n",
                kept.c_str(), ec.message().c_str(), output.c_str());
    return;
  }
  fs::remove_all(work, ec);
  std::printf("IR phase (sift-reduce, %.1f s): %zu -> %zu operations; wrote "
              "%s\nrepro: harness check %s --like=%s\n",
              seconds, before, after, kept.c_str(), kept.c_str(),
              folder.c_str());
}

} // namespace

int runCheckCommand(const CheckOptions &options) {
  Result<StoredCase> stored = loadCaseFolder(options.like);
  if (!stored.ok()) {
    std::fprintf(stderr, "harness check: --like=%s: %s\n",
                 options.like.c_str(), stored.message().c_str());
    return kExitUsage;
  }
  const std::string &expected = stored->signature;
  std::ifstream in(options.program);
  if (!in) {
    std::fprintf(stderr, "harness check: %s: cannot read the program\n",
                 options.program.c_str());
    return kExitUsage;
  }
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  SiftCompiler sift;
  Session &session = sift.session();
  IsolationLimits limits;
  limits.timeoutSeconds = stored->timeoutSeconds.value_or(20);
  IsolatedOutcome outcome = runIsolated(
      [&](const std::function<void(const char *)> &phase) {
        CaseOptions caseOptions = stored->options;
        caseOptions.onPhase = phase;
        return sift.compileText(caseOptions, text, options.program,
                           stored->seed);
      },
      nullptr, limits);
  if (!outcome.startError.empty()) {
    std::fprintf(stderr, "harness check: cannot start a worker: %s\n",
                 outcome.startError.c_str());
    return kExitUsage;
  }
  CaseResult result;
  result.mlir = text;
  result.verdict = outcome.verdict;
  result.stage = outcome.stage;
  result.detail = outcome.detail;
  if (!outcome.reported)
    describeUnreported(outcome, result.verdict, result.stage, result.detail);
  std::string signature = findingSignature(result);
  bool same = !expected.empty() && signature == expected;
  std::printf("%s at %s: %s\nsignature %s (%s the case's)\n",
              std::string(oracle::toString(result.verdict)).c_str(),
              result.stage.c_str(),
              result.detail.substr(0, result.detail.find('\n')).c_str(),
              signature.c_str(), same ? "same as" : "differs from");
  return same ? kExitFindings : kExitOk;
}

int runReduceCommand(const ReduceOptions &options) {
  fs::path folder = fs::path(options.folder).lexically_normal();
  if (folder.filename().empty())
    folder = folder.parent_path();
  Result<StoredCase> stored = loadCaseFolder(folder);
  if (!stored.ok()) {
    std::fprintf(stderr, "harness reduce: %s: %s\n", folder.c_str(),
                 stored.message().c_str());
    return kExitUsage;
  }
  std::string output = options.output.empty()
                           ? folder.string() + "-reduced"
                           : options.output;
  {
    // The output folder is replaced: it must not be the case, hold it, or
    // be any folder that is not a case folder.
    std::error_code ec;
    fs::path out = fs::weakly_canonical(output, ec);
    fs::path in = fs::weakly_canonical(folder, ec);
    auto [mismatch, rest] =
        std::mismatch(out.begin(), out.end(), in.begin(), in.end());
    if (mismatch == out.end()) {
      std::fprintf(stderr,
                   "harness reduce: -o %s: the output must not be the case "
                   "being reduced or a folder that holds it\n",
                   output.c_str());
      return kExitUsage;
    }
    (void)rest;
  }
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    std::fprintf(stderr, "harness reduce: %s\n", device.message().c_str());
    return kExitUsage;
  }
  SiftCompiler sift;
  Session &session = sift.session();
  IsolationLimits limits;
  limits.timeoutSeconds = stored->timeoutSeconds
                              ? std::min(*stored->timeoutSeconds,
                                         options.caseTimeoutSeconds)
                              : options.caseTimeoutSeconds;
  limits.memoryBytes = options.memoryLimitBytes;

  // A worker that could not start is the harness's problem: it ends the
  // reduction with an error instead of reading as "not interesting".
  std::string startError;
  auto observe = [&](const ReductionCase &c) {
    IsolatedOutcome outcome = runIsolated(
        [&](const std::function<void(const char *)> &phase) {
          CaseOptions caseOptions = stored->options;
          caseOptions.onPhase = phase;
          return runProgramCase(sift, **device, caseOptions, c.program,
                                c.inputs, stored->seed);
        },
        nullptr, limits);
    if (!outcome.startError.empty())
      startError = outcome.startError;
    Observed seen{outcome.verdict, outcome.stage, outcome.detail, {},
                  outcome.reproducer,
                  !outcome.reported ||
                          outcome.verdict == oracle::Verdict::CompileCrash
                      ? outcome.stderrTail
                      : std::string()};
    if (!outcome.reported)
      describeUnreported(outcome, seen.verdict, seen.stage, seen.detail);
    CaseResult result;
    result.program = c.program;
    result.verdict = seen.verdict;
    result.stage = seen.stage;
    result.detail = seen.detail;
    seen.signature = findingSignature(result);
    return seen;
  };

  auto start = std::chrono::steady_clock::now();
  ReductionCase original{stored->program, stored->inputs};
  Observed first = observe(original);
  if (!startError.empty()) {
    std::fprintf(stderr, "harness reduce: cannot start a worker: %s\n",
                 startError.c_str());
    return kExitUsage;
  }
  if (first.verdict == oracle::Verdict::Pass) {
    std::fprintf(stderr,
                 "harness reduce: %s: the case passes now (recorded %s); "
                 "there is nothing to reduce\n",
                 folder.c_str(),
                 std::string(oracle::toString(stored->expected)).c_str());
    return kExitUsage;
  }
  if (first.verdict != stored->expected)
    std::fprintf(stderr,
                 "harness reduce: %s: note: recorded %s, reproduced %s; "
                 "reducing what reproduces\n",
                 folder.c_str(),
                 std::string(oracle::toString(stored->expected)).c_str(),
                 std::string(oracle::toString(first.verdict)).c_str());
  std::printf("reducing %s: %s\n  signature %s\n", folder.c_str(),
              describeSize(original.program).c_str(), first.signature.c_str());
  std::fflush(stdout);

  Observed last = first;
  ReductionStats stats;
  // Ctrl-C or SIGTERM: the test in progress finishes, every later candidate
  // is turned down, and the smallest case so far is written.
  StopSignals stop;
  bool interrupted = false;
  int refused = 0; // candidates turned down untested after the stop
  ReductionCase reduced = reduce(
      original,
      [&](const ReductionCase &c) {
        if (stop.requested()) {
          if (!interrupted)
            std::printf("  interrupted: writing the smallest case so far\n");
          interrupted = true;
          ++refused;
          return false;
        }
        Observed seen = observe(c);
        if (seen.signature != first.signature)
          return false;
        last = std::move(seen);
        return true;
      },
      [&](const std::string &edit, const ReductionCase &c) {
        std::printf("  [%d tests] %s: %s\n", stats.tests, edit.c_str(),
                    describeSize(c.program).c_str());
        std::fflush(stdout);
      },
      stats);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  stats.tests -= refused;
  if (!startError.empty()) {
    std::fprintf(stderr, "harness reduce: cannot start a worker: %s\n",
                 startError.c_str());
    return kExitUsage;
  }

  CaseResult result = uncompiledCase(stored->options, stored->seed,
                                     reduced.program, reduced.inputs);
  result.verdict = last.verdict;
  result.stage = last.stage;
  result.detail = last.detail;
  result.reproducer = last.reproducer;
  result.log = last.log;
  int64_t before = opsTimesElements(original.program);
  int64_t after = opsTimesElements(reduced.program);
  double ratio = before > 0 ? static_cast<double>(after) / before : 1.0;
  std::string repro = "harness replay " + output;
  nlohmann::json extra = {
      {"reduced_from", folder.string()},
      {"original_repro", stored->repro},
      {"original_ops_times_elements", before},
      {"ops_times_elements", after},
      {"reduction_tests", stats.tests},
  };
  if (interrupted)
    extra["reduction_interrupted"] = true;
  // The time limit it was reduced under: a hang is reproduced by it, and
  // `harness check --like` (the IR half's test) runs under it.
  extra["timeout_seconds"] = limits.timeoutSeconds;
  Result<std::string> written =
      writeCaseFolderAt(output, result, stored->options, repro, extra);
  if (!written.ok()) {
    std::fprintf(stderr, "harness reduce: %s\n", written.message().c_str());
    return kExitUsage;
  }
  std::printf("reduced in %d tests (%d kept), %.1f s: ops x elements %lld -> "
              "%lld (ratio %.4f, %.0fx smaller)\n",
              stats.tests, stats.accepted, seconds,
              static_cast<long long>(before), static_cast<long long>(after),
              ratio, after > 0 ? static_cast<double>(before) / after : 0.0);
  std::printf("wrote %s\nrepro: %s\n", written->c_str(), repro.c_str());
  std::fflush(stdout);
  // The IR half: only a verdict the compile decides can be checked on IR
  // alone (no model, no reference).
  bool compileStage = last.stage.rfind("compile", 0) == 0 ||
                      last.stage.rfind("static", 0) == 0 ||
                      last.stage == "serialize";
  if (interrupted) {
    // A stopped job exits non-zero; reducing the written folder again goes
    // on from the smallest case so far.
    std::printf("stopped by %s: go on with harness reduce %s\n",
                stop.signalName(), written->c_str());
    return stop.exitCode();
  }
  if (options.reduceIr && compileStage)
    reduceIr(session, *written, result.mlir, limits);
  return kExitOk;
}

CommandEntry addReduceCommand(CLI::App &app) {
  auto options = std::make_shared<ReduceOptions>();
  auto timeout = std::make_shared<std::string>("20");
  auto memory = std::make_shared<std::string>("4G");
  CLI::App *cmd = app.add_subcommand(
      "reduce", "Shrink a finding's case folder while its signature stays "
                "the same");
  cmd->add_option("case", options->folder, "A case folder (case.json)")
      ->required();
  cmd->add_option("-o,--output", options->output,
                  "The reduced case folder (default: CASE-reduced)");
  cmd->add_option("--case-timeout", *timeout,
                  "Time limit of one test (a case's own timeout_seconds wins "
                  "when shorter): 20, 20s, 1m")
      ->capture_default_str();
  cmd->add_option("--memory-limit", *memory,
                  "Memory limit of one test: 512M, 4G, or none")
      ->capture_default_str();
  cmd->add_flag("!--no-ir", options->reduceIr,
                "Stop after the model: skip the IR phase (sift-reduce)");
  return {cmd, [options, timeout, memory] {
            options->caseTimeoutSeconds =
                durationFlag("--case-timeout", *timeout);
            options->memoryLimitBytes = memoryFlag(*memory);
            return runReduceCommand(*options);
          }};
}

CommandEntry addCheckCommand(CLI::App &app) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App *cmd = app.add_subcommand(
      "check", "Compile a program given as MLIR with a case folder's options "
               "and static oracles; exit 1 when it shows the case's "
               "signature (the test harness reduce gives mlir-reduce)");
  cmd->add_option("program", options->program, "The program (.mlir)")
      ->required();
  cmd->add_option("--like", options->like,
                  "The case folder (case.json) to compare with")
      ->required();
  return {cmd, [options] { return runCheckCommand(*options); }};
}

} // namespace sift::harness
