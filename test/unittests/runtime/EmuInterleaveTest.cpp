//===- EmuInterleaveTest.cpp - Workgroups of a dispatch at once -----------===//
//
// runDispatch holding several workgroups at once, interleaved at global
// atomics (Dispatch.h): a chained scan by ticket, whose look-back finds its
// predecessor's flag unwritten under some seed and still sums right;
// workgroup memory that stays each workgroup's own while others run; and
// spins that no running workgroup can end, which are a `hang` error (in
// bounded time), whether nothing ever writes the flag or the kernel waits
// for a workgroup by its id that has not started.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Dispatch.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using sift::emu::Launch;
using sift::emu::launchOf;
using sift::emu::runDispatch;
using sift::emu::WorkgroupScheduler;

uint64_t addressOf(const void *p) { return reinterpret_cast<uint64_t>(p); }

/// An atomic as the lowered kernels make one: report, then access.
uint32_t atomicAdd(SiftEmuContext *c, uint32_t site, uint32_t *p,
                   uint32_t value) {
  c->access(c, site, addressOf(p),
            kSiftEmuAccessWrite | kSiftEmuAccessAtomic |
                kSiftEmuAccessReadsOld);
  return __atomic_fetch_add(p, value, __ATOMIC_RELAXED);
}

uint32_t atomicLoad(SiftEmuContext *c, uint32_t site, const uint32_t *p) {
  c->access(c, site, addressOf(p), kSiftEmuAccessAtomic);
  return __atomic_load_n(p, __ATOMIC_RELAXED);
}

void atomicStore(SiftEmuContext *c, uint32_t site, uint32_t *p,
                 uint32_t value) {
  c->access(c, site, addressOf(p), kSiftEmuAccessWrite | kSiftEmuAccessAtomic);
  __atomic_store_n(p, value, __ATOMIC_RELAXED);
}

// buffers: [0] the ticket counter, [1] each tile's published inclusive sum
// plus one (0: unpublished), [2] the tiles' values, [3] the count of loads
// that found a predecessor unpublished, [4] each tile's exclusive sum.
// One thread a workgroup: takes a ticket, waits for its predecessor's sum.
void chainedScan(SiftEmuContext *c, void **buffers) {
  auto *ticket = static_cast<uint32_t *>(buffers[0]);
  auto *flags = static_cast<uint32_t *>(buffers[1]);
  auto *values = static_cast<const uint32_t *>(buffers[2]);
  auto *waits = static_cast<uint32_t *>(buffers[3]);
  auto *exclusive = static_cast<uint32_t *>(buffers[4]);
  uint32_t tile = atomicAdd(c, 1, ticket, 1);
  uint32_t before = 0;
  if (tile > 0) {
    uint32_t word;
    while ((word = atomicLoad(c, 2, &flags[tile - 1])) == 0)
      ++*waits; // private to this test: not reported
    before = word - 1;
  }
  exclusive[tile] = before;
  atomicStore(c, 3, &flags[tile], before + values[tile] + 1);
}

struct Scan {
  std::vector<uint32_t> ticket{0}, flags, values, waits{0}, exclusive;
  explicit Scan(uint32_t tiles)
      : flags(tiles, 0), values(tiles), exclusive(tiles, 0) {
    for (uint32_t t = 0; t < tiles; ++t)
      values[t] = t * 7 % 5 + 1;
  }
  sift::Status run(uint32_t resident, uint64_t seed) {
    Launch launch = launchOf({static_cast<uint32_t>(flags.size()), 1, 1},
                             {1, 1, 1}, 0);
    launch.resident = resident;
    void *buffers[] = {ticket.data(), flags.data(), values.data(),
                       waits.data(), exclusive.data()};
    WorkgroupScheduler scheduler;
    return runDispatch(launch, &chainedScan, buffers, scheduler, seed);
  }
};

TEST(EmuInterleave, ALookBackWaitsForAStartedPredecessorAndSumsRight) {
  uint32_t sawWait = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Scan scan(12);
    sift::Status status = scan.run(/*resident=*/0, seed);
    ASSERT_TRUE(status.ok()) << "seed " << seed << ": " << status.message();
    uint32_t sum = 0;
    for (uint32_t t = 0; t < 12; ++t) {
      EXPECT_EQ(scan.exclusive[t], sum) << "seed " << seed << " tile " << t;
      sum += scan.values[t];
    }
    sawWait += scan.waits[0] > 0;
  }
  // Workgroups interleave: some predecessor was seen unpublished.
  EXPECT_GT(sawWait, 0u);
}

TEST(EmuInterleave, OneResidentWorkgroupNeverWaits) {
  for (uint64_t seed = 0; seed < 5; ++seed) {
    Scan scan(12);
    ASSERT_TRUE(scan.run(/*resident=*/1, seed).ok());
    EXPECT_EQ(scan.waits[0], 0u) << "seed " << seed;
  }
}

TEST(EmuInterleave, TheSeedDrawsTwoToFourResidents) {
  Launch launch = launchOf({100, 1, 1}, {1, 1, 1}, 0);
  bool seen[5] = {};
  for (uint64_t seed = 0; seed < 64; ++seed) {
    uint32_t resident = sift::emu::residentWorkgroups(launch, seed, 100);
    ASSERT_GE(resident, 2u);
    ASSERT_LE(resident, 4u);
    seen[resident] = true;
  }
  EXPECT_TRUE(seen[2] && seen[3] && seen[4]);
  EXPECT_EQ(sift::emu::residentWorkgroups(launch, 3, 1), 1u);
  launch.resident = 1;
  EXPECT_EQ(sift::emu::residentWorkgroups(launch, 3, 100), 1u);
}

// Each workgroup writes its id into its workgroup memory, lets the others
// run (a global atomic), and reads it back.
void keepsItsWorkgroupMemory(SiftEmuContext *c, void **buffers) {
  auto *own = static_cast<uint32_t *>(c->workgroupMemory);
  auto *out = static_cast<uint32_t *>(buffers[1]);
  own[0] = c->blockId[0];
  for (int i = 0; i < 4; ++i)
    atomicAdd(c, 1, static_cast<uint32_t *>(buffers[0]), 1);
  out[c->blockId[0]] = own[0];
}

TEST(EmuInterleave, EachResidentWorkgroupKeepsItsOwnMemory) {
  for (uint64_t seed = 0; seed < 8; ++seed) {
    std::vector<uint32_t> counter{0}, out(9, 99);
    void *buffers[] = {counter.data(), out.data()};
    Launch launch = launchOf({9, 1, 1}, {1, 1, 1}, 16);
    launch.resident = 4;
    WorkgroupScheduler scheduler;
    ASSERT_TRUE(
        runDispatch(launch, &keepsItsWorkgroupMemory, buffers, scheduler, seed)
            .ok());
    EXPECT_EQ(counter[0], 36u);
    for (uint32_t g = 0; g < 9; ++g)
      EXPECT_EQ(out[g], g) << "seed " << seed;
  }
}

// Spins on a flag nothing writes.
void spinForever(SiftEmuContext *c, void **buffers) {
  while (atomicLoad(c, 5, static_cast<const uint32_t *>(buffers[0])) == 0) {
  }
}

TEST(EmuInterleave, ASpinNothingEndsIsAHang) {
  for (uint32_t resident : {1u, 3u}) {
    std::vector<uint32_t> flag{0};
    void *buffers[] = {flag.data()};
    Launch launch = launchOf({6, 1, 1}, {2, 1, 1}, 0);
    launch.resident = resident;
    WorkgroupScheduler scheduler;
    sift::Status status =
        runDispatch(launch, &spinForever, buffers, scheduler, 0);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.message().rfind("hang: workgroup (", 0), 0u)
        << status.message();
    EXPECT_NE(status.message().find("(the last at access 5 of the kernel)"),
              std::string::npos)
        << status.message();
  }
}

// Tile by block id, not by ticket: block b waits for block b - 1's flag,
// which hangs when every resident waits for one that has not started.
void waitForBlockBefore(SiftEmuContext *c, void **buffers) {
  auto *flags = static_cast<uint32_t *>(buffers[0]);
  uint32_t b = c->blockId[0];
  if (b > 0)
    while (atomicLoad(c, 4, &flags[b - 1]) == 0) {
    }
  atomicStore(c, 6, &flags[b], 1);
}

TEST(EmuInterleave, WaitingForAWorkgroupThatHasNotStartedHangs) {
  uint32_t hangs = 0;
  for (uint64_t seed = 0; seed < 6; ++seed) {
    std::vector<uint32_t> flags(16, 0);
    void *buffers[] = {flags.data()};
    Launch launch = launchOf({16, 1, 1}, {1, 1, 1}, 0);
    launch.resident = 2;
    WorkgroupScheduler scheduler;
    sift::Status status =
        runDispatch(launch, &waitForBlockBefore, buffers, scheduler, seed);
    if (status.ok())
      continue;
    EXPECT_EQ(status.message().rfind("hang: ", 0), 0u) << status.message();
    EXPECT_NE(status.message().find("workgroups wait to start"),
              std::string::npos);
    ++hangs;
  }
  EXPECT_GT(hangs, 0u);
}

} // namespace
