//===- runtime/fuzz/ArtifactPromise.cpp - What the artifact reader promises ===//
//
// See ArtifactPromise.h.
//
//===----------------------------------------------------------------------===//

#include "runtime/fuzz/ArtifactPromise.h"

using namespace sift;
using namespace sift::rt;

ReaderOutcome rt::checkReaderPromise(const uint8_t *data, size_t size,
                                     const std::string &name) {
  ReaderOutcome outcome;
  Result<Artifact> parsed = parseArtifact(data, size, name);
  if (!parsed.ok()) {
    const std::string &message = parsed.message();
    if (message.rfind(name + ": ", 0) != 0)
      outcome.broken = "the error does not start with the file's name: " +
                       message;
    else if (message.size() <= name.size() + 2)
      outcome.broken = "the error says nothing after the file's name";
    return outcome;
  }
  outcome.accepted = true;
  if (Status s = verifyArtifact(*parsed); !s.ok()) {
    outcome.broken = "an accepted artifact does not verify: " + s.message();
    return outcome;
  }
  std::vector<uint8_t> again = encodeArtifact(*parsed);
  Result<Artifact> reparsed = parseArtifact(again.data(), again.size(), name);
  if (!reparsed.ok())
    outcome.broken = "an accepted artifact, re-encoded, does not parse: " +
                     reparsed.message();
  else if (*reparsed != *parsed)
    outcome.broken = "an accepted artifact, re-encoded and parsed, is a "
                     "different artifact";
  outcome.artifact = std::move(*parsed);
  return outcome;
}
