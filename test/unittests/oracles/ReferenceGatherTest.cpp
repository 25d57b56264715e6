//===- test/unittests/oracles/ReferenceGatherTest.cpp ---------------------===//
//
// The reference for the gather op (gen::OpKind::Gather): hand-computed
// gathers of boxes along axis 1 and scores along axis 2, repeated indices,
// bits kept (NaN payloads, -0), K = 0, integer sources, the top-k -> gather
// chain of NmsGenerator's pre-filter, and the errors: indices outside the
// source (reported, never read), bad axis, indices and result types.
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

namespace sift::oracle {
namespace {

using namespace test;
using gen::OpKind;
using gen::TensorType;

/// Runs gather(source, indices, axis); `resultShape` overrides the derived
/// result shape when given.
Result<HostTensor> runGather(const HostTensor &source, const HostTensor &indices,
                             int64_t axis,
                             std::optional<TensorType> resultType = {}) {
  ProgramUnderTest p;
  gen::Op op;
  op.kind = OpKind::Gather;
  op.axis = axis;
  op.operands = {p.input(source), p.input(indices)};
  TensorType type{source.type, source.shape};
  if (axis >= 0 && axis < int64_t(type.shape.size()) && indices.rank() == 2)
    type.shape[axis] = indices.shape[1];
  p.program.outputs = p.add(op, {resultType.value_or(type)});
  auto result = p.run();
  if (!result.ok())
    return result.error();
  return (*result)[0];
}

TEST(ReferenceGatherTest, BoxesAlongAxisOne) {
  // boxes [2, 3, 4]: box j of batch b is {b*100 + j*10 + c}.
  std::vector<float> values;
  for (int b = 0; b < 2; ++b)
    for (int j = 0; j < 3; ++j)
      for (int c = 0; c < 4; ++c)
        values.push_back(float(b * 100 + j * 10 + c));
  auto r = runGather(f32({2, 3, 4}, values), i64({2, 2}, {2, 0, 1, 1}), 1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->shape, (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(floatsOf(*r), (std::vector<float>{20, 21, 22, 23, 0, 1, 2, 3, //
                                              110, 111, 112, 113, 110, 111,
                                              112, 113}));
}

TEST(ReferenceGatherTest, ScoresAlongAxisTwoKeepBits) {
  // scores [1, 2, 3] f16: class 0 {NaN with payload, -0, 1}, class 1
  // {2, 3, 4}; indices {1, 0, 1, 2} pick per box, the same for each class.
  const uint64_t nan = 0x7E01, negZero = 0x8000;
  HostTensor scores = fromBits(ElementType::F16, {1, 2, 3},
                               {nan, negZero, doubleToHalf(1.0),
                                doubleToHalf(2.0), doubleToHalf(3.0),
                                doubleToHalf(4.0)});
  auto r = runGather(scores, i64({1, 4}, {1, 0, 1, 2}), 2);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->shape, (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(bitsOf(*r),
            (std::vector<uint64_t>{negZero, nan, negZero, doubleToHalf(1.0),
                                   doubleToHalf(3.0), doubleToHalf(2.0),
                                   doubleToHalf(3.0), doubleToHalf(4.0)}));
}

TEST(ReferenceGatherTest, IntegerSourceAndEmptyK) {
  auto r = runGather(i32({2, 3}, {5, 6, 7, -8, -9, -10}),
                     i64({2, 3}, {2, 2, 0, 0, 1, 2}), 1);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(intsOf(*r), (std::vector<int64_t>{7, 7, 5, -8, -9, -10}));
  auto empty = runGather(f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2, 0}, {}), 1);
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ(empty->shape, (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(empty->numElements(), 0);
}

TEST(ReferenceGatherTest, TopKIndicesGatherTheBestBoxes) {
  // The pre-filter: top-2 of objectness [1, 4] gathers boxes [1, 4, 4].
  ProgramUnderTest p;
  int objectness = p.input(f32({1, 4}, {0.5f, 0.9f, 0.1f, 0.7f}));
  std::vector<float> box;
  for (int j = 0; j < 4; ++j)
    for (int c = 0; c < 4; ++c)
      box.push_back(float(j * 4 + c));
  int boxes = p.input(f32({1, 4, 4}, box));
  gen::Op topk;
  topk.kind = OpKind::TopK;
  topk.dimension = 1;
  topk.k = 2;
  topk.largest = true;
  topk.operands = {objectness};
  std::vector<int> tk = p.add(topk, {TensorType{ElementType::F32, {1, 2}},
                                     TensorType{ElementType::I64, {1, 2}}});
  gen::Op gather;
  gather.kind = OpKind::Gather;
  gather.axis = 1;
  gather.operands = {boxes, tk[1]};
  p.program.outputs = p.add(gather, {TensorType{ElementType::F32, {1, 2, 4}}});
  ASSERT_EQ(gen::validate(p.program), "");
  auto r = p.run();
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(floatsOf((*r)[0]),
            (std::vector<float>{4, 5, 6, 7, 12, 13, 14, 15}));
}

TEST(ReferenceGatherTest, OutOfRangeIndicesAreReported) {
  HostTensor source = f32({1, 3, 1}, {1, 2, 3});
  for (int64_t bad : {int64_t(3), int64_t(-1), INT64_MIN, INT64_MAX}) {
    auto r = runGather(source, i64({1, 2}, {0, bad}), 1);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.message().find("outside [0, 3)"), std::string::npos)
        << r.message();
  }
}

TEST(ReferenceGatherTest, InvalidOperandsAreReported) {
  HostTensor source = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  // Axis 0 and past the rank.
  EXPECT_FALSE(runGather(source, i64({2, 1}, {0, 0}), 0).ok());
  EXPECT_FALSE(runGather(source, i64({2, 1}, {0, 0}), 2).ok());
  // i32 indices, rank-1 indices, a batch mismatch, a rank-1 source.
  EXPECT_FALSE(runGather(source, i32({2, 1}, {0, 0}), 1).ok());
  EXPECT_FALSE(runGather(source, i64({2}, {0, 0}), 1).ok());
  EXPECT_FALSE(runGather(source, i64({1, 1}, {0}), 1).ok());
  EXPECT_FALSE(runGather(f32({3}, {1, 2, 3}), i64({3, 1}, {0, 0, 0}), 1).ok());
  // A result type that is not the source's with K in place of the axis.
  EXPECT_FALSE(runGather(source, i64({2, 1}, {0, 0}), 1,
                         TensorType{ElementType::F32, {2, 3}})
                   .ok());
  EXPECT_FALSE(runGather(source, i64({2, 1}, {0, 0}), 1,
                         TensorType{ElementType::F64, {2, 1}})
                   .ok());
}

} // namespace
} // namespace sift::oracle
