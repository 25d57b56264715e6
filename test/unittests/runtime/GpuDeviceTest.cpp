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

#include "runtime/Runner.h"
#include "runtime/gpu/GpuDriver.h"
#include "runtime/hip/HipDevice.h"

#include <gtest/gtest.h>

#include <cstring>
#include <list>
#include <map>

using namespace sift;
using namespace sift::rt;

namespace {

/// What the fake driver saw of one launch.
struct Launch {
  std::string function;
  std::array<uint32_t, 3> grid, block;
  std::vector<uint64_t> pointers;
};

/// Host memory behind fake device addresses; a launch of "copy" copies its
/// first binding's bytes into its second, so results flow end to end.
class FakeDriver final : public GpuDriver {
public:
  explicit FakeDriver(ExecutableFormat format, std::vector<Launch> &launches)
      : format_(format), launches_(launches) {}

  DeviceKind kind() const override {
    return format_ == ExecutableFormat::Ptx ? DeviceKind::Cuda
                                            : DeviceKind::Hip;
  }
  std::string deviceName() const override { return "fake"; }
  ExecutableFormat format() const override { return format_; }
  Status makeCurrent() override { return Status::success(); }
  Result<uint64_t> allocate(uint64_t bytes) override {
    if (failAllocation)
      return makeError("fakeMalloc failed: out of memory");
    uint64_t address = next_;
    next_ += (bytes + 255) / 256 * 256 + 256;
    memory_[address].assign(bytes, 0xAB);
    return address;
  }
  void free(uint64_t address) override { memory_.erase(address); }
  Status copyToDevice(uint64_t address, const void *data,
                      uint64_t bytes) override {
    std::memcpy(memory_.at(address).data(), data, bytes);
    return Status::success();
  }
  Status copyToHost(void *data, uint64_t address, uint64_t bytes) override {
    std::memcpy(data, memory_.at(address).data(), bytes);
    return Status::success();
  }
  Result<void *> loadModule(const std::vector<uint8_t> &image) override {
    images.emplace_back(image.begin(), image.end());
    return static_cast<void *>(&images.back());
  }
  void unloadModule(void *) override { ++unloads; }
  Result<void *> function(void *, const std::string &name) override {
    if (name == "missing")
      return makeError("fakeGetFunction(missing) failed: not found");
    names_.push_back(name);
    return static_cast<void *>(&names_.back());
  }
  Status launch(void *function, std::array<uint32_t, 3> grid,
                std::array<uint32_t, 3> block, void **params) override {
    Launch launch{*static_cast<std::string *>(function), grid, block, {}};
    size_t bindings = launch.function == "copy" ? 2 : 1;
    for (size_t i = 0; i < bindings; ++i)
      launch.pointers.push_back(*static_cast<uint64_t *>(params[i]));
    if (launch.function == "copy")
      memory_.at(launch.pointers[1]) = memory_.at(launch.pointers[0]);
    launches_.push_back(launch);
    return Status::success();
  }
  Status synchronize() override { return Status::success(); }
  Result<void *> createEvent() override {
    return static_cast<void *>(&events_[events_.size()]);
  }
  void destroyEvent(void *) override {}
  Status recordEvent(void *) override { return Status::success(); }
  Result<float> elapsedMs(void *, void *) override { return 1.5f; }

  bool failAllocation = false;
  std::list<std::string> images;
  int unloads = 0;

private:
  ExecutableFormat format_;
  std::vector<Launch> &launches_;
  uint64_t next_ = 0x10000;
  std::map<uint64_t, std::vector<uint8_t>> memory_;
  std::list<std::string> names_;
  std::map<size_t, int> events_;
};

/// in (f32[4]) --copy--> out (f32[4]); the kernel named `kernel`.
Artifact copyArtifact(ExecutableFormat format, const std::string &kernel) {
  Artifact artifact;
  Executable exe;
  exe.format = format;
  exe.target = format == ExecutableFormat::Ptx ? "nvptx/sm_90" : "amdgpu/gfx942";
  exe.entries = {kernel};
  exe.binary = {'k', 'e', 'r', 'n'};
  artifact.executables.push_back(exe);
  PlanBuffer in, out;
  in.shape = out.shape = {4};
  in.role = BufferRole::Input;
  out.role = BufferRole::Output;
  artifact.plan.buffers = {in, out};
  Dispatch dispatch;
  dispatch.grid = {2, 1, 1};
  dispatch.block = {32, 2, 1};
  dispatch.bindings = {0, 1};
  artifact.plan.dispatches = {dispatch};
  artifact.meta["abi"] = kGpuKernelAbi;
  return artifact;
}

HostTensor fourFloats() {
  HostTensor t;
  t.type = ElementType::F32;
  t.shape = {4};
  t.data.resize(16);
  for (int i = 0; i < 4; ++i) {
    float v = 1.5f * static_cast<float>(i) - 2.0f;
    std::memcpy(t.data.data() + 4 * i, &v, 4);
  }
  return t;
}

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
