//===- runtime/Device.cpp - The device abstraction -----------------------===//
//
// Device kind names, the checks every backend shares (buffer and executable
// ownership, tensor/buffer agreement, binding counts) and createDevice, the
// one place that knows which backends this runtime was built with.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"

#include "runtime/cpu/CpuDevice.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/emu/EmuDevice.h"
#include "runtime/hip/HipDevice.h"

#include <cstdlib>

using namespace sift;
using namespace sift::rt;

std::string_view rt::toString(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Cpu: return "cpu";
  case DeviceKind::Cuda: return "cuda";
  case DeviceKind::Hip: return "hip";
  case DeviceKind::Emu: return "emu";
  }
  return "?";
}

std::optional<DeviceKind> rt::parseDeviceKind(std::string_view name) {
  for (DeviceKind kind : kAllDeviceKinds)
    if (toString(kind) == name)
      return kind;
  return std::nullopt;
}

Buffer::~Buffer() = default;
LoadedExecutable::~LoadedExecutable() = default;
Device::~Device() = default;

Status Device::checkUpload(const Buffer &buffer,
                           const HostTensor &tensor) const {
  if (&buffer.device() != this)
    return makeError("upload to a buffer of another device (" +
                     buffer.device().name() + ") on " + name());
  const PlanBuffer &desc = buffer.desc();
  if (tensor.type != desc.type || tensor.shape != desc.shape)
    return makeError("upload of " + describe(tensor) + " into a buffer of " +
                     describe(desc.type, desc.shape));
  if (tensor.data.size() != buffer.size())
    return makeError("upload of " + describe(tensor) + " holding " +
                     std::to_string(tensor.data.size()) +
                     " bytes into a buffer of " +
                     std::to_string(buffer.size()) + " bytes");
  return Status::success();
}

Status Device::checkDownload(const Buffer &buffer) const {
  if (&buffer.device() != this)
    return makeError("download from a buffer of another device (" +
                     buffer.device().name() + ") on " + name());
  return Status::success();
}

Status Device::checkDispatch(const LoadedExecutable &executable,
                             const Dispatch &dispatch,
                             const std::vector<Buffer *> &bindings) const {
  if (&executable.device() != this)
    return makeError("dispatch of an executable loaded on another device (" +
                     executable.device().name() + ") on " + name());
  if (dispatch.entry < 0 ||
      static_cast<size_t>(dispatch.entry) >= executable.entries().size())
    return makeError("entry " + std::to_string(dispatch.entry) +
                     " is out of range: the executable has " +
                     std::to_string(executable.entries().size()) + " entries");
  if (bindings.size() != dispatch.bindings.size())
    return makeError("the dispatch declares " +
                     std::to_string(dispatch.bindings.size()) +
                     " bindings but " + std::to_string(bindings.size()) +
                     " buffers were passed");
  for (size_t i = 0; i < bindings.size(); ++i) {
    if (!bindings[i])
      return makeError("binding " + std::to_string(i) + " is null");
    if (&bindings[i]->device() != this)
      return makeError("binding " + std::to_string(i) +
                       " is a buffer of another device (" +
                       bindings[i]->device().name() + ")");
  }
  return Status::success();
}

Result<std::unique_ptr<Device>> rt::createDevice(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Cpu:
    return std::unique_ptr<Device>(std::make_unique<CpuDevice>());
  case DeviceKind::Cuda: {
    // SIFT_CUDA_DRIVER names another driver library (tests, odd installs).
    CudaDeviceOptions options;
    if (const char *driver = std::getenv("SIFT_CUDA_DRIVER"))
      options.driverPath = driver;
    return createCudaDevice(options);
  }
  case DeviceKind::Hip: {
    // SIFT_HIP_LIBRARY names another HIP library.
    HipDeviceOptions options;
    if (const char *library = std::getenv("SIFT_HIP_LIBRARY"))
      options.libraryPath = library;
    return createHipDevice(options);
  }
  case DeviceKind::Emu:
    return std::unique_ptr<Device>(std::make_unique<EmuDevice>());
  }
  return makeError("unknown device kind");
}
