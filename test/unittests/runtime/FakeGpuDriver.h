//===- FakeGpuDriver.h - A GpuDriver over host memory, for tests -*- C++ -*-===//
//
// The fake driver behind the GPU device tests: host memory at fake device
// addresses, recorded launches, and two kernels, "copy" (its first
// binding's bytes into its second) and "add_one" (f32: second = first + 1),
// so plans run end to end.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Artifact.h"
#include "runtime/gpu/GpuDriver.h"

#include <cstring>
#include <list>
#include <map>

namespace sift::rt::test {

/// What the fake driver saw of one launch.
struct Launch {
  std::string function;
  std::array<uint32_t, 3> grid, block;
  std::vector<uint64_t> pointers;
  bool programmatic = false;
};

/// Host memory behind fake device addresses; a launch of "copy" copies its
/// first binding's bytes into its second, so results flow end to end.
class FakeDriver final : public GpuDriver {
public:
  explicit FakeDriver(ExecutableFormat format, std::vector<Launch> &launches)
      : format_(format), launches_(launches) {}

  DeviceKind kind() const override {
    return format_ == ExecutableFormat::Ptx ? DeviceKind::Cuda
                                            : DeviceKind::Hip;
  }
  std::string deviceName() const override { return "fake"; }
  ExecutableFormat format() const override { return format_; }
  Status makeCurrent() override { return Status::success(); }
  Result<uint64_t> allocate(uint64_t bytes) override {
    if (failAllocation)
      return makeError("fakeMalloc failed: out of memory");
    uint64_t address = next_;
    next_ += (bytes + 255) / 256 * 256 + 256;
    memory_[address].assign(bytes, 0xAB);
    return address;
  }
  void free(uint64_t address) override { memory_.erase(address); }
  Result<HostMemory> allocateHost(uint64_t bytes) override {
    ++hostAllocations;
    auto *block = new std::vector<uint8_t>(bytes, 0xCD);
    HostMemory memory{block->data(), 0};
    memory.device = next_;
    next_ += (bytes + 255) / 256 * 256 + 256;
    hostBlocks_[memory.host] = block;
    mapped_[memory.device] = block;
    return memory;
  }
  void freeHost(void *host) override {
    delete hostBlocks_.at(host);
    hostBlocks_.erase(host);
  }
  int hostAllocations = 0;
  Status copyToDevice(uint64_t address, const void *data,
                      uint64_t bytes) override {
    std::memcpy(bytesAt(address).data(), data, bytes);
    return Status::success();
  }
  Status copyToHost(void *data, uint64_t address, uint64_t bytes) override {
    std::memcpy(data, bytesAt(address).data(), bytes);
    return Status::success();
  }
  Result<void *> loadModule(const std::vector<uint8_t> &image) override {
    std::string text(image.begin(), image.end());
    if (!refusedImage.empty() && text == refusedImage)
      return makeError("fakeModuleLoad failed: invalid image");
    images.emplace_back(image.begin(), image.end());
    return static_cast<void *>(&images.back());
  }
  void unloadModule(void *) override { ++unloads; }
  /// An image loadModule refuses (a stale cubin, say).
  std::string refusedImage;
  Result<void *> function(void *, const std::string &name) override {
    if (name == "missing")
      return makeError("fakeGetFunction(missing) failed: not found");
    names_.push_back(name);
    return static_cast<void *>(&names_.back());
  }
  Status launch(void *function, std::array<uint32_t, 3> grid,
                std::array<uint32_t, 3> block, void **params,
                bool programmatic) override {
    Launch launch{
        *static_cast<std::string *>(function), grid, block, {}, programmatic};
    size_t bindings =
        launch.function == "copy" || launch.function == "add_one" ? 2 : 1;
    for (size_t i = 0; i < bindings; ++i)
      launch.pointers.push_back(*static_cast<uint64_t *>(params[i]));
    if (launch.function == "add_one") { // f32: out = in + 1
      std::vector<uint8_t> &in = bytesAt(launch.pointers[0]);
      std::vector<uint8_t> &out = bytesAt(launch.pointers[1]);
      for (size_t i = 0; i + 4 <= in.size() && i + 4 <= out.size(); i += 4) {
        float v;
        std::memcpy(&v, in.data() + i, 4);
        v += 1.0f;
        std::memcpy(out.data() + i, &v, 4);
      }
    }
    if (launch.function == "copy")
      std::copy(bytesAt(launch.pointers[0]).begin(),
                bytesAt(launch.pointers[0]).end(),
                bytesAt(launch.pointers[1]).begin());
    launches_.push_back(launch);
    return Status::success();
  }
  Status synchronize() override { return Status::success(); }
  Result<void *> createEvent() override {
    return static_cast<void *>(&events_[events_.size()]);
  }
  void destroyEvent(void *) override {}
  Status recordEvent(void *) override { return Status::success(); }
  Result<float> elapsedMs(void *, void *) override { return 1.5f; }

  bool failAllocation = false;
  std::list<std::string> images;
  int unloads = 0;

private:
  ExecutableFormat format_;
  std::vector<Launch> &launches_;
  uint64_t next_ = 0x10000;
  std::map<uint64_t, std::vector<uint8_t>> memory_;
  std::map<void *, std::vector<uint8_t> *> hostBlocks_;
  std::map<uint64_t, std::vector<uint8_t> *> mapped_;
  /// The bytes behind a fake device address (device or mapped host memory).
  std::vector<uint8_t> &bytesAt(uint64_t address) {
    if (auto it = mapped_.find(address); it != mapped_.end())
      return *it->second;
    return memory_.at(address);
  }
  std::list<std::string> names_;
  std::map<size_t, int> events_;
};

/// in (f32[4]) --copy--> out (f32[4]); the kernel named `kernel`.
inline Artifact copyArtifact(ExecutableFormat format,
                             const std::string &kernel) {
  Artifact artifact;
  Executable exe;
  exe.format = format;
  exe.target = format == ExecutableFormat::Ptx ? "nvptx/sm_90" : "amdgpu/gfx942";
  exe.entries = {kernel};
  exe.binary = {'k', 'e', 'r', 'n'};
  artifact.executables.push_back(exe);
  PlanBuffer in, out;
  in.shape = out.shape = {4};
  in.role = BufferRole::Input;
  out.role = BufferRole::Output;
  artifact.plan.buffers = {in, out};
  Dispatch dispatch;
  dispatch.grid = {2, 1, 1};
  dispatch.block = {32, 2, 1};
  dispatch.bindings = {0, 1};
  artifact.plan.dispatches = {dispatch};
  artifact.meta["abi"] = kGpuKernelAbi;
  return artifact;
}

inline HostTensor fourFloats() {
  HostTensor t;
  t.type = ElementType::F32;
  t.shape = {4};
  t.data.resize(16);
  for (int i = 0; i < 4; ++i) {
    float v = 1.5f * static_cast<float>(i) - 2.0f;
    std::memcpy(t.data.data() + 4 * i, &v, 4);
  }
  return t;
}

} // namespace sift::rt::test
