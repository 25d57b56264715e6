//===- runtime/Plan.cpp - The dispatch plan of an artifact ----------------===//
//
// Stable enum names, the plan's plain data (comparison, inputs and outputs,
// buffer sizes) and the plan verifier. The text encoder and parser are in
// PlanText.cpp.
//
//===----------------------------------------------------------------------===//

#include "runtime/Plan.h"

#include "support/HostTensor.h"

#include <algorithm>
#include <map>
#include <set>

using namespace sift;
using namespace sift::rt;

//===----------------------------------------------------------------------===//
// Stable names
//===----------------------------------------------------------------------===//

namespace {

struct FlagName {
  uint32_t bit;
  std::string_view name;
};

constexpr FlagName kMemoryTypeNames[] = {
    {static_cast<uint32_t>(MemoryType::DeviceLocal), "device_local"},
    {static_cast<uint32_t>(MemoryType::HostVisible), "host_visible"},
    {static_cast<uint32_t>(MemoryType::HostCoherent), "host_coherent"},
};

constexpr FlagName kBufferUsageNames[] = {
    {static_cast<uint32_t>(BufferUsage::Dispatch), "dispatch"},
    {static_cast<uint32_t>(BufferUsage::Transfer), "transfer"},
    {static_cast<uint32_t>(BufferUsage::Export), "export"},
};

template <size_t N>
std::string flagsToString(uint32_t bits, const FlagName (&names)[N]) {
  if (bits == 0)
    return "none";
  std::string out;
  for (const FlagName &flag : names) {
    if (!(bits & flag.bit))
      continue;
    if (!out.empty())
      out += "|";
    out += flag.name;
    bits &= ~flag.bit;
  }
  if (bits) {
    static const char kHex[] = "0123456789abcdef";
    std::string hex;
    for (uint32_t b = bits; b; b >>= 4)
      hex.insert(hex.begin(), kHex[b & 15]);
    if (!out.empty())
      out += "|";
    out += "0x" + hex;
  }
  return out;
}

template <size_t N>
std::optional<uint32_t> parseFlags(std::string_view text,
                                   const FlagName (&names)[N]) {
  if (text == "none")
    return 0u;
  uint32_t bits = 0;
  while (true) {
    size_t bar = text.find('|');
    std::string_view part = text.substr(0, bar);
    bool found = false;
    for (const FlagName &flag : names) {
      if (flag.name == part) {
        if (bits & flag.bit)
          return std::nullopt;
        bits |= flag.bit;
        found = true;
      }
    }
    if (!found)
      return std::nullopt;
    if (bar == std::string_view::npos)
      return bits;
    text.remove_prefix(bar + 1);
  }
}

} // namespace

std::string rt::toString(MemoryType flags) {
  return flagsToString(static_cast<uint32_t>(flags), kMemoryTypeNames);
}

std::optional<MemoryType> rt::parseMemoryType(std::string_view text) {
  if (auto bits = parseFlags(text, kMemoryTypeNames))
    return static_cast<MemoryType>(*bits);
  return std::nullopt;
}

std::string rt::toString(BufferUsage flags) {
  return flagsToString(static_cast<uint32_t>(flags), kBufferUsageNames);
}

std::optional<BufferUsage> rt::parseBufferUsage(std::string_view text) {
  if (auto bits = parseFlags(text, kBufferUsageNames))
    return static_cast<BufferUsage>(*bits);
  return std::nullopt;
}

std::string_view rt::toString(BufferRole role) {
  switch (role) {
  case BufferRole::Input: return "input";
  case BufferRole::Output: return "output";
  case BufferRole::Temporary: return "temporary";
  }
  return "?";
}

std::optional<BufferRole> rt::parseBufferRole(std::string_view name) {
  for (BufferRole role :
       {BufferRole::Input, BufferRole::Output, BufferRole::Temporary})
    if (toString(role) == name)
      return role;
  return std::nullopt;
}

std::string_view rt::toString(ExecutableFormat format) {
  switch (format) {
  case ExecutableFormat::HostSharedObject: return "host-so";
  case ExecutableFormat::Ptx: return "ptx";
  case ExecutableFormat::Hsaco: return "hsaco";
  case ExecutableFormat::EmuSharedObject: return "emu-so";
  }
  return "?";
}

std::optional<ExecutableFormat>
rt::parseExecutableFormat(std::string_view name) {
  for (ExecutableFormat format :
       {ExecutableFormat::HostSharedObject, ExecutableFormat::Ptx,
        ExecutableFormat::Hsaco, ExecutableFormat::EmuSharedObject})
    if (toString(format) == name)
      return format;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Plain data
//===----------------------------------------------------------------------===//

bool PlanBuffer::operator==(const PlanBuffer &other) const {
  return type == other.type && shape == other.shape && memory == other.memory &&
         usage == other.usage && role == other.role &&
         roleIndex == other.roleIndex && affinity == other.affinity;
}

bool Dispatch::operator==(const Dispatch &other) const {
  return executable == other.executable && entry == other.entry &&
         grid == other.grid && block == other.block &&
         workgroupMemoryBytes == other.workgroupMemoryBytes &&
         bindings == other.bindings && constants == other.constants;
}

bool Plan::operator==(const Plan &other) const {
  return buffers == other.buffers && dispatches == other.dispatches;
}

static std::vector<int> buffersWithRole(const Plan &plan, BufferRole role) {
  std::vector<int> indices;
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (plan.buffers[i].role == role)
      indices.push_back(static_cast<int>(i));
  std::stable_sort(indices.begin(), indices.end(), [&](int a, int b) {
    return plan.buffers[a].roleIndex < plan.buffers[b].roleIndex;
  });
  return indices;
}

std::vector<int> Plan::inputs() const {
  return buffersWithRole(*this, BufferRole::Input);
}

std::vector<int> Plan::outputs() const {
  return buffersWithRole(*this, BufferRole::Output);
}

std::optional<uint64_t> rt::bufferByteSize(ElementType type,
                                           const std::vector<int64_t> &shape) {
  uint64_t bytes = byteWidth(type);
  bool zero = false;
  for (int64_t dim : shape)
    if (dim < 0)
      return std::nullopt;
    else if (dim == 0)
      zero = true;
  if (zero)
    return 0;
  for (int64_t dim : shape) {
    if (static_cast<uint64_t>(dim) > kMaxPlanBytes / bytes)
      return std::nullopt;
    bytes *= static_cast<uint64_t>(dim);
  }
  return bytes;
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

static std::string bufferName(const PlanBuffer &buffer, size_t index) {
  return "buffer " + std::to_string(index) + " (" +
         std::string(toString(buffer.role)) + " " +
         std::to_string(buffer.roleIndex) + ")";
}

static Status verifyRoleIndices(const Plan &plan, BufferRole role) {
  std::map<int, size_t> seen;
  size_t count = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (plan.buffers[i].role == role)
      ++count;
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const PlanBuffer &buffer = plan.buffers[i];
    if (buffer.role != role)
      continue;
    if (buffer.roleIndex < 0 || static_cast<size_t>(buffer.roleIndex) >= count)
      return makeError(
          "buffer " + std::to_string(i) + " is " + std::string(toString(role)) +
          " " + std::to_string(buffer.roleIndex) + " but the plan has " +
          std::to_string(count) + " " + std::string(toString(role)) +
          " buffers, so their indices run 0.." + std::to_string(count - 1));
    auto [it, inserted] = seen.emplace(buffer.roleIndex, i);
    if (!inserted)
      return makeError("buffers " + std::to_string(it->second) + " and " +
                       std::to_string(i) + " are both " +
                       std::string(toString(role)) + " " +
                       std::to_string(buffer.roleIndex));
  }
  return Status::success();
}

namespace {

/// Buffer i's memory types, usage, role, shape and affinity; its bytes
/// added to `totalBytes`, which stays within kMaxPlanBytes.
Status verifyBuffer(const PlanBuffer &buffer, size_t i, uint64_t &totalBytes) {
  std::string where = bufferName(buffer, i);
  if ((buffer.memory & kAllMemoryTypes) != buffer.memory)
    return makeError(where + " has unknown memory type bits (" +
                     toString(buffer.memory) + ")");
  if (buffer.memory == MemoryType::None)
    return makeError(where + " has no memory type");
  if ((buffer.usage & kAllBufferUsages) != buffer.usage)
    return makeError(where + " has unknown usage bits (" +
                     toString(buffer.usage) + ")");
  switch (buffer.role) {
  case BufferRole::Input:
  case BufferRole::Output:
  case BufferRole::Temporary: break;
  default: return makeError(where + " has an unknown role");
  }
  for (int64_t dim : buffer.shape)
    if (dim < 0)
      return makeError(where + " has a negative dimension in its shape " +
                       describe(buffer.type, buffer.shape));
  std::optional<uint64_t> bytes = bufferByteSize(buffer.type, buffer.shape);
  if (!bytes)
    return makeError(where + " of " + describe(buffer.type, buffer.shape) +
                     " is larger than the limit of " +
                     std::to_string(kMaxPlanBytes) + " bytes");
  totalBytes += *bytes;
  if (totalBytes > kMaxPlanBytes)
    return makeError("buffers 0.." + std::to_string(i) +
                     " together need more than the limit of " +
                     std::to_string(kMaxPlanBytes) + " bytes");
  for (int device : buffer.affinity)
    if (device < 0)
      return makeError(where + " has a negative device affinity " +
                       std::to_string(device));
  return Status::success();
}

/// Dispatch d's executable, entry, bindings (each buffer once, marked in
/// `bound`) and sizes.
Status verifyDispatch(const Plan &plan, size_t d, std::vector<bool> &bound) {
  const Dispatch &dispatch = plan.dispatches[d];
  std::string where = "dispatch " + std::to_string(d);
  if (dispatch.executable < 0)
    return makeError(where + " names executable " +
                     std::to_string(dispatch.executable));
  if (dispatch.entry < 0)
    return makeError(where + " names entry " + std::to_string(dispatch.entry));
  std::set<int> seen;
  for (int binding : dispatch.bindings) {
    if (binding < 0 || static_cast<size_t>(binding) >= plan.buffers.size())
      return makeError(where + " binds buffer " + std::to_string(binding) +
                       " but the plan has " +
                       std::to_string(plan.buffers.size()) + " buffers");
    if (!seen.insert(binding).second)
      return makeError(where + " binds buffer " + std::to_string(binding) +
                       " twice");
    bound[binding] = true;
  }
  static const char *kAxes[] = {"x", "y", "z"};
  uint64_t threads = 1;
  for (int axis = 0; axis < 3; ++axis) {
    if (dispatch.grid[axis] == 0)
      return makeError(where + " has grid size 0 along " + kAxes[axis]);
    if (dispatch.block[axis] == 0)
      return makeError(where + " has block size 0 along " + kAxes[axis]);
    threads *= dispatch.block[axis];
    if (threads > kMaxWorkgroupThreads)
      break;
  }
  if (threads > kMaxWorkgroupThreads)
    return makeError(
        where + " has block [" + std::to_string(dispatch.block[0]) + "," +
        std::to_string(dispatch.block[1]) + "," +
        std::to_string(dispatch.block[2]) + "], more than " +
        std::to_string(kMaxWorkgroupThreads) + " threads per workgroup");
  return Status::success();
}

} // namespace

Status rt::verifyPlan(const Plan &plan) {
  uint64_t totalBytes = 0;
  for (size_t i = 0; i < plan.buffers.size(); ++i)
    if (Status s = verifyBuffer(plan.buffers[i], i, totalBytes); !s)
      return s;
  if (Status s = verifyRoleIndices(plan, BufferRole::Input); !s)
    return s;
  if (Status s = verifyRoleIndices(plan, BufferRole::Output); !s)
    return s;
  std::vector<bool> bound(plan.buffers.size(), false);
  for (size_t d = 0; d < plan.dispatches.size(); ++d)
    if (Status s = verifyDispatch(plan, d, bound); !s)
      return s;
  std::vector<int> outputs = plan.outputs();
  for (size_t o = 0; o < outputs.size(); ++o)
    // An output with no elements needs no writer.
    if (!bound[outputs[o]] && bufferByteSize(plan.buffers[outputs[o]].type,
                                             plan.buffers[outputs[o]].shape)
                                      .value_or(1) != 0)
      return makeError("output " + std::to_string(o) + " (buffer " +
                       std::to_string(outputs[o]) +
                       ") is bound by no dispatch, so nothing writes it");
  return Status::success();
}
