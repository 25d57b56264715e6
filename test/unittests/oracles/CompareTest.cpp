//===- test/unittests/oracles/CompareTest.cpp - Output comparator tests ---===//
//
// compareOutputs: exact integers, bit-exact floats with NaN == NaN, -0.0 vs
// +0.0 and NaN vs number failing, count/type/shape mismatches, messages, and
// the ulp tolerance that only outputs fed by Sigmoid chains get, and
// compareCarried's unchecked outputs (sift-run's carried tolerances).
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

#include "oracles/Compare.h"
#include "oracles/Elementwise.h"

#include <cmath>
#include <limits>

namespace sift::oracle {
namespace {

using namespace test;
using gen::EwKind;
using gen::OpKind;
using gen::TensorType;

/// A program with one f32 input of `shape` returned unchanged as output 0.
gen::Program identityProgram(ElementType type, std::vector<int64_t> shape,
                             int outputs = 1) {
  gen::Program program;
  int x = program.addValue(TensorType{type, std::move(shape)});
  program.inputs = {x};
  for (int i = 0; i < outputs; ++i)
    program.outputs.push_back(x);
  return program;
}

TEST(CompareTest, EqualOutputsPass) {
  HostTensor a = f32({2, 2}, {1, -0.0f, kInff, 3});
  HostTensor b = i64({3}, {1, 2, INT64_MIN});
  gen::Program program = identityProgram(ElementType::F32, {2, 2}, 2);
  EXPECT_FALSE(compareOutputs(program, {a, b}, {a, b}).has_value());
}

TEST(CompareTest, AnyNaNEqualsAnyNaN) {
  gen::Program program = identityProgram(ElementType::F32, {3});
  HostTensor expected =
      fromBits(ElementType::F32, {3}, {0x7fc00000u, 0x7f800001u, 0xffc00123u});
  HostTensor actual =
      fromBits(ElementType::F32, {3}, {0xffffffffu, 0x7fc00000u, 0x7fc00000u});
  EXPECT_FALSE(compareOutputs(program, {expected}, {actual}).has_value());
  HostTensor h = fromBits(ElementType::F16, {1}, {0x7e00});
  HostTensor g = fromBits(ElementType::F16, {1}, {0xfc01});
  EXPECT_FALSE(compareOutputs(identityProgram(ElementType::F16, {1}), {h}, {g})
                   .has_value());
}

TEST(CompareTest, SignedZerosDiffer) {
  gen::Program program = identityProgram(ElementType::F16, {3, 6}, 2);
  HostTensor same = f16({1}, {1.0});
  HostTensor expected(ElementType::F16, {3, 6}),
      actual(ElementType::F16, {3, 6});
  expected.set<uint16_t>(2 * 6 + 5, 0x8000);
  auto m = compareOutputs(program, {same, expected}, {same, actual});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->output, 1);
  EXPECT_EQ(m->flatIndex, 17);
  EXPECT_EQ(m->index, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(m->expected, "-0.0 (0x8000)");
  EXPECT_EQ(m->actual, "0.0 (0x0000)");
  EXPECT_EQ(m->message, "output 1 at [2, 5]: expected -0.0 (0x8000), got 0.0 "
                        "(0x0000); 1 of 18 elements differ");
}

TEST(CompareTest, NaNAgainstNumberFails) {
  gen::Program program = identityProgram(ElementType::F32, {2});
  auto m = compareOutputs(program, {f32({2}, {1, kNaNf})}, {f32({2}, {1, 2})});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->flatIndex, 1);
  EXPECT_EQ(m->message, "output 0 at [1]: expected nan (0x7fc00000), got 2.0 "
                        "(0x40000000); 1 of 2 elements differ");
  auto reverse =
      compareOutputs(program, {f32({2}, {1, 2})}, {f32({2}, {1, -kNaNf})});
  ASSERT_TRUE(reverse.has_value());
  EXPECT_EQ(reverse->actual, "-nan (0xffc00000)");
}

TEST(CompareTest, FloatsAreBitExactWithoutTolerance) {
  gen::Program program = identityProgram(ElementType::F32, {3});
  float next = std::nextafter(1.0f, 2.0f);
  auto m = compareOutputs(program, {f32({3}, {1, 1, 1})},
                          {f32({3}, {1, next, next})});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->index, (std::vector<int64_t>{1}));
  EXPECT_NE(m->message.find("2 of 3 elements differ"), std::string::npos)
      << m->message;
}

TEST(CompareTest, IntegersExactly) {
  gen::Program program = identityProgram(ElementType::I32, {2});
  EXPECT_FALSE(compareOutputs(program, {i32({2}, {INT32_MIN, 5})},
                              {i32({2}, {INT32_MIN, 5})})
                   .has_value());
  auto m = compareOutputs(program, {i32({2}, {INT32_MIN, 5})},
                          {i32({2}, {INT32_MIN, 6})});
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->message,
            "output 0 at [1]: expected 5, got 6; 1 of 2 elements differ");
}

TEST(CompareTest, CountTypeAndShapeMismatches) {
  gen::Program program = identityProgram(ElementType::F32, {2, 3});
  HostTensor a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto count = compareOutputs(program, {a}, {});
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(count->output, -1);
  EXPECT_EQ(count->message, "expected 1 outputs, got 0 outputs");
  auto shape = compareOutputs(program, {a}, {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->output, 0);
  EXPECT_EQ(shape->flatIndex, -1);
  EXPECT_EQ(shape->message, "output 0: expected f32[2x3], got f32[3x2]");
  auto type = compareOutputs(program, {a}, {i32({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_TRUE(type.has_value());
  EXPECT_EQ(type->message, "output 0: expected f32[2x3], got i32[2x3]");
  HostTensor truncated = a;
  truncated.data.pop_back();
  auto bytes = compareOutputs(program, {a}, {truncated});
  ASSERT_TRUE(bytes.has_value());
  EXPECT_NE(bytes->message.find("(actual): f32[2x3] needs 24 bytes"),
            std::string::npos)
      << bytes->message;
}

/// x -> sigmoid -> (more ops) -> outputs, built by the callers.
struct SigmoidProgram {
  gen::Program program;
  int x, sigmoid;
  SigmoidProgram(ElementType type, std::vector<int64_t> shape) {
    x = program.addValue(TensorType{type, shape});
    program.inputs = {x};
    sigmoid = add(EwKind::Sigmoid, {x}, TensorType{type, shape});
  }
  int add(EwKind kind, std::vector<int> operands, TensorType type) {
    int id = program.addValue(type);
    gen::Op op = ewOp(kind, std::move(operands));
    op.results = {id};
    program.ops.push_back(op);
    return id;
  }
};

TEST(CompareTest, ToleranceOnlyWhereSigmoidFeedsAnOutput) {
  SigmoidProgram s(ElementType::F32, {4});
  int scaled =
      s.add(EwKind::MulConstF, {s.sigmoid}, TensorType{ElementType::F32, {4}});
  int plain =
      s.add(EwKind::AddF, {s.x, s.x}, TensorType{ElementType::F32, {4}});
  gen::Op sort;
  sort.kind = OpKind::Sort;
  sort.operands = {s.sigmoid};
  sort.results = {s.program.addValue(TensorType{ElementType::F32, {4}})};
  s.program.ops.push_back(sort);
  gen::Op slice;
  slice.kind = OpKind::Slice;
  slice.operands = {s.sigmoid};
  slice.offsets = {1};
  slice.sizes = {2};
  slice.strides = {1};
  slice.results = {s.program.addValue(TensorType{ElementType::F32, {2}})};
  s.program.ops.push_back(slice);
  int twice =
      s.add(EwKind::Sigmoid, {scaled}, TensorType{ElementType::F32, {4}});
  s.program.outputs = {s.sigmoid,        scaled, plain, sort.results[0],
                       slice.results[0], twice,  s.x};
  EXPECT_EQ(outputTolerances(s.program),
            (std::vector<uint64_t>{kSigmoidUlps, kSigmoidUlps, 0, 0,
                                   kSigmoidUlps, 2 * kSigmoidUlps, 0}));

  // 4 ulp off passes on a sigmoid output, 5 fails; 1 ulp off fails where no
  // sigmoid feeds the output, and on the sorted copy of a sigmoid result.
  gen::Program onlySigmoid = s.program;
  HostTensor expected = f32({4}, {0.5f, 0.25f, 0.75f, 1.0f});
  HostTensor near = expected, far = expected;
  near.set<uint32_t>(2, near.get<uint32_t>(2) + 4);
  far.set<uint32_t>(2, far.get<uint32_t>(2) - 5);
  onlySigmoid.outputs = {s.sigmoid};
  EXPECT_FALSE(compareOutputs(onlySigmoid, {expected}, {near}).has_value());
  auto m = compareOutputs(onlySigmoid, {expected}, {far});
  ASSERT_TRUE(m.has_value());
  EXPECT_NE(m->message.find("; 5 ulp apart, tolerance 4 ulp"),
            std::string::npos)
      << m->message;
  HostTensor oneUlp = expected;
  oneUlp.set<uint32_t>(0, oneUlp.get<uint32_t>(0) + 1);
  for (int output : {plain, sort.results[0]}) {
    gen::Program p = s.program;
    p.outputs = {output};
    EXPECT_TRUE(compareOutputs(p, {expected}, {oneUlp}).has_value()) << output;
  }
  // Tolerance never accepts NaN against a number, or a changed infinity.
  HostTensor nan = expected;
  nan.set<float>(3, kNaNf);
  EXPECT_TRUE(compareOutputs(onlySigmoid, {expected}, {nan}).has_value());
  HostTensor inf = f32({4}, {0.5f, 0.25f, 0.75f, kInff});
  HostTensor maxFloat = inf;
  maxFloat.set<float>(3, std::numeric_limits<float>::max());
  EXPECT_TRUE(compareOutputs(onlySigmoid, {inf}, {maxFloat}).has_value());
}

// A sort moves its payload by its keys: a payload computed through sigmoid
// and sorted by exact keys keeps its tolerance (the GPU's exp may differ by
// an ulp); keys, top-k results and a payload ordered by inexact keys demand
// exact bits.
TEST(CompareTest, SortPayloadKeepsItsTolerance) {
  SigmoidProgram s(ElementType::F32, {4});
  gen::Op byExact;
  byExact.kind = OpKind::Sort;
  byExact.operands = {s.x, s.sigmoid};
  byExact.results = {s.program.addValue(TensorType{ElementType::F32, {4}}),
                     s.program.addValue(TensorType{ElementType::F32, {4}})};
  s.program.ops.push_back(byExact);
  gen::Op byInexact = byExact;
  byInexact.operands = {s.sigmoid, s.x};
  byInexact.results = {s.program.addValue(TensorType{ElementType::F32, {4}}),
                       s.program.addValue(TensorType{ElementType::F32, {4}})};
  s.program.ops.push_back(byInexact);
  gen::Op topk;
  topk.kind = OpKind::TopK;
  topk.operands = {s.sigmoid};
  topk.results = {s.program.addValue(TensorType{ElementType::F32, {2}}),
                  s.program.addValue(TensorType{ElementType::I64, {2}})};
  s.program.ops.push_back(topk);
  s.program.outputs = {byExact.results[0],   byExact.results[1],
                       byInexact.results[0], byInexact.results[1],
                       topk.results[0],      topk.results[1]};
  EXPECT_EQ(outputTolerances(s.program),
            (std::vector<uint64_t>{0, kSigmoidUlps, 0, 0, 0, 0}));
}

TEST(CompareTest, ToleranceFollowsCasts) {
  SigmoidProgram s(ElementType::F16, {2});
  int wide =
      s.add(EwKind::ExtF, {s.sigmoid}, TensorType{ElementType::F32, {2}});
  int narrow = s.add(EwKind::TruncF, {wide}, TensorType{ElementType::F16, {2}});
  int ints = s.program.addValue(TensorType{ElementType::I32, {2}});
  s.program.inputs.push_back(ints);
  int converted =
      s.add(EwKind::SIToFP, {ints}, TensorType{ElementType::F32, {2}});
  s.program.outputs = {s.sigmoid, wide, narrow, converted};
  EXPECT_EQ(outputTolerances(s.program),
            (std::vector<uint64_t>{4, uint64_t(4) << 13, 5, 0}));
}

TEST(CompareTest, FormatValue) {
  auto format = [](const HostTensor &t) {
    return formatValue(t.type, t.data.data());
  };
  EXPECT_EQ(format(i32({1}, {-7})), "-7");
  EXPECT_EQ(format(i64({1}, {INT64_MIN})), "-9223372036854775808");
  EXPECT_EQ(format(f32({1}, {1.5f})), "1.5 (0x3fc00000)");
  EXPECT_EQ(format(f32({1}, {0.1f})), "0.1 (0x3dcccccd)");
  EXPECT_EQ(format(f32({1}, {-kInff})), "-inf (0xff800000)");
  EXPECT_EQ(format(f32({1}, {1e20f})), "1e+20 (0x60ad78ec)");
  EXPECT_EQ(format(f16({1}, {65504.0})), "65504.0 (0x7bff)");
  EXPECT_EQ(format(f16({1}, {0.1})), "0.1 (0x2e66)");
  EXPECT_EQ(format(fromBits(ElementType::F16, {1}, {0x7e00})), "nan (0x7e00)");
  EXPECT_EQ(format(f64({1}, {0.1})), "0.1 (0x3fb999999999999a)");
  EXPECT_EQ(format(f64({1}, {-2.0})), "-2.0 (0xc000000000000000)");
}

// compareCarried (sift-run's artifacts): an output with a tolerance that
// misses it is named unchecked, as the harness names it; an exact output,
// or a shape, still mismatches.
TEST(CompareTest, CarriedToleranceMissIsUncheckedNotMismatch) {
  HostTensor values = f32({3}, {-0.0617f, 0.5f, 2.0f});
  HostTensor indices = i64({3}, {2, 0, 1});
  HostTensor off = values;
  off.set<uint32_t>(0, off.get<uint32_t>(0) + 8); // 8 ulp, tolerance 4
  CarriedComparison c = compareCarried({4, 0}, {values, indices}, {off, indices});
  EXPECT_FALSE(c.mismatch.has_value());
  ASSERT_EQ(c.unchecked.size(), 1u);
  EXPECT_NE(c.unchecked[0].find("output 0 follows an inexact op"),
            std::string::npos)
      << c.unchecked[0];
  EXPECT_NE(c.unchecked[0].find("8 ulp apart"), std::string::npos);
  // Within the tolerance: nothing to say.
  HostTensor near = values;
  near.set<uint32_t>(1, near.get<uint32_t>(1) + 3);
  c = compareCarried({4, 0}, {values, indices}, {near, indices});
  EXPECT_FALSE(c.mismatch.has_value());
  EXPECT_TRUE(c.unchecked.empty());
  // The exact output still mismatches, and so does a tolerant output of
  // another shape or an exact output one ulp off.
  HostTensor wrongIndex = i64({3}, {2, 1, 1});
  c = compareCarried({4, 0}, {values, indices}, {off, wrongIndex});
  ASSERT_TRUE(c.mismatch.has_value());
  EXPECT_EQ(c.mismatch->output, 1);
  c = compareCarried({4, 0}, {values, indices},
                     {f32({2}, {-0.0617f, 0.5f}), indices});
  ASSERT_TRUE(c.mismatch.has_value());
  EXPECT_EQ(c.mismatch->output, 0);
  c = compareCarried({0, 0}, {values, indices}, {near, indices});
  ASSERT_TRUE(c.mismatch.has_value());
  EXPECT_TRUE(c.unchecked.empty());
}

} // namespace
} // namespace sift::oracle
