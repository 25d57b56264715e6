//===- generators/InputWriters.h - Element writers shared by input fills --===//
//
// Internal to the input generators (InputGenerator.cpp for the plain modes,
// NmsInputs.cpp for NMS boxes and scores): writing one element of a
// HostTensor from a double, an integer or raw bits, the pool of special float
// bit patterns, a flat stable sort, and stepping to neighbouring floats.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/HostTensor.h"

#include <cstdint>
#include <vector>

namespace sift::gen::detail {

/// Writes the float `value` rounded (to nearest even) to the tensor's float
/// type; values beyond the type's range become +-inf.
void setFloat(HostTensor &t, int64_t i, double value);
/// Writes the integer `value`, truncated to the tensor's width.
void setInt(HostTensor &t, int64_t i, int64_t value);
/// Writes raw bits (the low byteWidth bytes of `bits`).
void setBits(HostTensor &t, int64_t i, uint64_t bits);

/// Special float bit patterns of each type: NaNs of both signs and several
/// payloads (quiet and signalling), infinities, zeros, denormals, extremes,
/// smallest normals.
std::vector<uint64_t> specialFloatBits(ElementType type);
/// True when `bits` is a NaN of the float type `type`.
bool isNanBits(ElementType type, uint64_t bits);

/// Stably sorts the elements of `t` (no NaN) in flat order, ascending or
/// descending.
void sortFlat(HostTensor &t, bool descending);

/// The bits of the largest value of the float type `type` that is <= `value`
/// (not NaN).
uint64_t roundDownBits(double value, ElementType type);
/// The bits of the next value of `type` above / below the (non-NaN) value
/// with `bits`; +inf stays +inf going up, -inf stays -inf going down, and
/// both zeros step to the smallest denormal of the direction.
uint64_t nextUpBits(uint64_t bits, ElementType type);
uint64_t nextDownBits(uint64_t bits, ElementType type);

} // namespace sift::gen::detail
