//===- generators/Half.h - IEEE binary16 conversions for the generators ---===//
//
// f16 tensors and constants are stored as IEEE half bit patterns. These
// helpers convert a double to half bits with round-to-nearest-even (one
// rounding, directly from double, so no double rounding through f32), and
// back, exactly. They also answer "is this constant exact in this element
// type", which the model's validation needs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"

#include <cstdint>

namespace sift::gen {

/// Rounds `value` to the nearest IEEE half (ties to even); overflow gives
/// +-inf, NaN gives a quiet NaN of the same sign.
uint16_t doubleToHalfBits(double value);

/// The exact double value of the half with bit pattern `bits`.
double halfBitsToDouble(uint16_t bits);

/// True when `value` is finite and exactly representable in the float
/// element type `type` (f16, f32 or f64). False for integer types.
bool isExactFloat(double value, ElementType type);

} // namespace sift::gen
