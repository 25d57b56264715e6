//===- runtime/hip/HipDevice.h - HSACO on AMD GPUs through HIP ------------===//
//
// The hip device runs HSACO executables with HIP's module API, the library
// (libamdhip64.so) opened with dlopen when the device is created, as the
// cuda device does with the NVIDIA driver. Where HIP's headers are
// installed (Debian's libamdhip64-dev), the build checks every function
// sift declares against them; the runtime never needs them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/gpu/GpuDriver.h"

#include <string>

namespace sift::rt {

/// Where HIP is looked for, in order.
inline constexpr const char *kHipLibraries[] = {"libamdhip64.so",
                                                "libamdhip64.so.6",
                                                "libamdhip64.so.5"};

/// Options of the hip device.
struct HipDeviceOptions {
  int ordinal = 0;
  /// A library to open instead of kHipLibraries (tests; createDevice takes
  /// it from SIFT_HIP_LIBRARY).
  std::string libraryPath;
};

/// Creates the hip device: opens HIP, initializes it and selects the GPU.
Result<std::unique_ptr<Device>> createHipDevice(HipDeviceOptions options);

/// True when this build checked its HIP declarations against HIP's headers.
bool hipDeclarationsChecked();

} // namespace sift::rt
