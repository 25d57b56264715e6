//===- support/Shape.h - Counting with shapes ----------*- C++ -*-===//
//
// Small facts about tensor shapes and sizes that the runtime, the
// generators and the compiler's faults all need.
//
//===----------------------------------------------------------------------===//

#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sift {

/// The number of elements of a tensor of `shape` (1 for rank 0).
inline int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// "[3, 4]": a shape for messages ("[]" for rank 0).
inline std::string shapeString(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// True when `n` is prime (trial division; meant for sizes).
inline bool isPrime(int64_t n) {
  if (n < 2)
    return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0)
      return false;
  return true;
}

} // namespace sift
