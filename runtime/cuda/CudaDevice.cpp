//===- runtime/cuda/CudaDevice.cpp - The CUDA driver behind Device --------===//
//
// The driver API is declared here, not included: only the handful of types
// and functions this file calls, with the driver's stable C ABI (handles are
// pointers, CUdeviceptr is 64 bits, CUresult an int). Every call's result
// goes through check(), which turns a failure into an error carrying the
// driver's own name and message for it.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaDevice.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <vector>

using namespace sift;
using namespace sift::rt;

namespace sift::rt {

namespace cu {
using Result = int;
using Device = int;
using Context = struct CUctx_st *;
using Module = struct CUmod_st *;
using Function = struct CUfunc_st *;
using Stream = struct CUstream_st *;
using Event = struct CUevent_st *;
using DevicePtr = unsigned long long;
constexpr Result kSuccess = 0;
} // namespace cu

/// The driver functions sift calls, looked up by name.
struct CudaDriver {
  void *handle = nullptr;
  cu::Result (*init)(unsigned);
  cu::Result (*deviceGetCount)(int *);
  cu::Result (*deviceGet)(cu::Device *, int);
  cu::Result (*deviceGetName)(char *, int, cu::Device);
  cu::Result (*primaryCtxRetain)(cu::Context *, cu::Device);
  cu::Result (*primaryCtxRelease)(cu::Device);
  cu::Result (*ctxSetCurrent)(cu::Context);
  cu::Result (*ctxSynchronize)();
  cu::Result (*memAlloc)(cu::DevicePtr *, size_t);
  cu::Result (*memFree)(cu::DevicePtr);
  cu::Result (*memcpyHtoD)(cu::DevicePtr, const void *, size_t);
  cu::Result (*memcpyDtoH)(void *, cu::DevicePtr, size_t);
  cu::Result (*moduleLoadData)(cu::Module *, const void *);
  cu::Result (*moduleUnload)(cu::Module);
  cu::Result (*moduleGetFunction)(cu::Function *, cu::Module, const char *);
  cu::Result (*launchKernel)(cu::Function, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned,
                             cu::Stream, void **, void **);
  cu::Result (*eventCreate)(cu::Event *, unsigned);
  cu::Result (*eventDestroy)(cu::Event);
  cu::Result (*eventRecord)(cu::Event, cu::Stream);
  cu::Result (*eventSynchronize)(cu::Event);
  cu::Result (*eventElapsedTime)(float *, cu::Event, cu::Event);
  cu::Result (*getErrorName)(cu::Result, const char **);
  cu::Result (*getErrorString)(cu::Result, const char **);

  ~CudaDriver() {
    if (handle)
      dlclose(handle);
  }

  /// "CUDA_ERROR_X (message)" for a failed call.
  std::string describe(cu::Result result) const {
    const char *name = nullptr, *text = nullptr;
    getErrorName(result, &name);
    getErrorString(result, &text);
    return std::string(name ? name : "CUDA error " + std::to_string(result)) +
           (text ? std::string(" (") + text + ")" : std::string());
  }

  Status check(cu::Result result, const char *what) const {
    if (result == cu::kSuccess)
      return Status::success();
    return makeError(std::string(what) + " failed: " + describe(result));
  }
};

} // namespace sift::rt

namespace {

template <typename F> bool lookup(void *handle, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(handle, name));
  return slot != nullptr;
}

} // namespace

namespace {

std::shared_ptr<const CudaDriver> openDriverAt(const std::string &path,
                                               std::string &error) {
  std::vector<std::string> candidates;
  if (!path.empty())
    candidates.push_back(path);
  else
    for (const char *library : kCudaDriverLibraries)
      candidates.push_back(library);
  void *handle = nullptr;
  std::string tried;
  for (const std::string &candidate : candidates) {
    handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle)
      break;
    tried += (tried.empty() ? "" : ", ") + candidate;
  }
  if (!handle) {
    error = "the cuda device needs the NVIDIA driver, but " + tried +
            " could not be loaded (no NVIDIA driver on this host?)";
    return nullptr;
  }
  auto driver = std::make_shared<CudaDriver>();
  driver->handle = handle;
  struct Symbol {
    const char *name;
    bool found;
  };
  Symbol symbols[] = {
      {"cuInit", lookup(handle, "cuInit", driver->init)},
      {"cuDeviceGetCount",
       lookup(handle, "cuDeviceGetCount", driver->deviceGetCount)},
      {"cuDeviceGet", lookup(handle, "cuDeviceGet", driver->deviceGet)},
      {"cuDeviceGetName",
       lookup(handle, "cuDeviceGetName", driver->deviceGetName)},
      {"cuDevicePrimaryCtxRetain",
       lookup(handle, "cuDevicePrimaryCtxRetain", driver->primaryCtxRetain)},
      {"cuDevicePrimaryCtxRelease_v2",
       lookup(handle, "cuDevicePrimaryCtxRelease_v2",
              driver->primaryCtxRelease)},
      {"cuCtxSetCurrent", lookup(handle, "cuCtxSetCurrent",
                                 driver->ctxSetCurrent)},
      {"cuCtxSynchronize",
       lookup(handle, "cuCtxSynchronize", driver->ctxSynchronize)},
      {"cuMemAlloc_v2", lookup(handle, "cuMemAlloc_v2", driver->memAlloc)},
      {"cuMemFree_v2", lookup(handle, "cuMemFree_v2", driver->memFree)},
      {"cuMemcpyHtoD_v2",
       lookup(handle, "cuMemcpyHtoD_v2", driver->memcpyHtoD)},
      {"cuMemcpyDtoH_v2",
       lookup(handle, "cuMemcpyDtoH_v2", driver->memcpyDtoH)},
      {"cuModuleLoadData",
       lookup(handle, "cuModuleLoadData", driver->moduleLoadData)},
      {"cuModuleUnload", lookup(handle, "cuModuleUnload",
                                driver->moduleUnload)},
      {"cuModuleGetFunction",
       lookup(handle, "cuModuleGetFunction", driver->moduleGetFunction)},
      {"cuLaunchKernel", lookup(handle, "cuLaunchKernel",
                                driver->launchKernel)},
      {"cuEventCreate", lookup(handle, "cuEventCreate", driver->eventCreate)},
      {"cuEventDestroy_v2",
       lookup(handle, "cuEventDestroy_v2", driver->eventDestroy)},
      {"cuEventRecord", lookup(handle, "cuEventRecord", driver->eventRecord)},
      {"cuEventSynchronize",
       lookup(handle, "cuEventSynchronize", driver->eventSynchronize)},
      {"cuEventElapsedTime",
       lookup(handle, "cuEventElapsedTime", driver->eventElapsedTime)},
      {"cuGetErrorName", lookup(handle, "cuGetErrorName",
                                driver->getErrorName)},
      {"cuGetErrorString",
       lookup(handle, "cuGetErrorString", driver->getErrorString)},
  };
  for (const Symbol &symbol : symbols)
    if (!symbol.found) {
      error = std::string("the NVIDIA driver library has no ") + symbol.name +
              " (a driver too old for sift?)";
      return nullptr;
    }
  return driver;
}

class CudaBuffer final : public Buffer {
public:
  CudaBuffer(const Device &device, PlanBuffer desc, uint64_t size,
             std::shared_ptr<const CudaDriver> driver, cu::DevicePtr address)
      : Buffer(device, std::move(desc), size), driver_(std::move(driver)),
        address_(address) {}
  ~CudaBuffer() override {
    if (address_)
      driver_->memFree(address_);
  }
  cu::DevicePtr address() const { return address_; }

private:
  std::shared_ptr<const CudaDriver> driver_;
  cu::DevicePtr address_;
};

class CudaExecutable final : public LoadedExecutable {
public:
  CudaExecutable(const Device &device, std::vector<std::string> entries,
                 std::shared_ptr<const CudaDriver> driver, cu::Module module,
                 std::vector<cu::Function> functions)
      : LoadedExecutable(device, ExecutableFormat::Ptx, std::move(entries)),
        driver_(std::move(driver)), module_(module),
        functions_(std::move(functions)) {}
  ~CudaExecutable() override { driver_->moduleUnload(module_); }
  cu::Function function(int entry) const { return functions_[entry]; }

private:
  std::shared_ptr<const CudaDriver> driver_;
  cu::Module module_;
  std::vector<cu::Function> functions_;
};

class CudaDevice final : public Device {
public:
  CudaDevice(std::shared_ptr<const CudaDriver> driver, cu::Device device,
             cu::Context context, std::string name)
      : driver_(std::move(driver)), device_(device), context_(context),
        name_(std::move(name)) {}

  ~CudaDevice() override {
    if (start_)
      driver_->eventDestroy(start_);
    if (end_)
      driver_->eventDestroy(end_);
    driver_->primaryCtxRelease(device_);
  }

  DeviceKind kind() const override { return DeviceKind::Cuda; }
  std::string name() const override { return name_; }

  Result<std::unique_ptr<Buffer>> allocate(const PlanBuffer &desc) override {
    std::optional<uint64_t> bytes = bufferByteSize(desc.type, desc.shape);
    if (!bytes || *bytes > kMaxPlanBytes)
      return makeError("buffer " + describe(desc.type, desc.shape) +
                       " has no valid size");
    cu::DevicePtr address = 0;
    // The driver refuses 0-byte allocations: an empty buffer has no address.
    if (*bytes > 0)
      if (Status s = current(); !s)
        return s.error();
    if (*bytes > 0)
      if (Status s = driver_->check(driver_->memAlloc(&address, *bytes),
                                    "cuMemAlloc");
          !s)
        return s.error();
    return std::unique_ptr<Buffer>(
        std::make_unique<CudaBuffer>(*this, desc, *bytes, driver_, address));
  }

  Status upload(Buffer &buffer, const HostTensor &tensor) override {
    if (Status s = checkUpload(buffer, tensor); !s)
      return s;
    if (buffer.size() == 0)
      return Status::success();
    if (Status s = current(); !s)
      return s;
    return driver_->check(
        driver_->memcpyHtoD(static_cast<CudaBuffer &>(buffer).address(),
                            tensor.data.data(), buffer.size()),
        "cuMemcpyHtoD");
  }

  Status download(const Buffer &buffer, HostTensor &tensor) override {
    if (Status s = checkDownload(buffer); !s)
      return s;
    tensor.type = buffer.desc().type;
    tensor.shape = buffer.desc().shape;
    tensor.data.assign(buffer.size(), 0);
    if (buffer.size() == 0)
      return Status::success();
    if (Status s = current(); !s)
      return s;
    return driver_->check(
        driver_->memcpyDtoH(tensor.data.data(),
                            static_cast<const CudaBuffer &>(buffer).address(),
                            buffer.size()),
        "cuMemcpyDtoH");
  }

  Result<std::unique_ptr<LoadedExecutable>>
  load(const Executable &executable) override {
    if (executable.format != ExecutableFormat::Ptx)
      return makeError("the cuda device runs PTX executables, not " +
                       std::string(toString(executable.format)));
    if (Status s = current(); !s)
      return s.error();
    // cuModuleLoadData reads PTX as a NUL-terminated string.
    std::string ptx(executable.binary.begin(), executable.binary.end());
    cu::Module module = nullptr;
    auto start = std::chrono::steady_clock::now();
    cu::Result loaded = driver_->moduleLoadData(&module, ptx.c_str());
    times_.moduleLoad += std::chrono::steady_clock::now() - start;
    if (Status s = driver_->check(loaded, "cuModuleLoadData"); !s)
      return s.error();
    std::vector<cu::Function> functions;
    for (const std::string &entry : executable.entries) {
      cu::Function function = nullptr;
      if (Status s = driver_->check(
              driver_->moduleGetFunction(&function, module, entry.c_str()),
              ("cuModuleGetFunction(" + entry + ")").c_str());
          !s) {
        driver_->moduleUnload(module);
        return s.error();
      }
      functions.push_back(function);
    }
    return std::unique_ptr<LoadedExecutable>(std::make_unique<CudaExecutable>(
        *this, executable.entries, driver_, module, std::move(functions)));
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
                       "] is over CUDA's limits (x, y <= 1024, z <= 64, "
                       "1024 threads)");
    if (dispatch.grid[1] > 65535 || dispatch.grid[2] > 65535)
      return makeError("grid y and z are at most 65535 in CUDA");
    if (!dispatch.constants.empty())
      return makeError("the cuda device takes no push constants (ABI "
                       "ptx-bare-v1)");
    if (Status s = current(); !s)
      return s;
    std::vector<cu::DevicePtr> addresses;
    for (Buffer *binding : bindings)
      addresses.push_back(static_cast<CudaBuffer *>(binding)->address());
    std::vector<void *> params;
    for (cu::DevicePtr &address : addresses)
      params.push_back(&address);
    if (!timing_) {
      if (!start_ && !driver_->check(driver_->eventCreate(&start_, 0),
                                     "cuEventCreate"))
        start_ = nullptr;
      if (!end_ && !driver_->check(driver_->eventCreate(&end_, 0),
                                   "cuEventCreate"))
        end_ = nullptr;
      timing_ = start_ && end_ &&
                driver_->eventRecord(start_, nullptr) == cu::kSuccess;
    }
    auto &g = dispatch.grid;
    auto &b = dispatch.block;
    return driver_->check(
        driver_->launchKernel(
            static_cast<CudaExecutable &>(executable).function(dispatch.entry),
            static_cast<unsigned>(g[0]), static_cast<unsigned>(g[1]),
            static_cast<unsigned>(g[2]), static_cast<unsigned>(b[0]),
            static_cast<unsigned>(b[1]), static_cast<unsigned>(b[2]), 0,
            nullptr, params.data(), nullptr),
        "cuLaunchKernel");
  }

  Status synchronize() override {
    if (Status s = current(); !s)
      return s;
    if (timing_) {
      timing_ = false;
      if (driver_->eventRecord(end_, nullptr) == cu::kSuccess &&
          driver_->eventSynchronize(end_) == cu::kSuccess) {
        float ms = 0;
        if (driver_->eventElapsedTime(&ms, start_, end_) == cu::kSuccess)
          times_.kernels += std::chrono::nanoseconds(
              static_cast<int64_t>(static_cast<double>(ms) * 1e6));
      }
    }
    return driver_->check(driver_->ctxSynchronize(), "cuCtxSynchronize");
  }

  const CudaTimes &times() const { return times_; }

private:
  Status current() const {
    return driver_->check(driver_->ctxSetCurrent(context_), "cuCtxSetCurrent");
  }

  std::shared_ptr<const CudaDriver> driver_;
  cu::Device device_;
  cu::Context context_;
  std::string name_;
  cu::Event start_ = nullptr, end_ = nullptr;
  bool timing_ = false;
  CudaTimes times_;
};

} // namespace

Result<std::unique_ptr<Device>>
rt::createCudaDevice(CudaDeviceOptions options) {
  std::string error;
  std::shared_ptr<const CudaDriver> driver =
      openDriverAt(options.driverPath, error);
  if (!driver)
    return makeError(error);
  if (Status s = driver->check(driver->init(0), "cuInit"); !s)
    return makeError("the NVIDIA driver did not start: " + s.message());
  int count = 0;
  if (Status s = driver->check(driver->deviceGetCount(&count),
                               "cuDeviceGetCount");
      !s)
    return s.error();
  if (options.ordinal < 0 || options.ordinal >= count)
    return makeError("no cuda GPU " + std::to_string(options.ordinal) +
                     ": this host has " + std::to_string(count));
  cu::Device device = 0;
  if (Status s = driver->check(driver->deviceGet(&device, options.ordinal),
                               "cuDeviceGet");
      !s)
    return s.error();
  char name[256] = {};
  driver->deviceGetName(name, sizeof(name) - 1, device);
  cu::Context context = nullptr;
  if (Status s = driver->check(driver->primaryCtxRetain(&context, device),
                               "cuDevicePrimaryCtxRetain");
      !s)
    return s.error();
  return std::unique_ptr<Device>(std::make_unique<CudaDevice>(
      driver, device, context,
      "cuda:" + std::to_string(options.ordinal) + " (" + name + ")"));
}

std::shared_ptr<const CudaDriver> rt::openCudaDriver(std::string &error) {
  return openDriverAt("", error);
}

CudaTimes rt::cudaTimes(const Device &device) {
  if (auto *cuda = dynamic_cast<const CudaDevice *>(&device))
    return cuda->times();
  return {};
}
