//===- test/unittests/generators/StableHloEmitterTest.cpp - StableHLO text ===//
//
// The StableHLO writer on hand-made programs (the whole text of an argsort,
// comparator kinds, exact constants, i64 -> i32, top-k's key and
// chlo.top_k, NMS's loop and its empty capacity) and on generated programs
// (determinism, every program written or refused with a message, every SSA
// name defined once).
//
//===----------------------------------------------------------------------===//
#include "generators/Exchange.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>
#include "test/unittests/generators/HandPrograms.h"

#include <regex>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

using hand::argsortProgram;
using hand::contains;
using hand::t;

std::string emitted(const Program &p) {
  Result<std::string> text = emitStableHlo(p);
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.message());
  return text.ok() ? *text : "";
}

/// arg0: `in`[6]; op0: `kind` (constant `c`) giving `out`[6].
Program unaryProgram(EwKind kind, ElementType in, ElementType out,
                     double c = 0.0, int64_t ci = 0) {
  Program p;
  int x = p.addValue(t(in, {6}));
  p.inputs = {x};
  Op op;
  op.ew = kind;
  op.constant = c;
  op.intConstant = ci;
  op.operands = {x};
  op.results = {p.addValue(t(out, {6}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0]};
  return p;
}

/// arg0: `type`[3x5]; top-k along `dimension`.
Program topkProgram(ElementType type, int64_t dimension, int64_t k,
                    bool largest) {
  Program p;
  int x = p.addValue(t(type, {3, 5}));
  p.inputs = {x};
  Op op;
  op.kind = OpKind::TopK;
  op.dimension = dimension;
  op.k = k;
  op.largest = largest;
  op.operands = {x};
  std::vector<int64_t> shape{3, 5};
  shape[static_cast<size_t>(dimension)] = k;
  op.results = {p.addValue(t(type, shape)),
                p.addValue(t(ElementType::I64, shape))};
  p.ops.push_back(op);
  p.outputs = {op.results[0], op.results[1]};
  return p;
}

/// boxes f32[1x6x4], scores f32[1x2x6]; NMS with `maxOut`.
Program nmsProgram(int64_t maxOut, bool center) {
  Program p;
  int boxes = p.addValue(t(ElementType::F32, {1, 6, 4}));
  int scores = p.addValue(t(ElementType::F32, {1, 2, 6}));
  p.inputs = {boxes, scores};
  Op op;
  op.kind = OpKind::Nms;
  op.operands = {boxes, scores};
  op.maxOutputBoxesPerClass = maxOut;
  op.iouThreshold = 0.5f;
  op.scoreThreshold = 0.25f;
  op.centerPointBox = center;
  op.results = {
      p.addValue(t(ElementType::I64, {2 * std::max<int64_t>(maxOut, 0), 3})),
      p.addValue(t(ElementType::I64, {1}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0], op.results[1]};
  return p;
}

} // namespace

TEST(StableHloEmitter, WholeArgsortModule) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  ASSERT_EQ(validate(p), "");
  const std::string cmp = "{comparison_direction = #stablehlo<comparison_"
                          "direction ";
  const std::string flt = ">, compare_type = #stablehlo<comparison_type "
                          "FLOAT>} : (tensor<f32>, tensor<f32>) -> "
                          "tensor<i1>\n";
  const std::string i1 = " : (tensor<i1>, tensor<i1>) -> tensor<i1>\n";
  const std::string expected =
      "module {\n"
      "  func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, "
      "tensor<4x8xi64>) {\n"
      "    %t0 = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> "
      "tensor<4x8xi64>\n"
      "    %t1:2 = \"stablehlo.sort\"(%arg0, %t0) ({\n"
      "    ^bb0(%t2: tensor<f32>, %t3: tensor<f32>, %t4: tensor<i64>, %t5: "
      "tensor<i64>):\n"
      "      %t6 = \"stablehlo.compare\"(%t2, %t2) " +
      cmp + "NE" + flt + "      %t7 = \"stablehlo.compare\"(%t3, %t3) " + cmp +
      "NE" + flt +
      "      %t8 = \"stablehlo.not\"(%t6) : (tensor<i1>) -> tensor<i1>\n"
      "      %t9 = \"stablehlo.and\"(%t8, %t7)" +
      i1 + "      %t10 = \"stablehlo.compare\"(%t2, %t3) " + cmp + "LT" + flt +
      "      %t11 = \"stablehlo.or\"(%t9, %t10)" + i1 +
      "      \"stablehlo.return\"(%t11) : (tensor<i1>) -> ()\n"
      "    }) {dimension = 1 : i64, is_stable = true} : (tensor<4x8xf32>, "
      "tensor<4x8xi64>) -> (tensor<4x8xf32>, tensor<4x8xi64>)\n"
      "    return %t1#0, %t1#1 : tensor<4x8xf32>, tensor<4x8xi64>\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(emitted(p), expected);
}

TEST(StableHloEmitter, ComparatorKinds) {
  std::string descending =
      emitted(argsortProgram(SortOrder::Descending, ComparatorKind::Less));
  EXPECT_TRUE(contains(descending, "comparison_direction GT"));
  EXPECT_FALSE(contains(descending, "comparison_direction LT"));
  std::string abs =
      emitted(argsortProgram(SortOrder::Comparator, ComparatorKind::LessAbs));
  EXPECT_TRUE(contains(abs, "\"stablehlo.abs\"(%t2) : (tensor<f32>) -> "
                            "tensor<f32>"));
  std::string low = emitted(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessLowByte, ElementType::I32));
  EXPECT_TRUE(contains(low, "dense<255> : tensor<i32>"));
  EXPECT_TRUE(contains(low, "comparison_type SIGNED"));
  EXPECT_FALSE(contains(low, "comparison_type FLOAT"));
  std::string greater = emitted(argsortProgram(
      SortOrder::Comparator, ComparatorKind::Greater, ElementType::I64));
  EXPECT_TRUE(contains(greater, "comparison_direction GT"));
  EXPECT_FALSE(contains(greater, "comparison_direction NE")); // no NaN test
}

TEST(StableHloEmitter, ExactConstantsAndCasts) {
  EXPECT_TRUE(contains(emitted(unaryProgram(EwKind::MulConstF, ElementType::F32,
                                            ElementType::F32, 1.5)),
                       "dense<0x3FC00000> : tensor<6xf32>"));
  EXPECT_TRUE(contains(emitted(unaryProgram(EwKind::AddConstF, ElementType::F16,
                                            ElementType::F16, -2.0)),
                       "dense<0xC000> : tensor<6xf16>"));
  EXPECT_TRUE(contains(emitted(unaryProgram(EwKind::AddConstF, ElementType::F64,
                                            ElementType::F64, 0.1)),
                       "dense<0x3FB999999999999A> : tensor<6xf64>"));
  EXPECT_TRUE(contains(emitted(unaryProgram(EwKind::MulConstI, ElementType::I64,
                                            ElementType::I64, 0, -7)),
                       "dense<-7> : tensor<6xi64>"));
  std::string sigmoid = emitted(
      unaryProgram(EwKind::Sigmoid, ElementType::F32, ElementType::F32));
  for (const char *step : {"negate", "exponential", "add", "divide"})
    EXPECT_TRUE(contains(sigmoid, std::string("\"stablehlo.") + step + "\""));
  // i64 -> i32 keeps the low 32 bits without an out-of-range convert.
  std::string trunc =
      emitted(unaryProgram(EwKind::TruncI, ElementType::I64, ElementType::I32));
  EXPECT_TRUE(contains(trunc, "dense<4294967295> : tensor<6xi64>"));
  EXPECT_TRUE(contains(trunc, "dense<4294967296> : tensor<6xi64>"));
  EXPECT_TRUE(contains(trunc, "(tensor<6xi64>) -> tensor<6xi32>"));
  EXPECT_TRUE(contains(
      emitted(unaryProgram(EwKind::SIToFP, ElementType::I32, ElementType::F16)),
      "\"stablehlo.convert\"(%arg0) : (tensor<6xi32>) -> "
      "tensor<6xf16>"));
}

TEST(StableHloEmitter, TopK) {
  std::string last = emitted(topkProgram(ElementType::F32, 1, 3, true));
  EXPECT_TRUE(contains(last, "chlo.top_k(%t"));
  EXPECT_TRUE(contains(last, ", k = 3, is_stable = true) : tensor<3x5xi32> "
                             "-> (tensor<3x3xi32>, tensor<3x3xi32>)"));
  EXPECT_TRUE(contains(last, "\"stablehlo.bitcast_convert\""));
  EXPECT_TRUE(contains(last, "dense<0x7FC00000> : tensor<3x5xf32>")); // NaN
  EXPECT_TRUE(contains(last, "dense<2147483647> : tensor<3x5xi32>"));
  EXPECT_TRUE(contains(last, "\"stablehlo.gather\"(%arg0, "));
  EXPECT_FALSE(contains(last, "transpose"));
  EXPECT_FALSE(contains(last, "stablehlo.not"));
  std::string first = emitted(topkProgram(ElementType::I64, 0, 2, false));
  EXPECT_TRUE(contains(first, "permutation = array<i64: 1, 0>"));
  EXPECT_TRUE(contains(first, "\"stablehlo.not\""));
  EXPECT_TRUE(contains(first, "k = 2, is_stable = true) : tensor<5x3xi64>"));
  EXPECT_FALSE(contains(first, "bitcast_convert"));
  // k = 0: empty results are constants.
  std::string none = emitted(topkProgram(ElementType::F16, 1, 0, true));
  EXPECT_FALSE(contains(none, "top_k"));
  EXPECT_TRUE(contains(none, "dense<0> : tensor<3x0xi64>"));
}

TEST(StableHloEmitter, Nms) {
  std::string corners = emitted(nmsProgram(3, false));
  EXPECT_TRUE(contains(corners, "\"stablehlo.while\""));
  EXPECT_TRUE(contains(corners, "dense<0x3F000000> : tensor<1x2x6xf32>"));
  EXPECT_TRUE(contains(corners, "dense<0x3E800000> : tensor<1x2x6xf32>"));
  EXPECT_TRUE(contains(corners, "\"stablehlo.dynamic_update_slice\""));
  EXPECT_TRUE(contains(corners, "-> tensor<6x3xi64>"));
  EXPECT_FALSE(contains(corners, "dense<0x40000000>")); // no halving
  std::string center = emitted(nmsProgram(3, true));
  EXPECT_TRUE(contains(center, "dense<0x40000000> : tensor<1x6xf32>"));
  // A capacity of 0 (a negative maximum) needs no loop.
  std::string empty = emitted(nmsProgram(-4, false));
  EXPECT_FALSE(contains(empty, "while"));
  EXPECT_TRUE(contains(empty, "dense<-1> : tensor<0x3xi64>"));
  EXPECT_TRUE(contains(empty, "dense<0> : tensor<1xi64>"));
}

TEST(StableHloEmitter, InvalidProgramIsAnError) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  p.ops[1].dimension = 5;
  Result<std::string> text = emitStableHlo(p);
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(contains(text.message(), "stablehlo"));
}

TEST(StableHloEmitter, GeneratedProgramsEmitDeterministically) {
  const std::regex definition(R"((%t[0-9]+)(:[0-9]+)? = )");
  const std::regex argument(R"((%t[0-9]+): tensor<)");
  Policy policy;
  for (Family family : kAllFamilies)
    for (uint64_t seed = 0; seed < 40; ++seed) {
      Rng rng = Rng(seed).fork(kProgramStream);
      Program p = generateProgram(policy, family, rng);
      Result<std::string> a = emitStableHlo(p), b = emitStableHlo(p);
      ASSERT_EQ(a.ok(), b.ok());
      if (!a.ok()) {
        EXPECT_FALSE(a.message().empty());
        continue;
      }
      EXPECT_EQ(*a, *b) << "seed " << seed;
      EXPECT_EQ(a->rfind("module {\n  func.func @main(", 0), 0u);
      std::set<std::string> names;
      for (const std::regex *re : {&definition, &argument})
        for (std::sregex_iterator it(a->begin(), a->end(), *re), end; it != end;
             ++it)
          EXPECT_TRUE(names.insert((*it)[1]).second)
              << (*it)[1] << " defined twice, seed " << seed;
    }
}
