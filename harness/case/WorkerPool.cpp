//===- WorkerPool.cpp - Long-lived isolated workers -----------------------===//
//
// Both directions use frames `KIND LENGTH\n` + LENGTH bytes. Parent to
// worker: `case` (a byte for wantFull, then the request). Worker to parent:
// `phase` (a phase name) and `result` (CaseWire bytes).
//
//===----------------------------------------------------------------------===//

#include "harness/case/WorkerPool.h"

#include "harness/case/CaseWire.h"
#include "support/Process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace sift::harness {

namespace {

using Clock = std::chrono::steady_clock;

std::string frame(const char *kind, const std::string &bytes) {
  return std::string(kind) + " " + std::to_string(bytes.size()) + "\n" + bytes;
}

/// Reads exactly `size` bytes; false at end of file or on an error.
bool readExactly(int fd, char *data, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = read(fd, data + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

/// The next frame from a blocking descriptor; false at end of file.
bool readFrame(int fd, std::string &kind, std::string &bytes) {
  std::string header;
  char c;
  while (true) {
    if (!readExactly(fd, &c, 1))
      return false;
    if (c == '\n')
      break;
    header += c;
    if (header.size() > 64)
      return false;
  }
  size_t space = header.find(' ');
  if (space == std::string::npos)
    return false;
  kind = header.substr(0, space);
  size_t size = std::strtoull(header.c_str() + space + 1, nullptr, 10);
  bytes.assign(size, '\0');
  return readExactly(fd, bytes.data(), size);
}

/// Takes the first whole frame off `text`; false when none is whole yet.
bool takeFrame(std::string &text, std::string &kind, std::string &bytes) {
  size_t newline = text.find('\n');
  if (newline == std::string::npos)
    return false;
  size_t space = text.find(' ');
  if (space == std::string::npos || space > newline)
    return false;
  size_t size = std::strtoull(text.c_str() + space + 1, nullptr, 10);
  if (text.size() - (newline + 1) < size)
    return false;
  kind = text.substr(0, space);
  bytes = text.substr(newline + 1, size);
  text.erase(0, newline + 1 + size);
  return true;
}

/// Appends what `fd` holds now; closes it (and sets -1) at end of file.
void drainInto(int &fd, std::string &text) {
  while (fd >= 0) {
    char chunk[65536];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return;
    if (n <= 0) {
      close(fd);
      fd = -1;
      return;
    }
    text.append(chunk, static_cast<size_t>(n));
  }
}

} // namespace

WorkerPool::WorkerPool(size_t jobs, RequestHandler handler,
                       std::function<void(const CaseResult &)> afterwards,
                       IsolationLimits limits, size_t casesPerWorker)
    : jobs_(std::max<size_t>(jobs, 1)), handler_(std::move(handler)),
      afterwards_(std::move(afterwards)), limits_(limits),
      casesPerWorker_(std::max<size_t>(casesPerWorker, 1)),
      workers_(jobs_) {}

WorkerPool::~WorkerPool() {
  for (Worker &worker : workers_)
    if (worker.pid > 0) {
      kill(worker.pid, SIGKILL);
      worker.current = nullptr;
      retire(worker, false, false);
    }
}

void WorkerPool::workerMain(int requestFd, int reportFd) {
  auto phase = [&](const char *name) {
    writeAll(reportFd, frame("phase", name));
  };
  std::string kind, request;
  while (readFrame(requestFd, kind, request)) {
    if (kind != "case" || request.empty())
      break;
    bool wantFull = request[0] == '1';
    CaseResult result = handler_(request.substr(1), phase);
    if (afterwards_)
      afterwards_(result);
    bool full = wantFull || oracle::isFinding(result.verdict);
    writeAll(reportFd, frame("result", encodeCaseResult(result, full)));
  }
  std::fflush(nullptr);
  _exit(0);
}

bool WorkerPool::startWorker(Worker &worker, std::string &error) {
  int requests[2] = {-1, -1}, report[2] = {-1, -1}, errors[2] = {-1, -1};
  if (pipe(requests) != 0 || pipe(report) != 0 || pipe(errors) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    for (int fd : {requests[0], requests[1], report[0], report[1], errors[0],
                   errors[1]})
      if (fd >= 0)
        close(fd);
    return false;
  }
  pid_t pid = forkTiedChild();
  if (pid == 0) {
    close(requests[1]);
    close(report[0]);
    close(errors[0]);
    // The other workers' pipes are theirs.
    for (Worker &other : workers_)
      for (int fd : {other.requestFd, other.reportFd, other.errorFd})
        if (fd >= 0)
          close(fd);
    setUpIsolatedChild(errors[1], limits_);
    workerMain(requests[0], report[1]);
  }
  close(requests[0]);
  close(report[1]);
  close(errors[1]);
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {requests[1], report[0], errors[0]})
      close(fd);
    return false;
  }
  ++workersStarted_;
  worker = Worker();
  worker.pid = pid;
  worker.requestFd = requests[1];
  worker.reportFd = report[0];
  worker.errorFd = errors[0];
  for (int fd : {worker.reportFd, worker.errorFd})
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  // A worker that died leaves a broken pipe: a write error, not SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  return true;
}

void WorkerPool::assign() {
  for (Entry &entry : entries_) {
    if (entry.started)
      continue;
    Worker *idle = nullptr;
    for (Worker &worker : workers_)
      if (!worker.current) {
        idle = &worker;
        break;
      }
    if (!idle)
      return;
    if (idle->pid < 0) {
      std::string error;
      if (!startWorker(*idle, error)) {
        entry.started = entry.done = true;
        entry.outcome.startError = error;
        continue;
      }
    }
    entry.started = true;
    idle->current = &entry;
    idle->phase.clear();
    idle->errorText.clear();
    idle->started = Clock::now();
    idle->deadline = idle->started +
                     std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limits_.timeoutSeconds));
    writeAll(idle->requestFd,
             frame("case", (entry.wantFull ? "1" : "0") + entry.request));
  }
}

void WorkerPool::readReports(Worker &worker) {
  drainInto(worker.reportFd, worker.reportText);
  drainInto(worker.errorFd, worker.errorText);
  if (worker.errorText.size() > 64 * 1024)
    worker.errorText.erase(0, worker.errorText.size() - 32 * 1024);
  std::string kind, bytes;
  while (takeFrame(worker.reportText, kind, bytes)) {
    if (kind == "phase") {
      if (std::optional<EarlyFinding> early = parseEarlyFinding(bytes)) {
        if (worker.current && !worker.current->outcome.earlyFinding)
          worker.current->outcome.earlyFinding = std::move(early);
      } else {
        worker.phase = bytes;
      }
      continue;
    }
    if (kind != "result" || !worker.current)
      continue;
    Entry &entry = *worker.current;
    worker.current = nullptr;
    ++worker.casesDone;
    entry.done = true;
    IsolatedOutcome &outcome = entry.outcome;
    bool full = false;
    Result<CaseResult> result = decodeCaseResult(bytes, full);
    if (!result) {
      // A problem of the harness, never a finding of the case.
      outcome.startError = "unreadable result from a worker: " +
                           result.message();
      continue;
    }
    outcome.reported = true;
    outcome.verdict = result->verdict;
    outcome.stage = result->stage;
    outcome.detail = result->detail;
    outcome.reproducer = result->reproducer;
    outcome.compileSeconds = result->compileSeconds;
    outcome.runSeconds = result->runSeconds;
    outcome.compileStages = result->compileStages;
    outcome.ran = result->ran;
    outcome.compiled = result->compiled;
    outcome.stderrTail = worker.errorText;
    // What the case wrote to stderr (a recovered crash's stack) is its log.
    if (full && result->log.empty())
      result->log = worker.errorText;
    outcome.result = std::make_shared<const CaseResult>(std::move(*result));
    outcome.resultIsFull = full;
  }
}

void WorkerPool::retire(Worker &worker, bool timedOut, bool outOfMemory) {
  for (int *fd : {&worker.requestFd, &worker.reportFd})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
  int status = 0;
  while (waitpid(worker.pid, &status, 0) < 0 && errno == EINTR) {
  }
  // What it wrote to stderr before it died.
  if (worker.errorFd >= 0) {
    // Without blocking: a grandchild may still hold its stderr open.
    drainInto(worker.errorFd, worker.errorText);
    if (worker.errorFd >= 0)
      close(worker.errorFd);
    worker.errorFd = -1;
  }
  if (Entry *entry = worker.current) {
    IsolatedOutcome &outcome = entry->outcome;
    outcome.phase = worker.phase;
    outcome.timedOut = timedOut;
    outcome.outOfMemory = outOfMemory;
    if (outOfMemory)
      outcome.memoryLimit = limits_.memoryBytes;
    if (WIFSIGNALED(status) && !timedOut && !outOfMemory)
      outcome.signal = WTERMSIG(status);
    outcome.stderrTail = worker.errorText;
    entry->done = true;
  }
  worker = Worker();
}

void WorkerPool::service(Worker &worker) {
  if (worker.pid < 0)
    return;
  readReports(worker);
  if (worker.reportFd < 0) { // it died (or exited)
    retire(worker, false, false);
    return;
  }
  if (!worker.current) {
    // Replaced after its share of cases, or when its memory grew past a
    // quarter of the limit (what one case may use stays available).
    uint64_t resident = limits_.memoryBytes ? residentBytes(worker.pid) : 0;
    if (worker.casesDone >= casesPerWorker_ ||
        (limits_.memoryBytes && resident > limits_.memoryBytes / 4)) {
      kill(worker.pid, SIGKILL);
      retire(worker, false, false);
    }
    return;
  }
  if (Clock::now() >= worker.deadline) {
    kill(worker.pid, SIGKILL);
    retire(worker, true, false);
    return;
  }
  if (memoryLimitIsResident() && limits_.memoryBytes &&
      residentBytes(worker.pid) > limits_.memoryBytes) {
    kill(worker.pid, SIGKILL);
    retire(worker, false, true);
  }
}

void WorkerPool::step() {
  assign();
  std::vector<pollfd> fds;
  double waitMillis = serviceMillis();
  for (Worker &worker : workers_) {
    if (worker.pid < 0 || !worker.current)
      continue;
    for (int fd : {worker.reportFd, worker.errorFd})
      if (fd >= 0)
        fds.push_back({fd, POLLIN, 0});
    double left = std::chrono::duration<double, std::milli>(worker.deadline -
                                                            Clock::now())
                      .count();
    waitMillis = std::min(waitMillis, std::max(0.0, left + 1));
  }
  if (!fds.empty() &&
      poll(fds.data(), fds.size(), static_cast<int>(waitMillis)) < 0 &&
      errno != EINTR)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  for (Worker &worker : workers_)
    service(worker);
  deliverReady();
  if (idle_)
    idle_();
}

std::vector<WorkerPool::Busy> WorkerPool::busy() const {
  std::vector<Busy> out;
  for (const Worker &worker : workers_)
    if (worker.pid >= 0 && worker.current)
      out.push_back(
          {worker.phase.empty() ? "start" : worker.phase,
           std::chrono::duration<double>(Clock::now() - worker.started)
               .count()});
  std::sort(out.begin(), out.end(),
            [](const Busy &a, const Busy &b) { return a.seconds > b.seconds; });
  return out;
}

void WorkerPool::deliverReady() {
  while (!entries_.empty() && entries_.front().done) {
    Entry entry = std::move(entries_.front());
    entries_.pop_front();
    entry.deliver(entry.outcome);
  }
}

void WorkerPool::submit(std::string request, bool wantFull, Deliver deliver) {
  auto unstarted = [&] {
    return std::count_if(entries_.begin(), entries_.end(),
                         [](const Entry &e) { return !e.started; });
  };
  while (entries_.size() >= 16 * jobs_ ||
         static_cast<size_t>(unstarted()) >= jobs_)
    step();
  Entry entry;
  entry.request = std::move(request);
  entry.wantFull = wantFull;
  entry.deliver = std::move(deliver);
  entries_.push_back(std::move(entry));
  assign();
  deliverReady();
}

size_t WorkerPool::dropUnstarted(
    const std::function<bool(const std::string &)> &isFirst) {
  // assign() starts entries in order, so the unstarted ones are a suffix.
  size_t from = entries_.size();
  while (from > 0 && !entries_[from - 1].started)
    --from;
  while (from < entries_.size() && !isFirst(entries_[from].request))
    ++from;
  size_t groups = 0;
  for (size_t k = from; k < entries_.size(); ++k)
    groups += isFirst(entries_[k].request);
  // Erasing at the back keeps the busy workers' pointers to earlier
  // entries valid.
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(from),
                 entries_.end());
  return groups;
}

void WorkerPool::drain() {
  while (!entries_.empty())
    step();
}

IsolatedOutcome runIsolated(
    const CaseWork &work,
    const std::function<void(const CaseResult &)> &afterwards,
    const IsolationLimits &limits) {
  WorkerPool pool(
      1,
      [&](const std::string &, const std::function<void(const char *)> &phase) {
        return work(phase);
      },
      afterwards, limits);
  IsolatedOutcome outcome;
  pool.submit("case", /*wantFull=*/true,
              [&](const IsolatedOutcome &done) { outcome = done; });
  pool.drain();
  return outcome;
}

} // namespace sift::harness
