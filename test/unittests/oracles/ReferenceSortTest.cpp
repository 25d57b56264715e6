//===- test/unittests/oracles/ReferenceSortTest.cpp - sift.sort reference -===//
//
// Stable sorts in the named orders and with every comparator kind: ties keep
// input order (checked through an index payload), NaNs of both signs, signed
// zeros keeping their bits, integers down to INT_MIN, sorting along a
// non-last dimension, empty dimensions, and three operands moved in lockstep.
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

#include <algorithm>
#include <numeric>

namespace sift::oracle {
namespace {

using namespace test;
using gen::ComparatorKind;
using gen::OpKind;
using gen::SortOrder;

/// Sorts `operands` (key first) along `dimension`; returns all results.
Result<std::vector<HostTensor>>
runSort(std::vector<HostTensor> operands, int64_t dimension, SortOrder order,
        ComparatorKind comparator = ComparatorKind::Less) {
  ProgramUnderTest p;
  gen::Op op;
  op.kind = OpKind::Sort;
  op.dimension = dimension;
  op.order = order;
  op.comparator = comparator;
  std::vector<gen::TensorType> types;
  for (HostTensor &t : operands) {
    types.push_back(typeOf(t));
    op.operands.push_back(p.input(std::move(t)));
  }
  p.program.outputs = p.add(op, types);
  return p.run();
}

/// Sorts `key` (1-D) with an i32 payload 0..n-1; returns the payload.
std::vector<int64_t>
permutation(const HostTensor &key, SortOrder order,
            ComparatorKind comparator = ComparatorKind::Less) {
  std::vector<int32_t> index(key.numElements());
  std::iota(index.begin(), index.end(), 0);
  auto result =
      runSort({key, i32({key.numElements()}, index)}, 0, order, comparator);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.message());
  if (!result.ok())
    return {};
  // Every key element moved with its payload, bits included.
  std::vector<uint64_t> keyBits = bitsOf(key),
                        sortedBits = bitsOf((*result)[0]);
  std::vector<int64_t> perm = intsOf((*result)[1]);
  for (size_t j = 0; j < perm.size(); ++j)
    EXPECT_EQ(sortedBits[j], keyBits[perm[j]]) << "position " << j;
  return perm;
}

TEST(ReferenceSortTest, AscendingIsStable) {
  HostTensor key = f32({8}, {3, 1, 2, 1, 3, 0, 2, 1});
  EXPECT_EQ(permutation(key, SortOrder::Ascending),
            (std::vector<int64_t>{5, 1, 3, 7, 2, 6, 0, 4}));
}

TEST(ReferenceSortTest, DescendingIsStableToo) {
  // Equal keys keep input order in descending sorts as well.
  HostTensor key = f32({8}, {3, 1, 2, 1, 3, 0, 2, 1});
  EXPECT_EQ(permutation(key, SortOrder::Descending),
            (std::vector<int64_t>{0, 4, 2, 6, 1, 3, 7, 5}));
}

TEST(ReferenceSortTest, NaNsOfBothSignsSortLast) {
  // Index:             0     1        2     3                    4      5
  HostTensor key = fromBits(ElementType::F32, {6},
                            {f32Bits(1.0f), 0xffc00000u, f32Bits(0.5f),
                             0x7fc00123u, f32Bits(-kInff), f32Bits(2.0f)});
  EXPECT_EQ(permutation(key, SortOrder::Ascending),
            (std::vector<int64_t>{4, 2, 0, 5, 1, 3}));
  // Descending puts NaN first (PyTorch), NaNs still in input order.
  EXPECT_EQ(permutation(key, SortOrder::Descending),
            (std::vector<int64_t>{1, 3, 5, 0, 2, 4}));
  // The Less comparator region gives the ascending order; Greater the
  // descending one.
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::Less),
            (std::vector<int64_t>{4, 2, 0, 5, 1, 3}));
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::Greater),
            (std::vector<int64_t>{1, 3, 5, 0, 2, 4}));
}

TEST(ReferenceSortTest, SignedZerosAreEqualKeysAndKeepTheirBits) {
  HostTensor key = f32({6}, {0.0f, -0.0f, 1.0f, -0.0f, 0.0f, -1.0f});
  EXPECT_EQ(permutation(key, SortOrder::Ascending),
            (std::vector<int64_t>{5, 0, 1, 3, 4, 2}));
  EXPECT_EQ(permutation(key, SortOrder::Descending),
            (std::vector<int64_t>{2, 0, 1, 3, 4, 5}));
  auto sorted = runSort({key}, 0, SortOrder::Ascending);
  ASSERT_TRUE(sorted.ok());
  EXPECT_EQ(bitsOf((*sorted)[0]),
            (std::vector<uint64_t>{f32Bits(-1.0f), 0x0u, 0x80000000u,
                                   0x80000000u, 0x0u, f32Bits(1.0f)}));
  // Less treats the zeros as equal too.
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::Less),
            (std::vector<int64_t>{5, 0, 1, 3, 4, 2}));
}

TEST(ReferenceSortTest, HalfAndDoubleKeys) {
  HostTensor h =
      fromBits(ElementType::F16, {5}, {0x3c00, 0x7e00, 0x8000, 0xbc00, 0x0000});
  EXPECT_EQ(permutation(h, SortOrder::Ascending),
            (std::vector<int64_t>{3, 2, 4, 0, 1}));
  HostTensor d = f64({4}, {1e300, -1e-300, std::nan(""), -1e300});
  EXPECT_EQ(permutation(d, SortOrder::Descending),
            (std::vector<int64_t>{2, 0, 1, 3}));
}

TEST(ReferenceSortTest, LessAbsComparator) {
  // |2| == |-2| keeps input order; NaN (any sign) is largest.
  HostTensor key = f32({6}, {-3.0f, 2.0f, -kNaNf, -2.0f, 1.0f, -0.0f});
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::LessAbs),
            (std::vector<int64_t>{5, 4, 1, 3, 0, 2}));
}

TEST(ReferenceSortTest, IntegerComparators) {
  HostTensor key = i32({6}, {256, 1, 0, 257, -1, INT32_MIN});
  // Low bytes: 0, 1, 0, 1, 255, 0.
  EXPECT_EQ(
      permutation(key, SortOrder::Comparator, ComparatorKind::LessLowByte),
      (std::vector<int64_t>{0, 2, 5, 1, 3, 4}));
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::Less),
            (std::vector<int64_t>{5, 4, 2, 1, 0, 3}));
  EXPECT_EQ(permutation(key, SortOrder::Comparator, ComparatorKind::Greater),
            (std::vector<int64_t>{3, 0, 1, 2, 4, 5}));
}

TEST(ReferenceSortTest, IntegerNamedOrdersAreSigned) {
  HostTensor key = i32({6}, {7, INT32_MIN, -1, INT32_MAX, 0, -1});
  EXPECT_EQ(permutation(key, SortOrder::Ascending),
            (std::vector<int64_t>{1, 2, 5, 4, 0, 3}));
  EXPECT_EQ(permutation(key, SortOrder::Descending),
            (std::vector<int64_t>{3, 0, 4, 2, 5, 1}));
  HostTensor wide = i64({4}, {INT64_MAX, INT64_MIN, 0, int64_t(1) << 40});
  EXPECT_EQ(permutation(wide, SortOrder::Ascending),
            (std::vector<int64_t>{1, 2, 3, 0}));
}

TEST(ReferenceSortTest, ComparatorMustFitTheKeyType) {
  auto lowByteOnFloat = runSort({f32({2}, {1, 2})}, 0, SortOrder::Comparator,
                                ComparatorKind::LessLowByte);
  ASSERT_FALSE(lowByteOnFloat.ok());
  EXPECT_NE(lowByteOnFloat.message().find("not defined for key type f32"),
            std::string::npos)
      << lowByteOnFloat.message();
  EXPECT_FALSE(runSort({i64({2}, {1, 2})}, 0, SortOrder::Comparator,
                       ComparatorKind::LessAbs)
                   .ok());
}

TEST(ReferenceSortTest, NonLastDimensionOfRank3) {
  // Shape [2, 3, 2]; sort along dimension 1, each (i, :, k) lane alone.
  std::vector<float> values = {5, 0, 1, 9, 3,  9,  // i = 0
                               2, 2, 2, 1, -1, 2}; // i = 1
  auto result = runSort({f32({2, 3, 2}, values)}, 1, SortOrder::Ascending);
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ((*result)[0].shape, (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(floatsOf((*result)[0]),
            (std::vector<float>{1, 0, 3, 9, 5, 9, -1, 1, 2, 2, 2, 2}));
  // Along dimension 0 of the same tensor.
  auto outer = runSort({f32({2, 3, 2}, values)}, 0, SortOrder::Descending);
  ASSERT_TRUE(outer.ok());
  EXPECT_EQ(floatsOf((*outer)[0]),
            (std::vector<float>{5, 2, 2, 9, 3, 9, 2, 0, 1, 1, -1, 2}));
}

TEST(ReferenceSortTest, StablePayloadAlongDimension0) {
  // Ties along dimension 0 keep row order: payload is the row index.
  HostTensor key = i32({4, 2}, {1, 0, 0, 0, 1, 0, 0, 1});
  HostTensor rows = i64({4, 2}, {0, 0, 1, 1, 2, 2, 3, 3});
  auto result = runSort({key, rows}, 0, SortOrder::Ascending);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(intsOf((*result)[0]),
            (std::vector<int64_t>{0, 0, 0, 0, 1, 0, 1, 1}));
  EXPECT_EQ(intsOf((*result)[1]),
            (std::vector<int64_t>{1, 0, 3, 1, 0, 2, 2, 3}));
}

TEST(ReferenceSortTest, EmptyDimensions) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{3, 0}, std::vector<int64_t>{0, 4},
        std::vector<int64_t>{0}}) {
    for (int64_t dimension = 0; dimension < int64_t(shape.size());
         ++dimension) {
      auto result = runSort({f32(shape, {}), i64(shape, {})}, dimension,
                            SortOrder::Descending);
      ASSERT_TRUE(result.ok()) << result.message();
      EXPECT_EQ((*result)[0].shape, shape);
      EXPECT_EQ((*result)[1].shape, shape);
      EXPECT_TRUE((*result)[0].data.empty());
    }
  }
}

TEST(ReferenceSortTest, ThreeOperandsInLockstep) {
  // Key f16 with ties and a NaN; payloads i64 and f32 (with a -0.0).
  HostTensor key = f16({2, 4}, {2, 1, 2, std::nan(""), 0, 0, -1, 0});
  HostTensor a = i64({2, 4}, {10, 11, 12, 13, 20, 21, 22, 23});
  HostTensor b = f32({2, 4}, {-0.0f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f});
  auto result = runSort({key, a, b}, 1, SortOrder::Descending);
  ASSERT_TRUE(result.ok()) << result.message();
  ASSERT_EQ(result->size(), 3u);
  EXPECT_EQ(intsOf((*result)[1]),
            (std::vector<int64_t>{13, 10, 12, 11, 20, 21, 23, 22}));
  EXPECT_EQ(bitsOf((*result)[2]),
            (std::vector<uint64_t>{f32Bits(3.5f), 0x80000000u, f32Bits(2.5f),
                                   f32Bits(1.5f), f32Bits(4.5f), f32Bits(5.5f),
                                   f32Bits(7.5f), f32Bits(6.5f)}));
  std::vector<uint64_t> keys = bitsOf((*result)[0]);
  EXPECT_TRUE(isHalfNaN(uint16_t(keys[0])));
  EXPECT_EQ(keys[1], doubleToHalf(2.0));
}

TEST(ReferenceSortTest, OperandsMustAgree) {
  // Payload shape differs from the key.
  EXPECT_FALSE(
      runSort({f32({2}, {1, 2}), i32({3}, {1, 2, 3})}, 0, SortOrder::Ascending)
          .ok());
  // Dimension out of range.
  auto bad = runSort({f32({2}, {1, 2})}, 1, SortOrder::Ascending);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("dimension 1 is out of range for rank 1"),
            std::string::npos)
      << bad.message();
}

} // namespace
} // namespace sift::oracle
