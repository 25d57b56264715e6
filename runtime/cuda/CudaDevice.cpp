//===- runtime/cuda/CudaDevice.cpp - The CUDA driver as a GpuDriver -------===//
//
// The driver API is declared here, not included: only the handful of types
// and functions this file calls, with the driver's stable C ABI (handles are
// pointers, CUdeviceptr is 64 bits, CUresult an int). Every result goes
// through check(), which turns a failure into an error carrying the
// driver's own name and message for it.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaDevice.h"

#include <cstdio>
#include <optional>

using namespace sift;
using namespace sift::rt;

namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUdeviceptr = unsigned long long;
constexpr CUresult kSuccess = 0;

/// cuLaunchKernelEx's attribute (CUlaunchAttribute: an id, padding to 8
/// bytes, a 64-byte value) and configuration (CUlaunchConfig).
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    int programmaticStreamSerializationAllowed;
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute's layout");
struct LaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};
/// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION.
constexpr int kProgrammaticStreamSerialization = 6;
/// CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR.
constexpr int kComputeCapabilityMajor = 75;

/// The driver functions sift calls.
struct CudaApi {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetName)(char *, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*primaryCtxRelease)(CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*ctxSynchronize)();
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*moduleLoadData)(CUmodule *, const void *);
  CUresult (*moduleUnload)(CUmodule);
  CUresult (*moduleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                           unsigned, unsigned, unsigned, CUstream, void **,
                           void **);
  CUresult (*eventCreate)(CUevent *, unsigned);
  CUresult (*eventDestroy)(CUevent);
  CUresult (*eventRecord)(CUevent, CUstream);
  CUresult (*eventSynchronize)(CUevent);
  CUresult (*eventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*getErrorName)(CUresult, const char **);
  CUresult (*getErrorString)(CUresult, const char **);
  CUresult (*memHostAlloc)(void **, size_t, unsigned);
  CUresult (*memHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*memFreeHost)(void *);
  // Optional (CUDA 11.2+): queue-ordered allocation.
  CUresult (*memAllocAsync)(CUdeviceptr *, size_t, CUstream);
  CUresult (*memFreeAsync)(CUdeviceptr, CUstream);
  // Optional (CUDA 12.0+): launches with attributes (programmatic launch).
  CUresult (*launchKernelEx)(const struct LaunchConfig *, CUfunction, void **,
                             void **);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
};

/// Looks every function up; the first missing one is the error.
Status lookupAll(const DynamicLibrary &library, CudaApi &api) {
  std::string missing;
  library.require("cuInit", api.init, missing);
  library.require("cuDeviceGetCount", api.deviceGetCount, missing);
  library.require("cuDeviceGet", api.deviceGet, missing);
  library.require("cuDeviceGetName", api.deviceGetName, missing);
  library.require("cuDevicePrimaryCtxRetain", api.primaryCtxRetain, missing);
  library.require("cuDevicePrimaryCtxRelease_v2", api.primaryCtxRelease, missing);
  library.require("cuCtxSetCurrent", api.ctxSetCurrent, missing);
  library.require("cuCtxSynchronize", api.ctxSynchronize, missing);
  library.require("cuMemAlloc_v2", api.memAlloc, missing);
  library.require("cuMemFree_v2", api.memFree, missing);
  library.require("cuMemcpyHtoD_v2", api.memcpyHtoD, missing);
  library.require("cuMemHostAlloc", api.memHostAlloc, missing);
  library.require("cuMemHostGetDevicePointer_v2", api.memHostGetDevicePointer, missing);
  library.require("cuMemFreeHost", api.memFreeHost, missing);
  library.require("cuMemcpyDtoH_v2", api.memcpyDtoH, missing);
  library.require("cuModuleLoadData", api.moduleLoadData, missing);
  library.require("cuModuleUnload", api.moduleUnload, missing);
  library.require("cuModuleGetFunction", api.moduleGetFunction, missing);
  library.require("cuLaunchKernel", api.launchKernel, missing);
  library.require("cuEventCreate", api.eventCreate, missing);
  library.require("cuEventDestroy_v2", api.eventDestroy, missing);
  library.require("cuEventRecord", api.eventRecord, missing);
  library.require("cuEventSynchronize", api.eventSynchronize, missing);
  library.require("cuEventElapsedTime", api.eventElapsedTime, missing);
  library.require("cuGetErrorName", api.getErrorName, missing);
  library.require("cuGetErrorString", api.getErrorString, missing);
  if (!missing.empty())
    return makeError(std::string("the NVIDIA driver library has no ") +
                     missing + " (a driver too old for sift?)");
  if (!library.lookup("cuMemAllocAsync", api.memAllocAsync) ||
      !library.lookup("cuMemFreeAsync", api.memFreeAsync))
    api.memAllocAsync = nullptr;
  if (!library.lookup("cuLaunchKernelEx", api.launchKernelEx) ||
      !library.lookup("cuDeviceGetAttribute", api.deviceGetAttribute))
    api.launchKernelEx = nullptr;
  return Status::success();
}

class CudaDriver final : public GpuDriver {
public:
  CudaDriver(std::shared_ptr<DynamicLibrary> library, CudaApi api,
             CUdevice device, CUcontext context, std::string name)
      : library_(std::move(library)), api_(api), device_(device),
        context_(context), name_(std::move(name)) {}
  ~CudaDriver() override { api_.primaryCtxRelease(device_); }

  /// "CUDA_ERROR_X (message)" for a failed call of `what`.
  static Status check(const CudaApi &api, CUresult result, const char *what) {
    if (result == kSuccess)
      return Status::success();
    const char *name = nullptr, *text = nullptr;
    api.getErrorName(result, &name);
    api.getErrorString(result, &text);
    return makeError(std::string(what) + " failed: " +
                     (name ? name : "CUDA error " + std::to_string(result)) +
                     (text ? std::string(" (") + text + ")" : std::string()));
  }
  Status check(CUresult result, const char *what) const {
    return check(api_, result, what);
  }

  DeviceKind kind() const override { return DeviceKind::Cuda; }
  std::string deviceName() const override { return name_; }
  ExecutableFormat format() const override { return ExecutableFormat::Ptx; }

  Status makeCurrent() override {
    return check(api_.ctxSetCurrent(context_), "cuCtxSetCurrent");
  }
  Result<uint64_t> allocate(uint64_t bytes) override {
    CUdeviceptr address = 0;
    if (Status s = check(api_.memAlloc(&address, bytes), "cuMemAlloc"); !s)
      return s.error();
    return static_cast<uint64_t>(address);
  }
  void free(uint64_t address) override { api_.memFree(address); }
  std::optional<Result<uint64_t>> allocateAsync(uint64_t bytes) override {
    if (!api_.memAllocAsync)
      return std::nullopt;
    CUdeviceptr address = 0;
    if (Status s = check(api_.memAllocAsync(&address, bytes, nullptr),
                         "cuMemAllocAsync");
        !s)
      return Result<uint64_t>(s.error());
    return Result<uint64_t>(static_cast<uint64_t>(address));
  }
  void freeAsync(uint64_t address) override {
    api_.memFreeAsync(address, nullptr);
  }
  Result<HostMemory> allocateHost(uint64_t bytes) override {
    constexpr unsigned kPortable = 0x01, kDeviceMap = 0x02;
    HostMemory memory;
    if (Status s = check(api_.memHostAlloc(&memory.host, bytes,
                                           kPortable | kDeviceMap),
                         "cuMemHostAlloc");
        !s)
      return s.error();
    CUdeviceptr device = 0;
    if (Status s = check(api_.memHostGetDevicePointer(&device, memory.host, 0),
                         "cuMemHostGetDevicePointer");
        !s) {
      api_.memFreeHost(memory.host);
      return s.error();
    }
    memory.device = device;
    return memory;
  }
  void freeHost(void *host) override { api_.memFreeHost(host); }
  Status copyToDevice(uint64_t address, const void *data,
                      uint64_t bytes) override {
    return check(api_.memcpyHtoD(address, data, bytes), "cuMemcpyHtoD");
  }
  Status copyToHost(void *data, uint64_t address, uint64_t bytes) override {
    return check(api_.memcpyDtoH(data, address, bytes), "cuMemcpyDtoH");
  }
  Result<void *> loadModule(const std::vector<uint8_t> &image) override {
    // cuModuleLoadData reads PTX as a NUL-terminated string.
    std::string ptx(image.begin(), image.end());
    CUmodule module = nullptr;
    if (Status s = check(api_.moduleLoadData(&module, ptx.c_str()),
                         "cuModuleLoadData");
        !s)
      return s.error();
    return static_cast<void *>(module);
  }
  void unloadModule(void *module) override {
    api_.moduleUnload(static_cast<CUmodule>(module));
  }
  Result<void *> function(void *module, const std::string &name) override {
    CUfunction function = nullptr;
    if (Status s = check(api_.moduleGetFunction(
                             &function, static_cast<CUmodule>(module),
                             name.c_str()),
                         ("cuModuleGetFunction(" + name + ")").c_str());
        !s)
      return s.error();
    return static_cast<void *>(function);
  }
  Status launch(void *function, std::array<uint32_t, 3> grid,
                std::array<uint32_t, 3> block, void **params,
                bool programmatic) override {
    if (programmatic && programmaticLaunch()) {
      LaunchAttribute attribute{};
      attribute.id = kProgrammaticStreamSerialization;
      attribute.value.programmaticStreamSerializationAllowed = 1;
      LaunchConfig config{grid[0],  grid[1], grid[2], block[0],   block[1],
                          block[2], 0,       nullptr, &attribute, 1};
      CUresult result = api_.launchKernelEx(
          &config, static_cast<CUfunction>(function), params, nullptr);
      if (result == kSuccess)
        return Status::success();
      // Launched plainly instead: when that works, the driver refused the
      // attribute, and every launch is plain from now on (the kernel's
      // wait is then a no-op), said once; when it fails too, its error is
      // the launch's.
      Status plain = launchPlainly(function, grid, block, params);
      if (plain) {
        programmatic_ = false;
        std::fprintf(stderr,
                     "sift: programmatic launches are off: %s; kernels are "
                     "launched one after another\n",
                     check(result, "cuLaunchKernelEx").message().c_str());
      }
      return plain;
    }
    return launchPlainly(function, grid, block, params);
  }
  Status launchPlainly(void *function, std::array<uint32_t, 3> grid,
                       std::array<uint32_t, 3> block, void **params) {
    return check(api_.launchKernel(static_cast<CUfunction>(function), grid[0],
                                   grid[1], grid[2], block[0], block[1],
                                   block[2], 0, nullptr, params, nullptr),
                 "cuLaunchKernel");
  }
  Status synchronize() override {
    return check(api_.ctxSynchronize(), "cuCtxSynchronize");
  }
  Result<void *> createEvent() override {
    CUevent event = nullptr;
    if (Status s = check(api_.eventCreate(&event, 0), "cuEventCreate"); !s)
      return s.error();
    return static_cast<void *>(event);
  }
  void destroyEvent(void *event) override {
    api_.eventDestroy(static_cast<CUevent>(event));
  }
  Status recordEvent(void *event) override {
    return check(api_.eventRecord(static_cast<CUevent>(event), nullptr),
                 "cuEventRecord");
  }
  Result<float> elapsedMs(void *start, void *end) override {
    if (Status s = check(api_.eventSynchronize(static_cast<CUevent>(end)),
                         "cuEventSynchronize");
        !s)
      return s.error();
    float ms = 0;
    if (Status s = check(api_.eventElapsedTime(&ms, static_cast<CUevent>(start),
                                               static_cast<CUevent>(end)),
                         "cuEventElapsedTime");
        !s)
      return s.error();
    return ms;
  }

private:
  /// Whether a launch asked to be programmatic is: the driver has
  /// cuLaunchKernelEx, the device is sm_90 or later, SIFT_PROGRAMMATIC_LAUNCH
  /// allows it, and the driver has not refused it yet.
  bool programmaticLaunch() {
    if (!programmatic_) {
      int major = 0;
      bool on = api_.launchKernelEx &&
                api_.deviceGetAttribute(&major, kComputeCapabilityMajor,
                                        device_) == kSuccess &&
                major >= 9 && programmaticLaunchAllowed();
      programmatic_ = on;
    }
    return *programmatic_;
  }

  std::shared_ptr<DynamicLibrary> library_;
  CudaApi api_;
  CUdevice device_;
  CUcontext context_;
  std::string name_;
  /// Whether launches may be programmatic (unknown until first asked).
  std::optional<bool> programmatic_;
};

} // namespace

Result<std::unique_ptr<Device>>
rt::createCudaDevice(CudaDeviceOptions options) {
  std::vector<std::string> candidates;
  if (!options.driverPath.empty())
    candidates.push_back(options.driverPath);
  else
    candidates.assign(std::begin(kCudaDriverLibraries),
                      std::end(kCudaDriverLibraries));
  auto library = DynamicLibrary::open(
      candidates, "the cuda device needs the NVIDIA driver");
  if (!library.ok())
    return makeError(library.message() + " (no NVIDIA driver on this host?)");
  CudaApi api{};
  if (Status s = lookupAll(**library, api); !s)
    return s.error();
  if (Status s = CudaDriver::check(api, api.init(0), "cuInit"); !s)
    return makeError("the NVIDIA driver did not start: " + s.message());
  int count = 0;
  if (Status s = CudaDriver::check(api, api.deviceGetCount(&count),
                                   "cuDeviceGetCount");
      !s)
    return s.error();
  if (options.ordinal < 0 || options.ordinal >= count)
    return makeError("no cuda GPU " + std::to_string(options.ordinal) +
                     ": this host has " + std::to_string(count));
  CUdevice device = 0;
  if (Status s = CudaDriver::check(api, api.deviceGet(&device, options.ordinal),
                                   "cuDeviceGet");
      !s)
    return s.error();
  char name[256] = {};
  api.deviceGetName(name, sizeof(name) - 1, device);
  CUcontext context = nullptr;
  if (Status s = CudaDriver::check(api, api.primaryCtxRetain(&context, device),
                                   "cuDevicePrimaryCtxRetain");
      !s)
    return s.error();
  return createDriverDevice(std::make_unique<CudaDriver>(
      std::move(*library), api, device, context,
      "cuda:" + std::to_string(options.ordinal) + " (" + name + ")"));
}
