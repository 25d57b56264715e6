//===- test/unittests/generators/MlirEmitterTest.cpp - Emitted text -------===//
//
// Golden checks on hand-made programs: the exact sift.sort / sift.topk /
// tensor.extract_slice / linalg.generic text, hexadecimal float constants,
// comparator regions, a whole small module, and unique SSA names in modules
// of generated programs.
//
//===----------------------------------------------------------------------===//
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>
#include "test/unittests/generators/HandPrograms.h"

#include <map>
#include <regex>
#include <sstream>

using namespace sift;
using namespace sift::gen;

namespace {

using hand::argsortProgram;
using hand::contains;
using hand::t;

/// arg0: `type`[6]; op0: `kind` with `constant`.
Program constProgram(EwKind kind, ElementType type, double constant) {
  Program p;
  int x = p.addValue(t(type, {6}));
  p.inputs = {x};
  Op op;
  op.ew = kind;
  op.constant = constant;
  op.operands = {x};
  op.results = {p.addValue(t(type, {6}))};
  p.ops.push_back(op);
  p.outputs = {1};
  return p;
}

} // namespace

TEST(MlirEmitter, WholeArgsortModule) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  ASSERT_EQ(validate(p), "");
  const std::string expected =
      "module {\n"
      "  func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, "
      "tensor<4x8xi64>) {\n"
      "    %e0 = tensor.empty() : tensor<4x8xi64>\n"
      "    %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, "
      "d1)>], iterator_types = [\"parallel\", \"parallel\"]} outs(%e0 : "
      "tensor<4x8xi64>) {\n"
      "    ^bb0(%o0: i64):\n"
      "      %t0_0 = linalg.index 1 : index\n"
      "      %t0_1 = arith.index_cast %t0_0 : index to i64\n"
      "      linalg.yield %t0_1 : i64\n"
      "    } -> tensor<4x8xi64>\n"
      "    %s1:2 = sift.sort dimension(1) ascending outs(%arg0, %v1 : "
      "tensor<4x8xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>, tensor<4x8xi64>\n"
      "    return %s1#0, %s1#1 : tensor<4x8xf32>, tensor<4x8xi64>\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(emitMlir(p), expected);
}

TEST(MlirEmitter, SortDescendingAndSingleResult) {
  Program p = argsortProgram(SortOrder::Descending, ComparatorKind::Less);
  EXPECT_TRUE(contains(emitMlir(p),
                       "    %s1:2 = sift.sort dimension(1) descending "
                       "outs(%arg0, %v1 : tensor<4x8xf32>, tensor<4x8xi64>) "
                       "-> tensor<4x8xf32>, tensor<4x8xi64>\n"));
  // One operand: a plain result name and no ":N".
  Program q;
  int x = q.addValue(t(ElementType::F32, {16}));
  q.inputs = {x};
  Op sort;
  sort.kind = OpKind::Sort;
  sort.order = SortOrder::Comparator;
  sort.comparator = ComparatorKind::Less;
  sort.operands = {x};
  sort.results = {q.addValue(t(ElementType::F32, {16}))};
  q.ops.push_back(sort);
  q.outputs = {1};
  ASSERT_EQ(validate(q), "");
  EXPECT_TRUE(contains(emitMlir(q),
                       "    %v1 = sift.sort dimension(0) outs(%arg0 : "
                       "tensor<16xf32>) {\n"
                       "    ^bb0(%lhs0: f32, %rhs0: f32):\n"
                       "      %t0_0 = arith.cmpf ord, %lhs0, %lhs0 : f32\n"
                       "      %t0_1 = arith.cmpf uno, %rhs0, %rhs0 : f32\n"
                       "      %t0_2 = arith.andi %t0_0, %t0_1 : i1\n"
                       "      %t0_3 = arith.cmpf olt, %lhs0, %rhs0 : f32\n"
                       "      %t0_4 = arith.ori %t0_2, %t0_3 : i1\n"
                       "      sift.yield %t0_4 : i1\n"
                       "    } -> tensor<16xf32>\n"))
      << emitMlir(q);
}

TEST(MlirEmitter, ComparatorKinds) {
  std::string greater =
      emitMlir(argsortProgram(SortOrder::Comparator, ComparatorKind::Greater));
  EXPECT_TRUE(contains(greater, "%t1_0 = arith.cmpf uno, %lhs1, %lhs1 : f32"));
  EXPECT_TRUE(contains(greater, "%t1_1 = arith.cmpf ord, %rhs1, %rhs1 : f32"));
  EXPECT_TRUE(contains(greater, "%t1_3 = arith.cmpf ogt, %lhs1, %rhs1 : f32"));
  EXPECT_TRUE(contains(greater,
                       "    %s1:2 = sift.sort dimension(1) outs(%arg0, %v1 : "
                       "tensor<4x8xf32>, tensor<4x8xi64>) {\n"
                       "    ^bb0(%lhs1: f32, %rhs1: f32):\n"));
  EXPECT_TRUE(contains(greater, "    } -> tensor<4x8xf32>, tensor<4x8xi64>\n"));

  std::string abs = emitMlir(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessAbs, ElementType::F16));
  EXPECT_TRUE(contains(abs, "%t1_0 = math.absf %lhs1 : f16"));
  EXPECT_TRUE(contains(abs, "%t1_1 = math.absf %rhs1 : f16"));
  EXPECT_TRUE(contains(abs, "%t1_5 = arith.cmpf olt, %t1_0, %t1_1 : f16"));

  std::string lowByte = emitMlir(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessLowByte, ElementType::I32));
  EXPECT_TRUE(contains(lowByte,
                       "    ^bb0(%lhs1: i32, %rhs1: i32):\n"
                       "      %t1_0 = arith.constant 255 : i32\n"
                       "      %t1_1 = arith.andi %lhs1, %t1_0 : i32\n"
                       "      %t1_2 = arith.andi %rhs1, %t1_0 : i32\n"
                       "      %t1_3 = arith.cmpi ult, %t1_1, %t1_2 : i32\n"
                       "      sift.yield %t1_3 : i1\n"));
  std::string intLess = emitMlir(argsortProgram(
      SortOrder::Comparator, ComparatorKind::Less, ElementType::I64));
  EXPECT_TRUE(contains(intLess, "%t1_0 = arith.cmpi slt, %lhs1, %rhs1 : i64\n"
                                "      sift.yield %t1_0 : i1\n"));
}

TEST(MlirEmitter, TopK) {
  Program p;
  int x = p.addValue(t(ElementType::F32, {4, 8}));
  p.inputs = {x};
  Op topk;
  topk.kind = OpKind::TopK;
  topk.dimension = 1;
  topk.k = 3;
  topk.largest = true;
  topk.operands = {x};
  topk.results = {p.addValue(t(ElementType::F32, {4, 3})),
                  p.addValue(t(ElementType::I64, {4, 3}))};
  p.ops.push_back(topk);
  p.outputs = {2};
  ASSERT_EQ(validate(p), "");
  std::string text = emitMlir(p);
  EXPECT_TRUE(contains(text, "    %e0_0 = tensor.empty() : tensor<4x3xf32>\n"
                             "    %e0_1 = tensor.empty() : tensor<4x3xi64>\n"
                             "    %v1, %v2 = sift.topk dimension(1) k(3) "
                             "largest ins(%arg0 : tensor<4x8xf32>) outs(%e0_0, "
                             "%e0_1 : tensor<4x3xf32>, tensor<4x3xi64>) -> "
                             "tensor<4x3xf32>, tensor<4x3xi64>\n"))
      << text;
  EXPECT_TRUE(contains(text, "-> (tensor<4x3xi64>) {"));
  EXPECT_TRUE(contains(text, "    return %v2 : tensor<4x3xi64>\n"));
  p.ops[0].largest = false;
  EXPECT_TRUE(contains(emitMlir(p), "k(3) smallest ins("));
}

TEST(MlirEmitter, Slice) {
  Program p;
  int x = p.addValue(t(ElementType::F32, {4, 8}));
  p.inputs = {x};
  Op slice;
  slice.kind = OpKind::Slice;
  slice.operands = {x};
  slice.offsets = {0, 1};
  slice.sizes = {4, 3};
  slice.strides = {1, 2};
  slice.results = {p.addValue(t(ElementType::F32, {4, 3}))};
  p.ops.push_back(slice);
  p.outputs = {1};
  ASSERT_EQ(validate(p), "");
  EXPECT_TRUE(contains(emitMlir(p),
                       "    %v1 = tensor.extract_slice %arg0[0, 1] [4, 3] "
                       "[1, 2] : tensor<4x8xf32> to tensor<4x3xf32>\n"));
}

TEST(MlirEmitter, FloatConstantsAreHexBits) {
  EXPECT_TRUE(
      contains(emitMlir(constProgram(EwKind::AddConstF, ElementType::F32, 1.0)),
               "%t0_0 = arith.constant 0x3F800000 : f32\n"
               "      %t0_1 = arith.addf %x0_0, %t0_0 : f32\n"));
  EXPECT_TRUE(
      contains(emitMlir(constProgram(EwKind::MulConstF, ElementType::F16, 1.0)),
               "arith.constant 0x3C00 : f16"));
  EXPECT_TRUE(contains(
      emitMlir(constProgram(EwKind::MulConstF, ElementType::F16, -1.5)),
      "arith.constant 0xBE00 : f16"));
  EXPECT_TRUE(
      contains(emitMlir(constProgram(EwKind::AddConstF, ElementType::F64, 1.0)),
               "arith.constant 0x3FF0000000000000 : f64"));
  EXPECT_TRUE(contains(
      emitMlir(constProgram(EwKind::AddConstF, ElementType::F32, 0.25)),
      "arith.constant 0x3E800000 : f32"));
}

TEST(MlirEmitter, ElementwiseGeneric) {
  // A binary op over rank 3 and a cast.
  Program p;
  int a = p.addValue(t(ElementType::I32, {2, 3, 5}));
  int b = p.addValue(t(ElementType::I32, {2, 3, 5}));
  p.inputs = {a, b};
  Op x;
  x.ew = EwKind::XOrI;
  x.operands = {a, b};
  x.results = {p.addValue(t(ElementType::I32, {2, 3, 5}))};
  p.ops.push_back(x);
  Op c;
  c.ew = EwKind::SIToFP;
  c.operands = {x.results[0]};
  c.results = {p.addValue(t(ElementType::F16, {2, 3, 5}))};
  p.ops.push_back(c);
  Op s;
  s.ew = EwKind::Sigmoid;
  s.operands = {c.results[0]};
  s.results = {p.addValue(t(ElementType::F16, {2, 3, 5}))};
  p.ops.push_back(s);
  p.outputs = {s.results[0]};
  ASSERT_EQ(validate(p), "");
  std::string text = emitMlir(p);
  const std::string map = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>";
  EXPECT_TRUE(
      contains(text, "    %e0 = tensor.empty() : tensor<2x3x5xi32>\n"
                     "    %v2 = linalg.generic {indexing_maps = [" +
                         map + ", " + map + ", " + map +
                         "], iterator_types = [\"parallel\", \"parallel\", "
                         "\"parallel\"]} ins(%arg0, %arg1 : tensor<2x3x5xi32>, "
                         "tensor<2x3x5xi32>) outs(%e0 : tensor<2x3x5xi32>) {\n"
                         "    ^bb0(%x0_0: i32, %x0_1: i32, %o0: i32):\n"
                         "      %t0_0 = arith.xori %x0_0, %x0_1 : i32\n"
                         "      linalg.yield %t0_0 : i32\n"
                         "    } -> tensor<2x3x5xi32>\n"))
      << text;
  EXPECT_TRUE(contains(text, "      %t1_0 = arith.sitofp %x1_0 : i32 to f16\n"
                             "      linalg.yield %t1_0 : f16\n"));
  EXPECT_TRUE(contains(text, "      %t2_0 = arith.negf %x2_0 : f16\n"
                             "      %t2_1 = math.exp %t2_0 : f16\n"
                             "      %t2_2 = arith.constant 0x3C00 : f16\n"
                             "      %t2_3 = arith.addf %t2_2, %t2_1 : f16\n"
                             "      %t2_4 = arith.divf %t2_2, %t2_3 : f16\n"
                             "      linalg.yield %t2_4 : f16\n"));
}

TEST(MlirEmitter, GeneratedModulesHaveUniqueDefinitions) {
  Policy policy;
  // Definitions: "%a = ", "%a:2 = ", "%a, %b = ", and block arguments.
  std::regex defLine(
      R"(\n\s*(%[A-Za-z0-9_]+(?::\d+)?(?:, %[A-Za-z0-9_]+)*) = )");
  std::regex name(R"(%[A-Za-z0-9_]+)");
  std::regex blockArg(R"((%[A-Za-z0-9_]+): )");
  for (uint64_t seed = 0; seed < 300; ++seed) {
    std::string text = emitMlir(generateProgram(policy, seed));
    std::map<std::string, int> defs;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), defLine);
         it != std::sregex_iterator(); ++it) {
      std::string names = (*it)[1];
      for (auto n = std::sregex_iterator(names.begin(), names.end(), name);
           n != std::sregex_iterator(); ++n)
        ++defs[(*n)[0]];
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), blockArg);
         it != std::sregex_iterator(); ++it)
      ++defs[(*it)[1]];
    for (const auto &[name, count] : defs)
      ASSERT_EQ(count, 1) << name << " defined twice, seed " << seed << "\n"
                          << text;
    // Every use refers to something defined.
    std::regex use(R"(%([A-Za-z0-9_]+)(#\d+)?)");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), use);
         it != std::sregex_iterator(); ++it)
      ASSERT_TRUE(defs.count("%" + (*it)[1].str()))
          << (*it)[0] << " undefined, seed " << seed;
  }
}

TEST(MlirEmitter, Gather) {
  // boxes f16[2x5x4] gathered along axis 1 by indices i64[2x3].
  Program p;
  int boxes = p.addValue(t(ElementType::F16, {2, 5, 4}));
  int indices = p.addValue(t(ElementType::I64, {2, 3}));
  p.inputs = {boxes, indices};
  Op gather;
  gather.kind = OpKind::Gather;
  gather.operands = {boxes, indices};
  gather.axis = 1;
  gather.results = {p.addValue(t(ElementType::F16, {2, 3, 4}))};
  p.ops.push_back(gather);
  p.outputs = {2};
  ASSERT_EQ(validate(p), "");
  EXPECT_TRUE(contains(
      emitMlir(p),
      "    %e0 = tensor.empty() : tensor<2x3x4xf16>\n"
      "    %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> "
      "(d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types "
      "= [\"parallel\", \"parallel\", \"parallel\"]} ins(%arg1 : "
      "tensor<2x3xi64>) outs(%e0 : tensor<2x3x4xf16>) {\n"
      "    ^bb0(%x0_0: i64, %o0: f16):\n"
      "      %t0_a = arith.index_cast %x0_0 : i64 to index\n"
      "      %t0_0 = linalg.index 0 : index\n"
      "      %t0_2 = linalg.index 2 : index\n"
      "      %t0_e = tensor.extract %arg0[%t0_0, %t0_a, %t0_2] : "
      "tensor<2x5x4xf16>\n"
      "      linalg.yield %t0_e : f16\n"
      "    } -> tensor<2x3x4xf16>\n"))
      << emitMlir(p);
  // Along the last axis the indices map to (d0, d2).
  p.values[0].shape = {2, 4, 5};
  p.values[2].shape = {2, 4, 3};
  p.ops[0].axis = 2;
  ASSERT_EQ(validate(p), "");
  std::string text = emitMlir(p);
  EXPECT_TRUE(contains(text, "affine_map<(d0, d1, d2) -> (d0, d2)>")) << text;
  EXPECT_TRUE(contains(text, "tensor.extract %arg0[%t0_0, %t0_1, %t0_a]"))
      << text;
}

// The torch and ONNX front ends: !torch.vtensor at the boundary, the ops
// under test as torch.aten or ONNX operators, payloads moved by gather.
TEST(MlirEmitter, TorchAndOnnxFrontEnds) {
  Program p = argsortProgram(SortOrder::Descending, ComparatorKind::Less);
  IreeSpelling torch;
  torch.frontEnd = FrontEnd::Torch;
  Result<std::string> t = emitForIree(p, torch);
  ASSERT_TRUE(t.ok()) << t.message();
  EXPECT_TRUE(contains(*t, "func.func @main(%arg0: !torch.vtensor<[4,8],f32>)"));
  EXPECT_TRUE(contains(*t, "= torch.aten.sort %to1_0, %dim1, %desc1 : "
                           "!torch.vtensor<[4,8],f32>, !torch.int, "
                           "!torch.bool -> !torch.vtensor<[4,8],f32>, "
                           "!torch.vtensor<[4,8],si64>"));
  EXPECT_TRUE(contains(*t, "%desc1 = torch.constant.bool true"));
  EXPECT_TRUE(contains(*t, "torch.aten.gather %to1_1, %dim1, %si1"));
  EXPECT_FALSE(contains(*t, "torch.onnx_meta"));
  IreeSpelling onnx;
  onnx.frontEnd = FrontEnd::Onnx;
  Result<std::string> o = emitForIree(p, onnx);
  ASSERT_TRUE(o.ok()) << o.message();
  EXPECT_TRUE(contains(*o, "torch.onnx_meta.opset_version = 21 : si64"));
  EXPECT_TRUE(contains(*o, "{torch.onnx.value = dense<8> : tensor<1xsi64>}"));
  EXPECT_TRUE(contains(*o, "torch.operator \"onnx.TopK\"(%to1_0, %k1) "
                           "{torch.onnx.axis = 1 : si64, torch.onnx.largest "
                           "= 1 : si64, torch.onnx.sorted = 1 : si64}"));
  EXPECT_TRUE(contains(*o, "torch.operator \"onnx.GatherElements\"(%to1_1, "
                           "%top1#1) {torch.onnx.axis = 1 : si64}"));
  // The sift front end is not IREE's.
  IreeSpelling sift;
  sift.frontEnd = FrontEnd::Sift;
  EXPECT_FALSE(emitForIree(p, sift).ok());
}

// A dynamic argument dimension stays dynamic through what is computed
// from it; tensor.empty takes its size from tensor.dim; a sort's static
// operand is cast to the joined type; ONNX's k for a dynamic sorted
// dimension is read with onnx.Shape.
TEST(MlirEmitter, DynamicDimensions) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  IreeSpelling spelling;
  spelling.dynamicDims = {{true, true}};
  Result<std::string> text = emitForIree(p, spelling);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_TRUE(contains(*text, "func.func @main(%arg0: tensor<?x?xf32>) -> "
                              "(tensor<?x?xf32>, tensor<?x?xi64>)"));
  // The iota is static (no operand); the sort casts it.
  EXPECT_TRUE(contains(*text, "tensor.cast %v1 : tensor<4x8xi64> to "
                              "tensor<?x?xi64>"));
  spelling.frontEnd = FrontEnd::Onnx;
  text = emitForIree(p, spelling);
  ASSERT_TRUE(text.ok()) << text.message();
  EXPECT_TRUE(contains(*text, "%arg0: !torch.vtensor<[?,?],f32>"));
  EXPECT_TRUE(contains(*text, "torch.operator \"onnx.Shape\"(%to1_0) "
                              "{torch.onnx.end = 2 : si64, torch.onnx.start "
                              "= 1 : si64}"));
}

TEST(MlirEmitter, FrontEndNames) {
  for (FrontEnd f : {FrontEnd::Sift, FrontEnd::LinalgExt, FrontEnd::Torch,
                     FrontEnd::Onnx})
    EXPECT_EQ(parseFrontEnd(toString(f)), f);
  EXPECT_FALSE(parseFrontEnd("tosa"));
}
