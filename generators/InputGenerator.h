//===- generators/InputGenerator.h - Random input tensors -----------------===//
//
// Fills the function arguments of a program with data chosen to stress sort
// and top-k, by InputMode:
//   uniform  - random values over a moderate range chosen per tensor; floats
//              have fractional parts; ties are rare.
//   ties     - 1 to 4 distinct values (for floats sometimes both -0.0 and +0.0,
//              equal keys with different bits), so stability and the
//              lower-index-first rule decide the output.
//   special  - about half the elements are special: NaN of both signs with
//              different payloads (quiet and signalling), +-inf, +-0.0,
//              denormals of both signs, the largest and smallest finite
//              values; the others are uniform. Integers: INT_MIN, INT_MAX,
//              INT_MIN + 1, 0, -1, 1, 255, 256 (and the i32 limits in i64).
//   sorted   - uniform or tie-heavy values in ascending order of the flat
//              row-major layout, hence ascending along EVERY dimension.
//   reversed - the same in descending order.
//   mixed    - each tensor picks one of the five modes above with the rng
//              (weights uniform 3, ties 2, special 2, sorted 1, reversed 1).
// f16 values are IEEE half bit patterns (round to nearest even from double).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"
#include "runtime/support/HostTensor.h"

#include <cstdint>
#include <vector>

namespace sift::gen {

/// One tensor of `type` filled as `mode` says.
HostTensor generateInput(const TensorType &type, InputMode mode, Rng &rng);

/// One tensor per `program.inputs`, in order.
std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       Rng &rng);

/// generateInputs(program, mode, Rng(seed).fork(kInputStream)).
std::vector<HostTensor> generateInputs(const Program &program, InputMode mode,
                                       uint64_t seed);

/// The numeric value of element `index` of `tensor` as a double (f16 decoded
/// from its bits; i64 beyond 2^53 rounded). For tests and messages.
double elementAsDouble(const HostTensor &tensor, int64_t index);

/// The raw bits of element `index` of `tensor`, zero-extended to 64 bits.
uint64_t elementBits(const HostTensor &tensor, int64_t index);

} // namespace sift::gen
