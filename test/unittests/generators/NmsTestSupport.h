//===- test/unittests/generators/NmsTestSupport.h - nms test helpers -*- C++
//-*-===//
//
// What the nms family's generator tests (NmsGeneratorTest.cpp) and its
// input tests (NmsInputsTest.cpp) share: the nms-only policy, float bits,
// a program's sift.nms op and the exact-IoU table's thresholds.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ExactIou.h"
#include "generators/NmsGenerator.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace sift::gen::test {

inline Policy nmsPolicy() {
  Policy policy;
  policy.familyWeights = {0, 0, 1};
  return policy;
}

inline uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

inline const Op &nmsOf(const Program &p) {
  for (const Op &op : p.ops)
    if (op.kind == OpKind::Nms)
      return op;
  ADD_FAILURE() << "no nms op";
  return p.ops.front();
}

/// True when `t` is the f32 IoU of some pair in the exact-IoU table.
inline bool isTableIou(float t) {
  std::vector<IntBoxPair> pairs = pairsNearIou(t);
  return !pairs.empty() && bitsOf(iouOf(pairs[0])) == bitsOf(t);
}

} // namespace sift::gen::test
