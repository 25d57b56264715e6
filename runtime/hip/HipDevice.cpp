//===- runtime/hip/HipDevice.cpp - HIP's module API as a GpuDriver --------===//
//
// Like runtime/cuda: the functions sift calls, looked up by name in the
// library opened at run time, each result turned into a Status with HIP's
// own error name and message. With SIFT_HIP_HEADERS (CMake found
// hip/hip_runtime_api.h) the types come from HIP's header and every
// function pointer is checked against HIP's declaration at compile time.
//
//===----------------------------------------------------------------------===//

#include "runtime/hip/HipDevice.h"

#include <type_traits>

#if SIFT_HIP_HEADERS
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#endif

using namespace sift;
using namespace sift::rt;

namespace {

#if SIFT_HIP_HEADERS
using HipError = hipError_t;
using HipDevice = hipDevice_t;
using HipModule = hipModule_t;
using HipFunction = hipFunction_t;
using HipStream = hipStream_t;
using HipEvent = hipEvent_t;
using HipDevicePtr = hipDeviceptr_t;
constexpr HipError kSuccess = hipSuccess;
#else
// HIP's C ABI: errors are an int-sized enum, handles pointers.
enum HipError : int { kSuccess = 0 };
using HipDevice = int;
using HipModule = struct ihipModule_t *;
using HipFunction = struct ihipModuleSymbol_t *;
using HipStream = struct ihipStream_t *;
using HipEvent = struct ihipEvent_t *;
using HipDevicePtr = void *;
#endif

/// The HIP functions sift calls.
struct HipApi {
  HipError (*init)(unsigned);
  HipError (*getDeviceCount)(int *);
  HipError (*deviceGet)(HipDevice *, int);
  HipError (*deviceGetName)(char *, int, HipDevice);
  HipError (*setDevice)(int);
  HipError (*deviceSynchronize)();
  HipError (*malloc)(void **, size_t);
  HipError (*free)(void *);
  HipError (*memcpyHtoD)(HipDevicePtr, void *, size_t);
  HipError (*memcpyDtoH)(void *, HipDevicePtr, size_t);
  HipError (*moduleLoadData)(HipModule *, const void *);
  HipError (*moduleUnload)(HipModule);
  HipError (*moduleGetFunction)(HipFunction *, HipModule, const char *);
  HipError (*moduleLaunchKernel)(HipFunction, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, unsigned, unsigned,
                                 HipStream, void **, void **);
  HipError (*eventCreate)(HipEvent *);
  HipError (*eventDestroy)(HipEvent);
  HipError (*eventRecord)(HipEvent, HipStream);
  HipError (*eventSynchronize)(HipEvent);
  HipError (*eventElapsedTime)(float *, HipEvent, HipEvent);
  const char *(*getErrorName)(HipError);
  const char *(*getErrorString)(HipError);
  HipError (*hostMalloc)(void **, size_t, unsigned);
  HipError (*hostGetDevicePointer)(void **, void *, unsigned);
  HipError (*hostFree)(void *);
};

#if SIFT_HIP_HEADERS
#define SIFT_CHECK_HIP(function, member)                                       \
  static_assert(                                                               \
      std::is_same_v<decltype(&::function), decltype(HipApi::member)>,         \
      #function " does not match HIP's declaration")
SIFT_CHECK_HIP(hipInit, init);
SIFT_CHECK_HIP(hipGetDeviceCount, getDeviceCount);
SIFT_CHECK_HIP(hipDeviceGet, deviceGet);
SIFT_CHECK_HIP(hipDeviceGetName, deviceGetName);
SIFT_CHECK_HIP(hipSetDevice, setDevice);
SIFT_CHECK_HIP(hipDeviceSynchronize, deviceSynchronize);
SIFT_CHECK_HIP(hipFree, free);
SIFT_CHECK_HIP(hipMemcpyHtoD, memcpyHtoD);
SIFT_CHECK_HIP(hipMemcpyDtoH, memcpyDtoH);
SIFT_CHECK_HIP(hipModuleLoadData, moduleLoadData);
SIFT_CHECK_HIP(hipModuleUnload, moduleUnload);
SIFT_CHECK_HIP(hipModuleGetFunction, moduleGetFunction);
SIFT_CHECK_HIP(hipModuleLaunchKernel, moduleLaunchKernel);
SIFT_CHECK_HIP(hipEventCreate, eventCreate);
SIFT_CHECK_HIP(hipEventDestroy, eventDestroy);
SIFT_CHECK_HIP(hipEventRecord, eventRecord);
SIFT_CHECK_HIP(hipEventSynchronize, eventSynchronize);
SIFT_CHECK_HIP(hipEventElapsedTime, eventElapsedTime);
SIFT_CHECK_HIP(hipGetErrorName, getErrorName);
SIFT_CHECK_HIP(hipGetErrorString, getErrorString);
SIFT_CHECK_HIP(hipHostGetDevicePointer, hostGetDevicePointer);
SIFT_CHECK_HIP(hipHostFree, hostFree);
// hipMalloc is a template in C++ for typed pointers; its C entry point is
// the void ** overload.
static_assert(std::is_same_v<decltype(static_cast<HipError (*)(void **, size_t)>(
                                 &::hipMalloc)),
                             decltype(HipApi::malloc)>,
              "hipMalloc does not match HIP's declaration");
static_assert(
    std::is_same_v<decltype(static_cast<HipError (*)(void **, size_t, unsigned)>(
                       &::hipHostMalloc)),
                   decltype(HipApi::hostMalloc)>,
    "hipHostMalloc does not match HIP's declaration");
#undef SIFT_CHECK_HIP
#endif

Status lookupAll(const DynamicLibrary &library, HipApi &api) {
  std::string missing;
  library.require("hipInit", api.init, missing);
  library.require("hipGetDeviceCount", api.getDeviceCount, missing);
  library.require("hipDeviceGet", api.deviceGet, missing);
  library.require("hipDeviceGetName", api.deviceGetName, missing);
  library.require("hipSetDevice", api.setDevice, missing);
  library.require("hipDeviceSynchronize", api.deviceSynchronize, missing);
  library.require("hipMalloc", api.malloc, missing);
  library.require("hipFree", api.free, missing);
  library.require("hipMemcpyHtoD", api.memcpyHtoD, missing);
  library.require("hipMemcpyDtoH", api.memcpyDtoH, missing);
  library.require("hipModuleLoadData", api.moduleLoadData, missing);
  library.require("hipModuleUnload", api.moduleUnload, missing);
  library.require("hipModuleGetFunction", api.moduleGetFunction, missing);
  library.require("hipModuleLaunchKernel", api.moduleLaunchKernel, missing);
  library.require("hipEventCreate", api.eventCreate, missing);
  library.require("hipEventDestroy", api.eventDestroy, missing);
  library.require("hipEventRecord", api.eventRecord, missing);
  library.require("hipEventSynchronize", api.eventSynchronize, missing);
  library.require("hipEventElapsedTime", api.eventElapsedTime, missing);
  library.require("hipGetErrorName", api.getErrorName, missing);
  library.require("hipGetErrorString", api.getErrorString, missing);
  library.require("hipHostMalloc", api.hostMalloc, missing);
  library.require("hipHostGetDevicePointer", api.hostGetDevicePointer, missing);
  library.require("hipHostFree", api.hostFree, missing);
  if (!missing.empty())
    return makeError(std::string("the HIP library has no ") + missing +
                     " (a HIP too old for sift?)");
  return Status::success();
}

Status check(const HipApi &api, HipError result, const char *what) {
  if (result == kSuccess)
    return Status::success();
  const char *name = api.getErrorName(result);
  const char *text = api.getErrorString(result);
  return makeError(std::string(what) + " failed: " +
                   (name ? name
                         : "HIP error " +
                               std::to_string(static_cast<int>(result))) +
                   (text ? std::string(" (") + text + ")" : std::string()));
}

class HipDriver final : public GpuDriver {
public:
  HipDriver(std::shared_ptr<DynamicLibrary> library, HipApi api, int ordinal,
            std::string name)
      : library_(std::move(library)), api_(api), ordinal_(ordinal),
        name_(std::move(name)) {}

  DeviceKind kind() const override { return DeviceKind::Hip; }
  std::string deviceName() const override { return name_; }
  ExecutableFormat format() const override { return ExecutableFormat::Hsaco; }

  Status makeCurrent() override {
    return check(api_, api_.setDevice(ordinal_), "hipSetDevice");
  }
  Result<uint64_t> allocate(uint64_t bytes) override {
    void *address = nullptr;
    if (Status s = check(api_, api_.malloc(&address, bytes), "hipMalloc"); !s)
      return s.error();
    return reinterpret_cast<uint64_t>(address);
  }
  void free(uint64_t address) override {
    (void)api_.free(reinterpret_cast<void *>(address));
  }
  Result<HostMemory> allocateHost(uint64_t bytes) override {
    constexpr unsigned kPortable = 0x1, kMapped = 0x2;
    HostMemory memory;
    if (Status s = check(api_, api_.hostMalloc(&memory.host, bytes,
                                               kPortable | kMapped),
                         "hipHostMalloc");
        !s)
      return s.error();
    void *device = nullptr;
    if (Status s = check(api_,
                         api_.hostGetDevicePointer(&device, memory.host, 0),
                         "hipHostGetDevicePointer");
        !s) {
      (void)api_.hostFree(memory.host);
      return s.error();
    }
    memory.device = reinterpret_cast<uint64_t>(device);
    return memory;
  }
  void freeHost(void *host) override { (void)api_.hostFree(host); }
  Status copyToDevice(uint64_t address, const void *data,
                      uint64_t bytes) override {
    return check(api_,
                 api_.memcpyHtoD(reinterpret_cast<HipDevicePtr>(address),
                                 const_cast<void *>(data), bytes),
                 "hipMemcpyHtoD");
  }
  Status copyToHost(void *data, uint64_t address, uint64_t bytes) override {
    return check(api_,
                 api_.memcpyDtoH(data, reinterpret_cast<HipDevicePtr>(address),
                                 bytes),
                 "hipMemcpyDtoH");
  }
  Result<void *> loadModule(const std::vector<uint8_t> &image) override {
    HipModule module = nullptr;
    if (Status s = check(api_, api_.moduleLoadData(&module, image.data()),
                         "hipModuleLoadData");
        !s)
      return s.error();
    return static_cast<void *>(module);
  }
  void unloadModule(void *module) override {
    (void)api_.moduleUnload(static_cast<HipModule>(module));
  }
  Result<void *> function(void *module, const std::string &name) override {
    HipFunction function = nullptr;
    if (Status s = check(api_,
                         api_.moduleGetFunction(&function,
                                                static_cast<HipModule>(module),
                                                name.c_str()),
                         ("hipModuleGetFunction(" + name + ")").c_str());
        !s)
      return s.error();
    return static_cast<void *>(function);
  }
  Status launch(void *function, std::array<uint32_t, 3> grid,
                std::array<uint32_t, 3> block, void **params,
                bool /*programmatic*/) override {
    return check(api_,
                 api_.moduleLaunchKernel(static_cast<HipFunction>(function),
                                         grid[0], grid[1], grid[2], block[0],
                                         block[1], block[2], 0, nullptr,
                                         params, nullptr),
                 "hipModuleLaunchKernel");
  }
  Status synchronize() override {
    return check(api_, api_.deviceSynchronize(), "hipDeviceSynchronize");
  }
  Result<void *> createEvent() override {
    HipEvent event = nullptr;
    if (Status s = check(api_, api_.eventCreate(&event), "hipEventCreate"); !s)
      return s.error();
    return static_cast<void *>(event);
  }
  void destroyEvent(void *event) override {
    (void)api_.eventDestroy(static_cast<HipEvent>(event));
  }
  Status recordEvent(void *event) override {
    return check(api_, api_.eventRecord(static_cast<HipEvent>(event), nullptr),
                 "hipEventRecord");
  }
  Result<float> elapsedMs(void *start, void *end) override {
    if (Status s = check(api_, api_.eventSynchronize(static_cast<HipEvent>(end)),
                         "hipEventSynchronize");
        !s)
      return s.error();
    float ms = 0;
    if (Status s = check(api_,
                         api_.eventElapsedTime(&ms,
                                               static_cast<HipEvent>(start),
                                               static_cast<HipEvent>(end)),
                         "hipEventElapsedTime");
        !s)
      return s.error();
    return ms;
  }

private:
  std::shared_ptr<DynamicLibrary> library_;
  HipApi api_;
  int ordinal_;
  std::string name_;
};

} // namespace

bool rt::hipDeclarationsChecked() { return SIFT_HIP_HEADERS != 0; }

Result<std::unique_ptr<Device>> rt::createHipDevice(HipDeviceOptions options) {
  std::vector<std::string> candidates;
  if (!options.libraryPath.empty())
    candidates.push_back(options.libraryPath);
  else
    candidates.assign(std::begin(kHipLibraries), std::end(kHipLibraries));
  auto library =
      DynamicLibrary::open(candidates, "the hip device needs AMD's HIP runtime");
  if (!library.ok())
    return makeError(library.message() + " (no ROCm/HIP on this host?)");
  HipApi api{};
  if (Status s = lookupAll(**library, api); !s)
    return s.error();
  if (Status s = check(api, api.init(0), "hipInit"); !s)
    return makeError("HIP did not start: " + s.message());
  int count = 0;
  if (Status s = check(api, api.getDeviceCount(&count), "hipGetDeviceCount");
      !s)
    return makeError("HIP found no GPU: " + s.message());
  if (options.ordinal < 0 || options.ordinal >= count)
    return makeError("no hip GPU " + std::to_string(options.ordinal) +
                     ": this host has " + std::to_string(count));
  HipDevice device{};
  if (Status s = check(api, api.deviceGet(&device, options.ordinal),
                       "hipDeviceGet");
      !s)
    return s.error();
  char name[256] = {};
  (void)api.deviceGetName(name, sizeof(name) - 1, device);
  return createDriverDevice(std::make_unique<HipDriver>(
      std::move(*library), api, options.ordinal,
      "hip:" + std::to_string(options.ordinal) + " (" + name + ")"));
}
