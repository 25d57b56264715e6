//===- generators/Half.cpp - Constants exact in an element type -----------===//
#include "generators/Half.h"

#include <cmath>
#include <cstring>

namespace sift::gen {

bool isExactFloat(double value, ElementType type) {
  if (!std::isfinite(value))
    return false;
  switch (type) {
  case ElementType::F16:
    return halfToDouble(doubleToHalf(value)) == value &&
           std::signbit(halfToDouble(doubleToHalf(value))) ==
               std::signbit(value);
  case ElementType::BF16:
    return bfloat16ToDouble(doubleToBfloat16(value)) == value &&
           std::signbit(bfloat16ToDouble(doubleToBfloat16(value))) ==
               std::signbit(value);
  case ElementType::F32:
    return std::fabs(value) <= 3.4028234663852886e38 &&
           static_cast<double>(static_cast<float>(value)) == value;
  case ElementType::F64: return true;
  case ElementType::I32:
  case ElementType::I64: return false;
  }
  return false;
}

} // namespace sift::gen
