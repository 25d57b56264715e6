//===- oracles/Compare.h - Device outputs against the reference -----------===//
//
// The dynamic oracle's comparison (SEMANTICS.md, "What the oracle compares"):
// integers exactly; floats bit for bit, except that any NaN equals any NaN
// (payload and sign free) and that outputs computed by elementwise chains
// with an inexact step (Sigmoid) get an ulp tolerance. -0.0 against +0.0 is a
// mismatch, and so is NaN against a number, tolerance or not. Sort and top-k
// outputs are exact copies of their inputs: keys and top-k results demand
// exact bits; a payload that a sort moves by exact keys keeps the tolerance
// its elementwise chain earned.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sift::oracle {

/// The first difference between expected and actual outputs.
struct Mismatch {
  int output = -1;        ///< output number; -1 when the output counts differ
  int64_t flatIndex = -1; ///< row-major element; -1 for count/type/shape
  std::vector<int64_t> index;   ///< multi-index of the element (empty if none)
  std::string expected, actual; ///< formatted element values (or types)
  /// One line, e.g. "output 1 at [2, 5]: expected -0.0 (0x8000), got 0.0
  /// (0x0000); 1 of 24 elements differ".
  std::string message;
};

/// Compares `actual` (what a device produced) with `expected` (the reference)
/// for the outputs of `program`; nullopt when they agree. Reports a count,
/// element type, shape or byte-size difference first, else the first element
/// that differs (with how many elements of that output differ).
std::optional<Mismatch> compareOutputs(const gen::Program &program,
                                       const std::vector<HostTensor> &expected,
                                       const std::vector<HostTensor> &actual);

/// compareOutputs with the per-output ulp tolerances given (missing ones
/// are 0): for artifacts that carry their tolerances instead of the program
/// (sift-run).
std::optional<Mismatch>
compareOutputs(const std::vector<uint64_t> &tolerances,
               const std::vector<HostTensor> &expected,
               const std::vector<HostTensor> &actual);

/// What compareCarried found: a mismatch of the exact outputs (or of an
/// output's count, type or shape), and the outputs after an inexact op
/// that missed their tolerance, each named in one line.
struct CarriedComparison {
  std::optional<Mismatch> mismatch;
  std::vector<std::string> unchecked;
};

/// compareOutputs with carried tolerances (sift-run), judged as the
/// harness judges a case: an output with a non-zero tolerance follows an
/// inexact op, and one that misses it is named unchecked, not a mismatch
/// (a device's math is not the reference's, and the tolerance does not
/// follow cancellation in later adds: x + sigmoid(x) near 0 was 8 ulp off
/// on the H200). Exact outputs, counts, types and shapes still mismatch.
CarriedComparison compareCarried(const std::vector<uint64_t> &tolerances,
                                 const std::vector<HostTensor> &expected,
                                 const std::vector<HostTensor> &actual);

/// The ulp tolerance of each output of `program`, in ulps of its element
/// type (0 = exact bits). Propagated along the ops: inputs, iota, integer ops,
/// `sitofp`, sort keys and top-k results are exact; a sort payload operand
/// ordered by exact keys keeps its tolerance; Sigmoid adds
/// `kSigmoidUlps`; other elementwise float ops and slices pass on the largest
/// tolerance of their operands; `extf` scales it to the wider type's ulps and
/// `truncf` to the narrower one's (plus one for the rounding).
std::vector<uint64_t> outputTolerances(const gen::Program &program);

/// One element of `type` at `element`, for messages: integers in decimal;
/// floats as the shortest decimal that reads back to the same value ("-0.0",
/// "1.5", "inf", "nan") followed by their bits ("-0.0 (0x8000)").
std::string formatValue(ElementType type, const uint8_t *element);

} // namespace sift::oracle
