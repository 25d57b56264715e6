//===- runtime/emu/LargeMemory.h - Big arrays on large pages ---*- C++ -*-===//
//
// The emu device's fiber stacks and shadow arrays are tens of MiB touched
// at scattered places: every fiber switch lands on another stack, every
// checked access on another shadow element, and with 4 KiB pages many of
// them miss the TLB (in a virtual machine a miss walks two page tables).
// These blocks ask the OS for 2 MiB pages where it has them (Linux's
// transparent huge pages, on request) and fall back to plain pages
// elsewhere. Measured on the 20 slowest emu artifacts of a campaign
// (2-core KVM guest): 3% of the run time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace sift::emu {

/// `bytes` of zeroed memory, on large pages where the OS gives them.
class LargeBlock {
public:
  LargeBlock() = default;
  explicit LargeBlock(size_t bytes);
  ~LargeBlock();
  LargeBlock(LargeBlock &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        bytes_(std::exchange(other.bytes_, 0)) {}
  LargeBlock &operator=(LargeBlock &&other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }

  char *data() const { return static_cast<char *>(data_); }
  size_t size() const { return bytes_; }

private:
  void *data_ = nullptr;
  size_t bytes_ = 0;
};

/// A growable array of a trivially copyable `T` in a LargeBlock. New
/// elements are zero bytes, not constructed: T must give all-zero bytes a
/// meaning (the shadow entries: generation 0, never the live one).
template <typename T> class LargeArray {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  size_t size() const { return size_; }
  T &operator[](size_t i) { return reinterpret_cast<T *>(block_.data())[i]; }

  /// At least `n` elements; those kept keep their values.
  void grow(size_t n) {
    if (n <= size_)
      return;
    if (n * sizeof(T) > block_.size()) {
      LargeBlock bigger(std::max(n, 2 * size_) * sizeof(T));
      if (size_ > 0)
        std::memcpy(bigger.data(), block_.data(), size_ * sizeof(T));
      block_ = std::move(bigger);
    }
    size_ = n;
  }

private:
  LargeBlock block_;
  size_t size_ = 0;
};

} // namespace sift::emu
