//===- test/unittests/generators/InputGeneratorTest.cpp - Input modes -----===//
//
// Each mode produces what it promises: shapes and sizes match, uniform floats
// have fractional parts and no specials, ties repeat values, special holds NaN
// of both signs, -0.0, infinities and denormals (and integer extremes),
// sorted / reversed are ordered in flat order (so along every dimension), and
// mixed uses several modes.
//
//===----------------------------------------------------------------------===//
#include "generators/InputGenerator.h"
#include "generators/Half.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

/// Sign bit and class of a float element from its bits.
struct FloatClass {
  bool nan = false, inf = false, zero = false, denormal = false, sign = false;
};

FloatClass classify(const HostTensor &t, int64_t i) {
  uint64_t bits = elementBits(t, i);
  int expBits, mantBits;
  switch (t.type) {
  case ElementType::F16: expBits = 5, mantBits = 10; break;
  case ElementType::F32: expBits = 8, mantBits = 23; break;
  default: expBits = 11, mantBits = 52; break;
  }
  uint64_t expMask = ((uint64_t(1) << expBits) - 1) << mantBits;
  uint64_t mantMask = (uint64_t(1) << mantBits) - 1;
  FloatClass c;
  c.sign = (bits >> (expBits + mantBits)) & 1;
  uint64_t e = bits & expMask, m = bits & mantMask;
  c.nan = e == expMask && m != 0;
  c.inf = e == expMask && m == 0;
  c.zero = e == 0 && m == 0;
  c.denormal = e == 0 && m != 0;
  return c;
}

const ElementType kFloats[] = {ElementType::F16, ElementType::F32,
                               ElementType::F64};

} // namespace

TEST(InputGenerator, ShapesAndSizes) {
  Rng rng(1);
  for (ElementType e : kAllElementTypes)
    for (InputMode m : kAllInputModes) {
      HostTensor t = generateInput(TensorType{e, {3, 0, 2}}, m, rng);
      EXPECT_EQ(t.numElements(), 0);
      EXPECT_EQ(t.byteSize(), 0u);
      HostTensor u = generateInput(TensorType{e, {5, 7}}, m, rng);
      EXPECT_EQ(u.type, e);
      EXPECT_EQ(u.shape, (std::vector<int64_t>{5, 7}));
      EXPECT_EQ(u.byteSize(), 35 * byteWidth(e));
    }
}

TEST(InputGenerator, UniformFloatsHaveFractionsAndNoSpecials) {
  Rng rng(2);
  for (ElementType e : kFloats) {
    HostTensor t =
        generateInput(TensorType{e, {1000}}, InputMode::Uniform, rng);
    int fractional = 0;
    std::set<uint64_t> distinct;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      double v = elementAsDouble(t, i);
      ASSERT_TRUE(std::isfinite(v));
      fractional += v != std::floor(v);
      distinct.insert(elementBits(t, i));
    }
    EXPECT_GT(fractional, 500) << toString(e);
    EXPECT_GT(distinct.size(), 300u) << toString(e);
  }
}

TEST(InputGenerator, TiesHaveFewDistinctValues) {
  Rng rng(3);
  for (ElementType e : kAllElementTypes)
    for (int trial = 0; trial < 20; ++trial) {
      HostTensor t = generateInput(TensorType{e, {64}}, InputMode::Ties, rng);
      std::set<uint64_t> distinct;
      for (int64_t i = 0; i < t.numElements(); ++i)
        distinct.insert(elementBits(t, i));
      EXPECT_LE(distinct.size(), 4u);
      EXPECT_LT(distinct.size(), 64u); // duplicates
    }
}

TEST(InputGenerator, TiesSometimesMixSignedZeros) {
  Rng rng(4);
  bool both = false;
  for (int trial = 0; trial < 100 && !both; ++trial) {
    HostTensor t =
        generateInput(TensorType{ElementType::F32, {64}}, InputMode::Ties, rng);
    bool pos = false, neg = false;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      FloatClass c = classify(t, i);
      pos |= c.zero && !c.sign;
      neg |= c.zero && c.sign;
    }
    both = pos && neg;
  }
  EXPECT_TRUE(both);
}

TEST(InputGenerator, SpecialFloatsHaveEveryClass) {
  Rng rng(5);
  for (ElementType e : kFloats) {
    HostTensor t =
        generateInput(TensorType{e, {16, 64}}, InputMode::Special, rng);
    bool posNaN = false, negNaN = false, posInf = false, negInf = false,
         negZero = false, posZero = false, denormal = false, normal = false;
    std::set<uint64_t> nanPayloads;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      FloatClass c = classify(t, i);
      posNaN |= c.nan && !c.sign;
      negNaN |= c.nan && c.sign;
      if (c.nan)
        nanPayloads.insert(elementBits(t, i));
      posInf |= c.inf && !c.sign;
      negInf |= c.inf && c.sign;
      negZero |= c.zero && c.sign;
      posZero |= c.zero && !c.sign;
      denormal |= c.denormal;
      normal |= !c.nan && !c.inf && !c.zero && !c.denormal;
    }
    EXPECT_TRUE(posNaN && negNaN) << toString(e);
    EXPECT_GE(nanPayloads.size(), 3u) << toString(e);
    EXPECT_TRUE(posInf && negInf) << toString(e);
    EXPECT_TRUE(posZero && negZero) << toString(e);
    EXPECT_TRUE(denormal) << toString(e);
    EXPECT_TRUE(normal) << toString(e);
  }
}

TEST(InputGenerator, SpecialIntsHaveExtremes) {
  Rng rng(6);
  HostTensor t = generateInput(TensorType{ElementType::I32, {1024}},
                               InputMode::Special, rng);
  std::set<int32_t> seen;
  for (int64_t i = 0; i < t.numElements(); ++i)
    seen.insert(t.get<int32_t>(i));
  for (int32_t v : {std::numeric_limits<int32_t>::min(),
                    std::numeric_limits<int32_t>::max(), 0, -1})
    EXPECT_TRUE(seen.count(v)) << v;
  HostTensor u = generateInput(TensorType{ElementType::I64, {1024}},
                               InputMode::Special, rng);
  std::set<int64_t> seen64;
  for (int64_t i = 0; i < u.numElements(); ++i)
    seen64.insert(u.get<int64_t>(i));
  for (int64_t v :
       {std::numeric_limits<int64_t>::min(),
        std::numeric_limits<int64_t>::max(), int64_t(0), int64_t(-1)})
    EXPECT_TRUE(seen64.count(v)) << v;
}

TEST(InputGenerator, SortedAndReversedAreOrderedAlongEveryDimension) {
  Rng rng(7);
  for (ElementType e : kAllElementTypes)
    for (int trial = 0; trial < 10; ++trial) {
      TensorType type{e, {3, 5, 7}};
      HostTensor s = generateInput(type, InputMode::Sorted, rng);
      HostTensor r = generateInput(type, InputMode::Reversed, rng);
      for (int64_t i = 1; i < s.numElements(); ++i) {
        ASSERT_LE(elementAsDouble(s, i - 1), elementAsDouble(s, i));
        ASSERT_GE(elementAsDouble(r, i - 1), elementAsDouble(r, i));
      }
      // Along dimension 0 too (stride 35).
      for (int64_t i = 35; i < s.numElements(); ++i)
        ASSERT_LE(elementAsDouble(s, i - 35), elementAsDouble(s, i));
    }
}

TEST(InputGenerator, MixedUsesSeveralModes) {
  Rng rng(8);
  int withNaN = 0, sorted = 0, fewDistinct = 0;
  for (int trial = 0; trial < 200; ++trial) {
    HostTensor t = generateInput(TensorType{ElementType::F32, {200}},
                                 InputMode::Mixed, rng);
    bool nan = false, ordered = true;
    std::set<uint64_t> distinct;
    for (int64_t i = 0; i < t.numElements(); ++i) {
      nan |= std::isnan(elementAsDouble(t, i));
      if (i)
        ordered &= elementAsDouble(t, i - 1) <= elementAsDouble(t, i);
      distinct.insert(elementBits(t, i));
    }
    withNaN += nan;
    sorted += ordered;
    fewDistinct += distinct.size() <= 4;
  }
  EXPECT_GT(withNaN, 10);
  EXPECT_GT(sorted, 5);
  EXPECT_GT(fewDistinct, 10);
}

TEST(InputGenerator, HalfTensorsHoldHalfBits) {
  Rng rng(9);
  HostTensor t = generateInput(TensorType{ElementType::F16, {100}},
                               InputMode::Uniform, rng);
  EXPECT_EQ(t.byteSize(), 200u);
  for (int64_t i = 0; i < 100; ++i) {
    double v = elementAsDouble(t, i);
    EXPECT_TRUE(isExactFloat(v, ElementType::F16));
    EXPECT_LE(std::fabs(v), 1000.0);
  }
}

TEST(InputGenerator, OneTensorPerProgramInput) {
  Policy policy;
  for (uint64_t seed = 0; seed < 50; ++seed) {
    Program p = generateProgram(policy, seed);
    std::vector<HostTensor> inputs = generateInputs(p, InputMode::Mixed, seed);
    ASSERT_EQ(inputs.size(), p.inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const TensorType &type = p.values[static_cast<size_t>(p.inputs[i])];
      EXPECT_EQ(inputs[i].type, type.elementType);
      EXPECT_EQ(inputs[i].shape, type.shape);
    }
  }
}
