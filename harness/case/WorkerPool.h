//===- WorkerPool.h - Long-lived isolated workers ---------------*- C++ -*-===//
//
// Forking a child per case cost a fuzz case more than compiling it: the
// parent maps all of LLVM and MLIR, and every fork copies its page tables
// and every exit tears them down again. A WorkerPool forks up to `jobs`
// workers once and hands each many cases, as requests (bytes the worker's
// handler understands, e.g. "case 17, run 2"), one at a time. A worker that
// crashes, hangs past the case's deadline or passes the memory limit is
// killed and costs exactly the case it was on; the next case gets a fresh
// worker. runIsolated (one case in one child: replay, reduce, check) is a
// pool of one. Workers are replaced
// after `casesPerWorker` cases, so what a long-lived MLIR context gathers
// never adds up. Results arrive in submission order, whole (CaseWire) for a
// finding or when asked, else as a summary.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/Isolation.h"

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <poll.h>
#include <sys/types.h>

namespace sift::harness {

/// What a worker does with one request, in the worker process: it is told
/// its phase ("compile", "compile:<pass>", "run") as the case moves on.
using RequestHandler = std::function<CaseResult(
    const std::string &request, const std::function<void(const char *)> &phase)>;

class WorkerPool {
public:
  using Deliver = std::function<void(const IsolatedOutcome &)>;

  /// `handler` and `afterwards` run in the workers (forked later, so they
  /// may use anything that stays valid for the pool's life); `afterwards`
  /// sees each case's full result there (to export its artifact).
  WorkerPool(size_t jobs, RequestHandler handler,
             std::function<void(const CaseResult &)> afterwards,
             IsolationLimits limits, size_t casesPerWorker = 200);
  /// Kills the workers, and drops the cases not delivered.
  ~WorkerPool();
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  /// Queues a request; `deliver` gets its outcome once it and every
  /// request before it are done. With `wantFull` the outcome carries the
  /// whole CaseResult even when it is no finding. Waits while the backlog
  /// is full (delivering meanwhile).
  void submit(std::string request, bool wantFull, Deliver deliver);
  /// Waits for every request and delivers the rest.
  void drain();
  /// Forgets the queued requests no worker has started, from the first
  /// one `isFirst` accepts on (so a group of requests is dropped whole or
  /// not at all); their `deliver` is never called. Returns how many of the
  /// dropped requests `isFirst` accepts. A campaign past its deadline
  /// calls it so that only the cases in flight delay its end.
  size_t dropUnstarted(const std::function<bool(const std::string &)> &isFirst);
  /// Workers forked so far (a measure of reuse for tests and reports).
  size_t workersStarted() const { return workersStarted_; }
  /// Called after every wait for the workers (at least once a second
  /// while a case runs): a campaign's progress line between cases.
  void setIdle(std::function<void()> idle) { idle_ = std::move(idle); }
  /// What a busy worker is doing: its case's phase ("compile", "compile:
  /// <pass>", "run") and the seconds since the case started.
  struct Busy {
    std::string phase;
    double seconds = 0;
  };
  /// The busy workers, the longest-running first.
  std::vector<Busy> busy() const;

private:
  struct Entry {
    std::string request;
    bool wantFull = false;
    Deliver deliver;
    bool started = false, done = false;
    IsolatedOutcome outcome;
  };
  struct Worker {
    pid_t pid = -1;
    int requestFd = -1, reportFd = -1, errorFd = -1;
    std::string reportText, errorText, phase;
    Entry *current = nullptr;
    std::chrono::steady_clock::time_point started, deadline;
    size_t casesDone = 0;
  };

  bool startWorker(Worker &worker, std::string &error);
  [[noreturn]] void workerMain(int requestFd, int reportFd);
  void assign();
  void step();
  void service(Worker &worker);
  void readReports(Worker &worker);
  void retire(Worker &worker, bool timedOut, bool outOfMemory);
  void deliverReady();

  size_t jobs_;
  RequestHandler handler_;
  std::function<void(const CaseResult &)> afterwards_;
  IsolationLimits limits_;
  size_t casesPerWorker_;
  std::vector<Worker> workers_;
  std::deque<Entry> entries_;
  size_t workersStarted_ = 0;
  std::function<void()> idle_;
};

} // namespace sift::harness
