//===- runtime/emu/EmuDevice.cpp - GPU kernels run on the host ------------===//

#include "runtime/emu/EmuDevice.h"

#include "runtime/emu/Dispatch.h"

#include <cstring>

using namespace sift;
using namespace sift::rt;

namespace {

/// The workgroup bytes of entry `entry`, read from its global.
Result<int64_t> workgroupBytesOf(const LoadedSharedObject &library,
                                 const std::string &entry) {
  const void *global = library.symbol(entry + "_workgroup_bytes");
  if (!global)
    return makeError("emu kernel '" + entry + "' has no " + entry +
                     "_workgroup_bytes global");
  int64_t bytes = 0;
  std::memcpy(&bytes, global, sizeof bytes);
  if (bytes < 0 || bytes > (int64_t{1} << 30))
    return makeError("emu kernel '" + entry + "' declares " +
                     std::to_string(bytes) + " bytes of workgroup memory");
  return bytes;
}

/// The lanes of entry `entry`'s warps: its `<entry>_warp_size` global (an
/// i32 the target-lowered kernels carry), else 32.
Result<uint32_t> warpSizeOf(const LoadedSharedObject &library,
                            const std::string &entry) {
  const void *global = library.symbol(entry + "_warp_size");
  if (!global)
    return uint32_t{32};
  int32_t lanes = 0;
  std::memcpy(&lanes, global, sizeof lanes);
  if (lanes != 32 && lanes != 64)
    return makeError("emu kernel '" + entry + "' declares warps of " +
                     std::to_string(lanes) + " lanes (32 or 64 are emulated)");
  return static_cast<uint32_t>(lanes);
}

/// Whether entry `entry` waits for the kernels before it: its
/// `<entry>_grid_wait` global (an i32 the target-lowered kernels carry) is
/// not 0.
bool waitsForGrid(const LoadedSharedObject &library, const std::string &entry) {
  const void *global = library.symbol(entry + "_grid_wait");
  if (!global)
    return false;
  int32_t waits = 0;
  std::memcpy(&waits, global, sizeof waits);
  return waits != 0;
}

} // namespace

namespace {

/// `buffer` (when allocated) with every byte emu::kGlobalFill.
Result<std::unique_ptr<Buffer>>
poisoned(Result<std::unique_ptr<Buffer>> buffer) {
  if (buffer.ok() && (*buffer)->size() != 0)
    std::memset((*buffer)->hostPointer(), emu::kGlobalFill, (*buffer)->size());
  return buffer;
}

} // namespace

Result<std::unique_ptr<Buffer>> EmuDevice::allocate(const PlanBuffer &desc) {
  return poisoned(CpuDevice::allocate(desc));
}

Result<std::unique_ptr<Buffer>>
EmuDevice::allocateAsync(const PlanBuffer &desc) {
  return poisoned(CpuDevice::allocateAsync(desc));
}

Result<std::unique_ptr<LoadedExecutable>>
EmuDevice::load(const Executable &executable) {
  Result<std::unique_ptr<LoadedSharedObject>> loaded =
      loadSharedObject(executable, ExecutableFormat::EmuSharedObject);
  if (!loaded)
    return loaded.error();
  for (const std::string &entry : executable.entries) {
    if (Result<int64_t> bytes = workgroupBytesOf(**loaded, entry); !bytes)
      return bytes.error();
    if (Result<uint32_t> lanes = warpSizeOf(**loaded, entry); !lanes)
      return lanes.error();
  }
  return std::unique_ptr<LoadedExecutable>(std::move(*loaded));
}

Status EmuDevice::dispatch(LoadedExecutable &executable,
                           const Dispatch &dispatch,
                           const std::vector<Buffer *> &bindings) {
  if (Status s = checkDispatch(executable, dispatch, bindings); !s)
    return s;
  if (!dispatch.constants.empty())
    return makeError("emu kernels take no push constants but the dispatch "
                     "has " +
                     std::to_string(dispatch.constants.size()));
  // checkDispatch made sure this device loaded it, so it is emu-so.
  auto &library = static_cast<LoadedSharedObject &>(executable);
  const std::string &entry = library.entries()[dispatch.entry];
  Result<int64_t> bytes = workgroupBytesOf(library, entry);
  if (!bytes)
    return bytes.error();
  std::vector<void *> pointers;
  pointers.reserve(bindings.size());
  for (Buffer *buffer : bindings)
    pointers.push_back(buffer->hostPointer());
  // The emu kernels report no load of a buffer they only load from (no
  // race without a write), which holds only while no other binding of the
  // dispatch is the same memory.
  for (size_t a = 0; a < bindings.size(); ++a)
    for (size_t b = a + 1; b < bindings.size(); ++b)
      if (bindings[a] == bindings[b])
        return makeError("emu: dispatch binds one buffer twice (bindings " +
                         std::to_string(a) + " and " + std::to_string(b) +
                         "), which its race checks do not allow");
  emu::Launch launch;
  launch.grid = dispatch.grid;
  launch.block = dispatch.block;
  launch.checkAccesses = checkAccesses_;
  Result<uint32_t> lanes = warpSizeOf(library, entry);
  if (!lanes)
    return lanes.error();
  launch.warpSize = *lanes;
  launch.gridWait = waitsForGrid(library, entry);
  launch.workgroupBytes =
      static_cast<size_t>(*bytes) + dispatch.workgroupMemoryBytes;
  for (Buffer *buffer : bindings) {
    launch.bufferBytes.push_back(buffer->size());
    launch.bufferElementBytes.push_back(
        bufferByteSize(buffer->desc().type, {1}).value_or(0));
  }
  auto kernel = reinterpret_cast<SiftEmuKernel>(
      library.entryAddress(static_cast<size_t>(dispatch.entry)));
  uint64_t seed = seed_ * 0x9E3779B97F4A7C15ull + dispatches_++;
  if (Status s =
          emu::runDispatch(launch, kernel, pointers.data(), scheduler_, seed);
      !s)
    return makeError(s.message() + " in kernel " + entry);
  return Status::success();
}
