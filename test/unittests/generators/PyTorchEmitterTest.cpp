//===- test/unittests/generators/PyTorchEmitterTest.cpp - pytorch format -===//
//
// The Python text emitPyTorchProgram writes: a whole small argsort module,
// the sort spellings of every order and comparator, top-k, slices, iotas,
// gathers, exact constants, maximumf's zero rule, the NMS call and its
// helper, errors for invalid programs, and determinism over generated
// programs of every family.
//
//===----------------------------------------------------------------------===//
#include "generators/Exchange.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>
#include "test/unittests/generators/HandPrograms.h"

#include <algorithm>
#include <limits>
#include <optional>

using namespace sift;
using namespace sift::gen;

namespace {

using hand::argsortProgram;
using hand::contains;
using hand::t;

/// The module for `p`, which must emit.
std::string emit(const Program &p) {
  Result<std::string> text = emitPyTorchProgram(p);
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.message());
  return text.ok() ? *text : "";
}

/// arg0: `type`[6], arg1: `type`[6]; op0: `kind` (binary, or unary with
/// `constant`).
Program elementwiseProgram(EwKind kind, ElementType type, bool binary,
                           double constant = 0.0) {
  Program p;
  int x = p.addValue(t(type, {6}));
  p.inputs = {x};
  Op op;
  op.ew = kind;
  op.constant = constant;
  op.operands = {x};
  if (binary) {
    int y = p.addValue(t(type, {6}));
    p.inputs.push_back(y);
    op.operands.push_back(y);
  }
  op.results = {p.addValue(t(type, {6}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0]};
  return p;
}

/// boxes f16[2x5x4], scores f32[2x3x5]; one NMS with the given attributes.
Program nmsProgram(int64_t maxOut, std::optional<float> scoreThreshold,
                   bool center) {
  Program p;
  int boxes = p.addValue(t(ElementType::F16, {2, 5, 4}));
  int scores = p.addValue(t(ElementType::F32, {2, 3, 5}));
  p.inputs = {boxes, scores};
  Op nms;
  nms.kind = OpKind::Nms;
  nms.operands = {boxes, scores};
  nms.maxOutputBoxesPerClass = maxOut;
  nms.iouThreshold = 0.3f;
  nms.scoreThreshold = scoreThreshold;
  nms.centerPointBox = center;
  const int64_t rows = 2 * 3 * std::max<int64_t>(maxOut, 0);
  nms.results = {p.addValue(t(ElementType::I64, {rows, 3})),
                 p.addValue(t(ElementType::I64, {1}))};
  p.ops.push_back(nms);
  p.outputs = {nms.results[0], nms.results[1]};
  return p;
}

} // namespace

TEST(PyTorchEmitter, WholeArgsortModule) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  ASSERT_EQ(validate(p), "");
  const std::string expected =
      "import torch\n"
      "\n"
      "\n"
      "def program(*args):\n"
      "    v0 = args[0]\n"
      "    dev = args[0].device\n"
      "    v1 = torch.arange(8, dtype=torch.int64, device=dev).reshape((1, "
      "8)).expand((4, 8))\n"
      "    s1 = torch.sort(v0, dim=1, descending=False, stable=True)\n"
      "    v2 = s1.values\n"
      "    v3 = torch.gather(v1, 1, s1.indices)\n"
      "    return (v2, v3, )\n";
  EXPECT_EQ(emit(p), expected);
}

TEST(PyTorchEmitter, SortOrdersAndComparators) {
  EXPECT_TRUE(contains(
      emit(argsortProgram(SortOrder::Descending, ComparatorKind::Less)),
      "s1 = torch.sort(v0, dim=1, descending=True, stable=True)\n"));
  EXPECT_TRUE(contains(
      emit(argsortProgram(SortOrder::Comparator, ComparatorKind::Less)),
      "s1 = torch.sort(v0, dim=1, descending=False, stable=True)\n"));
  std::string greater =
      emit(argsortProgram(SortOrder::Comparator, ComparatorKind::Greater));
  EXPECT_TRUE(contains(greater, "s1 = torch.sort(v0, dim=1, descending=True, "
                                "stable=True)\n    v2 = s1.values\n"));

  // A transformed key: sorted as |key| or its low byte, then moved itself.
  std::string abs = emit(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessAbs, ElementType::F16));
  EXPECT_TRUE(contains(abs, "s1 = torch.sort(torch.abs(v0), dim=1, "
                            "descending=False, stable=True)\n"
                            "    v2 = torch.gather(v0, 1, s1.indices)\n"
                            "    v3 = torch.gather(v1, 1, s1.indices)\n"))
      << abs;
  std::string lowByte = emit(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessLowByte, ElementType::I32));
  EXPECT_TRUE(contains(lowByte, "s1 = torch.sort(torch.bitwise_and(v0, 255), "
                                "dim=1, descending=False, stable=True)\n"
                                "    v2 = torch.gather(v0, 1, s1.indices)\n"))
      << lowByte;
  EXPECT_FALSE(contains(lowByte, "s1.values"));
}

TEST(PyTorchEmitter, TopK) {
  Program p;
  int x = p.addValue(t(ElementType::F32, {4, 8}));
  p.inputs = {x};
  Op topk;
  topk.kind = OpKind::TopK;
  topk.dimension = 1;
  topk.k = 3;
  topk.largest = false;
  topk.operands = {x};
  topk.results = {p.addValue(t(ElementType::F32, {4, 3})),
                  p.addValue(t(ElementType::I64, {4, 3}))};
  p.ops.push_back(topk);
  p.outputs = {2};
  ASSERT_EQ(validate(p), "");
  std::string text = emit(p);
  EXPECT_TRUE(contains(text, "    t0 = torch.topk(v0, 3, dim=1, largest=False, "
                             "sorted=True)\n"
                             "    v1 = t0.values\n"
                             "    v2 = t0.indices\n"
                             "    return (v2, )\n"))
      << text;
  EXPECT_FALSE(contains(text, "torchvision"));
}

TEST(PyTorchEmitter, SliceIotaAndGather) {
  Program p;
  int x = p.addValue(t(ElementType::F64, {3, 9, 5}));
  int idx = p.addValue(t(ElementType::I64, {3, 2}));
  p.inputs = {x, idx};
  Op slice;
  slice.kind = OpKind::Slice;
  slice.operands = {x};
  slice.offsets = {0, 1, 4};
  slice.sizes = {3, 4, 0};
  slice.strides = {1, 2, 1};
  slice.results = {p.addValue(t(ElementType::F64, {3, 4, 0}))};
  p.ops.push_back(slice);
  Op iota;
  iota.kind = OpKind::Iota;
  iota.dimension = 0;
  iota.results = {p.addValue(t(ElementType::I32, {3, 2}))};
  p.ops.push_back(iota);
  Op gather;
  gather.kind = OpKind::Gather;
  gather.axis = 1;
  gather.operands = {x, idx};
  gather.results = {p.addValue(t(ElementType::F64, {3, 2, 5}))};
  p.ops.push_back(gather);
  p.outputs = {slice.results[0], iota.results[0], gather.results[0]};
  ASSERT_EQ(validate(p), "");
  std::string text = emit(p);
  EXPECT_TRUE(contains(text, "    v2 = v0[0:3:1, 1:8:2, 4:4:1]\n")) << text;
  EXPECT_TRUE(contains(text, "    v3 = torch.arange(3, dtype=torch.int32, "
                             "device=dev).reshape((3, 1)).expand((3, 2))\n"))
      << text;
  EXPECT_TRUE(contains(text, "    v4 = torch.gather(v0, 1, v1.reshape((3, 2, "
                             "1)).expand((3, 2, 5)))\n"))
      << text;
}

TEST(PyTorchEmitter, ExactConstantsAndElementwise) {
  EXPECT_TRUE(contains(emit(elementwiseProgram(EwKind::AddConstF,
                                               ElementType::F16, false, -0.0)),
                       "v1 = torch.add(v0, -0.0)\n"));
  EXPECT_TRUE(contains(emit(elementwiseProgram(EwKind::MulConstF,
                                               ElementType::F32, false, 0.375)),
                       "v1 = torch.mul(v0, 0.375)\n"));
  EXPECT_TRUE(contains(
      emit(elementwiseProgram(EwKind::MulConstF, ElementType::F64, false, 2.0)),
      "v1 = torch.mul(v0, 2.0)\n"));
  // Sigmoid in its three rounded steps.
  EXPECT_TRUE(contains(
      emit(elementwiseProgram(EwKind::Sigmoid, ElementType::F16, false)),
      "v1 = torch.reciprocal(torch.add(torch.exp(torch.neg(v0)), 1.0))\n"));
  // maximumf: torch.maximum, with -0 giving way to +0 among equal operands.
  EXPECT_TRUE(contains(
      emit(elementwiseProgram(EwKind::MaximumF, ElementType::F32, true)),
      "v2 = torch.where(v0 == v1, torch.where(torch.signbit(v0), v1, v0), "
      "torch.maximum(v0, v1))\n"));
  EXPECT_TRUE(contains(
      emit(elementwiseProgram(EwKind::MinimumF, ElementType::F32, true)),
      "v2 = torch.where(v0 == v1, torch.where(torch.signbit(v0), v0, v1), "
      "torch.minimum(v0, v1))\n"));

  Program wide = elementwiseProgram(EwKind::AddConstI, ElementType::I64, false);
  wide.ops[0].intConstant = std::numeric_limits<int64_t>::min();
  EXPECT_TRUE(
      contains(emit(wide), "v1 = torch.add(v0, -9223372036854775808)\n"));
  EXPECT_TRUE(
      contains(emit(elementwiseProgram(EwKind::XOrI, ElementType::I32, true)),
               "v2 = torch.bitwise_xor(v0, v1)\n"));

  Program cast = elementwiseProgram(EwKind::TruncF, ElementType::F64, false);
  cast.values[1].elementType = ElementType::F16;
  ASSERT_EQ(validate(cast), "");
  EXPECT_TRUE(contains(emit(cast), "v1 = v0.to(torch.float16)\n"));
}

TEST(PyTorchEmitter, Nms) {
  std::string text = emit(nmsProgram(4, 0.25f, true));
  EXPECT_TRUE(contains(text, "import torch\nimport torchvision\n")) << text;
  EXPECT_TRUE(contains(text, "\ndef _nms(boxes, scores, max_out, iou, "
                             "threshold, center):\n"));
  EXPECT_TRUE(contains(text, "torchvision.ops.nms("));
  EXPECT_TRUE(contains(text,
                       "    v2, v3 = _nms(v0, v1, 4, 0.30000001192092896, "
                       "0.25, True)\n    return (v2, v3, )\n"))
      << text;
  // A negative maximum selects nothing; no threshold is None.
  EXPECT_TRUE(contains(emit(nmsProgram(-7, std::nullopt, false)),
                       "v2, v3 = _nms(v0, v1, 0, 0.30000001192092896, None, "
                       "False)\n"));
  EXPECT_TRUE(contains(emit(nmsProgram(1, -0.0f, false)),
                       "_nms(v0, v1, 1, 0.30000001192092896, -0.0, False)\n"));
  EXPECT_TRUE(contains(
      emit(nmsProgram(1, -std::numeric_limits<float>::infinity(), false)),
      "_nms(v0, v1, 1, 0.30000001192092896, float(\"-inf\"), False)\n"));
}

TEST(PyTorchEmitter, InvalidProgramIsAnError) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  p.ops[1].dimension = 5;
  Result<std::string> text = emitPyTorchProgram(p);
  ASSERT_FALSE(text.ok());
  EXPECT_TRUE(contains(text.message(), "invalid")) << text.message();
}

TEST(PyTorchEmitter, GeneratedProgramsEmitDeterministically) {
  for (Family family : kAllFamilies) {
    Policy policy;
    policy.familyWeights = {0, 0, 0};
    policy.familyWeights[static_cast<size_t>(family)] = 1;
    for (uint64_t seed = 0; seed < 150; ++seed) {
      Program p = generateProgram(policy, seed);
      Result<std::string> first = emitPyTorchProgram(p);
      Result<std::string> second = emitPyTorchProgram(p);
      ASSERT_TRUE(first.ok())
          << toString(family) << " seed " << seed << ": " << first.message();
      ASSERT_TRUE(second.ok());
      EXPECT_EQ(*first, *second) << toString(family) << " seed " << seed;
      EXPECT_EQ(first->rfind("import torch\n", 0), 0u);
      EXPECT_TRUE(contains(*first, "\ndef program(*args):\n"));
      EXPECT_EQ(contains(*first, "import torchvision"),
                contains(*first, " = _nms("))
          << toString(family) << " seed " << seed;
      // Every result is returned, in order.
      std::string returned = "    return (";
      for (int id : p.outputs)
        returned += "v" + std::to_string(id) + ", ";
      EXPECT_TRUE(contains(*first, returned + ")\n"))
          << toString(family) << " seed " << seed;
    }
  }
}
