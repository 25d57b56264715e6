//===- oracles/FloatBits.h - IEEE helpers for the reference ---------------===//
//
// Bit-exact helpers the reference and the comparators share: binary16 and
// bfloat16 conversion (support/Half.h), the float total order of SEMANTICS.md (`-inf < ... < -0.0 == +0.0 <
// ... < +inf < NaN`, every NaN one class), and ulp distances. Elements are
// handled as raw bits (zero-extended into a uint64_t) so one function covers
// every element type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"
#include "support/Half.h"

#include <cstdint>
#include <cstring>

namespace sift::oracle {

using ::sift::bitCast;
using ::sift::doubleToHalf;
using ::sift::floatToHalf;
using ::sift::halfToDouble;
using ::sift::halfToFloat;
using ::sift::isHalfNaN;
using ::sift::bfloat16ToDouble;
using ::sift::bfloat16ToFloat;
using ::sift::doubleToBfloat16;
using ::sift::floatToBfloat16;
using ::sift::isBfloat16NaN;

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

/// Stored mantissa bits of a float type: 10 (f16), 7 (bf16), 23 or 52 (0 for
/// integers).
int mantissaBits(ElementType type);

} // namespace sift::oracle
