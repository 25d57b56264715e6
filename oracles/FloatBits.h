//===- oracles/FloatBits.h - IEEE helpers for the reference ---------------===//
//
// Bit-exact helpers the reference and the comparators share: an own binary16
// conversion (round to nearest even, exact NaN/inf/denormal handling; no
// compiler `_Float16`, so the result never depends on the host compiler or
// CPU), the float total order of SEMANTICS.md (`-inf < ... < -0.0 == +0.0 <
// ... < +inf < NaN`, every NaN one class), and ulp distances. Elements are
// handled as raw bits (zero-extended into a uint64_t) so one function covers
// every element type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"

#include <cstdint>
#include <cstring>

namespace sift::oracle {

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
// Raw element bits
//===----------------------------------------------------------------------===//

/// Loads one element of `type` (little-endian host order) as raw bits,
/// zero-extended to 64 bits.
uint64_t loadBits(ElementType type, const uint8_t *element);

/// Stores the low `byteWidth(type)` bytes of `bits` at `element`.
void storeBits(ElementType type, uint8_t *element, uint64_t bits);

/// True when `bits` is a NaN of float type `type`; false for integer types.
bool isNaNBits(ElementType type, uint64_t bits);

/// The element as a signed integer (i32 sign-extended); only for integer types.
int64_t signedValue(ElementType type, uint64_t bits);

/// The element as a double (exact for every float type); only for float types.
double floatValue(ElementType type, uint64_t bits);

//===----------------------------------------------------------------------===//
// Total order and distances
//===----------------------------------------------------------------------===//

/// The float total order of SEMANTICS.md: every NaN is larger than +inf and
/// equal to every other NaN; -0.0 and +0.0 are equal; otherwise IEEE `<`.
inline bool totalLess(float a, float b) {
  if (a != a)
    return false;
  if (b != b)
    return true;
  return a < b;
}
inline bool totalLess(double a, double b) {
  if (a != a)
    return false;
  if (b != b)
    return true;
  return a < b;
}

/// `a < b` for two raw elements of `type`: the float total order above for
/// f16/f32/f64, signed order for i32/i64. A strict weak order; equivalent
/// elements (equal keys) are neither less than the other.
bool totalLess(ElementType type, uint64_t a, uint64_t b);

/// The number of representable values of float type `type` between `a` and
/// `b` (0 when equal, 1 for neighbours); -0.0 and +0.0 are the same point and
/// the largest finite value is 1 away from infinity. Two NaNs are 0 apart, a
/// NaN and a number UINT64_MAX. For integer types: |a - b|, saturated.
uint64_t ulpDistance(ElementType type, uint64_t a, uint64_t b);

/// Stored mantissa bits of a float type: 10, 23 or 52 (0 for integers).
int mantissaBits(ElementType type);

} // namespace sift::oracle
