//===- test/unittests/runtime/RuntimeTestUtil.h - Runtime test helpers ----===//
//
// Helpers shared by the runtime unit tests: a self-removing temporary
// directory, tensor builders, a small valid artifact, a function that
// re-seals an artifact's checksums after a test edits its bytes, and a
// builder for real host shared objects compiled with the system `cc`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Artifact.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sift::rt::test {

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents when
/// the object dies.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  /// path() + "/" + name.
  std::string file(const std::string &name) const;

private:
  std::string path_;
};

/// A tensor whose element i is `first + i * step`, converted to `type`
/// (f16 holds the IEEE half bit pattern of the value).
HostTensor iotaTensor(ElementType type, std::vector<int64_t> shape,
                      double first = 0, double step = 1);

/// An f32 tensor of `shape` with the given values (row-major).
HostTensor f32Tensor(std::vector<int64_t> shape,
                     const std::vector<float> &values);

/// A valid artifact: input f32[4x8] (buffer 0), output f32[4x8] (buffer 1), a
/// temporary i32[0] (buffer 2), one host-so executable with entries
/// {"add_one", "unused"} holding `binary`, one dispatch of add_one binding
/// [0, 1], inputs and expected outputs (input + 1).
Artifact sampleArtifact(std::vector<uint8_t> binary = {0x7f, 'E', 'L', 'F'});

/// The section table entry named `name`: its byte offset in the file, or
/// nullopt.
std::optional<size_t> findSectionEntry(const std::vector<uint8_t> &bytes,
                                       const std::string &name);

/// Replaces the contents of section `name` (moving it to the end of the file)
/// and re-seals the checksums.
void replaceSection(std::vector<uint8_t> &bytes, const std::string &name,
                    const std::vector<uint8_t> &contents);

/// Little-endian field access on byte vectors.
uint64_t readU64(const std::vector<uint8_t> &bytes, size_t at);
void writeU64(std::vector<uint8_t> &bytes, size_t at, uint64_t value);
void writeU32(std::vector<uint8_t> &bytes, size_t at, uint32_t value);

/// Host kernels (host-v1 ABI) over f32[32]: add_one (b[1] = b[0] + 1),
/// unused, subtract (b[2] = b[0] - b[1]) and count_calls (++*(int *)b[0]).
extern const char *const kHostKernels;

/// Compiles C `source` into a host shared object with the system `cc`
/// (`cc -shared -fPIC`) and returns its bytes. When `cc` is missing or the
/// compile fails, returns nullopt and sets `why`.
std::optional<std::vector<uint8_t>> buildSharedObject(const std::string &source,
                                                      std::string &why);

} // namespace sift::rt::test
