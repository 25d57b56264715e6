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

IsolatedChild::IsolatedChild(const CaseWork &work,
                             const std::function<void(const CaseResult &)> &afterwards,
                             const IsolationLimits &limits) {
  int report[2] = {-1, -1}, errors[2] = {-1, -1};
  if (pipe(report) != 0 || pipe(errors) != 0) {
    outcome_.startError = std::string("pipe: ") + std::strerror(errno);
    for (int fd : {report[0], report[1], errors[0], errors[1]})
      if (fd >= 0)
        close(fd);
    finished_ = true;
    return;
  }
  pid_t pid = forkTiedChild();
  if (pid == 0) {
    // The child: Ctrl-C and SIGTERM are the parent's to handle (it stops
    // after the cases in flight; a signal here would read as a crash); the
    // memory limit; stderr to the parent; it dies with the parent (a
    // killed harness leaves no hung child).
    close(report[0]);
    close(errors[0]);
    setUpIsolatedChild(errors[1], limits);
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
    outcome_.startError = std::string("fork: ") + std::strerror(errno);
    finished_ = true;
    return;
  }
  pid_ = pid;
  memoryLimit_ = kShadowMemory ? limits.memoryBytes : 0;
  reportFd_ = report[0];
  errorFd_ = errors[0];
  // service() drains what is there without waiting for more.
  for (int fd : {reportFd_, errorFd_})
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(limits.timeoutSeconds));
}

IsolatedChild::~IsolatedChild() {
  if (!finished_) {
    kill(pid_, SIGKILL);
    finish();
  }
}

void IsolatedChild::pollFds(std::vector<pollfd> &fds) const {
  if (reportFd_ >= 0)
    fds.push_back({reportFd_, POLLIN, 0});
  if (errorFd_ >= 0)
    fds.push_back({errorFd_, POLLIN, 0});
}

double IsolatedChild::secondsLeft() const {
  return std::chrono::duration<double>(deadline_ -
                                       std::chrono::steady_clock::now())
      .count();
}

bool IsolatedChild::service() {
  if (finished_)
    return true;
  // Everything the child wrote so far, before looking at the clock: a
  // child that finished while the parent was busy is not a timeout.
  for (int *fd : {&reportFd_, &errorFd_}) {
    while (*fd >= 0) {
      char chunk[4096];
      ssize_t n = read(*fd, chunk, sizeof(chunk));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      if (n <= 0) {
        close(*fd);
        *fd = -1;
        break;
      }
      (fd == &reportFd_ ? reportText_ : errorText_).append(chunk, n);
      // Keep the end of stderr only.
      if (errorText_.size() > 64 * 1024)
        errorText_.erase(0, errorText_.size() - 32 * 1024);
    }
  }
  if (reportFd_ < 0 && errorFd_ < 0) {
    finish();
    return true;
  }
  // Past the deadline: killed, unless it already sent its result and is
  // only exiting.
  bool reported = reportText_.rfind("result\t", 0) == 0 ||
                  reportText_.find("\nresult\t") != std::string::npos;
  if (secondsLeft() <= 0 && !reported) {
    outcome_.timedOut = true;
    kill(pid_, SIGKILL);
    finish();
    return true;
  }
  if (memoryLimit_ > 0 && !reported && residentBytes(pid_) > memoryLimit_) {
    outcome_.outOfMemory = true;
    outcome_.memoryLimit = memoryLimit_;
    kill(pid_, SIGKILL);
    finish();
    return true;
  }
  return false;
}

void IsolatedChild::finish() {
  if (finished_)
    return;
  finished_ = true;
  for (int *fd : {&reportFd_, &errorFd_})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status) && !outcome_.timedOut && !outcome_.outOfMemory)
    outcome_.signal = WTERMSIG(status);

  size_t start = 0;
  while (start < reportText_.size()) {
    size_t end = reportText_.find('\n', start);
    if (end == std::string::npos)
      break;
    std::vector<std::string> f =
        splitFields(reportText_.substr(start, end - start));
    start = end + 1;
    if (f.size() == 2 && f[0] == "phase") {
      if (std::optional<EarlyFinding> early = parseEarlyFinding(f[1])) {
        if (!outcome_.earlyFinding)
          outcome_.earlyFinding = std::move(early);
      } else {
        outcome_.phase = f[1];
      }
    }
    if (f.size() == 8 && f[0] == "result") {
      std::optional<oracle::Verdict> verdict = oracle::parseVerdict(f[1]);
      if (!verdict)
        continue;
      outcome_.reported = true;
      outcome_.verdict = *verdict;
      outcome_.stage = unescapeField(f[2]);
      outcome_.compileSeconds = std::atof(f[3].c_str());
      outcome_.runSeconds = std::atof(f[4].c_str());
      outcome_.ran = f[5].size() == 2 && f[5][0] == '1';
      outcome_.compiled = f[5].size() == 2 && f[5][1] == '1';
      outcome_.detail = unescapeField(f[6]);
      outcome_.reproducer = unescapeField(f[7]);
    }
  }
  outcome_.stderrTail = errorText_;
}

IsolatedOutcome
runIsolated(const CaseWork &work,
            const std::function<void(const CaseResult &)> &afterwards,
            const IsolationLimits &limits) {
  IsolatedChild child(work, afterwards, limits);
  while (!child.service()) {
    std::vector<pollfd> fds;
    child.pollFds(fds);
    int wait = static_cast<int>(std::max(
        0.0, std::min(child.secondsLeft() * 1000 + 1, kServiceMillis)));
    if (poll(fds.data(), fds.size(), wait) < 0 && errno != EINTR)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return child.outcome();
}

IsolatedPool::IsolatedPool(size_t jobs) : jobs_(std::max<size_t>(jobs, 1)) {}

IsolatedPool::~IsolatedPool() = default;

size_t IsolatedPool::running() const {
  size_t n = 0;
  for (const Entry &entry : entries_)
    n += !entry.child->finished();
  return n;
}

void IsolatedPool::submit(
    const CaseWork &work,
    const std::function<void(const CaseResult &)> &afterwards,
    const IsolationLimits &limits, Deliver deliver) {
  // At most `jobs` running; behind a slow first case, a bounded backlog.
  while (running() >= jobs_ || entries_.size() >= 16 * jobs_)
    step();
  entries_.push_back(
      {std::make_unique<IsolatedChild>(work, afterwards, limits),
       std::move(deliver)});
  deliverReady();
}

void IsolatedPool::drain() {
  while (!entries_.empty())
    step();
}

void IsolatedPool::step() {
  std::vector<pollfd> fds;
  double left = kServiceMillis / 1000;
  for (Entry &entry : entries_)
    if (!entry.child->finished()) {
      entry.child->pollFds(fds);
      left = std::min(left, entry.child->secondsLeft());
    }
  if (!fds.empty())
    poll(fds.data(), fds.size(),
         static_cast<int>(std::max(0.0, left * 1000 + 1)));
  for (Entry &entry : entries_)
    entry.child->service();
  deliverReady();
}

void IsolatedPool::deliverReady() {
  // In submission order: a finished case waits for the ones before it.
  while (!entries_.empty() && entries_.front().child->finished()) {
    Entry entry = std::move(entries_.front());
    entries_.pop_front();
    entry.deliver(entry.child->outcome());
  }
}

namespace {

/// How a child that did not report ended, as a verdict, stage and detail.
void describeEnd(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                 std::string &stage, std::string &detail);

} // namespace

std::string earlyFindingPhase(const EarlyFinding &finding) {
  // Fields are separated by a space-free marker that escaping never makes.
  return "finding:" + std::string(oracle::toString(finding.verdict)) + " " +
         escapeField(finding.stage) + " " + escapeField(finding.detail);
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
  return EarlyFinding{
      *verdict,
      unescapeField(phase.substr(verdictEnd + 1, stageEnd - verdictEnd - 1)),
      unescapeField(phase.substr(stageEnd + 1))};
}

void describeUnreported(const IsolatedOutcome &outcome,
                        oracle::Verdict &verdict, std::string &stage,
                        std::string &detail) {
  describeEnd(outcome, verdict, stage, detail);
  // A finding announced before the end decides (the first finding wins);
  // how the worker then ended follows it.
  if (const std::optional<EarlyFinding> &early = outcome.earlyFinding) {
    detail = early->detail + "\nthen the worker ended: " +
             std::string(oracle::toString(verdict)) + " at " + stage + ": " +
             detail;
    verdict = early->verdict;
    stage = early->stage;
  }
}

namespace {

void describeEnd(const IsolatedOutcome &outcome, oracle::Verdict &verdict,
                 std::string &stage, std::string &detail) {
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
    stage = running ? "run" : compileStage;
    detail = "out of memory: the case passed the memory limit of " +
             bytesText(outcome.memoryLimit) +
             " (resident); the worker was killed";
    return;
  }
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
