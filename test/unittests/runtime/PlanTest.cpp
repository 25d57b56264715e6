//===- test/unittests/runtime/PlanTest.cpp - Dispatch plans ---------------===//
//
// Stable enum names, inputs()/outputs() ordering, the text encoding's round
// trip and its parse errors (with line numbers), and the plan verifier.
//
//===----------------------------------------------------------------------===//

#include "runtime/Plan.h"

#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

TEST(PlanNames, RoundTripEveryEnum) {
  for (BufferRole role :
       {BufferRole::Input, BufferRole::Output, BufferRole::Temporary})
    EXPECT_EQ(parseBufferRole(toString(role)), role);
  for (ExecutableFormat format :
       {ExecutableFormat::HostSharedObject, ExecutableFormat::Ptx,
        ExecutableFormat::Hsaco})
    EXPECT_EQ(parseExecutableFormat(toString(format)), format);
  EXPECT_EQ(toString(ExecutableFormat::HostSharedObject), "host-so");
  EXPECT_EQ(toString(ExecutableFormat::Ptx), "ptx");
  EXPECT_EQ(toString(ExecutableFormat::Hsaco), "hsaco");
  EXPECT_FALSE(parseExecutableFormat("elf").has_value());
  EXPECT_FALSE(parseBufferRole("scratch").has_value());

  for (uint32_t bits = 0; bits < 8; ++bits) {
    auto memory = static_cast<MemoryType>(bits);
    EXPECT_EQ(parseMemoryType(toString(memory)), memory) << toString(memory);
    auto usage = static_cast<BufferUsage>(bits);
    EXPECT_EQ(parseBufferUsage(toString(usage)), usage) << toString(usage);
  }
  EXPECT_EQ(toString(MemoryType::DeviceLocal | MemoryType::HostCoherent),
            "device_local|host_coherent");
  EXPECT_EQ(toString(BufferUsage::None), "none");
  EXPECT_EQ(toString(static_cast<MemoryType>(0x11)), "device_local|0x10");
  EXPECT_FALSE(parseMemoryType("device_local|").has_value());
  EXPECT_FALSE(parseMemoryType("device_local|device_local").has_value());
  EXPECT_FALSE(parseBufferUsage("").has_value());
}

TEST(PlanFlags, Operators) {
  MemoryType memory = MemoryType::DeviceLocal | MemoryType::HostVisible;
  EXPECT_TRUE(hasAll(memory, MemoryType::HostVisible));
  EXPECT_FALSE(hasAll(memory, MemoryType::HostCoherent));
  EXPECT_EQ(memory & MemoryType::HostVisible, MemoryType::HostVisible);
  BufferUsage usage = BufferUsage::Dispatch | BufferUsage::Export;
  EXPECT_TRUE(hasAll(usage, BufferUsage::Export));
  EXPECT_EQ(usage & BufferUsage::Transfer, BufferUsage::None);
}

TEST(Plan, InputsAndOutputsAreOrderedByRoleIndex) {
  Plan plan;
  auto add = [&](BufferRole role, int index) {
    PlanBuffer buffer;
    buffer.role = role;
    buffer.roleIndex = index;
    plan.buffers.push_back(buffer);
  };
  add(BufferRole::Output, 1);
  add(BufferRole::Input, 1);
  add(BufferRole::Temporary, 0);
  add(BufferRole::Input, 0);
  add(BufferRole::Output, 0);
  EXPECT_EQ(plan.inputs(), (std::vector<int>{3, 1}));
  EXPECT_EQ(plan.outputs(), (std::vector<int>{4, 0}));
}

TEST(Plan, BufferByteSize) {
  EXPECT_EQ(bufferByteSize(ElementType::F32, {4, 8}), 128u);
  EXPECT_EQ(bufferByteSize(ElementType::F16, {}), 2u);
  EXPECT_EQ(bufferByteSize(ElementType::I64, {3, 0, 1}), 0u);
  EXPECT_FALSE(bufferByteSize(ElementType::I32, {-1}).has_value());
  EXPECT_FALSE(
      bufferByteSize(ElementType::F64, {1 << 20, 1 << 20}).has_value());
  EXPECT_FALSE(bufferByteSize(ElementType::F64, {INT64_MAX, INT64_MAX, 0, -1})
                   .has_value());
  EXPECT_EQ(bufferByteSize(ElementType::F64, {INT64_MAX, 0}), 0u);
}

TEST(PlanText, RoundTrip) {
  Plan plan = sampleArtifact().plan;
  Dispatch second;
  second.executable = 1;
  second.entry = 2;
  second.grid = {3, 2, 1};
  second.block = {64, 4, 2};
  second.workgroupMemoryBytes = 4096;
  second.bindings = {2, 0};
  second.constants = {-5, 0, INT64_MAX, INT64_MIN};
  plan.dispatches.push_back(second);
  plan.buffers[2].memory = MemoryType::HostVisible | MemoryType::HostCoherent;
  plan.buffers[2].usage = BufferUsage::None;
  plan.buffers.push_back(PlanBuffer{ElementType::F16,
                                    {},
                                    MemoryType::DeviceLocal,
                                    BufferUsage::Export,
                                    BufferRole::Temporary,
                                    1,
                                    {2, 0}});

  std::string text = encodePlan(plan);
  Result<Plan> parsed = parsePlan(text, "p.plan");
  ASSERT_TRUE(parsed.ok()) << parsed.message() << "\n" << text;
  EXPECT_EQ(*parsed, plan) << text;
  EXPECT_EQ(encodePlan(*parsed), text);
}

TEST(PlanText, ReadableEncoding) {
  std::string text = encodePlan(sampleArtifact().plan);
  EXPECT_EQ(text,
            "sift-plan 1\n"
            "buffer 0 type=f32 shape=[4,8] memory=device_local|host_visible "
            "usage=dispatch|transfer role=input role_index=0 affinity=[]\n"
            "buffer 1 type=f32 shape=[4,8] memory=device_local|host_visible "
            "usage=dispatch|transfer|export role=output role_index=0 "
            "affinity=[0,1]\n"
            "buffer 2 type=i32 shape=[0] memory=device_local "
            "usage=dispatch|transfer role=temporary role_index=0 affinity=[]\n"
            "dispatch 0 executable=0 entry=0 grid=[1,1,1] block=[1,1,1] "
            "workgroup_memory=0 bindings=[0,1] constants=[]\n");
}

TEST(PlanText, CommentsBlankLinesOptionalKeysAndCrLf) {
  Result<Plan> parsed =
      parsePlan("# a plan written by hand\r\n"
                "\n"
                "sift-plan 1\r\n"
                "  buffer 0   type=i64 shape=[] memory=host_visible usage=none "
                "role=output role_index=0\n"
                "# comment between records\n"
                "dispatch 0 entry=0 executable=0 bindings=[0] block=[1,1,1] "
                "grid=[2,1,1]",
                "hand.plan");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  ASSERT_EQ(parsed->buffers.size(), 1u);
  EXPECT_EQ(parsed->buffers[0].type, ElementType::I64);
  EXPECT_TRUE(parsed->buffers[0].shape.empty());
  EXPECT_TRUE(parsed->buffers[0].affinity.empty());
  ASSERT_EQ(parsed->dispatches.size(), 1u);
  EXPECT_EQ(parsed->dispatches[0].grid, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(parsed->dispatches[0].workgroupMemoryBytes, 0u);
  EXPECT_TRUE(parsed->dispatches[0].constants.empty());
}

TEST(PlanText, EmptyPlan) {
  Result<Plan> parsed = parsePlan("sift-plan 1\n", "e.plan");
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_TRUE(parsed->buffers.empty());
  EXPECT_TRUE(parsed->dispatches.empty());
}

struct ParseErrorCase {
  const char *text;
  const char *message;
};

class PlanParseErrors : public ::testing::TestWithParam<ParseErrorCase> {};

TEST_P(PlanParseErrors, NamesTheLineAndTheProblem) {
  Result<Plan> parsed = parsePlan(GetParam().text, "p.plan");
  ASSERT_FALSE(parsed.ok()) << GetParam().text;
  EXPECT_EQ(parsed.message(), GetParam().message);
}

constexpr const char *kBuffer0 =
    "buffer 0 type=f32 shape=[4] memory=device_local usage=dispatch "
    "role=input role_index=0\n";

INSTANTIATE_TEST_SUITE_P(
    All, PlanParseErrors,
    ::testing::Values(
        ParseErrorCase{"", "p.plan: empty plan: expected the header "
                           "'sift-plan 1'"},
        ParseErrorCase{"# only a comment\n",
                       "p.plan: empty plan: expected the header 'sift-plan 1'"},
        ParseErrorCase{"plan 1\n", "p.plan:1: expected the header 'sift-plan "
                                   "1', found 'plan 1'"},
        ParseErrorCase{"\nsift-plan 2\n",
                       "p.plan:2: unsupported plan version '2' (this runtime "
                       "reads 1)"},
        ParseErrorCase{"sift-plan 1\nbuffr 0\n",
                       "p.plan:2: expected a 'buffer' or 'dispatch' record, "
                       "found 'buffr'"},
        ParseErrorCase{"sift-plan 1\nbuffer\n",
                       "p.plan:2: buffer record without an index"},
        ParseErrorCase{"sift-plan 1\nbuffer 1 type=f32\n",
                       "p.plan:2: buffer 1 where buffer 0 was expected"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4]\n",
                       "p.plan:2: buffer 0: missing 'memory'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f33 shape=[4] "
                       "memory=device_local usage=dispatch role=input "
                       "role_index=0\n",
                       "p.plan:2: buffer 0: 'type' must be an element type "
                       "(i32, i64, f16, bf16, f32, f64), found 'f33'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4,x] "
                       "memory=device_local usage=dispatch role=input "
                       "role_index=0\n",
                       "p.plan:2: buffer 0: 'shape' must be a list of integers "
                       "like [4,8], found '[4,x]'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4] "
                       "memory=device_global usage=dispatch role=input "
                       "role_index=0\n",
                       "p.plan:2: buffer 0: 'memory' must be '|'-separated "
                       "device_local, host_visible, host_coherent or none, "
                       "found 'device_global'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4] "
                       "memory=device_local usage=dispatch role=input "
                       "role_index=0 colour=red\n",
                       "p.plan:2: buffer 0: unknown key 'colour'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 type=f32\n",
                       "p.plan:2: buffer 0: 'type' appears twice"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type\n",
                       "p.plan:2: buffer 0: expected key=value, found 'type'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4] "
                       "memory=device_local usage=dispatch role=input "
                       "role_index=99999999999\n",
                       "p.plan:2: buffer 0: 'role_index' must be an integer, "
                       "found '99999999999'"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32 shape=[4] "
                       "memory=device_local usage=dispatch role=input "
                       "role_index=0\ndispatch 0 executable=0 entry=0 "
                       "grid=[1,1] block=[1,1,1] bindings=[0]\n",
                       "p.plan:3: dispatch 0: 'grid' must be three unsigned "
                       "32-bit integers like [1,1,1], found '[1,1]'"},
        ParseErrorCase{"sift-plan 1\ndispatch 0 executable=0 entry=0 "
                       "grid=[1,1,1] block=[1,-1,1] bindings=[0]\n",
                       "p.plan:2: dispatch 0: 'block' must be three unsigned "
                       "32-bit integers like [1,1,1], found '[1,-1,1]'"},
        ParseErrorCase{"sift-plan 1\ndispatch 0 executable=0 entry=0 "
                       "grid=[1,1,1] block=[1,1,1] bindings=[0] "
                       "workgroup_memory=4294967296\n",
                       "p.plan:2: dispatch 0: 'workgroup_memory' must be an "
                       "unsigned 32-bit integer, found '4294967296'"},
        ParseErrorCase{"sift-plan 1\ndispatch 0 executable=0 entry=0 "
                       "grid=[1,1,1] block=[1,1,1] bindings=[0] "
                       "constants=[1,,2]\n",
                       "p.plan:2: dispatch 0: 'constants' must be a list of "
                       "integers like [3,-1], found '[1,,2]'"},
        ParseErrorCase{"sift-plan 1\ndispatch 0 executable=0 entry=0 "
                       "grid=[1,1,1] block=[1,1,1] bindings=[0]\n"
                       "buffer 0 type=f32\n",
                       "p.plan:3: buffer records must come before dispatch "
                       "records"},
        ParseErrorCase{"sift-plan 1\nbuffer 0 type=f32\x01\n",
                       "p.plan:2: control character in the plan text"}));

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

void expectInvalid(const Plan &plan, const std::string &message) {
  Status status = verifyPlan(plan);
  ASSERT_FALSE(status.ok()) << "expected: " << message;
  EXPECT_EQ(status.message(), message);
}

TEST(PlanVerify, SampleIsValid) {
  EXPECT_TRUE(verifyPlan(sampleArtifact().plan).ok());
}

TEST(PlanVerify, BindingOutOfRange) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].bindings = {0, 7};
  expectInvalid(plan, "dispatch 0 binds buffer 7 but the plan has 3 buffers");
  plan.dispatches[0].bindings = {-1, 1};
  expectInvalid(plan, "dispatch 0 binds buffer -1 but the plan has 3 buffers");
}

TEST(PlanVerify, DuplicateBinding) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].bindings = {1, 0, 1};
  expectInvalid(plan, "dispatch 0 binds buffer 1 twice");
}

TEST(PlanVerify, ZeroGridOrBlock) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].grid = {1, 0, 1};
  expectInvalid(plan, "dispatch 0 has grid size 0 along y");
  plan.dispatches[0].grid = {1, 1, 1};
  plan.dispatches[0].block = {1, 1, 0};
  expectInvalid(plan, "dispatch 0 has block size 0 along z");
}

TEST(PlanVerify, TooManyThreadsPerWorkgroup) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].block = {1024, 1, 1};
  EXPECT_TRUE(verifyPlan(plan).ok());
  plan.dispatches[0].block = {512, 2, 2};
  expectInvalid(plan, "dispatch 0 has block [512,2,2], more than 1024 threads "
                      "per workgroup");
  plan.dispatches[0].block = {4294967295u, 4294967295u, 4294967295u};
  EXPECT_FALSE(verifyPlan(plan).ok());
}

TEST(PlanVerify, NegativeShape) {
  Plan plan = sampleArtifact().plan;
  plan.buffers[2].shape = {3, -1};
  expectInvalid(plan, "buffer 2 (temporary 0) has a negative dimension in its "
                      "shape i32[3x-1]");
}

TEST(PlanVerify, ByteSizeLimits) {
  Plan plan = sampleArtifact().plan;
  plan.buffers[2].shape = {INT64_MAX, 2};
  expectInvalid(plan, "buffer 2 (temporary 0) of i32[9223372036854775807x2] "
                      "is larger than the limit of 1099511627776 bytes");
  plan.buffers[2].shape = {1 << 20, 1 << 17};
  plan.buffers[0].shape = {1 << 20, 1 << 17};
  plan.buffers[1].shape = {1 << 20, 1 << 17};
  expectInvalid(plan, "buffers 0..2 together need more than the limit of "
                      "1099511627776 bytes");
}

TEST(PlanVerify, RoleIndices) {
  Plan plan = sampleArtifact().plan;
  plan.buffers[2].role = BufferRole::Input;
  expectInvalid(plan, "buffers 0 and 2 are both input 0");
  plan.buffers[2].roleIndex = 2;
  expectInvalid(plan, "buffer 2 is input 2 but the plan has 2 input buffers, "
                      "so their indices run 0..1");
}

TEST(PlanVerify, UnwrittenOutput) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].bindings = {0, 2};
  expectInvalid(plan, "output 0 (buffer 1) is bound by no dispatch, so "
                      "nothing writes it");
}

TEST(PlanVerify, FlagsAndAffinity) {
  Plan plan = sampleArtifact().plan;
  plan.buffers[0].memory = MemoryType::None;
  expectInvalid(plan, "buffer 0 (input 0) has no memory type");
  plan.buffers[0].memory = static_cast<MemoryType>(9);
  expectInvalid(plan, "buffer 0 (input 0) has unknown memory type bits "
                      "(device_local|0x8)");
  plan.buffers[0].memory = MemoryType::DeviceLocal;
  plan.buffers[0].usage = static_cast<BufferUsage>(16);
  expectInvalid(plan, "buffer 0 (input 0) has unknown usage bits (0x10)");
  plan.buffers[0].usage = BufferUsage::Dispatch;
  plan.buffers[0].affinity = {0, -2};
  expectInvalid(plan, "buffer 0 (input 0) has a negative device affinity -2");
}

TEST(PlanVerify, NegativeExecutableOrEntry) {
  Plan plan = sampleArtifact().plan;
  plan.dispatches[0].executable = -1;
  expectInvalid(plan, "dispatch 0 names executable -1");
  plan.dispatches[0].executable = 0;
  plan.dispatches[0].entry = -3;
  expectInvalid(plan, "dispatch 0 names entry -3");
}

} // namespace
