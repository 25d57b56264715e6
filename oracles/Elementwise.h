//===- oracles/Elementwise.h - Reference semantics of elementwise ops -----===//
//
// The scalar functions behind `gen::OpKind::Elementwise`, one element at a
// time on raw bits, exactly as the comments on `gen::EwKind` define them:
// float ops rounded to the element type after every step (f16 computed in f32
// and rounded to f16 per step), integer ops wrapping, casts rounding to
// nearest even. Part of the reference evaluator (`oracles/Reference.h`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sift::oracle {

/// Extra ulps (in the result element type) that an op's float result may be
/// off by on a device relative to the reference. Sigmoid goes through `exp`,
/// which devices implement with their own accuracy; every other op is
/// correctly rounded (or exact) in IEEE arithmetic.
inline constexpr uint64_t kSigmoidUlps = 4;

/// Checks the operand and result types of an elementwise op of kind `kind`
/// (operand count, float/integer kinds, identical types for arithmetic, the
/// legal source/destination pairs of casts, equal shapes). Returns "" when
/// they fit, else what is wrong.
std::string checkElementwiseTypes(gen::EwKind kind,
                                  const std::vector<gen::TensorType> &operands,
                                  const gen::TensorType &result);

/// One element of an elementwise op: `a` (and `b` for binary ops) are raw
/// bits of elements of `operandType`, the result is raw bits of `resultType`.
/// `op` supplies the kind and constants. Types must satisfy
/// `checkElementwiseTypes`.
uint64_t applyElementwise(const gen::Op &op, ElementType operandType,
                          ElementType resultType, uint64_t a, uint64_t b);

/// Applies an elementwise op to whole tensors (identical shapes, types that
/// satisfy `checkElementwiseTypes`) into a new tensor of `resultType`.
HostTensor applyElementwise(const gen::Op &op,
                            const std::vector<const HostTensor *> &operands,
                            const gen::TensorType &resultType);

} // namespace sift::oracle
