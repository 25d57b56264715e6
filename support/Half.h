//===- support/Half.h - binary16 and bfloat16 conversions -*- C++ -*-===//
//
// One binary16 and one bfloat16 conversion for all of sift (generators, reference, runtime
// tools): integer arithmetic on the bit patterns, round to nearest even,
// exact NaN, infinity and denormal handling, no compiler `_Float16`, so the
// result never depends on the host compiler or CPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>

namespace sift {

/// Reinterprets the bits of one trivially copyable value as another.
template <typename To, typename From> To bitCast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bitCast needs equal sizes");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

//===----------------------------------------------------------------------===//
// binary16
//===----------------------------------------------------------------------===//

/// The binary16 value with bits `bits` as a float (exact: every f16 is an f32).
/// A NaN keeps its sign and payload (shifted into the top of the f32 payload).
float halfToFloat(uint16_t bits);

/// The same as a double (exact).
double halfToDouble(uint16_t bits);

/// Rounds `value` to binary16 once, to nearest with ties to even. Magnitudes
/// from 65520 up become infinity; results below the normal range are denormals
/// (or a signed zero). A NaN keeps its sign and the top 10 payload bits, with
/// the quiet bit set (as F16C and LLVM's fptrunc do).
uint16_t doubleToHalf(double value);

/// Rounds a float to binary16 (one rounding: float -> double is exact).
uint16_t floatToHalf(float value);

/// True when `bits` is a binary16 NaN.
inline bool isHalfNaN(uint16_t bits) {
  return (bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0;
}

//===----------------------------------------------------------------------===//
// bfloat16 (f32's top 16 bits: 8 exponent bits, 7 mantissa bits)
//===----------------------------------------------------------------------===//

/// The bfloat16 value with bits `bits` as a float (exact: the bits are the
/// float's top half). A NaN keeps its sign and payload.
inline float bfloat16ToFloat(uint16_t bits) {
  return bitCast<float>(uint32_t(bits) << 16);
}

/// The same as a double (exact; a NaN keeps its payload bit for bit).
double bfloat16ToDouble(uint16_t bits);

/// Rounds `value` to bfloat16 once (never through f32), to nearest with ties
/// to even. Results past the largest finite (3.39e38) become infinity; below
/// the normal range, denormals or a signed zero. A NaN keeps its sign and top
/// 7 payload bits, with the quiet bit set (as LLVM's fptrunc does).
uint16_t doubleToBfloat16(double value);

/// Rounds a float to bfloat16 (one rounding).
uint16_t floatToBfloat16(float value);

/// True when `bits` is a bfloat16 NaN.
inline bool isBfloat16NaN(uint16_t bits) {
  return (bits & 0x7f80) == 0x7f80 && (bits & 0x007f) != 0;
}

} // namespace sift
