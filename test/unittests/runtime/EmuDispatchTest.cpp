//===- EmuDispatchTest.cpp - One dispatch on the emu device ---------------===//
//
// runDispatch with kernels written by hand to the emu ABI: every thread of
// every workgroup runs with its ids, workgroup memory is shared within a
// workgroup and starts as the fill pattern, the workgroups' order comes
// from the seed, and errors name the workgroup or the launch. The device's
// plan buffers start as the global fill (a GPU's are not zeroed) until an
// upload writes them.
//
//===----------------------------------------------------------------------===//

#include "runtime/emu/Dispatch.h"
#include "runtime/emu/EmuDevice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using sift::emu::Launch;
using sift::emu::launchOf;
using sift::emu::runDispatch;
using sift::emu::SchedulerOptions;
using sift::emu::WorkgroupScheduler;

uint64_t globalThread(const SiftEmuContext *c) {
  uint64_t block = (uint64_t{c->blockId[2]} * c->gridDim[1] + c->blockId[1]) *
                       c->gridDim[0] +
                   c->blockId[0];
  uint64_t thread =
      (uint64_t{c->threadId[2]} * c->blockDim[1] + c->threadId[1]) *
          c->blockDim[0] +
      c->threadId[0];
  return block * c->blockDim[0] * c->blockDim[1] * c->blockDim[2] + thread;
}

void writeGlobalIds(SiftEmuContext *c, void **buffers) {
  static_cast<uint64_t *>(buffers[0])[globalThread(c)] = globalThread(c);
}

TEST(EmuDispatch, EveryThreadOfEveryWorkgroupRuns) {
  WorkgroupScheduler scheduler;
  Launch launch = launchOf({3, 2, 2}, {4, 2, 1}, 0);
  std::vector<uint64_t> out(12 * 8, ~uint64_t{0});
  void *buffers[] = {out.data()};
  ASSERT_TRUE(runDispatch(launch, &writeGlobalIds, buffers, scheduler, 1).ok());
  for (uint64_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out[i], i);
}

/// Each workgroup sums its 64 inputs by a tree in workgroup memory.
void blockSum(SiftEmuContext *c, void **buffers) {
  auto *in = static_cast<const int32_t *>(buffers[0]);
  auto *out = static_cast<int32_t *>(buffers[1]);
  auto *partial = static_cast<int32_t *>(c->workgroupMemory);
  uint32_t t = c->threadId[0], n = c->blockDim[0];
  partial[t] = in[c->blockId[0] * n + t];
  for (uint32_t half = n / 2; half > 0; half /= 2) {
    c->barrier(c, 1);
    if (t < half)
      partial[t] += partial[t + half];
  }
  if (t == 0)
    out[c->blockId[0]] = partial[0];
}

TEST(EmuDispatch, WorkgroupMemoryIsSharedAcrossBarriers) {
  for (uint64_t seed = 0; seed < 5; ++seed) {
    WorkgroupScheduler scheduler(SchedulerOptions{seed});
    std::vector<int32_t> in(8 * 64), out(8, 0);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<int32_t>(i % 7) - 3;
    void *buffers[] = {in.data(), out.data()};
    Launch launch = launchOf({8, 1, 1}, {64, 1, 1}, 64 * sizeof(int32_t));
    ASSERT_TRUE(runDispatch(launch, &blockSum, buffers, scheduler, seed).ok());
    for (int g = 0; g < 8; ++g) {
      int32_t expected = 0;
      for (int i = 0; i < 64; ++i)
        expected += in[g * 64 + i];
      EXPECT_EQ(out[g], expected) << "workgroup " << g << " seed " << seed;
    }
  }
}

void readBeforeWrite(SiftEmuContext *c, void **buffers) {
  auto *bytes = static_cast<unsigned char *>(c->workgroupMemory);
  static_cast<unsigned char *>(buffers[0])[c->blockId[0]] = bytes[0];
  bytes[0] = 0;
}

TEST(EmuDispatch, WorkgroupMemoryStartsAsTheFillInEveryWorkgroup) {
  WorkgroupScheduler scheduler;
  std::vector<unsigned char> out(4, 0);
  void *buffers[] = {out.data()};
  ASSERT_TRUE(runDispatch(launchOf({4, 1, 1}, {1, 1, 1}, 16), &readBeforeWrite,
                          buffers, scheduler, 0)
                  .ok());
  for (unsigned char b : out)
    EXPECT_EQ(b, sift::emu::kWorkgroupFill);
}

void recordOrder(SiftEmuContext *c, void **buffers) {
  auto *order = static_cast<std::vector<uint32_t> *>(buffers[0]);
  order->push_back(c->blockId[0]);
}

std::vector<uint32_t> workgroupOrder(uint64_t seed) {
  WorkgroupScheduler scheduler;
  std::vector<uint32_t> order;
  void *buffers[] = {&order};
  EXPECT_TRUE(runDispatch(launchOf({16, 1, 1}, {1, 1, 1}, 0), &recordOrder,
                          buffers, scheduler, seed)
                  .ok());
  return order;
}

TEST(EmuDispatch, TheSeedDrawsTheWorkgroupsOrder) {
  EXPECT_EQ(workgroupOrder(4), workgroupOrder(4));
  EXPECT_NE(workgroupOrder(4), workgroupOrder(5));
  std::vector<uint32_t> order = workgroupOrder(4);
  std::sort(order.begin(), order.end());
  for (uint32_t g = 0; g < 16; ++g)
    EXPECT_EQ(order[g], g);
}

void divergeInWorkgroupTwo(SiftEmuContext *c, void **) {
  if (c->blockId[0] != 2 || c->threadId[0] != 1)
    c->barrier(c, 3);
}

TEST(EmuDispatch, DivergentBarriersNameTheWorkgroup) {
  WorkgroupScheduler scheduler;
  sift::Status status =
      runDispatch(launchOf({4, 1, 1}, {2, 1, 1}, 0), &divergeInWorkgroupTwo,
                  nullptr, scheduler, 0);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "barrier-divergence: thread 1 left the kernel while thread 0 "
            "waits at barrier 3 (workgroup (2, 0, 0))");
}

TEST(EmuDispatch, LaunchesItCannotRunAreErrors) {
  WorkgroupScheduler scheduler;
  sift::Status empty = runDispatch(launchOf({0, 1, 1}, {1, 1, 1}, 0),
                                   &writeGlobalIds, nullptr, scheduler, 0);
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(),
            "emu: empty launch: grid (0, 1, 1), block (1, 1, 1)");
  sift::Status large = runDispatch(launchOf({1, 1, 1}, {64, 32, 1}, 0),
                                   &writeGlobalIds, nullptr, scheduler, 0);
  ASSERT_FALSE(large.ok());
  EXPECT_EQ(large.message(),
            "emu: block (64, 32, 1) has 2048 threads, more than 1024");
}

// A GPU's allocations are not zeroed: the emu device's buffers hold the
// global fill, so a kernel that reads a temporary before anything wrote it
// sees the fill, not a zero that happens to be right; uploads overwrite it.
TEST(EmuDevice, PlanBuffersStartAsTheGlobalFillUntilUploaded) {
  sift::rt::EmuDevice device;
  sift::rt::PlanBuffer desc;
  desc.type = sift::ElementType::I32;
  desc.shape = {3, 5};
  for (bool queueOrdered : {false, true}) {
    auto buffer =
        queueOrdered ? device.allocateAsync(desc) : device.allocate(desc);
    ASSERT_TRUE(buffer.ok()) << buffer.message();
    ASSERT_EQ((*buffer)->size(), 60u);
    const auto *bytes =
        static_cast<const unsigned char *>((*buffer)->hostPointer());
    EXPECT_TRUE(std::all_of(bytes, bytes + 60, [](unsigned char b) {
      return b == sift::emu::kGlobalFill;
    })) << "queue-ordered " << queueOrdered;
    sift::HostTensor tensor(sift::ElementType::I32, {3, 5});
    for (int64_t i = 0; i < 15; ++i)
      tensor.set<int32_t>(i, static_cast<int32_t>(i) - 7);
    ASSERT_TRUE(device.upload(**buffer, tensor));
    sift::HostTensor back;
    ASSERT_TRUE(device.download(**buffer, back));
    EXPECT_EQ(back.data, tensor.data);
  }
}

} // namespace
