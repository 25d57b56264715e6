//===- test/unittests/oracles/ReferenceTopKSliceTest.cpp ------------------===//
//
// The reference for sift.topk (ties to the lower index for largest and
// smallest, NaN as the largest value, signed zeros keeping their bits, k = 0,
// k = n, empty dimensions, non-last dimension) and for tensor.extract_slice.
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

namespace sift::oracle {
namespace {

using namespace test;
using gen::OpKind;
using gen::TensorType;

struct TopKResult {
  HostTensor values, indices;
};

/// Runs topk on `input`; `resultShape` overrides the values/indices shape.
Result<TopKResult> runTopK(const HostTensor &input, int64_t dimension,
                           int64_t k, bool largest) {
  ProgramUnderTest p;
  gen::Op op;
  op.kind = OpKind::TopK;
  op.dimension = dimension;
  op.k = k;
  op.largest = largest;
  op.operands = {p.input(input)};
  std::vector<int64_t> shape = input.shape;
  if (dimension >= 0 && dimension < int64_t(shape.size()) && k >= 0)
    shape[dimension] = k;
  p.program.outputs = p.add(
      op, {TensorType{input.type, shape}, TensorType{ElementType::I64, shape}});
  auto result = p.run();
  if (!result.ok())
    return result.error();
  return TopKResult{(*result)[0], (*result)[1]};
}

TEST(ReferenceTopKTest, LargestTiesToLowerIndex) {
  auto r = runTopK(f32({5}, {1, 3, 3, 2, 3}), 0, 3, true);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(floatsOf(r->values), (std::vector<float>{3, 3, 3}));
  EXPECT_EQ(intsOf(r->indices), (std::vector<int64_t>{1, 2, 4}));
  auto four = runTopK(f32({5}, {1, 3, 3, 2, 3}), 0, 4, true);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(intsOf(four->indices), (std::vector<int64_t>{1, 2, 4, 3}));
}

TEST(ReferenceTopKTest, SmallestTiesToLowerIndex) {
  auto r = runTopK(i32({5}, {2, 1, 1, 3, 1}), 0, 2, false);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(intsOf(r->values), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(intsOf(r->indices), (std::vector<int64_t>{1, 2}));
  auto i64Keys = runTopK(i64({4}, {INT64_MIN, 5, INT64_MIN, -5}), 0, 3, false);
  ASSERT_TRUE(i64Keys.ok());
  EXPECT_EQ(intsOf(i64Keys->values),
            (std::vector<int64_t>{INT64_MIN, INT64_MIN, -5}));
  EXPECT_EQ(intsOf(i64Keys->indices), (std::vector<int64_t>{0, 2, 3}));
}

TEST(ReferenceTopKTest, NaNIsLargest) {
  // Index:            0              1            2              3
  HostTensor input =
      fromBits(ElementType::F32, {4},
               {f32Bits(1.0f), 0x7fc00123u, f32Bits(5.0f), 0xffc00000u});
  auto largest = runTopK(input, 0, 3, true);
  ASSERT_TRUE(largest.ok());
  EXPECT_EQ(intsOf(largest->indices), (std::vector<int64_t>{1, 3, 2}));
  // Values keep their exact bits, NaN payloads included.
  EXPECT_EQ(bitsOf(largest->values),
            (std::vector<uint64_t>{0x7fc00123u, 0xffc00000u, f32Bits(5.0f)}));
  auto smallest = runTopK(input, 0, 3, false);
  ASSERT_TRUE(smallest.ok());
  EXPECT_EQ(intsOf(smallest->indices), (std::vector<int64_t>{0, 2, 1}));
  auto smallestTwo = runTopK(input, 0, 2, false);
  ASSERT_TRUE(smallestTwo.ok());
  EXPECT_EQ(intsOf(smallestTwo->indices), (std::vector<int64_t>{0, 2}));
}

TEST(ReferenceTopKTest, SignedZerosTieAndKeepBits) {
  auto r = runTopK(f32({3}, {-0.0f, 0.0f, -1.0f}), 0, 3, true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(intsOf(r->indices), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(bitsOf(r->values),
            (std::vector<uint64_t>{0x80000000u, 0x0u, f32Bits(-1.0f)}));
  auto s = runTopK(f16({3}, {0.0, -0.0, -1.0}), 0, 2, false);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(intsOf(s->indices), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(bitsOf(s->values), (std::vector<uint64_t>{0xbc00, 0x0000}));
}

TEST(ReferenceTopKTest, KZeroAndKN) {
  auto none = runTopK(f32({2, 3}, {1, 2, 3, 4, 5, 6}), 1, 0, true);
  ASSERT_TRUE(none.ok()) << none.message();
  EXPECT_EQ(none->values.shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(none->indices.shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(none->indices.type, ElementType::I64);
  EXPECT_TRUE(none->values.data.empty());
  auto all = runTopK(f64({2, 3}, {1, 3, 2, 6, 5, 4}), 1, 3, false);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(floatsOf(all->values), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(intsOf(all->indices), (std::vector<int64_t>{0, 2, 1, 2, 1, 0}));
}

TEST(ReferenceTopKTest, EmptyDimensions) {
  // No lanes: [0, 5] along 1.
  auto noLanes = runTopK(f32({0, 5}, {}), 1, 2, true);
  ASSERT_TRUE(noLanes.ok()) << noLanes.message();
  EXPECT_EQ(noLanes->values.shape, (std::vector<int64_t>{0, 2}));
  // Empty lanes: [3, 0] along 1 with k = 0.
  auto emptyLanes = runTopK(f32({3, 0}, {}), 1, 0, false);
  ASSERT_TRUE(emptyLanes.ok()) << emptyLanes.message();
  EXPECT_EQ(emptyLanes->indices.shape, (std::vector<int64_t>{3, 0}));
  auto flat = runTopK(i32({0}, {}), 0, 0, true);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(flat->values.numElements(), 0);
}

TEST(ReferenceTopKTest, AlongDimension0) {
  // Shape [3, 2]; top-2 of each column.
  auto r = runTopK(f32({3, 2}, {1, 9, 7, 9, 7, 2}), 0, 2, true);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->values.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(floatsOf(r->values), (std::vector<float>{7, 9, 7, 9}));
  EXPECT_EQ(intsOf(r->indices), (std::vector<int64_t>{1, 0, 2, 1}));
}

TEST(ReferenceTopKTest, InvalidKAndTypes) {
  auto tooMany = runTopK(f32({3}, {1, 2, 3}), 0, 4, true);
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.message().find("k = 4 is outside [0, 3]"),
            std::string::npos)
      << tooMany.message();
  EXPECT_FALSE(runTopK(f32({3}, {1, 2, 3}), 0, -1, true).ok());
  EXPECT_FALSE(runTopK(f32({3}, {1, 2, 3}), 2, 1, true).ok());
  // Indices declared i32 instead of i64.
  ProgramUnderTest p;
  gen::Op op;
  op.kind = OpKind::TopK;
  op.k = 1;
  op.operands = {p.input(f32({3}, {1, 2, 3}))};
  p.program.outputs = p.add(op, {TensorType{ElementType::F32, {1}},
                                 TensorType{ElementType::I32, {1}}});
  auto r = p.run();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("indices result is i32[1], expected i64[1]"),
            std::string::npos)
      << r.message();
}

/// Runs one slice on `input`.
Result<std::vector<HostTensor>> runSlice(const HostTensor &input,
                                         std::vector<int64_t> offsets,
                                         std::vector<int64_t> sizes,
                                         std::vector<int64_t> strides) {
  ProgramUnderTest p;
  gen::Op op;
  op.kind = OpKind::Slice;
  op.operands = {p.input(input)};
  op.offsets = std::move(offsets);
  op.sizes = sizes;
  op.strides = std::move(strides);
  p.program.outputs = p.add(op, {TensorType{input.type, sizes}});
  return p.run();
}

TEST(ReferenceSliceTest, OffsetsSizesStrides) {
  std::vector<int32_t> values(20);
  for (int i = 0; i < 20; ++i)
    values[i] = i;
  HostTensor input = i32({4, 5}, values);
  auto r = runSlice(input, {1, 0}, {2, 3}, {2, 2});
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ((*r)[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(intsOf((*r)[0]), (std::vector<int64_t>{5, 7, 9, 15, 17, 19}));
  auto unit = runSlice(input, {2, 1}, {1, 4}, {1, 1});
  ASSERT_TRUE(unit.ok());
  EXPECT_EQ(intsOf((*unit)[0]), (std::vector<int64_t>{11, 12, 13, 14}));
}

TEST(ReferenceSliceTest, KeepsBitsAndRank3) {
  HostTensor input =
      fromBits(ElementType::F32, {2, 2, 2},
               {0x80000000u, 1, 2, 3, 0x7fc00001u, 5, 6, 0xff800000u});
  auto r = runSlice(input, {1, 0, 0}, {1, 2, 1}, {1, 1, 1});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(bitsOf((*r)[0]), (std::vector<uint64_t>{0x7fc00001u, 6}));
}

TEST(ReferenceSliceTest, EmptyAndOutOfBounds) {
  HostTensor input = f32({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto empty = runSlice(input, {3, 0}, {0, 4}, {1, 1});
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ((*empty)[0].shape, (std::vector<int64_t>{0, 4}));
  auto past = runSlice(input, {1, 2}, {2, 2}, {2, 1});
  ASSERT_FALSE(past.ok());
  EXPECT_NE(past.message().find("dimension 0"), std::string::npos)
      << past.message();
  EXPECT_FALSE(runSlice(input, {0, 0}, {1, 1}, {1, 0}).ok());
  EXPECT_FALSE(runSlice(input, {0}, {1}, {1}).ok());
}

} // namespace
} // namespace sift::oracle
