//===- runtime/fuzz/ArtifactPromise.h - What the artifact reader promises -===//
//
// The artifact reader's contract for arbitrary bytes, as one function that
// the deterministic mutation tests and the libFuzzer target
// (sift-artifact-fuzz) share: parsing either fails with a message that
// starts with the file's name, or yields an artifact that verifies and
// re-encodes to bytes that parse back to the same artifact.
//
//===----------------------------------------------------------------------===//

#pragma once

#include "runtime/Artifact.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace sift::rt {

/// What checkReaderPromise saw.
struct ReaderOutcome {
  /// "" when the promise held, else a sentence saying which part broke.
  std::string broken;
  /// Whether the bytes parsed as an artifact (then in `artifact`).
  bool accepted = false;
  Artifact artifact;
};

/// Parses [data, data + size) as the artifact file `name` and checks the
/// reader's promise.
ReaderOutcome checkReaderPromise(const uint8_t *data, size_t size,
                                 const std::string &name);

} // namespace sift::rt
