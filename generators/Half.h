//===- generators/Half.h - IEEE binary16 conversions for the generators ---===//
//
// f16 tensors and constants are stored as IEEE half bit patterns, converted
// by support/Half.h (one rounding, directly from double). Here: "is this
// constant exact in this element type", which the model's validation needs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"
#include "support/Half.h"

#include <cstdint>

namespace sift::gen {

/// True when `value` is finite and exactly representable in the float
/// element type `type` (f16, f32 or f64). False for integer types.
bool isExactFloat(double value, ElementType type);

} // namespace sift::gen
