//===- runtime/emu/Dispatch.cpp - One dispatch on the host ----------------===//
//
// A dispatch is a loop over its workgroups in a drawn order; a workgroup is
// one WorkgroupScheduler run whose body calls the kernel with the thread's
// own context (a fiber keeps its context across barriers). The barrier
// callback finds the scheduler through the context's device pointer.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Dispatch.h"

#include "runtime/emu/AccessChecker.h"
#include "support/Process.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace sift::emu {

namespace {

/// What the callbacks reach through a context's device pointer.
struct DispatchState {
  WorkgroupScheduler *scheduler = nullptr;
  /// Keeps the first problem, the bounds check's reports included.
  AccessChecker *checker = nullptr;
};

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

void ignoreAccess(SiftEmuContext *, uint32_t, uint64_t, uint32_t) {}

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
                   void *memory) {
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
                          launch.workgroupBytes);
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
    c.access = launch.checkAccesses ? &accessCallback : &ignoreAccess;
    c.warp = &warpCallback;
    c.bufferBytes = bufferBytes;
    c.warpSize = launch.warpSize;
    c.laneId = static_cast<uint32_t>(t % launch.warpSize);
  }
}

} // namespace

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
  scheduler.setWarpSize(launch.warpSize);
  // The bounds of the target-lowered kernels' parameters: each binding's
  // bytes, or (not given) as many as the address space allows.
  std::vector<uint64_t> bufferBytes = launch.bufferBytes;
  if (bufferBytes.empty())
    bufferBytes.assign(64, UINT64_MAX / 2);
  std::unique_ptr<void, AlignedFree> memory;
  if (launch.workgroupBytes > 0) {
    size_t bytes = (launch.workgroupBytes + 15) / 16 * 16;
    memory.reset(std::aligned_alloc(16, bytes));
    if (!memory)
      return makeError("emu: cannot allocate " + std::to_string(bytes) +
                       " bytes of workgroup memory");
  }
  // The workgroups' order: a permutation drawn from the seed.
  std::vector<uint64_t> order(groups);
  for (uint64_t g = 0; g < groups; ++g)
    order[g] = g;
  uint64_t random = seed;
  shuffle(order, random);
  std::vector<SiftEmuContext> contexts(threads);
  DispatchState state;
  state.scheduler = &scheduler;
  // One checker a host thread, kept across dispatches: its maps keep their
  // memory, and clearing them is constant-time.
  thread_local AccessChecker checker;
  state.checker = &checker;
  if (Status s = startChecks(checker, launch, buffers, memory.get()); !s)
    return s;
  for (uint64_t g : order) {
    std::array<uint32_t, 3> block{
        static_cast<uint32_t>(g % launch.grid[0]),
        static_cast<uint32_t>(g / launch.grid[0] % launch.grid[1]),
        static_cast<uint32_t>(g / (uint64_t{launch.grid[0]} * launch.grid[1]))};
    if (memory)
      std::memset(memory.get(), kWorkgroupFill, launch.workgroupBytes);
    checker.startWorkgroup(g, block);
    setContexts(contexts, launch, block, memory.get(), bufferBytes.data(),
                state);
    // Each workgroup's thread orders: from the dispatch's seed and the
    // workgroup.
    Status status = scheduler.run(
        static_cast<uint32_t>(threads), seed * 0x9E3779B97F4A7C15ull + g,
        [&](uint32_t t) { kernel(&contexts[t], buffers); });
    if (!status.ok())
      return makeError(status.message() + " (workgroup " + triple(block) + ")");
    if (!checker.problem().empty())
      return makeError(checker.problem());
  }
  return Status::success();
}

} // namespace sift::emu
