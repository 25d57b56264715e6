//===- oracles/Reference.h - The reference evaluator ----------------------===//
//
// Computes the expected outputs of a program by evaluating its plain-data
// model (`generators/ProgramModel.h`) on host tensors, op by op, exactly as
// the sift ops' descriptions (pipelines/Dialect/SiftOps.td) and the model's
// comments define each op: float elementwise ops rounded to the element type after every step, the float
// total order for sort and top-k, stable sorts, top-k ties to the lower index,
// exact bits for every element an op only moves. It never looks at MLIR, so it
// shares no code, and no bug, with the compiler under test.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"
#include "support/Result.h"

#include <vector>

namespace sift::oracle {

/// Evaluates `program` on `inputs` (one tensor per `program.inputs` entry, in
/// order) and returns one tensor per `program.outputs` entry, in order.
///
/// Fails with a message, never crashes, when the inputs do not match the
/// program's input types (count, element type, shape, byte size) or when the
/// program breaks a rule the evaluation depends on (value ids, defs before
/// uses, per-op types and shapes, dimensions, k, slice bounds, gather indices
/// inside the source, comparator kind versus key type): such a program is a
/// generator bug (`gen-invalid`).
Result<std::vector<HostTensor>> evaluate(const gen::Program &program,
                                         const std::vector<HostTensor> &inputs);

/// evaluate() as code built to flush denormals computes it (FTZ, IREE's CPU
/// code): every op's denormal float results are flushed to zero of their
/// sign, and with `readAsZero` (DAZ) denormal program inputs are read as
/// zero of their sign too; without it they are read exactly, as code that
/// widens an f16 to f32 before computing reads them. Inside an NMS every
/// step of the IoU arithmetic is flushed too (a box of denormal area
/// overlaps nothing: NmsFlushScope); other denormal steps inside one op,
/// such as a sigmoid's, are not modelled.
Result<std::vector<HostTensor>>
evaluateFlushingDenormals(const gen::Program &program,
                          const std::vector<HostTensor> &inputs,
                          bool readAsZero = true);

/// Replaces every denormal float element of `t` by zero of its sign;
/// whether any was.
bool flushDenormals(HostTensor &t);

/// `program` with its denormal attributes read as zero (DAZ): an NMS's
/// f32 thresholds, an f32 or f64 elementwise constant.
gen::Program flushDenormalAttributes(gen::Program program);
/// Whether `program` holds a denormal attribute.
bool hasDenormalAttribute(const gen::Program &program);

} // namespace sift::oracle
