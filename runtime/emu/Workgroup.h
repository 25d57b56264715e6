//===- runtime/emu/Workgroup.h - A workgroup's threads as fibers -*- C++
//-*-===//
//
// The emulated barrier of the emu device (issue 24): the threads of one
// workgroup of a GPU kernel run on the host as fibers, one stack each, on
// the calling thread. A fiber runs until it reaches a barrier or leaves the
// kernel; when every fiber has, the scheduler checks that they all wait at
// the same barrier (else the kernel's barriers diverge) and starts the next
// round. Within a round the fibers run one after another in an order drawn
// from the seed, so a race between threads shows as a different result
// under another seed, and a second run with another seed is another
// interleaving. A fiber may also pause (the dispatch pauses it at a global
// atomic): the scheduler's caller gets control back, may run another
// workgroup's scheduler, and resumes this one later, the paused fiber at a
// drawn place among its round's fibers not yet run. Fibers switch by a few
// instructions of assembly on x86-64
// and by POSIX ucontext elsewhere: the runtime's rule of no dependency
// beyond the C++ standard library and the OS.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/emu/LargeMemory.h"
#include "support/Result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace sift::emu {

/// splitmix64: a small, fully specified generator, so that an order drawn
/// from a seed is the same on every platform.
inline uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// Shuffles `values` (Fisher-Yates) with nextRandom(state). An index below
/// i is the high half of a random 32-bit number times i, not a remainder:
/// a division for every element of every round cost more than the rest of
/// a round of the scheduler (up to 2^32 values).
template <typename T> void shuffle(std::vector<T> &values, uint64_t &state) {
  for (size_t i = values.size(); i > 1; --i)
    std::swap(values[i - 1], values[((nextRandom(state) >> 32) * i) >> 32]);
}

/// How a WorkgroupScheduler runs its fibers.
struct SchedulerOptions {
  uint64_t seed = 0;             ///< draws the fibers' order in each round
  size_t stackBytes = 64 * 1024; ///< each fiber's stack (private memory)
};

/// Runs the threads of one workgroup as fibers with barriers between them.
/// One scheduler runs one workgroup at a time; its stacks are kept for the
/// next run. Not thread-safe: each host thread needs its own.
class WorkgroupScheduler {
public:
  explicit WorkgroupScheduler(SchedulerOptions options = {});
  ~WorkgroupScheduler();
  WorkgroupScheduler(const WorkgroupScheduler &) = delete;
  WorkgroupScheduler &operator=(const WorkgroupScheduler &) = delete;

  /// Runs `body(thread)` for threads 0 .. threads - 1, each on its own
  /// fiber, until every one has returned. `body` may call barrier(). An
  /// error (barrier-divergence: a thread left the kernel while others wait
  /// at a barrier, or two threads wait at different barriers) names the
  /// two threads and the barriers; the fibers still running are abandoned
  /// then, so `body` must own nothing across a barrier (kernel code owns
  /// nothing). `round` draws the order from the seed and the run's number,
  /// so that every workgroup of a dispatch gets its own order.
  Status run(uint32_t threads, uint64_t round,
             const std::function<void(uint32_t thread)> &body);

  /// run() in steps, so that a dispatch can hold several workgroups at
  /// once and interleave them: start() readies the fibers (`body` must
  /// outlive the run), and each resume() runs them until every one has
  /// returned (`done`), a fiber called pause() (not done: call resume()
  /// again), or an error (run()'s).
  Status start(uint32_t threads, uint64_t round,
               const std::function<void(uint32_t thread)> &body);
  Status resume(bool &done);

  /// Called from a fiber: hands control back to resume()'s caller; the
  /// fiber runs again later in its round (a point where another workgroup
  /// may run: a global atomic).
  void pause();

  /// Counts what moves a run on: a thread reaching a barrier or leaving
  /// the kernel, a warp operation completing. A spin that only loads
  /// leaves it unchanged.
  uint64_t progress() const { return progress_; }

  /// Called from a fiber: waits until every thread of the workgroup has
  /// reached barrier `site` (a number naming the barrier in the kernel).
  void barrier(uint32_t site);

  /// The lanes of a warp in the next run() (consecutive linear thread ids;
  /// at most 64): 32 unless set.
  void setWarpSize(uint32_t lanes) { warpSize_ = lanes; }
  uint32_t warpSize() const { return warpSize_; }

  /// Called from a fiber: warp operation `kind` (kSiftEmuWarpSync,
  /// kSiftEmuWarpBallot or kSiftEmuWarpShuffle) at `site`. Waits until
  /// every lane of the running thread's warp has reached it; the other
  /// fibers of the workgroup run meanwhile (lanes are scheduled
  /// independently between warp operations, as on Volta and later).
  /// Returns the mask of the lanes whose `value` is not zero for a ballot,
  /// the value of the lane `value >> 32` names for a shuffle (`value`'s low
  /// half is the lane's own), 0 for a sync. Lanes that meet at different
  /// sites or kinds, and a lane that waits while another of its warp left
  /// the kernel or waits at a barrier, make run() fail with
  /// barrier-divergence (of a warp); a shuffle that reads a lane its warp
  /// does not have (a last, partial warp), with out-of-bounds.
  uint64_t warp(uint32_t site, uint32_t kind, uint64_t value);

  /// The warp operations thread `thread`'s warp completed in this run:
  /// accesses of one warp at different counts are ordered.
  uint32_t warpEpoch(uint32_t thread) const {
    return warps_[thread / warpSize_].epoch;
  }

  /// The thread whose fiber is running (valid inside `body`).
  uint32_t current() const { return current_; }

  /// Rounds of the last run: one more than the barriers every thread met.
  uint64_t rounds() const { return rounds_; }

private:
  struct Fiber;
  static void trampoline();

  SchedulerOptions options_;
  std::vector<Fiber> fibers_; ///< one after another: a round visits all
  LargeBlock stacks_;         ///< the fibers' stacks, one after another
  struct MainContext;
  std::unique_ptr<MainContext> main_;
  /// A warp's operation in progress: the lanes arrived, where, and their
  /// votes so far.
  struct Warp {
    uint32_t arrived = 0, site = 0, kind = 0, epoch = 0;
    uint64_t votes = 0;
  };
  /// Switches from the running fiber to the scheduler.
  void yieldToScheduler();
  /// Every fiber of `threads` fresh at its body's start, no warp operation
  /// in progress.
  Status startFibers(uint32_t threads);
  /// After a round: the fibers that wait at a barrier, in `waiting` (none:
  /// the workgroup is done), or a barrier-divergence (of the workgroup or
  /// of a warp).
  Status endRound(std::vector<uint32_t> &waiting) const;
  /// The first divergence of a warp a fiber found ("" none).
  std::string divergence_;
  std::vector<Warp> warps_;
  std::vector<uint64_t> warpResults_; ///< each thread's last warp result
  std::vector<uint64_t> warpValues_;  ///< each thread's last warp value
  /// Lanes a completed warp operation released in this round, not yet
  /// placed in the round's order.
  std::vector<uint32_t> released_;
  uint32_t warpSize_ = 32;
  uint32_t threads_ = 0;
  const std::function<void(uint32_t)> *body_ = nullptr;
  uint32_t current_ = 0;
  uint64_t rounds_ = 0;
  uint64_t progress_ = 0;
  /// The round in progress: its order, the next fiber's place in it, the
  /// order's generator and the fibers waiting at its end.
  std::vector<uint32_t> ready_, waiting_;
  size_t next_ = 0;
  uint64_t order_ = 0;
  bool paused_ = false;
};

} // namespace sift::emu
