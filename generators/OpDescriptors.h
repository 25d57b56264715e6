//===- generators/OpDescriptors.h - Typed table of elementwise ops --------===//
//
// One descriptor per `EwKind`: its arity, the operand element types it
// accepts, how its result element type follows from the operand type, and
// whether it carries a constant. In the spirit of LLVM FuzzMutate's
// OpDescriptor: generators choose ops from this table (weighted by the
// Policy) so that every choice is type-correct by construction, and
// `validate()` checks programs against the same table, so the two cannot
// disagree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sift::gen {

/// A set of element types, one bit per `ElementType` enumerator.
using TypeMask = uint8_t;

/// The mask holding only `type`.
constexpr TypeMask maskOf(ElementType type) {
  return static_cast<TypeMask>(1u << static_cast<unsigned>(type));
}
inline constexpr TypeMask kFloatTypes =
    maskOf(ElementType::F16) | maskOf(ElementType::BF16) |
    maskOf(ElementType::F32) | maskOf(ElementType::F64);
inline constexpr TypeMask kIntTypes =
    maskOf(ElementType::I32) | maskOf(ElementType::I64);
inline constexpr TypeMask kAnyType = kFloatTypes | kIntTypes;

/// True when `mask` holds `type`.
constexpr bool contains(TypeMask mask, ElementType type) {
  return (mask & maskOf(type)) != 0;
}

/// How the result element type of an elementwise op relates to its operand's.
enum class ResultRule {
  Same,          ///< the operand type
  WiderFloat,    ///< a strictly wider float (extf)
  NarrowerFloat, ///< a strictly narrower float (truncf); bf16 only from f32
  AnyFloat,      ///< any float but bf16 (sitofp)
  WiderInt,      ///< a strictly wider integer (extsi)
  NarrowerInt,   ///< a strictly narrower integer (trunci)
};

/// What the generators and the validator know about one elementwise op.
struct EwDescriptor {
  EwKind kind;
  unsigned arity;        ///< 1 or 2 tensor operands (of identical type)
  TypeMask operandTypes; ///< accepted operand element types
  ResultRule result;
  bool hasConstant; ///< uses Op::constant / Op::intConstant
  /// True when every device must compute the same bits (IEEE correctly
  /// rounded, or integer). False for ops built on transcendental functions
  /// (sigmoid's exp), whose last bits differ between libraries.
  bool exact;
  unsigned defaultWeight; ///< the Policy's default weight
};

/// Every elementwise kind, in enum order.
inline constexpr EwKind kAllEwKinds[] = {
    EwKind::NegF,      EwKind::AbsF,     EwKind::Sigmoid,   EwKind::AddConstF,
    EwKind::MulConstF, EwKind::AddF,     EwKind::SubF,      EwKind::MulF,
    EwKind::MaximumF,  EwKind::MinimumF, EwKind::AddConstI, EwKind::MulConstI,
    EwKind::AddI,      EwKind::SubI,     EwKind::MulI,      EwKind::XOrI,
    EwKind::MaxSI,     EwKind::MinSI,    EwKind::ExtF,      EwKind::TruncF,
    EwKind::SIToFP,    EwKind::ExtSI,    EwKind::TruncI};
inline constexpr size_t kNumEwKinds = sizeof(kAllEwKinds) / sizeof(EwKind);

/// The descriptor of `kind`.
const EwDescriptor &descriptorOf(EwKind kind);

/// True when `kind` accepts operands of `operand` and may produce `result`.
bool isValidEwTyping(EwKind kind, ElementType operand, ElementType result);

/// The result element types `kind` may produce from `operand`, in enum
/// order; empty when it does not accept `operand`.
std::vector<ElementType> resultTypesFor(EwKind kind, ElementType operand);

/// The operand element types from which `kind` may produce `result`, in enum
/// order.
std::vector<ElementType> operandTypesFor(EwKind kind, ElementType result);

/// Bit width of an element type's values (16, 32 or 64).
unsigned bitWidth(ElementType type);

} // namespace sift::gen
