//===- generators/OnnxWriter.h - ONNX protobuf bytes, by hand -*- C++ -*-===//
//
// The few ONNX messages sift writes (onnx.proto: ModelProto,
// OperatorSetIdProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto, TypeProto, TensorShapeProto), encoded in protobuf's wire
// format by hand: varints, length-delimited fields (strings, bytes, nested
// messages) and packed repeated int64s. Every field is written
// in field-number order, so the same calls give the same bytes. Field numbers
// are onnx.proto's; each builder names the message it writes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/ElementType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sift::gen::onnx {

/// TensorProto.DataType numbers of the element types sift uses.
enum class DataType : int32_t {
  Float = 1,
  Int32 = 6,
  Int64 = 7,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  BFloat16 = 16,
};

/// The ONNX data type of a sift element type.
DataType dataTypeOf(ElementType type);

/// Appends protobuf fields to a byte string.
class ProtoWriter {
public:
  /// A varint field (wire type 0): int32, int64 (two's complement, 10 bytes
  /// when negative), enums.
  void varintField(int field, uint64_t value);
  void int64Field(int field, int64_t value) {
    varintField(field, static_cast<uint64_t>(value));
  }
  /// A length-delimited field (wire type 2): a string, bytes, or a nested
  /// message's bytes.
  void bytesField(int field, std::string_view bytes);
  /// A packed repeated int64 field (wire type 2 around varints); nothing
  /// for an empty list.
  void packedInt64Field(int field, const std::vector<int64_t> &values);

  const std::string &bytes() const { return out; }
  std::string take() { return std::move(out); }

private:
  void tag(int field, int wireType);
  void varint(uint64_t value);
  std::string out;
};

/// A TensorProto: `dims`, `type` and the little-endian element bytes as
/// raw_data, named `name`.
std::string tensorProto(std::string_view name, DataType type,
                        const std::vector<int64_t> &dims,
                        std::string_view rawData);

/// A ValueInfoProto of a tensor with a static shape.
std::string valueInfo(std::string_view name, DataType type,
                      const std::vector<int64_t> &dims);

/// An AttributeProto of type INT.
std::string intAttribute(std::string_view name, int64_t value);

/// A NodeProto of the default domain.
std::string nodeProto(std::string_view opType,
                      const std::vector<std::string> &inputs,
                      const std::vector<std::string> &outputs,
                      std::string_view name,
                      const std::vector<std::string> &attributes);

/// The parts of a GraphProto, each an encoded message.
struct GraphParts {
  std::string name;
  std::vector<std::string> nodes;
  std::vector<std::string> initializers;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

/// A GraphProto.
std::string graphProto(const GraphParts &parts);

/// A ModelProto importing the default domain at `opsetVersion`.
std::string modelProto(int64_t irVersion, int64_t opsetVersion,
                       std::string_view producerName, const std::string &graph);

} // namespace sift::gen::onnx
