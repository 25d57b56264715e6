//===- test/unittests/oracles/TensorIndexTest.cpp - Index arithmetic ------===//
//
// Row-major strides, flat to multi-index, and the lanes along a dimension
// that sort and top-k iterate, including dimensions of size 0.
//
//===----------------------------------------------------------------------===//
#include "oracles/TensorIndex.h"

#include <gtest/gtest.h>

#include <utility>

namespace sift::oracle {
namespace {

TEST(TensorIndexTest, StridesAndUnflatten) {
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(rowMajorStrides({5}), (std::vector<int64_t>{1}));
  EXPECT_EQ(rowMajorStrides({}), (std::vector<int64_t>{}));
  EXPECT_EQ(unflattenIndex(17, {3, 6}), (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(unflattenIndex(23, {2, 3, 4}), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(unflattenIndex(0, {1, 1, 1, 1}),
            (std::vector<int64_t>{0, 0, 0, 0}));
}

/// Every (inputBase, outputBase, stride) that forEachLane reports.
std::vector<std::vector<int64_t>> lanes(const std::vector<int64_t> &shape,
                                        int64_t dimension, int64_t outLength) {
  std::vector<std::vector<int64_t>> seen;
  forEachLane(shape, dimension, outLength,
              [&](int64_t in, int64_t out, int64_t stride) {
                seen.push_back({in, out, stride});
              });
  return seen;
}

TEST(TensorIndexTest, LanesOfRank3) {
  // [2, 3, 2] along 1: lanes (i, :, k) start at i*6 + k, stride 2.
  EXPECT_EQ(lanes({2, 3, 2}, 1, 3),
            (std::vector<std::vector<int64_t>>{
                {0, 0, 2}, {1, 1, 2}, {6, 6, 2}, {7, 7, 2}}));
  // The same lanes in a [2, 1, 2] output (top-k with k = 1).
  EXPECT_EQ(lanes({2, 3, 2}, 1, 1),
            (std::vector<std::vector<int64_t>>{
                {0, 0, 2}, {1, 1, 2}, {6, 2, 2}, {7, 3, 2}}));
  // Along the last and the first dimension.
  EXPECT_EQ(lanes({2, 3}, 1, 3),
            (std::vector<std::vector<int64_t>>{{0, 0, 1}, {3, 3, 1}}));
  EXPECT_EQ(lanes({2, 3}, 0, 2), (std::vector<std::vector<int64_t>>{
                                     {0, 0, 3}, {1, 1, 3}, {2, 2, 3}}));
}

TEST(TensorIndexTest, LanesOfRank4AndEmptyDimensions) {
  EXPECT_EQ(lanes({2, 2, 2, 2}, 2, 2).size(), 8u);
  EXPECT_EQ(lanes({2, 2, 2, 2}, 2, 2)[7], (std::vector<int64_t>{13, 13, 2}));
  // A size-0 dimension elsewhere: no lanes at all.
  EXPECT_TRUE(lanes({0, 4}, 1, 4).empty());
  EXPECT_TRUE(lanes({3, 0, 2}, 0, 3).empty());
  // Size 0 along the dimension itself: empty lanes, still visited.
  EXPECT_EQ(lanes({3, 0}, 1, 0).size(), 3u);
  EXPECT_EQ(lanes({0}, 0, 0).size(), 1u);
}

} // namespace
} // namespace sift::oracle
