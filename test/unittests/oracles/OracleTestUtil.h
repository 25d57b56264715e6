//===- test/unittests/oracles/OracleTestUtil.h - Builders for oracle tests ===//
//
// Small helpers shared by the oracle tests: hand-made tensors from value
// lists (f16 given as bit patterns or as exactly representable doubles),
// readers back to vectors, and one-op programs built by hand, so the tests
// depend on nothing but the model's plain data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "oracles/FloatBits.h"
#include "oracles/Reference.h"
#include "support/HostTensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sift::oracle::test {

inline const float kNaNf = std::numeric_limits<float>::quiet_NaN();
inline const float kInff = std::numeric_limits<float>::infinity();

/// A tensor from raw element bits.
inline HostTensor fromBits(ElementType type, std::vector<int64_t> shape,
                           const std::vector<uint64_t> &bits) {
  HostTensor t(type, std::move(shape));
  EXPECT_EQ(static_cast<int64_t>(bits.size()), t.numElements());
  for (size_t i = 0; i < bits.size() && i < size_t(t.numElements()); ++i)
    storeBits(type, t.data.data() + i * byteWidth(type), bits[i]);
  return t;
}

/// Raw element bits of a tensor.
inline std::vector<uint64_t> bitsOf(const HostTensor &t) {
  std::vector<uint64_t> bits;
  for (int64_t i = 0; i < t.numElements(); ++i)
    bits.push_back(loadBits(t.type, t.data.data() + i * byteWidth(t.type)));
  return bits;
}

inline uint64_t f32Bits(float v) { return bitCast<uint32_t>(v); }
inline uint64_t f64Bits(double v) { return bitCast<uint64_t>(v); }

inline HostTensor f32(std::vector<int64_t> shape,
                      const std::vector<float> &values) {
  std::vector<uint64_t> bits;
  for (float v : values)
    bits.push_back(f32Bits(v));
  return fromBits(ElementType::F32, std::move(shape), bits);
}
inline HostTensor f64(std::vector<int64_t> shape,
                      const std::vector<double> &values) {
  std::vector<uint64_t> bits;
  for (double v : values)
    bits.push_back(f64Bits(v));
  return fromBits(ElementType::F64, std::move(shape), bits);
}
/// f16 from doubles (rounded with the oracle's own conversion).
inline HostTensor f16(std::vector<int64_t> shape,
                      const std::vector<double> &values) {
  std::vector<uint64_t> bits;
  for (double v : values)
    bits.push_back(doubleToHalf(v));
  return fromBits(ElementType::F16, std::move(shape), bits);
}
inline HostTensor i32(std::vector<int64_t> shape,
                      const std::vector<int32_t> &values) {
  std::vector<uint64_t> bits;
  for (int32_t v : values)
    bits.push_back(uint32_t(v));
  return fromBits(ElementType::I32, std::move(shape), bits);
}
inline HostTensor i64(std::vector<int64_t> shape,
                      const std::vector<int64_t> &values) {
  std::vector<uint64_t> bits;
  for (int64_t v : values)
    bits.push_back(uint64_t(v));
  return fromBits(ElementType::I64, std::move(shape), bits);
}

inline std::vector<float> floatsOf(const HostTensor &t) {
  std::vector<float> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(floatValue(
        t.type, loadBits(t.type, t.data.data() + i * byteWidth(t.type))));
  return v;
}
inline std::vector<int64_t> intsOf(const HostTensor &t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numElements(); ++i)
    v.push_back(signedValue(
        t.type, loadBits(t.type, t.data.data() + i * byteWidth(t.type))));
  return v;
}

inline gen::TensorType typeOf(const HostTensor &t) {
  return gen::TensorType{t.type, t.shape};
}

/// A program whose inputs are the given tensors' types and which runs the
/// ops that `addOps` appends; returns its evaluation on those tensors.
struct ProgramUnderTest {
  gen::Program program;
  std::vector<HostTensor> inputs;

  /// Adds an input value holding `tensor`; returns its id.
  int input(HostTensor tensor) {
    int id = program.addValue(typeOf(tensor));
    program.inputs.push_back(id);
    inputs.push_back(std::move(tensor));
    return id;
  }
  /// Appends `op` whose results get `resultTypes`; returns the result ids.
  std::vector<int> add(gen::Op op,
                       const std::vector<gen::TensorType> &resultTypes) {
    op.results.clear();
    for (const gen::TensorType &type : resultTypes)
      op.results.push_back(program.addValue(type));
    program.ops.push_back(op);
    return op.results;
  }
  Result<std::vector<HostTensor>> run() const {
    return evaluate(program, inputs);
  }
};

/// An elementwise op of `kind` on `operands`.
inline gen::Op ewOp(gen::EwKind kind, std::vector<int> operands,
                    double constant = 0.0, int64_t intConstant = 0) {
  gen::Op op;
  op.kind = gen::OpKind::Elementwise;
  op.ew = kind;
  op.operands = std::move(operands);
  op.constant = constant;
  op.intConstant = intConstant;
  return op;
}

/// Runs one elementwise op on `operands` into `resultType` elements of the
/// operands' shape; fails the test when evaluation fails.
inline HostTensor runElementwise(gen::EwKind kind,
                                 std::vector<HostTensor> operands,
                                 ElementType resultType, double constant = 0.0,
                                 int64_t intConstant = 0) {
  ProgramUnderTest p;
  std::vector<int> ids;
  std::vector<int64_t> shape = operands.at(0).shape;
  for (HostTensor &t : operands)
    ids.push_back(p.input(std::move(t)));
  int out = p.add(ewOp(kind, ids, constant, intConstant),
                  {gen::TensorType{resultType, shape}})[0];
  p.program.outputs = {out};
  auto result = p.run();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.message());
  if (!result.ok())
    return HostTensor();
  return result->at(0);
}

} // namespace sift::oracle::test
