//===- ConformanceTest.cpp - One test body over every device --------------===//
//
// The same body runs over the cpu device, the cuda and hip devices where
// this host has them, and fake cuda / hip drivers that take every device
// path up to the launch (CI's machines have no GPU). Every skip says why.
// On a GPU host: SIFT_TEST_CUDA=1 (or SIFT_TEST_HIP=1) turns a missing
// device into a failure instead of a skip.
//
//===----------------------------------------------------------------------===//

#include "FakeGpuDriver.h"
#include "RuntimeTestUtil.h"

#include "runtime/Runner.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <ostream>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

constexpr int kElements = 32;


/// y = x + 1 over f32[32], one thread per element (gpu-bare-pointer-v1).
const char *kAddOnePtx = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry add_one(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r1, %r2, %r3, %r1;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd5], %f2;
DONE:
  ret;
}
)";

bool required(const char *variable) {
  const char *flag = std::getenv(variable);
  return flag && std::string(flag) == "1";
}

/// One device under test and how to get its add-one kernel.
struct Subject {
  std::string name;
  std::function<Result<std::unique_ptr<Device>>()> make;
  /// The kernel, or nullopt with `why` set.
  std::function<std::optional<Executable>(std::string &why)> kernel;
  /// The environment variable that makes a missing device a failure.
  const char *requiredBy = nullptr;
};

/// gtest prints a parameter with this (instead of its bytes).
void PrintTo(const Subject &subject, std::ostream *os) { *os << subject.name; }

std::vector<Launch> &fakeLaunches() {
  static std::vector<Launch> launches;
  return launches;
}

Executable gpuKernel(ExecutableFormat format, const std::string &text) {
  Executable exe;
  exe.format = format;
  exe.target = format == ExecutableFormat::Ptx ? "nvptx/sm_70" : "amdgpu/gfx942";
  exe.entries = {"add_one"};
  exe.binary.assign(text.begin(), text.end());
  return exe;
}

std::vector<Subject> subjects() {
  return {
      {"cpu", [] { return createDevice(DeviceKind::Cpu); },
       [](std::string &why) -> std::optional<Executable> {
         std::optional<std::vector<uint8_t>> binary =
             buildSharedObject(kHostKernels, why);
         if (!binary)
           return std::nullopt;
         Executable exe;
         exe.format = ExecutableFormat::HostSharedObject;
         exe.target = "host";
         exe.entries = {"add_one"};
         exe.binary = *binary;
         return exe;
       }},
      {"cuda", [] { return createDevice(DeviceKind::Cuda); },
       [](std::string &) -> std::optional<Executable> {
         return gpuKernel(ExecutableFormat::Ptx, kAddOnePtx);
       },
       "SIFT_TEST_CUDA"},
      {"hip", [] { return createDevice(DeviceKind::Hip); },
       [](std::string &why) -> std::optional<Executable> {
         why = "no HSACO of the add-one kernel ships with the runtime tests "
               "(they build without a ROCm compiler); HIP kernels run "
               "through sift-run with artifacts the compiler made";
         return std::nullopt;
       },
       "SIFT_TEST_HIP"},
      {"fake_cuda",
       [] {
         return Result<std::unique_ptr<Device>>(createDriverDevice(
             std::make_unique<FakeDriver>(ExecutableFormat::Ptx,
                                          fakeLaunches())));
       },
       [](std::string &) -> std::optional<Executable> {
         return gpuKernel(ExecutableFormat::Ptx, "fake");
       }},
      {"fake_hip",
       [] {
         return Result<std::unique_ptr<Device>>(createDriverDevice(
             std::make_unique<FakeDriver>(ExecutableFormat::Hsaco,
                                          fakeLaunches())));
       },
       [](std::string &) -> std::optional<Executable> {
         return gpuKernel(ExecutableFormat::Hsaco, "fake");
       }},
  };
}

class Conformance : public ::testing::TestWithParam<Subject> {
protected:
  void SetUp() override {
    const Subject &subject = GetParam();
    Result<std::unique_ptr<Device>> made = subject.make();
    if (!made.ok()) {
      if (subject.requiredBy && required(subject.requiredBy))
        FAIL() << subject.requiredBy << "=1 but: " << made.message();
      GTEST_SKIP() << "no " << subject.name
                   << " device on this host: " << made.message();
    }
    device = std::move(*made);
  }

  /// in (f32[32], memory `memory`) --add_one--> out, on a grid that covers
  /// 32 elements for GPUs and one call for the host.
  std::optional<Artifact> plan(MemoryType memory = MemoryType::DeviceLocal) {
    std::string why;
    std::optional<Executable> kernel = GetParam().kernel(why);
    if (!kernel)
      return std::nullopt;
    Artifact artifact;
    artifact.executables.push_back(*kernel);
    PlanBuffer in, out;
    in.shape = out.shape = {kElements};
    in.memory = out.memory = memory;
    in.role = BufferRole::Input;
    out.role = BufferRole::Output;
    artifact.plan.buffers = {in, out};
    Dispatch dispatch;
    dispatch.bindings = {0, 1};
    if (kernel->format != ExecutableFormat::HostSharedObject) {
      dispatch.grid = {2, 1, 1};
      dispatch.block = {16, 1, 1};
      artifact.meta["abi"] = kGpuKernelAbi;
    }
    artifact.plan.dispatches = {dispatch};
    return artifact;
  }

  static HostTensor input() {
    std::vector<float> values;
    for (int i = 0; i < kElements; ++i)
      values.push_back(0.25f * static_cast<float>(i) - 3.0f);
    return f32Tensor({kElements}, values);
  }

  static void expectAddOne(const std::vector<HostTensor> &outputs) {
    ASSERT_EQ(outputs.size(), 1u);
    HostTensor in = input();
    for (int i = 0; i < kElements; ++i)
      EXPECT_EQ(outputs[0].get<float>(i), in.get<float>(i) + 1.0f) << i;
  }

  std::unique_ptr<Device> device;
};

#define SKIP_WITHOUT_KERNEL(artifact)                                          \
  std::optional<Artifact> artifact = plan();                                   \
  if (!artifact) {                                                             \
    std::string why;                                                           \
    GetParam().kernel(why);                                                    \
    GTEST_SKIP() << why;                                                       \
  }

TEST_P(Conformance, RunsAPlan) {
  SKIP_WITHOUT_KERNEL(artifact);
  Result<std::vector<HostTensor>> outputs =
      runPlan(*device, *artifact, {input()});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  expectAddOne(*outputs);
}

TEST_P(Conformance, QueueOrderedAndExportedRunsAgree) {
  SKIP_WITHOUT_KERNEL(artifact);
  PlanRunOptions options;
  options.asyncAllocation = true;
  options.exportOutputs = true;
  for (int round = 0; round < 2; ++round) {
    Result<std::vector<HostTensor>> outputs =
        runPlan({device.get()}, *artifact, {input()}, options);
    ASSERT_TRUE(outputs.ok()) << outputs.message();
    expectAddOne(*outputs);
  }
}

TEST_P(Conformance, EveryMemoryType) {
  for (MemoryType memory :
       {MemoryType::DeviceLocal, MemoryType::HostVisible,
        MemoryType::HostVisible | MemoryType::HostCoherent,
        MemoryType::DeviceLocal | MemoryType::HostVisible}) {
    std::optional<Artifact> artifact = plan(memory);
    if (!artifact) {
      std::string why;
      GetParam().kernel(why);
      GTEST_SKIP() << why;
    }
    Result<std::vector<HostTensor>> outputs =
        runPlan(*device, *artifact, {input()});
    ASSERT_TRUE(outputs.ok()) << toString(memory) << ": "
                              << outputs.message();
    expectAddOne(*outputs);
  }
}

TEST_P(Conformance, BuffersRoundTripEveryType) {
  for (ElementType type : {ElementType::I32, ElementType::I64, ElementType::F16,
                           ElementType::F32, ElementType::F64})
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{5, 3}, std::vector<int64_t>{0, 4}}) {
      HostTensor tensor = iotaTensor(type, shape);
      PlanBuffer desc;
      desc.type = type;
      desc.shape = shape;
      Result<std::unique_ptr<Buffer>> buffer = device->allocate(desc);
      ASSERT_TRUE(buffer.ok()) << buffer.message();
      ASSERT_TRUE(device->upload(**buffer, tensor).ok());
      HostTensor back;
      ASSERT_TRUE(device->download(**buffer, back).ok());
      EXPECT_EQ(back, tensor);
    }
}

TEST_P(Conformance, RefusesForeignCode) {
  Executable foreign;
  foreign.format = device->kind() == DeviceKind::Cpu
                       ? ExecutableFormat::Ptx
                       : ExecutableFormat::HostSharedObject;
  foreign.target = "elsewhere";
  foreign.entries = {"add_one"};
  foreign.binary = {1, 2, 3};
  Result<std::unique_ptr<LoadedExecutable>> loaded = device->load(foreign);
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.message().find(std::string(toString(foreign.format))),
            std::string::npos)
      << loaded.message();
}

INSTANTIATE_TEST_SUITE_P(Devices, Conformance,
                         ::testing::ValuesIn(subjects()),
                         [](const auto &info) { return info.param.name; });

} // namespace
