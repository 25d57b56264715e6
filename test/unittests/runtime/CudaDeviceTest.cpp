//===- CudaDeviceTest.cpp - The cuda device up to the driver --------------===//
//
// What runs on any machine: the driver is looked for, and a host without it
// (or with CUDA's stub library, which loads but refuses cuInit) gets one
// clear sentence instead of a crash. Runs on a GPU are in ConformanceTest.
//
//===----------------------------------------------------------------------===//

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

} // namespace
