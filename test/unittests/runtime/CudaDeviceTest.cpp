//===- CudaDeviceTest.cpp - The cuda device up to the driver --------------===//
//
// What runs on any machine: the driver is looked for, and a host without it
// (or with CUDA's stub library, which loads but refuses cuInit) gets one
// clear sentence instead of a crash. With a GPU (SIFT_TEST_CUDA=1), the
// device runs a hand-written PTX kernel through the plan runner.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runner.h"
#include "runtime/cuda/CudaDevice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace sift;
using namespace sift::rt;

namespace {

bool gpuRequested() {
  const char *flag = std::getenv("SIFT_TEST_CUDA");
  return flag && std::string(flag) == "1";
}

TEST(CudaDevice, MissingDriverIsOneSentence) {
  CudaDeviceOptions options;
  options.driverPath = "/nonexistent/libcuda.so.1";
  Result<std::unique_ptr<Device>> device = createCudaDevice(options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message(),
            "the cuda device needs the NVIDIA driver, but "
            "/nonexistent/libcuda.so.1 could not be loaded (no NVIDIA driver "
            "on this host?)");
}

TEST(CudaDevice, LibraryWithoutTheDriverApiIsRefused) {
  // libc loads but has none of the driver's functions.
  CudaDeviceOptions options;
  options.driverPath = "libc.so.6";
  Result<std::unique_ptr<Device>> device = createCudaDevice(options);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.message(), "the NVIDIA driver library has no cuInit (a "
                              "driver too old for sift?)");
}

// CUDA's stub libcuda.so (for linking on machines without a GPU) has every
// function but fails cuInit; the device says the driver did not start.
TEST(CudaDevice, StubDriverDoesNotStart) {
  const std::filesystem::path stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::filesystem::exists(stub))
    GTEST_SKIP() << "no CUDA stub library at " << stub
                 << " (CUDA headers are optional on this machine)";
  CudaDeviceOptions options;
  options.driverPath = stub.string();
  Result<std::unique_ptr<Device>> device = createCudaDevice(options);
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.message().find("the NVIDIA driver did not start: cuInit "
                                  "failed: "),
            std::string::npos)
      << device.message();
}

TEST(CudaDevice, DefaultDeviceOnThisHost) {
  Result<std::unique_ptr<Device>> device = createDevice(DeviceKind::Cuda);
  if (!gpuRequested()) {
    // Without a GPU: an error, never a crash.
    if (!device.ok()) {
      EXPECT_FALSE(device.message().empty());
    }
    return;
  }
  ASSERT_TRUE(device.ok()) << device.message();
  EXPECT_EQ((*device)->kind(), DeviceKind::Cuda);
  EXPECT_EQ((*device)->name().rfind("cuda:0 (", 0), 0u) << (*device)->name();
}

/// out[i] = in[i] + 1 over 8 floats, one thread each (ABI ptx-bare-v1).
constexpr const char *kAddOnePtx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry add_one(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd5], %f2;
  ret;
}
)";

TEST(CudaDevice, RunsAPtxPlan) {
  if (!gpuRequested())
    GTEST_SKIP() << "needs an NVIDIA GPU: set SIFT_TEST_CUDA=1 on a GPU host";
  Result<std::unique_ptr<Device>> device = createDevice(DeviceKind::Cuda);
  ASSERT_TRUE(device.ok()) << device.message();
  Artifact artifact;
  Executable exe;
  exe.format = ExecutableFormat::Ptx;
  exe.target = "nvptx/sm_70";
  exe.entries = {"add_one"};
  std::string ptx = kAddOnePtx;
  exe.binary.assign(ptx.begin(), ptx.end());
  artifact.executables.push_back(exe);
  PlanBuffer in, out;
  in.shape = out.shape = {8};
  in.role = BufferRole::Input;
  out.role = BufferRole::Output;
  artifact.plan.buffers = {in, out};
  Dispatch dispatch;
  dispatch.executable = 0;
  dispatch.entry = 0;
  dispatch.grid = {1, 1, 1};
  dispatch.block = {8, 1, 1};
  dispatch.bindings = {0, 1};
  artifact.plan.dispatches = {dispatch};
  HostTensor input;
  input.type = ElementType::F32;
  input.shape = {8};
  input.data.resize(32);
  for (int i = 0; i < 8; ++i) {
    float v = static_cast<float>(i) * 0.5f;
    std::memcpy(input.data.data() + 4 * i, &v, 4);
  }
  Result<std::vector<HostTensor>> outputs =
      runPlan(**device, artifact, {input});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 1u);
  for (int i = 0; i < 8; ++i) {
    float v;
    std::memcpy(&v, (*outputs)[0].data.data() + 4 * i, 4);
    EXPECT_EQ(v, static_cast<float>(i) * 0.5f + 1.0f) << i;
  }
  EXPECT_GT(gpuTimes(**device).moduleLoad.count(), 0);
}

} // namespace
