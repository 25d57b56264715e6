//===- generators/Rng.h - Deterministic random engine for the generators --===//
//
// Every random choice sift makes goes through one `Rng`, passed by reference:
// a xoshiro256** engine seeded by splitmix64, with its own distribution
// functions. The standard `<random>` distributions are implementation-defined,
// so the same seed would give different programs with libstdc++ and libc++;
// here the same seed gives the same program, inputs and MLIR text on every
// platform. `caseSeed` derives the seed of one case of a campaign, `fork`
// splits independent streams (program versus input data) from one seed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace sift::gen {

/// Stream numbers for Rng::fork: the program and its input data come from
/// two independent streams of one case seed.
inline constexpr uint64_t kProgramStream = 1;
inline constexpr uint64_t kInputStream = 2;

/// One step of splitmix64 over `state` (advanced in place), returning the next
/// output. Also a good 64-bit mixing function.
uint64_t splitmix64(uint64_t &state);

/// The seed of case `index` of a campaign seeded with `campaignSeed`. Both
/// inputs are mixed (not added), so neighbouring campaigns do not share cases.
uint64_t caseSeed(uint64_t campaignSeed, uint64_t index);

/// A deterministic 64-bit random engine (xoshiro256**) with platform
/// independent distributions.
class Rng {
public:
  /// Seeds the four state words from `seed` with splitmix64.
  explicit Rng(uint64_t seed);

  /// The next 64 random bits.
  uint64_t next();

  /// A uniform integer in [lo, hi], both inclusive; requires lo <= hi.
  /// Unbiased (rejection sampling).
  int64_t uniform(int64_t lo, int64_t hi);

  /// A uniform double in [0, 1) with 53 random bits.
  double uniformDouble();

  /// True with probability `p` (p <= 0: never; p >= 1: always).
  bool chance(double p);

  /// An index i with probability weights[i] / sum(weights). Requires at least
  /// one positive weight.
  size_t pickWeighted(const std::vector<unsigned> &weights);
  size_t pickWeighted(std::initializer_list<unsigned> weights);
  size_t pickWeighted(const unsigned *weights, size_t count);

  /// A uniformly chosen element of a non-empty vector.
  template <typename T> const T &pick(const std::vector<T> &items) {
    return items[static_cast<size_t>(
        uniform(0, static_cast<int64_t>(items.size()) - 1))];
  }

  /// An independent engine for stream `stream`, derived from this engine's
  /// current state without advancing it: forking the same stream twice gives
  /// two identical engines, different streams give unrelated ones.
  Rng fork(uint64_t stream) const;

private:
  uint64_t state[4];
};

} // namespace sift::gen
