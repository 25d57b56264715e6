//===- generators/OpDescriptors.cpp - Typed table of elementwise ops ------===//
//
// The table itself and the typing queries over it.
//
//===----------------------------------------------------------------------===//
#include "generators/OpDescriptors.h"

#include <cassert>

namespace sift::gen {

namespace {
/// Indexed by EwKind; the order must match the enum (checked in
/// descriptorOf()).
constexpr EwDescriptor kTable[] = {
    {EwKind::NegF, 1, kFloatTypes, ResultRule::Same, false, true, 3},
    {EwKind::AbsF, 1, kFloatTypes, ResultRule::Same, false, true, 3},
    {EwKind::Sigmoid, 1, kFloatTypes, ResultRule::Same, false, false, 2},
    {EwKind::AddConstF, 1, kFloatTypes, ResultRule::Same, true, true, 3},
    {EwKind::MulConstF, 1, kFloatTypes, ResultRule::Same, true, true, 3},
    {EwKind::AddF, 2, kFloatTypes, ResultRule::Same, false, true, 3},
    {EwKind::SubF, 2, kFloatTypes, ResultRule::Same, false, true, 2},
    {EwKind::MulF, 2, kFloatTypes, ResultRule::Same, false, true, 2},
    {EwKind::MaximumF, 2, kFloatTypes, ResultRule::Same, false, true, 2},
    {EwKind::MinimumF, 2, kFloatTypes, ResultRule::Same, false, true, 2},
    {EwKind::AddConstI, 1, kIntTypes, ResultRule::Same, true, true, 3},
    {EwKind::MulConstI, 1, kIntTypes, ResultRule::Same, true, true, 2},
    {EwKind::AddI, 2, kIntTypes, ResultRule::Same, false, true, 3},
    {EwKind::SubI, 2, kIntTypes, ResultRule::Same, false, true, 2},
    {EwKind::MulI, 2, kIntTypes, ResultRule::Same, false, true, 2},
    {EwKind::XOrI, 2, kIntTypes, ResultRule::Same, false, true, 2},
    {EwKind::MaxSI, 2, kIntTypes, ResultRule::Same, false, true, 2},
    {EwKind::MinSI, 2, kIntTypes, ResultRule::Same, false, true, 2},
    {EwKind::ExtF, 1,
     maskOf(ElementType::F16) | maskOf(ElementType::BF16) |
         maskOf(ElementType::F32),
     ResultRule::WiderFloat, false, true, 2},
    {EwKind::TruncF, 1, maskOf(ElementType::F32) | maskOf(ElementType::F64),
     ResultRule::NarrowerFloat, false, true, 2},
    {EwKind::SIToFP, 1, kIntTypes, ResultRule::AnyFloat, false, true, 2},
    {EwKind::ExtSI, 1, maskOf(ElementType::I32), ResultRule::WiderInt, false,
     true, 2},
    {EwKind::TruncI, 1, maskOf(ElementType::I64), ResultRule::NarrowerInt,
     false, true, 2},
};
static_assert(sizeof(kTable) / sizeof(kTable[0]) == kNumEwKinds,
              "one descriptor per EwKind");
} // namespace

const EwDescriptor &descriptorOf(EwKind kind) {
  const EwDescriptor &d = kTable[static_cast<size_t>(kind)];
  assert(d.kind == kind && "descriptor table out of enum order");
  return d;
}

unsigned bitWidth(ElementType type) {
  return static_cast<unsigned>(byteWidth(type)) * 8;
}

bool isValidEwTyping(EwKind kind, ElementType operand, ElementType result) {
  if (static_cast<size_t>(kind) >= kNumEwKinds)
    return false;
  const EwDescriptor &d = descriptorOf(kind);
  if (!contains(d.operandTypes, operand))
    return false;
  switch (d.result) {
  case ResultRule::Same: return result == operand;
  case ResultRule::WiderFloat:
    return isFloat(result) && bitWidth(result) > bitWidth(operand);
  case ResultRule::NarrowerFloat:
    // f64 -> bf16 is left out: LLVM's host and GPU back ends may round it
    // twice (through f32), where the reference rounds once.
    return isFloat(result) && bitWidth(result) < bitWidth(operand) &&
           !(operand == ElementType::F64 && result == ElementType::BF16);
  case ResultRule::AnyFloat:
    // Integer -> bf16 is left out for the same reason (through f32).
    return isFloat(result) && result != ElementType::BF16;
  case ResultRule::WiderInt:
    return !isFloat(result) && bitWidth(result) > bitWidth(operand);
  case ResultRule::NarrowerInt:
    return !isFloat(result) && bitWidth(result) < bitWidth(operand);
  }
  return false;
}

std::vector<ElementType> resultTypesFor(EwKind kind, ElementType operand) {
  std::vector<ElementType> types;
  for (ElementType t : kAllElementTypes)
    if (isValidEwTyping(kind, operand, t))
      types.push_back(t);
  return types;
}

std::vector<ElementType> operandTypesFor(EwKind kind, ElementType result) {
  std::vector<ElementType> types;
  for (ElementType t : kAllElementTypes)
    if (isValidEwTyping(kind, t, result))
      types.push_back(t);
  return types;
}

} // namespace sift::gen
