//===- generators/ShapeGenerator.cpp - Random static tensor shapes --------===//
//
// Size classes, shape drawing and the element cap.
//
//===----------------------------------------------------------------------===//
#include "generators/ShapeGenerator.h"

#include <algorithm>

namespace sift::gen {

namespace {
/// Primes from tiny to just under 4096, dense at the small end and next to
/// powers of two at the large end.
constexpr int64_t kPrimes[] = {2,    3,    5,    7,    11,  13,  17,  19,
                               23,   29,   31,   37,   41,  61,  67,  97,
                               101,  127,  131,  251,  257, 509, 521, 1021,
                               1031, 2039, 2053, 4091, 4093};
} // namespace

int64_t
generateDimSize(const std::array<unsigned, kNumDimSizeClasses> &classWeights,
                int64_t maxSize, Rng &rng) {
  if (maxSize <= 0)
    return 0;
  std::array<unsigned, kNumDimSizeClasses> weights = classWeights;
  // Drop classes with no member in [0, maxSize].
  if (maxSize < 2) {
    weights[static_cast<size_t>(DimSizeClass::Small)] = 0;
    weights[static_cast<size_t>(DimSizeClass::Prime)] = 0;
    weights[static_cast<size_t>(DimSizeClass::PowerOf2)] = 0;
  }
  if (maxSize < 3)
    weights[static_cast<size_t>(DimSizeClass::NearPowerOf2)] = 0;
  unsigned total = 0;
  for (unsigned w : weights)
    total += w;
  if (total == 0)
    return 1;

  switch (static_cast<DimSizeClass>(
      rng.pickWeighted(weights.data(), weights.size()))) {
  case DimSizeClass::Zero: return 0;
  case DimSizeClass::One: return 1;
  case DimSizeClass::Small:
    return rng.uniform(2, std::min<int64_t>(16, maxSize));
  case DimSizeClass::Prime: {
    std::vector<int64_t> candidates;
    for (int64_t p : kPrimes)
      if (p <= maxSize)
        candidates.push_back(p);
    return rng.pick(candidates);
  }
  case DimSizeClass::NearPowerOf2: {
    // 2^j - 1 or 2^j + 1 for 2^j in [2, maxSize + 1].
    std::vector<int64_t> candidates;
    for (int64_t p = 2; p - 1 <= maxSize; p *= 2) {
      if (p - 1 >= 2)
        candidates.push_back(p - 1);
      if (p + 1 <= maxSize)
        candidates.push_back(p + 1);
    }
    return rng.pick(candidates);
  }
  case DimSizeClass::PowerOf2: {
    std::vector<int64_t> candidates;
    for (int64_t p = 2; p <= maxSize; p *= 2)
      candidates.push_back(p);
    return rng.pick(candidates);
  }
  case DimSizeClass::Any: return rng.uniform(1, maxSize);
  }
  return 1;
}

void capElements(std::vector<int64_t> &shape, int64_t keep,
                 int64_t maxElements) {
  if (maxElements < 1)
    maxElements = 1;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return;
  size_t keepIndex = static_cast<size_t>(keep);
  if (keepIndex < shape.size())
    shape[keepIndex] = std::min(shape[keepIndex], maxElements);
  auto count = [&] {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  };
  while (count() > maxElements) {
    size_t largest = shape.size();
    for (size_t i = 0; i < shape.size(); ++i)
      if (i != keepIndex && shape[i] > 1 &&
          (largest == shape.size() || shape[i] > shape[largest]))
        largest = i;
    if (largest == shape.size())
      break; // Only `keep` is left, and it is within the cap.
    shape[largest] = std::max<int64_t>(1, shape[largest] / 2);
  }
}

int64_t edgeSize(int64_t maxSize, Rng &aim) {
  // Whole tiles (d = 0) twice as often as each partial one: a split's
  // chunks must divide the row.
  std::vector<int64_t> sizes;
  for (int64_t tile = 16; tile <= 1024; tile *= 2)
    for (int64_t m = 1; m <= 4; ++m)
      for (int64_t d : {-1, 0, 0, 1})
        if (m * tile + d <= maxSize)
          sizes.push_back(m * tile + d);
  return sizes.empty() ? std::max<int64_t>(std::min<int64_t>(2, maxSize), 0)
                       : aim.pick(sizes);
}

void aimShape(const ShapePolicy &policy, ShapeChoice &shape, Rng &aim) {
  shape.dimension = static_cast<int64_t>(shape.shape.size()) - 1;
  for (int64_t &d : shape.shape)
    d = std::max<int64_t>(d, 1);
  shape.shape.back() = edgeSize(policy.maxWorkDimSize, aim);
  capElements(shape.shape, shape.dimension, policy.maxElements);
}

ShapeChoice generateShape(const ShapePolicy &policy, Rng &rng) {
  int64_t maxRank = std::clamp<int64_t>(policy.maxRank, 1,
                                        int64_t(policy.rankWeights.size()));
  std::vector<unsigned> rankWeights(policy.rankWeights.begin(),
                                    policy.rankWeights.begin() + maxRank);
  bool any = false;
  for (unsigned w : rankWeights)
    any |= w > 0;
  int64_t rank =
      any ? static_cast<int64_t>(rng.pickWeighted(rankWeights)) + 1 : 1;

  ShapeChoice choice;
  choice.dimension = rng.uniform(
      policy.workDimInnermostThree ? std::max<int64_t>(0, rank - 3) : 0,
      rank - 1);
  choice.shape.resize(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) {
    int64_t &d = choice.shape[static_cast<size_t>(i)];
    if (i == choice.dimension)
      d = generateDimSize(policy.workDimClassWeights, policy.maxWorkDimSize,
                          rng);
    else if (rng.chance(policy.otherDimZeroChance))
      d = 0;
    else
      d = generateDimSize(policy.otherDimClassWeights, policy.maxOtherDimSize,
                          rng);
  }
  capElements(choice.shape, choice.dimension, policy.maxElements);
  return choice;
}

} // namespace sift::gen
