//===- runtime/cuda/CudaDevice.h - PTX on NVIDIA GPUs through the driver --===//
//
// The cuda device runs PTX executables with the CUDA driver API. The driver
// (libcuda.so.1) is opened with dlopen when the device is created and its
// functions are looked up by name: the runtime has no link-time dependency
// on CUDA and builds on machines without it. A host without the driver or
// without a GPU gets one sentence saying so. The Device itself is
// runtime/gpu's, shared with hip.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/gpu/GpuDriver.h"

#include <string>

namespace sift::rt {

/// Where the driver is looked for, in order.
inline constexpr const char *kCudaDriverLibraries[] = {"libcuda.so.1",
                                                       "libcuda.so"};

/// Options of the cuda device.
struct CudaDeviceOptions {
  int ordinal = 0; ///< which GPU
  /// A driver library to open instead of kCudaDriverLibraries (tests;
  /// createDevice takes it from SIFT_CUDA_DRIVER).
  std::string driverPath;
};

/// Creates the cuda device: opens the driver, initializes it and retains
/// the GPU's primary context.
Result<std::unique_ptr<Device>> createCudaDevice(CudaDeviceOptions options);

} // namespace sift::rt
