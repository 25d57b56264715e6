//===- test/unittests/oracles/ReferenceElementwiseTest.cpp ----------------===//
//
// The reference on elementwise ops (integer wraparound, maximumf/minimumf with
// signed zeros and NaN, sign-bit ops, per-step f16 rounding, sigmoid, casts),
// iota, and the errors `evaluate` gives for bad inputs and bad programs.
//
//===----------------------------------------------------------------------===//
#include "OracleTestUtil.h"

#include "oracles/Elementwise.h"

#include <cmath>
#include <limits>

namespace sift::oracle {
namespace {

using namespace test;
using gen::EwKind;
using gen::OpKind;
using gen::TensorType;

TEST(ReferenceElementwiseTest, IntegerOpsWrap) {
  HostTensor a = i32({4}, {INT32_MAX, INT32_MIN, -7, 100000});
  HostTensor b = i32({4}, {1, 1, 3, 100000});
  EXPECT_EQ(intsOf(runElementwise(EwKind::AddI, {a, b}, ElementType::I32)),
            (std::vector<int64_t>{INT32_MIN, INT32_MIN + 1, -4, 200000}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::SubI, {b, a}, ElementType::I32)),
            (std::vector<int64_t>{INT32_MIN + 2, INT32_MIN + 1, 10, 0}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::MulI, {a, b}, ElementType::I32)),
            (std::vector<int64_t>{INT32_MAX, INT32_MIN, -21, 1410065408}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::XOrI, {a, b}, ElementType::I32)),
            (std::vector<int64_t>{INT32_MAX - 1, INT32_MIN + 1, -6, 0}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::MaxSI, {a, b}, ElementType::I32)),
            (std::vector<int64_t>{INT32_MAX, 1, 3, 100000}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::MinSI, {a, b}, ElementType::I32)),
            (std::vector<int64_t>{1, INT32_MIN, -7, 100000}));
  EXPECT_EQ(
      intsOf(runElementwise(EwKind::AddConstI, {a}, ElementType::I32, 0.0, 2)),
      (std::vector<int64_t>{INT32_MIN + 1, INT32_MIN + 2, -5, 100002}));
  EXPECT_EQ(
      intsOf(runElementwise(EwKind::MulConstI, {a}, ElementType::I32, 0.0, -1)),
      (std::vector<int64_t>{-INT32_MAX, INT32_MIN, 7, -100000}));
}

TEST(ReferenceElementwiseTest, I64OpsWrap) {
  HostTensor a = i64({3}, {INT64_MAX, INT64_MIN, int64_t(1) << 40});
  HostTensor b = i64({3}, {1, -1, int64_t(1) << 30});
  EXPECT_EQ(intsOf(runElementwise(EwKind::AddI, {a, b}, ElementType::I64)),
            (std::vector<int64_t>{INT64_MIN, INT64_MAX,
                                  (int64_t(1) << 40) + (int64_t(1) << 30)}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::MulI, {a, b}, ElementType::I64)),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, 0}));
  EXPECT_EQ(intsOf(runElementwise(EwKind::MaxSI, {a, b}, ElementType::I64)),
            (std::vector<int64_t>{INT64_MAX, -1, int64_t(1) << 40}));
}

TEST(ReferenceElementwiseTest, MaximumMinimumSignedZerosAndNaN) {
  const float nan = kNaNf;
  HostTensor a = f32({6}, {-0.0f, 0.0f, nan, 1.0f, -0.0f, 2.0f});
  HostTensor b = f32({6}, {0.0f, -0.0f, 1.0f, -nan, -0.0f, -3.0f});
  std::vector<uint64_t> max =
      bitsOf(runElementwise(EwKind::MaximumF, {a, b}, ElementType::F32));
  EXPECT_EQ(max[0], f32Bits(0.0f));
  EXPECT_EQ(max[1], f32Bits(0.0f));
  EXPECT_TRUE(isNaNBits(ElementType::F32, max[2]));
  EXPECT_TRUE(isNaNBits(ElementType::F32, max[3]));
  EXPECT_EQ(max[4], f32Bits(-0.0f));
  EXPECT_EQ(max[5], f32Bits(2.0f));
  std::vector<uint64_t> min =
      bitsOf(runElementwise(EwKind::MinimumF, {a, b}, ElementType::F32));
  EXPECT_EQ(min[0], f32Bits(-0.0f));
  EXPECT_EQ(min[1], f32Bits(-0.0f));
  EXPECT_TRUE(isNaNBits(ElementType::F32, min[2]));
  EXPECT_TRUE(isNaNBits(ElementType::F32, min[3]));
  EXPECT_EQ(min[4], f32Bits(-0.0f));
  EXPECT_EQ(min[5], f32Bits(-3.0f));

  // The same in f16 and f64.
  HostTensor h = fromBits(ElementType::F16, {2}, {0x8000, 0x7e00});
  HostTensor k = fromBits(ElementType::F16, {2}, {0x0000, 0x3c00});
  std::vector<uint64_t> hmax =
      bitsOf(runElementwise(EwKind::MaximumF, {h, k}, ElementType::F16));
  EXPECT_EQ(hmax[0], 0x0000u);
  EXPECT_TRUE(isNaNBits(ElementType::F16, hmax[1]));
  std::vector<uint64_t> dmin = bitsOf(runElementwise(
      EwKind::MinimumF, {f64({2}, {0.0, 1.0}), f64({2}, {-0.0, std::nan("")})},
      ElementType::F64));
  EXPECT_EQ(dmin[0], f64Bits(-0.0));
  EXPECT_TRUE(isNaNBits(ElementType::F64, dmin[1]));
}

TEST(ReferenceElementwiseTest, SignBitOps) {
  HostTensor a = fromBits(ElementType::F32, {4},
                          {0x7fc00001u, 0x00000000u, 0xbf800000u, 0xff800000u});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::NegF, {a}, ElementType::F32)),
            (std::vector<uint64_t>{0xffc00001u, 0x80000000u, 0x3f800000u,
                                   0x7f800000u}));
  EXPECT_EQ(bitsOf(runElementwise(EwKind::AbsF, {a}, ElementType::F32)),
            (std::vector<uint64_t>{0x7fc00001u, 0x00000000u, 0x3f800000u,
                                   0x7f800000u}));
  // f16 signaling NaN keeps its payload through negf.
  HostTensor h = fromBits(ElementType::F16, {2}, {0x7c01, 0x8000});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::NegF, {h}, ElementType::F16)),
            (std::vector<uint64_t>{0xfc01, 0x0000}));
}

TEST(ReferenceElementwiseTest, FloatArithmeticRoundsPerStep) {
  // f32: 16777216 + 1 rounds back to 16777216 (tie to even).
  EXPECT_EQ(bitsOf(runElementwise(EwKind::AddConstF, {f32({1}, {16777216.0f})},
                                  ElementType::F32, 1.0))[0],
            f32Bits(16777216.0f));
  // f16: 1 + 2^-11 rounds to 1 (tie to even); 1 + 3*2^-11 rounds up.
  HostTensor h = f16({2}, {1.0, 1.0 + std::ldexp(1.0, -10)});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::AddConstF, {h}, ElementType::F16,
                                  std::ldexp(1.0, -11))),
            (std::vector<uint64_t>{0x3c00, 0x3c02}));
  // f16 overflow: 60000 + 60000 and 300 * 300 are inf in f16.
  HostTensor big = f16({2}, {60000.0, 300.0});
  HostTensor other = f16({2}, {60000.0, 300.0});
  EXPECT_EQ(
      bitsOf(runElementwise(EwKind::AddF, {big, other}, ElementType::F16)),
      (std::vector<uint64_t>{0x7c00, doubleToHalf(600.0)}));
  EXPECT_EQ(
      bitsOf(runElementwise(EwKind::MulF, {big, other}, ElementType::F16)),
      (std::vector<uint64_t>{0x7c00, 0x7c00}));
  // f64 arithmetic in double.
  EXPECT_EQ(
      bitsOf(runElementwise(EwKind::SubF, {f64({1}, {1.0}), f64({1}, {1e-17})},
                            ElementType::F64))[0],
      f64Bits(1.0 - 1e-17));
  EXPECT_EQ(bitsOf(runElementwise(EwKind::MulConstF, {f64({1}, {0.1})},
                                  ElementType::F64, 3.0))[0],
            f64Bits(0.1 * 3.0));
}

TEST(ReferenceElementwiseTest, Sigmoid) {
  // f32: exactly 1 / (1 + expf(-x)) with float steps.
  std::vector<float> xs = {0.0f, 1.0f, -1.0f, 3.5f, -20.0f, 100.0f, -100.0f};
  std::vector<float> got = floatsOf(
      runElementwise(EwKind::Sigmoid, {f32({7}, xs)}, ElementType::F32));
  for (size_t i = 0; i < xs.size(); ++i) {
    float e = std::exp(-xs[i]);
    float expected = 1.0f / (1.0f + e);
    EXPECT_EQ(f32Bits(got[i]), f32Bits(expected)) << xs[i];
  }
  EXPECT_EQ(got[0], 0.5f);
  EXPECT_EQ(got[5], 1.0f);
  EXPECT_EQ(got[6], 0.0f); // exp(100) overflows to inf: 1 / inf
  // Infinities and NaN.
  std::vector<uint64_t> special = bitsOf(runElementwise(
      EwKind::Sigmoid, {f32({3}, {kInff, -kInff, kNaNf})}, ElementType::F32));
  EXPECT_EQ(special[0], f32Bits(1.0f));
  EXPECT_EQ(special[1], f32Bits(0.0f));
  EXPECT_TRUE(isNaNBits(ElementType::F32, special[2]));
  // f64 uses exp on double.
  double d = bitCast<double>(bitsOf(runElementwise(
      EwKind::Sigmoid, {f64({1}, {0.75})}, ElementType::F64))[0]);
  EXPECT_EQ(d, 1.0 / (1.0 + std::exp(-0.75)));
  // f16 rounds every step: exp(12) = 162754.8 overflows f16, so the result
  // is exactly 0 even though 6.1e-6 is representable as an f16 denormal.
  std::vector<uint64_t> h = bitsOf(runElementwise(
      EwKind::Sigmoid, {f16({3}, {-12.0, 0.0, 2.0})}, ElementType::F16));
  EXPECT_EQ(h[0], 0x0000u);
  EXPECT_EQ(h[1], 0x3800u); // 0.5
  uint16_t e2 = floatToHalf(std::exp(-2.0f));
  uint16_t denominator = floatToHalf(1.0f + halfToFloat(e2));
  EXPECT_EQ(h[2], floatToHalf(1.0f / halfToFloat(denominator)));
}

TEST(ReferenceElementwiseTest, FloatCasts) {
  // extf is exact, denormals and NaN payload included.
  HostTensor h =
      fromBits(ElementType::F16, {4}, {0x3555, 0x0001, 0x7c01, 0x8000});
  std::vector<uint64_t> toF32 =
      bitsOf(runElementwise(EwKind::ExtF, {h}, ElementType::F32));
  EXPECT_EQ(toF32[0], f32Bits(0.333251953125f));
  EXPECT_EQ(toF32[1], f32Bits(std::ldexp(1.0f, -24)));
  EXPECT_EQ(toF32[3], 0x80000000u);
  // The NaN stays a NaN with its payload (the quiet bit may be set).
  EXPECT_TRUE(isNaNBits(ElementType::F32, toF32[2]));
  EXPECT_EQ(toF32[2] & 0xffbfffffu, 0x7f802000u);
  std::vector<uint64_t> toF64 =
      bitsOf(runElementwise(EwKind::ExtF, {h}, ElementType::F64));
  EXPECT_EQ(toF64[0], f64Bits(0.333251953125));
  EXPECT_TRUE(isNaNBits(ElementType::F64, toF64[2]));
  EXPECT_EQ(bitsOf(runElementwise(EwKind::ExtF, {f32({1}, {0.1f})},
                                  ElementType::F64))[0],
            f64Bits(double(0.1f)));
  // truncf rounds to nearest even, once.
  HostTensor s =
      f32({3}, {1.0f + std::ldexp(1.0f, -11), 65520.0f, std::ldexp(1.0f, -25)});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::TruncF, {s}, ElementType::F16)),
            (std::vector<uint64_t>{0x3c00, 0x7c00, 0x0000}));
  HostTensor d = f64({2}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                           1.0 + std::ldexp(1.0, -24)});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::TruncF, {d}, ElementType::F16))[0],
            0x3c01u);
  EXPECT_EQ(bitsOf(runElementwise(EwKind::TruncF, {d}, ElementType::F32)),
            (std::vector<uint64_t>{f32Bits(1.0f + std::ldexp(1.0f, -11)),
                                   f32Bits(1.0f)}));
}

TEST(ReferenceElementwiseTest, IntegerCasts) {
  HostTensor a = i32({4}, {16777217, 16777219, 65520, -2049});
  EXPECT_EQ(floatsOf(runElementwise(EwKind::SIToFP, {a}, ElementType::F32)),
            (std::vector<float>{16777216.0f, 16777220.0f, 65520.0f, -2049.0f}));
  EXPECT_EQ(
      bitsOf(runElementwise(EwKind::SIToFP, {a}, ElementType::F16)),
      (std::vector<uint64_t>{0x7c00, 0x7c00, 0x7c00, doubleToHalf(-2048.0)}));
  HostTensor b = i64({2}, {(int64_t(1) << 53) + 1, INT64_MIN});
  EXPECT_EQ(bitsOf(runElementwise(EwKind::SIToFP, {b}, ElementType::F64)),
            (std::vector<uint64_t>{f64Bits(std::ldexp(1.0, 53)),
                                   f64Bits(-std::ldexp(1.0, 63))}));
  // i64 -> f32 rounds once: 2^53 + 2^29 + 1 is just above the f32 tie
  // between 2^53 and 2^53 + 2^30 (through double it would round to 2^53).
  HostTensor c = i64({1}, {(int64_t(1) << 53) + (int64_t(1) << 29) + 1});
  EXPECT_EQ(floatsOf(runElementwise(EwKind::SIToFP, {c}, ElementType::F32))[0],
            std::ldexp(1.0f, 53) + std::ldexp(1.0f, 30));
  EXPECT_EQ(intsOf(runElementwise(EwKind::ExtSI, {i32({2}, {-5, INT32_MIN})},
                                  ElementType::I64)),
            (std::vector<int64_t>{-5, INT32_MIN}));
  EXPECT_EQ(intsOf(runElementwise(
                EwKind::TruncI,
                {i64({3}, {0x100000005ll, int64_t(0xffffffff80000000ull), -1})},
                ElementType::I32)),
            (std::vector<int64_t>{5, INT32_MIN, -1}));
}

TEST(ReferenceElementwiseTest, ChainsAndIota) {
  // iota along each dimension, then elementwise on the result.
  ProgramUnderTest p;
  gen::Op iota;
  iota.kind = OpKind::Iota;
  iota.dimension = 1;
  int cols = p.add(iota, {TensorType{ElementType::I32, {2, 3}}})[0];
  iota.dimension = 0;
  int rows = p.add(iota, {TensorType{ElementType::I64, {2, 3}}})[0];
  int rows32 = p.add(ewOp(EwKind::TruncI, {rows}),
                     {TensorType{ElementType::I32, {2, 3}}})[0];
  int sum = p.add(ewOp(EwKind::MulConstI, {rows32}, 0.0, 10),
                  {TensorType{ElementType::I32, {2, 3}}})[0];
  int total = p.add(ewOp(EwKind::AddI, {sum, cols}),
                    {TensorType{ElementType::I32, {2, 3}}})[0];
  p.program.outputs = {cols, rows, total};
  auto result = p.run();
  ASSERT_TRUE(result.ok()) << result.message();
  EXPECT_EQ(intsOf((*result)[0]), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ((*result)[1].type, ElementType::I64);
  EXPECT_EQ(intsOf((*result)[1]), (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(intsOf((*result)[2]), (std::vector<int64_t>{0, 1, 2, 10, 11, 12}));
}

TEST(ReferenceElementwiseTest, EmptyTensors) {
  HostTensor out = runElementwise(
      EwKind::AddF, {f32({2, 0}, {}), f32({2, 0}, {})}, ElementType::F32);
  EXPECT_EQ(out.shape, (std::vector<int64_t>{2, 0}));
  EXPECT_TRUE(out.data.empty());
}

TEST(ReferenceElementwiseTest, InputsMustMatchTheProgram) {
  ProgramUnderTest p;
  int x = p.input(f32({2, 3}, {1, 2, 3, 4, 5, 6}));
  int y =
      p.add(ewOp(EwKind::NegF, {x}), {TensorType{ElementType::F32, {2, 3}}})[0];
  p.program.outputs = {y};
  ASSERT_TRUE(p.run().ok());

  auto wrongCount = evaluate(p.program, {});
  ASSERT_FALSE(wrongCount.ok());
  EXPECT_NE(wrongCount.message().find("takes 1 input(s), got 0"),
            std::string::npos)
      << wrongCount.message();
  auto wrongShape = evaluate(p.program, {f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  ASSERT_FALSE(wrongShape.ok());
  EXPECT_NE(wrongShape.message().find("expected f32[2x3], got f32[3x2]"),
            std::string::npos)
      << wrongShape.message();
  auto wrongType = evaluate(p.program, {i32({2, 3}, {1, 2, 3, 4, 5, 6})});
  ASSERT_FALSE(wrongType.ok());
  EXPECT_NE(wrongType.message().find("got i32[2x3]"), std::string::npos);
  HostTensor truncated = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  truncated.data.resize(8);
  auto wrongBytes = evaluate(p.program, {truncated});
  ASSERT_FALSE(wrongBytes.ok());
  EXPECT_NE(wrongBytes.message().find("needs 24 bytes"), std::string::npos)
      << wrongBytes.message();
}

TEST(ReferenceElementwiseTest, InvalidProgramsAreErrors) {
  {
    // Mixed element types in a binary op.
    ProgramUnderTest p;
    int a = p.input(f32({2}, {1, 2}));
    int b = p.input(f16({2}, {1, 2}));
    int c = p.add(ewOp(EwKind::AddF, {a, b}),
                  {TensorType{ElementType::F32, {2}}})[0];
    p.program.outputs = {c};
    auto r = p.run();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find("op 0"), std::string::npos) << r.message();
  }
  {
    // extf cannot narrow.
    ProgramUnderTest p;
    int a = p.input(f32({2}, {1, 2}));
    int c =
        p.add(ewOp(EwKind::ExtF, {a}), {TensorType{ElementType::F16, {2}}})[0];
    p.program.outputs = {c};
    EXPECT_FALSE(p.run().ok());
  }
  {
    // Integer op on floats.
    ProgramUnderTest p;
    int a = p.input(f32({2}, {1, 2}));
    int c = p.add(ewOp(EwKind::AddConstI, {a}),
                  {TensorType{ElementType::F32, {2}}})[0];
    p.program.outputs = {c};
    EXPECT_FALSE(p.run().ok());
  }
  {
    // Use before definition, and an output that is never defined.
    ProgramUnderTest p;
    int a = p.input(f32({2}, {1, 2}));
    int later = p.program.addValue(TensorType{ElementType::F32, {2}});
    int c = p.add(ewOp(EwKind::AddF, {a, later}),
                  {TensorType{ElementType::F32, {2}}})[0];
    p.program.outputs = {c};
    auto r = p.run();
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message().find("before it is defined"), std::string::npos)
        << r.message();
    p.program.ops.clear();
    auto undefined = p.run();
    ASSERT_FALSE(undefined.ok());
    EXPECT_NE(undefined.message().find("never defined"), std::string::npos);
  }
  {
    // Shape mismatch between operand and result, and an out-of-range id.
    ProgramUnderTest p;
    int a = p.input(f32({2}, {1, 2}));
    int c =
        p.add(ewOp(EwKind::NegF, {a}), {TensorType{ElementType::F32, {3}}})[0];
    p.program.outputs = {c};
    EXPECT_FALSE(p.run().ok());
    p.program.ops[0].operands = {42};
    EXPECT_FALSE(p.run().ok());
  }
}

} // namespace
} // namespace sift::oracle

TEST(ReferenceFlushingDenormals, ReadsAndWritesDenormalsAsZero) {
  // x * 0.5 of a denormal, and of the smallest normal (a denormal result).
  sift::gen::Program p;
  int x = p.addValue({sift::ElementType::F32, {3}});
  p.inputs = {x};
  sift::gen::Op op;
  op.kind = sift::gen::OpKind::Elementwise;
  op.ew = sift::gen::EwKind::MulConstF;
  op.constant = 0.5;
  op.operands = {x};
  op.results = {p.addValue({sift::ElementType::F32, {3}})};
  p.ops = {op};
  p.outputs = {op.results[0]};
  sift::HostTensor in(sift::ElementType::F32, {3});
  in.set<float>(0, -1e-40f);
  in.set<float>(1, 1.17549435e-38f);
  in.set<float>(2, 4.0f);
  auto ieee = sift::oracle::evaluate(p, {in});
  auto ftz = sift::oracle::evaluateFlushingDenormals(p, {in});
  ASSERT_TRUE(ieee.ok() && ftz.ok());
  EXPECT_NE((*ieee)[0].get<float>(0), 0.0f);
  EXPECT_EQ((*ftz)[0].get<float>(0), 0.0f);
  EXPECT_TRUE(std::signbit((*ftz)[0].get<float>(0)));
  EXPECT_NE((*ieee)[0].get<float>(1), 0.0f);
  EXPECT_EQ((*ftz)[0].get<float>(1), 0.0f);
  EXPECT_EQ((*ftz)[0].get<float>(2), 2.0f);
  // Without DAZ a denormal input is read exactly; denormal results are
  // still flushed (-1e-40 * 0.5 comes out -0).
  auto exactRead = sift::oracle::evaluateFlushingDenormals(p, {in}, false);
  ASSERT_TRUE(exactRead.ok());
  EXPECT_EQ((*exactRead)[0].get<float>(0), 0.0f);
  EXPECT_TRUE(std::signbit((*exactRead)[0].get<float>(0)));
  p.ops[0].constant = 1e30;
  auto scaledDaz = sift::oracle::evaluateFlushingDenormals(p, {in}, true);
  auto scaledExact = sift::oracle::evaluateFlushingDenormals(p, {in}, false);
  ASSERT_TRUE(scaledDaz.ok() && scaledExact.ok());
  EXPECT_EQ((*scaledDaz)[0].get<float>(0), 0.0f);
  EXPECT_LT((*scaledExact)[0].get<float>(0), -1e-11f);
  sift::HostTensor copy = in;
  EXPECT_TRUE(sift::oracle::flushDenormals(copy));
  EXPECT_FALSE(sift::oracle::flushDenormals(copy));
}
