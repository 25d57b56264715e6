//===- test/unittests/runtime/RuntimeTestUtil.cpp - Runtime test helpers --===//
//
// Implementations of the runtime test helpers.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include "support/FileIO.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

TempDir::TempDir() {
  const char *base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base && *base ? base : "/tmp") + "/sift-rt-test-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (::mkdtemp(name.data()))
    path_ = name.data();
}

TempDir::~TempDir() {
  if (path_.empty())
    return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::file(const std::string &name) const {
  return path_ + "/" + name;
}

/// Rounds a finite float to the nearest IEEE half, as bits (no NaN inputs).
static uint16_t toHalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f)
    return sign | 0x7c00;
  if (magnitude < 6.103515625e-05f) // subnormal half
    return sign | static_cast<uint16_t>(std::lround(magnitude * 16777216.0f));
  int exponent;
  float mantissa = std::frexp(magnitude, &exponent); // [0.5, 1)
  long scaled = std::lround((mantissa * 2 - 1) * 1024);
  int e = exponent - 1 + 15;
  if (scaled == 1024) {
    scaled = 0;
    ++e;
  }
  return sign | static_cast<uint16_t>(e << 10) | static_cast<uint16_t>(scaled);
}

HostTensor test::iotaTensor(ElementType type, std::vector<int64_t> shape,
                            double first, double step) {
  HostTensor tensor(type, std::move(shape));
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    double value = first + static_cast<double>(i) * step;
    switch (type) {
    case ElementType::I32:
      tensor.set<int32_t>(i, static_cast<int32_t>(value));
      break;
    case ElementType::I64:
      tensor.set<int64_t>(i, static_cast<int64_t>(value));
      break;
    case ElementType::F16:
      tensor.set<uint16_t>(i, toHalfBits(static_cast<float>(value)));
      break;
    case ElementType::BF16: {
      // Exact for the small integers and halves tests use: the top half.
      float f = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof(bits));
      tensor.set<uint16_t>(i, static_cast<uint16_t>(bits >> 16));
      break;
    }
    case ElementType::F32:
      tensor.set<float>(i, static_cast<float>(value));
      break;
    case ElementType::F64: tensor.set<double>(i, value); break;
    }
  }
  return tensor;
}

HostTensor test::f32Tensor(std::vector<int64_t> shape,
                           const std::vector<float> &values) {
  HostTensor tensor(ElementType::F32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    tensor.set<float>(static_cast<int64_t>(i), values[i]);
  return tensor;
}

const char *const test::kHostKernels = R"c(
void add_one(void **b) {
  const float *in = (const float *)b[0];
  float *out = (float *)b[1];
  for (int i = 0; i < 32; ++i)
    out[i] = in[i] + 1.0f;
}
void unused(void **b) { (void)b; }
void subtract(void **b) {
  const float *x = (const float *)b[0], *y = (const float *)b[1];
  float *out = (float *)b[2];
  for (int i = 0; i < 32; ++i)
    out[i] = x[i] - y[i];
}
void count_calls(void **b) { ++*(int *)b[0]; }
)c";

Artifact test::sampleArtifact(std::vector<uint8_t> binary) {
  Artifact artifact;
  artifact.meta = {{"pipeline", "cpu"},
                   {"target", "host"},
                   {"chip", "x86-64"},
                   {"generator", "unit test, seed 7"}};

  Executable exe;
  exe.format = ExecutableFormat::HostSharedObject;
  exe.target = "host";
  exe.entries = {"add_one", "unused"};
  exe.binary = std::move(binary);
  artifact.executables.push_back(std::move(exe));

  PlanBuffer input;
  input.type = ElementType::F32;
  input.shape = {4, 8};
  input.memory = MemoryType::DeviceLocal | MemoryType::HostVisible;
  input.usage = BufferUsage::Dispatch | BufferUsage::Transfer;
  input.role = BufferRole::Input;
  input.roleIndex = 0;
  PlanBuffer output = input;
  output.role = BufferRole::Output;
  output.usage = output.usage | BufferUsage::Export;
  output.affinity = {0, 1};
  PlanBuffer scratch;
  scratch.type = ElementType::I32;
  scratch.shape = {0};
  scratch.role = BufferRole::Temporary;
  artifact.plan.buffers = {input, output, scratch};

  Dispatch dispatch;
  dispatch.executable = 0;
  dispatch.entry = 0;
  dispatch.bindings = {0, 1};
  artifact.plan.dispatches = {dispatch};

  artifact.inputs = {iotaTensor(ElementType::F32, {4, 8}, 0.5, 1)};
  artifact.expected = {iotaTensor(ElementType::F32, {4, 8}, 1.5, 1)};
  return artifact;
}

uint64_t test::readU64(const std::vector<uint8_t> &bytes, size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | bytes[at + i];
  return v;
}

void test::writeU64(std::vector<uint8_t> &bytes, size_t at, uint64_t value) {
  for (int i = 0; i < 8; ++i)
    bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

void test::writeU32(std::vector<uint8_t> &bytes, size_t at, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

static size_t sectionCount(const std::vector<uint8_t> &bytes) {
  if (bytes.size() < kArtifactHeaderBytes)
    return 0;
  size_t count = bytes[12] | bytes[13] << 8 | bytes[14] << 16 |
                 static_cast<size_t>(bytes[15]) << 24;
  size_t fits = (bytes.size() - kArtifactHeaderBytes) / kSectionEntryBytes;
  return count < fits ? count : fits;
}

std::optional<size_t> test::findSectionEntry(const std::vector<uint8_t> &bytes,
                                             const std::string &name) {
  size_t count = sectionCount(bytes);
  for (size_t i = 0; i < count; ++i) {
    size_t entry = kArtifactHeaderBytes + i * kSectionEntryBytes;
    if (std::strncmp(reinterpret_cast<const char *>(bytes.data() + entry),
                     name.c_str(), kSectionNameBytes) == 0)
      return entry;
  }
  return std::nullopt;
}

void test::replaceSection(std::vector<uint8_t> &bytes, const std::string &name,
                          const std::vector<uint8_t> &contents) {
  std::optional<size_t> entry = findSectionEntry(bytes, name);
  if (!entry)
    return;
  while (bytes.size() % 8)
    bytes.push_back(0);
  writeU64(bytes, *entry + 32, bytes.size());
  writeU64(bytes, *entry + 40, contents.size());
  bytes.insert(bytes.end(), contents.begin(), contents.end());
  rt::resealArtifact(bytes);
}

std::optional<std::vector<uint8_t>>
test::buildSharedObject(const std::string &source, std::string &why) {
  if (std::system("command -v cc >/dev/null 2>&1") != 0) {
    why = "no C compiler: `cc` is not on PATH";
    return std::nullopt;
  }
  TempDir dir;
  if (dir.path().empty()) {
    why = "cannot create a temporary directory";
    return std::nullopt;
  }
  std::string c = dir.file("kernel.c"), so = dir.file("kernel.so"),
              log = dir.file("cc.log");
  {
    std::ofstream out(c);
    out << source;
  }
  std::string command =
      "cc -shared -fPIC -O1 -o '" + so + "' '" + c + "' >'" + log + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    why = "cc failed: " + text;
    return std::nullopt;
  }
  Result<std::vector<uint8_t>> bytes = readFileBytes(so);
  if (!bytes) {
    why = bytes.message();
    return std::nullopt;
  }
  return std::move(*bytes);
}
