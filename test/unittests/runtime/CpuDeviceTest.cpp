//===- test/unittests/runtime/CpuDeviceTest.cpp - cpu device and runPlan --===//
//
// The cpu device end to end: real host shared objects are compiled at test
// time with the system `cc` (the tests that need one skip, with the reason,
// when there is no `cc`), wrapped in artifacts and run through runPlan.
// Also: device names, buffers (alignment, zero-size, scalars), upload and
// download checks, load failures (wrong format, garbage bytes, missing
// symbols) and dispatch checks.
//
//===----------------------------------------------------------------------===//

#include "runtime/cpu/CpuDevice.h"
#include "runtime/Device.h"
#include "runtime/Runner.h"

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {


const char *kOtherKernels = R"c(
void add_one(void **b) {
  const float *in = (const float *)b[0];
  float *out = (float *)b[1];
  for (int i = 0; i < 32; ++i)
    out[i] = in[i] + 2.0f;
}
void unused(void **b) { (void)b; }
)c";

/// Builds `source` once per process; skips the test when it cannot.
#define SIFT_SHARED_OBJECT(var, source)                                        \
  static std::string var##Why;                                                 \
  static const std::optional<std::vector<uint8_t>> var##Bytes =                \
      buildSharedObject(source, var##Why);                                     \
  if (!var##Bytes)                                                             \
    GTEST_SKIP() << "cannot build a host shared object: " << var##Why;         \
  const std::vector<uint8_t> &var = *var##Bytes

std::unique_ptr<Device> cpu() {
  Result<std::unique_ptr<Device>> device = createDevice(DeviceKind::Cpu);
  EXPECT_TRUE(device.ok());
  return device.ok() ? std::move(*device) : nullptr;
}

Executable hostExecutable(const std::vector<uint8_t> &binary,
                          std::vector<std::string> entries) {
  Executable exe;
  exe.format = ExecutableFormat::HostSharedObject;
  exe.target = "host";
  exe.entries = std::move(entries);
  exe.binary = binary;
  return exe;
}

PlanBuffer planBuffer(ElementType type, std::vector<int64_t> shape,
                      BufferRole role = BufferRole::Temporary, int index = 0) {
  PlanBuffer buffer;
  buffer.type = type;
  buffer.shape = std::move(shape);
  buffer.role = role;
  buffer.roleIndex = index;
  return buffer;
}

//===----------------------------------------------------------------------===//
// Devices and buffers
//===----------------------------------------------------------------------===//

TEST(Device, KindNames) {
  for (DeviceKind kind : kAllDeviceKinds)
    EXPECT_EQ(parseDeviceKind(toString(kind)), kind);
  EXPECT_EQ(toString(DeviceKind::Cuda), "cuda");
  EXPECT_FALSE(parseDeviceKind("tpu").has_value());
}

TEST(Device, CreateCpu) {
  std::unique_ptr<Device> device = cpu();
  ASSERT_TRUE(device);
  EXPECT_EQ(device->kind(), DeviceKind::Cpu);
  EXPECT_EQ(device->name(), "cpu");
}

TEST(CpuDevice, BuffersAreAlignedZeroedAndRoundTrip) {
  std::unique_ptr<Device> device = cpu();
  for (std::vector<int64_t> shape :
       std::vector<std::vector<int64_t>>{{4, 8}, {}, {0}, {3, 0, 2}, {1, 65}}) {
    for (ElementType type : kAllElementTypes) {
      Result<std::unique_ptr<Buffer>> buffer =
          device->allocate(planBuffer(type, shape));
      ASSERT_TRUE(buffer.ok()) << buffer.message();
      Buffer &b = **buffer;
      EXPECT_EQ(b.size(), *bufferByteSize(type, shape));
      ASSERT_NE(b.hostPointer(), nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(b.hostPointer()) % 64, 0u);
      HostTensor zeros;
      ASSERT_TRUE(device->download(b, zeros).ok());
      EXPECT_EQ(zeros, HostTensor(type, shape));

      HostTensor tensor = iotaTensor(type, shape, 3, 2);
      ASSERT_TRUE(device->upload(b, tensor).ok());
      HostTensor back;
      ASSERT_TRUE(device->download(b, back).ok());
      EXPECT_EQ(back, tensor) << describe(tensor);
    }
  }
}

TEST(CpuDevice, AllocateErrors) {
  std::unique_ptr<Device> device = cpu();
  Result<std::unique_ptr<Buffer>> negative =
      device->allocate(planBuffer(ElementType::F32, {2, -1}));
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.message(), "cannot allocate f32[2x-1]: negative dimension "
                                "or more than 1099511627776 bytes");
  EXPECT_FALSE(
      device->allocate(planBuffer(ElementType::F64, {1 << 30, 1 << 30})).ok());
}

TEST(CpuDevice, UploadAndDownloadChecks) {
  std::unique_ptr<Device> device = cpu();
  std::unique_ptr<Device> other = cpu();
  auto buffer = std::move(*device->allocate(planBuffer(ElementType::F32, {4})));
  Status wrongShape =
      device->upload(*buffer, HostTensor(ElementType::F32, {5}));
  ASSERT_FALSE(wrongShape.ok());
  EXPECT_EQ(wrongShape.message(), "upload of f32[5] into a buffer of f32[4]");
  HostTensor shortData(ElementType::F32, {4});
  shortData.data.pop_back();
  Status wrongSize = device->upload(*buffer, shortData);
  ASSERT_FALSE(wrongSize.ok());
  EXPECT_EQ(wrongSize.message(), "upload of f32[4] holding 15 bytes into a "
                                 "buffer of 16 bytes");
  Status foreign = other->upload(*buffer, HostTensor(ElementType::F32, {4}));
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.message(), "upload to a buffer of another device (cpu) on "
                               "cpu");
  HostTensor out;
  EXPECT_FALSE(other->download(*buffer, out).ok());
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

TEST(CpuDevice, LoadRefusesOtherFormats) {
  std::unique_ptr<Device> device = cpu();
  Executable exe = hostExecutable({1, 2, 3}, {"k"});
  exe.format = ExecutableFormat::Ptx;
  Result<std::unique_ptr<LoadedExecutable>> loaded = device->load(exe);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message(), "the cpu device runs host-so executables, not "
                              "ptx");
}

TEST(CpuDevice, LoadingGarbageIsAnErrorNotACrash) {
  std::unique_ptr<Device> device = cpu();
  std::vector<uint8_t> garbage(4096);
  for (size_t i = 0; i < garbage.size(); ++i)
    garbage[i] = static_cast<uint8_t>(i * 131 + 7);
  for (const std::vector<uint8_t> &bytes :
       {garbage, std::vector<uint8_t>{0x7f, 'E', 'L', 'F'},
        std::vector<uint8_t>{0}}) {
    Result<std::unique_ptr<LoadedExecutable>> loaded =
        device->load(hostExecutable(bytes, {"add_one"}));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.message().rfind("dlopen failed: ", 0), 0u)
        << loaded.message();
  }
  Result<std::unique_ptr<LoadedExecutable>> empty =
      device->load(hostExecutable({}, {"add_one"}));
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(), "the executable's binary is empty");
}

TEST(CpuDevice, MissingEntryReportsTheSymbol) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  std::unique_ptr<Device> device = cpu();
  Result<std::unique_ptr<LoadedExecutable>> loaded =
      device->load(hostExecutable(binary, {"add_one", "no_such_kernel"}));
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.message().rfind("entry 'no_such_kernel' not found: ", 0), 0u)
      << loaded.message();
  EXPECT_NE(loaded.message().find("no_such_kernel"), std::string::npos);
}

TEST(CpuDevice, SeveralLoadedObjectsStayDistinct) {
  SIFT_SHARED_OBJECT(one, kHostKernels);
  SIFT_SHARED_OBJECT(two, kOtherKernels);
  std::unique_ptr<Device> device = cpu();
  auto in = std::move(*device->allocate(planBuffer(ElementType::F32, {32})));
  auto out = std::move(*device->allocate(planBuffer(ElementType::F32, {32})));
  ASSERT_TRUE(device->upload(*in, iotaTensor(ElementType::F32, {32})).ok());
  Dispatch dispatch;
  dispatch.bindings = {0, 1};

  auto runAndRead = [&](LoadedExecutable &exe) {
    EXPECT_TRUE(device->dispatch(exe, dispatch, {in.get(), out.get()}).ok());
    HostTensor result;
    EXPECT_TRUE(device->download(*out, result).ok());
    return result.get<float>(5);
  };
  // Load, unload and reload in an order that reuses fd numbers, with both
  // objects alive at once some of the time.
  for (int round = 0; round < 10; ++round) {
    auto a = std::move(*device->load(hostExecutable(one, {"add_one"})));
    auto b = std::move(*device->load(hostExecutable(two, {"add_one"})));
    EXPECT_EQ(runAndRead(*a), 6.0f) << round;
    EXPECT_EQ(runAndRead(*b), 7.0f) << round;
    a.reset();
    auto c = std::move(*device->load(hostExecutable(one, {"add_one"})));
    EXPECT_EQ(runAndRead(*c), 6.0f) << round;
    EXPECT_EQ(runAndRead(*b), 7.0f) << round;
  }
}

TEST(CpuDevice, TemporaryFileFallbackLoadsAndReportsErrors) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  CpuDevice device(CpuDeviceOptions{/*useMemfd=*/false});
  Result<std::unique_ptr<LoadedExecutable>> garbage =
      device.load(hostExecutable({1, 2, 3}, {"add_one"}));
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.message().rfind("dlopen failed: ", 0), 0u)
      << garbage.message();

  Artifact artifact = sampleArtifact(binary);
  for (int round = 0; round < 3; ++round) {
    Result<std::vector<HostTensor>> outputs =
        runPlan(device, artifact, artifact.inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.message();
    EXPECT_EQ((*outputs)[0], artifact.expected[0]);
  }
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

TEST(CpuDevice, DispatchCallsTheEntryOncePerWorkgroup) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  std::unique_ptr<Device> device = cpu();
  auto counter = std::move(*device->allocate(planBuffer(ElementType::I32, {})));
  auto exe = std::move(*device->load(hostExecutable(binary, {"count_calls"})));
  Dispatch dispatch;
  dispatch.grid = {2, 3, 4};
  dispatch.block = {64, 1, 1};
  dispatch.bindings = {0};
  ASSERT_TRUE(device->dispatch(*exe, dispatch, {counter.get()}).ok());
  ASSERT_TRUE(device->synchronize().ok());
  HostTensor count;
  ASSERT_TRUE(device->download(*counter, count).ok());
  EXPECT_EQ(count.get<int32_t>(0), 24);
}

TEST(CpuDevice, DispatchChecks) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  std::unique_ptr<Device> device = cpu();
  std::unique_ptr<Device> other = cpu();
  auto counter = std::move(*device->allocate(planBuffer(ElementType::I32, {})));
  auto foreign = std::move(*other->allocate(planBuffer(ElementType::I32, {})));
  auto exe = std::move(*device->load(hostExecutable(binary, {"count_calls"})));
  Dispatch dispatch;
  dispatch.bindings = {0};

  Status tooFew = device->dispatch(*exe, dispatch, {});
  ASSERT_FALSE(tooFew.ok());
  EXPECT_EQ(tooFew.message(), "the dispatch declares 1 bindings but 0 buffers "
                              "were passed");
  Status null = device->dispatch(*exe, dispatch, {nullptr});
  ASSERT_FALSE(null.ok());
  EXPECT_EQ(null.message(), "binding 0 is null");
  Status wrongDevice = device->dispatch(*exe, dispatch, {foreign.get()});
  ASSERT_FALSE(wrongDevice.ok());
  EXPECT_EQ(wrongDevice.message(), "binding 0 is a buffer of another device "
                                   "(cpu)");
  Status foreignExe = other->dispatch(*exe, dispatch, {foreign.get()});
  ASSERT_FALSE(foreignExe.ok());
  EXPECT_EQ(foreignExe.message(), "dispatch of an executable loaded on another "
                                  "device (cpu) on cpu");

  Dispatch badEntry = dispatch;
  badEntry.entry = 1;
  Status entry = device->dispatch(*exe, badEntry, {counter.get()});
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.message(), "entry 1 is out of range: the executable has 1 "
                             "entries");
  Dispatch withConstants = dispatch;
  withConstants.constants = {4, 5};
  Status constants = device->dispatch(*exe, withConstants, {counter.get()});
  ASSERT_FALSE(constants.ok());
  EXPECT_EQ(constants.message(), "the host-v1 ABI passes no push constants but "
                                 "the dispatch has 2");
}

//===----------------------------------------------------------------------===//
// runPlan
//===----------------------------------------------------------------------===//

TEST(RunPlan, AddOneEndToEnd) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  // Through the file format, as sift-run would see it.
  TempDir dir;
  std::string path = dir.file("add_one.sift");
  ASSERT_TRUE(writeArtifact(path, sampleArtifact(binary)).ok());
  Result<Artifact> artifact = readArtifact(path);
  ASSERT_TRUE(artifact.ok()) << artifact.message();

  std::unique_ptr<Device> device = cpu();
  Result<std::vector<HostTensor>> outputs =
      runPlan(*device, *artifact, artifact->inputs);
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 1u);
  EXPECT_EQ((*outputs)[0], artifact->expected[0]);
  EXPECT_EQ((*outputs)[0].get<float>(31), 32.5f);

  // Other inputs give other outputs.
  HostTensor input = f32Tensor({4, 8}, std::vector<float>(32, -1.0f));
  outputs = runPlan(*device, *artifact, {input});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0], HostTensor(ElementType::F32, {4, 8}));
}

TEST(RunPlan, InputsFollowRoleIndexOrder) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  Artifact artifact;
  artifact.executables.push_back(hostExecutable(binary, {"subtract"}));
  artifact.plan.buffers = {
      planBuffer(ElementType::F32, {4, 8}, BufferRole::Input, 1),
      planBuffer(ElementType::F32, {4, 8}, BufferRole::Input, 0),
      planBuffer(ElementType::F32, {4, 8}, BufferRole::Output, 0)};
  Dispatch dispatch;
  dispatch.bindings = {1, 0, 2}; // subtract(input 0, input 1)
  artifact.plan.dispatches = {dispatch};

  std::unique_ptr<Device> device = cpu();
  HostTensor x = iotaTensor(ElementType::F32, {4, 8}, 10, 2);
  HostTensor y = iotaTensor(ElementType::F32, {4, 8}, 0, 1);
  Result<std::vector<HostTensor>> outputs = runPlan(*device, artifact, {x, y});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0], iotaTensor(ElementType::F32, {4, 8}, 10, 1));

  Result<std::vector<HostTensor>> wrongType =
      runPlan(*device, artifact, {x, iotaTensor(ElementType::I64, {4, 8})});
  ASSERT_FALSE(wrongType.ok());
  EXPECT_EQ(wrongType.message(), "input 1: expected f32[4x8], got i64[4x8]");
}

TEST(RunPlan, WrongInputs) {
  Artifact artifact = sampleArtifact();
  std::unique_ptr<Device> device = cpu();
  Result<std::vector<HostTensor>> wrongShape =
      runPlan(*device, artifact, {HostTensor(ElementType::F32, {8, 4})});
  ASSERT_FALSE(wrongShape.ok());
  EXPECT_EQ(wrongShape.message(), "input 0: expected f32[4x8], got f32[8x4]");
  Result<std::vector<HostTensor>> none = runPlan(*device, artifact, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "expected 1 inputs, got 0");
  HostTensor shortData(ElementType::F32, {4, 8});
  shortData.data.resize(100);
  Result<std::vector<HostTensor>> wrongSize =
      runPlan(*device, artifact, {shortData});
  ASSERT_FALSE(wrongSize.ok());
  EXPECT_EQ(wrongSize.message(), "input 0: f32[4x8] needs 128 data bytes but "
                                 "holds 100");
}

TEST(RunPlan, ReportsTheFailingStep) {
  std::unique_ptr<Device> device = cpu();
  Artifact artifact = sampleArtifact({'n', 'o', 't', ' ', 'E', 'L', 'F'});
  Result<std::vector<HostTensor>> garbage =
      runPlan(*device, artifact, artifact.inputs);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.message().rfind("executable 0: dlopen failed: ", 0), 0u)
      << garbage.message();

  artifact.plan.dispatches[0].bindings = {0, 9};
  Result<std::vector<HostTensor>> invalid =
      runPlan(*device, artifact, artifact.inputs);
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.message(), "invalid artifact: dispatch 0 binds buffer 9 "
                               "but the plan has 3 buffers");
}

TEST(RunPlan, DispatchErrorsNameTheDispatch) {
  SIFT_SHARED_OBJECT(binary, kHostKernels);
  Artifact artifact = sampleArtifact(binary);
  artifact.plan.dispatches[0].constants = {1};
  std::unique_ptr<Device> device = cpu();
  Result<std::vector<HostTensor>> outputs =
      runPlan(*device, artifact, artifact.inputs);
  ASSERT_FALSE(outputs.ok());
  EXPECT_EQ(outputs.message(), "dispatch 0: the host-v1 ABI passes no push "
                               "constants but the dispatch has 1");
}

} // namespace
