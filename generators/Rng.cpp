//===- generators/Rng.cpp - Deterministic random engine -------------------===//
//
// xoshiro256** (Blackman and Vigna, public domain reference algorithm) seeded
// with splitmix64, and distribution functions written with integer arithmetic
// only (plus one exact conversion to double), so results are bit-identical
// on every compiler and platform.
//
//===----------------------------------------------------------------------===//
#include "generators/Rng.h"

#include <cassert>

namespace sift::gen {

uint64_t splitmix64(uint64_t &state) {
  state += 0x9E3779B97F4A7C15ull;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t caseSeed(uint64_t campaignSeed, uint64_t index) {
  uint64_t a = campaignSeed;
  uint64_t mixedCampaign = splitmix64(a);
  uint64_t b = index ^ 0xD1B54A32D192ED03ull;
  uint64_t mixedIndex = splitmix64(b);
  // Rotate one side so that (c, i) and (i, c) differ, then mix again.
  uint64_t combined = mixedCampaign ^ ((mixedIndex << 23) | (mixedIndex >> 41));
  return splitmix64(combined);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Rng::Rng(uint64_t seed) {
  uint64_t s = seed;
  for (uint64_t &word : state)
    word = splitmix64(s);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(state[1] * 5, 7) * 9;
  const uint64_t t = state[1] << 17;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= t;
  state[3] = rotl(state[3], 45);
  return result;
}

int64_t Rng::uniform(int64_t lo, int64_t hi) {
  assert(lo <= hi && "Rng::uniform: empty range");
  // Width minus one, computed in unsigned arithmetic (no overflow).
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  uint64_t offset;
  if (span == UINT64_MAX) {
    offset = next();
  } else {
    // Mask rejection: draw the smallest number of bits covering span.
    uint64_t mask = span;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    mask |= mask >> 16;
    mask |= mask >> 32;
    do {
      offset = next() & mask;
    } while (offset > span);
  }
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
}

double Rng::uniformDouble() {
  // 53 random bits scaled by 2^-53: exact, in [0, 1).
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

bool Rng::chance(double p) {
  if (p <= 0.0)
    return false;
  if (p >= 1.0)
    return true;
  return uniformDouble() < p;
}

size_t Rng::pickWeighted(const unsigned *weights, size_t count) {
  uint64_t total = 0;
  for (size_t i = 0; i < count; ++i)
    total += weights[i];
  assert(total > 0 && "Rng::pickWeighted: no positive weight");
  if (total == 0)
    return 0;
  uint64_t r =
      static_cast<uint64_t>(uniform(0, static_cast<int64_t>(total) - 1));
  for (size_t i = 0; i < count; ++i) {
    if (r < weights[i])
      return i;
    r -= weights[i];
  }
  return count - 1; // Unreachable.
}

size_t Rng::pickWeighted(const std::vector<unsigned> &weights) {
  return pickWeighted(weights.data(), weights.size());
}

size_t Rng::pickWeighted(std::initializer_list<unsigned> weights) {
  return pickWeighted(weights.begin(), weights.size());
}

Rng Rng::fork(uint64_t stream) const {
  uint64_t s =
      state[0] ^ rotl(state[1], 17) ^ rotl(state[2], 31) ^ rotl(state[3], 47);
  uint64_t mixedState = splitmix64(s);
  uint64_t t = stream ^ 0x2545F4914F6CDD1Dull;
  uint64_t mixedStream = splitmix64(t);
  return Rng(mixedState ^ mixedStream);
}

} // namespace sift::gen
