//===- EmuAccessCheckTest.cpp - The emu device's race and init checks -----===//
//
// runDispatch with hand-written kernels that report their accesses the way
// the compiler's host lowering makes them (EmuAbi.h's access callback):
// races between threads of a workgroup within one interval between
// barriers and between workgroups on global memory, reads of workgroup
// memory before any write, what the messages name, and a launch whose
// access checks are off (a repeated run) ignoring the reports.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Dispatch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using sift::emu::Launch;
using sift::emu::runDispatch;
using sift::emu::WorkgroupScheduler;

/// A launch over int32 buffers `buffers` (their element counts).
Launch launchOf(std::array<uint32_t, 3> grid, std::array<uint32_t, 3> block,
                size_t workgroupBytes, const std::vector<size_t> &elements) {
  Launch launch = sift::emu::launchOf(grid, block, workgroupBytes);
  for (size_t n : elements) {
    launch.bufferBytes.push_back(n * sizeof(int32_t));
    launch.bufferElementBytes.push_back(sizeof(int32_t));
  }
  return launch;
}

uint64_t addressOf(const void *p) { return reinterpret_cast<uint64_t>(p); }

uint32_t spaceFlag(bool workgroup) {
  return workgroup ? uint32_t{kSiftEmuAccessWorkgroup} : 0u;
}

/// Stores through the context as the lowered kernels do: report, then
/// access.
void store(SiftEmuContext *c, uint32_t site, int32_t *p, int32_t value,
           bool workgroup = false) {
  c->access(c, site, addressOf(p),
            uint32_t{kSiftEmuAccessWrite} | spaceFlag(workgroup));
  *p = value;
}

int32_t load(SiftEmuContext *c, uint32_t site, const int32_t *p,
             bool workgroup = false) {
  c->access(c, site, addressOf(p), spaceFlag(workgroup));
  return *p;
}

std::string run(const Launch &launch, SiftEmuKernel kernel,
                std::vector<std::vector<int32_t>> &buffers, uint64_t seed = 0) {
  std::vector<void *> pointers;
  for (auto &b : buffers)
    pointers.push_back(b.data());
  WorkgroupScheduler scheduler;
  sift::Status status =
      runDispatch(launch, kernel, pointers.data(), scheduler, seed);
  return status.ok() ? "ok" : status.message();
}

// Every thread writes element 0 of binding 1.
void allWriteOne(SiftEmuContext *c, void **buffers) {
  store(c, 7, static_cast<int32_t *>(buffers[1]),
        static_cast<int32_t>(c->threadId[0]));
}

TEST(EmuAccessCheck, TwoThreadsWritingOneElementRace) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(4),
                                            std::vector<int32_t>(4)};
  std::string message =
      run(launchOf({1, 1, 1}, {2, 1, 1}, 0, {4, 4}), &allWriteOne, buffers);
  EXPECT_EQ(message.rfind("data-race: thread (", 0), 0u) << message;
  EXPECT_NE(message.find("writes byte 0 of binding 1 (access 7)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("wrote (access 7) since the last barrier"),
            std::string::npos)
      << message;
}

TEST(EmuAccessCheck, ARepeatedRunWithoutAccessChecksIgnoresTheRace) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(4),
                                            std::vector<int32_t>(4)};
  Launch launch = launchOf({1, 1, 1}, {2, 1, 1}, 0, {4, 4});
  launch.checkAccesses = false;
  EXPECT_EQ(run(launch, &allWriteOne, buffers), "ok");
}

// Thread 0 writes element 1 of binding 0; after a barrier thread 1 reads
// it. Each workgroup its own element (its block id).
void writeBarrierRead(SiftEmuContext *c, void **buffers) {
  auto *data = static_cast<int32_t *>(buffers[0]) + 2 * c->blockId[0];
  if (c->threadId[0] == 0)
    store(c, 1, data + 1, 5);
  c->barrier(c, 1);
  if (c->threadId[0] == 1)
    store(c, 3, data, load(c, 2, data + 1));
}

TEST(EmuAccessCheck, ABarrierBetweenWriteAndReadIsNoRace) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(8)};
  EXPECT_EQ(
      run(launchOf({4, 1, 1}, {2, 1, 1}, 0, {8}), &writeBarrierRead, buffers),
      "ok");
  for (int g = 0; g < 4; ++g)
    EXPECT_EQ(buffers[0][2 * g], 5);
}

// Workgroup g writes element g; workgroup 1 also reads element 0.
void readAnotherWorkgroupsElement(SiftEmuContext *c, void **buffers) {
  auto *data = static_cast<int32_t *>(buffers[0]);
  store(c, 1, data + c->blockId[0], 1);
  if (c->blockId[0] == 1)
    load(c, 2, data);
}

TEST(EmuAccessCheck, WorkgroupsOfADispatchAreNotOrdered) {
  // Whichever workgroup runs first, one of the two accesses is reported.
  for (uint64_t seed = 0; seed < 4; ++seed) {
    std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(2)};
    std::string message = run(launchOf({2, 1, 1}, {1, 1, 1}, 0, {2}),
                              &readAnotherWorkgroupsElement, buffers, seed);
    EXPECT_EQ(message.rfind("data-race: ", 0), 0u) << message;
    EXPECT_NE(message.find("another workgroup of the dispatch"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("byte 0 of binding 0"), std::string::npos)
        << message;
  }
}

// Every thread of every workgroup reads every element: reads never race.
void everyoneReads(SiftEmuContext *c, void **buffers) {
  auto *data = static_cast<int32_t *>(buffers[0]);
  int32_t sum = 0;
  for (int i = 0; i < 16; ++i)
    sum += load(c, 1, data + i);
  store(c, 2,
        static_cast<int32_t *>(buffers[1]) + c->blockId[0] * 4 + c->threadId[0],
        sum);
}

TEST(EmuAccessCheck, ReadsNeverRace) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(16, 1),
                                            std::vector<int32_t>(16)};
  EXPECT_EQ(
      run(launchOf({4, 1, 1}, {4, 1, 1}, 0, {16, 16}), &everyoneReads, buffers),
      "ok");
  for (int32_t v : buffers[1])
    EXPECT_EQ(v, 16);
}

// Thread 1 reads workgroup memory that thread 0 writes only after.
void readWorkgroupMemoryFirst(SiftEmuContext *c, void **) {
  auto *shared = static_cast<int32_t *>(c->workgroupMemory);
  if (c->threadId[0] == 1)
    load(c, 4, shared + 2, true);
  c->barrier(c, 1);
  if (c->threadId[0] == 0)
    store(c, 5, shared + 2, 1, true);
}

TEST(EmuAccessCheck, WorkgroupMemoryReadBeforeAnyWriteIsUninitialized) {
  std::vector<std::vector<int32_t>> buffers;
  std::string message = run(launchOf({1, 1, 1}, {2, 1, 1}, 16, {}),
                            &readWorkgroupMemoryFirst, buffers);
  EXPECT_EQ(message,
            "uninitialized-read: thread (1, 0, 0) of workgroup (0, 0, 0) "
            "reads byte 8 of workgroup memory (access 4) before any thread "
            "of its workgroup wrote it");
}

// Each workgroup writes its workgroup memory, then reads it after a
// barrier: a new workgroup starts with nothing written again.
void writeThenRead(SiftEmuContext *c, void **buffers) {
  auto *shared = static_cast<int32_t *>(c->workgroupMemory);
  store(c, 1, shared + c->threadId[0], 3, true);
  c->barrier(c, 1);
  int32_t v = load(c, 2, shared + (c->threadId[0] + 1) % 2, true);
  store(c, 3,
        static_cast<int32_t *>(buffers[0]) + 2 * c->blockId[0] + c->threadId[0],
        v);
}

TEST(EmuAccessCheck, WorkgroupMemoryWrittenThenReadAcrossABarrierIsClean) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(6)};
  EXPECT_EQ(
      run(launchOf({3, 1, 1}, {2, 1, 1}, 8, {6}), &writeThenRead, buffers),
      "ok");
  for (int32_t v : buffers[0])
    EXPECT_EQ(v, 3);
}

// Each lane of a warp writes its workgroup slot, then (after a warp sync
// when `sync`) reads its warp neighbour's, as radix_match's exchange does.
template <bool sync> void warpExchange(SiftEmuContext *c, void **buffers) {
  auto *slots = static_cast<int32_t *>(c->workgroupMemory);
  uint32_t t = c->threadId[0];
  store(c, 1, slots + t, static_cast<int32_t>(t), true);
  if (sync)
    c->warp(c, 1, kSiftEmuWarpSync, 0);
  uint32_t next = t / c->warpSize * c->warpSize + (t + 1) % c->warpSize;
  store(c, 3, static_cast<int32_t *>(buffers[0]) + t,
        load(c, 2, slots + next, true));
}

TEST(EmuAccessCheck, AWarpSyncOrdersItsLanesAccesses) {
  for (uint32_t lanes : {32u, 64u}) {
    std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(128)};
    Launch launch = launchOf({1, 1, 1}, {128, 1, 1}, 512, {128});
    launch.warpSize = lanes;
    EXPECT_EQ(run(launch, &warpExchange<true>, buffers), "ok");
    for (uint32_t t = 0; t < 128; ++t)
      EXPECT_EQ(buffers[0][t], int32_t(t / lanes * lanes + (t + 1) % lanes));
  }
}

TEST(EmuAccessCheck, WithoutTheWarpSyncTheExchangeRacesOrReadsUnwritten) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(64)};
  std::string message = run(launchOf({1, 1, 1}, {64, 1, 1}, 256, {64}),
                            &warpExchange<false>, buffers);
  EXPECT_TRUE(message.rfind("data-race: ", 0) == 0 ||
              message.rfind("uninitialized-read: ", 0) == 0)
      << message;
}

// Lanes of two warps: warp 1's lane reads what warp 0's lane wrote before
// warp 0's sync; warp syncs do not order other warps.
void acrossWarps(SiftEmuContext *c, void **) {
  auto *slots = static_cast<int32_t *>(c->workgroupMemory);
  uint32_t t = c->threadId[0];
  if (t == 0)
    store(c, 1, slots, 1, true);
  c->warp(c, 1, kSiftEmuWarpSync, 0);
  if (t == 32)
    load(c, 2, slots, true);
}

TEST(EmuAccessCheck, AWarpSyncDoesNotOrderAnotherWarp) {
  bool raced = false;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(1)};
    std::string message = run(launchOf({1, 1, 1}, {64, 1, 1}, 64, {1}),
                              &acrossWarps, buffers, seed);
    // Warp 1 may run first: then the read is of memory nobody wrote.
    EXPECT_NE(message, "ok");
    raced |= message.rfind("data-race: ", 0) == 0;
  }
  EXPECT_TRUE(raced);
}

/// An atomic add as the target-lowered kernels report it.
void atomicAdd(SiftEmuContext *c, uint32_t site, int32_t *p, int32_t value,
               bool workgroup = false) {
  c->access(c, site, addressOf(p),
            uint32_t{kSiftEmuAccessWrite} | kSiftEmuAccessAtomic |
                kSiftEmuAccessReadsOld | spaceFlag(workgroup));
  *p += value;
}

// Every thread adds to element 0 atomically; with `peek`, thread 1 also
// reads it plainly in the same interval.
template <bool peek> void allAdd(SiftEmuContext *c, void **buffers) {
  auto *data = static_cast<int32_t *>(buffers[0]);
  atomicAdd(c, 1, data, 1);
  if (peek && c->threadId[0] == 1)
    load(c, 2, data);
}

TEST(EmuAccessCheck, AtomicsNeverRaceWithAtomics) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(1, 0)};
  EXPECT_EQ(
      run(launchOf({2, 1, 1}, {32, 1, 1}, 0, {1}), &allAdd<false>, buffers),
      "ok");
  EXPECT_EQ(buffers[0][0], 64);
}

TEST(EmuAccessCheck, APlainReadOfAnAtomicsElementRaces) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(1, 0)};
  std::string message =
      run(launchOf({1, 1, 1}, {32, 1, 1}, 0, {1}), &allAdd<true>, buffers);
  EXPECT_EQ(message.rfind("data-race: ", 0), 0u) << message;
}

// Atomic adds to a workgroup counter nobody cleared: the add reads it.
void addToUncleared(SiftEmuContext *c, void **) {
  atomicAdd(c, 1, static_cast<int32_t *>(c->workgroupMemory), 1, true);
}

TEST(EmuAccessCheck, AnAtomicAddToUnwrittenWorkgroupMemoryReadsIt) {
  std::vector<std::vector<int32_t>> buffers{std::vector<int32_t>(1)};
  std::string message =
      run(launchOf({1, 1, 1}, {4, 1, 1}, 16, {1}), &addToUncleared, buffers);
  EXPECT_EQ(message.rfind("uninitialized-read: ", 0), 0u) << message;
}

} // namespace
