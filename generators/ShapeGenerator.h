//===- generators/ShapeGenerator.h - Random static tensor shapes ----------===//
//
// Shapes for the main op of a program: a rank in 1..4, one "work" dimension
// (the one sort or top-k runs along, anywhere in the shape) of size 0..4096,
// and the other dimensions small. Sizes favour the ones that break kernels:
// 0, 1, primes and sizes next to powers of two, over tidy powers of two. The
// element cap is kept by shrinking the other dimensions, never the work one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/Rng.h"
#include "support/Shape.h"

#include <cstdint>
#include <vector>

namespace sift::gen {

/// A shape and the dimension the main op works along.
struct ShapeChoice {
  std::vector<int64_t> shape;
  int64_t dimension = 0;
};

/// A size in [0, maxSize] drawn from the size classes weighted by
/// `classWeights` (indexed by DimSizeClass). Classes that have no member in
/// range are skipped; falls back to min(1, maxSize).
int64_t
generateDimSize(const std::array<unsigned, kNumDimSizeClasses> &classWeights,
                int64_t maxSize, Rng &rng);

/// A shape with its work dimension, within the policy's limits.
ShapeChoice generateShape(const ShapePolicy &policy, Rng &rng);

/// Shrinks the dimensions other than `keep` (halving the largest first) until
/// the element count is at most `maxElements`; `keep` itself is clamped to
/// maxElements. A shape with a 0 is already within any cap.
void capElements(std::vector<int64_t> &shape, int64_t keep,
                 int64_t maxElements);

/// An edge size of at most `maxSize`, at least 2 where it can be:
/// m * 2^j - 1, m * 2^j (twice as often) or m * 2^j + 1 for 2^j in 16..1024
/// and m in 1..4, the whole and partial tiles, chunks, warps and radix bins
/// of the GPU algorithms.
int64_t edgeSize(int64_t maxSize, Rng &aim);

/// Aims `shape` at the edges: its innermost dimension does the work, at an
/// edge size, no other dimension is empty, and the element cap holds.
void aimShape(const ShapePolicy &policy, ShapeChoice &shape, Rng &aim);

/// True when `n` is prime (support/Shape.h).
using sift::isPrime;

} // namespace sift::gen
