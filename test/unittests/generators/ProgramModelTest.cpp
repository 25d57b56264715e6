//===- test/unittests/generators/ProgramModelTest.cpp - validate() rules --===//
//
// Hand-made programs: a valid one of every op kind passes; breaking each rule
// of validate() is caught with a message naming what is wrong. Also the
// stable names and Program::weight().
//
//===----------------------------------------------------------------------===//
#include "generators/ProgramModel.h"

#include "generators/OpDescriptors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

TensorType t(ElementType e, std::vector<int64_t> shape) {
  return TensorType{e, std::move(shape)};
}

/// A valid program using every op kind:
///   v0 = input f32[4x8], v1 = input f32[4x8]
///   op0: v2 = addf(v0, v1)
///   op1: v3 = iota i64[4x8] dim 1
///   op2: v4, v5 = sort(v2, v3) dim 1 comparator less_abs
///   op3: v6, v7 = topk(v4) dim 1 k 3
///   op4: v8 = slice(v5) [0,1] [4,3] [1,2]
///   op5: v9 = mulf_const(v6, 0.5)
///   op6: v10 = sitofp(v7) -> f16
Program validProgram() {
  Program p;
  int a = p.addValue(t(ElementType::F32, {4, 8}));
  int b = p.addValue(t(ElementType::F32, {4, 8}));
  p.inputs = {a, b};
  Op add;
  add.kind = OpKind::Elementwise;
  add.ew = EwKind::AddF;
  add.operands = {a, b};
  add.results = {p.addValue(t(ElementType::F32, {4, 8}))};
  p.ops.push_back(add);
  Op iota;
  iota.kind = OpKind::Iota;
  iota.dimension = 1;
  iota.results = {p.addValue(t(ElementType::I64, {4, 8}))};
  p.ops.push_back(iota);
  Op sort;
  sort.kind = OpKind::Sort;
  sort.dimension = 1;
  sort.order = SortOrder::Comparator;
  sort.comparator = ComparatorKind::LessAbs;
  sort.operands = {add.results[0], iota.results[0]};
  sort.results = {p.addValue(t(ElementType::F32, {4, 8})),
                  p.addValue(t(ElementType::I64, {4, 8}))};
  p.ops.push_back(sort);
  Op topk;
  topk.kind = OpKind::TopK;
  topk.dimension = 1;
  topk.k = 3;
  topk.operands = {sort.results[0]};
  topk.results = {p.addValue(t(ElementType::F32, {4, 3})),
                  p.addValue(t(ElementType::I64, {4, 3}))};
  p.ops.push_back(topk);
  Op slice;
  slice.kind = OpKind::Slice;
  slice.operands = {sort.results[1]};
  slice.offsets = {0, 1};
  slice.sizes = {4, 3};
  slice.strides = {1, 2};
  slice.results = {p.addValue(t(ElementType::I64, {4, 3}))};
  p.ops.push_back(slice);
  Op mul;
  mul.kind = OpKind::Elementwise;
  mul.ew = EwKind::MulConstF;
  mul.constant = 0.5;
  mul.operands = {topk.results[0]};
  mul.results = {p.addValue(t(ElementType::F32, {4, 3}))};
  p.ops.push_back(mul);
  Op cast;
  cast.kind = OpKind::Elementwise;
  cast.ew = EwKind::SIToFP;
  cast.operands = {topk.results[1]};
  cast.results = {p.addValue(t(ElementType::F16, {4, 3}))};
  p.ops.push_back(cast);
  p.outputs = {slice.results[0], mul.results[0], cast.results[0]};
  return p;
}

/// Applies `breakIt` to a valid program and expects validate() to fail with a
/// message containing `needle`.
void expectInvalid(const std::function<void(Program &)> &breakIt,
                   const std::string &needle) {
  Program p = validProgram();
  breakIt(p);
  std::string message = validate(p);
  EXPECT_FALSE(message.empty()) << "expected a failure mentioning " << needle;
  EXPECT_NE(message.find(needle), std::string::npos)
      << "message: " << message << "\nexpected to contain: " << needle;
}

constexpr size_t kAdd = 0, kIota = 1, kSort = 2, kTopK = 3, kSlice = 4,
                 kMul = 5, kCast = 6;

} // namespace

TEST(ProgramModel, ValidProgramPasses) {
  EXPECT_EQ(validate(validProgram()), "");
}

TEST(ProgramModel, Names) {
  EXPECT_EQ(toString(OpKind::Sort), "sort");
  EXPECT_EQ(toString(OpKind::TopK), "topk");
  EXPECT_EQ(toString(OpKind::Slice), "slice");
  EXPECT_EQ(toString(SortOrder::Descending), "descending");
  EXPECT_EQ(toString(ComparatorKind::LessLowByte), "less_low_byte");
  EXPECT_EQ(toString(EwKind::Sigmoid), "sigmoid");
  std::set<std::string_view> names;
  for (EwKind kind : kAllEwKinds) {
    EXPECT_NE(toString(kind), "?");
    names.insert(toString(kind));
  }
  EXPECT_EQ(names.size(), kNumEwKinds);
}

TEST(ProgramModel, Weight) {
  Program p = validProgram();
  // 7 ops; elements: 32 + 32 + 64 + 24 + 12 + 12 + 12.
  EXPECT_EQ(p.weight(), 7 + 32 + 32 + 64 + 24 + 12 + 12 + 12);
  // An op producing an empty tensor still weighs 1.
  Program empty;
  int a = empty.addValue(t(ElementType::F32, {0, 3}));
  empty.inputs = {a};
  Op neg;
  neg.ew = EwKind::NegF;
  neg.operands = {a};
  neg.results = {empty.addValue(t(ElementType::F32, {0, 3}))};
  empty.ops.push_back(neg);
  empty.outputs = {1};
  EXPECT_EQ(validate(empty), "");
  EXPECT_EQ(empty.weight(), 1);
}

TEST(ProgramModel, RejectsStructuralErrors) {
  expectInvalid([](Program &p) { p.outputs.clear(); }, "no outputs");
  expectInvalid([](Program &p) { p.outputs.push_back(99); }, "out of range");
  expectInvalid([](Program &p) { p.inputs.push_back(42); }, "out of range");
  expectInvalid([](Program &p) { p.inputs.push_back(p.inputs[0]); },
                "already an input");
  expectInvalid([](Program &p) { p.ops[kAdd].operands[1] = 77; },
                "out of range");
  expectInvalid([](Program &p) { p.ops[kAdd].operands[1] = -1; },
                "out of range");
  expectInvalid([](Program &p) { p.ops[kAdd].results[0] = 50; },
                "out of range");
  // A use before the definition: the add reads the iota's result.
  expectInvalid(
      [](Program &p) {
        p.values[1] = p.values[3]; // keep types plausible
        p.ops[kAdd].operands[1] = p.ops[kIota].results[0];
      },
      "used before it is defined");
  // A value defined twice (by an input and an op).
  expectInvalid([](Program &p) { p.ops[kIota].results[0] = p.inputs[0]; },
                "already defined by an input");
  // ... or by two ops.
  expectInvalid(
      [](Program &p) { p.ops[kMul].results[0] = p.ops[kAdd].results[0]; },
      "already defined by op 0");
  // A value nothing defines may not be returned ...
  expectInvalid(
      [](Program &p) {
        p.outputs.push_back(p.addValue(t(ElementType::F32, {2})));
      },
      "output 3: value 11 is never defined");
  // ... but is tolerated while unused (a reducer deleted its op).
  Program orphan = validProgram();
  orphan.addValue(t(ElementType::F32, {2}));
  EXPECT_EQ(validate(orphan), "");
  expectInvalid([](Program &p) { p.ops[kAdd].kind = static_cast<OpKind>(17); },
                "unknown op kind");
}

TEST(ProgramModel, RejectsBadTypes) {
  expectInvalid([](Program &p) { p.values[0].shape = {}; }, "rank 0");
  expectInvalid(
      [](Program &p) {
        p.values[0].shape = {4, -8};
      },
      "negative dimension");
  expectInvalid(
      [](Program &p) {
        p.values[0].shape = {1 << 30, 1 << 30, 1 << 30};
      },
      "2^40");
  expectInvalid(
      [](Program &p) { p.values[0].elementType = static_cast<ElementType>(9); },
      "unknown element type");
}

TEST(ProgramModel, RejectsBadElementwise) {
  expectInvalid([](Program &p) { p.ops[kAdd].operands.pop_back(); },
                "expected 2 operand(s)");
  expectInvalid(
      [](Program &p) { p.ops[kAdd].results.push_back(p.ops[kMul].results[0]); },
      "result(s)");
  expectInvalid(
      [](Program &p) {
        p.values[1].shape = {4, 7};
      },
      "has shape [4, 7]");
  expectInvalid([](Program &p) { p.values[1].elementType = ElementType::F16; },
                "different element types");
  // Integer op on floats.
  expectInvalid([](Program &p) { p.ops[kAdd].ew = EwKind::AddI; },
                "does not accept operands of type f32");
  // Wrong result type for a same-type op.
  expectInvalid([](Program &p) { p.values[2].elementType = ElementType::F64; },
                "cannot produce f64 from f32");
  // extf must widen.
  expectInvalid(
      [](Program &p) {
        p.ops[kMul].ew = EwKind::ExtF;
        p.values[static_cast<size_t>(p.ops[kMul].results[0])].elementType =
            ElementType::F16;
      },
      "cannot produce f16 from f32");
  // trunci gives integers only; extsi does not take i64.
  expectInvalid([](Program &p) { p.ops[kCast].ew = EwKind::TruncI; },
                "trunci cannot produce f16 from i64");
  expectInvalid([](Program &p) { p.ops[kCast].ew = EwKind::ExtSI; },
                "extsi does not accept operands of type i64");
  // Constants must be exact and finite.
  expectInvalid([](Program &p) { p.ops[kMul].constant = 0.1; },
                "not finite and exact");
  expectInvalid([](Program &p) { p.ops[kMul].constant = INFINITY; },
                "not finite and exact");
  expectInvalid([](Program &p) { p.ops[kAdd].ew = static_cast<EwKind>(99); },
                "unknown elementwise kind");
  // i32 constant range.
  Program q;
  int a = q.addValue(t(ElementType::I32, {3}));
  q.inputs = {a};
  Op add;
  add.ew = EwKind::AddConstI;
  add.intConstant = int64_t(1) << 40;
  add.operands = {a};
  add.results = {q.addValue(t(ElementType::I32, {3}))};
  q.ops.push_back(add);
  q.outputs = {1};
  EXPECT_NE(validate(q).find("does not fit in i32"), std::string::npos);
  q.ops[0].intConstant = -5;
  EXPECT_EQ(validate(q), "");
}

TEST(ProgramModel, RejectsBadIota) {
  expectInvalid([](Program &p) { p.ops[kIota].dimension = 2; },
                "dimension 2 out of range for rank 2");
  expectInvalid([](Program &p) { p.ops[kIota].dimension = -1; },
                "out of range");
  expectInvalid([](Program &p) { p.ops[kIota].operands = {0}; },
                "expected 0 operand(s)");
  expectInvalid([](Program &p) { p.values[3].elementType = ElementType::F32; },
                "must be i32 or i64");
}

TEST(ProgramModel, RejectsBadSort) {
  expectInvalid([](Program &p) { p.ops[kSort].dimension = 5; },
                "dimension 5 out of range");
  expectInvalid(
      [](Program &p) {
        p.ops[kSort].operands.clear();
        p.ops[kSort].results.clear();
        // Keep the sort's former results defined as inputs.
        p.inputs.push_back(4);
        p.inputs.push_back(5);
      },
      "expected 1 to 3 operands");
  expectInvalid(
      [](Program &p) {
        for (int i = 0; i < 3; ++i) {
          p.ops[kSort].operands.push_back(0);
          p.ops[kSort].results.push_back(p.addValue(p.values[0]));
        }
      },
      "expected 1 to 3 operands, found 5");
  expectInvalid([](Program &p) { p.ops[kSort].results.pop_back(); },
                "one result per operand");
  expectInvalid(
      [](Program &p) {
        p.values[3].shape = {4, 9};
        p.values[5].shape = {4, 9};
      },
      "operand 1 has shape [4, 9]");
  expectInvalid([](Program &p) { p.values[5].elementType = ElementType::I32; },
                "result 1 has type tensor<4x8xi32>");
  // Comparator kinds must match the key type.
  expectInvalid(
      [](Program &p) { p.ops[kSort].comparator = ComparatorKind::LessLowByte; },
      "less_low_byte needs an integer key");
  expectInvalid(
      [](Program &p) {
        std::swap(p.ops[kSort].operands[0], p.ops[kSort].operands[1]);
        std::swap(p.ops[kSort].results[0], p.ops[kSort].results[1]);
        p.ops[kTopK].operands[0] = p.ops[kSort].results[1];
        p.ops[kSlice].operands[0] = p.ops[kSort].results[0];
      },
      "less_abs needs a float key");
  expectInvalid(
      [](Program &p) { p.ops[kSort].order = static_cast<SortOrder>(7); },
      "unknown sort order");
  expectInvalid(
      [](Program &p) {
        p.ops[kSort].comparator = static_cast<ComparatorKind>(7);
      },
      "unknown comparator kind");
  // Named orders do not care about the comparator field.
  Program p = validProgram();
  p.ops[kSort].order = SortOrder::Descending;
  p.ops[kSort].comparator = static_cast<ComparatorKind>(7);
  EXPECT_EQ(validate(p), "");
}

TEST(ProgramModel, RejectsBadTopK) {
  expectInvalid([](Program &p) { p.ops[kTopK].k = 9; }, "k = 9 outside [0, 8]");
  expectInvalid([](Program &p) { p.ops[kTopK].k = -1; }, "outside [0, 8]");
  expectInvalid([](Program &p) { p.ops[kTopK].dimension = 2; }, "out of range");
  expectInvalid([](Program &p) { p.ops[kTopK].results.pop_back(); },
                "expected 2 result(s)");
  expectInvalid([](Program &p) { p.values[6].elementType = ElementType::F16; },
                "values result has type tensor<4x3xf16>");
  expectInvalid([](Program &p) { p.values[7].elementType = ElementType::I32; },
                "indices result has type tensor<4x3xi32>");
  expectInvalid(
      [](Program &p) {
        p.ops[kTopK].k = 4; // results still say 3
      },
      "expected tensor<4x4xf32>");
  // k = 0 and k = n are valid.
  for (int64_t k : {0, 8}) {
    Program p = validProgram();
    p.ops[kTopK].k = k;
    for (int id : {6, 7, 9})
      p.values[static_cast<size_t>(id)].shape = {4, k};
    p.values[10].shape = {4, k};
    EXPECT_EQ(validate(p), "") << "k = " << k;
  }
}

TEST(ProgramModel, RejectsBadSlice) {
  expectInvalid([](Program &p) { p.ops[kSlice].strides = {1}; },
                "need 2 entries each");
  expectInvalid(
      [](Program &p) {
        p.ops[kSlice].strides = {1, 0};
      },
      "stride 0 must be at least 1");
  expectInvalid(
      [](Program &p) {
        p.ops[kSlice].offsets = {-1, 1};
      },
      "offset -1 must lie in [0, 4)");
  // Offset at the end, even for an empty slice (MLIR's verifier rule).
  expectInvalid(
      [](Program &p) {
        p.ops[kSlice].offsets = {0, 8};
        p.ops[kSlice].sizes = {4, 0};
        p.values[8].shape = {4, 0};
      },
      "offset 8 must lie in [0, 8)");
  // The last element past the end: 1 + (4 - 1) * 2 = 7 is fine, size 5 not.
  expectInvalid(
      [](Program &p) {
        p.ops[kSlice].sizes = {4, 5};
        p.values[8].shape = {4, 5};
      },
      "out of bounds");
  expectInvalid(
      [](Program &p) {
        p.ops[kSlice].sizes = {4, -3};
      },
      "negative size");
  expectInvalid(
      [](Program &p) {
        p.values[8].shape = {4, 2};
      },
      "differs from the sizes");
  expectInvalid([](Program &p) { p.values[8].elementType = ElementType::I32; },
                "element type i32 differs");
  // The largest in-bounds slice and an empty one are fine.
  Program p = validProgram();
  p.ops[kSlice].sizes = {4, 4};
  p.values[8].shape = {4, 4};
  EXPECT_EQ(validate(p), "");
  p.ops[kSlice].offsets = {3, 7};
  p.ops[kSlice].sizes = {0, 1};
  p.values[8].shape = {0, 1};
  EXPECT_EQ(validate(p), "");
  // A source with a zero dimension cannot be sliced at all.
  Program z;
  int a = z.addValue(t(ElementType::F32, {0, 3}));
  z.inputs = {a};
  Op s;
  s.kind = OpKind::Slice;
  s.operands = {a};
  s.offsets = {0, 0};
  s.sizes = {0, 3};
  s.strides = {1, 1};
  s.results = {z.addValue(t(ElementType::F32, {0, 3}))};
  z.ops.push_back(s);
  z.outputs = {1};
  EXPECT_NE(validate(z).find("offset 0 must lie in [0, 0)"), std::string::npos);
}

namespace {

/// A valid sift.nms program:
///   v0 = input f32[2x5x4] (boxes), v1 = input f16[2x3x5] (scores)
///   op0: v2, v3 = nms(v0, v1) max_out 2 -> i64[12x3], i64[1]
Program validNmsProgram() {
  Program p;
  int boxes = p.addValue(t(ElementType::F32, {2, 5, 4}));
  int scores = p.addValue(t(ElementType::F16, {2, 3, 5}));
  p.inputs = {boxes, scores};
  Op nms;
  nms.kind = OpKind::Nms;
  nms.operands = {boxes, scores};
  nms.maxOutputBoxesPerClass = 2;
  nms.iouThreshold = 0.5f;
  nms.scoreThreshold = 0.25f;
  nms.results = {p.addValue(t(ElementType::I64, {12, 3})),
                 p.addValue(t(ElementType::I64, {1}))};
  p.ops.push_back(nms);
  p.outputs = {2, 3};
  return p;
}

void expectInvalidNms(const std::function<void(Program &)> &breakIt,
                      const std::string &needle) {
  Program p = validNmsProgram();
  breakIt(p);
  std::string message = validate(p);
  EXPECT_NE(message.find(needle), std::string::npos)
      << "message: " << message << "\nexpected to contain: " << needle;
}

} // namespace

TEST(ProgramModel, NmsRules) {
  EXPECT_EQ(validate(validNmsProgram()), "");
  EXPECT_EQ(toString(OpKind::Nms), "nms");
  // Thresholds at the ends, no score threshold, center format: valid.
  for (float iou : {0.0f, 1.0f}) {
    Program p = validNmsProgram();
    p.ops[0].iouThreshold = iou;
    p.ops[0].scoreThreshold.reset();
    p.ops[0].centerPointBox = true;
    EXPECT_EQ(validate(p), "");
  }
  // A negative max_out selects nothing: zero rows.
  Program negative = validNmsProgram();
  negative.ops[0].maxOutputBoxesPerClass = -7;
  negative.values[2].shape = {0, 3};
  EXPECT_EQ(validate(negative), "");
  // N = 0 and max_out > N are valid too.
  Program empty = validNmsProgram();
  empty.values[0].shape = {2, 0, 4};
  empty.values[1].shape = {2, 3, 0};
  empty.ops[0].maxOutputBoxesPerClass = 3;
  empty.values[2].shape = {18, 3};
  EXPECT_EQ(validate(empty), "");

  expectInvalidNms([](Program &p) { p.ops[0].operands.pop_back(); },
                   "expected 2 operand(s)");
  expectInvalidNms(
      [](Program &p) { p.values[0].elementType = ElementType::F64; },
      "must be f16, bf16 or f32");
  expectInvalidNms(
      [](Program &p) { p.values[1].elementType = ElementType::I32; },
      "must be f16, bf16 or f32");
  expectInvalidNms(
      [](Program &p) {
        p.values[0].shape = {2, 5, 3};
      },
      "boxes must be [B, N, 4]");
  expectInvalidNms(
      [](Program &p) {
        p.values[1].shape = {2, 3, 6};
      },
      "scores must be [B, C, N]");
  expectInvalidNms(
      [](Program &p) {
        p.values[1].shape = {1, 3, 5};
      },
      "scores must be [B, C, N]");
  expectInvalidNms([](Program &p) { p.ops[0].iouThreshold = 1.5f; },
                   "outside [0, 1]");
  expectInvalidNms([](Program &p) { p.ops[0].iouThreshold = NAN; },
                   "outside [0, 1]");
  expectInvalidNms([](Program &p) { p.ops[0].scoreThreshold = NAN; },
                   "score threshold is NaN");
  expectInvalidNms([](Program &p) { p.ops[0].maxOutputBoxesPerClass = 3; },
                   "selected result has type");
  expectInvalidNms([](Program &p) { p.values[3].shape = {2}; },
                   "count result has type");
  expectInvalidNms(
      [](Program &p) { p.ops[0].maxOutputBoxesPerClass = int64_t(1) << 40; },
      "makes too many rows");
}

namespace {

/// A valid gather program (the nms pre-filter's scores):
///   v0 = input f32[2x3x5] (source), v1 = input i64[2x4] (indices)
///   op0: v2 = gather(v0, v1) axis 2 -> f32[2x3x4]
Program validGatherProgram() {
  Program p;
  int source = p.addValue(t(ElementType::F32, {2, 3, 5}));
  int indices = p.addValue(t(ElementType::I64, {2, 4}));
  p.inputs = {source, indices};
  Op gather;
  gather.kind = OpKind::Gather;
  gather.operands = {source, indices};
  gather.axis = 2;
  gather.results = {p.addValue(t(ElementType::F32, {2, 3, 4}))};
  p.ops.push_back(gather);
  p.outputs = {2};
  return p;
}

void expectInvalidGather(const std::function<void(Program &)> &breakIt,
                         const std::string &needle) {
  Program p = validGatherProgram();
  breakIt(p);
  std::string message = validate(p);
  EXPECT_NE(message.find(needle), std::string::npos)
      << "message: " << message << "\nexpected to contain: " << needle;
}

} // namespace

TEST(ProgramModel, GatherRules) {
  EXPECT_EQ(validate(validGatherProgram()), "");
  EXPECT_EQ(toString(OpKind::Gather), "gather");
  // Axis 1 (the boxes' gather), K = 0, and an empty source with nothing to
  // read are valid.
  Program axis1 = validGatherProgram();
  axis1.ops[0].axis = 1;
  axis1.values[2].shape = {2, 4, 5};
  EXPECT_EQ(validate(axis1), "");
  Program k0 = validGatherProgram();
  k0.values[1].shape = {2, 0};
  k0.values[2].shape = {2, 3, 0};
  EXPECT_EQ(validate(k0), "");
  Program empty = validGatherProgram();
  empty.values[0].shape = {2, 0, 5};
  empty.values[2].shape = {2, 0, 4};
  EXPECT_EQ(validate(empty), "");

  expectInvalidGather([](Program &p) { p.ops[0].operands.pop_back(); },
                      "expected 2 operand(s)");
  expectInvalidGather([](Program &p) { p.ops[0].axis = 0; },
                      "axis 0 outside [1, 3)");
  expectInvalidGather([](Program &p) { p.ops[0].axis = 3; },
                      "axis 3 outside [1, 3)");
  expectInvalidGather(
      [](Program &p) { p.values[1].elementType = ElementType::I32; },
      "indices must be [B, K] i64");
  expectInvalidGather([](Program &p) { p.values[1].shape = {2, 4, 1}; },
                      "indices must be [B, K] i64");
  expectInvalidGather([](Program &p) { p.values[1].shape = {1, 4}; },
                      "dimension 0 = 1");
  expectInvalidGather(
      [](Program &p) {
        p.values[0].shape = {2};
        p.values[2].shape = {2};
      },
      "rank >= 2");
  expectInvalidGather([](Program &p) { p.values[2].shape = {2, 3, 5}; },
                      "expected tensor<2x3x4xf32>");
  expectInvalidGather(
      [](Program &p) { p.values[2].elementType = ElementType::F16; },
      "expected tensor<2x3x4xf32>");
  // Statically out of bounds: 4 indices into a dimension of size 0.
  expectInvalidGather([](Program &p) { p.values[0].shape = {2, 3, 0}; },
                      "of size 0");
}
