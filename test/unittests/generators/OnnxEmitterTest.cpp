//===- test/unittests/generators/OnnxEmitterTest.cpp - ONNX model bytes ---===//
//
// The protobuf wire format against known bytes, and models decoded back
// with a small wire-format reader: ModelProto's top-level fields, the graph's
// inputs, outputs and their types, node op types and attributes, initializer
// values, every node input defined before use, for hand-built sort, top-k,
// NMS and elementwise programs and for generated programs of every family.
//
//===----------------------------------------------------------------------===//
#include "generators/Exchange.h"
#include "generators/OnnxWriter.h"
#include "generators/ProgramGenerator.h"

#include <gtest/gtest.h>
#include "test/unittests/generators/HandPrograms.h"

#include <cstring>
#include <set>

using namespace sift;
using namespace sift::gen;

namespace {

using hand::argsortProgram;
using hand::contains;
using hand::t;

/// One decoded field: a varint, or the bytes of a length-delimited one.
struct Field {
  int number = 0;
  int wireType = 0;
  uint64_t varint = 0;
  std::string bytes;
};

/// Decodes the fields of one message; false when the bytes are malformed
/// (a truncated varint or length, a wire type other than 0 or 2).
bool decode(const std::string &message, std::vector<Field> &fields) {
  size_t at = 0;
  auto readVarint = [&](uint64_t &value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= message.size())
        return false;
      uint8_t byte = static_cast<uint8_t>(message[at++]);
      value |= uint64_t(byte & 0x7F) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  };
  while (at < message.size()) {
    uint64_t tag;
    if (!readVarint(tag))
      return false;
    Field f;
    f.number = static_cast<int>(tag >> 3);
    f.wireType = static_cast<int>(tag & 7);
    if (f.wireType == 0) {
      if (!readVarint(f.varint))
        return false;
    } else if (f.wireType == 2) {
      uint64_t length;
      if (!readVarint(length) || length > message.size() - at)
        return false;
      f.bytes = message.substr(at, length);
      at += length;
    } else {
      return false;
    }
    fields.push_back(std::move(f));
  }
  return true;
}

std::vector<Field> fieldsOf(const std::string &message) {
  std::vector<Field> fields;
  EXPECT_TRUE(decode(message, fields)) << "malformed message";
  return fields;
}

/// Every field `number` of `message`.
std::vector<Field> all(const std::string &message, int number) {
  std::vector<Field> out;
  for (Field &f : fieldsOf(message))
    if (f.number == number)
      out.push_back(std::move(f));
  return out;
}

std::string bytesOf(const std::string &message, int number) {
  std::vector<Field> f = all(message, number);
  return f.empty() ? std::string() : f.front().bytes;
}

/// A decoded NodeProto.
struct Node {
  std::string opType;
  std::vector<std::string> inputs, outputs;
  std::vector<std::pair<std::string, int64_t>> intAttributes;

  int64_t attribute(const std::string &name) const {
    for (const auto &a : intAttributes)
      if (a.first == name)
        return a.second;
    ADD_FAILURE() << opType << " has no attribute " << name;
    return -999;
  }
};

/// A decoded model: its graph's nodes, initializers (name -> raw data and
/// data type), and inputs and outputs (name, data type, dims).
struct Model {
  int64_t irVersion = 0, opset = 0;
  std::string producer;
  std::vector<Node> nodes;
  std::vector<std::string> initializerNames;
  std::vector<std::pair<std::string, std::string>> initializers;
  struct Value {
    std::string name;
    int64_t type = 0;
    std::vector<int64_t> dims;
  };
  std::vector<Value> inputs, outputs;

  std::vector<std::string> opTypes() const {
    std::vector<std::string> ops;
    for (const Node &n : nodes)
      ops.push_back(n.opType);
    return ops;
  }
  const Node *find(const std::string &opType) const {
    for (const Node &n : nodes)
      if (n.opType == opType)
        return &n;
    return nullptr;
  }
  /// The raw data of initializer `name`.
  std::string raw(const std::string &name) const {
    for (const auto &i : initializers)
      if (i.first == name)
        return i.second;
    ADD_FAILURE() << "no initializer " << name;
    return "";
  }
  int64_t int64At(const std::string &name, size_t index = 0) const {
    std::string r = raw(name);
    int64_t v = 0;
    if (r.size() >= (index + 1) * 8)
      std::memcpy(&v, r.data() + index * 8, 8);
    return v;
  }
};

Model::Value valueInfo(const std::string &bytes) {
  Model::Value v;
  v.name = bytesOf(bytes, 1);
  std::string tensor = bytesOf(bytesOf(bytes, 2), 1);
  v.type = static_cast<int64_t>(all(tensor, 1).at(0).varint);
  for (const Field &dim : all(bytesOf(tensor, 2), 1))
    v.dims.push_back(static_cast<int64_t>(all(dim.bytes, 1).at(0).varint));
  return v;
}

Node nodeOf(const std::string &bytes) {
  Node n;
  for (const Field &f : fieldsOf(bytes)) {
    if (f.number == 1)
      n.inputs.push_back(f.bytes);
    else if (f.number == 2)
      n.outputs.push_back(f.bytes);
    else if (f.number == 4)
      n.opType = f.bytes;
    else if (f.number == 5) {
      EXPECT_EQ(all(f.bytes, 20).at(0).varint, 2u) << "INT attributes only";
      n.intAttributes.emplace_back(
          bytesOf(f.bytes, 1),
          static_cast<int64_t>(all(f.bytes, 3).at(0).varint));
    }
  }
  return n;
}

Model decodeModel(const std::string &bytes) {
  Model m;
  m.irVersion = static_cast<int64_t>(all(bytes, 1).at(0).varint);
  m.producer = bytesOf(bytes, 2);
  std::vector<Field> opsets = all(bytes, 8);
  EXPECT_EQ(opsets.size(), 1u);
  m.opset = static_cast<int64_t>(all(opsets.at(0).bytes, 2).at(0).varint);
  std::string graph = bytesOf(bytes, 7);
  for (const Field &f : all(graph, 1))
    m.nodes.push_back(nodeOf(f.bytes));
  for (const Field &f : all(graph, 5))
    m.initializers.emplace_back(bytesOf(f.bytes, 8), bytesOf(f.bytes, 9));
  for (const Field &f : all(graph, 11))
    m.inputs.push_back(valueInfo(f.bytes));
  for (const Field &f : all(graph, 12))
    m.outputs.push_back(valueInfo(f.bytes));
  return m;
}

Model emitAndDecode(const Program &p) {
  Result<std::string> bytes = emitOnnxModel(p);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.message());
  return bytes.ok() ? decodeModel(*bytes) : Model{};
}

/// arg0: f32[3x10]; top-k along 1 with `k`.
Program topkProgram(int64_t k, bool largest) {
  Program p;
  int x = p.addValue(t(ElementType::F32, {3, 10}));
  p.inputs = {x};
  Op op;
  op.kind = OpKind::TopK;
  op.dimension = 1;
  op.k = k;
  op.largest = largest;
  op.operands = {x};
  op.results = {p.addValue(t(ElementType::F32, {3, k})),
                p.addValue(t(ElementType::I64, {3, k}))};
  p.ops.push_back(op);
  p.outputs = {op.results[1], op.results[0]};
  return p;
}

/// boxes `type`[2x5x4], scores `type`[2x3x5]; NMS with `maxOut`.
Program nmsProgram(ElementType type, int64_t maxOut,
                   std::optional<float> scoreThreshold, bool center) {
  Program p;
  int boxes = p.addValue(t(type, {2, 5, 4}));
  int scores = p.addValue(t(type, {2, 3, 5}));
  p.inputs = {boxes, scores};
  Op op;
  op.kind = OpKind::Nms;
  op.operands = {boxes, scores};
  op.maxOutputBoxesPerClass = maxOut;
  op.iouThreshold = 0.25f;
  op.scoreThreshold = scoreThreshold;
  op.centerPointBox = center;
  int64_t capacity = 2 * 3 * std::max<int64_t>(maxOut, 0);
  op.results = {p.addValue(t(ElementType::I64, {capacity, 3})),
                p.addValue(t(ElementType::I64, {1}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0], op.results[1]};
  return p;
}

/// arg0, arg1: `type`[6]; op0: binary `kind`.
Program binaryProgram(EwKind kind, ElementType type) {
  Program p;
  int a = p.addValue(t(type, {6})), b = p.addValue(t(type, {6}));
  p.inputs = {a, b};
  Op op;
  op.ew = kind;
  op.operands = {a, b};
  op.results = {p.addValue(t(type, {6}))};
  p.ops.push_back(op);
  p.outputs = {op.results[0]};
  return p;
}

using Ops = std::vector<std::string>;

} // namespace

TEST(OnnxWriter, WireFormatBytes) {
  onnx::ProtoWriter w;
  w.varintField(1, 300);
  EXPECT_EQ(w.bytes(), std::string("\x08\xAC\x02", 3));
  onnx::ProtoWriter negative;
  negative.int64Field(3, -1);
  EXPECT_EQ(negative.bytes(),
            std::string("\x18\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 11));
  onnx::ProtoWriter text;
  text.bytesField(2, "ab");
  EXPECT_EQ(text.bytes(), std::string("\x12\x02"
                                      "ab",
                                      4));
  onnx::ProtoWriter packed;
  packed.packedInt64Field(1, {3, 270});
  EXPECT_EQ(packed.bytes(), std::string("\x0A\x03\x03\x8E\x02", 5));
  onnx::ProtoWriter none;
  none.packedInt64Field(1, {});
  EXPECT_TRUE(none.bytes().empty());
}

TEST(OnnxWriter, TensorAndValueInfo) {
  std::string tensor =
      onnx::tensorProto("c", onnx::DataType::Int64, {2}, std::string(16, '\0'));
  // dims (packed) = [2], data_type = 7, name = "c", raw_data = 16 bytes.
  EXPECT_EQ(tensor.substr(0, 8), std::string("\x0A\x01\x02\x10\x07\x42\x01"
                                             "c",
                                             8));
  EXPECT_EQ(bytesOf(tensor, 9).size(), 16u);
  Model::Value v =
      valueInfo(onnx::valueInfo("x", onnx::DataType::Float16, {3, 0, 7}));
  EXPECT_EQ(v.name, "x");
  EXPECT_EQ(v.type, 10);
  EXPECT_EQ(v.dims, (std::vector<int64_t>{3, 0, 7}));
}

TEST(OnnxEmitter, ModelHeaderAndSignature) {
  Model m =
      emitAndDecode(argsortProgram(SortOrder::Ascending, ComparatorKind::Less));
  EXPECT_EQ(m.irVersion, 8);
  EXPECT_EQ(m.opset, 17);
  EXPECT_EQ(m.producer, "sift");
  ASSERT_EQ(m.inputs.size(), 1u);
  EXPECT_EQ(m.inputs[0].name, "input_0");
  EXPECT_EQ(m.inputs[0].type, 1);
  EXPECT_EQ(m.inputs[0].dims, (std::vector<int64_t>{4, 8}));
  ASSERT_EQ(m.outputs.size(), 2u);
  EXPECT_EQ(m.outputs[0].name, "output_0");
  EXPECT_EQ(m.outputs[1].name, "output_1");
  EXPECT_EQ(m.outputs[1].type, 7);
  EXPECT_EQ(m.outputs[1].dims, (std::vector<int64_t>{4, 8}));
}

TEST(OnnxEmitter, SortIsTopKOfTheWholeDimension) {
  Model m =
      emitAndDecode(argsortProgram(SortOrder::Ascending, ComparatorKind::Less));
  EXPECT_EQ(m.opTypes(), (Ops{"Range", "Reshape", "Expand", "TopK",
                              "GatherElements", "Identity", "Identity"}));
  const Node *topk = m.find("TopK");
  ASSERT_NE(topk, nullptr);
  EXPECT_EQ(topk->attribute("axis"), 1);
  EXPECT_EQ(topk->attribute("largest"), 0);
  EXPECT_EQ(topk->attribute("sorted"), 1);
  EXPECT_EQ(m.int64At(topk->inputs[1]), 8);
  // The key comes straight from TopK; the payload is gathered by its order.
  EXPECT_EQ(topk->inputs[0], "input_0");
  const Node *gather = m.find("GatherElements");
  EXPECT_EQ(gather->inputs[1], topk->outputs[1]);
  EXPECT_EQ(gather->attribute("axis"), 1);
  EXPECT_EQ(m.nodes.at(5).inputs[0], topk->outputs[0]);
}

TEST(OnnxEmitter, SortOrdersAndComparators) {
  Model descending = emitAndDecode(
      argsortProgram(SortOrder::Descending, ComparatorKind::Less));
  EXPECT_EQ(descending.find("TopK")->attribute("largest"), 1);
  Model greater = emitAndDecode(
      argsortProgram(SortOrder::Comparator, ComparatorKind::Greater));
  EXPECT_EQ(greater.find("TopK")->attribute("largest"), 1);
  // |key| sorted ascending; the key itself gathered by the order.
  Model byAbs = emitAndDecode(
      argsortProgram(SortOrder::Comparator, ComparatorKind::LessAbs));
  EXPECT_EQ(byAbs.opTypes(),
            (Ops{"Range", "Reshape", "Expand", "Abs", "TopK", "GatherElements",
                 "GatherElements", "Identity", "Identity"}));
  EXPECT_EQ(byAbs.find("TopK")->attribute("largest"), 0);
  // The low byte: Mod by an i32 256 (opset 17 has no BitwiseAnd).
  Model lowByte = emitAndDecode(argsortProgram(
      SortOrder::Comparator, ComparatorKind::LessLowByte, ElementType::I32));
  const Node *mod = lowByte.find("Mod");
  ASSERT_NE(mod, nullptr);
  EXPECT_EQ(lowByte.raw(mod->inputs[1]), std::string("\x00\x01\x00\x00", 4));
  EXPECT_EQ(lowByte.find("TopK")->inputs[0], mod->outputs[0]);
}

TEST(OnnxEmitter, TopK) {
  Model m = emitAndDecode(topkProgram(3, false));
  EXPECT_EQ(m.opTypes(), (Ops{"TopK", "Identity", "Identity"}));
  const Node *topk = m.find("TopK");
  EXPECT_EQ(topk->attribute("largest"), 0);
  EXPECT_EQ(topk->attribute("sorted"), 1);
  EXPECT_EQ(m.int64At(topk->inputs[1]), 3);
  // Results in the program's order: indices first here.
  EXPECT_EQ(m.nodes[1].inputs[0], topk->outputs[1]);
  EXPECT_EQ(m.outputs[0].dims, (std::vector<int64_t>{3, 3}));
  // k = 0: no TopK (its K must be positive), empty results.
  Model empty = emitAndDecode(topkProgram(0, true));
  EXPECT_EQ(empty.find("TopK"), nullptr);
  EXPECT_EQ(empty.outputs[0].dims, (std::vector<int64_t>{3, 0}));
}

TEST(OnnxEmitter, NmsPaddedAndCounted) {
  Model m = emitAndDecode(nmsProgram(ElementType::F16, 4, 0.5f, true));
  EXPECT_EQ(m.opTypes(), (Ops{"Cast", "Cast", "NonMaxSuppression", "Shape",
                              "Sub", "Concat", "Pad", "Identity", "Identity"}));
  const Node *nms = m.find("NonMaxSuppression");
  ASSERT_EQ(nms->inputs.size(), 5u);
  EXPECT_EQ(nms->attribute("center_point_box"), 1);
  EXPECT_EQ(m.int64At(nms->inputs[2]), 4);
  float iou = 0, score = 0;
  std::memcpy(&iou, m.raw(nms->inputs[3]).data(), 4);
  std::memcpy(&score, m.raw(nms->inputs[4]).data(), 4);
  EXPECT_EQ(iou, 0.25f);
  EXPECT_EQ(score, 0.5f);
  const Node *sub = m.find("Sub");
  EXPECT_EQ(m.int64At(sub->inputs[0]), 24); // 2 * 3 * 4 rows
  EXPECT_EQ(m.outputs[0].dims, (std::vector<int64_t>{24, 3}));
  EXPECT_EQ(m.outputs[1].dims, (std::vector<int64_t>{1}));
  // f32 without a threshold: no Cast, four inputs; a negative maximum is 0.
  Model plain = emitAndDecode(nmsProgram(ElementType::F32, -7, {}, false));
  const Node *plainNms = plain.find("NonMaxSuppression");
  EXPECT_EQ(plain.find("Cast"), nullptr);
  EXPECT_EQ(plainNms->inputs.size(), 4u);
  EXPECT_EQ(plainNms->attribute("center_point_box"), 0);
  EXPECT_EQ(plain.int64At(plainNms->inputs[2]), 0);
}

TEST(OnnxEmitter, ElementwiseSpellings) {
  // maximumf is composed (ONNX's Max leaves NaN and signed zeros open).
  Model maximum =
      emitAndDecode(binaryProgram(EwKind::MaximumF, ElementType::F32));
  EXPECT_EQ(maximum.find("Max"), nullptr);
  EXPECT_NE(maximum.find("IsNaN"), nullptr);
  EXPECT_EQ(maximum.nodes.at(maximum.nodes.size() - 2).opType, "Where");
  Model maxInt = emitAndDecode(binaryProgram(EwKind::MaxSI, ElementType::I64));
  EXPECT_EQ(maxInt.opTypes(), (Ops{"Max", "Identity"}));
  EXPECT_EQ(maxInt.opset, 17);
  // BitwiseXor exists from opset 18 on.
  Model xorModel = emitAndDecode(binaryProgram(EwKind::XOrI, ElementType::I32));
  EXPECT_EQ(xorModel.opTypes(), (Ops{"BitwiseXor", "Identity"}));
  EXPECT_EQ(xorModel.opset, 18);
}

TEST(OnnxEmitter, GeneratedProgramsAreWellFormedAndDeterministic) {
  for (Family family : kAllFamilies) {
    Policy policy = policyFor(toString(family), false, SizeMode::Default);
    for (uint64_t seed = 0; seed < 60; ++seed) {
      Program p = generateProgram(policy, seed);
      Result<std::string> a = emitOnnxModel(p), b = emitOnnxModel(p);
      ASSERT_TRUE(a.ok()) << toString(family) << " seed " << seed << ": "
                          << a.message();
      ASSERT_TRUE(b.ok());
      EXPECT_EQ(*a, *b) << toString(family) << " seed " << seed;
      Model m = decodeModel(*a);
      ASSERT_EQ(m.inputs.size(), p.inputs.size());
      ASSERT_EQ(m.outputs.size(), p.outputs.size());
      for (size_t i = 0; i < p.outputs.size(); ++i)
        EXPECT_EQ(m.outputs[i].dims,
                  p.values[static_cast<size_t>(p.outputs[i])].shape);
      // Every node input is a graph input, an initializer or the output of
      // an earlier node; every name is defined once.
      std::set<std::string> defined;
      for (const Model::Value &v : m.inputs)
        defined.insert(v.name);
      for (const auto &i : m.initializers)
        EXPECT_TRUE(defined.insert(i.first).second) << i.first;
      for (const Node &n : m.nodes) {
        for (const std::string &in : n.inputs)
          EXPECT_TRUE(defined.count(in)) << n.opType << " reads " << in;
        for (const std::string &out : n.outputs)
          EXPECT_TRUE(defined.insert(out).second) << out;
      }
      for (const Model::Value &v : m.outputs)
        EXPECT_TRUE(defined.count(v.name)) << v.name;
    }
  }
}

TEST(OnnxEmitter, InvalidProgramIsAnError) {
  Program p = topkProgram(3, true);
  p.ops[0].k = 11; // more than the dimension holds
  Result<std::string> bytes = emitOnnxModel(p);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.message().find("onnx"), std::string::npos);
}
