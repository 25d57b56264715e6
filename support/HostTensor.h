//===- support/HostTensor.h - A dense tensor in host memory -------===//
//
// The plain value that moves between generators (input data), the reference,
// the runtime (buffers up and down) and `.npy` files: an element type, a
// static shape and row-major little-endian bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"
#include "support/Shape.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace sift {

/// A dense row-major tensor in host memory.
struct HostTensor {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; ///< numElements() * byteWidth(type) bytes.

  HostTensor() = default;
  HostTensor(ElementType type, std::vector<int64_t> shape)
      : type(type), shape(std::move(shape)) {
    data.assign(static_cast<size_t>(numElements()) * byteWidth(type), 0);
  }

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const { return elementCount(shape); }
  size_t byteSize() const { return data.size(); }

  /// Typed element access; T must match the element type's width.
  template <typename T> T get(int64_t flatIndex) const {
    T value;
    std::memcpy(&value, data.data() + flatIndex * sizeof(T), sizeof(T));
    return value;
  }
  template <typename T> void set(int64_t flatIndex, T value) {
    std::memcpy(data.data() + flatIndex * sizeof(T), &value, sizeof(T));
  }

  bool operator==(const HostTensor &other) const {
    return type == other.type && shape == other.shape && data == other.data;
  }
  bool operator!=(const HostTensor &other) const { return !(*this == other); }
};

/// "f32[4x8]"-style description for messages.
inline std::string describe(ElementType type, const std::vector<int64_t> &shape) {
  std::string s(toString(type));
  s += "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += "x";
    s += std::to_string(shape[i]);
  }
  s += "]";
  return s;
}
inline std::string describe(const HostTensor &t) { return describe(t.type, t.shape); }

} // namespace sift
