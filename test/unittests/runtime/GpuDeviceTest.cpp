//===- GpuDeviceTest.cpp - The GPU device up to the launch ----------------===//
//
// The cuda and hip devices are one Device over a GpuDriver. A fake driver
// (host memory, recorded launches) runs everything up to the launch on any
// machine: allocation, copies, module load and lookup, the kernel ABI (one
// device pointer per binding, in binding order), launch limits, timing and
// error propagation. The hip device's own tests cover what a host without
// HIP or without an AMD GPU is told.
//
//===----------------------------------------------------------------------===//

#include "FakeGpuDriver.h"

#include "runtime/Runner.h"
#include "runtime/gpu/ModuleCache.h"
#include "runtime/hip/HipDevice.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <list>
#include <map>
#include <optional>
#include <thread>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

class GpuDeviceTest : public ::testing::TestWithParam<ExecutableFormat> {
protected:
  std::vector<Launch> launches;
  FakeDriver *driver = nullptr;
  std::unique_ptr<Device> device() {
    auto fake = std::make_unique<FakeDriver>(GetParam(), launches);
    driver = fake.get();
    return createDriverDevice(std::move(fake));
  }
};

TEST_P(GpuDeviceTest, RunsAPlanThroughTheDriver) {
  std::unique_ptr<Device> gpu = device();
  EXPECT_EQ(gpu->kind(), GetParam() == ExecutableFormat::Ptx ? DeviceKind::Cuda
                                                             : DeviceKind::Hip);
  HostTensor input = fourFloats();
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, copyArtifact(GetParam(), "copy"), {input});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0].data, input.data);
  ASSERT_EQ(launches.size(), 1u);
  EXPECT_EQ(launches[0].grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(launches[0].block, (std::array<uint32_t, 3>{32, 2, 1}));
  // One pointer per binding, distinct, in binding order.
  ASSERT_EQ(launches[0].pointers.size(), 2u);
  EXPECT_NE(launches[0].pointers[0], launches[0].pointers[1]);
  EXPECT_EQ(driver->images.back(), "kern");
  EXPECT_EQ(driver->unloads, 1);
  EXPECT_EQ(gpuTimes(*gpu).kernels, std::chrono::microseconds(1500));
}

// A benchmark's runs: buffers, inputs and the module made ready once, then
// the same launch on the same pointers; poisoned outputs show whether the
// next run wrote them.
TEST_P(GpuDeviceTest, PreparedPlanRunsAgainOnTheSameBuffers) {
  std::unique_ptr<Device> gpu = device();
  HostTensor input = fourFloats();
  Artifact artifact = copyArtifact(GetParam(), "copy");
  Result<std::unique_ptr<PreparedPlan>> plan =
      PreparedPlan::prepare(*gpu, artifact, {input});
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_TRUE(launches.empty());
  for (int run = 0; run < 3; ++run)
    ASSERT_TRUE((*plan)->run().ok());
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[1].pointers, launches[0].pointers);
  EXPECT_EQ(launches[2].pointers, launches[0].pointers);
  EXPECT_EQ(driver->images.size(), 1u);
  // Each run is timed (the fake's events say 1.5 ms).
  EXPECT_EQ(gpuTimes(*gpu).kernels, std::chrono::microseconds(4500));

  ASSERT_TRUE((*plan)->poisonOutputs().ok());
  Result<std::vector<HostTensor>> outputs = (*plan)->outputs();
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0].data, std::vector<uint8_t>(input.data.size(), 0xFF));
  ASSERT_TRUE((*plan)->run().ok());
  outputs = (*plan)->outputs();
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0].data, input.data);
  EXPECT_TRUE((*plan)->checkInputsUnchanged({input}).ok());
}

// A kernel that writes its input (here the copy runs backwards, the
// poisoned output into the input) would time other data the next run.
TEST_P(GpuDeviceTest, PreparedPlanSeesAWrittenInput) {
  std::unique_ptr<Device> gpu = device();
  HostTensor input = fourFloats();
  Artifact artifact = copyArtifact(GetParam(), "copy");
  artifact.plan.dispatches[0].bindings = {1, 0};
  Result<std::unique_ptr<PreparedPlan>> plan =
      PreparedPlan::prepare(*gpu, artifact, {input});
  ASSERT_TRUE(plan.ok()) << plan.message();
  EXPECT_TRUE((*plan)->checkInputsUnchanged({input}).ok());
  ASSERT_TRUE((*plan)->poisonOutputs().ok());
  ASSERT_TRUE((*plan)->run().ok());
  Status changed = (*plan)->checkInputsUnchanged({input});
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.message(),
            "input 0 changed during the runs (a kernel wrote it)");
}

TEST_P(GpuDeviceTest, PreparedPlanChecksLikeRunPlan) {
  std::unique_ptr<Device> gpu = device();
  Artifact artifact = copyArtifact(GetParam(), "copy");
  HostTensor wrong(ElementType::I64, {4});
  Result<std::unique_ptr<PreparedPlan>> plan =
      PreparedPlan::prepare(*gpu, artifact, {wrong});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.message().find("input 0: expected"), std::string::npos)
      << plan.message();
  driver->failAllocation = true;
  plan = PreparedPlan::prepare(*gpu, artifact, {fourFloats()});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.message().find("out of memory"), std::string::npos)
      << plan.message();
  EXPECT_TRUE(launches.empty());
}

TEST_P(GpuDeviceTest, RefusesTheOtherVendorsCode) {
  std::unique_ptr<Device> gpu = device();
  ExecutableFormat other = GetParam() == ExecutableFormat::Ptx
                               ? ExecutableFormat::Hsaco
                               : ExecutableFormat::Ptx;
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, copyArtifact(other, "copy"), {fourFloats()});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(),
            "executable 0: the " + std::string(toString(gpu->kind())) +
                " device runs " + std::string(toString(GetParam())) +
                " executables, not " + std::string(toString(other)));
}

TEST_P(GpuDeviceTest, LaunchLimitsAndAbiAreChecked) {
  std::unique_ptr<Device> gpu = device();
  Artifact artifact = copyArtifact(GetParam(), "copy");
  artifact.plan.dispatches[0].block = {2, 2, 128};
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, artifact, {fourFloats()});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(),
            "dispatch 0: block [2, 2, 128] is over the GPU limits (x, y <= "
            "1024, z <= 64, 1024 threads)");
  EXPECT_TRUE(launches.empty());
  artifact = copyArtifact(GetParam(), "copy");
  artifact.meta["abi"] = "gpu-memref-descriptor-v1";
  outputs = runPlan(*gpu, artifact, {fourFloats()});
  ASSERT_FALSE(outputs.ok());
  EXPECT_NE(outputs.message().find("use ABI 'gpu-memref-descriptor-v1'"),
            std::string::npos)
      << outputs.message();
}

TEST_P(GpuDeviceTest, DriverErrorsReachTheCaller) {
  std::unique_ptr<Device> gpu = device();
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, copyArtifact(GetParam(), "missing"), {fourFloats()});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(),
            "executable 0: fakeGetFunction(missing) failed: not found");
  driver->failAllocation = true;
  outputs = runPlan(*gpu, copyArtifact(GetParam(), "copy"), {fourFloats()});
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(), "buffer 0: fakeMalloc failed: out of memory");
}

TEST_P(GpuDeviceTest, PtxLoadsItsPrebuiltCubinFromTheCache) {
  // SIFT_CUBIN_CACHE names a folder of <key>.cubin files (ModuleCache.h):
  // a PTX module with one there loads the cubin; HSACO never looks.
  std::string dir = testing::TempDir() + "/cubin-cache-" +
                    std::string(toString(GetParam()));
  std::filesystem::create_directories(dir);
  std::vector<uint8_t> ptx = {'k', 'e', 'r', 'n'};
  {
    std::ofstream out(dir + "/" + moduleKey(ptx) + ".cubin", std::ios::binary);
    out << "cubin";
  }
  EXPECT_EQ(moduleKey(ptx).size(), 16u);
  setenv(kCubinCacheEnv, dir.c_str(), 1);
  std::unique_ptr<Device> gpu = device();
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, copyArtifact(GetParam(), "copy"), {fourFloats()});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  bool ptxFormat = GetParam() == ExecutableFormat::Ptx;
  EXPECT_EQ(driver->images.back(), ptxFormat ? "cubin" : "kern");
  // A cubin the driver refuses: the PTX is loaded instead, no error.
  driver->refusedImage = "cubin";
  outputs = runPlan(*gpu, copyArtifact(GetParam(), "copy"), {fourFloats()});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ(driver->images.back(), "kern");
  // No cubin for this module: its PTX.
  std::filesystem::remove(dir + "/" + moduleKey(ptx) + ".cubin");
  driver->refusedImage.clear();
  outputs = runPlan(*gpu, copyArtifact(GetParam(), "copy"), {fourFloats()});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ(driver->images.back(), "kern");
  unsetenv(kCubinCacheEnv);
}

TEST(ModuleCache, WaitsForACubinStillBeingCompiled) {
  // ptxas beside the runs (scripts/gpu-run.sh): <key>.ptx is there, its
  // cubin is renamed into place later; SIFT_CUBIN_WAIT bounds the wait.
  std::string dir = testing::TempDir() + "/cubin-wait";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::vector<uint8_t> ptx = {'w', 'a', 'i', 't'};
  std::string stem = dir + "/" + moduleKey(ptx);
  // No <key>.ptx: nothing is coming, no wait even with a long limit.
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(awaitCubin(dir, ptx, 30));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  std::ofstream(stem + ".ptx") << "ptx";
  // A cubin that arrives 100 ms later is waited for and returned.
  std::thread ptxas([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ofstream(stem + ".cubin.partial") << "late cubin";
    std::filesystem::rename(stem + ".cubin.partial", stem + ".cubin");
  });
  std::optional<std::vector<uint8_t>> cubin = awaitCubin(dir, ptx, 30);
  ptxas.join();
  ASSERT_TRUE(cubin);
  EXPECT_EQ(std::string(cubin->begin(), cubin->end()), "late cubin");
  // ptxas failed (<key>.failed): no cubin, at once.
  std::filesystem::remove(stem + ".cubin");
  std::ofstream(stem + ".failed");
  start = std::chrono::steady_clock::now();
  EXPECT_FALSE(awaitCubin(dir, ptx, 30));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // Neither comes: the wait ends at its limit.
  std::filesystem::remove(stem + ".failed");
  start = std::chrono::steady_clock::now();
  EXPECT_FALSE(awaitCubin(dir, ptx, 0.2));
  EXPECT_GE(std::chrono::steady_clock::now() - start,
            std::chrono::milliseconds(200));
  // Without SIFT_CUBIN_WAIT, or with a bad value, no wait.
  unsetenv(kCubinWaitEnv);
  EXPECT_EQ(cubinWaitSeconds(), 0);
  setenv(kCubinWaitEnv, "soon", 1);
  EXPECT_EQ(cubinWaitSeconds(), 0);
  setenv(kCubinWaitEnv, "-3", 1);
  EXPECT_EQ(cubinWaitSeconds(), 0);
  setenv(kCubinWaitEnv, "2.5", 1);
  EXPECT_EQ(cubinWaitSeconds(), 2.5);
  unsetenv(kCubinWaitEnv);
}

TEST_P(GpuDeviceTest, EmptyBuffersAreNotAllocated) {
  std::unique_ptr<Device> gpu = device();
  driver->failAllocation = true; // Any allocation would fail.
  PlanBuffer empty;
  empty.shape = {3, 0};
  Result<std::unique_ptr<Buffer>> buffer = gpu->allocate(empty);
  ASSERT_TRUE(buffer.ok()) << buffer.message();
  EXPECT_EQ((*buffer)->size(), 0u);
  HostTensor out;
  ASSERT_TRUE(gpu->download(**buffer, out).ok());
  EXPECT_EQ(out.shape, (std::vector<int64_t>{3, 0}));
}

// device_local results come back through a staging copy; host_visible
// buffers are mapped host memory, read and written in place.
TEST_P(GpuDeviceTest, MemoryTypesAndStaging) {
  std::unique_ptr<Device> gpu = device();
  for (MemoryType memory :
       {MemoryType::DeviceLocal, MemoryType::HostVisible,
        MemoryType::HostVisible | MemoryType::HostCoherent}) {
    Artifact artifact = copyArtifact(GetParam(), "copy");
    for (PlanBuffer &buffer : artifact.plan.buffers)
      buffer.memory = memory;
    int hostBefore = driver->hostAllocations;
    int stagedBefore = gpuStagingCopies(*gpu);
    Result<std::vector<HostTensor>> outputs =
        runPlan(*gpu, artifact, {fourFloats()});
    ASSERT_TRUE(outputs.ok()) << outputs.message();
    EXPECT_EQ((*outputs)[0].data, fourFloats().data) << toString(memory);
    bool local = memory == MemoryType::DeviceLocal;
    // Mapped: one host allocation per buffer, no staging. Device-local: one
    // staging allocation per download.
    EXPECT_EQ(gpuStagingCopies(*gpu) - stagedBefore, local ? 1 : 0);
    EXPECT_EQ(driver->hostAllocations - hostBefore, local ? 1 : 2);
  }
}

// A PTX kernel that waits for the kernels before it (griddepcontrol.wait
// in its own body, not another entry's) is launched programmatically; the
// others, and every HSACO kernel, as before.
TEST_P(GpuDeviceTest, KernelsThatWaitForTheGridLaunchProgrammatically) {
  std::string ptx = ".visible .entry copy(\n\t.param .u64 a\n)\n{\n"
                    "\t{ .reg .b32 r; }\n\tgriddepcontrol.launch_dependents;\n"
                    "\tgriddepcontrol.wait;\n\tret;\n}\n"
                    ".visible .entry copy_late(\n)\n{\n\tret;\n}\n";
  std::vector<uint8_t> image(ptx.begin(), ptx.end());
  EXPECT_TRUE(ptxEntryWaitsForGrid(image, "copy"));
  EXPECT_FALSE(ptxEntryWaitsForGrid(image, "copy_late"));
  EXPECT_FALSE(ptxEntryWaitsForGrid(image, "cop"));
  EXPECT_FALSE(ptxEntryWaitsForGrid(image, "absent"));

  std::unique_ptr<Device> gpu = device();
  Artifact artifact = copyArtifact(GetParam(), "copy");
  artifact.executables[0].binary = image;
  artifact.executables[0].entries = {"copy", "copy_late"};
  Dispatch late = artifact.plan.dispatches[0];
  late.entry = 1;
  artifact.plan.dispatches.push_back(late);
  Result<std::vector<HostTensor>> outputs =
      runPlan(*gpu, artifact, {fourFloats()});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].programmatic, GetParam() == ExecutableFormat::Ptx);
  EXPECT_FALSE(launches[1].programmatic);
}

INSTANTIATE_TEST_SUITE_P(Vendors, GpuDeviceTest,
                         ::testing::Values(ExecutableFormat::Ptx,
                                           ExecutableFormat::Hsaco),
                         [](const auto &info) {
                           return std::string(toString(info.param));
                         });

TEST(HipDevice, MissingLibraryIsOneSentence) {
  HipDeviceOptions options;
  options.libraryPath = "/nonexistent/libamdhip64.so";
  Result<std::unique_ptr<Device>> device = createHipDevice(options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message(), "the hip device needs AMD's HIP runtime, but "
                              "/nonexistent/libamdhip64.so could not be "
                              "loaded (no ROCm/HIP on this host?)");
}

TEST(HipDevice, LibraryWithoutHipIsRefused) {
  HipDeviceOptions options;
  options.libraryPath = "libc.so.6";
  Result<std::unique_ptr<Device>> device = createHipDevice(options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message(),
            "the HIP library has no hipInit (a HIP too old for sift?)");
}

// Debian's libamdhip64 on a host without an AMD GPU: HIP loads, and the
// device says it found no GPU in one sentence.
TEST(HipDevice, DefaultDeviceOnThisHost) {
  Result<std::unique_ptr<Device>> device = createDevice(DeviceKind::Hip);
  const char *flag = std::getenv("SIFT_TEST_HIP");
  if (flag && std::string(flag) == "1") {
    ASSERT_TRUE(device.ok()) << device.message();
    EXPECT_EQ((*device)->name().rfind("hip:0 (", 0), 0u);
    return;
  }
  if (!device.ok()) {
    EXPECT_EQ(device.message().find('\n'), std::string::npos);
    EXPECT_TRUE(device.message().find("HIP") != std::string::npos ||
                device.message().find("hip") != std::string::npos)
        << device.message();
  }
}

} // namespace
