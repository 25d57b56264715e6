//===- runtime/emu/Workgroup.cpp - A workgroup's threads as fibers --------===//
//
// Each fiber is a ucontext with its own stack whose link context is the
// scheduler's: returning from the body ends the fiber and switches back.
// barrier() marks the running fiber as waiting at its site and switches to
// the scheduler, which runs every ready fiber of the round, in the drawn
// order, before it compares the sites and releases the barrier.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Workgroup.h"

#include <string>
#include <ucontext.h>

namespace sift::emu {

namespace {

/// The scheduler whose fiber is starting (makecontext passes int arguments
/// only; a fiber starts on the scheduler's host thread).
thread_local WorkgroupScheduler *starting = nullptr;

} // namespace

struct WorkgroupScheduler::MainContext {
  ucontext_t context;
};

struct WorkgroupScheduler::Fiber {
  enum class State { Ready, AtBarrier, Done };
  ucontext_t context;
  std::unique_ptr<char[]> stack;
  State state = State::Ready;
  uint32_t site = 0;
};

WorkgroupScheduler::WorkgroupScheduler(SchedulerOptions options)
    : options_(options), main_(std::make_unique<MainContext>()) {}

WorkgroupScheduler::~WorkgroupScheduler() = default;

void WorkgroupScheduler::trampoline() {
  WorkgroupScheduler *self = starting;
  uint32_t thread = self->current_;
  (*self->body_)(thread);
  self->fibers_[thread]->state = Fiber::State::Done;
  // Returning switches to the link context, the scheduler's.
}

std::vector<uint32_t>
WorkgroupScheduler::order(const std::vector<uint32_t> &ready,
                          uint64_t &state) const {
  std::vector<uint32_t> order = ready;
  shuffle(order, state);
  return order;
}

Status WorkgroupScheduler::run(uint32_t threads, uint64_t round,
                               const std::function<void(uint32_t)> &body) {
  if (threads == 0)
    return Status::success();
  while (fibers_.size() < threads) {
    auto fiber = std::make_unique<Fiber>();
    fiber->stack = std::make_unique<char[]>(options_.stackBytes);
    fibers_.push_back(std::move(fiber));
  }
  body_ = &body;
  starting = this;
  for (uint32_t t = 0; t < threads; ++t) {
    Fiber &fiber = *fibers_[t];
    fiber.state = Fiber::State::Ready;
    fiber.site = 0;
    if (getcontext(&fiber.context) != 0)
      return makeError("emu: getcontext failed for thread " +
                       std::to_string(t));
    fiber.context.uc_stack.ss_sp = fiber.stack.get();
    fiber.context.uc_stack.ss_size = options_.stackBytes;
    fiber.context.uc_link = &main_->context;
    makecontext(&fiber.context, &WorkgroupScheduler::trampoline, 0);
  }
  uint64_t state = options_.seed ^ (round * 0xd1b54a32d192ed03ull);
  rounds_ = 0;
  std::vector<uint32_t> ready(threads);
  for (uint32_t t = 0; t < threads; ++t)
    ready[t] = t;
  while (true) {
    ++rounds_;
    for (uint32_t t : order(ready, state)) {
      current_ = t;
      starting = this;
      swapcontext(&main_->context, &fibers_[t]->context);
    }
    // Every fiber now waits at a barrier or has left the kernel.
    std::vector<uint32_t> waiting;
    for (uint32_t t = 0; t < threads; ++t)
      if (fibers_[t]->state == Fiber::State::AtBarrier)
        waiting.push_back(t);
    if (waiting.empty())
      return Status::success();
    for (uint32_t t = 0; t < threads; ++t)
      if (fibers_[t]->state == Fiber::State::Done)
        return makeError("barrier-divergence: thread " + std::to_string(t) +
                         " left the kernel while thread " +
                         std::to_string(waiting[0]) + " waits at barrier " +
                         std::to_string(fibers_[waiting[0]]->site));
    uint32_t first = waiting[0];
    for (uint32_t t : waiting)
      if (fibers_[t]->site != fibers_[first]->site)
        return makeError("barrier-divergence: thread " + std::to_string(first) +
                         " waits at barrier " +
                         std::to_string(fibers_[first]->site) + ", thread " +
                         std::to_string(t) + " at barrier " +
                         std::to_string(fibers_[t]->site));
    for (uint32_t t : waiting)
      fibers_[t]->state = Fiber::State::Ready;
    ready = waiting;
  }
}

void WorkgroupScheduler::barrier(uint32_t site) {
  Fiber &fiber = *fibers_[current_];
  fiber.state = Fiber::State::AtBarrier;
  fiber.site = site;
  swapcontext(&fiber.context, &main_->context);
}

} // namespace sift::emu
