//===- test/unittests/generators/JaxEmitterTest.cpp - jax format ----------===//
//
// The Python text emitJaxProgram writes: a whole small argsort module, the
// sort spellings of every order and comparator, top-k, slices (empty ones
// too), iotas, gathers, exact constants, the rounding guard on float steps,
// the NMS call, helpers written only when used and before `program`, errors
// for invalid programs, and determinism over generated programs of every
// family.
//
//===----------------------------------------------------------------------===//
#include "generators/Exchange.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>
#include "test/unittests/generators/HandPrograms.h"

#include <limits>
#include <regex>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

using hand::argsortProgram;
using hand::contains;
using hand::t;

/// The module for `p`, which must emit.
std::string emit(const Program &p) {
  EXPECT_EQ(validate(p), "");
  Result<std::string> text = emitJaxProgram(p);
  EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.message());
  return text.ok() ? *text : "";
}

/// arg0, arg1: `type`[6]; op0: `kind` of both (or of arg0 with `constant`).
Program ewProgram(EwKind kind, ElementType type, ElementType result,
                  double constant = 0.0, int64_t intConstant = 0,
                  bool binary = false) {
  Program p;
  int x = p.addValue(t(type, {6}));
  p.inputs = {x};
  Op op;
  op.ew = kind;
  op.constant = constant;
  op.intConstant = intConstant;
  op.operands = {x};
  if (binary) {
    int y = p.addValue(t(type, {6}));
    p.inputs.push_back(y);
    op.operands.push_back(y);
  }
  op.results = {p.addValue(t(result, {6}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0]};
  return p;
}

/// The body of `program` (the text after its def line).
std::string body(const std::string &module) {
  size_t at = module.find("def program(*args):\n");
  return at == std::string::npos ? "" : module.substr(at);
}

} // namespace

TEST(JaxEmitter, WholeArgsortModule) {
  const std::string text =
      emit(argsortProgram(SortOrder::Ascending, ComparatorKind::Less));
  EXPECT_EQ(text.rfind("import jax\nimport jax.numpy as jnp\nfrom jax import "
                       "lax\n\n\ndef _sort(operands, dimension, descending, "
                       "key=None):\n",
                       0),
            0u)
      << text;
  EXPECT_TRUE(contains(text, "    results = lax.sort(tuple(operands), "
                             "dimension=dimension, is_stable=True,\n"
                             "                       num_keys=1)\n"));
  EXPECT_EQ(body(text), "def program(*args):\n"
                        "    (v0,) = args\n"
                        "    v1 = lax.broadcasted_iota(jnp.int64, (4, 8), 1)\n"
                        "    v2, v3 = _sort((v0, v1), 1, False)\n"
                        "    return (v2, v3)\n");
  // Nothing the program does not use.
  for (const char *unused : {"_topk", "_nms", "_exact", "_gather", "_maximum"})
    EXPECT_FALSE(contains(text, unused)) << unused;
}

TEST(JaxEmitter, SortOrdersAndComparators) {
  auto line = [](SortOrder order, ComparatorKind kind, ElementType key) {
    return body(emit(argsortProgram(order, kind, key)));
  };
  EXPECT_TRUE(contains(
      line(SortOrder::Descending, ComparatorKind::Less, ElementType::F16),
      "    v2, v3 = _sort((v0, v1), 1, True)\n"));
  EXPECT_TRUE(contains(
      line(SortOrder::Comparator, ComparatorKind::Less, ElementType::I64),
      "    v2, v3 = _sort((v0, v1), 1, False)\n"));
  EXPECT_TRUE(contains(
      line(SortOrder::Comparator, ComparatorKind::Greater, ElementType::F64),
      "    v2, v3 = _sort((v0, v1), 1, True)\n"));
  EXPECT_TRUE(contains(
      line(SortOrder::Comparator, ComparatorKind::LessAbs, ElementType::F32),
      "    v2, v3 = _sort((v0, v1), 1, False, key=jnp.abs(v0))\n"));
  EXPECT_TRUE(contains(line(SortOrder::Comparator, ComparatorKind::LessLowByte,
                            ElementType::I32),
                       "    v2, v3 = _sort((v0, v1), 1, False, "
                       "key=v0 & jnp.asarray(255, jnp.int32))\n"));
  // Descending reverses around a stable ascending sort.
  std::string helper =
      emit(argsortProgram(SortOrder::Descending, ComparatorKind::Less));
  EXPECT_TRUE(contains(helper, "lax.rev(x, (dimension,))"));

  // One operand: a one-element tuple on both sides.
  Program one;
  int x = one.addValue(t(ElementType::F32, {16}));
  one.inputs = {x};
  Op sort;
  sort.kind = OpKind::Sort;
  sort.order = SortOrder::Descending;
  sort.operands = {x};
  sort.results = {one.addValue(t(ElementType::F32, {16}))};
  one.ops.push_back(sort);
  one.outputs = {1};
  EXPECT_EQ(body(emit(one)), "def program(*args):\n"
                             "    (v0,) = args\n"
                             "    (v1,) = _sort((v0,), 0, True)\n"
                             "    return (v1,)\n");
}

TEST(JaxEmitter, TopK) {
  Program p;
  int x = p.addValue(t(ElementType::F16, {4, 8}));
  p.inputs = {x};
  Op topk;
  topk.kind = OpKind::TopK;
  topk.dimension = 0;
  topk.k = 3;
  topk.largest = false;
  topk.operands = {x};
  topk.results = {p.addValue(t(ElementType::F16, {3, 8})),
                  p.addValue(t(ElementType::I64, {3, 8}))};
  p.ops.push_back(topk);
  p.outputs = {2};
  std::string text = emit(p);
  EXPECT_TRUE(contains(text, "    v1, v2 = _topk(v0, 3, 0, False)\n"
                             "    return (v2,)\n"))
      << text;
  EXPECT_TRUE(
      contains(text, "_, indices = lax.top_k(key if largest else ~key, k)"));
  EXPECT_TRUE(contains(text, "def _total_key(x):"));
  EXPECT_TRUE(contains(text, "indices = indices.astype(jnp.int64)"));
  p.ops[0].largest = true;
  p.ops[0].k = 0;
  p.values[1].shape = {0, 8};
  p.values[2].shape = {0, 8};
  EXPECT_TRUE(contains(emit(p), "    v1, v2 = _topk(v0, 0, 0, True)\n"));
}

TEST(JaxEmitter, SliceIotaGather) {
  Program p;
  int x = p.addValue(t(ElementType::I32, {4, 8}));
  p.inputs = {x};
  Op slice;
  slice.kind = OpKind::Slice;
  slice.operands = {x};
  slice.offsets = {0, 1};
  slice.sizes = {4, 3};
  slice.strides = {1, 2};
  slice.results = {p.addValue(t(ElementType::I32, {4, 3}))};
  p.ops.push_back(slice);
  Op empty = slice;
  empty.offsets = {2, 0};
  empty.sizes = {0, 8};
  empty.strides = {1, 1};
  empty.results = {p.addValue(t(ElementType::I32, {0, 8}))};
  p.ops.push_back(empty);
  p.outputs = {1, 2};
  std::string text = body(emit(p));
  EXPECT_TRUE(
      contains(text, "    v1 = lax.slice(v0, (0, 1), (4, 6), (1, 2))\n"))
      << text;
  EXPECT_TRUE(
      contains(text, "    v2 = lax.slice(v0, (2, 0), (2, 8), (1, 1))\n"))
      << text;

  Program g;
  int source = g.addValue(t(ElementType::F32, {2, 3, 5}));
  int indices = g.addValue(t(ElementType::I64, {2, 4}));
  g.inputs = {source, indices};
  Op gather;
  gather.kind = OpKind::Gather;
  gather.axis = 2;
  gather.operands = {source, indices};
  gather.results = {g.addValue(t(ElementType::F32, {2, 3, 4}))};
  g.ops.push_back(gather);
  Op iota;
  iota.kind = OpKind::Iota;
  iota.dimension = 0;
  iota.results = {g.addValue(t(ElementType::I32, {7}))};
  g.ops.push_back(iota);
  g.outputs = {2, 3};
  text = emit(g);
  EXPECT_TRUE(contains(text,
                       "    v0, v1 = args\n"
                       "    v2 = _gather(v0, v1, 2)\n"
                       "    v3 = lax.broadcasted_iota(jnp.int32, (7,), 0)\n"
                       "    return (v2, v3)\n"))
      << text;
  EXPECT_TRUE(contains(text, "jnp.take_along_axis(source, index, axis=axis)"));
}

TEST(JaxEmitter, ExactConstantsAndRoundingGuards) {
  // The lines between the arguments and the return.
  auto line = [](const Program &p) {
    std::string b = body(emit(p));
    size_t from = b.find(" = args\n"), to = b.find("    return");
    if (from == std::string::npos || to == std::string::npos)
      return b;
    from += 8;
    return b.substr(from, to - from);
  };
  EXPECT_EQ(line(ewProgram(EwKind::AddConstF, ElementType::F32,
                           ElementType::F32, 0.1f)),
            "    v1 = _exact(v0 + jnp.asarray(float.fromhex('0x1.99999ap-4'), "
            "jnp.float32))\n");
  EXPECT_EQ(line(ewProgram(EwKind::MulConstF, ElementType::F16,
                           ElementType::F16, -0.0)),
            "    v1 = _exact(v0 * jnp.asarray(float.fromhex('-0x0p+0'), "
            "jnp.float16))\n");
  EXPECT_EQ(
      line(ewProgram(EwKind::MulConstI, ElementType::I64, ElementType::I64, 0.0,
                     std::numeric_limits<int64_t>::min())),
      "    v1 = v0 * jnp.asarray(-9223372036854775808, jnp.int64)\n");
  EXPECT_EQ(line(ewProgram(EwKind::MulF, ElementType::F64, ElementType::F64,
                           0.0, 0, true)),
            "    v2 = _exact(v0 * v1)\n");
  EXPECT_EQ(line(ewProgram(EwKind::MaximumF, ElementType::F32, ElementType::F32,
                           0.0, 0, true)),
            "    v2 = _maximum(v0, v1)\n");
  EXPECT_EQ(line(ewProgram(EwKind::XOrI, ElementType::I32, ElementType::I32,
                           0.0, 0, true)),
            "    v2 = v0 ^ v1\n");
  EXPECT_EQ(
      line(ewProgram(EwKind::Sigmoid, ElementType::F16, ElementType::F16)),
      "    v1 = _sigmoid(v0)\n");
  // Casts: widening is exact; narrowing rounds once, f64 -> f16 too.
  EXPECT_EQ(line(ewProgram(EwKind::ExtF, ElementType::F16, ElementType::F64)),
            "    v1 = v0.astype(jnp.float64)\n");
  EXPECT_EQ(line(ewProgram(EwKind::TruncF, ElementType::F32, ElementType::F16)),
            "    v1 = _exact(v0.astype(jnp.float16))\n");
  std::string narrow =
      emit(ewProgram(EwKind::TruncF, ElementType::F64, ElementType::F16));
  EXPECT_TRUE(contains(narrow, "    v1 = _exact(_f64_to_f16(v0))\n"));
  EXPECT_TRUE(contains(narrow, "def _f64_to_f16(x):"));
  EXPECT_EQ(line(ewProgram(EwKind::SIToFP, ElementType::I64, ElementType::F32)),
            "    v1 = _exact(v0.astype(jnp.float32))\n");
  EXPECT_EQ(line(ewProgram(EwKind::TruncI, ElementType::I64, ElementType::I32)),
            "    v1 = v0.astype(jnp.int32)\n");
}

TEST(JaxEmitter, Nms) {
  Program p;
  int boxes = p.addValue(t(ElementType::F16, {2, 5, 4}));
  int scores = p.addValue(t(ElementType::F32, {2, 3, 5}));
  p.inputs = {boxes, scores};
  Op nms;
  nms.kind = OpKind::Nms;
  nms.operands = {boxes, scores};
  nms.maxOutputBoxesPerClass = 4;
  nms.iouThreshold = 0.5f;
  nms.centerPointBox = true;
  nms.results = {p.addValue(t(ElementType::I64, {24, 3})),
                 p.addValue(t(ElementType::I64, {1}))};
  p.ops.push_back(nms);
  p.outputs = {2, 3};
  std::string text = emit(p);
  EXPECT_TRUE(contains(text, "    v2, v3 = _nms(v0, v1, 4, "
                             "float.fromhex('0x1p-1'), None, True)\n"))
      << text;
  EXPECT_TRUE(contains(text, "lax.while_loop(more, visit, (0, kept, count))"));
  EXPECT_TRUE(contains(text, "def _nms_iou(a, b):"));
  p.ops[0].scoreThreshold = -0.25f;
  p.ops[0].maxOutputBoxesPerClass = std::numeric_limits<int64_t>::min();
  p.ops[0].centerPointBox = false;
  p.values[2].shape = {0, 3};
  EXPECT_TRUE(contains(emit(p), "    v2, v3 = _nms(v0, v1, "
                                "-9223372036854775808, float.fromhex('0x1p-1'),"
                                " float.fromhex('-0x1p-2'), False)\n"));
}

TEST(JaxEmitter, InvalidProgramIsAnError) {
  Program p = argsortProgram(SortOrder::Ascending, ComparatorKind::Less);
  p.outputs = {99};
  Result<std::string> text = emitJaxProgram(p);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.message().rfind("jax: the program is invalid: ", 0), 0u)
      << text.message();
}

TEST(JaxEmitter, GeneratedProgramsEmitDeterministically) {
  // Every helper the body calls is defined, before `program`.
  const std::regex call(R"(\b(_[a-z0-9_]+)\()");
  for (Family family : kAllFamilies) {
    Policy policy = policyFor(toString(family), false, SizeMode::Default);
    for (uint64_t seed = 0; seed < 150; ++seed) {
      Program p = generateProgram(policy, seed);
      Result<std::string> first = emitJaxProgram(p);
      ASSERT_TRUE(first.ok())
          << toString(family) << " seed " << seed << ": " << first.message();
      Result<std::string> second = emitJaxProgram(p);
      ASSERT_TRUE(second.ok());
      EXPECT_EQ(*first, *second) << toString(family) << " seed " << seed;
      const std::string b = body(*first);
      ASSERT_FALSE(b.empty());
      const std::string helpers = first->substr(0, first->size() - b.size());
      for (std::sregex_iterator it(b.begin(), b.end(), call), end; it != end;
           ++it)
        EXPECT_TRUE(contains(helpers, "def " + (*it)[1].str() + "("))
            << (*it)[1].str() << " in " << toString(family) << " seed " << seed;
      EXPECT_TRUE(contains(b, "\n    return (")) << b;
    }
  }
}

// bf16 travels in the jax format (the runner reads and writes
// ml_dtypes' bf16) and nowhere its runners cannot carry it yet: the error
// names the format.
TEST(JaxEmitter, Bf16ReachesOnlyTheFormatsThatCarryIt) {
  Program p = ewProgram(EwKind::NegF, ElementType::BF16, ElementType::BF16);
  ASSERT_EQ(validate(p), "");
  Result<ExchangeProgram> jax = emitExchange(p, ExchangeFormat::Jax);
  ASSERT_TRUE(jax.ok()) << jax.message();
  EXPECT_TRUE(contains(jax->bytes, "def program("));
  EXPECT_TRUE(exchangeCarriesBf16(ExchangeFormat::Jax));
  for (ExchangeFormat format : {ExchangeFormat::Onnx, ExchangeFormat::PyTorch,
                                ExchangeFormat::StableHlo}) {
    EXPECT_FALSE(exchangeCarriesBf16(format));
    Result<ExchangeProgram> refused = emitExchange(p, format);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(contains(refused.message(), "bf16 values are not written"));
  }
}
