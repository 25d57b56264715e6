//===- support/Half.cpp - binary16 and bfloat16 conversions ---------------===//

#include "support/Half.h"

namespace sift {

namespace {

/// `m >> shift` rounded to nearest, ties to even.
uint64_t shiftRightRoundEven(uint64_t m, int shift) {
  if (shift <= 0)
    return m;
  if (shift >= 64)
    return 0; // m < 2^53 is far below half of 2^shift.
  uint64_t q = m >> shift;
  uint64_t rem = m & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  return q;
}

} // namespace

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits & 0x8000) << 16;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) // Infinity or NaN (payload kept).
    return bitCast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    if (mantissa == 0)
      return bitCast<float>(sign);
    // Denormal: mantissa * 2^-24. Normalize into an f32 normal number.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ff;
    uint32_t f32Exponent = uint32_t(127 - 15 + 1 - shift);
    return bitCast<float>(sign | (f32Exponent << 23) | (mantissa << 13));
  }
  return bitCast<float>(sign | ((exponent - 15 + 127) << 23) |
                        (mantissa << 13));
}

double halfToDouble(uint16_t bits) {
  // Build the double directly so a NaN keeps its payload bit for bit (a
  // float -> double conversion on the host could quiet a signaling NaN).
  uint64_t f32 = bitCast<uint32_t>(halfToFloat(bits));
  uint64_t sign = (f32 & 0x80000000u) << 32;
  uint64_t exponent = (f32 >> 23) & 0xff;
  uint64_t mantissa = f32 & 0x7fffffu;
  if (exponent == 0xff)
    return bitCast<double>(sign | 0x7ff0000000000000ull | (mantissa << 29));
  if (exponent == 0 && mantissa == 0)
    return bitCast<double>(sign);
  // halfToFloat never yields an f32 denormal: every f16 is an f32 normal.
  return bitCast<double>(sign | ((exponent - 127 + 1023) << 52) |
                         (mantissa << 29));
}

uint16_t doubleToHalf(double value) {
  uint64_t bits = bitCast<uint64_t>(value);
  uint16_t sign = uint16_t((bits >> 48) & 0x8000);
  int exponent = int((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & 0xfffffffffffffull;
  if (exponent == 0x7ff) {
    if (mantissa == 0)
      return sign | 0x7c00;
    return uint16_t(sign | 0x7e00 | ((mantissa >> 42) & 0x3ff));
  }
  if (exponent == 0 && mantissa == 0)
    return sign;
  // value = m * 2^(e - 52) with m < 2^53 (implicit bit for normals).
  uint64_t m = exponent == 0 ? mantissa : (mantissa | (uint64_t(1) << 52));
  int e = exponent == 0 ? -1022 : exponent - 1023;
  if (e >= -14) {
    // Normal range of f16: keep 11 significant bits.
    uint64_t q = shiftRightRoundEven(m, 42); // in [1024, 2048]
    if (q == 2048) {
      q = 1024;
      ++e;
    }
    if (e > 15)
      return sign | 0x7c00;
    return uint16_t(sign | (uint16_t(e + 15) << 10) | uint16_t(q - 1024));
  }
  // Denormal range: value / 2^-24 rounded to an integer in [0, 1024]; 1024 is
  // the smallest normal, whose bit pattern is exactly 0x400.
  uint64_t q = shiftRightRoundEven(m, 42 + (-14 - e));
  return uint16_t(sign | uint16_t(q));
}

uint16_t floatToHalf(float value) {
  return doubleToHalf(static_cast<double>(value));
}

//===----------------------------------------------------------------------===//
// bfloat16
//===----------------------------------------------------------------------===//

double bfloat16ToDouble(uint16_t bits) {
  uint64_t sign = uint64_t(bits & 0x8000) << 48;
  uint64_t exponent = (bits >> 7) & 0xff;
  uint64_t mantissa = bits & 0x7f;
  if (exponent == 0xff)
    return bitCast<double>(sign | 0x7ff0000000000000ull | (mantissa << 45));
  if (exponent == 0) {
    if (mantissa == 0)
      return bitCast<double>(sign);
    // Denormal: mantissa * 2^-133, a double normal.
    double magnitude = double(mantissa) * 0x1p-133;
    return sign ? -magnitude : magnitude;
  }
  return bitCast<double>(sign | ((exponent - 127 + 1023) << 52) |
                         (mantissa << 45));
}

uint16_t doubleToBfloat16(double value) {
  uint64_t bits = bitCast<uint64_t>(value);
  uint16_t sign = uint16_t((bits >> 48) & 0x8000);
  int exponent = int((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & 0xfffffffffffffull;
  if (exponent == 0x7ff) {
    if (mantissa == 0)
      return sign | 0x7f80;
    return uint16_t(sign | 0x7fc0 | ((mantissa >> 45) & 0x7f));
  }
  if (exponent == 0 && mantissa == 0)
    return sign;
  uint64_t m = exponent == 0 ? mantissa : (mantissa | (uint64_t(1) << 52));
  int e = exponent == 0 ? -1022 : exponent - 1023;
  if (e >= -126) {
    // Normal range: keep 8 significant bits.
    uint64_t q = shiftRightRoundEven(m, 45); // in [128, 256]
    if (q == 256) {
      q = 128;
      ++e;
    }
    if (e > 127)
      return sign | 0x7f80;
    return uint16_t(sign | (uint16_t(e + 127) << 7) | uint16_t(q - 128));
  }
  // Denormal range: value / 2^-133 rounded to an integer in [0, 128]; 128 is
  // the smallest normal, whose bit pattern is exactly 0x80.
  uint64_t q = shiftRightRoundEven(m, 45 + (-126 - e));
  return uint16_t(sign | uint16_t(q));
}

uint16_t floatToBfloat16(float value) {
  return doubleToBfloat16(static_cast<double>(value));
}

} // namespace sift
