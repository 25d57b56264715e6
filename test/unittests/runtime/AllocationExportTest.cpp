//===- AllocationExportTest.cpp - Allocator selection and DLPack export ---===//
//
// Allocator selection by affinity (IREE #20857) and DLPack export of any
// buffer, queue-ordered device-local ones included (IREE #20170), with the
// faults that re-create both bugs and the oracles that catch them: on the
// cpu device and on fake GPU devices, so CI runs all of it.
//
//===----------------------------------------------------------------------===//

#include "FakeGpuDriver.h"

#include "runtime/AllocatorSelection.h"
#include "runtime/DLPack.h"
#include "runtime/Runner.h"

#include <gtest/gtest.h>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

PlanBuffer used(std::vector<int> affinity, std::vector<int64_t> shape = {4},
                MemoryType memory = MemoryType::DeviceLocal) {
  PlanBuffer buffer;
  buffer.shape = std::move(shape);
  buffer.affinity = std::move(affinity);
  buffer.memory = memory;
  return buffer;
}

TEST(AllocatorSelection, DefaultIsTheFirstUser) {
  AllocatorSelector selector(3, firstUserPolicy());
  EXPECT_EQ(*selector.select(used({})), 0);
  EXPECT_EQ(*selector.select(used({2, 1})), 1);
  EXPECT_EQ(*selector.select(used({2})), 2);
}

TEST(AllocatorSelection, LeadAllocatorWhereItIsAUser) {
  AllocatorSelector selector(3, leadAllocatorPolicy(2));
  EXPECT_EQ(*selector.select(used({1, 2})), 2);
  EXPECT_EQ(*selector.select(used({0, 1})), 0); // 2 does not use it.
}

// The policy runs once per (affinity set, memory types, usage); sizes and
// the order of the affinity list do not matter.
TEST(AllocatorSelection, MemoizedPerKeyNeverPerSize) {
  int calls = 0;
  AllocatorSelector selector(
      4, [&](const std::vector<int> &users, MemoryType, BufferUsage) {
        ++calls;
        return users.back();
      });
  EXPECT_EQ(*selector.select(used({1, 3}, {4})), 3);
  EXPECT_EQ(*selector.select(used({3, 1}, {4096})), 3);
  EXPECT_EQ(*selector.select(used({1, 3}, {0, 7})), 3);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(*selector.select(used({1, 3}, {4}, MemoryType::HostVisible)), 3);
  PlanBuffer exported = used({1, 3});
  exported.usage = BufferUsage::Export;
  EXPECT_EQ(*selector.select(exported), 3);
  EXPECT_EQ(*selector.select(used({1})), 1);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(selector.policyCalls(), 4);
}

TEST(AllocatorSelection, BadOrdinalsAreClearErrors) {
  AllocatorSelector selector(2, firstUserPolicy());
  Result<int> missing = selector.select(used({5}));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(),
            "the buffer is used by device 5, but this run has 2 devices");
  AllocatorSelector wild(2, [](const std::vector<int> &, MemoryType,
                               BufferUsage) { return 7; });
  EXPECT_EQ(wild.select(used({})).message(),
            "the allocator policy chose device 7 of 2");
  EXPECT_EQ(*parseLeadAllocator("1", 2), 1);
  for (const char *bad : {"2", "-1", "x", ""})
    EXPECT_EQ(parseLeadAllocator(bad, 2).message(),
              std::string("--device-lead-allocator=") + bad +
                  ": expected a device ordinal from 0 to 1 (this run has 2 "
                  "devices)");
  EXPECT_EQ(parseLeadAllocator("1", 1).message(),
            "--device-lead-allocator=1: expected a device ordinal from 0 to "
            "0 (this run has 1 device)");
}

/// The copy plan plus a temporary used only by device 1.
Artifact twoDevicePlan() {
  Artifact artifact = copyArtifact(ExecutableFormat::Ptx, "copy");
  PlanBuffer scratch;
  scratch.shape = {16};
  scratch.affinity = {1};
  artifact.plan.buffers.push_back(scratch);
  return artifact;
}

class TwoDevices : public ::testing::Test {
protected:
  std::vector<Launch> launches0, launches1;
  std::unique_ptr<Device> gpu0 = createDriverDevice(
      std::make_unique<FakeDriver>(ExecutableFormat::Ptx, launches0));
  std::unique_ptr<Device> gpu1 = createDriverDevice(
      std::make_unique<FakeDriver>(ExecutableFormat::Ptx, launches1));
  std::vector<Device *> devices{gpu0.get(), gpu1.get()};
};

TEST_F(TwoDevices, EachBufferOnAUser) {
  Result<std::vector<HostTensor>> outputs =
      runPlan(devices, twoDevicePlan(), {fourFloats()}, PlanRunOptions());
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0].data, fourFloats().data);
  EXPECT_EQ(launches0.size(), 1u);
  EXPECT_TRUE(launches1.empty());
}

// Fault alloc-select-first: device 0 allocates the buffer only device 1
// uses; the affinity oracle names it.
TEST_F(TwoDevices, AllocSelectFirstIsCaught) {
  PlanRunOptions options;
  options.faults.insert(Fault::AllocSelectFirst);
  Result<std::vector<HostTensor>> outputs =
      runPlan(devices, twoDevicePlan(), {fourFloats()}, options);
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(),
            "buffer 2 is used by device(s) {1} but was allocated by device 0, "
            "which does not use it (allocator selection ignored the buffer's "
            "affinity)");
}

TEST_F(TwoDevices, LeadAllocatorOverridesWhereItIsAUser) {
  Artifact artifact = twoDevicePlan();
  artifact.plan.buffers[2].affinity = {0, 1};
  int chosen = -1;
  PlanRunOptions options;
  options.allocatorPolicy = [&](const std::vector<int> &users, MemoryType m,
                                BufferUsage u) {
    int lead = leadAllocatorPolicy(1)(users, m, u);
    if (users.size() == 2)
      chosen = lead;
    return lead;
  };
  ASSERT_TRUE(runPlan(devices, artifact, {fourFloats()}, options).ok());
  EXPECT_EQ(chosen, 1);
}

/// Every output exported as DLPack and checked, sync and queue-ordered, on
/// the cpu device and a fake GPU; fault export-device-local refuses only
/// queue-ordered device-local buffers.
class Export : public ::testing::TestWithParam<bool> {};

TEST_P(Export, AnyBufferExports) {
  bool async = GetParam();
  for (DeviceKind kind : {DeviceKind::Cpu, DeviceKind::Cuda}) {
    std::vector<Launch> launches;
    std::unique_ptr<Device> device =
        kind == DeviceKind::Cpu
            ? std::move(*createDevice(DeviceKind::Cpu))
            : createDriverDevice(std::make_unique<FakeDriver>(
                  ExecutableFormat::Ptx, launches));
    for (MemoryType memory :
         {MemoryType::DeviceLocal, MemoryType::HostVisible,
          MemoryType::DeviceLocal | MemoryType::HostVisible}) {
      PlanBuffer desc = used({}, {2, 3}, memory);
      desc.type = ElementType::F16;
      desc.usage = BufferUsage::Dispatch | BufferUsage::Export;
      Result<std::unique_ptr<Buffer>> buffer =
          async ? device->allocateAsync(desc) : device->allocate(desc);
      ASSERT_TRUE(buffer.ok()) << buffer.message();
      EXPECT_EQ((*buffer)->queueOrdered(), async);
      Result<dlpack::ManagedTensor *> tensor =
          exportDlpack(*device, std::move(*buffer));
      ASSERT_TRUE(tensor.ok()) << tensor.message();
      EXPECT_TRUE(checkDlpackTensor(**tensor, desc, kind).ok());
      EXPECT_EQ((*tensor)->dl_tensor.device.device_type,
                kind == DeviceKind::Cpu ? dlpack::kCPU : dlpack::kCUDA);
      EXPECT_EQ((*tensor)->dl_tensor.dtype.bits, 16);
      EXPECT_EQ((*tensor)->dl_tensor.shape[1], 3);
      (*tensor)->deleter(*tensor);

      // The same with the fault: only queue-ordered device-local memory is
      // refused.
      FaultSet faults;
      faults.insert(Fault::ExportDeviceLocal);
      buffer = async ? device->allocateAsync(desc) : device->allocate(desc);
      ASSERT_TRUE(buffer.ok());
      tensor = exportDlpack(*device, std::move(*buffer), faults);
      bool refused = async && hasAll(memory, MemoryType::DeviceLocal);
      ASSERT_EQ(tensor.ok(), !refused) << toString(memory);
      if (refused)
        EXPECT_EQ(tensor.message(),
                  "cannot export a queue-ordered device_local buffer "
                  "(injected fault export-device-local, IREE #20170)");
      else
        (*tensor)->deleter(*tensor);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SyncAndAsync, Export, ::testing::Bool(),
                         [](const auto &info) {
                           return info.param ? "queue_ordered" : "in_order";
                         });

TEST(ExportOracle, RunPlanExportsEveryOutput) {
  std::vector<Launch> launches;
  std::unique_ptr<Device> gpu = createDriverDevice(
      std::make_unique<FakeDriver>(ExecutableFormat::Hsaco, launches));
  PlanRunOptions options;
  options.asyncAllocation = true;
  options.exportOutputs = true;
  Artifact artifact = copyArtifact(ExecutableFormat::Hsaco, "copy");
  Result<std::vector<HostTensor>> outputs =
      runPlan({gpu.get()}, artifact, {fourFloats()}, options);
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0].data, fourFloats().data);
  options.faults.insert(Fault::ExportDeviceLocal);
  outputs = runPlan({gpu.get()}, artifact, {fourFloats()}, options);
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(),
            "output buffer 1: DLPack export failed: cannot export a "
            "queue-ordered device_local buffer (injected fault "
            "export-device-local, IREE #20170)");
}

TEST(ExportOracle, ExportNeedsTheUsage) {
  std::unique_ptr<Device> device = std::move(*createDevice(DeviceKind::Cpu));
  PlanBuffer desc = used({});
  Result<std::unique_ptr<Buffer>> buffer = device->allocate(desc);
  ASSERT_TRUE(buffer.ok());
  Result<dlpack::ManagedTensor *> tensor =
      exportDlpack(*device, std::move(*buffer));
  ASSERT_FALSE(tensor.ok());
  EXPECT_EQ(tensor.message(), "cannot export a buffer whose usage "
                              "(dispatch|transfer) lacks 'export'");
}

TEST(ExportOracle, LayoutMatchesDlpackWhereInstalled) {
  if (!dlpack::layoutChecked())
    GTEST_SKIP() << "no <dlpack/dlpack.h> at build time (libdlpack-dev): "
                    "the layout was not checked";
  SUCCEED() << "checked at compile time against <dlpack/dlpack.h>";
}

} // namespace
