//===- runtime/Device.h - The device abstraction -------------------------===//
//
// The handful of concepts the runtime needs to run a plan anywhere: a Device
// allocates Buffers for plan buffers, moves HostTensors up and down, loads
// Executables into LoadedExecutables and dispatches their entry points over a
// grid, then synchronizes. Backends (cpu; cuda and hip through runtime/gpu's
// driver device, their libraries loaded at run time) implement Device; everything above them (runPlan, sift-run, the
// conformance tests) sees only this interface. Every operation reports
// failure as a value; none throws or exits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Artifact.h"
#include "runtime/Plan.h"
#include "support/HostTensor.h"
#include "support/Result.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sift::rt {

/// The kinds of devices a runtime may drive.
/// Emu runs a GPU pipeline's kernels on the host (runtime/emu), with checks.
enum class DeviceKind { Cpu, Cuda, Hip, Emu };

/// Every device kind, in enum order.
inline constexpr DeviceKind kAllDeviceKinds[] = {
    DeviceKind::Cpu, DeviceKind::Cuda, DeviceKind::Hip, DeviceKind::Emu};

/// "cpu", "cuda", "hip", "emu".
std::string_view toString(DeviceKind kind);
/// Parses a stable device kind name.
std::optional<DeviceKind> parseDeviceKind(std::string_view name);

class Device;

/// A device allocation standing for one plan buffer. Owned by the caller and
/// valid while its device lives.
class Buffer {
public:
  virtual ~Buffer();
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  /// The device that allocated the buffer.
  const Device &device() const { return device_; }
  /// The plan buffer it was allocated for.
  const PlanBuffer &desc() const { return desc_; }
  /// Size in bytes (0 for buffers with a 0-sized dimension).
  uint64_t size() const { return size_; }
  /// The buffer's bytes mapped into the host, or nullptr where they are not
  /// (device-local memory of a GPU). Never null for cpu buffers, even when
  /// size() is 0.
  virtual void *hostPointer() const { return nullptr; }
  /// The buffer's address for kernels of its device (its host pointer on
  /// the cpu); 0 when empty.
  virtual uint64_t deviceAddress() const {
    return reinterpret_cast<uint64_t>(hostPointer());
  }
  /// True when it was allocated queue-ordered (allocateAsync): usable by
  /// work queued after the allocation, by anyone else only after the queue
  /// got there.
  bool queueOrdered() const { return queueOrdered_; }

protected:
  Buffer(const Device &device, PlanBuffer desc, uint64_t size,
         bool queueOrdered = false)
      : device_(device), desc_(std::move(desc)), size_(size),
        queueOrdered_(queueOrdered) {}

private:
  const Device &device_;
  PlanBuffer desc_;
  uint64_t size_;
  bool queueOrdered_;
};

/// An executable loaded on a device, its entry points resolved. Owned by the
/// caller and valid while its device lives.
class LoadedExecutable {
public:
  virtual ~LoadedExecutable();
  LoadedExecutable(const LoadedExecutable &) = delete;
  LoadedExecutable &operator=(const LoadedExecutable &) = delete;

  /// The device that loaded it.
  const Device &device() const { return device_; }
  ExecutableFormat format() const { return format_; }
  /// Entry point names; Dispatch::entry indexes this list.
  const std::vector<std::string> &entries() const { return entries_; }

protected:
  LoadedExecutable(const Device &device, ExecutableFormat format,
                   std::vector<std::string> entries)
      : device_(device), format_(format), entries_(std::move(entries)) {}

private:
  const Device &device_;
  ExecutableFormat format_;
  std::vector<std::string> entries_;
};

/// One device that runs plans.
class Device {
public:
  virtual ~Device();

  virtual DeviceKind kind() const = 0;
  /// A human-readable name: "cpu", "cuda:0 (NVIDIA H100)", ...
  virtual std::string name() const = 0;

  /// Allocates memory for a plan buffer. Fails on a negative shape, a size
  /// over kMaxPlanBytes, or when the device is out of memory.
  virtual Result<std::unique_ptr<Buffer>> allocate(const PlanBuffer &desc) = 0;

  /// Allocates queue-ordered (asynchronously, on the device's queue): the
  /// buffer exists for work queued after it. The cpu device has no queue, so
  /// its buffers exist at once.
  virtual Result<std::unique_ptr<Buffer>>
  allocateAsync(const PlanBuffer &desc) = 0;

  /// Copies a tensor into a buffer of this device; the tensor's element type
  /// and shape must equal the buffer's.
  virtual Status upload(Buffer &buffer, const HostTensor &tensor) = 0;

  /// Copies a buffer of this device into `tensor`, which takes the buffer's
  /// element type and shape.
  virtual Status download(const Buffer &buffer, HostTensor &tensor) = 0;

  /// Loads an executable and resolves all its entry points.
  virtual Result<std::unique_ptr<LoadedExecutable>>
  load(const Executable &executable) = 0;

  /// Launches `dispatch.entry` of `executable` over `dispatch.grid` with
  /// `bindings` (buffers of this device, in the dispatch's binding order).
  /// May return before the work is done; see synchronize().
  virtual Status dispatch(LoadedExecutable &executable,
                          const Dispatch &dispatch,
                          const std::vector<Buffer *> &bindings) = 0;

  /// Waits for all dispatched work and reports any failure it had.
  virtual Status synchronize() = 0;

protected:
  Device() = default;

  /// Checks, for upload(), that `buffer` belongs to this device and that
  /// `tensor` has its element type, shape and byte size.
  Status checkUpload(const Buffer &buffer, const HostTensor &tensor) const;
  /// Checks, for download(), that `buffer` belongs to this device.
  Status checkDownload(const Buffer &buffer) const;
  /// Checks, for dispatch(), that the executable and every binding belong to
  /// this device, that the entry index is in range and that there is one
  /// non-null binding per index in `dispatch.bindings`.
  Status checkDispatch(const LoadedExecutable &executable,
                       const Dispatch &dispatch,
                       const std::vector<Buffer *> &bindings) const;
};

/// Creates a device of `kind`: cpu, cuda through the NVIDIA driver or hip
/// through AMD's HIP runtime, both found at run time (SIFT_CUDA_DRIVER and
/// SIFT_HIP_LIBRARY override the libraries' paths). A host without them gets
/// an error saying what is missing.
Result<std::unique_ptr<Device>> createDevice(DeviceKind kind);

} // namespace sift::rt
