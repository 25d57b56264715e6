//===- runtime/cpu/CpuDevice.h - Runs host shared objects in-process ------===//
//
// The cpu device: buffers are 64-byte-aligned host memory, executables are
// host shared objects (ExecutableFormat::HostSharedObject) loaded with dlopen
// from an in-memory file, and a dispatch calls the entry point once per
// workgroup of the grid, in the calling thread. It is the reference backend:
// it needs no GPU, so every test of the runtime can run anywhere.
//
// Host ABI "host-v1": every entry point is
//
//   extern "C" void entry(void **bindings);
//
// where `bindings` holds the base pointers of the bound buffers, in the
// dispatch's binding order. host-v1 passes no workgroup id, no grid or block
// size and no push constants: a host kernel covers its whole iteration space
// in one call, so plans for the cpu use a 1x1x1 grid (a larger grid calls the
// entry once per workgroup with the same arguments), block sizes and
// workgroup memory are ignored, and a dispatch with constants is an error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"

namespace sift::rt {

/// The name of the host ABI the cpu device implements.
inline constexpr std::string_view kHostAbi = "host-v1";

/// The signature of a host-v1 entry point.
using HostEntryPoint = void (*)(void **bindings);

/// Options of the cpu device.
struct CpuDeviceOptions {
  /// Load shared objects from a memfd; false forces the fallback through an
  /// unlinked temporary file (used where memfd_create is unavailable).
  bool useMemfd = true;
};

/// A dlopen'ed shared object and the addresses of its entry points (the cpu
/// device's host-so executables, the emu device's emu-so).
class LoadedSharedObject final : public LoadedExecutable {
public:
  LoadedSharedObject(const Device &device, ExecutableFormat format,
                     std::vector<std::string> entries, void *handle,
                     std::vector<int> fds, std::vector<void *> addresses);
  ~LoadedSharedObject() override;
  void *entryAddress(size_t entry) const { return addresses_[entry]; }
  /// Another symbol of the library; null when it has none of that name.
  void *symbol(const std::string &name) const;

private:
  void *handle_;
  /// Kept open while loaded, so that no other load reuses their numbers.
  std::vector<int> fds_;
  std::vector<void *> addresses_;
};

/// Runs host shared objects in this process.
class CpuDevice : public Device {
public:
  explicit CpuDevice(CpuDeviceOptions options = {}) : options_(options) {}

  DeviceKind kind() const override { return DeviceKind::Cpu; }
  std::string name() const override { return "cpu"; }

  Result<std::unique_ptr<Buffer>> allocate(const PlanBuffer &desc) override;
  /// Host memory exists at once; the buffer is marked queue-ordered.
  Result<std::unique_ptr<Buffer>>
  allocateAsync(const PlanBuffer &desc) override;
  Status upload(Buffer &buffer, const HostTensor &tensor) override;
  Status download(const Buffer &buffer, HostTensor &tensor) override;
  /// Accepts only host shared objects; a dlopen or dlsym failure returns the
  /// dlerror() text.
  Result<std::unique_ptr<LoadedExecutable>>
  load(const Executable &executable) override;
  /// Calls the entry once per workgroup of the grid (z, then y, then x
  /// outermost to innermost), synchronously.
  Status dispatch(LoadedExecutable &executable, const Dispatch &dispatch,
                  const std::vector<Buffer *> &bindings) override;
  /// Dispatches run synchronously, so there is nothing to wait for.
  Status synchronize() override { return Status::success(); }

protected:
  /// dlopens `executable`, which must be of `format`, and resolves every
  /// entry point; a dlopen or dlsym failure returns the dlerror() text.
  Result<std::unique_ptr<LoadedSharedObject>>
  loadSharedObject(const Executable &executable, ExecutableFormat format);

private:
  CpuDeviceOptions options_;
};

} // namespace sift::rt
