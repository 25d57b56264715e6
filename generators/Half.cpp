//===- generators/Half.cpp - IEEE binary16 conversions --------------------===//
//
// Bit-level double <-> half conversion. Works on the double's bit pattern
// with integer arithmetic, so it does not depend on the host's f16 support or
// its rounding mode.
//
//===----------------------------------------------------------------------===//
#include "generators/Half.h"

#include <cmath>
#include <cstring>

namespace sift::gen {

uint16_t doubleToHalfBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
  const int exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & 0xFFFFFFFFFFFFFull;

  if (exponent == 0x7FF) {
    if (mantissa == 0)
      return sign | 0x7C00u; // inf
    // Keep the top payload bits, force quiet.
    return sign | 0x7E00u | static_cast<uint16_t>((mantissa >> 42) & 0x1FFu);
  }
  if (exponent == 0 && mantissa == 0)
    return sign; // +-0 (double denormals are far below half's range too)

  // value = 1.mantissa * 2^(exponent - 1023) for normal doubles; double
  // denormals underflow to zero in half anyway.
  const int unbiased = exponent - 1023;
  if (exponent == 0 || unbiased < -25)
    return sign; // rounds to +-0 (below half of the smallest denormal)
  if (unbiased > 15)
    return sign | 0x7C00u; // overflow

  // 53-bit significand with the implicit bit.
  const uint64_t significand = mantissa | (1ull << 52);
  // Half keeps 11 significant bits for normals (unbiased >= -14); denormals
  // keep fewer: the value is a multiple of 2^-24.
  int shift; // right shift that takes the significand to half's integer field
  if (unbiased >= -14)
    shift = 52 - 10;
  else
    shift = 52 - 10 + (-14 - unbiased);
  uint64_t rounded = significand >> shift;
  const uint64_t remainder = significand & ((1ull << shift) - 1);
  const uint64_t halfway = 1ull << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (rounded & 1)))
    ++rounded;

  if (unbiased >= -14) {
    // rounded in [2^10, 2^11]; a carry to 2^11 bumps the exponent.
    int halfExponent = unbiased + 15;
    if (rounded == (1ull << 11)) {
      rounded >>= 1;
      ++halfExponent;
    }
    if (halfExponent >= 31)
      return sign | 0x7C00u;
    return sign | static_cast<uint16_t>(halfExponent << 10) |
           static_cast<uint16_t>(rounded & 0x3FFu);
  }
  // Denormal: rounded in [0, 2^10]; 2^10 is exactly the smallest normal,
  // whose encoding is the same integer.
  return sign | static_cast<uint16_t>(rounded);
}

double halfBitsToDouble(uint16_t bits) {
  const bool negative = bits & 0x8000u;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  double magnitude;
  if (exponent == 0x1F) {
    magnitude = mantissa ? std::nan("") : INFINITY;
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else {
    magnitude =
        std::ldexp(static_cast<double>(mantissa | 0x400), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

bool isExactFloat(double value, ElementType type) {
  if (!std::isfinite(value))
    return false;
  switch (type) {
  case ElementType::F16:
    return halfBitsToDouble(doubleToHalfBits(value)) == value &&
           std::signbit(halfBitsToDouble(doubleToHalfBits(value))) ==
               std::signbit(value);
  case ElementType::F32:
    return std::fabs(value) <= 3.4028234663852886e38 &&
           static_cast<double>(static_cast<float>(value)) == value;
  case ElementType::F64: return true;
  case ElementType::I32:
  case ElementType::I64: return false;
  }
  return false;
}

} // namespace sift::gen
