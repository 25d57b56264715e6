//===- harness/reduce/IrReduction.cpp - The IR half of a reduction --------===//
//
// mlir-reduce (sift-reduce, which knows the sift dialect) over a reduced
// case's program text, with `harness check FILE --like=FOLDER` (exit 1: the
// same signature as the case folder) as its interestingness test. Each
// tool runs as a child tied to this process, with a time bound.
//
//===----------------------------------------------------------------------===//

#include "harness/reduce/IrReduction.h"

#include "harness/commands/Commands.h"
#include "support/Process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
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

/// Writes the program to reduce into `work` (emptied first) and checks
/// that its text alone shows the case's signature (printed when not).
bool startIrWork(const fs::path &harness, const fs::path &work,
                 const fs::path &input, const std::string &mlir,
                 const std::string &caseFolder) {
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  std::ofstream out(input);
  out << mlir;
  out.close();
  if (!out) {
    std::printf("IR phase skipped: cannot write %s\n", input.c_str());
    return false;
  }
  if (!sameSignatureAsCase(harness, input, caseFolder)) {
    std::printf("IR phase skipped: the program's text alone does not show "
                "the signature\n");
    fs::remove_all(work, ec);
    return false;
  }
  return true;
}

} // namespace

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
  fs::path input = work / "input.mlir", output = work / "reduced.mlir",
           log = work / "sift-reduce.log";
  if (!startIrWork(harness, work, input, mlir, where))
    return;
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


} // namespace sift::harness
