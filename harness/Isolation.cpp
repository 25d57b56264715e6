//===- Isolation.cpp - fork, limits, report, kill -------------------------===//

#include "harness/Isolation.h"

#include "runtime/support/Text.h"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace sift::harness {

namespace {

void writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

} // namespace

IsolatedOutcome
runIsolated(const std::function<CaseResult(
                const std::function<void(const char *)> &phase)> &work,
            const std::function<void(const CaseResult &)> &afterwards,
            const IsolationLimits &limits) {
  IsolatedOutcome outcome;
  int report[2], errors[2];
  if (pipe(report) != 0 || pipe(errors) != 0) {
    outcome.detail = std::string("pipe: ") + std::strerror(errno);
    outcome.stderrTail = outcome.detail;
    return outcome;
  }
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    // The child: default signals, the memory limit, stderr to the parent.
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    close(report[0]);
    close(errors[0]);
    dup2(errors[1], STDERR_FILENO);
    rlimit memory{limits.memoryBytes, limits.memoryBytes};
    setrlimit(RLIMIT_AS, &memory);
    auto phase = [&](const char *name) {
      writeAll(report[1], std::string("phase\t") + name + "\n");
    };
    CaseResult result = work(phase);
    if (afterwards)
      afterwards(result);
    char times[64];
    std::snprintf(times, sizeof(times), "%.6f\t%.6f", result.compileSeconds,
                  result.runSeconds);
    writeAll(report[1], std::string("result\t") +
                            std::string(oracle::toString(result.verdict)) +
                            "\t" + escapeField(result.stage) + "\t" + times +
                            "\t" + (result.ran ? "1" : "0") +
                            (result.compiled ? "1" : "0") + "\t" +
                            escapeField(result.detail) + "\t" +
                            escapeField(result.reproducer) + "\n");
    std::fflush(nullptr);
    _exit(0);
  }
  close(report[1]);
  close(errors[1]);
  if (pid < 0) {
    close(report[0]);
    close(errors[0]);
    outcome.stderrTail = std::string("fork: ") + std::strerror(errno);
    return outcome;
  }

  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(limits.timeoutSeconds);
  std::string reportText, errorText;
  bool reportOpen = true, errorsOpen = true;
  while (reportOpen || errorsOpen) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      outcome.timedOut = true;
      break;
    }
    pollfd fds[2];
    nfds_t count = 0;
    if (reportOpen)
      fds[count++] = {report[0], POLLIN, 0};
    if (errorsOpen)
      fds[count++] = {errors[0], POLLIN, 0};
    int ready = poll(fds, count, static_cast<int>(left));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    for (nfds_t i = 0; i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char chunk[4096];
      ssize_t n = read(fds[i].fd, chunk, sizeof(chunk));
      bool isReport = fds[i].fd == report[0];
      if (n <= 0) {
        (isReport ? reportOpen : errorsOpen) = false;
        continue;
      }
      (isReport ? reportText : errorText).append(chunk, n);
      // Keep the end of stderr only.
      if (errorText.size() > 64 * 1024)
        errorText.erase(0, errorText.size() - 32 * 1024);
    }
  }
  if (outcome.timedOut)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  close(report[0]);
  close(errors[0]);
  if (WIFSIGNALED(status) && !outcome.timedOut)
    outcome.signal = WTERMSIG(status);

  size_t start = 0;
  while (start < reportText.size()) {
    size_t end = reportText.find('\n', start);
    if (end == std::string::npos)
      break;
    std::vector<std::string> f =
        splitFields(reportText.substr(start, end - start));
    start = end + 1;
    if (f.size() == 2 && f[0] == "phase")
      outcome.phase = f[1];
    if (f.size() == 8 && f[0] == "result") {
      std::optional<oracle::Verdict> verdict = oracle::parseVerdict(f[1]);
      if (!verdict)
        continue;
      outcome.reported = true;
      outcome.verdict = *verdict;
      outcome.stage = unescapeField(f[2]);
      outcome.compileSeconds = std::atof(f[3].c_str());
      outcome.runSeconds = std::atof(f[4].c_str());
      outcome.ran = f[5].size() == 2 && f[5][0] == '1';
      outcome.compiled = f[5].size() == 2 && f[5][1] == '1';
      outcome.detail = unescapeField(f[6]);
      outcome.reproducer = unescapeField(f[7]);
    }
  }
  outcome.stderrTail = errorText;
  return outcome;
}

void describeUnreported(const IsolatedOutcome &outcome,
                        oracle::Verdict &verdict, std::string &stage,
                        std::string &detail) {
  bool running = outcome.phase == "run";
  // "compile:<pass>": the pass it was in.
  std::string compileStage =
      outcome.phase.rfind("compile:", 0) == 0 ? outcome.phase : "compile";
  // The first line that reads like a diagnostic, else the last line.
  std::string first, last;
  size_t start = 0;
  const std::string &text = outcome.stderrTail;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    std::string line =
        text.substr(start, end == std::string::npos ? std::string::npos
                                                    : end - start);
    if (!line.empty()) {
      last = line;
      if (first.empty() && (line.find("ERROR") != std::string::npos ||
                            line.find("error") != std::string::npos ||
                            line.find("Assertion") != std::string::npos ||
                            line.find("terminate") != std::string::npos))
        first = line;
    }
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  std::string message = first.empty() ? last : first;
  if (outcome.timedOut) {
    verdict = running ? oracle::Verdict::RunTimeout
                      : oracle::Verdict::CompileTimeout;
    stage = running ? "run" : compileStage;
    detail = std::string(running ? "the run" : "the compile") +
             " did not finish in time; the worker was killed";
    return;
  }
  verdict = running ? oracle::Verdict::RuntimeError
                    : oracle::Verdict::CompileCrash;
  stage = running ? "run" : compileStage;
  if (outcome.signal)
    detail = "killed by signal " + std::to_string(outcome.signal) + " (" +
             strsignal(outcome.signal) + ")";
  else
    detail = "the worker exited without a report";
  if (!message.empty())
    detail = message + " (" + detail + ")";
}

} // namespace sift::harness
