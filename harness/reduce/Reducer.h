//===- Reducer.h - Delta debugging on the program model --------*- C++ -*-===//
//
// `harness reduce` shrinks a finding while its signature stays the same.
// This file is the model half: edits that each make a case smaller (fewer
// outputs, an op's result replaced by an input carrying the value the
// reference computed for it, an elementwise op bypassed, a sort operand
// dropped, an extent shrunk everywhere it occurs, a smaller k, a plainer
// element type, zeroed data), and a driver that tries them, coarse first,
// keeping every edit the caller's test calls interesting, until none is.
// An edit that leaves the model invalid is never offered to the test.
// The driver knows nothing of compilers: the test decides.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace sift::harness {

/// What the reducer shrinks: a program and its inputs.
struct ReductionCase {
  gen::Program program;
  std::vector<HostTensor> inputs;
};

/// The order the reducer descends: weight (gen::Program::weight, ops plus
/// the elements they produce), then how plain the element types are, then
/// how many input elements are non-zero. Every accepted edit lowers it.
struct CaseSize {
  int64_t weight = 0, typeCost = 0, dataCost = 0;
  bool operator<(const CaseSize &o) const {
    return std::tie(weight, typeCost, dataCost) <
           std::tie(o.weight, o.typeCost, o.dataCost);
  }
};
CaseSize caseSize(const ReductionCase &c);

/// The measure the goal is stated in: number of ops times the
/// elements of every value of the program.
int64_t opsTimesElements(const gen::Program &program);

//===----------------------------------------------------------------------===//
// Edits. Each returns nullopt when it does not apply or when the result
// fails gen::validate or the reference.
//===----------------------------------------------------------------------===//

/// Drops ops whose results are all unused and inputs nothing reads, and
/// numbers the values left densely (in their old order).
ReductionCase prune(ReductionCase c);

/// Keeps only `outputs` (value ids, a non-empty subset) as outputs.
std::optional<ReductionCase> keepOutputs(const ReductionCase &c,
                                         const std::vector<int> &outputs);

/// Replaces every use of each value in `values` (results of ops) by a new
/// function input holding the value the reference computes for it, so the
/// ops that fed only it disappear while the data downstream is unchanged.
std::optional<ReductionCase> cutValues(const ReductionCase &c,
                                       const std::vector<int> &values);

/// Replaces every use of `value` by `replacement`, a value of the same
/// type defined before it (an elementwise op's operand).
std::optional<ReductionCase> bypassValue(const ReductionCase &c, int value,
                                         int replacement);

/// Removes operand and result `index` (>= 1: the key stays) of the sort at
/// `opIndex`. Where that result was returned, the sorted key is returned
/// instead (unless it already is); its other uses are cut first.
std::optional<ReductionCase> dropSortOperand(const ReductionCase &c,
                                             size_t opIndex, size_t index);

/// Every dimension of extent `from` of an input, an iota or a slice becomes
/// `to` (< from); the types after them follow, slices and k are clamped to
/// fit, and input data is cropped to the new shapes.
std::optional<ReductionCase> shrinkExtent(const ReductionCase &c, int64_t from,
                                          int64_t to);

/// Sets k of the top-k at `opIndex` (types after it follow).
std::optional<ReductionCase> setTopK(const ReductionCase &c, size_t opIndex,
                                     int64_t k);

/// Every input, iota and cast result of element type `from` gets `to`; the
/// types after them follow, casts that became identities are bypassed, and
/// input data is converted (rounded or truncated).
std::optional<ReductionCase> retype(const ReductionCase &c, ElementType from,
                                    ElementType to);

/// Input `index` becomes all zeros.
std::optional<ReductionCase> zeroInput(const ReductionCase &c, size_t index);

//===----------------------------------------------------------------------===//
// The driver.
//===----------------------------------------------------------------------===//

/// True when a candidate still shows the behaviour being reduced.
using InterestingFn = std::function<bool(const ReductionCase &)>;
/// Told each accepted edit: what it did and the case after it.
using AcceptedFn =
    std::function<void(const std::string &edit, const ReductionCase &)>;

struct ReductionStats {
  int tests = 0;    ///< candidates given to the test
  int accepted = 0; ///< of them, interesting (and kept)
};

/// Reduces `start` (which must itself be interesting) to a case no single
/// edit makes smaller while interesting. Deterministic: the same start and
/// test give the same result.
ReductionCase reduce(ReductionCase start, const InterestingFn &interesting,
                     const AcceptedFn &onAccepted, ReductionStats &stats);

} // namespace sift::harness
