//===- test/unittests/generators/HalfTest.cpp - f16 conversions -----------===//
//
// Round-to-nearest-even from double, exactness, special values, and a
// round trip over every half bit pattern.
//
//===----------------------------------------------------------------------===//
#include "generators/Half.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sift;
using namespace sift::gen;

TEST(Half, KnownValues) {
  EXPECT_EQ(doubleToHalf(1.0), 0x3C00);
  EXPECT_EQ(doubleToHalf(-2.0), 0xC000);
  EXPECT_EQ(doubleToHalf(0.5), 0x3800);
  EXPECT_EQ(doubleToHalf(65504.0), 0x7BFF);
  EXPECT_EQ(doubleToHalf(0.0), 0x0000);
  EXPECT_EQ(doubleToHalf(-0.0), 0x8000);
  EXPECT_EQ(doubleToHalf(INFINITY), 0x7C00);
  EXPECT_EQ(doubleToHalf(-INFINITY), 0xFC00);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -14)), 0x0400); // min normal
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -24)), 0x0001); // min denormal
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1).
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11)), 0x3C00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: even is 0x3C02.
  EXPECT_EQ(doubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);
  // Just above halfway rounds up.
  EXPECT_EQ(doubleToHalf(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30)),
            0x3C01);
  // 65520 is halfway between 65504 and 65536 (inf): rounds to inf.
  EXPECT_EQ(doubleToHalf(65520.0), 0x7C00);
  EXPECT_EQ(doubleToHalf(65519.99), 0x7BFF);
  // Half of the smallest denormal ties to 0; a little more rounds up.
  EXPECT_EQ(doubleToHalf(std::ldexp(1.0, -25)), 0x0000);
  EXPECT_EQ(doubleToHalf(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(doubleToHalf(-std::ldexp(3.0, -25)), 0x8002); // 1.5 ulp: even
  // Rounding up out of the denormals lands on the smallest normal.
  EXPECT_EQ(doubleToHalf(std::ldexp(1023.5, -24)), 0x0400);
}

TEST(Half, NaNStaysNaNWithSign) {
  uint16_t pos = doubleToHalf(std::nan(""));
  uint16_t neg = doubleToHalf(-std::nan(""));
  EXPECT_EQ(pos & 0x7C00, 0x7C00);
  EXPECT_NE(pos & 0x03FF, 0);
  EXPECT_EQ(pos & 0x8000, 0);
  EXPECT_EQ(neg & 0x8000, 0x8000);
  EXPECT_TRUE(std::isnan(halfToDouble(0x7E00)));
  EXPECT_TRUE(std::isnan(halfToDouble(0xFC01)));
}

TEST(Half, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    uint16_t h = static_cast<uint16_t>(bits);
    double d = halfToDouble(h);
    if (std::isnan(d))
      continue;
    ASSERT_EQ(doubleToHalf(d), h) << "bits 0x" << std::hex << bits;
  }
}

TEST(Half, IsExactFloat) {
  EXPECT_TRUE(isExactFloat(0.5, ElementType::F16));
  EXPECT_TRUE(isExactFloat(-1.5, ElementType::F16));
  EXPECT_TRUE(isExactFloat(-0.0, ElementType::F16));
  EXPECT_FALSE(isExactFloat(0.1, ElementType::F16));
  EXPECT_FALSE(isExactFloat(1.0 / 3.0, ElementType::F32));
  EXPECT_TRUE(isExactFloat(1.0 / 3.0, ElementType::F64));
  EXPECT_FALSE(isExactFloat(65536.0 * 2, ElementType::F16)); // overflows
  EXPECT_TRUE(isExactFloat(4097.0 - 1.0, ElementType::F16));
  EXPECT_FALSE(isExactFloat(2049.0, ElementType::F16));
  EXPECT_FALSE(isExactFloat(INFINITY, ElementType::F64));
  EXPECT_FALSE(isExactFloat(std::nan(""), ElementType::F32));
  EXPECT_FALSE(isExactFloat(1.0, ElementType::I32));
}
