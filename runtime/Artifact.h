//===- runtime/Artifact.h - Compiled programs as one verified file --------===//
//
// An artifact is what the compiler hands to the runtime: executables (host
// shared objects, PTX or HSACO, each with its entry points), the dispatch plan
// and, optionally, input and expected-output tensors. It is one file, so that
// a compile machine with LLVM and a GPU machine without it can pass it around.
// The reader trusts nothing: every offset, size, checksum, index and shape is
// checked once, at load, and a malformed file gets a clear error, never a
// crash (the reader is fuzzed).
//
// File format (all integers little-endian):
//
//   offset 0   magic "SIFTART\0" (8 bytes)
//   offset 8   u32 format version (kArtifactVersion)
//   offset 12  u32 number of sections N
//   offset 16  u64 FNV-1a 64 of the section table's bytes
//   offset 24  section table: N entries of kSectionEntryBytes bytes
//                +0  name, NUL-padded (at most 31 bytes, printable ASCII)
//                +32 u64 offset of the section's bytes from the file start
//                +40 u64 size of the section
//                +48 u64 FNV-1a 64 of the section's bytes
//                +56 u64 reserved, 0
//   then the sections' bytes, each 8-byte aligned.
//
// Sections:
//   meta               "key=value" lines: pipeline, target, chip, generator...
//   plan               encodePlan text
//   exe/<i>            executable i's binary
//   exe/<i>.meta       "format=host-so", "target=...", one "entry=NAME" line
//                      per entry point, in entry order
//   input/<i>.npy      optional input tensor i
//   expected/<i>.npy   optional expected output tensor i
// Indices run 0..N-1 without gaps.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Plan.h"
#include "support/HostTensor.h"
#include "support/Result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sift::rt {

/// The artifact file's magic, including its final NUL.
inline constexpr char kArtifactMagic[8] = {'S', 'I', 'F', 'T',
                                           'A', 'R', 'T', '\0'};
/// The format version this runtime reads and writes.
inline constexpr uint32_t kArtifactVersion = 1;
/// Bytes before the section table.
inline constexpr size_t kArtifactHeaderBytes = 24;
/// Bytes per section table entry.
inline constexpr size_t kSectionEntryBytes = 64;
/// Bytes of the NUL-padded name field of a section table entry.
inline constexpr size_t kSectionNameBytes = 32;

/// The kernel ABI of GPU executables (meta key "abi"): one pointer per
/// binding, in the dispatch's binding order. runPlan refuses others.
inline constexpr const char *kGpuKernelAbi = "gpu-bare-pointer-v1";

/// FNV-1a 64-bit hash of [data, data + size), the checksum of artifact
/// sections and of the section table.
uint64_t fnv1a64(const uint8_t *data, size_t size);

/// One compiled executable.
struct Executable {
  ExecutableFormat format = ExecutableFormat::HostSharedObject;
  /// The target and chip, e.g. "host", "nvptx/sm_90", "amdgpu/gfx942".
  std::string target;
  /// Entry point names; Dispatch::entry indexes this list.
  std::vector<std::string> entries;
  std::vector<uint8_t> binary;

  bool operator==(const Executable &other) const;
  bool operator!=(const Executable &other) const { return !(*this == other); }
};

/// A compiled program with its plan and, optionally, its test data.
struct Artifact {
  /// Free-form facts: pipeline, target, chip, generator, seed...
  std::map<std::string, std::string> meta;
  std::vector<Executable> executables;
  Plan plan;
  /// Empty, or one tensor per plan input in roleIndex order.
  std::vector<HostTensor> inputs;
  /// Empty, or one tensor per plan output in roleIndex order.
  std::vector<HostTensor> expected;

  bool operator==(const Artifact &other) const;
  bool operator!=(const Artifact &other) const { return !(*this == other); }
};

/// Checks everything verifyPlan checks, plus: meta keys are non-empty and hold
/// no '=' or control characters and values hold no line breaks or NULs;
/// executables have a non-empty binary, a known format, a single-line target
/// and at least one entry (an emu-so executable is the last, one entry per
/// entry of the ptx or hsaco executables, and no dispatch names it), with entry
/// names non-empty, free of whitespace and control characters and not repeated;
/// every dispatch's executable and entry index is in range; present inputs and
/// expected outputs match the plan's input and output buffers in count, element
/// type and shape, and hold the bytes their shape needs. Messages say what was
/// found and where.
Status verifyArtifact(const Artifact &artifact);

/// The artifact's emu kernels (an emu-so executable, always the last), or
/// null when it carries none.
const Executable *emuExecutable(const Artifact &artifact);

/// The entry of the emu executable that stands for `dispatch`'s kernel: the
/// emu executable lists the GPU executables' entries in order, executable
/// by executable.
int emuEntryIndex(const Artifact &artifact, const Dispatch &dispatch);

/// Encodes an artifact as file bytes. The artifact should pass
/// verifyArtifact; writeArtifact makes sure it does.
std::vector<uint8_t> encodeArtifact(const Artifact &artifact);

/// Recomputes the checksums of artifact bytes in place: every section's
/// whose extent lies inside `bytes`, then the section table's (of the
/// entries that fit). Bytes shorter than the header are left alone. The
/// encoder seals with it; tests and the fuzz target use it to reach the
/// parsers behind the checksums with edited bytes.
void resealArtifact(std::vector<uint8_t> &bytes);

/// Parses and verifies artifact bytes. `name` (usually the file name) starts
/// every error message. Never reads outside [data, data + size).
Result<Artifact> parseArtifact(const uint8_t *data, size_t size,
                               const std::string &name);

/// Reads, parses and verifies the artifact file at `path`.
Result<Artifact> readArtifact(const std::string &path);

/// Verifies `artifact` and writes it to `path` atomically (a temporary file,
/// then a rename); `path` is untouched on failure.
Status writeArtifact(const std::string &path, const Artifact &artifact);

} // namespace sift::rt
