//===- EmuFloatKeysTest.cpp - Float keys' specials through the GPU kernels ===//
//
// sift's GPU kernels on the emu device (EmuPipelineFixture.h) over the
// float keys whose order bits are special: bf16 rows (narrow composites,
// ties from rounding, NaNs, infinities, magnitudes past f16's range), f32
// rows of zeros of both signs and NaN payloads (workgroup_row's bare-key
// sort and its fallback), and the k = 1 walk's float compare. Each test
// also plants the fault that forgets the keys' layout and expects it
// caught.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/EmuPipelineFixture.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

using namespace sift::emutest;

/// A float's place in SEMANTICS.md's total order, as a double: NaN above
/// +inf, -0 = +0.
double totalOrderRank(float v) {
  return std::isnan(v)   ? std::numeric_limits<double>::infinity()
         : std::isinf(v) ? (v > 0 ? 1e300 : -1e300)
                         : static_cast<double>(v == 0.0f ? 0.0f : v);
}

/// bf16 bits of `x`, rounded to nearest even.
uint16_t toBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

/// `n` bf16 keys rounded from randomFloats(n, seed) * 9 (ties from
/// rounding).
std::vector<uint16_t> randomBf16(size_t n, uint64_t seed) {
  std::vector<float> wide = randomFloats(n, seed);
  std::vector<uint16_t> keys(n);
  for (size_t e = 0; e < n; ++e)
    keys[e] = toBf16(wide[e] * 9.0f);
  return keys;
}

/// bf16 keys (an even number) packed two a float, as run() takes inputs.
std::vector<float> packedBf16(const std::vector<uint16_t> &keys) {
  std::vector<float> packed(keys.size() / 2);
  std::memcpy(packed.data(), keys.data(), keys.size() * 2);
  return packed;
}

TEST_F(EmuPipelineTest, Bf16TopkSelectsWithNarrowCompositesOnTheCpu) {
  // k = 8 of two bf16 rows of 5000 (i32 composites: 16 bits of order bits
  // over 16 of inverted position), with ties from rounding and zeros of
  // both signs (-0 = +0, the lower index first), under the default
  // (warp_select), warp_select of two warps over five chunks (a select and
  // a merge launch), register_select and radix_select's one-launch form
  // (8 + 3 key bits from its first pass, then 5, then the index digits
  // that break row 1's ties).
  constexpr int64_t kN = 5000;
  std::vector<uint16_t> keys = randomBf16(2 * kN, 11);
  // Row 1: zeros of both signs at the even positions, negative keys at the
  // odd ones: its top 8 are the zeros at 0, 2, ..., 14.
  for (int64_t e = 0; e < kN; ++e)
    keys[kN + e] = e % 2 ? toBf16(-1.0f - std::abs(fromBf16(keys[kN + e])))
                         : (e % 4 ? 0x8000 : 0x0000);
  std::vector<float> packed = packedBf16(keys);
  for (const std::string &config :
       {std::string(), selectConfig(64, "warp_select", 1024),
        selectConfig(128, "register_select", 4096),
        selectConfig(1024, "radix_select", 8192)}) {
    SCOPED_TRACE(config.empty() ? "the default" : config);
    std::vector<std::vector<char>> out;
    ASSERT_NO_FATAL_FAILURE(run(topkProgram(config, "bf16"),
                                sift::PipelineKind::Distribute, -1, {packed},
                                out));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(wrongTopkRanks([&](int64_t e) { return fromBf16(keys[e]); },
                             reinterpret_cast<const char *>(keys.data()), 2,
                             out),
              0);
  }
}

/// Elements of rows of `n` keys (bit patterns, `value` giving each one's
/// float) sorted ascending in the float total order (NaN last, -0 = +0,
/// stable) that differ from `out`: the bits, or any NaN for a NaN.
template <typename Bits>
int wrongSorted(const std::vector<Bits> &keys, int64_t n,
                const std::vector<char> &out, float (*value)(Bits)) {
  auto rank = [&](Bits h) { return totalOrderRank(value(h)); };
  int wrong = 0;
  for (size_t r = 0; r < keys.size(); r += n) {
    std::vector<Bits> row(keys.begin() + r, keys.begin() + r + n);
    std::stable_sort(row.begin(), row.end(),
                     [&](Bits a, Bits b) { return rank(a) < rank(b); });
    for (int64_t e = 0; e < n; ++e) {
      Bits got;
      std::memcpy(&got, out.data() + (r + e) * sizeof(Bits), sizeof(Bits));
      wrong +=
          std::isnan(value(row[e])) ? !std::isnan(value(got)) : got != row[e];
    }
  }
  return wrong;
}

int wrongSortedBf16(const std::vector<uint16_t> &keys, int64_t n,
                    const std::vector<char> &out) {
  return wrongSorted<uint16_t>(keys, n, out, fromBf16);
}

float fromF32Bits(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

TEST_F(EmuPipelineTest, Bf16SortSortsWithNarrowCompositesOnTheCpu) {
  // Four bf16 rows of 1024 (workgroup_row, i32 composites: 16 bits of order
  // bits over 16 of position): ties from rounding; zeros of both signs
  // among negative and positive keys (-0 = +0 keep their order); the
  // specials (NaN of both signs, both infinities, magnitudes above 2^121).
  constexpr int64_t kN = 1024;
  std::vector<uint16_t> keys = randomBf16(4 * kN, 12);
  for (int64_t e = 0; e < kN; e += 3)
    keys[kN + e] = e % 2 ? 0x8000 : 0x0000;
  const uint16_t specials[] = {0x7fc0, 0xffc1, 0x7f80, 0xff80,
                               0x7f00, 0xfef0, 0x7f7f, 0x0001};
  for (int64_t e = 0; e < kN; e += 7)
    keys[2 * kN + e] = specials[(e / 7) % 8];
  std::vector<float> packed = packedBf16(keys);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN, "bf16"),
                              sift::PipelineKind::Distribute, -1, {packed},
                              out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(wrongSortedBf16(keys, kN, out[0]), 0);
  // Fault bf16-order-f16-layout: the infinities and the magnitudes above
  // 2^121 order as NaN, after every number.
  out.clear();
  sift::FaultSet faults;
  faults.insert(sift::Fault::Bf16OrderF16Layout);
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN, "bf16"),
                              sift::PipelineKind::Distribute, -1, {packed}, out,
                              faults));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_GT(wrongSortedBf16(keys, kN, out[0]), 0);
}

TEST_F(EmuPipelineTest, BareF32SortTakesCompositesForZerosAndNansOnTheCpu) {
  // Four f32 rows of 1024 (a keys-only workgroup_row sort: bare order bits
  // unless the row holds a zero or a NaN). Row 0: ties, subnormals, both
  // infinities, no zero (bare); row 1: zeros of both signs among them; row
  // 2: NaNs of both signs and several payloads; row 3: bare again.
  constexpr int64_t kN = 1024;
  std::mt19937_64 rng(21);
  std::vector<uint32_t> keys(4 * kN);
  for (uint32_t &k : keys) {
    float v = static_cast<float>(static_cast<int64_t>(rng() % 400) + 1) / 8.0f;
    if (rng() % 2)
      v = -v;
    std::memcpy(&k, &v, 4);
  }
  const uint32_t specials[] = {0x7f800000, 0xff800000, 0x00000001,
                               0x80000003, 0x7f7fffff, 0xff7fffff};
  for (int64_t e = 0; e < kN; e += 11)
    keys[e] = keys[3 * kN + e] = specials[(e / 11) % 6];
  for (int64_t e = 0; e < kN; e += 5)
    keys[kN + e] = e % 2 ? 0x80000000 : 0x00000000;
  const uint32_t nans[] = {0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff};
  for (int64_t e = 0; e < kN; e += 9)
    keys[2 * kN + e] = nans[(e / 9) % 4];
  std::vector<float> packed(keys.size());
  std::memcpy(packed.data(), keys.data(), keys.size() * 4);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(run(
      sortProgram(4, kN), sift::PipelineKind::Distribute, -1, {packed}, out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(wrongSorted<uint32_t>(keys, kN, out[0], fromF32Bits), 0);
  // Fault bare-keys-unchecked: rows 1 and 2 sort bare too, so their -0s
  // come back as +0 (their NaNs as one NaN, which SEMANTICS.md allows);
  // rows 0 and 3 stay right.
  out.clear();
  sift::FaultSet faults;
  faults.insert(sift::Fault::BareKeysUnchecked);
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN),
                              sift::PipelineKind::Distribute, -1, {packed}, out,
                              faults));
  ASSERT_EQ(out.size(), 1u);
  std::vector<char> bare(out[0].begin(), out[0].begin() + kN * 4);
  std::vector<uint32_t> first(keys.begin(), keys.begin() + kN);
  EXPECT_EQ(wrongSorted<uint32_t>(first, kN, bare, fromF32Bits), 0);
  EXPECT_GT(wrongSorted<uint32_t>(keys, kN, out[0], fromF32Bits), 0);
  // i32 keys sort bare always, extremes included.
  std::vector<int32_t> ints(2 * kN);
  for (int32_t &x : ints)
    x = static_cast<int32_t>(rng() % 64) - 32;
  ints[3] = std::numeric_limits<int32_t>::max();
  ints[kN + 5] = std::numeric_limits<int32_t>::min();
  std::vector<float> packedInts(ints.size());
  std::memcpy(packedInts.data(), ints.data(), ints.size() * 4);
  out.clear();
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(2, kN, "i32"),
                              sift::PipelineKind::Distribute, -1, {packedInts},
                              out));
  ASSERT_EQ(out.size(), 1u);
  std::vector<int32_t> sortedInts = ints;
  for (int64_t r = 0; r < 2; ++r)
    std::sort(sortedInts.begin() + r * kN, sortedInts.begin() + (r + 1) * kN);
  std::vector<int32_t> gotInts(ints.size());
  std::memcpy(gotInts.data(), out[0].data(), ints.size() * 4);
  EXPECT_EQ(gotInts, sortedInts);
}

/// A k = 1 top-k of `rows` rows of `n` keys of `type` (largest or
/// smallest), returning its values and indices.
std::string argmaxProgram(const std::string &type, int64_t rows, int64_t n,
                          bool largest) {
  std::string shape = std::to_string(rows) + "x";
  std::string in = "tensor<" + shape + std::to_string(n) + "x" + type + ">",
              v = "tensor<" + shape + "1x" + type + ">",
              i = "tensor<" + shape + "1xi64>";
  return "func.func @main(%x: " + in + ") -> (" + v + ", " + i +
         ") {\n  %v0 = tensor.empty() : " + v +
         "\n  %i0 = tensor.empty() : " + i +
         "\n  %v, %i = sift.topk dimension(1) k(1) " +
         (largest ? "largest" : "smallest") + " ins(%x : " + in +
         ") outs(%v0, %i0 : " + v + ", " + i + ") -> " + v + ", " + i +
         "\n  return %v, %i : " + v + ", " + i + "\n}\n";
}

/// The index of a row's best of `n` keys (`value(e)` the e-th) in the total
/// order (NaN above +inf, -0 = +0), the lower index on ties.
int64_t expectedArgmax(const std::function<float(int64_t)> &value, int64_t n,
                       bool largest) {
  int64_t expected = 0;
  for (int64_t e = 1; e < n; ++e) {
    double now = totalOrderRank(value(e)),
           best = totalOrderRank(value(expected));
    bool nans = std::isnan(value(expected)) && std::isnan(value(e));
    if (!nans && (largest ? now > best : now < best))
      expected = e;
  }
  return expected;
}

/// k = 1 walks f32 keys as floats: NaN above everything (largest takes the
/// first NaN, smallest never takes one unless a row is all NaN), -0 = +0,
/// ties to the lower index, across the two chunks of a row of 5000 (a
/// select and a merge launch).
TEST_F(EmuPipelineTest, RegisterSelectArgmaxOfFloatSpecialsOnTheCpu) {
  constexpr int64_t kRows = 4, kN = 5000;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = randomFloats(kRows * kN, 9);
  auto at = [&](int64_t r, int64_t e) -> float & { return x[r * kN + e]; };
  // Row 0: ties at the extremes, the later in the other chunk.
  at(0, 100) = at(0, 4500) = 5.0f;
  at(0, 200) = at(0, 4100) = -5.0f;
  // Row 1: NaNs (one negative) above +inf, -inf below all.
  at(1, 4999) = -nan;
  at(1, 3000) = nan;
  at(1, 10) = inf;
  at(1, 2000) = at(1, 4200) = -inf;
  // Row 2: zeros of both signs only; row 3: NaN only.
  for (int64_t e = 0; e < kN; ++e) {
    at(2, e) = e % 2 ? 0.0f : -0.0f;
    at(3, e) = nan;
  }
  for (bool largest : {true, false}) {
    std::vector<std::vector<char>> out;
    ASSERT_NO_FATAL_FAILURE(run(argmaxProgram("f32", kRows, kN, largest),
                                sift::PipelineKind::Distribute, -1, {x}, out));
    ASSERT_EQ(out.size(), 2u);
    for (int64_t r = 0; r < kRows; ++r) {
      int64_t expected =
          expectedArgmax([&](int64_t e) { return at(r, e); }, kN, largest);
      int64_t index;
      std::memcpy(&index, out[1].data() + r * 8, 8);
      EXPECT_EQ(index, expected)
          << (largest ? "largest" : "smallest") << ", row " << r;
    }
  }
}

TEST_F(EmuPipelineTest, RegisterSelectArgmaxOfBf16SpecialsOnTheCpu) {
  // k = 1 of bf16 rows (register_select's walk widens each key to f32 and
  // compares floats): ties at the extremes, NaNs of both signs above +inf,
  // -inf below all, zeros of both signs only, NaN only. Fault
  // bf16-order-f16-layout widens the bits as f16's: -inf (0xff80) and
  // magnitudes from 2^121 become f16 NaNs or infinities.
  constexpr int64_t kRows = 5, kN = 5000;
  std::vector<uint16_t> keys = randomBf16(kRows * kN, 19);
  auto at = [&](int64_t r, int64_t e) -> uint16_t & {
    return keys[r * kN + e];
  };
  at(0, 100) = at(0, 4500) = toBf16(1000.0f);
  at(0, 200) = at(0, 4100) = toBf16(-1000.0f);
  at(1, 4999) = 0xffc1;
  at(1, 3000) = 0x7fc0;
  at(1, 10) = 0x7f80;
  at(1, 2000) = at(1, 4200) = 0xff80;
  for (int64_t e = 0; e < kN; ++e) {
    at(2, e) = e % 2 ? 0x0000 : 0x8000;
    at(3, e) = 0x7fc0;
  }
  // Row 4: a magnitude past f16's range among small ones.
  at(4, 1234) = 0x7f00;
  at(4, 4321) = 0xff00;
  std::vector<float> packed = packedBf16(keys);
  for (bool fault : {false, true}) {
    int wrong = 0;
    for (bool largest : {true, false}) {
      sift::FaultSet faults;
      if (fault)
        faults.insert(sift::Fault::Bf16OrderF16Layout);
      std::vector<std::vector<char>> out;
      ASSERT_NO_FATAL_FAILURE(run(argmaxProgram("bf16", kRows, kN, largest),
                                  sift::PipelineKind::Distribute, -1, {packed},
                                  out, faults));
      ASSERT_EQ(out.size(), 2u);
      for (int64_t r = 0; r < kRows; ++r) {
        int64_t expected = expectedArgmax(
            [&](int64_t e) { return fromBf16(at(r, e)); }, kN, largest);
        int64_t index;
        std::memcpy(&index, out[1].data() + r * 8, 8);
        if (!fault) {
          EXPECT_EQ(index, expected)
              << (largest ? "largest" : "smallest") << ", row " << r;
        }
        wrong += index != expected;
      }
    }
    if (fault) {
      EXPECT_GT(wrong, 0);
    }
  }
}

} // namespace
