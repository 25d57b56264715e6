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
  /// Whether a global atomic pauses its thread, so that another resident
  /// workgroup (or thread) may run and a spin is seen.
  bool interleave = true;
  /// Global atomic writes so far (progress: a spin only loads) and the
  /// access site of the last pause.
  uint64_t atomicWrites = 0;
  uint32_t pauseSite = 0;
};

/// Before a global atomic: the point where workgroups interleave.
void atomicPoint(DispatchState &state, uint32_t site, uint32_t flags) {
  if (!state.interleave || (flags & kSiftEmuAccessAtomic) == 0 ||
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

std::string hangMessage(const std::vector<const Resident *> &spinning,
                        uint64_t pauses, uint32_t site, uint64_t waiting) {
  // One workgroup named, the others counted: how many run at once is
  // drawn, and a finding's signature should not depend on it.
  return "hang: workgroup " + triple(spinning.front()->block) + " and " +
         std::to_string(spinning.size() - 1) +
         " running with it spin through " + std::to_string(pauses) +
         " global atomics in a row (the last at access " +
         std::to_string(site) +
         " of the kernel) with no thread writing one, reaching a barrier "
         "or leaving, while " +
         std::to_string(waiting) + " workgroups wait to start";
}

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
  if (threads == 0 || groups == 0)
    return makeError("emu: empty launch: grid " + triple(launch.grid) +
                     ", block " + triple(launch.block));
  if (threads > 1024)
    return makeError("emu: block " + triple(launch.block) + " has " +
                     std::to_string(threads) + " threads, more than 1024");
  if (launch.warpSize != 32 && launch.warpSize != 64)
    return makeError("emu: a warp of " + std::to_string(launch.warpSize) +
                     " lanes (32 or 64 are emulated)");
  uint32_t slots = residentWorkgroups(launch, seed, groups);
  // The first resident workgroup runs on the caller's scheduler, the others
  // on this host thread's own (kept: their stacks are reused).
  thread_local std::vector<std::unique_ptr<WorkgroupScheduler>> more;
  while (more.size() + 1 < slots)
    more.push_back(std::make_unique<WorkgroupScheduler>());
  std::vector<WorkgroupScheduler *> schedulers{&scheduler};
  for (uint32_t s = 1; s < slots; ++s)
    schedulers.push_back(more[s - 1].get());
  for (WorkgroupScheduler *each : schedulers)
    each->setWarpSize(launch.warpSize);
  // The bounds of the target-lowered kernels' parameters: each binding's
  // bytes, or (not given) as many as the address space allows.
  std::vector<uint64_t> bufferBytes = launch.bufferBytes;
  if (bufferBytes.empty())
    bufferBytes.assign(64, UINT64_MAX / 2);
  // Each slot's workgroup memory, 16-byte aligned, one block for all.
  uint64_t stride = (launch.workgroupBytes + 15) / 16 * 16;
  std::unique_ptr<void, AlignedFree> memory;
  if (launch.workgroupBytes > 0) {
    memory.reset(std::aligned_alloc(16, stride * slots));
    if (!memory)
      return makeError("emu: cannot allocate " +
                       std::to_string(stride * slots) +
                       " bytes of workgroup memory");
  }
  auto slotMemory = [&](uint32_t slot) -> void * {
    return memory ? static_cast<char *>(memory.get()) + slot * stride
                  : nullptr;
  };
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
  if (Status s = startChecks(checker, launch, buffers, memory.get(), slots,
                             stride);
      !s)
    return s;
  // Up to `slots` workgroups at once, started in the drawn order. After
  // each pause (a thread at a global atomic) a drawn resident runs on, so
  // that a look-back may find its predecessor's flag unwritten. When
  // every resident only spins (no atomic write, no barrier, no thread
  // leaving) for long, none can end: a hang, not a hung run.
  std::vector<Resident> slot(slots); // fixed: the schedulers point at bodies
  std::vector<uint32_t> running, freeSlots;
  for (uint32_t s = slots; s > 0; --s)
    freeSlots.push_back(s - 1);
  uint64_t next = 0, idle = 0, lastStamp = 0;
  constexpr uint64_t kIdleLimit = uint64_t{1} << 20;
  while (next < groups || !running.empty()) {
    while (next < groups && !freeSlots.empty()) {
      Resident &r = slot[freeSlots.back()];
      r.slot = freeSlots.back();
      freeSlots.pop_back();
      r.group = order[next++];
      uint64_t g = r.group;
      r.block = {
          static_cast<uint32_t>(g % launch.grid[0]),
          static_cast<uint32_t>(g / launch.grid[0] % launch.grid[1]),
          static_cast<uint32_t>(g / (uint64_t{launch.grid[0]} * launch.grid[1]))};
      r.scheduler = schedulers[r.slot];
      if (void *own = slotMemory(r.slot))
        std::memset(own, kWorkgroupFill, launch.workgroupBytes);
      r.contexts.resize(threads);
      setContexts(r.contexts, launch, r.block, slotMemory(r.slot),
                  bufferBytes.data(), state);
      r.body = [contexts = r.contexts.data(), kernel, buffers](uint32_t t) {
        kernel(&contexts[t], buffers);
      };
      running.push_back(r.slot);
      checker.startWorkgroup(g, r.block, r.slot);
      // Each workgroup's thread orders: from the dispatch's seed and the
      // workgroup.
      if (Status s = r.scheduler->start(static_cast<uint32_t>(threads),
                                        seed * 0x9E3779B97F4A7C15ull + g,
                                        r.body);
          !s)
        return s;
    }
    size_t pick = running.size() == 1
                      ? 0
                      : static_cast<size_t>(
                            ((nextRandom(random) >> 32) * running.size()) >>
                            32);
    Resident &r = slot[running[pick]];
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
      freeSlots.push_back(r.slot);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(pick));
      idle = 0;
      continue;
    }
    // Paused: did anything move on since the last pause?
    uint64_t stamp = state.atomicWrites;
    for (uint32_t each : running)
      stamp += slot[each].scheduler->progress();
    if (stamp != lastStamp) {
      lastStamp = stamp;
      idle = 0;
    } else if (++idle >= kIdleLimit) {
      std::vector<const Resident *> spinning;
      for (uint32_t each : running)
        spinning.push_back(&slot[each]);
      return makeError(
          hangMessage(spinning, idle, state.pauseSite, groups - next));
    }
  }
  return Status::success();
}

} // namespace sift::emu
