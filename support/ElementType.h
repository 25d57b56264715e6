//===- support/ElementType.h - Element types shared by all layers -===//
//
// The element types sift programs, tensors, artifacts and `.npy` files use.
// One enum with one function to and from the stable names ("f32", ...) that
// appear in MLIR types, plans and reports.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sift {

/// Element types. Integers are signless in MLIR and compared as signed.
/// BF16 (bfloat16: f32's sign and exponent, 7 mantissa bits) comes last so
/// the older types keep their places in weight arrays.
enum class ElementType : uint8_t { I32, I64, F16, F32, F64, BF16 };

/// Every element type, in enum order.
inline constexpr ElementType kAllElementTypes[] = {
    ElementType::I32, ElementType::I64, ElementType::F16, ElementType::F32,
    ElementType::F64, ElementType::BF16};

/// The stable name: "i32", "i64", "f16", "f32", "f64", "bf16".
constexpr std::string_view toString(ElementType type) {
  switch (type) {
  case ElementType::I32: return "i32";
  case ElementType::I64: return "i64";
  case ElementType::F16: return "f16";
  case ElementType::F32: return "f32";
  case ElementType::F64: return "f64";
  case ElementType::BF16: return "bf16";
  }
  return "?";
}

/// Parses a stable name; nullopt when it names no element type.
inline std::optional<ElementType> parseElementType(std::string_view name) {
  for (ElementType type : kAllElementTypes)
    if (toString(type) == name)
      return type;
  return std::nullopt;
}

/// Bytes per element.
constexpr size_t byteWidth(ElementType type) {
  switch (type) {
  case ElementType::I32: return 4;
  case ElementType::I64: return 8;
  case ElementType::F16: return 2;
  case ElementType::F32: return 4;
  case ElementType::F64: return 8;
  case ElementType::BF16: return 2;
  }
  return 0;
}

/// True for f16, bf16, f32 and f64.
constexpr bool isFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16 ||
         type == ElementType::F32 || type == ElementType::F64;
}

/// True for the 16-bit floats (f16, bf16), stored as bit patterns and
/// computed in f32.
constexpr bool isHalfFloat(ElementType type) {
  return type == ElementType::F16 || type == ElementType::BF16;
}

} // namespace sift
