//===- runtime/fuzz/ArtifactFuzzTarget.cpp - libFuzzer target: artifacts --===//
//
// sift-artifact-fuzz: coverage-guided fuzzing of the artifact reader (the
// container, meta, executable tables, plan text and .npy tensors), which
// reads what a fuzz farm copies between hosts. Each input is parsed twice:
// as it is, and with its checksums recomputed, so that mutations reach the
// parsers behind the checksums. A broken promise (ArtifactPromise.h)
// aborts, which libFuzzer reports as a crash; so do sanitizer findings.
// Built in the runtime-only configuration too: it needs no LLVM.
//
//===----------------------------------------------------------------------===//

#include "runtime/fuzz/ArtifactPromise.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(const uint8_t *data, size_t size, const char *form) {
  std::string broken =
      sift::rt::checkReaderPromise(data, size, "input").broken;
  if (broken.empty())
    return;
  std::fprintf(stderr, "sift-artifact-fuzz: %s input: %s\n", form,
               broken.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check(data, size, "raw");
  // An exact-size heap copy, so that a read past the end is caught by ASan.
  std::vector<uint8_t> resealed(data, data + size);
  sift::rt::resealArtifact(resealed);
  check(resealed.data(), resealed.size(), "resealed");
  return 0;
}
