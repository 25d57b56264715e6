//===- generators/OnnxWriter.cpp - ONNX protobuf bytes --------------------===//
//
// The wire format (protobuf's encoding guide): a field is a tag, the varint
// (field << 3) | wire type, then its payload: a varint (type 0) or a varint
// length and that many bytes (type 2: strings, bytes, nested messages and
// packed repeated scalars).
//
//===----------------------------------------------------------------------===//
#include "generators/OnnxWriter.h"

namespace sift::gen::onnx {

namespace {

// Wire types.
constexpr int kVarint = 0;
constexpr int kLengthDelimited = 2;

// AttributeProto.AttributeType.
constexpr int64_t kAttributeInt = 2;

} // namespace

DataType dataTypeOf(ElementType type) {
  switch (type) {
  case ElementType::F32: return DataType::Float;
  case ElementType::I32: return DataType::Int32;
  case ElementType::I64: return DataType::Int64;
  case ElementType::F16: return DataType::Float16;
  case ElementType::F64: return DataType::Double;
  case ElementType::BF16: return DataType::BFloat16;
  }
  return DataType::Float;
}

void ProtoWriter::varint(uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void ProtoWriter::tag(int field, int wireType) {
  varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(wireType));
}

void ProtoWriter::varintField(int field, uint64_t value) {
  tag(field, kVarint);
  varint(value);
}

void ProtoWriter::bytesField(int field, std::string_view bytes) {
  tag(field, kLengthDelimited);
  varint(bytes.size());
  out.append(bytes.data(), bytes.size());
}

void ProtoWriter::packedInt64Field(int field,
                                   const std::vector<int64_t> &values) {
  if (values.empty())
    return;
  ProtoWriter packed;
  for (int64_t v : values)
    packed.varint(static_cast<uint64_t>(v));
  bytesField(field, packed.bytes());
}

std::string tensorProto(std::string_view name, DataType type,
                        const std::vector<int64_t> &dims,
                        std::string_view rawData) {
  // TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9.
  ProtoWriter w;
  w.packedInt64Field(1, dims);
  w.int64Field(2, static_cast<int64_t>(type));
  w.bytesField(8, name);
  w.bytesField(9, rawData);
  return w.take();
}

std::string valueInfo(std::string_view name, DataType type,
                      const std::vector<int64_t> &dims) {
  // TensorShapeProto: dim = 1; its Dimension: dim_value = 1.
  ProtoWriter shape;
  for (int64_t d : dims) {
    ProtoWriter dim;
    dim.int64Field(1, d);
    shape.bytesField(1, dim.bytes());
  }
  // TypeProto.Tensor: elem_type = 1, shape = 2 (present, maybe empty: a
  // rank-0 tensor has a shape with no dims).
  ProtoWriter tensor;
  tensor.int64Field(1, static_cast<int64_t>(type));
  tensor.bytesField(2, shape.bytes());
  // TypeProto: tensor_type = 1.
  ProtoWriter typeProto;
  typeProto.bytesField(1, tensor.bytes());
  // ValueInfoProto: name = 1, type = 2.
  ProtoWriter w;
  w.bytesField(1, name);
  w.bytesField(2, typeProto.bytes());
  return w.take();
}

// AttributeProto: name = 1, i = 3, type = 20.

std::string intAttribute(std::string_view name, int64_t value) {
  ProtoWriter w;
  w.bytesField(1, name);
  w.int64Field(3, value);
  w.int64Field(20, kAttributeInt);
  return w.take();
}

std::string nodeProto(std::string_view opType,
                      const std::vector<std::string> &inputs,
                      const std::vector<std::string> &outputs,
                      std::string_view name,
                      const std::vector<std::string> &attributes) {
  // NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5.
  ProtoWriter w;
  for (const std::string &input : inputs)
    w.bytesField(1, input);
  for (const std::string &output : outputs)
    w.bytesField(2, output);
  w.bytesField(3, name);
  w.bytesField(4, opType);
  for (const std::string &attribute : attributes)
    w.bytesField(5, attribute);
  return w.take();
}

std::string graphProto(const GraphParts &parts) {
  // GraphProto: node = 1, name = 2, initializer = 5, input = 11,
  // output = 12.
  ProtoWriter w;
  for (const std::string &node : parts.nodes)
    w.bytesField(1, node);
  w.bytesField(2, parts.name);
  for (const std::string &initializer : parts.initializers)
    w.bytesField(5, initializer);
  for (const std::string &input : parts.inputs)
    w.bytesField(11, input);
  for (const std::string &output : parts.outputs)
    w.bytesField(12, output);
  return w.take();
}

std::string modelProto(int64_t irVersion, int64_t opsetVersion,
                       std::string_view producerName,
                       const std::string &graph) {
  // OperatorSetIdProto: domain = 1 (empty: the default domain, left out),
  // version = 2.
  ProtoWriter opset;
  opset.int64Field(2, opsetVersion);
  // ModelProto: ir_version = 1, producer_name = 2, graph = 7,
  // opset_import = 8.
  ProtoWriter w;
  w.int64Field(1, irVersion);
  w.bytesField(2, producerName);
  w.bytesField(7, graph);
  w.bytesField(8, opset.bytes());
  return w.take();
}

} // namespace sift::gen::onnx
