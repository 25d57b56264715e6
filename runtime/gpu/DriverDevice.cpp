//===- runtime/gpu/DriverDevice.cpp - Device over a GpuDriver -------------===//
//
// Buffers are device allocations (an empty buffer has no address: drivers
// refuse 0-byte allocations), executables are loaded code objects with
// their kernels looked up, a dispatch checks the launch against the limits
// every sift GPU target shares and passes one device pointer per binding.
// Kernel time runs from the first launch after a synchronize to the next
// synchronize, measured with driver events.
//
//===----------------------------------------------------------------------===//

#include "runtime/gpu/GpuDriver.h"
#include "runtime/gpu/ModuleCache.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

using namespace sift;
using namespace sift::rt;

Result<std::shared_ptr<DynamicLibrary>>
DynamicLibrary::open(const std::vector<std::string> &candidates,
                     const std::string &what) {
  std::string tried;
  for (const std::string &candidate : candidates) {
    if (void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL))
      return std::shared_ptr<DynamicLibrary>(new DynamicLibrary(handle));
    tried += (tried.empty() ? "" : ", ") + candidate;
  }
  return makeError(what + ", but " + tried + " could not be loaded");
}

DynamicLibrary::~DynamicLibrary() { dlclose(handle_); }

void *DynamicLibrary::symbol(const char *name) const {
  return dlsym(handle_, name);
}

namespace {

class DriverBuffer final : public Buffer {
public:
  DriverBuffer(const Device &device, PlanBuffer desc, uint64_t size,
               GpuDriver &driver, uint64_t address, bool queueOrdered,
               bool allocatedAsync, void *host = nullptr)
      : Buffer(device, std::move(desc), size, queueOrdered), driver_(driver),
        address_(address), allocatedAsync_(allocatedAsync), host_(host) {}
  ~DriverBuffer() override {
    if (host_)
      driver_.freeHost(host_);
    else if (address_ && allocatedAsync_)
      driver_.freeAsync(address_);
    else if (address_)
      driver_.free(address_);
  }
  uint64_t address() const { return address_; }
  uint64_t deviceAddress() const override { return address_; }
  void *hostPointer() const override { return host_; }

private:
  GpuDriver &driver_;
  uint64_t address_;
  bool allocatedAsync_;
  void *host_;
};

} // namespace

bool sift::rt::programmaticLaunchAllowed() {
  const char *value = std::getenv("SIFT_PROGRAMMATIC_LAUNCH");
  return !value || std::string_view(value) != "0";
}

bool sift::rt::ptxEntryWaitsForGrid(const std::vector<uint8_t> &ptx,
                                    const std::string &entry) {
  std::string_view text(reinterpret_cast<const char *>(ptx.data()), ptx.size());
  // The entry's declaration, `.entry <name>(`, then its body: from the
  // first brace after it to the brace that closes it.
  std::string head = ".entry " + entry + "(";
  size_t at = text.find(head);
  if (at == std::string_view::npos)
    return false;
  size_t open = text.find('{', at + head.size());
  if (open == std::string_view::npos)
    return false;
  int depth = 0;
  size_t end = open;
  for (; end < text.size(); ++end) {
    if (text[end] == '{')
      ++depth;
    else if (text[end] == '}' && --depth == 0)
      break;
  }
  return text.substr(open, end - open).find("griddepcontrol.wait") !=
         std::string_view::npos;
}

namespace {

class DriverExecutable final : public LoadedExecutable {
public:
  DriverExecutable(const Device &device, ExecutableFormat format,
                   std::vector<std::string> entries, GpuDriver &driver,
                   void *module, std::vector<void *> functions,
                   std::vector<bool> waitsForGrid)
      : LoadedExecutable(device, format, std::move(entries)), driver_(driver),
        module_(module), functions_(std::move(functions)),
        waitsForGrid_(std::move(waitsForGrid)) {}
  ~DriverExecutable() override { driver_.unloadModule(module_); }
  void *function(int entry) const { return functions_[entry]; }
  /// Whether the entry waits for the kernels before it (PTX
  /// griddepcontrol.wait), so that it may be launched programmatically.
  bool waitsForGrid(int entry) const { return waitsForGrid_[entry]; }

private:
  GpuDriver &driver_;
  void *module_;
  std::vector<void *> functions_;
  std::vector<bool> waitsForGrid_;
};

class DriverDevice final : public Device {
public:
  explicit DriverDevice(std::unique_ptr<GpuDriver> driver)
      : driver_(std::move(driver)) {}

  ~DriverDevice() override {
    for (void *event : {start_, end_})
      if (event)
        driver_->destroyEvent(event);
  }

  DeviceKind kind() const override { return driver_->kind(); }
  std::string name() const override { return driver_->deviceName(); }

  Result<std::unique_ptr<Buffer>> allocate(const PlanBuffer &desc) override {
    return allocateWith(desc, /*queueOrdered=*/false);
  }

  Result<std::unique_ptr<Buffer>>
  allocateAsync(const PlanBuffer &desc) override {
    return allocateWith(desc, /*queueOrdered=*/true);
  }

  Status upload(Buffer &buffer, const HostTensor &tensor) override {
    if (Status s = checkUpload(buffer, tensor); !s)
      return s;
    if (buffer.size() == 0)
      return Status::success();
    if (void *host = buffer.hostPointer()) {
      std::memcpy(host, tensor.data.data(), buffer.size());
      return Status::success();
    }
    if (Status s = driver_->makeCurrent(); !s)
      return s;
    return driver_->copyToDevice(static_cast<DriverBuffer &>(buffer).address(),
                                 tensor.data.data(), buffer.size());
  }

  Status download(const Buffer &buffer, HostTensor &tensor) override {
    if (Status s = checkDownload(buffer); !s)
      return s;
    tensor.type = buffer.desc().type;
    tensor.shape = buffer.desc().shape;
    tensor.data.assign(buffer.size(), 0);
    if (buffer.size() == 0)
      return Status::success();
    if (void *host = buffer.hostPointer()) {
      std::memcpy(tensor.data.data(), host, buffer.size());
      return Status::success();
    }
    // device_local: through a page-locked staging copy.
    if (Status s = driver_->makeCurrent(); !s)
      return s;
    Result<GpuDriver::HostMemory> staging = driver_->allocateHost(buffer.size());
    if (!staging.ok())
      return makeError("staging buffer: " + staging.message());
    ++stagingCopies_;
    Status copied = driver_->copyToHost(
        staging->host, static_cast<const DriverBuffer &>(buffer).address(),
        buffer.size());
    if (copied.ok())
      std::memcpy(tensor.data.data(), staging->host, buffer.size());
    driver_->freeHost(staging->host);
    return copied;
  }

  /// Downloads that went through a staging copy.
  int stagingCopies() const { return stagingCopies_; }

  Result<std::unique_ptr<LoadedExecutable>>
  load(const Executable &executable) override {
    if (executable.format != driver_->format())
      return makeError("the " + std::string(toString(kind())) +
                       " device runs " +
                       std::string(toString(driver_->format())) +
                       " executables, not " +
                       std::string(toString(executable.format)));
    if (Status s = driver_->makeCurrent(); !s)
      return s.error();
    auto start = std::chrono::steady_clock::now();
    // A PTX module compiled ahead (ModuleCache.h) loads as its cubin (one
    // still being compiled is waited for, as SIFT_CUBIN_WAIT allows); one
    // the driver refuses is loaded from its PTX, which is the truth.
    Result<void *> module = makeError("no module");
    std::optional<std::vector<uint8_t>> cubin;
    if (executable.format == ExecutableFormat::Ptx)
      if (std::string dir = cubinCacheDir(); !dir.empty())
        cubin = awaitCubin(dir, executable.binary, cubinWaitSeconds());
    if (cubin)
      module = driver_->loadModule(*cubin);
    if (!cubin || !module.ok())
      module = driver_->loadModule(executable.binary);
    times_.moduleLoad += std::chrono::steady_clock::now() - start;
    if (!module.ok())
      return module.error();
    std::vector<void *> functions;
    std::vector<bool> waits;
    for (const std::string &entry : executable.entries) {
      Result<void *> function = driver_->function(*module, entry);
      if (!function.ok()) {
        driver_->unloadModule(*module);
        return function.error();
      }
      functions.push_back(*function);
      waits.push_back(executable.format == ExecutableFormat::Ptx &&
                      ptxEntryWaitsForGrid(executable.binary, entry));
    }
    return std::unique_ptr<LoadedExecutable>(std::make_unique<DriverExecutable>(
        *this, executable.format, executable.entries, *driver_, *module,
        std::move(functions), std::move(waits)));
  }

  Status dispatch(LoadedExecutable &executable, const Dispatch &dispatch,
                  const std::vector<Buffer *> &bindings) override {
    if (Status s = checkDispatch(executable, dispatch, bindings); !s)
      return s;
    const auto &block = dispatch.block;
    if (block[0] > 1024 || block[1] > 1024 || block[2] > 64 ||
        uint64_t(block[0]) * block[1] * block[2] > 1024)
      return makeError("block [" + std::to_string(block[0]) + ", " +
                       std::to_string(block[1]) + ", " +
                       std::to_string(block[2]) +
                       "] is over the GPU limits (x, y <= 1024, z <= 64, "
                       "1024 threads)");
    if (dispatch.grid[1] > 65535 || dispatch.grid[2] > 65535)
      return makeError("grid y and z are at most 65535");
    if (!dispatch.constants.empty())
      return makeError("GPU kernels take no push constants (ABI " +
                       std::string(kGpuKernelAbi) + ")");
    if (Status s = driver_->makeCurrent(); !s)
      return s;
    std::vector<uint64_t> addresses;
    for (Buffer *binding : bindings)
      addresses.push_back(static_cast<DriverBuffer *>(binding)->address());
    std::vector<void *> params;
    for (uint64_t &address : addresses)
      params.push_back(&address);
    startTiming();
    auto &loaded = static_cast<DriverExecutable &>(executable);
    return driver_->launch(loaded.function(dispatch.entry), dispatch.grid,
                           dispatch.block, params.data(),
                           loaded.waitsForGrid(dispatch.entry));
  }

  Status synchronize() override {
    if (Status s = driver_->makeCurrent(); !s)
      return s;
    if (timing_) {
      timing_ = false;
      if (driver_->recordEvent(end_).ok()) {
        Result<float> ms = driver_->elapsedMs(start_, end_);
        if (ms.ok())
          times_.kernels += std::chrono::nanoseconds(
              static_cast<int64_t>(static_cast<double>(*ms) * 1e6));
      }
    }
    return driver_->synchronize();
  }

  const GpuTimes &times() const { return times_; }

private:
  /// Device memory for `desc`, queue-ordered where asked and the driver
  /// can (otherwise in order, which is a valid queue order too).
  Result<std::unique_ptr<Buffer>> allocateWith(const PlanBuffer &desc,
                                               bool queueOrdered) {
    std::optional<uint64_t> bytes = bufferByteSize(desc.type, desc.shape);
    if (!bytes || *bytes > kMaxPlanBytes)
      return makeError("buffer " + describe(desc.type, desc.shape) +
                       " has no valid size");
    uint64_t address = 0;
    bool ordered = false;
    if (*bytes > 0 && (hasAll(desc.memory, MemoryType::HostVisible) ||
                       hasAll(desc.memory, MemoryType::HostCoherent))) {
      if (Status s = driver_->makeCurrent(); !s)
        return s.error();
      Result<GpuDriver::HostMemory> host = driver_->allocateHost(*bytes);
      if (!host.ok())
        return host.error();
      return std::unique_ptr<Buffer>(std::make_unique<DriverBuffer>(
          *this, desc, *bytes, *driver_, host->device, queueOrdered, false,
          host->host));
    }
    if (*bytes > 0) {
      if (Status s = driver_->makeCurrent(); !s)
        return s.error();
      std::optional<Result<uint64_t>> async;
      if (queueOrdered)
        async = driver_->allocateAsync(*bytes);
      Result<uint64_t> allocated =
          async ? std::move(*async) : driver_->allocate(*bytes);
      if (!allocated.ok())
        return allocated.error();
      address = *allocated;
      ordered = async.has_value();
    }
    return std::unique_ptr<Buffer>(std::make_unique<DriverBuffer>(
        *this, desc, *bytes, *driver_, address, queueOrdered, ordered));
  }

  /// Records the start event before the first launch since a synchronize;
  /// timing is best effort and never fails a dispatch.
  void startTiming() {
    if (timing_)
      return;
    for (void **event : {&start_, &end_})
      if (!*event) {
        Result<void *> created = driver_->createEvent();
        if (!created.ok())
          return;
        *event = *created;
      }
    timing_ = driver_->recordEvent(start_).ok();
  }

  std::unique_ptr<GpuDriver> driver_;
  void *start_ = nullptr, *end_ = nullptr;
  bool timing_ = false;
  GpuTimes times_;
  int stagingCopies_ = 0;
};

} // namespace

std::unique_ptr<Device>
rt::createDriverDevice(std::unique_ptr<GpuDriver> driver) {
  return std::make_unique<DriverDevice>(std::move(driver));
}

int rt::gpuStagingCopies(const Device &device) {
  if (auto *gpu = dynamic_cast<const DriverDevice *>(&device))
    return gpu->stagingCopies();
  return 0;
}

GpuTimes rt::gpuTimes(const Device &device) {
  if (auto *gpu = dynamic_cast<const DriverDevice *>(&device))
    return gpu->times();
  return {};
}
