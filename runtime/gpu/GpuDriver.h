//===- runtime/gpu/GpuDriver.h - One Device over any GPU driver API -------===//
//
// CUDA's driver API and HIP's module API are the same shape: allocate,
// copy, load a code object, look up a kernel, launch it with an array of
// argument pointers, synchronize, time with events. GpuDriver is that shape
// as an interface; runtime/cuda and runtime/hip implement it over the
// vendor library opened with dlopen, and createDriverDevice builds the one
// Device class (buffers, executables, launch limits, timing) on top.
//
// Memory types: a buffer with `host_visible` or `host_coherent` is mapped
// host memory (allocateHost), read and written in place; a `device_local`
// buffer is device memory, and reading it back goes through a page-locked
// staging copy.
//
// Kernel ABI "gpu-bare-pointer-v1" (kGpuKernelAbi): each entry point takes
// one device pointer per binding, in the dispatch's binding order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sift::rt {

/// What a GPU driver does for sift. Every call reports failure as a Status
/// carrying the vendor's own error name and message.
class GpuDriver {
public:
  virtual ~GpuDriver() = default;

  virtual DeviceKind kind() const = 0;
  /// "cuda:0 (NVIDIA H100 80GB HBM3)".
  virtual std::string deviceName() const = 0;
  /// The executable format the driver loads (ptx, hsaco).
  virtual ExecutableFormat format() const = 0;

  /// Makes the device current for the calling thread.
  virtual Status makeCurrent() = 0;
  virtual Result<uint64_t> allocate(uint64_t bytes) = 0;
  virtual void free(uint64_t address) = 0;
  /// Queue-ordered allocation on the device's default queue, and its free;
  /// drivers without it answer nullopt and the device allocates in order.
  virtual std::optional<Result<uint64_t>> allocateAsync(uint64_t bytes) {
    return std::nullopt;
  }
  virtual void freeAsync(uint64_t address) { free(address); }
  /// Host memory the device reads and writes in place (page-locked and
  /// mapped): `host` for the host, `device` for kernels.
  struct HostMemory {
    void *host = nullptr;
    uint64_t device = 0;
  };
  virtual Result<HostMemory> allocateHost(uint64_t bytes) = 0;
  virtual void freeHost(void *host) = 0;
  virtual Status copyToDevice(uint64_t address, const void *data,
                              uint64_t bytes) = 0;
  virtual Status copyToHost(void *data, uint64_t address, uint64_t bytes) = 0;
  /// Loads a code object (PTX text is passed NUL-terminated).
  virtual Result<void *> loadModule(const std::vector<uint8_t> &image) = 0;
  virtual void unloadModule(void *module) = 0;
  virtual Result<void *> function(void *module, const std::string &name) = 0;
  /// Launches `function`. `programmatic`: the kernel waits for the kernels
  /// before it itself (its PTX runs griddepcontrol.wait), so a driver that
  /// can may start it while the one before still runs (CUDA's programmatic
  /// stream serialization, sm_90 and later); others launch it as any.
  virtual Status launch(void *function, std::array<uint32_t, 3> grid,
                        std::array<uint32_t, 3> block, void **params,
                        bool programmatic) = 0;
  virtual Status synchronize() = 0;
  virtual Result<void *> createEvent() = 0;
  virtual void destroyEvent(void *event) = 0;
  virtual Status recordEvent(void *event) = 0;
  /// Waits for `end`, then the milliseconds from `start` to `end`.
  virtual Result<float> elapsedMs(void *start, void *end) = 0;
};

/// Whether SIFT_PROGRAMMATIC_LAUNCH lets kernels that wait for the
/// kernels before them overlap them (any value but "0"; unset: yes).
bool programmaticLaunchAllowed();

/// Whether the kernel `entry` of PTX module `ptx` waits for the kernels
/// before it (its body has griddepcontrol.wait), so that it may be
/// launched programmatically.
bool ptxEntryWaitsForGrid(const std::vector<uint8_t> &ptx,
                          const std::string &entry);

/// The Device over `driver`.
std::unique_ptr<Device> createDriverDevice(std::unique_ptr<GpuDriver> driver);

/// Time spent in the driver by one device, for reports.
struct GpuTimes {
  std::chrono::nanoseconds moduleLoad{0}; ///< code object loads (JIT included)
  std::chrono::nanoseconds kernels{0};    ///< first launch to synchronize
};

/// The times of a device made by createDriverDevice (zero for others).
GpuTimes gpuTimes(const Device &device);
/// How many downloads of such a device went through a staging copy.
int gpuStagingCopies(const Device &device);

/// A shared library opened with dlopen, closed with the last reference.
class DynamicLibrary {
public:
  /// Opens the first of `candidates` that loads; on failure the error says
  /// which were tried and that `what` is needed.
  static Result<std::shared_ptr<DynamicLibrary>>
  open(const std::vector<std::string> &candidates, const std::string &what);
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary &) = delete;
  DynamicLibrary &operator=(const DynamicLibrary &) = delete;

  /// Looks up `name` into `slot`; false when the library lacks it.
  template <typename F> bool lookup(const char *name, F &slot) const {
    slot = reinterpret_cast<F>(symbol(name));
    return slot != nullptr;
  }
  /// lookup() for a symbol the library must have: the first one missing
  /// is remembered in `missing` (left as it is when already set).
  template <typename F>
  void require(const char *name, F &slot, std::string &missing) const {
    if (!lookup(name, slot) && missing.empty())
      missing = name;
  }

private:
  explicit DynamicLibrary(void *handle) : handle_(handle) {}
  void *symbol(const char *name) const;
  void *handle_;
};

} // namespace sift::rt
