//===- test/unittests/runtime/NpyTest.cpp - .npy reader and writer --------===//
//
// Round trips for every element type (0-sized and 0-d shapes included),
// byte-exact compatibility with what NumPy writes, version 2.0 headers, the
// atomic writer, and one test per kind of malformed file.
//
//===----------------------------------------------------------------------===//

#include "support/Npy.h"

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace sift;
using namespace sift::rt::test;

namespace {

std::vector<uint8_t> bytesOf(const std::string &text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

/// A .npy file with the given header dict text, padded as NumPy pads it.
std::vector<uint8_t> npyWithHeader(std::string dict,
                                   const std::vector<uint8_t> &data,
                                   int major = 1) {
  size_t prefix = major == 1 ? 10 : 12;
  while ((prefix + dict.size() + 1) % 64)
    dict += ' ';
  dict += '\n';
  std::vector<uint8_t> out = {
      0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  for (size_t i = 0; i < prefix - 8; ++i)
    out.push_back(static_cast<uint8_t>(dict.size() >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

Result<HostTensor> parse(const std::vector<uint8_t> &bytes) {
  return parseNpy(bytes.data(), bytes.size(), "x.npy");
}

class NpyRoundTrip
    : public ::testing::TestWithParam<std::tuple<ElementType, int>> {};

const std::vector<std::vector<int64_t>> kShapes = {
    {}, {0}, {5}, {4, 8}, {2, 0, 3}, {1, 1, 1, 7}, {0, 0}};

TEST_P(NpyRoundTrip, EncodeThenParseGivesTheSameTensor) {
  auto [type, shapeIndex] = GetParam();
  HostTensor tensor = iotaTensor(type, kShapes[shapeIndex], -3, 1);
  std::vector<uint8_t> bytes = encodeNpy(tensor);
  EXPECT_EQ(bytes.size() % 64, tensor.byteSize() % 64)
      << "header not padded to 64 bytes";
  Result<HostTensor> parsed = parse(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, tensor) << describe(*parsed);
}

TEST_P(NpyRoundTrip, WriteThenReadGivesTheSameTensor) {
  auto [type, shapeIndex] = GetParam();
  TempDir dir;
  HostTensor tensor = iotaTensor(type, kShapes[shapeIndex], 7, 3);
  std::string path = dir.file("t.npy");
  ASSERT_TRUE(writeNpy(path, tensor).ok());
  Result<HostTensor> read = readNpy(path);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(*read, tensor);
}

INSTANTIATE_TEST_SUITE_P(
    AllTypesAndShapes, NpyRoundTrip,
    ::testing::Combine(::testing::ValuesIn(kAllElementTypes),
                       ::testing::Range(0, static_cast<int>(kShapes.size()))),
    [](const auto &info) {
      return std::string(toString(std::get<0>(info.param))) + "_shape" +
             std::to_string(std::get<1>(info.param));
    });

TEST(Npy, EncodesTheHeaderNumPyWrites) {
  // numpy.save of np.arange(6, dtype='<i4').reshape(2, 3).
  HostTensor tensor = iotaTensor(ElementType::I32, {2, 3});
  std::vector<uint8_t> bytes = encodeNpy(tensor);
  std::string header(bytes.begin() + 10, bytes.begin() + 128);
  EXPECT_EQ(bytes[6], 1);
  EXPECT_EQ(bytes[7], 0);
  EXPECT_EQ(bytes[8] | bytes[9] << 8, 118);
  std::string dict =
      "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(header.substr(0, dict.size()), dict);
  EXPECT_EQ(header.find_first_not_of(' ', dict.size()), header.size() - 1);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 128u + 24u);

  std::vector<uint8_t> scalar = encodeNpy(HostTensor(ElementType::F64, {}));
  std::string scalarHeader(scalar.begin() + 10, scalar.begin() + 70);
  EXPECT_NE(scalarHeader.find("'shape': ()"), std::string::npos);
  std::vector<uint8_t> vector = encodeNpy(HostTensor(ElementType::F64, {3}));
  std::string vectorHeader(vector.begin() + 10, vector.begin() + 70);
  EXPECT_NE(vectorHeader.find("'shape': (3,)"), std::string::npos);
}

TEST(Npy, ParsesHeaderVariants) {
  std::vector<uint8_t> data(4 * 2 * 3, 0);
  for (const char *dict :
       {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
        "{\"shape\": (2,3), \"fortran_order\": False, \"descr\": \"<f4\"}",
        "{'descr':'<f4','fortran_order':False,'shape':(2L, 3L)}",
        "{ 'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 2 , 3 , ) , "
        "}"}) {
    Result<HostTensor> parsed = parse(npyWithHeader(dict, data));
    ASSERT_TRUE(parsed.ok()) << dict << ": " << parsed.message();
    EXPECT_EQ(parsed->type, ElementType::F32);
    EXPECT_EQ(parsed->shape, (std::vector<int64_t>{2, 3}));
  }
}

TEST(Npy, ParsesVersion2) {
  std::vector<uint8_t> data = {1, 0, 0, 0, 0, 0, 0, 0};
  Result<HostTensor> parsed = parse(npyWithHeader(
      "{'descr': '<i8', 'fortran_order': False, 'shape': (1,), }", data, 2));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(parsed->type, ElementType::I64);
  EXPECT_EQ(parsed->get<int64_t>(0), 1);
}

TEST(Npy, LargeRankHeaderStillRoundTrips) {
  HostTensor tensor(ElementType::F32, std::vector<int64_t>(64, 1));
  Result<HostTensor> parsed = parse(encodeNpy(tensor));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, tensor);
}

TEST(Npy, DtypeNames) {
  for (ElementType type : kAllElementTypes)
    EXPECT_EQ(parseNpyDtype(npyDtype(type)), type);
  EXPECT_EQ(npyDtype(ElementType::F16), "<f2");
  EXPECT_FALSE(parseNpyDtype(">f4").has_value());
  EXPECT_FALSE(parseNpyDtype("<u4").has_value());
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

void expectError(const std::vector<uint8_t> &bytes, const std::string &part) {
  Result<HostTensor> parsed = parse(bytes);
  ASSERT_FALSE(parsed.ok()) << "expected an error containing: " << part;
  EXPECT_NE(parsed.message().find(part), std::string::npos)
      << "message: " << parsed.message() << "\nexpected to contain: " << part;
  EXPECT_EQ(parsed.message().rfind("x.npy: ", 0), 0u) << parsed.message();
}

TEST(NpyErrors, BadMagic) {
  expectError(bytesOf("PK\x03\x04 not numpy at all"), "not a .npy file");
  expectError({}, "not a .npy file");
  expectError(bytesOf("\x93NUMP"), "not a .npy file");
}

TEST(NpyErrors, Truncated) {
  std::vector<uint8_t> good = encodeNpy(iotaTensor(ElementType::F32, {4, 8}));
  expectError(std::vector<uint8_t>(good.begin(), good.begin() + 7),
              "inside the format version");
  expectError(std::vector<uint8_t>(good.begin(), good.begin() + 9),
              "inside the header length");
  expectError(std::vector<uint8_t>(good.begin(), good.begin() + 40),
              "the header declares 118 bytes but only 30 follow");
  std::vector<uint8_t> shortData(good.begin(), good.end() - 28);
  expectError(shortData, "header declares shape (4, 8) = 32 elements of <f4 "
                         "(128 bytes) but 100 data bytes follow");
  // Every truncation is an error, never a crash.
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_FALSE(
        parse(std::vector<uint8_t>(good.begin(), good.begin() + n)).ok())
        << n;
}

TEST(NpyErrors, ExtraDataBytes) {
  std::vector<uint8_t> bytes = encodeNpy(iotaTensor(ElementType::I64, {3}));
  bytes.push_back(0);
  expectError(bytes, "(24 bytes) but 25 data bytes follow");
}

TEST(NpyErrors, FortranOrder) {
  expectError(npyWithHeader(
                  "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                  std::vector<uint8_t>(16)),
              "Fortran-order arrays are not supported");
}

TEST(NpyErrors, WrongDtype) {
  expectError(
      npyWithHeader("{'descr': '<u4', 'fortran_order': False, 'shape': (2,), }",
                    std::vector<uint8_t>(8)),
      "unsupported dtype '<u4' (supported: <f2 <f4 <f8 <i4 <i8, and <V2 or |V2 for bf16)");
  expectError(
      npyWithHeader("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                    std::vector<uint8_t>(2)),
      "unsupported dtype '|b1'");
  expectError(
      npyWithHeader("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                    std::vector<uint8_t>(8)),
      "dtype '>f4' is big-endian");
}

TEST(NpyErrors, UnsupportedVersion) {
  std::vector<uint8_t> bytes = encodeNpy(iotaTensor(ElementType::F32, {2}));
  bytes[6] = 3;
  expectError(bytes, "unsupported .npy format version 3.0");
}

TEST(NpyErrors, MalformedHeaders) {
  std::vector<uint8_t> data(8);
  expectError(npyWithHeader("{'descr': '<f4', 'shape': (2,), }", data),
              "the header has no 'fortran_order'");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (2,), 'extra': 1}",
                            data),
              "unknown header key 'extra'");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (-2,), }",
                            data),
              "expected a non-negative dimension");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (2,), 'shape': (2,)}",
                            data),
              "'shape' appears twice");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': Maybe, "
                            "'shape': (2,)}",
                            data),
              "expected True or False");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (2,)} trailing",
                            data),
              "after the header dict");
  expectError(npyWithHeader("{'descr': '<f4', 'fortran_order': False, "
                            "'shape': (99999999999, 99999999999, "
                            "99999999999)}",
                            data),
              "overflows 64 bits");
  expectError(npyWithHeader("{'descr': '<f4", data), "unterminated string");
}

TEST(NpyErrors, ReadMissingFile) {
  TempDir dir;
  Result<HostTensor> read = readNpy(dir.file("missing.npy"));
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("missing.npy: cannot open"), std::string::npos)
      << read.message();
}

TEST(NpyErrors, WriteRefusesInconsistentTensorAndLeavesNoFile) {
  TempDir dir;
  HostTensor tensor(ElementType::F32, {4});
  tensor.data.resize(3);
  std::string path = dir.file("bad.npy");
  Status status = writeNpy(path, tensor);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("needs 16 data bytes but holds 3"),
            std::string::npos)
      << status.message();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(NpyErrors, WriteToMissingDirectoryFailsCleanly) {
  TempDir dir;
  Status status = writeNpy(dir.file("no/such/dir/t.npy"),
                           HostTensor(ElementType::F32, {1}));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("cannot create"), std::string::npos)
      << status.message();
}

TEST(Npy, WriteReplacesAtomicallyAndLeavesNoTemporary) {
  TempDir dir;
  std::string path = dir.file("t.npy");
  ASSERT_TRUE(writeNpy(path, iotaTensor(ElementType::F32, {2})).ok());
  ASSERT_TRUE(writeNpy(path, iotaTensor(ElementType::I32, {3})).ok());
  Result<HostTensor> read = readNpy(path);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(*read, iotaTensor(ElementType::I32, {3}));
  size_t files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1u);
}

} // namespace
