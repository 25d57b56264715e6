//===- Isolation.cpp - fork, limits, report, kill -------------------------===//

#include "harness/case/Isolation.h"

#include "support/Process.h"
#include "support/Text.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <new>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <algorithm>

namespace sift::harness {

namespace {

// Sanitizers reserve terabytes of address space for their shadow memory, so
// their children cannot live under RLIMIT_AS.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kShadowMemory = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||    \
    __has_feature(memory_sanitizer)
constexpr bool kShadowMemory = true;
#else
constexpr bool kShadowMemory = false;
#endif
#else
constexpr bool kShadowMemory = false;
#endif

} // namespace

uint64_t residentBytes(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
  uint64_t pages = 0, resident = 0;
  if (!(in >> pages >> resident))
    return 0;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

namespace {

/// What the child's operator new prints when the limit stops it, formatted
/// when the limit is set (the handler itself must not allocate).
char outOfMemoryLine[128];

/// The longest a parent waits before it looks at its children again: long
/// enough to cost nothing, short enough to catch a memory blow-up early
/// where the limit is checked from outside.
constexpr double kServiceMillis = kShadowMemory ? 100.0 : 1000.0;

[[noreturn]] void reportOutOfMemory() {
  ssize_t ignored =
      write(STDERR_FILENO, outOfMemoryLine, std::strlen(outOfMemoryLine));
  (void)ignored;
  std::abort();
}

} // namespace

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

void setUpIsolatedChild(int errorFd, const IsolationLimits &limits) {
  // Ctrl-C and SIGTERM are the parent's to handle (it stops after the
  // cases in flight; a signal here would read as a crash).
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  if (errorFd != STDERR_FILENO) {
    dup2(errorFd, STDERR_FILENO);
    close(errorFd);
  }
  if (limits.memoryBytes > 0 && !kShadowMemory) {
    rlimit memory{limits.memoryBytes, limits.memoryBytes};
    setrlimit(RLIMIT_AS, &memory);
    std::snprintf(outOfMemoryLine, sizeof outOfMemoryLine,
                  "out of memory: the case passed the memory limit of %s\n",
                  bytesText(limits.memoryBytes).c_str());
    std::set_new_handler(reportOutOfMemory);
  }
}

double serviceMillis() { return kServiceMillis; }

namespace {

/// How a child that did not report ended, as a verdict, stage and detail.
void describeEnd(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                 Stage &stage, std::string &detail);

} // namespace

std::string earlyFindingPhase(const EarlyFinding &finding) {
  // Fields are separated by a space-free marker that escaping never makes.
  return "finding:" + std::string(oracle::toString(finding.verdict)) + " " +
         escapeField(finding.stage.text()) + " " + escapeField(finding.detail);
}

std::optional<EarlyFinding> parseEarlyFinding(const std::string &phase) {
  if (phase.rfind("finding:", 0) != 0)
    return std::nullopt;
  size_t verdictEnd = phase.find(' ', 8);
  size_t stageEnd = verdictEnd == std::string::npos
                        ? std::string::npos
                        : phase.find(' ', verdictEnd + 1);
  if (stageEnd == std::string::npos)
    return std::nullopt;
  std::optional<oracle::Verdict> verdict =
      oracle::parseVerdict(phase.substr(8, verdictEnd - 8));
  if (!verdict)
    return std::nullopt;
  std::optional<Stage> stage = Stage::parse(
      unescapeField(phase.substr(verdictEnd + 1, stageEnd - verdictEnd - 1)));
  if (!stage)
    return std::nullopt;
  return EarlyFinding{*verdict, *stage,
                      unescapeField(phase.substr(stageEnd + 1))};
}

void describeUnreported(const IsolatedOutcome &outcome,
                        oracle::Verdict &verdict, Stage &stage,
                        std::string &detail) {
  describeEnd(outcome, verdict, stage, detail);
  // A finding announced before the end decides (the first finding wins);
  // how the worker then ended follows it.
  if (const std::optional<EarlyFinding> &early = outcome.earlyFinding) {
    detail = early->detail + "\nthen the worker ended: " +
             std::string(oracle::toString(verdict)) + " at " + stage.text() + ": " +
             detail;
    verdict = early->verdict;
    stage = early->stage;
  }
}

namespace {

void describeEnd(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                 Stage &stage, std::string &detail) {
  bool running = outcome.phase == "run";
  // The phase "compile:<pass>" names the pass it was in.
  std::optional<Stage> phase = Stage::parse(outcome.phase);
  Stage where = running ? Stage(Step::Run)
                : phase && phase->step == Step::Compile ? *phase
                                                        : Stage(Step::Compile);
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
                            line.find("out of memory") != std::string::npos ||
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
  if (outcome.outOfMemory) {
    verdict = running ? oracle::Verdict::RuntimeError
                      : oracle::Verdict::CompileCrash;
    stage = where;
    detail = "out of memory: the case passed the memory limit of " +
             bytesText(outcome.memoryLimit) +
             " (resident); the worker was killed";
    return;
  }
  if (outcome.timedOut) {
    verdict = running ? oracle::Verdict::RunTimeout
                      : oracle::Verdict::CompileTimeout;
    stage = where;
    detail = std::string(running ? "the run" : "the compile") +
             " did not finish in time; the worker was killed";
    return;
  }
  verdict = running ? oracle::Verdict::RuntimeError
                    : oracle::Verdict::CompileCrash;
  stage = where;
  if (outcome.signal)
    detail = "killed by signal " + std::to_string(outcome.signal) + " (" +
             strsignal(outcome.signal) + ")";
  else
    detail = "the worker exited without a report";
  if (!message.empty())
    detail = message + " (" + detail + ")";
}

} // namespace

bool memoryLimitIsResident() { return kShadowMemory; }

std::string bytesText(uint64_t bytes) {
  static const char kUnits[] = {'K', 'M', 'G', 'T'};
  std::string text = std::to_string(bytes) + " bytes";
  uint64_t value = bytes;
  for (char unit : kUnits) {
    if (value == 0 || value % 1024 != 0)
      break;
    value /= 1024;
    text = std::to_string(value) + unit;
  }
  return text;
}

} // namespace sift::harness
