//===- test/unittests/oracles/FloatBitsTest.cpp - IEEE helper tests -------===//
//
// binary16 conversion against known bit patterns, round-to-nearest-even ties,
// denormals, overflow and NaN, exhaustively over every f16 and against a
// brute-force nearest search; the float total order; ulp distances.
//
//===----------------------------------------------------------------------===//
#include "oracles/FloatBits.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace sift::oracle {
namespace {

TEST(FloatBitsTest, HalfToFloatKnownPatterns) {
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14)); // smallest normal
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest denormal
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(bitCast<uint32_t>(halfToFloat(0x0000)), 0x00000000u);
  EXPECT_EQ(bitCast<uint32_t>(halfToFloat(0x8000)), 0x80000000u);
  EXPECT_EQ(halfToFloat(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(halfToFloat(0xfc00), -std::numeric_limits<float>::infinity());
  // NaNs keep sign and payload.
  EXPECT_EQ(bitCast<uint32_t>(halfToFloat(0x7e00)), 0x7fc00000u);
  EXPECT_EQ(bitCast<uint32_t>(halfToFloat(0x7c01)), 0x7f802000u);
  EXPECT_EQ(bitCast<uint32_t>(halfToFloat(0xfe01)), 0xffc02000u);
}

TEST(FloatBitsTest, DoubleToHalfKnownValues) {
  EXPECT_EQ(doubleToHalf(1.0), 0x3c00);
  EXPECT_EQ(doubleToHalf(-2.0), 0xc000);
  EXPECT_EQ(doubleToHalf(0.1), 0x2e66);
  EXPECT_EQ(doubleToHalf(1.0 / 3.0), 0x3555);
  EXPECT_EQ(doubleToHalf(65504.0), 0x7bff);
  EXPECT_EQ(doubleToHalf(0.0), 0x0000);
  EXPECT_EQ(doubleToHalf(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalf(std::numeric_limits<double>::infinity()), 0x7c00);
  EXPECT_EQ(doubleToHalf(-std::numeric_limits<double>::infinity()), 0xfc00);
  EXPECT_EQ(doubleToHalf(1e300), 0x7c00);
  EXPECT_EQ(doubleToHalf(-1e300), 0xfc00);
  EXPECT_EQ(doubleToHalf(1e-300), 0x0000);
  EXPECT_EQ(doubleToHalf(-1e-300), 0x8000);
  EXPECT_EQ(doubleToHalf(std::numeric_limits<double>::denorm_min()), 0x0000);
}

TEST(FloatBitsTest, DoubleToHalfTiesToEven) {
  // 1 + 2^-11 lies halfway between 1 (even) and 1 + 2^-10 (odd).
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11)), 0x3c00);
  // 1 + 3 * 2^-11 lies halfway between 0x3c01 (odd) and 0x3c02 (even).
  EXPECT_EQ(doubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);
  // Just above the tie rounds up.
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)),
            0x3c01);
  // One rounding from double: going through f32 first would round this to
  // 1 + 2^-11 and then (tie) to 1.0.
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
            0x3c01);
  // Overflow boundary: 65520 is halfway between 65504 (odd) and 2^16 (inf).
  EXPECT_EQ(doubleToHalf(65519.99), 0x7bff);
  EXPECT_EQ(doubleToHalf(65520.0), 0x7c00);
  EXPECT_EQ(doubleToHalf(-65520.0), 0xfc00);
  // Rounding up carries into the exponent: 2 - 2^-12 rounds to 2.0.
  EXPECT_EQ(doubleToHalf(2.0 - std::ldexp(1.0, -12)), 0x4000);
}

TEST(FloatBitsTest, DoubleToHalfDenormals) {
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000); // tie to even 0
  EXPECT_EQ(doubleToHalf(-std::ldexp(1.0, -25)), 0x8000);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0001, -25)), 0x0001);
  EXPECT_EQ(doubleToHalf(3 * std::ldexp(1.0, -25)), 0x0002); // tie: 1 or 2
  EXPECT_EQ(doubleToHalf(5 * std::ldexp(1.0, -25)), 0x0002); // tie: 2 or 3
  EXPECT_EQ(doubleToHalf(std::ldexp(1023.0, -24)), 0x03ff);
  // Halfway between the largest denormal and the smallest normal (even).
  EXPECT_EQ(doubleToHalf(std::ldexp(2047.0, -25)), 0x0400);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -14)), 0x0400);
}

TEST(FloatBitsTest, DoubleToHalfNaN) {
  uint16_t quiet = doubleToHalf(std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(isHalfNaN(quiet));
  EXPECT_EQ(quiet & 0x8000, 0);
  uint16_t negative = doubleToHalf(-std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(isHalfNaN(negative));
  EXPECT_EQ(negative & 0x8000, 0x8000);
  // A payload only in the low bits still gives a NaN (quiet bit set).
  uint16_t low = doubleToHalf(bitCast<double>(0x7ff0000000000001ull));
  EXPECT_TRUE(isHalfNaN(low));
  EXPECT_EQ(low, 0x7e00);
  // The top payload bits survive.
  EXPECT_EQ(floatToHalf(bitCast<float>(0x7fc02000u)), 0x7e01);
}

TEST(FloatBitsTest, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    uint16_t bits = uint16_t(h);
    float f = halfToFloat(bits);
    if (isHalfNaN(bits)) {
      EXPECT_TRUE(std::isnan(f)) << std::hex << h;
      EXPECT_TRUE(isHalfNaN(floatToHalf(f))) << std::hex << h;
      EXPECT_EQ(floatToHalf(f) & 0x81ff, bits & 0x81ff) << std::hex << h;
      continue;
    }
    EXPECT_EQ(floatToHalf(f), bits) << std::hex << h;
    EXPECT_EQ(bitCast<uint64_t>(halfToDouble(bits)),
              bitCast<uint64_t>(double(f)))
        << std::hex << h;
  }
}

TEST(FloatBitsTest, RoundingPicksTheNearestHalf) {
  // Brute force: the result is at least as near as both neighbours, and on a
  // tie it is the even one. Deterministic pseudo-random f32 inputs.
  uint64_t state = 12345;
  for (int n = 0; n < 200000; ++n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t bits = uint32_t(state >> 32);
    // Keep magnitudes inside f16's range (exponents 2^-26 .. 2^15).
    uint32_t exponent = 127 - 26 + (bits >> 23) % 42;
    float x = bitCast<float>((bits & 0x807fffffu) | (exponent << 23));
    if (std::fabs(x) >= 65520.0f) // Overflows to inf (tested separately).
      continue;
    uint16_t h = floatToHalf(x);
    double got = halfToDouble(h);
    double error = std::fabs(got - double(x));
    for (int step : {-1, 1}) {
      uint16_t neighbour = uint16_t(h + step);
      if ((h & 0x7fff) == 0 && step < 0)
        neighbour = uint16_t((h ^ 0x8000) + 1); // across zero
      if (isHalfNaN(neighbour) || (neighbour & 0x7fff) == 0x7c00)
        continue;
      double other = std::fabs(halfToDouble(neighbour) - double(x));
      ASSERT_LE(error, other) << x;
      if (error == other) {
        ASSERT_EQ(h & 1, 0) << "tie not to even for " << x;
      }
    }
  }
}

TEST(FloatBitsTest, TotalOrderClasses) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Classes in increasing order; members of one class are equivalent. Every
  // value is exact in f16, f32 and f64 (2^-24 is f16's smallest denormal).
  std::vector<std::vector<float>> classes = {
      {-inf},
      {-1.0f},
      {-0.0f, 0.0f},
      {std::ldexp(1.0f, -24)},
      {1.0f},
      {inf},
      {nan, -nan, bitCast<float>(0x7f800001u)}};
  for (size_t i = 0; i < classes.size(); ++i)
    for (size_t j = 0; j < classes.size(); ++j)
      for (float a : classes[i])
        for (float b : classes[j]) {
          EXPECT_EQ(totalLess(a, b), i < j) << a << " " << b;
          EXPECT_EQ(totalLess(ElementType::F32, bitCast<uint32_t>(a),
                              bitCast<uint32_t>(b)),
                    i < j)
              << a << " " << b;
          EXPECT_EQ(totalLess(double(a), double(b)), i < j) << a << " " << b;
          EXPECT_EQ(totalLess(ElementType::F64, bitCast<uint64_t>(double(a)),
                              bitCast<uint64_t>(double(b))),
                    i < j);
          EXPECT_EQ(totalLess(ElementType::F16, floatToHalf(a), floatToHalf(b)),
                    i < j)
              << a << " " << b;
        }
}

TEST(FloatBitsTest, TotalOrderHalfNaNs) {
  EXPECT_FALSE(totalLess(ElementType::F16, 0x7e00, 0xfe00));
  EXPECT_FALSE(totalLess(ElementType::F16, 0xfe00, 0x7c01));
  EXPECT_TRUE(totalLess(ElementType::F16, 0x7c00, 0xfe00)); // inf < -NaN
  EXPECT_FALSE(totalLess(ElementType::F16, 0x8000, 0x0000));
  EXPECT_FALSE(totalLess(ElementType::F16, 0x0000, 0x8000));
}

TEST(FloatBitsTest, TotalOrderIntegersAreSigned) {
  EXPECT_TRUE(totalLess(ElementType::I32, uint32_t(INT32_MIN), uint32_t(-1)));
  EXPECT_TRUE(totalLess(ElementType::I32, uint32_t(-1), 0));
  EXPECT_TRUE(totalLess(ElementType::I32, 0, uint32_t(INT32_MAX)));
  EXPECT_FALSE(
      totalLess(ElementType::I32, uint32_t(INT32_MAX), uint32_t(INT32_MIN)));
  EXPECT_TRUE(totalLess(ElementType::I64, uint64_t(INT64_MIN), 0));
  EXPECT_FALSE(totalLess(ElementType::I64, 5, 5));
}

TEST(FloatBitsTest, UlpDistance) {
  auto f = [](float v) { return uint64_t(bitCast<uint32_t>(v)); };
  EXPECT_EQ(ulpDistance(ElementType::F32, f(1.0f), f(1.0f)), 0u);
  EXPECT_EQ(
      ulpDistance(ElementType::F32, f(1.0f), f(std::nextafter(1.0f, 2.0f))),
      1u);
  EXPECT_EQ(ulpDistance(ElementType::F32, f(-0.0f), f(0.0f)), 0u);
  float tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(ulpDistance(ElementType::F32, f(-tiny), f(tiny)), 2u);
  EXPECT_EQ(ulpDistance(ElementType::F32, f(std::numeric_limits<float>::max()),
                        f(std::numeric_limits<float>::infinity())),
            1u);
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(ulpDistance(ElementType::F32, f(nan), f(-nan)), 0u);
  EXPECT_EQ(ulpDistance(ElementType::F32, f(nan), f(1.0f)), UINT64_MAX);
  EXPECT_EQ(ulpDistance(ElementType::F16, 0x3c00, 0x3c04), 4u);
  EXPECT_EQ(ulpDistance(ElementType::F16, 0x8001, 0x0001), 2u);
  EXPECT_EQ(ulpDistance(ElementType::F64, bitCast<uint64_t>(-1.0),
                        bitCast<uint64_t>(1.0)),
            2 * bitCast<uint64_t>(1.0));
  EXPECT_EQ(
      ulpDistance(ElementType::I64, uint64_t(INT64_MIN), uint64_t(INT64_MAX)),
      UINT64_MAX);
  EXPECT_EQ(ulpDistance(ElementType::I32, uint32_t(-3), 4), 7u);
}

} // namespace
} // namespace sift::oracle
