//===- test/unittests/runtime/ArtifactFuzzTest.cpp - Hostile artifacts ----===//
//
// A deterministic fuzz loop over the artifact reader: every truncation of a
// valid artifact, seeded byte flips anywhere, and seeded edits inside
// sections and the section table with the checksums re-sealed (so that the
// meta, plan and .npy parsers behind the checksums are reached too). Each
// case must return an error or an artifact that verifies and re-encodes to
// itself; a crash or an out-of-bounds read (under ASan) fails the test.
//
//===----------------------------------------------------------------------===//

#include "runtime/Artifact.h"
#include "runtime/fuzz/ArtifactPromise.h"

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

#include <random>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

/// A small deterministic generator (mt19937_64 is fully specified).
class Rng {
public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, n).
  size_t below(size_t n) { return static_cast<size_t>(engine_() % n); }
  uint8_t byte() { return static_cast<uint8_t>(engine_()); }

private:
  std::mt19937_64 engine_;
};

/// Parses `bytes` from a heap copy of exactly their size (so that ASan sees
/// any read past the end) and checks the reader's promise
/// (runtime/fuzz/ArtifactPromise.h, which sift-artifact-fuzz checks too).
void checkOutcome(const std::vector<uint8_t> &bytes, const std::string &what,
                  size_t &accepted, Artifact *result = nullptr) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() ? bytes.size() : 1]);
  std::copy(bytes.begin(), bytes.end(), copy.get());
  ReaderOutcome outcome = checkReaderPromise(copy.get(), bytes.size(), "f.sift");
  ASSERT_EQ(outcome.broken, "") << what;
  if (!outcome.accepted)
    return; // rejected, with an error naming the file
  ++accepted;
  if (result)
    *result = std::move(outcome.artifact);
}

std::vector<uint8_t> sampleBytes() {
  // A fake binary keeps the artifact small; the reader does not look inside.
  return encodeArtifact(sampleArtifact({1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(ArtifactFuzz, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = sampleBytes();
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    std::unique_ptr<uint8_t[]> copy(new uint8_t[n ? n : 1]);
    std::copy(prefix.begin(), prefix.end(), copy.get());
    Result<Artifact> parsed = parseArtifact(copy.get(), n, "t.sift");
    ASSERT_FALSE(parsed.ok()) << "a " << n << "-byte prefix parsed";
  }
  EXPECT_TRUE(parseArtifact(bytes.data(), bytes.size(), "t.sift").ok());
}

TEST(ArtifactFuzz, SeededByteFlips) {
  const std::vector<uint8_t> bytes = sampleBytes();
  const Artifact original = sampleArtifact({1, 2, 3, 4, 5, 6, 7, 8});
  Rng rng(0x5eed);
  size_t accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> mutated = bytes;
    int flips = 1 + static_cast<int>(rng.below(4));
    for (int f = 0; f < flips; ++f)
      mutated[rng.below(mutated.size())] ^= 1 + rng.below(255);
    Artifact artifact;
    size_t before = accepted;
    checkOutcome(mutated, "flip case " + std::to_string(i), accepted,
                 &artifact);
    if (HasFatalFailure())
      return;
    // Checksums cover every byte that carries meaning; only flips in the
    // alignment padding between sections may go unnoticed.
    if (accepted != before) {
      ASSERT_EQ(artifact, original) << "flip case " << i;
    }
  }
}

TEST(ArtifactFuzz, SeededSectionEditsBehindResealedChecksums) {
  const std::vector<uint8_t> bytes = sampleBytes();
  size_t dataStart = kArtifactHeaderBytes + 6 * kSectionEntryBytes;
  Rng rng(42);
  size_t accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> mutated = bytes;
    int edits = 1 + static_cast<int>(rng.below(3));
    for (int e = 0; e < edits; ++e) {
      size_t at = dataStart + rng.below(mutated.size() - dataStart);
      switch (rng.below(4)) {
      case 0: // flip
        mutated[at] ^= 1 + rng.below(255);
        break;
      case 1: // printable byte, to keep text sections text
        mutated[at] = static_cast<uint8_t>(' ' + rng.below(95));
        break;
      case 2: // a structural character
        mutated[at] = static_cast<uint8_t>("\n=,[]|() 0-9'"[rng.below(13)]);
        break;
      default: // a random byte
        mutated[at] = rng.byte();
        break;
      }
    }
    resealArtifact(mutated);
    checkOutcome(mutated, "section edit case " + std::to_string(i), accepted);
    if (HasFatalFailure())
      return;
  }
  // Some edits (in the binary, in meta values) are harmless.
  EXPECT_GT(accepted, 0u);
}

TEST(ArtifactFuzz, SeededTableEditsBehindResealedChecksums) {
  const std::vector<uint8_t> bytes = sampleBytes();
  Rng rng(7);
  size_t accepted = 0;
  for (int i = 0; i < 2000; ++i) {
    std::vector<uint8_t> mutated = bytes;
    size_t entry = kArtifactHeaderBytes + rng.below(6) * kSectionEntryBytes;
    switch (rng.below(5)) {
    case 0: // offset
      writeU64(mutated, entry + 32, rng.below(mutated.size() + 16));
      break;
    case 1: // size
      writeU64(mutated, entry + 40, rng.below(mutated.size() + 16));
      break;
    case 2: // huge offset or size
      writeU64(mutated, entry + 32 + 8 * rng.below(2),
               ~uint64_t(0) - rng.below(1 << 16));
      break;
    case 3: // name byte
      mutated[entry + rng.below(kSectionNameBytes)] = rng.byte();
      break;
    default: // section count
      writeU32(mutated, 12, static_cast<uint32_t>(rng.below(8)));
      break;
    }
    resealArtifact(mutated);
    checkOutcome(mutated, "table edit case " + std::to_string(i), accepted);
    if (HasFatalFailure())
      return;
  }
}

TEST(ArtifactFuzz, RandomBytesAfterAValidHeader) {
  Rng rng(99);
  size_t accepted = 0;
  for (int i = 0; i < 500; ++i) {
    std::vector<uint8_t> bytes(kArtifactHeaderBytes + rng.below(512));
    for (uint8_t &b : bytes)
      b = rng.byte();
    std::copy(kArtifactMagic, kArtifactMagic + 8, bytes.begin());
    writeU32(bytes, 8, kArtifactVersion);
    writeU32(bytes, 12, static_cast<uint32_t>(rng.below(10)));
    resealArtifact(bytes);
    checkOutcome(bytes, "random case " + std::to_string(i), accepted);
    if (HasFatalFailure())
      return;
  }
  EXPECT_EQ(accepted, 0u);
}

TEST(ArtifactFuzz, PlanTextMutations) {
  const std::string text = encodePlan(sampleArtifact().plan);
  Rng rng(1234);
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = text;
    int edits = 1 + static_cast<int>(rng.below(3));
    for (int e = 0; e < edits; ++e) {
      size_t at = rng.below(mutated.size());
      switch (rng.below(3)) {
      case 0: mutated[at] = "\n=,[]|0123456789- #x"[rng.below(20)]; break;
      case 1: mutated.erase(at, 1 + rng.below(8)); break;
      default:
        mutated.insert(at,
                       std::string(1 + rng.below(3), "9[],=-"[rng.below(6)]));
        break;
      }
    }
    Result<Plan> plan = parsePlan(mutated, "m.plan");
    if (plan.ok()) {
      // Whatever parses must re-encode to text that parses to the same plan.
      Result<Plan> again = parsePlan(encodePlan(*plan), "again");
      ASSERT_TRUE(again.ok()) << again.message();
      ASSERT_EQ(*again, *plan) << mutated;
      (void)verifyPlan(*plan);
    } else {
      ASSERT_EQ(plan.message().rfind("m.plan", 0), 0u) << plan.message();
    }
  }
}

} // namespace
