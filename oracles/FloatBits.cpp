//===- oracles/FloatBits.cpp - IEEE helpers for the reference -------------===//
//
// Total order and ulp distances over raw element bits (binary16 and
// bfloat16 conversion is support/Half.h).
//
//===----------------------------------------------------------------------===//
#include "oracles/FloatBits.h"

#include <cassert>

namespace sift::oracle {

//===----------------------------------------------------------------------===//
// Raw element bits
//===----------------------------------------------------------------------===//

uint64_t loadBits(ElementType type, const uint8_t *element) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16: {
    uint16_t v;
    std::memcpy(&v, element, 2);
    return v;
  }
  case ElementType::I32:
  case ElementType::F32: {
    uint32_t v;
    std::memcpy(&v, element, 4);
    return v;
  }
  case ElementType::I64:
  case ElementType::F64: {
    uint64_t v;
    std::memcpy(&v, element, 8);
    return v;
  }
  }
  return 0;
}

void storeBits(ElementType type, uint8_t *element, uint64_t bits) {
  switch (type) {
  case ElementType::F16:
  case ElementType::BF16: {
    uint16_t v = uint16_t(bits);
    std::memcpy(element, &v, 2);
    return;
  }
  case ElementType::I32:
  case ElementType::F32: {
    uint32_t v = uint32_t(bits);
    std::memcpy(element, &v, 4);
    return;
  }
  case ElementType::I64:
  case ElementType::F64:
    std::memcpy(element, &bits, 8);
    return;
  }
}

bool isNaNBits(ElementType type, uint64_t bits) {
  switch (type) {
  case ElementType::I32:
  case ElementType::I64:
    return false;
  case ElementType::F16:
    return isHalfNaN(uint16_t(bits));
  case ElementType::BF16:
    return isBfloat16NaN(uint16_t(bits));
  case ElementType::F32:
    return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0;
  case ElementType::F64:
    return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull &&
           (bits & 0xfffffffffffffull) != 0;
  }
  return false;
}

int64_t signedValue(ElementType type, uint64_t bits) {
  assert(!isFloat(type) && "signedValue of a float element");
  if (type == ElementType::I32)
    return int64_t(int32_t(uint32_t(bits)));
  return int64_t(bits);
}

double floatValue(ElementType type, uint64_t bits) {
  switch (type) {
  case ElementType::F16:
    return halfToDouble(uint16_t(bits));
  case ElementType::BF16:
    return bfloat16ToDouble(uint16_t(bits));
  case ElementType::F32:
    return double(bitCast<float>(uint32_t(bits)));
  case ElementType::F64:
    return bitCast<double>(bits);
  case ElementType::I32:
  case ElementType::I64:
    break;
  }
  assert(false && "floatValue of an integer element");
  return 0.0;
}

int mantissaBits(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return 10;
  case ElementType::BF16:
    return 7;
  case ElementType::F32:
    return 23;
  case ElementType::F64:
    return 52;
  case ElementType::I32:
  case ElementType::I64:
    return 0;
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Total order and distances
//===----------------------------------------------------------------------===//

bool totalLess(ElementType type, uint64_t a, uint64_t b) {
  switch (type) {
  case ElementType::I32:
    return int32_t(uint32_t(a)) < int32_t(uint32_t(b));
  case ElementType::I64:
    return int64_t(a) < int64_t(b);
  case ElementType::F16:
    return totalLess(halfToFloat(uint16_t(a)), halfToFloat(uint16_t(b)));
  case ElementType::BF16:
    return totalLess(bfloat16ToFloat(uint16_t(a)), bfloat16ToFloat(uint16_t(b)));
  case ElementType::F32:
    return totalLess(bitCast<float>(uint32_t(a)), bitCast<float>(uint32_t(b)));
  case ElementType::F64:
    return totalLess(bitCast<double>(a), bitCast<double>(b));
  }
  return false;
}

uint64_t ulpDistance(ElementType type, uint64_t a, uint64_t b) {
  int64_t ka, kb;
  if (isFloat(type)) {
    bool nanA = isNaNBits(type, a), nanB = isNaNBits(type, b);
    if (nanA || nanB)
      return nanA && nanB ? 0 : UINT64_MAX;
    int width = int(byteWidth(type)) * 8;
    uint64_t signMask = uint64_t(1) << (width - 1);
    // Sign-magnitude to a monotonic integer line on which -0 and +0 meet.
    auto key = [&](uint64_t bits) {
      int64_t magnitude = int64_t(bits & (signMask - 1));
      return (bits & signMask) ? -magnitude : magnitude;
    };
    ka = key(a);
    kb = key(b);
  } else {
    ka = signedValue(type, a);
    kb = signedValue(type, b);
  }
  // The true difference is below 2^64, so unsigned wraparound gives it.
  return ka >= kb ? uint64_t(ka) - uint64_t(kb) : uint64_t(kb) - uint64_t(ka);
}

} // namespace sift::oracle
