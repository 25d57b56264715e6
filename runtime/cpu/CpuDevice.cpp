//===- runtime/cpu/CpuDevice.cpp - Runs host shared objects in-process ----===//
//
// Implementation of the cpu device. Shared objects are written to a memfd
// (or, where memfd_create is unavailable, an unlinked temporary file) and
// dlopen'ed through /proc/self/fd. glibc reuses an already loaded library
// whose path string matches, and fd numbers are reused, so before each dlopen
// the path is probed with RTLD_NOLOAD and the fd is duplicated to a fresh
// number when something is already loaded under that name.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/CpuDevice.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace sift;
using namespace sift::rt;

namespace {

constexpr size_t kAlignment = 64;

/// Host memory, 64-byte aligned, zero-filled.
class CpuBuffer final : public Buffer {
public:
  CpuBuffer(const Device &device, PlanBuffer desc, uint64_t size, void *memory,
            bool queueOrdered = false)
      : Buffer(device, std::move(desc), size, queueOrdered), memory_(memory) {}
  /// The same memory as a queue-ordered buffer (cpu: nothing to wait for).
  std::unique_ptr<Buffer> asQueueOrdered() {
    void *memory = memory_;
    memory_ = nullptr;
    return std::make_unique<CpuBuffer>(device(), desc(), size(), memory, true);
  }
  ~CpuBuffer() override { std::free(memory_); }
  void *hostPointer() const override { return memory_; }

private:
  void *memory_;
};

std::string dlerrorText() {
  const char *text = ::dlerror();
  return text ? text : "unknown dlopen error";
}

bool writeAll(int fd, const std::vector<uint8_t> &bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    written += static_cast<size_t>(n);
  }
  return true;
}

void closeAll(const std::vector<int> &fds) {
  for (int fd : fds)
    ::close(fd);
}

/// True when a library is already loaded under `path`.
bool alreadyLoaded(const std::string &path) {
  void *existing = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!existing) {
    ::dlerror();
    return false;
  }
  ::dlclose(existing);
  return true;
}

/// dlopens the shared object held by memfd `fd`. On success `fds` holds every
/// fd to keep open while loaded; on failure they are all closed.
Result<void *> openFromFd(int fd, std::vector<int> &fds) {
  fds.push_back(fd);
  constexpr int kAttempts = 16;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::string path = "/proc/self/fd/" + std::to_string(fds.back());
    if (alreadyLoaded(path)) {
      int fresh = ::fcntl(fds.back(), F_DUPFD_CLOEXEC, fds.back() + 1);
      if (fresh < 0) {
        int err = errno;
        closeAll(fds);
        return makeError(std::string("cannot duplicate the executable's fd: ") +
                         std::strerror(err));
      }
      fds.push_back(fresh);
      continue;
    }
    ::dlerror();
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      std::string reason = dlerrorText();
      closeAll(fds);
      return makeError("dlopen failed: " + reason);
    }
    return handle;
  }
  closeAll(fds);
  return makeError("dlopen failed: every fd name tried is already in use by "
                   "a loaded library");
}

/// dlopens `binary` through a memfd, or through an unlinked temporary file.
Result<void *> openSharedObject(const std::vector<uint8_t> &binary,
                                bool useMemfd, std::vector<int> &fds) {
  int fd = useMemfd ? ::memfd_create("sift-executable", MFD_CLOEXEC) : -1;
  if (fd >= 0) {
    if (!writeAll(fd, binary)) {
      int err = errno;
      ::close(fd);
      return makeError(std::string("cannot write the shared object to a "
                                   "memfd: ") +
                       std::strerror(err));
    }
    return openFromFd(fd, fds);
  }

  // No memfd (old kernel or a sandbox): a temporary file, unlinked at once.
  const char *dir = std::getenv("TMPDIR");
  std::string path =
      std::string(dir && *dir ? dir : "/tmp") + "/sift-executable-XXXXXX";
  std::vector<char> name(path.begin(), path.end());
  name.push_back('\0');
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    return makeError("cannot create a temporary file for the shared object "
                     "in " +
                     path + ": " + std::strerror(errno));
  if (!writeAll(fd, binary)) {
    int err = errno;
    ::close(fd);
    ::unlink(name.data());
    return makeError(std::string("cannot write the shared object to ") +
                     name.data() + ": " + std::strerror(err));
  }
  if (alreadyLoaded(name.data())) {
    ::close(fd);
    ::unlink(name.data());
    return makeError(std::string("a library is already loaded as ") +
                     name.data());
  }
  ::dlerror();
  void *handle = ::dlopen(name.data(), RTLD_NOW | RTLD_LOCAL);
  std::string reason = handle ? "" : dlerrorText();
  ::unlink(name.data());
  if (!handle) {
    ::close(fd);
    return makeError("dlopen failed: " + reason);
  }
  fds.push_back(fd);
  return handle;
}

} // namespace

Result<std::unique_ptr<Buffer>> CpuDevice::allocate(const PlanBuffer &desc) {
  std::optional<uint64_t> size = bufferByteSize(desc.type, desc.shape);
  if (!size)
    return makeError("cannot allocate " + describe(desc.type, desc.shape) +
                     ": negative dimension or more than " +
                     std::to_string(kMaxPlanBytes) + " bytes");
  // aligned_alloc wants a multiple of the alignment; zero-size buffers get
  // one aligned block so that their pointer is valid and unique.
  uint64_t rounded = (*size + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0)
    rounded = kAlignment;
  void *memory = std::aligned_alloc(kAlignment, rounded);
  if (!memory)
    return makeError("cannot allocate " + std::to_string(*size) +
                     " bytes of host memory for " +
                     describe(desc.type, desc.shape));
  std::memset(memory, 0, rounded);
  return std::unique_ptr<Buffer>(
      std::make_unique<CpuBuffer>(*this, desc, *size, memory));
}

Result<std::unique_ptr<Buffer>>
CpuDevice::allocateAsync(const PlanBuffer &desc) {
  Result<std::unique_ptr<Buffer>> buffer = allocate(desc);
  if (!buffer.ok())
    return buffer;
  return static_cast<CpuBuffer &>(**buffer).asQueueOrdered();
}

Status CpuDevice::upload(Buffer &buffer, const HostTensor &tensor) {
  if (Status s = checkUpload(buffer, tensor); !s)
    return s;
  if (!tensor.data.empty())
    std::memcpy(buffer.hostPointer(), tensor.data.data(), tensor.data.size());
  return Status::success();
}

Status CpuDevice::download(const Buffer &buffer, HostTensor &tensor) {
  if (Status s = checkDownload(buffer); !s)
    return s;
  tensor.type = buffer.desc().type;
  tensor.shape = buffer.desc().shape;
  const uint8_t *bytes = static_cast<const uint8_t *>(buffer.hostPointer());
  tensor.data.assign(bytes, bytes + buffer.size());
  return Status::success();
}

LoadedSharedObject::LoadedSharedObject(const Device &device,
                                       ExecutableFormat format,
                                       std::vector<std::string> entries,
                                       void *handle, std::vector<int> fds,
                                       std::vector<void *> addresses)
    : LoadedExecutable(device, format, std::move(entries)), handle_(handle),
      fds_(std::move(fds)), addresses_(std::move(addresses)) {}

LoadedSharedObject::~LoadedSharedObject() {
  ::dlclose(handle_);
  for (int fd : fds_)
    ::close(fd);
}

void *LoadedSharedObject::symbol(const std::string &name) const {
  return ::dlsym(handle_, name.c_str());
}

Result<std::unique_ptr<LoadedExecutable>>
CpuDevice::load(const Executable &executable) {
  Result<std::unique_ptr<LoadedSharedObject>> loaded =
      loadSharedObject(executable, ExecutableFormat::HostSharedObject);
  if (!loaded)
    return loaded.error();
  return std::unique_ptr<LoadedExecutable>(std::move(*loaded));
}

Result<std::unique_ptr<LoadedSharedObject>>
CpuDevice::loadSharedObject(const Executable &executable,
                            ExecutableFormat format) {
  if (executable.format != format)
    return makeError("the " + name() + " device runs " +
                     std::string(toString(format)) + " executables, not " +
                     std::string(toString(executable.format)));
  if (executable.binary.empty())
    return makeError("the executable's binary is empty");

  std::vector<int> fds;
  Result<void *> handle =
      openSharedObject(executable.binary, options_.useMemfd, fds);
  if (!handle)
    return handle.error();

  std::vector<void *> addresses;
  for (const std::string &entry : executable.entries) {
    ::dlerror();
    void *symbol = ::dlsym(*handle, entry.c_str());
    if (!symbol) {
      const char *text = ::dlerror();
      std::string reason = text ? text : "the symbol's address is null";
      ::dlclose(*handle);
      closeAll(fds);
      return makeError("entry '" + entry + "' not found: " + reason);
    }
    addresses.push_back(symbol);
  }
  return std::make_unique<LoadedSharedObject>(*this, format, executable.entries,
                                              *handle, std::move(fds),
                                              std::move(addresses));
}

Status CpuDevice::dispatch(LoadedExecutable &executable,
                           const Dispatch &dispatch,
                           const std::vector<Buffer *> &bindings) {
  if (Status s = checkDispatch(executable, dispatch, bindings); !s)
    return s;
  if (!dispatch.constants.empty())
    return makeError("the " + std::string(kHostAbi) +
                     " ABI passes no push constants but the dispatch has " +
                     std::to_string(dispatch.constants.size()));
  // checkDispatch made sure the executable was loaded by this device.
  auto &exe = static_cast<LoadedSharedObject &>(executable);
  auto function = reinterpret_cast<HostEntryPoint>(
      exe.entryAddress(static_cast<size_t>(dispatch.entry)));
  std::vector<void *> pointers;
  pointers.reserve(bindings.size());
  for (Buffer *buffer : bindings)
    pointers.push_back(buffer->hostPointer());
  for (uint32_t z = 0; z < dispatch.grid[2]; ++z)
    for (uint32_t y = 0; y < dispatch.grid[1]; ++y)
      for (uint32_t x = 0; x < dispatch.grid[0]; ++x)
        function(pointers.data());
  return Status::success();
}
