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

/// `value` rounded once to a 16-bit binary float with `fractionBits` stored
/// mantissa bits and exponent bias `bias` (binary16: 10 and 15; bfloat16: 7
/// and 127), to nearest with ties to even: past the largest finite value
/// infinity, below the normal range a denormal or a signed zero. A NaN
/// keeps its sign and top payload bits, with the quiet bit set.
uint16_t roundToBinary16(double value, int fractionBits, int bias) {
  uint64_t bits = bitCast<uint64_t>(value);
  uint16_t sign = uint16_t((bits >> 48) & 0x8000);
  int exponent = int((bits >> 52) & 0x7ff);
  uint64_t mantissa = bits & 0xfffffffffffffull;
  const int drop = 52 - fractionBits; // double's fraction bits not kept
  const uint16_t infinity = uint16_t(0x7fff & ~((1u << fractionBits) - 1));
  const uint16_t quiet = uint16_t(1u << (fractionBits - 1));
  if (exponent == 0x7ff) {
    if (mantissa == 0)
      return sign | infinity;
    return uint16_t(sign | infinity | quiet |
                    ((mantissa >> drop) & ((1u << fractionBits) - 1)));
  }
  if (exponent == 0 && mantissa == 0)
    return sign;
  // value = m * 2^(e - 52) with m < 2^53 (implicit bit for normals).
  uint64_t m = exponent == 0 ? mantissa : (mantissa | (uint64_t(1) << 52));
  int e = exponent == 0 ? -1022 : exponent - 1023;
  const int minExponent = 1 - bias;
  const uint64_t hidden = uint64_t(1) << fractionBits;
  if (e >= minExponent) {
    // Normal range: keep fractionBits + 1 significant bits.
    uint64_t q = shiftRightRoundEven(m, drop); // in [hidden, 2 hidden]
    if (q == 2 * hidden) {
      q = hidden;
      ++e;
    }
    if (e > bias)
      return sign | infinity;
    return uint16_t(sign | (uint16_t(e + bias) << fractionBits) |
                    uint16_t(q - hidden));
  }
  // Denormal range: value / 2^(minExponent - fractionBits) rounded to an
  // integer in [0, hidden]; hidden is the smallest normal, whose bit
  // pattern is exactly `hidden`.
  uint64_t q = shiftRightRoundEven(m, drop + (minExponent - e));
  return uint16_t(sign | uint16_t(q));
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
  return roundToBinary16(value, /*fractionBits=*/10, /*bias=*/15);
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
  return roundToBinary16(value, /*fractionBits=*/7, /*bias=*/127);
}

uint16_t floatToBfloat16(float value) {
  return doubleToBfloat16(static_cast<double>(value));
}

} // namespace sift
