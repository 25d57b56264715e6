//===- oracles/KeyOrder.h - The order a sort puts its keys in ---*- C++ -*-===//
//
// A sort's named order or comparator region as `less(a, b)` over raw key
// bits, exactly as the program model's comments spell them: the reference
// sorts with it, and the comparison policy uses it to find equal keys.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "oracles/FloatBits.h"

#include <cmath>
#include <string>

namespace sift::oracle {

/// The strict weak order that sorts keys of one element type: a named order
/// or one of the model's comparator regions, as `less(a, b)` over raw bits.
class KeyOrder {
public:
  KeyOrder(ElementType type, gen::SortOrder order,
           gen::ComparatorKind comparator)
      : type_(type), order_(order), comparator_(comparator) {}

  /// "" when the comparator is defined for the key type, else why not.
  std::string check() const {
    if (order_ != gen::SortOrder::Comparator)
      return "";
    bool needsFloat = comparator_ == gen::ComparatorKind::LessAbs;
    bool needsInt = comparator_ == gen::ComparatorKind::LessLowByte;
    if ((needsFloat && !isFloat(type_)) || (needsInt && isFloat(type_)))
      return "comparator " + std::string(gen::toString(comparator_)) +
             " is not defined for key type " + std::string(toString(type_));
    return "";
  }

  bool operator()(uint64_t a, uint64_t b) const {
    switch (order_) {
    case gen::SortOrder::Ascending:
      return totalLess(type_, a, b);
    case gen::SortOrder::Descending:
      return totalLess(type_, b, a);
    case gen::SortOrder::Comparator:
      break;
    }
    // The comparator regions, exactly as the model's comments spell them.
    if (isFloat(type_)) {
      double x = floatValue(type_, a), y = floatValue(type_, b);
      bool nanX = std::isnan(x), nanY = std::isnan(y);
      switch (comparator_) {
      case gen::ComparatorKind::Less:
        return (!nanX && nanY) || x < y;
      case gen::ComparatorKind::Greater:
        return (nanX && !nanY) || x > y;
      case gen::ComparatorKind::LessAbs:
        return (!nanX && nanY) || std::fabs(x) < std::fabs(y);
      case gen::ComparatorKind::LessLowByte:
        return false; // Rejected by check().
      }
      return false;
    }
    int64_t x = signedValue(type_, a), y = signedValue(type_, b);
    switch (comparator_) {
    case gen::ComparatorKind::Less:
      return x < y;
    case gen::ComparatorKind::Greater:
      return x > y;
    case gen::ComparatorKind::LessLowByte:
      return (x & 255) < (y & 255);
    case gen::ComparatorKind::LessAbs:
      return false; // Rejected by check().
    }
    return false;
  }

private:
  ElementType type_;
  gen::SortOrder order_;
  gen::ComparatorKind comparator_;
};

/// Whether `a` and `b` are equal under `less` (neither precedes the other).
template <typename Less> bool equivalent(const Less &less, uint64_t a, uint64_t b) {
  return !less(a, b) && !less(b, a);
}

} // namespace sift::oracle
