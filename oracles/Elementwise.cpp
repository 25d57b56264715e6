//===- oracles/Elementwise.cpp - Reference semantics of elementwise ops ---===//
//
// Scalar elementwise semantics on raw bits. Float arithmetic runs in the
// host's IEEE single or double precision (never `_Float16`, never fused):
// f16 operands are widened exactly to f32, each step runs in f32 and is
// rounded back to f16 with the oracle's own conversion before the next.
//
//===----------------------------------------------------------------------===//
#include "oracles/Elementwise.h"

#include "oracles/FloatBits.h"

#include <cmath>
#include <type_traits>

namespace sift::oracle {

using gen::EwKind;
using gen::TensorType;

namespace {

enum class Category { FloatUnary, FloatBinary, IntUnary, IntBinary, Cast };

Category categoryOf(EwKind kind) {
  switch (kind) {
  case EwKind::NegF:
  case EwKind::AbsF:
  case EwKind::Sigmoid:
  case EwKind::AddConstF:
  case EwKind::MulConstF:
    return Category::FloatUnary;
  case EwKind::AddF:
  case EwKind::SubF:
  case EwKind::MulF:
  case EwKind::MaximumF:
  case EwKind::MinimumF:
    return Category::FloatBinary;
  case EwKind::AddConstI:
  case EwKind::MulConstI:
    return Category::IntUnary;
  case EwKind::AddI:
  case EwKind::SubI:
  case EwKind::MulI:
  case EwKind::XOrI:
  case EwKind::MaxSI:
  case EwKind::MinSI:
    return Category::IntBinary;
  case EwKind::ExtF:
  case EwKind::TruncF:
  case EwKind::SIToFP:
  case EwKind::ExtSI:
  case EwKind::TruncI:
    return Category::Cast;
  }
  return Category::Cast;
}

uint64_t signMask(ElementType type) {
  return uint64_t(1) << (byteWidth(type) * 8 - 1);
}

/// Float arithmetic in compute type C (float for f16 and f32, double for
/// f64), with loads that widen exactly and stores that round to `type`.
template <typename C> struct FloatArith {
  ElementType type;

  C load(uint64_t bits) const {
    if constexpr (std::is_same_v<C, float>) {
      if (type == ElementType::F16)
        return halfToFloat(uint16_t(bits));
      if (type == ElementType::BF16)
        return bfloat16ToFloat(uint16_t(bits));
      return bitCast<float>(uint32_t(bits));
    } else {
      return bitCast<double>(bits);
    }
  }
  uint64_t store(C value) const {
    if constexpr (std::is_same_v<C, float>) {
      if (type == ElementType::F16)
        return floatToHalf(value);
      if (type == ElementType::BF16)
        return floatToBfloat16(value);
      return bitCast<uint32_t>(value);
    } else {
      return bitCast<uint64_t>(value);
    }
  }
  /// Rounds an intermediate to the element type (a no-op unless f16 or
  /// bf16).
  C round(C value) const { return load(store(value)); }

  uint64_t apply(const gen::Op &op, uint64_t a, uint64_t b) const {
    switch (op.ew) {
    case EwKind::NegF:
      return a ^ signMask(type);
    case EwKind::AbsF:
      return a & ~signMask(type);
    case EwKind::Sigmoid: {
      // 1 / (1 + exp(-x)), rounded after each step; std::exp on a float is
      // expf, on a double exp.
      C negated = -load(a);
      C e = round(std::exp(negated));
      C denominator = round(C(1) + e);
      return store(C(1) / denominator);
    }
    case EwKind::AddConstF:
      return store(load(a) + static_cast<C>(op.constant));
    case EwKind::MulConstF:
      return store(load(a) * static_cast<C>(op.constant));
    case EwKind::AddF:
      return store(load(a) + load(b));
    case EwKind::SubF:
      return store(load(a) - load(b));
    case EwKind::MulF:
      return store(load(a) * load(b));
    case EwKind::MaximumF:
    case EwKind::MinimumF: {
      // arith.maximumf / minimumf: NaN if either is NaN; -0 < +0. The result
      // is one of the operands, so its bits are returned unchanged.
      C x = load(a), y = load(b);
      if (x != x)
        return a;
      if (y != y)
        return b;
      bool maximum = op.ew == EwKind::MaximumF;
      if (x == y) // Equal values differ at most in the sign of a zero.
        return (std::signbit(x) == maximum) ? b : a;
      return ((x > y) == maximum) ? a : b;
    }
    default:
      return 0; // Not a float arithmetic op (types were checked).
    }
  }
};

template <typename U> uint64_t applyInteger(const gen::Op &op, U a, U b) {
  using S = std::make_signed_t<U>;
  switch (op.ew) {
  case EwKind::AddConstI:
    return U(a + U(op.intConstant));
  case EwKind::MulConstI:
    return U(a * U(op.intConstant));
  case EwKind::AddI:
    return U(a + b);
  case EwKind::SubI:
    return U(a - b);
  case EwKind::MulI:
    return U(a * b);
  case EwKind::XOrI:
    return U(a ^ b);
  case EwKind::MaxSI:
    return S(a) > S(b) ? a : b;
  case EwKind::MinSI:
    return S(a) < S(b) ? a : b;
  default:
    return 0; // Not an integer arithmetic op (types were checked).
  }
}

/// Rounds `value` to float type `type` once, to nearest even.
uint64_t encodeFloat(ElementType type, double value) {
  switch (type) {
  case ElementType::F16:
    return doubleToHalf(value);
  case ElementType::BF16:
    return doubleToBfloat16(value);
  case ElementType::F32:
    return bitCast<uint32_t>(static_cast<float>(value));
  case ElementType::F64:
    return bitCast<uint64_t>(value);
  case ElementType::I32:
  case ElementType::I64:
    break;
  }
  return 0;
}

/// Converts a signed integer to float type `type`, rounding once to nearest
/// even. For f16, going through double is exact below 2^53 and gives
/// infinity either way above 65519.
uint64_t encodeFromInteger(ElementType type, int64_t value) {
  switch (type) {
  case ElementType::F16:
    return doubleToHalf(static_cast<double>(value));
  case ElementType::BF16:
    return doubleToBfloat16(static_cast<double>(value));
  case ElementType::F32:
    return bitCast<uint32_t>(static_cast<float>(value));
  case ElementType::F64:
    return bitCast<uint64_t>(static_cast<double>(value));
  case ElementType::I32:
  case ElementType::I64:
    break;
  }
  return 0;
}

std::string typeName(const TensorType &type) {
  return describe(type.elementType, type.shape);
}

} // namespace

std::string checkElementwiseTypes(EwKind kind,
                                  const std::vector<TensorType> &operands,
                                  const TensorType &result) {
  std::string name(gen::toString(kind));
  Category category = categoryOf(kind);
  size_t arity =
      category == Category::FloatBinary || category == Category::IntBinary ? 2
                                                                           : 1;
  if (operands.size() != arity)
    return name + " takes " + std::to_string(arity) + " operand(s), got " +
           std::to_string(operands.size());
  for (const TensorType &operand : operands)
    if (operand.shape != result.shape)
      return name + " operand " + typeName(operand) + " and result " +
             typeName(result) + " differ in shape";

  ElementType from = operands[0].elementType, to = result.elementType;
  auto sameTypes = [&]() -> std::string {
    for (const TensorType &operand : operands)
      if (operand.elementType != to)
        return name + " operand " + typeName(operand) + " and result " +
               typeName(result) + " differ in element type";
    return "";
  };
  switch (category) {
  case Category::FloatUnary:
  case Category::FloatBinary:
    if (!isFloat(to))
      return name + " needs a float element type, got " + typeName(result);
    return sameTypes();
  case Category::IntUnary:
  case Category::IntBinary:
    if (isFloat(to))
      return name + " needs an integer element type, got " + typeName(result);
    return sameTypes();
  case Category::Cast:
    break;
  }

  bool legal = false;
  switch (kind) {
  case EwKind::ExtF:
    legal =
        isFloat(from) && isFloat(to) && mantissaBits(from) < mantissaBits(to);
    break;
  case EwKind::TruncF:
    legal =
        isFloat(from) && isFloat(to) && mantissaBits(from) > mantissaBits(to);
    break;
  case EwKind::SIToFP:
    legal = !isFloat(from) && isFloat(to);
    break;
  case EwKind::ExtSI:
    legal = from == ElementType::I32 && to == ElementType::I64;
    break;
  case EwKind::TruncI:
    legal = from == ElementType::I64 && to == ElementType::I32;
    break;
  default:
    break;
  }
  if (!legal)
    return name + " cannot cast " + std::string(toString(from)) + " to " +
           std::string(toString(to));
  return "";
}

uint64_t applyElementwise(const gen::Op &op, ElementType operandType,
                          ElementType resultType, uint64_t a, uint64_t b) {
  switch (categoryOf(op.ew)) {
  case Category::FloatUnary:
  case Category::FloatBinary:
    if (operandType == ElementType::F64)
      return FloatArith<double>{operandType}.apply(op, a, b);
    return FloatArith<float>{operandType}.apply(op, a, b);
  case Category::IntUnary:
  case Category::IntBinary:
    if (operandType == ElementType::I32)
      return applyInteger<uint32_t>(op, uint32_t(a), uint32_t(b));
    return applyInteger<uint64_t>(op, a, b);
  case Category::Cast:
    break;
  }
  switch (op.ew) {
  case EwKind::ExtF:
  case EwKind::TruncF:
    return encodeFloat(resultType, floatValue(operandType, a));
  case EwKind::SIToFP:
    return encodeFromInteger(resultType, signedValue(operandType, a));
  case EwKind::ExtSI:
    return uint64_t(signedValue(operandType, a));
  case EwKind::TruncI:
    return a & 0xffffffffu;
  default:
    return 0;
  }
}

HostTensor applyElementwise(const gen::Op &op,
                            const std::vector<const HostTensor *> &operands,
                            const TensorType &resultType) {
  HostTensor result(resultType.elementType, resultType.shape);
  ElementType from = operands[0]->type, to = resultType.elementType;
  size_t fromWidth = byteWidth(from), toWidth = byteWidth(to);
  bool binary = operands.size() == 2;
  for (int64_t i = 0, e = result.numElements(); i < e; ++i) {
    uint64_t a = loadBits(from, operands[0]->data.data() + i * fromWidth);
    uint64_t b =
        binary ? loadBits(from, operands[1]->data.data() + i * fromWidth) : 0;
    storeBits(to, result.data.data() + i * toWidth,
              applyElementwise(op, from, to, a, b));
  }
  return result;
}

} // namespace sift::oracle
