//===- test/unittests/generators/HalfTest.cpp - f16 and bf16 conversions --===//
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

//===----------------------------------------------------------------------===//
// bfloat16
//===----------------------------------------------------------------------===//

TEST(Bfloat16, KnownValues) {
  EXPECT_EQ(doubleToBfloat16(1.0), 0x3F80);
  EXPECT_EQ(doubleToBfloat16(-2.0), 0xC000);
  EXPECT_EQ(doubleToBfloat16(-0.0), 0x8000);
  EXPECT_EQ(doubleToBfloat16(INFINITY), 0x7F80);
  EXPECT_EQ(doubleToBfloat16(3.3895313892515355e38), 0x7F7F); // largest
  EXPECT_EQ(doubleToBfloat16(std::ldexp(1.0, -126)), 0x0080); // min normal
  EXPECT_EQ(doubleToBfloat16(std::ldexp(1.0, -133)), 0x0001); // min denormal
  EXPECT_EQ(bfloat16ToDouble(0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(bfloat16ToDouble(0xC040), -3.0);
  EXPECT_EQ(bfloat16ToFloat(0x7F7F), 3.3895313892515355e38f);
}

TEST(Bfloat16, RoundsOnceToNearestEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(doubleToBfloat16(1.0 + std::ldexp(1.0, -8)), 0x3F80);
  // 1 + 3 * 2^-8: halfway, the even neighbour is 1 + 2^-6.
  EXPECT_EQ(doubleToBfloat16(1.0 + 3 * std::ldexp(1.0, -8)), 0x3F82);
  // A hair above halfway rounds up, even below f32's precision (through
  // f32 it would round to the halfway point, then to even: 1.0).
  EXPECT_EQ(doubleToBfloat16(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)),
            0x3F81);
  // Past halfway above the largest finite: infinity; just below: largest.
  EXPECT_EQ(doubleToBfloat16(std::ldexp(2.0 - std::ldexp(1.0, -8), 127)),
            0x7F80);
  EXPECT_EQ(doubleToBfloat16(std::ldexp(2.0 - std::ldexp(1.0, -7), 127) * 1.001),
            0x7F7F);
  // Half the smallest denormal ties to 0; a little more rounds up.
  EXPECT_EQ(doubleToBfloat16(std::ldexp(1.0, -134)), 0x0000);
  EXPECT_EQ(doubleToBfloat16(std::ldexp(1.0, -134) * 1.01), 0x0001);
  EXPECT_EQ(doubleToBfloat16(-std::ldexp(1.0, -140)), 0x8000);
}

TEST(Bfloat16, NaNStaysNaNWithSignAndPayload) {
  uint16_t positive = doubleToBfloat16(std::nan(""));
  EXPECT_TRUE(isBfloat16NaN(positive));
  EXPECT_FALSE(positive & 0x8000);
  EXPECT_TRUE(isBfloat16NaN(doubleToBfloat16(-std::nan(""))));
  EXPECT_TRUE(doubleToBfloat16(-std::nan("")) & 0x8000);
  // A signaling NaN's payload stays (quieted); bf16 -> double keeps it.
  EXPECT_EQ(doubleToBfloat16(bfloat16ToDouble(0x7F81)), 0x7FC1);
  EXPECT_FALSE(isBfloat16NaN(0x7F80));
  EXPECT_TRUE(std::isnan(bfloat16ToDouble(0xFFA5)));
}

TEST(Bfloat16, EveryBfloat16RoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    uint16_t b = static_cast<uint16_t>(bits);
    if (isBfloat16NaN(b))
      continue;
    double d = bfloat16ToDouble(b);
    ASSERT_EQ(doubleToBfloat16(d), b) << std::hex << bits;
    // Exact as a float too: bf16 is f32's top half.
    ASSERT_EQ(static_cast<double>(bfloat16ToFloat(b)), d) << std::hex << bits;
  }
}

TEST(Bfloat16, IsExactFloat) {
  EXPECT_TRUE(isExactFloat(256.0, ElementType::BF16));
  EXPECT_FALSE(isExactFloat(257.0, ElementType::BF16));
  EXPECT_TRUE(isExactFloat(258.0, ElementType::BF16));
  EXPECT_TRUE(isExactFloat(std::ldexp(1.0, 100), ElementType::BF16));
  EXPECT_FALSE(isExactFloat(0.1, ElementType::BF16));
  EXPECT_FALSE(isExactFloat(INFINITY, ElementType::BF16));
}
