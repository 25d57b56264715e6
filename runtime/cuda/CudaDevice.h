//===- runtime/cuda/CudaDevice.h - PTX on NVIDIA GPUs through the driver --===//
//
// The cuda device runs PTX executables with the CUDA driver API. The driver
// (libcuda.so.1) is opened with dlopen when the device is created and its
// functions are looked up in a table (CudaDriver): the runtime has no
// link-time dependency on CUDA and builds on machines without it. A host
// without the driver or without a GPU gets one sentence saying so.
//
// Kernel ABI "ptx-bare-v1": each entry point takes one global pointer per
// binding, in the dispatch's binding order (the compiler lowers kernels with
// bare-pointer memrefs; every kernel buffer is a whole plan buffer).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"

#include <chrono>
#include <memory>
#include <string>

namespace sift::rt {

struct CudaDriver;

/// Where the driver is looked for, in order.
inline constexpr const char *kCudaDriverLibraries[] = {"libcuda.so.1",
                                                       "libcuda.so"};

/// Opens the driver: nullptr and `error` set (one sentence naming what is
/// missing) when it cannot be loaded or lacks a function.
std::shared_ptr<const CudaDriver> openCudaDriver(std::string &error);

/// Options of the cuda device.
struct CudaDeviceOptions {
  int ordinal = 0; ///< which GPU
  /// A driver library to open instead of kCudaDriverLibraries (tests).
  std::string driverPath;
};

/// Creates the cuda device: opens the driver, initializes it and retains
/// the GPU's primary context.
Result<std::unique_ptr<Device>> createCudaDevice(CudaDeviceOptions options);

/// Time spent in the driver by one device, for reports.
struct CudaTimes {
  std::chrono::nanoseconds moduleLoad{0}; ///< cuModuleLoadData calls
  std::chrono::nanoseconds kernels{0};    ///< launches up to synchronize
};

/// The times of a device created by createCudaDevice (zero for others).
CudaTimes cudaTimes(const Device &device);

} // namespace sift::rt
