//===- EmuWorkgroupTest.cpp - A workgroup's threads as fibers -------------===//
//
// The emu device's workgroup scheduler: every thread runs once, a barrier
// holds every thread until all have reached it, the order within a round
// comes from the seed (the same seed, the same order), and barriers that
// diverge are errors naming the threads and barriers. Warp operations:
// a ballot gathers the votes of a warp's lanes (32 or 64, the last warp of
// a workgroup partial), a sync orders a warp's lanes without a barrier,
// and lanes that miss their warp's operation are a barrier-divergence.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/EmuAbi.h"
#include "runtime/emu/Workgroup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using sift::emu::SchedulerOptions;
using sift::emu::WorkgroupScheduler;

TEST(EmuWorkgroup, EveryThreadRunsOnce) {
  WorkgroupScheduler scheduler;
  std::vector<int> runs(100, 0);
  ASSERT_TRUE(scheduler
                  .run(100, 0,
                       [&](uint32_t t) {
                         EXPECT_EQ(scheduler.current(), t);
                         ++runs[t];
                       })
                  .ok());
  for (int r : runs)
    EXPECT_EQ(r, 1);
  EXPECT_EQ(scheduler.rounds(), 1u);
}

/// Thread t writes slot t, then reads its neighbour's slot: right after a
/// barrier whatever the order, stale before one under some order.
std::vector<int> neighbours(WorkgroupScheduler &scheduler, uint32_t threads,
                            bool withBarrier) {
  std::vector<int> slots(threads, -1), seen(threads, -2);
  sift::Status status = scheduler.run(threads, 0, [&](uint32_t t) {
    slots[t] = static_cast<int>(t);
    if (withBarrier)
      scheduler.barrier(1);
    seen[t] = slots[(t + 1) % threads];
  });
  EXPECT_TRUE(status.ok()) << (status.ok() ? "" : status.message());
  return seen;
}

TEST(EmuWorkgroup, ABarrierWaitsForEveryThread) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    WorkgroupScheduler scheduler(SchedulerOptions{seed});
    std::vector<int> seen = neighbours(scheduler, 64, true);
    for (uint32_t t = 0; t < 64; ++t)
      ASSERT_EQ(seen[t], static_cast<int>((t + 1) % 64)) << "seed " << seed;
    EXPECT_EQ(scheduler.rounds(), 2u);
  }
}

TEST(EmuWorkgroup, WithoutTheBarrierSomeOrderReadsAStaleSlot) {
  bool stale = false;
  for (uint64_t seed = 0; seed < 20 && !stale; ++seed) {
    WorkgroupScheduler scheduler(SchedulerOptions{seed});
    for (int v : neighbours(scheduler, 64, false))
      stale |= v == -1;
  }
  EXPECT_TRUE(stale);
}

std::vector<uint32_t> firstRoundOrder(uint64_t seed, uint64_t round) {
  WorkgroupScheduler scheduler(SchedulerOptions{seed});
  std::vector<uint32_t> order;
  EXPECT_TRUE(
      scheduler.run(32, round, [&](uint32_t t) { order.push_back(t); }).ok());
  return order;
}

TEST(EmuWorkgroup, TheSeedDrawsTheOrder) {
  EXPECT_EQ(firstRoundOrder(7, 0), firstRoundOrder(7, 0));
  EXPECT_NE(firstRoundOrder(7, 0), firstRoundOrder(8, 0));
  EXPECT_NE(firstRoundOrder(7, 0), firstRoundOrder(7, 1));
}

TEST(EmuWorkgroup, BarriersInALoop) {
  WorkgroupScheduler scheduler(SchedulerOptions{3});
  constexpr uint32_t kThreads = 16;
  std::vector<int> value(kThreads, 0);
  ASSERT_TRUE(scheduler
                  .run(kThreads, 0,
                       [&](uint32_t t) {
                         // Each step adds the neighbour's value of the
                         // previous step: after the loop every slot holds
                         // the same sum.
                         value[t] = 1;
                         for (int step = 0; step < 4; ++step) {
                           scheduler.barrier(1);
                           int neighbour = value[(t + 1) % kThreads];
                           scheduler.barrier(2);
                           value[t] += neighbour;
                         }
                       })
                  .ok());
  for (int v : value)
    EXPECT_EQ(v, 16);
  EXPECT_EQ(scheduler.rounds(), 9u);
}

TEST(EmuWorkgroup, AThreadLeavingWhileOthersWaitDiverges) {
  WorkgroupScheduler scheduler;
  sift::Status status = scheduler.run(8, 0, [&](uint32_t t) {
    if (t % 2 == 0)
      scheduler.barrier(5);
  });
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("barrier-divergence: thread 1 left the "
                                  "kernel while thread 0 waits at barrier 5"),
            std::string::npos)
      << status.message();
}

TEST(EmuWorkgroup, DifferentBarriersDiverge) {
  WorkgroupScheduler scheduler;
  sift::Status status = scheduler.run(
      4, 0, [&](uint32_t t) { scheduler.barrier(t < 2 ? 1 : 2); });
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("thread 0 waits at barrier 1, thread 2 at "
                                  "barrier 2"),
            std::string::npos)
      << status.message();
}

TEST(EmuWorkgroup, TheSchedulerRunsAgainAfterAnError) {
  WorkgroupScheduler scheduler;
  EXPECT_FALSE(scheduler
                   .run(4, 0,
                        [&](uint32_t t) {
                          if (t == 0)
                            scheduler.barrier(1);
                        })
                   .ok());
  std::vector<int> seen = neighbours(scheduler, 4, true);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 0}));
}

/// Every lane votes (t % 3 == 0) in two ballots; each records both masks.
void ballots(uint32_t threads, uint32_t lanes, uint64_t seed) {
  WorkgroupScheduler scheduler(SchedulerOptions{seed});
  scheduler.setWarpSize(lanes);
  std::vector<uint64_t> first(threads), second(threads);
  sift::Status status = scheduler.run(threads, 0, [&](uint32_t t) {
    first[t] = scheduler.warp(1, kSiftEmuWarpBallot, t % 3 == 0);
    second[t] = scheduler.warp(2, kSiftEmuWarpBallot, t % 2);
  });
  ASSERT_TRUE(status.ok()) << status.message();
  for (uint32_t t = 0; t < threads; ++t) {
    uint32_t base = t / lanes * lanes;
    uint64_t wantFirst = 0, wantSecond = 0;
    for (uint32_t u = base; u < std::min(threads, base + lanes); ++u) {
      wantFirst |= uint64_t{u % 3 == 0} << (u - base);
      wantSecond |= uint64_t{u % 2} << (u - base);
    }
    ASSERT_EQ(first[t], wantFirst) << "thread " << t << " seed " << seed;
    ASSERT_EQ(second[t], wantSecond) << "thread " << t << " seed " << seed;
  }
  // Warp operations are no barriers: one round.
  EXPECT_EQ(scheduler.rounds(), 1u);
}

TEST(EmuWorkgroup, ABallotGathersItsWarpsVotes) {
  for (uint64_t seed = 0; seed < 8; ++seed) {
    ballots(96, 32, seed);
    ballots(80, 64, seed); // wave64, the second wave of 16 lanes
    ballots(7, 32, seed);
  }
}

TEST(EmuWorkgroup, AWarpSyncOrdersItsLanes) {
  // Lane t writes slot t, syncs its warp, reads its warp neighbour's slot:
  // right whatever the order, with no barrier.
  for (uint64_t seed = 0; seed < 16; ++seed) {
    WorkgroupScheduler scheduler(SchedulerOptions{seed});
    std::vector<int> slots(64, -1), seen(64, -2);
    ASSERT_TRUE(scheduler
                    .run(64, 0,
                         [&](uint32_t t) {
                           slots[t] = static_cast<int>(t);
                           scheduler.warp(4, kSiftEmuWarpSync, 0);
                           seen[t] = slots[t / 32 * 32 + (t + 1) % 32];
                         })
                    .ok());
    for (uint32_t t = 0; t < 64; ++t)
      ASSERT_EQ(seen[t], static_cast<int>(t / 32 * 32 + (t + 1) % 32));
    EXPECT_EQ(scheduler.warpEpoch(0), 1u);
    EXPECT_EQ(scheduler.warpEpoch(63), 1u);
  }
}

TEST(EmuWorkgroup, WithoutTheSyncSomeOrderSeesAStaleSlot) {
  bool stale = false;
  for (uint64_t seed = 0; seed < 16 && !stale; ++seed) {
    WorkgroupScheduler scheduler(SchedulerOptions{seed});
    std::vector<int> slots(32, -1), seen(32, -2);
    ASSERT_TRUE(scheduler
                    .run(32, 0,
                         [&](uint32_t t) {
                           slots[t] = static_cast<int>(t);
                           seen[t] = slots[(t + 1) % 32];
                         })
                    .ok());
    for (uint32_t t = 0; t < 32; ++t)
      stale |= seen[t] == -1;
  }
  EXPECT_TRUE(stale);
}

TEST(EmuWorkgroup, ALaneThatLeavesDivergesItsWarp) {
  WorkgroupScheduler scheduler;
  sift::Status status = scheduler.run(64, 0, [&](uint32_t t) {
    if (t != 37)
      scheduler.warp(3, kSiftEmuWarpBallot, 1);
  });
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("barrier-divergence: thread 32 waits at warp "
                                  "operation 3 while thread 37 of its warp "
                                  "left the kernel"),
            std::string::npos)
      << status.message();
}

TEST(EmuWorkgroup, LanesAtDifferentWarpOperationsDiverge) {
  WorkgroupScheduler scheduler;
  sift::Status status = scheduler.run(32, 0, [&](uint32_t t) {
    scheduler.warp(t == 5 ? 2 : 1, kSiftEmuWarpSync, 0);
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("barrier-divergence: thread ", 0), 0u)
      << status.message();
  // The scheduler is usable again.
  std::vector<int> seen = neighbours(scheduler, 4, true);
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 0}));
}

} // namespace

/// Lane l of each warp reads lane (l + 5) % lanes of its own warp, twice
/// (the second time from a value changed in between), in any order.
TEST(EmuWorkgroup, AShuffleReadsTheNamedLaneOfItsWarp) {
  for (uint32_t lanes : {32u, 64u})
    for (uint64_t seed = 0; seed < 4; ++seed) {
      WorkgroupScheduler scheduler(SchedulerOptions{seed});
      scheduler.setWarpSize(lanes);
      std::vector<uint64_t> first(128), second(128);
      auto packed = [&](uint32_t t, uint64_t value) {
        uint64_t source = (t % lanes + 5) % lanes;
        return value | source << 32;
      };
      ASSERT_TRUE(scheduler
                      .run(128, 0,
                           [&](uint32_t t) {
                             first[t] = scheduler.warp(
                                 1, kSiftEmuWarpShuffle, packed(t, 1000 + t));
                             second[t] = scheduler.warp(
                                 2, kSiftEmuWarpShuffle,
                                 packed(t, 0xffffffffu - t));
                           })
                      .ok());
      for (uint32_t t = 0; t < 128; ++t) {
        uint32_t from = t / lanes * lanes + (t % lanes + 5) % lanes;
        ASSERT_EQ(first[t], 1000u + from) << "thread " << t;
        ASSERT_EQ(second[t], 0xffffffffu - from) << "thread " << t;
      }
      EXPECT_EQ(scheduler.warpEpoch(0), 2u);
    }
}

TEST(EmuWorkgroup, AShuffleFromALaneThePartialWarpLacksIsOutOfBounds) {
  WorkgroupScheduler scheduler;
  // 40 threads: the second warp of 32 has 8 lanes; lane 3 of it reads 12.
  sift::Status status = scheduler.run(40, 0, [&](uint32_t t) {
    uint64_t source = t == 35 ? 12 : t % 32 % 8;
    scheduler.warp(4, kSiftEmuWarpShuffle, uint64_t{t} | source << 32);
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("out-of-bounds: thread 35 reads lane 12 in "
                                   "a shuffle (warp operation 4), which its "
                                   "warp of 8 lanes does not have",
                                   0),
            0u)
      << status.message();
}
