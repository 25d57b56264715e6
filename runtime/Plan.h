//===- runtime/Plan.h - The dispatch plan of an artifact ------------------===//
//
// The dispatch plan is what the compiler extracts from a program's host
// function and what every device runs: the buffers (element type, shape,
// memory type, usage, role, device affinity) and the dispatches (executable,
// entry, grid, block, workgroup memory, bound buffers, constants), in order.
// It is plain data with a line-based text encoding that people can read and
// diff; the parser needs no LLVM and reports errors with line numbers.
// Semantic checks (indices in range, sizes) live in verifyPlan.
//
// Text encoding, one record per line ('#' starts a comment line):
//
//   sift-plan 1
//   buffer 0 type=f32 shape=[4,8] memory=device_local usage=dispatch|transfer
//            role=input role_index=0 affinity=[0]
//   dispatch 0 executable=0 entry=0 grid=[1,1,1] block=[64,1,1]
//              workgroup_memory=0 bindings=[0,1] constants=[]
//
// (each record on a single line; `affinity`, `workgroup_memory` and
// `constants` may be left out and default to empty, 0 and empty).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"
#include "support/Result.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sift::rt {

/// Memory type bit flags of a buffer.
enum class MemoryType : uint32_t {
  None = 0,
  DeviceLocal = 1,
  HostVisible = 2,
  HostCoherent = 4,
};

/// Usage bit flags of a buffer.
enum class BufferUsage : uint32_t {
  None = 0,
  Dispatch = 1,
  Transfer = 2,
  Export = 4,
};

constexpr MemoryType operator|(MemoryType a, MemoryType b) {
  return static_cast<MemoryType>(static_cast<uint32_t>(a) |
                                 static_cast<uint32_t>(b));
}
constexpr MemoryType operator&(MemoryType a, MemoryType b) {
  return static_cast<MemoryType>(static_cast<uint32_t>(a) &
                                 static_cast<uint32_t>(b));
}
constexpr BufferUsage operator|(BufferUsage a, BufferUsage b) {
  return static_cast<BufferUsage>(static_cast<uint32_t>(a) |
                                  static_cast<uint32_t>(b));
}
constexpr BufferUsage operator&(BufferUsage a, BufferUsage b) {
  return static_cast<BufferUsage>(static_cast<uint32_t>(a) &
                                  static_cast<uint32_t>(b));
}
/// True when every flag of `flags` is set in `set`.
constexpr bool hasAll(MemoryType set, MemoryType flags) {
  return (set & flags) == flags;
}
constexpr bool hasAll(BufferUsage set, BufferUsage flags) {
  return (set & flags) == flags;
}

/// Every defined memory type bit.
inline constexpr MemoryType kAllMemoryTypes = MemoryType::DeviceLocal |
                                              MemoryType::HostVisible |
                                              MemoryType::HostCoherent;
/// Every defined usage bit.
inline constexpr BufferUsage kAllBufferUsages =
    BufferUsage::Dispatch | BufferUsage::Transfer | BufferUsage::Export;

/// "device_local|host_visible"; "none" for no flags. Undefined bits appear as
/// "0x..".
std::string toString(MemoryType flags);
/// Parses "device_local|host_visible|host_coherent" or "none".
std::optional<MemoryType> parseMemoryType(std::string_view text);
/// "dispatch|transfer|export"; "none" for no flags.
std::string toString(BufferUsage flags);
/// Parses "dispatch|transfer|export" or "none".
std::optional<BufferUsage> parseBufferUsage(std::string_view text);

/// What a buffer is for in the program's signature.
enum class BufferRole { Input, Output, Temporary };

/// "input", "output", "temporary".
std::string_view toString(BufferRole role);
/// Parses a stable role name.
std::optional<BufferRole> parseBufferRole(std::string_view name);

/// The kind of binary an executable holds. EmuSharedObject: a GPU
/// pipeline's kernels lowered for the host (runtime/emu/EmuAbi.h), which the
/// emu device runs in place of the artifact's PTX or HSACO.
enum class ExecutableFormat { HostSharedObject, Ptx, Hsaco, EmuSharedObject };

/// "host-so", "ptx", "hsaco", "emu-so".
std::string_view toString(ExecutableFormat format);
/// Parses a stable format name.
std::optional<ExecutableFormat> parseExecutableFormat(std::string_view name);

/// One buffer of the plan.
struct PlanBuffer {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  MemoryType memory = MemoryType::DeviceLocal;
  BufferUsage usage = BufferUsage::Dispatch | BufferUsage::Transfer;
  BufferRole role = BufferRole::Temporary;
  /// Position among the buffers of the same role (input 0, input 1, ...).
  int roleIndex = 0;
  /// Ordinals of the devices that use the buffer; empty means {0}.
  std::vector<int> affinity;

  bool operator==(const PlanBuffer &other) const;
  bool operator!=(const PlanBuffer &other) const { return !(*this == other); }
};

/// The largest byte size of one buffer and of all buffers of a plan together.
inline constexpr uint64_t kMaxPlanBytes = uint64_t(1) << 40;

/// The byte size of a buffer of `type` and `shape`; nullopt when a dimension
/// is negative or the size exceeds kMaxPlanBytes.
std::optional<uint64_t> bufferByteSize(ElementType type,
                                       const std::vector<int64_t> &shape);

/// One kernel launch.
struct Dispatch {
  /// Index into the artifact's executables.
  int executable = 0;
  /// Index into that executable's entry points.
  int entry = 0;
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  /// Dynamic workgroup (shared) memory per workgroup.
  uint32_t workgroupMemoryBytes = 0;
  /// Buffer indices, in the kernel's argument order.
  std::vector<int> bindings;
  /// Push constants, in the kernel's argument order after the bindings.
  std::vector<int64_t> constants;

  bool operator==(const Dispatch &other) const;
  bool operator!=(const Dispatch &other) const { return !(*this == other); }
};

/// The buffers and the ordered dispatches of a program.
struct Plan {
  std::vector<PlanBuffer> buffers;
  std::vector<Dispatch> dispatches;

  /// Indices of the input buffers, ordered by roleIndex.
  std::vector<int> inputs() const;
  /// Indices of the output buffers, ordered by roleIndex.
  std::vector<int> outputs() const;

  bool operator==(const Plan &other) const;
  bool operator!=(const Plan &other) const { return !(*this == other); }
};

/// The largest threads per workgroup (block x * y * z) a plan may ask for.
inline constexpr uint64_t kMaxWorkgroupThreads = 1024;

/// Checks what a plan can check alone: known flag bits, non-empty memory
/// types, non-negative shapes, byte sizes within kMaxPlanBytes (each and in
/// total), non-negative affinities, input and output role indices 0..N-1 with
/// no repeats, binding indices in range and not repeated within a dispatch,
/// non-zero grid and block sizes, at most kMaxWorkgroupThreads threads per
/// workgroup, and every output with elements bound by some dispatch. Executable
/// and entry indices are checked against the artifact by verifyArtifact.
/// Messages name the buffer or dispatch ("dispatch 0 binds buffer 7 but the
/// plan has 3 buffers").
Status verifyPlan(const Plan &plan);

/// The text encoding of a plan (see the file comment).
std::string encodePlan(const Plan &plan);

/// Parses the text encoding. Errors read "NAME:LINE: what is wrong". Only the
/// syntax and the record order are checked; see verifyPlan.
Result<Plan> parsePlan(std::string_view text,
                       const std::string &nameForMessages);

} // namespace sift::rt
