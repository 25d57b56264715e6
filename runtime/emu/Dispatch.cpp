//===- runtime/emu/Dispatch.cpp - One dispatch on the host ----------------===//
//
// A dispatch holds up to a drawn number of workgroups at once (its slots),
// started in a drawn order; each is a WorkgroupScheduler run whose body
// calls the kernel with the thread's own context (a fiber keeps its context
// across barriers). A thread pauses before every global atomic, and a drawn
// resident workgroup runs on: the workgroups interleave at the accesses
// through which they talk. The callbacks find the running workgroup's
// scheduler through the context's device pointer.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Dispatch.h"

#include "runtime/emu/AccessChecker.h"
#include "support/Process.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace sift::emu {

namespace {

/// What the callbacks reach through a context's device pointer.
struct DispatchState {
  /// The running workgroup's.
  WorkgroupScheduler *scheduler = nullptr;
  /// Keeps the first problem, the bounds check's reports included.
  AccessChecker *checker = nullptr;
  /// Global atomic writes so far (progress: a spin only loads) and the
  /// access site of the last pause.
  uint64_t atomicWrites = 0;
  uint32_t pauseSite = 0;
};

/// Before a global atomic: the point where workgroups interleave. Every
/// such atomic pauses its thread, with one resident workgroup too, so that
/// another resident workgroup (or thread) may run and a spin is seen.
void atomicPoint(DispatchState &state, uint32_t site, uint32_t flags) {
  if ((flags & kSiftEmuAccessAtomic) == 0 ||
      (flags & kSiftEmuAccessWorkgroup) != 0)
    return;
  if (flags & kSiftEmuAccessWrite)
    ++state.atomicWrites;
  state.pauseSite = site;
  state.scheduler->pause();
}

void barrierCallback(SiftEmuContext *context, uint32_t site) {
  static_cast<DispatchState *>(context->device)->scheduler->barrier(site);
}

std::string triple(const uint32_t *v) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
         std::to_string(v[2]) + ")";
}

void outOfBoundsCallback(SiftEmuContext *context, uint32_t site, uint64_t index,
                         uint64_t size) {
  auto *state = static_cast<DispatchState *>(context->device);
  if (!state->checker->problem().empty())
    return;
  state->checker->report("out-of-bounds: access " + std::to_string(site) +
                         " of the kernel goes to element " +
                         std::to_string(index) + " of a memref of " +
                         std::to_string(size) + " elements (thread " +
                         triple(context->threadId) + " of workgroup " +
                         triple(context->blockId) + ")");
}

void accessCallback(SiftEmuContext *context, uint32_t site, uint64_t address,
                    uint32_t flags) {
  auto *state = static_cast<DispatchState *>(context->device);
  if (!context->gridWaited && (flags & kSiftEmuAccessWorkgroup) == 0 &&
      state->checker->problem().empty())
    state->checker->report(
        "data-race: access " + std::to_string(site) +
        " of the kernel reaches global memory before the thread's grid wait "
        "(griddepcontrol.wait): launched to overlap the kernel before it, "
        "it may touch memory that kernel has not finished with (thread " +
        triple(context->threadId) + " of workgroup " +
        triple(context->blockId) + ")");
  atomicPoint(*state, site, flags);
  WorkgroupScheduler &scheduler = *state->scheduler;
  uint32_t thread = scheduler.current();
  state->checker->access(
      thread, scheduler.rounds(),
      {thread / scheduler.warpSize(), scheduler.warpEpoch(thread)}, site,
      address, (flags & kSiftEmuAccessWrite) != 0,
      (flags & kSiftEmuAccessWorkgroup) != 0,
      (flags & kSiftEmuAccessAtomic) != 0,
      (flags & kSiftEmuAccessReadsOld) != 0);
}

uint64_t warpCallback(SiftEmuContext *context, uint32_t site, uint32_t kind,
                      uint64_t value) {
  if (kind == kSiftEmuGridWait) {
    context->gridWaited = 1;
    return 0;
  }
  return static_cast<DispatchState *>(context->device)
      ->scheduler->warp(site, kind, value);
}

/// A repeated run's: no checks, but its atomics still interleave.
void uncheckedAccess(SiftEmuContext *context, uint32_t site, uint64_t,
                     uint32_t flags) {
  atomicPoint(*static_cast<DispatchState *>(context->device), site, flags);
}

struct AlignedFree {
  void operator()(void *p) const { std::free(p); }
};

std::string triple(const std::array<uint32_t, 3> &v) {
  return triple(v.data());
}

/// Starts the dispatch's access checks over the buffers it binds and its
/// workgroup memory; a dispatch whose checks do not fit the process is
/// unsupported (the emu device's limit, not the kernel's fault).
Status startChecks(AccessChecker &checker, const Launch &launch, void **buffers,
                   void *memory, uint32_t slots, uint64_t slotStride) {
  std::vector<BoundBuffer> bound;
  for (size_t b = 0; b < launch.bufferBytes.size(); ++b)
    bound.push_back(
        {reinterpret_cast<uint64_t>(buffers[b]), launch.bufferBytes[b],
         b < launch.bufferElementBytes.size() ? launch.bufferElementBytes[b]
                                              : 0});
  uint64_t boundBytes = 0;
  for (const BoundBuffer &buffer : bound)
    boundBytes += buffer.bytes;
  try {
    checker.startDispatch(std::move(bound), launch.block,
                          reinterpret_cast<uint64_t>(memory),
                          launch.workgroupBytes, slots, slotStride);
  } catch (const std::bad_alloc &) {
    // The checks keep an entry for every element of every binding: a
    // plan of large buffers (radix_onesweep's digit counts for thousands
    // of rows) can need more than the process may hold.
    return makeError(std::string(kUnsupportedPrefix) +
                     "the emu device cannot hold the access checks of a "
                     "dispatch over " +
                     std::to_string(boundBytes >> 20) +
                     " MiB of buffers (out of memory for their shadow "
                     "state)");
  }
  return Status::success();
}

/// The contexts of workgroup `block`'s threads.
void setContexts(std::vector<SiftEmuContext> &contexts, const Launch &launch,
                 const std::array<uint32_t, 3> &block, void *memory,
                 const uint64_t *bufferBytes, DispatchState &state) {
  for (uint64_t t = 0; t < contexts.size(); ++t) {
    SiftEmuContext &c = contexts[t];
    c.threadId[0] = static_cast<uint32_t>(t % launch.block[0]);
    c.threadId[1] =
        static_cast<uint32_t>(t / launch.block[0] % launch.block[1]);
    c.threadId[2] = static_cast<uint32_t>(
        t / (uint64_t{launch.block[0]} * launch.block[1]));
    for (int d = 0; d < 3; ++d) {
      c.blockId[d] = block[d];
      c.blockDim[d] = launch.block[d];
      c.gridDim[d] = launch.grid[d];
    }
    c.workgroupMemory = memory;
    c.barrier = &barrierCallback;
    c.outOfBounds = &outOfBoundsCallback;
    c.device = &state;
    c.access = launch.checkAccesses ? &accessCallback : &uncheckedAccess;
    c.warp = &warpCallback;
    c.bufferBytes = bufferBytes;
    c.warpSize = launch.warpSize;
    c.laneId = static_cast<uint32_t>(t % launch.warpSize);
    c.gridWaited = launch.gridWait ? 0 : 1;
  }
}


/// A workgroup the dispatch holds: its scheduler, contexts and slot of
/// workgroup memory.
struct Resident {
  uint64_t group = 0;
  std::array<uint32_t, 3> block{};
  WorkgroupScheduler *scheduler = nullptr;
  std::vector<SiftEmuContext> contexts;
  std::function<void(uint32_t)> body;
  uint32_t slot = 0;
};

std::array<uint32_t, 3> blockOf(uint64_t g, const Launch &launch) {
  return {static_cast<uint32_t>(g % launch.grid[0]),
          static_cast<uint32_t>(g / launch.grid[0] % launch.grid[1]),
          static_cast<uint32_t>(g / (uint64_t{launch.grid[0]} *
                                     launch.grid[1]))};
}

/// A launch the emu device cannot run: empty, over 1024 threads, or a warp
/// it does not emulate.
Status checkLaunch(const Launch &launch, uint64_t threads, uint64_t groups) {
  if (threads == 0 || groups == 0)
    return makeError("emu: empty launch: grid " + triple(launch.grid) +
                     ", block " + triple(launch.block));
  if (threads > 1024)
    return makeError("emu: block " + triple(launch.block) + " has " +
                     std::to_string(threads) + " threads, more than 1024");
  if (launch.warpSize != 32 && launch.warpSize != 64)
    return makeError("emu: a warp of " + std::to_string(launch.warpSize) +
                     " lanes (32 or 64 are emulated)");
  return Status::success();
}

/// The workgroups a dispatch runs at once, one slot each: the slot's
/// scheduler (the caller's for slot 0, the host thread's own for the
/// others, kept so that their stacks are reused) and workgroup memory.
class Residents {
public:
  Residents(uint32_t slots, const Launch &launch,
            WorkgroupScheduler &scheduler)
      : slots_(slots), launch_(launch),
        stride_((launch.workgroupBytes + 15) / 16 * 16) {
    thread_local std::vector<std::unique_ptr<WorkgroupScheduler>> more;
    while (more.size() + 1 < slots)
      more.push_back(std::make_unique<WorkgroupScheduler>());
    for (uint32_t s = 0; s < slots; ++s) {
      slots_[s].slot = s;
      slots_[s].scheduler = s == 0 ? &scheduler : more[s - 1].get();
      slots_[s].scheduler->setWarpSize(launch.warpSize);
      free_.push_back(slots - 1 - s);
    }
  }

  /// Every slot's workgroup memory, 16-byte aligned, one block for all.
  Status allocate() {
    if (launch_.workgroupBytes == 0)
      return Status::success();
    memory_.reset(std::aligned_alloc(16, stride_ * slots_.size()));
    if (!memory_)
      return makeError("emu: cannot allocate " +
                       std::to_string(stride_ * slots_.size()) +
                       " bytes of workgroup memory");
    return Status::success();
  }
  void *memory() const { return memory_.get(); }
  uint64_t stride() const { return stride_; }

  bool full() const { return free_.empty(); }
  bool empty() const { return running_.empty(); }

  /// Starts workgroup `g` in a free slot, with its memory filled and its
  /// threads' contexts; `round` draws its threads' orders.
  Status admit(uint64_t g, uint64_t round, SiftEmuKernel kernel,
               void **buffers, const uint64_t *bufferBytes,
               DispatchState &state, AccessChecker &checker) {
    Resident &r = slots_[free_.back()];
    free_.pop_back();
    r.group = g;
    r.block = blockOf(g, launch_);
    void *own = memory_ ? static_cast<char *>(memory_.get()) + r.slot * stride_
                        : nullptr;
    if (own)
      std::memset(own, kWorkgroupFill, launch_.workgroupBytes);
    uint64_t threads =
        uint64_t{launch_.block[0]} * launch_.block[1] * launch_.block[2];
    r.contexts.resize(threads);
    setContexts(r.contexts, launch_, r.block, own, bufferBytes, state);
    r.body = [contexts = r.contexts.data(), kernel, buffers](uint32_t t) {
      kernel(&contexts[t], buffers);
    };
    running_.push_back(r.slot);
    checker.startWorkgroup(g, r.block, r.slot);
    return r.scheduler->start(static_cast<uint32_t>(threads), round, r.body);
  }

  /// A running workgroup drawn with `random`.
  size_t pick(uint64_t &random) const {
    return running_.size() == 1
               ? 0
               : static_cast<size_t>(
                     ((nextRandom(random) >> 32) * running_.size()) >> 32);
  }
  Resident &running(size_t i) { return slots_[running_[i]]; }
  void finish(size_t i) {
    free_.push_back(running_[i]);
    running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  /// What the running workgroups' threads did that moves them on.
  uint64_t progress() const {
    uint64_t sum = 0;
    for (uint32_t each : running_)
      sum += slots_[each].scheduler->progress();
    return sum;
  }

  /// One workgroup named, the others counted: how many run at once is
  /// drawn, and a finding's signature should not depend on it.
  std::string hang(uint64_t pauses, uint32_t site, uint64_t waiting) const {
    return "hang: workgroup " + triple(slots_[running_.front()].block) +
           " and " + std::to_string(running_.size() - 1) +
           " running with it spin through " + std::to_string(pauses) +
           " global atomics in a row (the last at access " +
           std::to_string(site) +
           " of the kernel) with no thread writing one, reaching a barrier "
           "or leaving, while " +
           std::to_string(waiting) + " workgroups wait to start";
  }

private:
  std::vector<Resident> slots_; ///< fixed: the schedulers point at bodies
  std::vector<uint32_t> running_, free_;
  const Launch &launch_;
  uint64_t stride_;
  std::unique_ptr<void, AlignedFree> memory_;
};

} // namespace

uint32_t residentWorkgroups(const Launch &launch, uint64_t seed,
                            uint64_t groups) {
  uint64_t drawn = launch.resident;
  if (drawn == 0) {
    uint64_t random = seed ^ 0x5851f42d4c957f2dull;
    drawn = 2 + (nextRandom(random) >> 32) % 3; // 2, 3 or 4
  }
  return static_cast<uint32_t>(std::min<uint64_t>(drawn, groups));
}

Status runDispatch(const Launch &launch, SiftEmuKernel kernel, void **buffers,
                   WorkgroupScheduler &scheduler, uint64_t seed) {
  uint64_t threads =
      uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
  uint64_t groups = uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  if (Status s = checkLaunch(launch, threads, groups); !s)
    return s;
  uint32_t slots = residentWorkgroups(launch, seed, groups);
  Residents residents(slots, launch, scheduler);
  if (Status s = residents.allocate(); !s)
    return s;
  // The bounds of the target-lowered kernels' parameters: each binding's
  // bytes, or (not given) as many as the address space allows.
  std::vector<uint64_t> bufferBytes = launch.bufferBytes;
  if (bufferBytes.empty())
    bufferBytes.assign(64, UINT64_MAX / 2);
  // The workgroups' order: a permutation drawn from the seed.
  std::vector<uint64_t> order(groups);
  for (uint64_t g = 0; g < groups; ++g)
    order[g] = g;
  uint64_t random = seed;
  shuffle(order, random);
  DispatchState state;
  // One checker a host thread, kept across dispatches: its maps keep their
  // memory, and clearing them is constant-time.
  thread_local AccessChecker checker;
  state.checker = &checker;
  if (Status s = startChecks(checker, launch, buffers, residents.memory(),
                             slots, residents.stride());
      !s)
    return s;
  // Up to `slots` workgroups at once, started in the drawn order. After
  // each pause (a thread at a global atomic) a drawn resident runs on, so
  // that a look-back may find its predecessor's flag unwritten. When
  // every resident only spins (no atomic write, no barrier, no thread
  // leaving) for long, none can end: a hang, not a hung run.
  uint64_t next = 0, idle = 0, lastStamp = 0;
  constexpr uint64_t kIdleLimit = uint64_t{1} << 20;
  while (next < groups || !residents.empty()) {
    for (; next < groups && !residents.full(); ++next) {
      // Each workgroup's thread orders: from the dispatch's seed and the
      // workgroup.
      uint64_t g = order[next];
      if (Status s = residents.admit(g, seed * 0x9E3779B97F4A7C15ull + g,
                                     kernel, buffers, bufferBytes.data(),
                                     state, checker);
          !s)
        return s;
    }
    size_t pick = residents.pick(random);
    Resident &r = residents.running(pick);
    state.scheduler = r.scheduler;
    checker.switchTo(r.group, r.block, r.slot);
    bool done = false;
    Status status = r.scheduler->resume(done);
    if (!status.ok())
      return makeError(status.message() + " (workgroup " + triple(r.block) +
                       ")");
    if (!checker.problem().empty())
      return makeError(checker.problem());
    if (done) {
      residents.finish(pick);
      idle = 0;
      continue;
    }
    // Paused: did anything move on since the last pause?
    uint64_t stamp = state.atomicWrites + residents.progress();
    if (stamp != lastStamp) {
      lastStamp = stamp;
      idle = 0;
    } else if (++idle >= kIdleLimit) {
      return makeError(residents.hang(idle, state.pauseSite, groups - next));
    }
  }
  return Status::success();
}

} // namespace sift::emu
