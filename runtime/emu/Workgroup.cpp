//===- runtime/emu/Workgroup.cpp - A workgroup's threads as fibers --------===//
//
// barrier() marks the running fiber as waiting at its site and switches to
// the scheduler, which runs every ready fiber of the round, in the drawn
// order, before it compares the sites and releases the barrier.
//
// Switching: on x86-64 a switch saves the callee-saved registers and the
// stack pointer and loads another's (a few instructions, no system call).
// Not the SSE and x87 control words: no kernel changes them, so every
// fiber runs under the host thread's, and loading the x87 one serializes
// the processor (most of the switch's samples in a profile). Elsewhere POSIX
// ucontext, whose swapcontext saves the signal mask with a system call at every
// switch. A fiber's first switch lands in trampoline(), which runs the body and
// switches back for good.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Workgroup.h"
#include "runtime/emu/EmuAbi.h"

#include <algorithm>

#include <cstring>
#include <string>

#if defined(__x86_64__) && (defined(__linux__) || defined(__APPLE__))
#define SIFT_EMU_FAST_SWITCH 1
#else
#define SIFT_EMU_FAST_SWITCH 0
#include <ucontext.h>
#endif

#if SIFT_EMU_FAST_SWITCH
// Saves the running context's callee-saved state on its stack and its stack
// pointer in *from, then resumes the context whose stack pointer is `to`.
extern "C" void sift_emu_switch(void **from, void *to);
asm(R"(
  .text
  .p2align 4
  .globl sift_emu_switch
#ifdef __linux__
  .type sift_emu_switch, @function
#endif
sift_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
#ifdef __linux__
  .size sift_emu_switch, .-sift_emu_switch
  .section .note.GNU-stack,"",@progbits
  .text
#endif
)");
#endif

namespace sift::emu {

namespace {

/// The scheduler whose fiber is starting (a fiber's entry takes no
/// arguments; a fiber starts on the scheduler's host thread).
thread_local WorkgroupScheduler *starting = nullptr;

} // namespace

#if SIFT_EMU_FAST_SWITCH
struct WorkgroupScheduler::MainContext {
  void *stack = nullptr; ///< the scheduler's saved stack pointer
};

struct WorkgroupScheduler::Fiber {
  enum class State { Ready, AtBarrier, AtWarp, Done };
  void *context = nullptr; ///< the fiber's saved stack pointer
  State state = State::Ready;
  uint32_t site = 0;
};

namespace {

/// A fresh fiber's saved stack pointer: its first switch pops zeroed
/// registers and the default control words, then returns into `entry`
/// with the stack aligned as at a call.
void *freshContext(char *stack, size_t bytes, void (*entry)()) {
  uintptr_t top = reinterpret_cast<uintptr_t>(stack + bytes) & ~uintptr_t{63};
  auto *slot = reinterpret_cast<uint64_t *>(top);
  *--slot = 0;                                 // entry's return address
  *--slot = reinterpret_cast<uint64_t>(entry); // where the switch returns
  for (int r = 0; r < 6; ++r)
    *--slot = 0; // rbp rbx r12 r13 r14 r15
  return slot;
}

} // namespace
#else
struct WorkgroupScheduler::MainContext {
  ucontext_t context;
};

struct WorkgroupScheduler::Fiber {
  enum class State { Ready, AtBarrier, AtWarp, Done };
  ucontext_t context;
  State state = State::Ready;
  uint32_t site = 0;
};
#endif

WorkgroupScheduler::WorkgroupScheduler(SchedulerOptions options)
    : options_(options), main_(std::make_unique<MainContext>()) {}

WorkgroupScheduler::~WorkgroupScheduler() = default;

void WorkgroupScheduler::trampoline() {
  WorkgroupScheduler *self = starting;
  uint32_t thread = self->current_;
  (*self->body_)(thread);
  self->fibers_[thread].state = Fiber::State::Done;
  ++self->progress_;
#if SIFT_EMU_FAST_SWITCH
  // Never resumed: the next run starts the fiber afresh.
  sift_emu_switch(&self->fibers_[thread].context, self->main_->stack);
  __builtin_unreachable();
#else
  // Returning switches to the link context, the scheduler's.
#endif
}

Status WorkgroupScheduler::startFibers(uint32_t threads) {
  if (fibers_.size() < threads)
    fibers_.resize(threads);
  // One block for all stacks, on large pages. A stack's size plus one
  // cache line apart, so that the stacks' tops, where every switch saves
  // and loads, do not all fall into the same cache sets.
  size_t stride = options_.stackBytes + 64;
  if (stacks_.size() < threads * stride)
    stacks_ = LargeBlock(threads * stride);
  for (uint32_t t = 0; t < threads; ++t) {
    Fiber &fiber = fibers_[t];
    fiber.state = Fiber::State::Ready;
    fiber.site = 0;
#if SIFT_EMU_FAST_SWITCH
    fiber.context =
        freshContext(stacks_.data() + t * stride, options_.stackBytes,
                     &WorkgroupScheduler::trampoline);
#else
    if (getcontext(&fiber.context) != 0)
      return makeError("emu: getcontext failed for thread " +
                       std::to_string(t));
    fiber.context.uc_stack.ss_sp = stacks_.data() + t * stride;
    fiber.context.uc_stack.ss_size = options_.stackBytes;
    fiber.context.uc_link = &main_->context;
    makecontext(&fiber.context, &WorkgroupScheduler::trampoline, 0);
#endif
  }
  threads_ = threads;
  divergence_.clear();
  released_.clear();
  warps_.assign((threads + warpSize_ - 1) / warpSize_, Warp());
  warpResults_.assign(threads, 0);
  warpValues_.assign(threads, 0);
  return Status::success();
}

Status WorkgroupScheduler::run(uint32_t threads, uint64_t round,
                               const std::function<void(uint32_t)> &body) {
  if (Status s = start(threads, round, body); !s)
    return s;
  for (bool done = false; !done;)
    if (Status s = resume(done); !s)
      return s;
  return Status::success();
}

Status WorkgroupScheduler::start(uint32_t threads, uint64_t round,
                                 const std::function<void(uint32_t)> &body) {
  ready_.clear();
  next_ = 0;
  paused_ = false;
  rounds_ = 0;
  progress_ = 0;
  threads_ = 0;
  if (threads == 0)
    return Status::success();
  if (Status s = startFibers(threads); !s)
    return s;
  body_ = &body;
  order_ = options_.seed ^ (round * 0xd1b54a32d192ed03ull);
  rounds_ = 1;
  ready_.resize(threads);
  for (uint32_t t = 0; t < threads; ++t)
    ready_[t] = t;
  shuffle(ready_, order_);
  waiting_.reserve(threads);
  return Status::success();
}

Status WorkgroupScheduler::resume(bool &done) {
  done = false;
  while (true) {
    if (next_ == ready_.size()) {
      // The round is over: every fiber waits at a barrier or has left.
      waiting_.clear();
      if (Status s = endRound(waiting_); !s)
        return s;
      if (waiting_.empty()) {
        ready_.clear();
        next_ = 0;
        done = true;
        return Status::success();
      }
      for (uint32_t t : waiting_)
        fibers_[t].state = Fiber::State::Ready;
      ready_.swap(waiting_);
      next_ = 0;
      ++rounds_;
      ++progress_;
      shuffle(ready_, order_);
    }
    uint32_t t = ready_[next_++];
    current_ = t;
    starting = this;
#if SIFT_EMU_FAST_SWITCH
    sift_emu_switch(&main_->stack, fibers_[t].context);
#else
    swapcontext(&main_->context, &fibers_[t].context);
#endif
    if (!divergence_.empty())
      return makeError(divergence_);
    // Lanes a warp operation released (and a paused fiber) run later in
    // this round, each at a drawn place among the fibers not yet run. The
    // fibers run so far leave the order first once they are most of it: a
    // round that pauses at millions of atomics would grow it without end.
    if (!released_.empty() && next_ >= 64 && next_ * 2 >= ready_.size()) {
      ready_.erase(ready_.begin(),
                   ready_.begin() + static_cast<std::ptrdiff_t>(next_));
      next_ = 0;
    }
    for (uint32_t lane : released_) {
      ready_.push_back(lane);
      size_t left = ready_.size() - next_;
      std::swap(ready_.back(),
                ready_[next_ + (((nextRandom(order_) >> 32) * left) >> 32)]);
    }
    released_.clear();
    if (paused_) {
      paused_ = false;
      return Status::success();
    }
  }
}

Status WorkgroupScheduler::endRound(std::vector<uint32_t> &waiting) const {
  uint32_t threads = threads_;
  // Every fiber now waits at a barrier or has left the kernel, unless a
  // lane waits for a warp operation its warp never completes.
  for (uint32_t t = 0; t < threads; ++t) {
    if (fibers_[t].state != Fiber::State::AtWarp)
      continue;
    uint32_t first = t / warpSize_ * warpSize_;
    uint32_t end = std::min(threads, first + warpSize_);
    for (uint32_t other = first; other < end; ++other)
      if (fibers_[other].state != Fiber::State::AtWarp)
        return makeError(
            "barrier-divergence: thread " + std::to_string(t) +
            " waits at warp operation " + std::to_string(fibers_[t].site) +
            " while thread " + std::to_string(other) + " of its warp " +
            (fibers_[other].state == Fiber::State::Done
                 ? std::string("left the kernel")
                 : "waits at barrier " + std::to_string(fibers_[other].site)));
  }
  for (uint32_t t = 0; t < threads; ++t)
    if (fibers_[t].state == Fiber::State::AtBarrier)
      waiting.push_back(t);
  if (waiting.empty())
    return Status::success();
  for (uint32_t t = 0; t < threads; ++t)
    if (fibers_[t].state == Fiber::State::Done)
      return makeError("barrier-divergence: thread " + std::to_string(t) +
                       " left the kernel while thread " +
                       std::to_string(waiting[0]) + " waits at barrier " +
                       std::to_string(fibers_[waiting[0]].site));
  uint32_t first = waiting[0];
  for (uint32_t t : waiting)
    if (fibers_[t].site != fibers_[first].site)
      return makeError("barrier-divergence: thread " + std::to_string(first) +
                       " waits at barrier " +
                       std::to_string(fibers_[first].site) + ", thread " +
                       std::to_string(t) + " at barrier " +
                       std::to_string(fibers_[t].site));
  return Status::success();
}

void WorkgroupScheduler::yieldToScheduler() {
  Fiber &fiber = fibers_[current_];
#if SIFT_EMU_FAST_SWITCH
  sift_emu_switch(&fiber.context, main_->stack);
#else
  swapcontext(&fiber.context, &main_->context);
#endif
}

uint64_t WorkgroupScheduler::warp(uint32_t site, uint32_t kind,
                                  uint64_t value) {
  uint32_t me = current_;
  uint32_t first = me / warpSize_ * warpSize_;
  uint32_t lanes = std::min(threads_ - first, warpSize_);
  Warp &w = warps_[me / warpSize_];
  if (w.arrived == 0) {
    w.site = site;
    w.kind = kind;
    w.votes = 0;
  } else if (w.site != site || w.kind != kind) {
    divergence_ = "barrier-divergence: thread " + std::to_string(me) +
                  " reaches warp operation " + std::to_string(site) +
                  " while lanes of its warp wait at warp operation " +
                  std::to_string(w.site);
    fibers_[me].state = Fiber::State::Done;
    yieldToScheduler(); // never resumed: run() fails
  }
  if (value != 0)
    w.votes |= uint64_t{1} << (me - first);
  warpValues_[me] = value;
  if (++w.arrived < lanes) {
    fibers_[me].state = Fiber::State::AtWarp;
    fibers_[me].site = site;
    yieldToScheduler();
    return warpResults_[me];
  }
  // The last lane completes the operation and goes on; the others run
  // again later in the round.
  if (kind == kSiftEmuWarpShuffle)
    for (uint32_t lane = first; lane < first + lanes; ++lane)
      if ((warpValues_[lane] >> 32) >= lanes) {
        divergence_ = "out-of-bounds: thread " + std::to_string(lane) +
                      " reads lane " +
                      std::to_string(warpValues_[lane] >> 32) +
                      " in a shuffle (warp operation " + std::to_string(site) +
                      "), which its warp of " + std::to_string(lanes) +
                      " lanes does not have";
        fibers_[me].state = Fiber::State::Done;
        yieldToScheduler(); // never resumed: run() fails
      }
  w.arrived = 0;
  ++progress_;
  ++w.epoch;
  for (uint32_t lane = first; lane < first + lanes; ++lane) {
    uint64_t result = 0;
    if (kind == kSiftEmuWarpBallot)
      result = w.votes;
    else if (kind == kSiftEmuWarpShuffle)
      result = warpValues_[first + (warpValues_[lane] >> 32)] & 0xffffffffu;
    warpResults_[lane] = result;
    if (lane != me) {
      fibers_[lane].state = Fiber::State::Ready;
      released_.push_back(lane);
    }
  }
  return warpResults_[me];
}

void WorkgroupScheduler::barrier(uint32_t site) {
  Fiber &fiber = fibers_[current_];
  fiber.state = Fiber::State::AtBarrier;
  fiber.site = site;
  ++progress_;
  yieldToScheduler();
}

void WorkgroupScheduler::pause() {
  // Still ready: placed again among the round's fibers not yet run.
  released_.push_back(current_);
  paused_ = true;
  yieldToScheduler();
}

} // namespace sift::emu
