//===- CompilerTestUtil.h - Helpers of the compiler unit tests --*- C++ -*-===//
//
// What the compiler unit tests share: a self-removing temporary directory,
// whole-file read and write, tensors built from value lists (floats given by
// value or by bit pattern, so NaN payloads and -0.0 are exact), and a view of
// a tensor's elements as integers or raw bits for exact comparisons.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/HostTensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace sift::test {

/// f32 bit patterns the tests build inputs from.
constexpr uint32_t kPosZero = 0x00000000, kNegZero = 0x80000000;
constexpr uint32_t kOne = 0x3f800000, kTwo = 0x40000000, kThree = 0x40400000;
constexpr uint32_t kMinusOne = 0xbf800000, kMinusTwo = 0xc0000000;
constexpr uint32_t kInf = 0x7f800000, kNegInf = 0xff800000;
constexpr uint32_t kNaN = 0x7fc00000;
constexpr uint32_t kNaNPayload = 0x7fc00123; ///< quiet NaN with a payload
constexpr uint32_t kNegNaN = 0xffc00000;     ///< quiet NaN, sign bit set

/// A fresh directory under $TMPDIR (or /tmp), removed with its contents when
/// the object dies.
class TempDir {
public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base && *base ? base : "/tmp") + "/sift-compiler-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (char *made = ::mkdtemp(buffer.data()))
      path_ = made;
    else
      ADD_FAILURE() << "mkdtemp failed for " << pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty())
      std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  /// path() + "/" + name.
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

/// Writes `text` to `path` (replacing it); fails the test on error.
inline void writeTextFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(out) << "cannot create " << path;
  out << text;
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

/// The whole file at `path` ("" when it cannot be read).
inline std::string readTextFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

/// An f32 tensor from bit patterns.
inline HostTensor f32Bits(std::vector<int64_t> shape,
                          const std::vector<uint32_t> &bits) {
  HostTensor t(ElementType::F32, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numElements()), bits.size());
  for (size_t i = 0; i < bits.size(); ++i)
    t.set<uint32_t>(static_cast<int64_t>(i), bits[i]);
  return t;
}

/// An integer tensor of `type` (i32 or i64) from values.
inline HostTensor intTensor(ElementType type, std::vector<int64_t> shape,
                            const std::vector<int64_t> &values) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numElements()), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == ElementType::I32)
      t.set<int32_t>(static_cast<int64_t>(i), static_cast<int32_t>(values[i]));
    else
      t.set<int64_t>(static_cast<int64_t>(i), values[i]);
  }
  return t;
}

/// The bit pattern of a float.
inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// The elements of an f32 tensor as bit patterns.
inline std::vector<uint32_t> f32BitsOf(const HostTensor &t) {
  std::vector<uint32_t> bits;
  for (int64_t i = 0; i < t.numElements(); ++i)
    bits.push_back(t.get<uint32_t>(i));
  return bits;
}

/// The elements of an i32 or i64 tensor as int64.
inline std::vector<int64_t> intsOf(const HostTensor &t) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < t.numElements(); ++i)
    values.push_back(t.type == ElementType::I32 ? t.get<int32_t>(i)
                                                : t.get<int64_t>(i));
  return values;
}

} // namespace sift::test
