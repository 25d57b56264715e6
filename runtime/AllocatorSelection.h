//===- runtime/AllocatorSelection.h - Which device allocates a buffer -----===//
//
// A buffer used by several devices (its plan affinity) is allocated by one
// of them (IREE #20857, "optimal affinity"). A policy callback
// select_allocator(devices, memory types, usage) picks, among the devices
// that use the buffer, the one whose allocator serves it; the default picks
// the first, a lead allocator (--device-lead-allocator=N) picks device N
// wherever N uses the buffer. The choice is memoized per (affinity set,
// memory types, usage), never per size: buffers that differ only in size
// always land on the same allocator, and the policy runs once per key.
//
// Fault alloc-select-first makes the policy ignore the affinity and always
// answer the runtime's first device; checkAllocatorAffinity is the oracle
// that catches an allocator outside a buffer's affinity set.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Device.h"

#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace sift::rt {

/// The policy: `users` are the runtime ordinals of the devices that use the
/// buffer (never empty, ascending); returns the ordinal of the allocating
/// device.
using SelectAllocator = std::function<int(
    const std::vector<int> &users, MemoryType memory, BufferUsage usage)>;

/// The first device that uses the buffer.
SelectAllocator firstUserPolicy();
/// Device `lead` where it uses the buffer, else the first user.
SelectAllocator leadAllocatorPolicy(int lead);
/// Fault alloc-select-first: device 0, whoever uses the buffer.
SelectAllocator ignoreAffinityPolicy();

/// Picks allocators for plan buffers over `deviceCount` devices.
class AllocatorSelector {
public:
  AllocatorSelector(int deviceCount, SelectAllocator policy);

  /// The ordinal of the device that allocates `buffer`. Fails when the
  /// buffer's affinity names a device the runtime lacks, or when the policy
  /// answers one out of range.
  Result<int> select(const PlanBuffer &buffer);

  /// How often the policy ran (memoization: once per key).
  int policyCalls() const { return policyCalls_; }

private:
  using Key = std::tuple<std::vector<int>, MemoryType, BufferUsage>;
  int deviceCount_;
  SelectAllocator policy_;
  std::map<Key, int> memo_;
  int policyCalls_ = 0;
};

/// The users of a buffer: its affinity, sorted and deduplicated ({0} when
/// empty).
std::vector<int> bufferUsers(const PlanBuffer &buffer);

/// Parses --device-lead-allocator: a device ordinal below `deviceCount`.
Result<int> parseLeadAllocator(const std::string &text, int deviceCount);

/// The allocator oracle: an error naming the buffer when `allocator` does
/// not use it.
Status checkAllocatorAffinity(const PlanBuffer &buffer, int bufferIndex,
                              int allocator);

} // namespace sift::rt
