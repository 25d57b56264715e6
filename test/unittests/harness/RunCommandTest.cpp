//===- RunCommandTest.cpp - harness run and harness compile, end to end ---===//
//
// Hand-written programs go through `runRunCommand` exactly as a user's files
// would: MLIR and `.npy` inputs on disk, `.npy` results back. The expected
// results are worked out by hand in each test from SEMANTICS.md (stable sort,
// top-k ties to the lower index, NaN above +inf, -0.0 == +0.0 as keys but
// kept bit for bit), never by the reference oracle, so a bug shared by the
// oracle and the compiler still shows. Every bad-input path must end in exit
// code 2 with a message naming the file; `runCompileCommand` must stop at
// each stage and write what it promises.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/CompilerTestUtil.h"

#include "harness/commands/Commands.h"
#include "runtime/Artifact.h"
#include "support/Npy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace sift;
using namespace sift::harness;
using sift::test::bitsOf;
using sift::test::f32Bits;
using sift::test::f32BitsOf;
using sift::test::intsOf;
using sift::test::intTensor;
using sift::test::readTextFile;
using sift::test::TempDir;
using sift::test::writeTextFile;
using namespace sift::test; // f32 bit patterns

namespace fs = std::filesystem;

namespace {


/// A 2x6 f32 key sorted along dimension 1 with an i64 payload.
const char *kSortProgram = R"mlir(module {
  func.func @main(%arg0: tensor<2x6xf32>, %arg1: tensor<2x6xi64>) -> (tensor<2x6xf32>, tensor<2x6xi64>) {
    %s:2 = sift.sort dimension(1) ascending outs(%arg0, %arg1 : tensor<2x6xf32>, tensor<2x6xi64>) -> tensor<2x6xf32>, tensor<2x6xi64>
    return %s#0, %s#1 : tensor<2x6xf32>, tensor<2x6xi64>
  }
}
)mlir";

/// The same sort, descending.
const char *kSortDescendingProgram = R"mlir(module {
  func.func @main(%arg0: tensor<2x6xf32>, %arg1: tensor<2x6xi64>) -> (tensor<2x6xf32>, tensor<2x6xi64>) {
    %s:2 = sift.sort dimension(1) descending outs(%arg0, %arg1 : tensor<2x6xf32>, tensor<2x6xi64>) -> tensor<2x6xf32>, tensor<2x6xi64>
    return %s#0, %s#1 : tensor<2x6xf32>, tensor<2x6xi64>
  }
}
)mlir";

/// Top 3 of each row of a 2x6 i32 tensor, largest.
const char *kTopKLargestI32Program = R"mlir(module {
  func.func @main(%arg0: tensor<2x6xi32>) -> (tensor<2x3xi32>, tensor<2x3xi64>) {
    %e0 = tensor.empty() : tensor<2x3xi32>
    %e1 = tensor.empty() : tensor<2x3xi64>
    %v, %i = sift.topk dimension(1) k(3) largest ins(%arg0 : tensor<2x6xi32>) outs(%e0, %e1 : tensor<2x3xi32>, tensor<2x3xi64>) -> tensor<2x3xi32>, tensor<2x3xi64>
    return %v, %i : tensor<2x3xi32>, tensor<2x3xi64>
  }
}
)mlir";

/// Top 3 of each row of a 3x6 f32 tensor, smallest.
const char *kTopKSmallestF32Program = R"mlir(module {
  func.func @main(%arg0: tensor<3x6xf32>) -> (tensor<3x3xf32>, tensor<3x3xi64>) {
    %e0 = tensor.empty() : tensor<3x3xf32>
    %e1 = tensor.empty() : tensor<3x3xi64>
    %v, %i = sift.topk dimension(1) k(3) smallest ins(%arg0 : tensor<3x6xf32>) outs(%e0, %e1 : tensor<3x3xf32>, tensor<3x3xi64>) -> tensor<3x3xf32>, tensor<3x3xi64>
    return %v, %i : tensor<3x3xf32>, tensor<3x3xi64>
  }
}
)mlir";

/// Top 3 of each row of a 2x5 f32 tensor, largest.
const char *kTopKLargestF32Program = R"mlir(module {
  func.func @main(%arg0: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>) {
    %e0 = tensor.empty() : tensor<2x3xf32>
    %e1 = tensor.empty() : tensor<2x3xi64>
    %v, %i = sift.topk dimension(1) k(3) largest ins(%arg0 : tensor<2x5xf32>) outs(%e0, %e1 : tensor<2x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>, tensor<2x3xi64>
    return %v, %i : tensor<2x3xf32>, tensor<2x3xi64>
  }
}
)mlir";

/// The sort inputs. Row 0 has equal zeros of both signs, a tie at 1.0 and a
/// NaN; row 1 has -inf, a tie at 2.0 and two NaNs of different bits.
HostTensor sortKey() {
  return f32Bits({2, 6},
                 {kThree, kNegZero, kOne, kNaN, kPosZero, kOne, //
                  kTwo, kNegInf, kNaNPayload, kTwo, kNegNaN, kMinusOne});
}
HostTensor sortPayload() {
  return intTensor(ElementType::I64, {2, 6},
                   {10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24, 25});
}

/// A temporary folder with a program and its inputs written out, and the
/// RunOptions that name them.
class RunFixture {
public:
  RunFixture(const std::string &program,
             const std::vector<HostTensor> &inputs) {
    options.program = dir.file("program.mlir");
    writeTextFile(options.program, program);
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string path = dir.file("input" + std::to_string(i) + ".npy");
      Status s = writeNpy(path, inputs[i]);
      EXPECT_TRUE(s.ok()) << s.message();
      options.inputs.push_back(path);
    }
    options.outputDir = dir.file("out");
  }

  /// Runs the command with stdout captured (it lists the results).
  int run() {
    testing::internal::CaptureStdout();
    int code = runRunCommand(options);
    stdoutText = testing::internal::GetCapturedStdout();
    return code;
  }

  /// Runs the command with stderr captured into `stderrText`.
  int runCapturingStderr() {
    testing::internal::CaptureStderr();
    int code = run();
    stderrText = testing::internal::GetCapturedStderr();
    return code;
  }

  HostTensor result(int i) {
    auto t =
        readNpy(options.outputDir + "/result" + std::to_string(i) + ".npy");
    EXPECT_TRUE(t.ok()) << t.message();
    return t.ok() ? *t : HostTensor();
  }

  TempDir dir;
  RunOptions options;
  std::string stdoutText, stderrText;
};

//===----------------------------------------------------------------------===//
// Results against hand-computed expectations
//===----------------------------------------------------------------------===//

TEST(RunCommandTest, SortAscendingIsStableWithNaNLast) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  ASSERT_EQ(f.run(), kExitOk);
  EXPECT_NE(f.stdoutText.find("result0.npy f32[2x6]"), std::string::npos)
      << f.stdoutText;
  EXPECT_NE(f.stdoutText.find("result1.npy i64[2x6]"), std::string::npos)
      << f.stdoutText;

  HostTensor keys = f.result(0), payload = f.result(1);
  ASSERT_EQ(describe(keys), "f32[2x6]");
  ASSERT_EQ(describe(payload), "i64[2x6]");
  // Row 0: -0.0 (1) and +0.0 (4) are equal keys and keep their order, then
  // 1.0 (2), 1.0 (5), 3.0 (0), NaN (3).
  // Row 1: -inf (1), -1 (5), 2 (0), 2 (3), then the NaNs in input order:
  // the payload NaN (2) and the negative NaN (4), each with its own bits.
  EXPECT_EQ(f32BitsOf(keys),
            (std::vector<uint32_t>{kNegZero, kPosZero, kOne, kOne, kThree,
                                   kNaN, //
                                   kNegInf, kMinusOne, kTwo, kTwo, kNaNPayload,
                                   kNegNaN}));
  EXPECT_EQ(intsOf(payload), (std::vector<int64_t>{11, 14, 12, 15, 10, 13, //
                                                   21, 25, 20, 23, 22, 24}));
}

TEST(RunCommandTest, SortDescendingPutsNaNFirstAndStaysStable) {
  RunFixture f(kSortDescendingProgram, {sortKey(), sortPayload()});
  ASSERT_EQ(f.run(), kExitOk);
  // Descending in the total order, equal keys keep their input order.
  // Row 0: NaN (3), 3 (0), 1 (2), 1 (5), -0.0 (1), +0.0 (4).
  // Row 1: NaN (2), NaN (4), 2 (0), 2 (3), -1 (5), -inf (1).
  EXPECT_EQ(f32BitsOf(f.result(0)),
            (std::vector<uint32_t>{kNaN, kThree, kOne, kOne, kNegZero,
                                   kPosZero, //
                                   kNaNPayload, kNegNaN, kTwo, kTwo, kMinusOne,
                                   kNegInf}));
  EXPECT_EQ(intsOf(f.result(1)),
            (std::vector<int64_t>{13, 10, 12, 15, 11, 14, //
                                  22, 24, 20, 23, 25, 21}));
}

TEST(RunCommandTest, TopKLargestI32TiesToLowerIndex) {
  HostTensor input = intTensor(ElementType::I32, {2, 6},
                               {5, 7, 7, -3, 7, 1, //
                                0, -1, 4, 2, 4, 2});
  RunFixture f(kTopKLargestI32Program, {input});
  ASSERT_EQ(f.run(), kExitOk);
  HostTensor values = f.result(0), indices = f.result(1);
  ASSERT_EQ(describe(values), "i32[2x3]");
  ASSERT_EQ(describe(indices), "i64[2x3]");
  // Row 0: three 7s at 1, 2, 4 (the 5 at 0 is left out).
  // Row 1: 4 (2), 4 (4), then the first of the tied 2s (3, not 5).
  EXPECT_EQ(intsOf(values), (std::vector<int64_t>{7, 7, 7, 4, 4, 2}));
  EXPECT_EQ(intsOf(indices), (std::vector<int64_t>{1, 2, 4, 2, 4, 3}));
}

TEST(RunCommandTest, TopKSmallestF32TiesToLowerIndexAndNaNLast) {
  // Three rows of six.
  std::vector<uint32_t> bits = {
      kOne,        kNaN,   kNegZero, kPosZero, kMinusTwo, kOne,
      kNaN,        kThree, kNaN,     kThree,   kThree,    kInf,
      kNaNPayload, kInf,   kNaN,     kNegNaN,  kNegInf,   kNaN};
  HostTensor input = f32Bits({3, 6}, bits);
  RunFixture f(kTopKSmallestF32Program, {input});
  ASSERT_EQ(f.run(), kExitOk);
  HostTensor values = f.result(0), indices = f.result(1);
  ASSERT_EQ(describe(values), "f32[3x3]");
  ASSERT_EQ(describe(indices), "i64[3x3]");
  // Row 0: -2 (4), then the equal zeros in index order: -0.0 (2), +0.0 (3).
  // Row 1: the three 3s (1, 3, 4); inf and the NaNs are larger.
  // Row 2: -inf (4), inf (1), then the first NaN (0) with its own bits.
  EXPECT_EQ(f32BitsOf(values),
            (std::vector<uint32_t>{kMinusTwo, kNegZero, kPosZero, //
                                   kThree, kThree, kThree,        //
                                   kNegInf, kInf, kNaNPayload}));
  EXPECT_EQ(intsOf(indices), (std::vector<int64_t>{4, 2, 3, 1, 3, 4, 4, 1, 0}));
}

TEST(RunCommandTest, TopKLargestF32PutsNaNFirst) {
  HostTensor input =
      f32Bits({2, 5}, {kOne, kNegNaN, kInf, kNaN, kTwo, //
                       kNegZero, kPosZero, kMinusOne, kPosZero, kNegZero});
  RunFixture f(kTopKLargestF32Program, {input});
  ASSERT_EQ(f.run(), kExitOk);
  // Row 0: the NaNs first in index order (1, 3), then inf (2).
  // Row 1: four equal zeros; the first three by index, bits kept.
  EXPECT_EQ(f32BitsOf(f.result(0)),
            (std::vector<uint32_t>{kNegNaN, kNaN, kInf, //
                                   kNegZero, kPosZero, kPosZero}));
  EXPECT_EQ(intsOf(f.result(1)), (std::vector<int64_t>{1, 3, 2, 0, 1, 3}));
}

TEST(RunCommandTest, CreatesTheOutputFolder) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  f.options.outputDir = f.dir.file("a/b/c");
  ASSERT_EQ(f.run(), kExitOk);
  EXPECT_TRUE(fs::exists(f.dir.file("a/b/c/result0.npy")));
  EXPECT_TRUE(fs::exists(f.dir.file("a/b/c/result1.npy")));
}

//===----------------------------------------------------------------------===//
// Bad input: exit code 2 and a message that names the file
//===----------------------------------------------------------------------===//

TEST(RunCommandTest, MissingProgramFile) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  f.options.program = f.dir.file("no-such-program.mlir");
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("no-such-program.mlir: cannot open"),
            std::string::npos)
      << f.stderrText;
  EXPECT_FALSE(fs::exists(f.options.outputDir));
}

TEST(RunCommandTest, MalformedMlirNamesLineAndColumn) {
  // Line 4, column 12: an SSA value that was never defined.
  const char *text = R"mlir(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %s = sift.sort dimension(0) ascending outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
    return %bogus : tensor<4xf32>
  }
}
)mlir";
  RunFixture f(text, {f32Bits({4}, {kOne, kTwo, kThree, kNaN})});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("program.mlir:4:12:"), std::string::npos)
      << f.stderrText;
  EXPECT_NE(f.stderrText.find("error"), std::string::npos) << f.stderrText;
}

TEST(RunCommandTest, VerifierErrorNamesLineAndColumn) {
  // Line 3, column 10: a sort dimension out of range for rank 1.
  const char *text = R"mlir(module {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %s = sift.sort dimension(1) ascending outs(%arg0 : tensor<4xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
}
)mlir";
  RunFixture f(text, {f32Bits({4}, {kOne, kTwo, kThree, kNaN})});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("program.mlir:3:10:"), std::string::npos)
      << f.stderrText;
  EXPECT_NE(f.stderrText.find("out of range"), std::string::npos)
      << f.stderrText;
}

TEST(RunCommandTest, InputOfTheWrongShape) {
  HostTensor key = f32Bits({2, 5}, std::vector<uint32_t>(10, kOne));
  RunFixture f(kSortProgram, {key, sortPayload()});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("input0.npy): shape [2, 5] does not match "
                              "argument 1 of @main, tensor<2x6xf32>"),
            std::string::npos)
      << f.stderrText;
  EXPECT_FALSE(fs::exists(f.options.outputDir + "/result0.npy"));
}

TEST(RunCommandTest, InputOfTheWrongElementType) {
  HostTensor payload =
      intTensor(ElementType::I32, {2, 6}, std::vector<int64_t>(12, 0));
  RunFixture f(kSortProgram, {sortKey(), payload});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("input1.npy): element type i32 (<i4) does not "
                              "match argument 2 of @main, tensor<2x6xi64>"),
            std::string::npos)
      << f.stderrText;
}

TEST(RunCommandTest, TooFewInputs) {
  RunFixture f(kSortProgram, {sortKey()});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find(
                "@main takes 2 arguments but 1 --input file was given"),
            std::string::npos)
      << f.stderrText;
}

TEST(RunCommandTest, TooManyInputs) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload(), sortPayload()});
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find(
                "@main takes 2 arguments but 3 --input files were given"),
            std::string::npos)
      << f.stderrText;
}

TEST(RunCommandTest, MissingInputFile) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  f.options.inputs[1] = f.dir.file("no-such-input.npy");
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("no-such-input.npy"), std::string::npos)
      << f.stderrText;
}

TEST(RunCommandTest, TruncatedInputFile) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  // Cut the payload's data in half: the header promises 96 bytes.
  fs::resize_file(f.options.inputs[1], fs::file_size(f.options.inputs[1]) - 48);
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("input1.npy"), std::string::npos) << f.stderrText;
}

TEST(RunCommandTest, InputFileThatIsNotNpy) {
  RunFixture f(kSortProgram, {sortKey(), sortPayload()});
  writeTextFile(f.options.inputs[0], "this is not a numpy file\n");
  EXPECT_EQ(f.runCapturingStderr(), kExitUsage);
  EXPECT_NE(f.stderrText.find("input0.npy"), std::string::npos) << f.stderrText;
}

//===----------------------------------------------------------------------===//
// harness compile
//===----------------------------------------------------------------------===//

class CompileCommandTest : public testing::Test {
protected:
  void SetUp() override {
    options.program = dir.file("sort.mlir");
    writeTextFile(options.program, kSortProgram);
  }

  TempDir dir;
  CompileCommandOptions options;
};

TEST_F(CompileCommandTest, EmitMlirToFile) {
  options.emit = EmitStage::Mlir;
  options.output = dir.file("out.mlir");
  ASSERT_EQ(runCompileCommand(options), kExitOk);
  std::string text = readTextFile(options.output);
  EXPECT_NE(text.find("llvm.func @sift_dispatch_0"), std::string::npos) << text;
  EXPECT_EQ(text.find("sift.sort"), std::string::npos) << text;
}

TEST_F(CompileCommandTest, EmitMlirToStdout) {
  options.emit = EmitStage::Mlir;
  testing::internal::CaptureStdout();
  int code = runCompileCommand(options);
  std::string text = testing::internal::GetCapturedStdout();
  ASSERT_EQ(code, kExitOk);
  EXPECT_NE(text.find("llvm.func @sift_dispatch_0"), std::string::npos) << text;
}

TEST_F(CompileCommandTest, EmitLlvm) {
  options.emit = EmitStage::Llvm;
  options.output = dir.file("out.ll");
  ASSERT_EQ(runCompileCommand(options), kExitOk);
  std::string text = readTextFile(options.output);
  EXPECT_NE(text.find("define void @sift_dispatch_0"), std::string::npos)
      << text;
}

TEST_F(CompileCommandTest, EmitArtifact) {
  options.emit = EmitStage::Artifact;
  options.output = dir.file("sort.sift");
  ASSERT_EQ(runCompileCommand(options), kExitOk);
  auto artifact = rt::readArtifact(options.output);
  ASSERT_TRUE(artifact.ok()) << artifact.message();
  const rt::Plan &plan = artifact->plan;
  EXPECT_FALSE(artifact->executables.empty());
  EXPECT_FALSE(plan.dispatches.empty());

  std::vector<int> inputs = plan.inputs(), outputs = plan.outputs();
  ASSERT_EQ(inputs.size(), 2u);
  ASSERT_EQ(outputs.size(), 2u);
  auto describeBuffer = [&](int i) {
    const rt::PlanBuffer &b = plan.buffers[static_cast<size_t>(i)];
    return describe(b.type, b.shape);
  };
  EXPECT_EQ(describeBuffer(inputs[0]), "f32[2x6]");
  EXPECT_EQ(describeBuffer(inputs[1]), "i64[2x6]");
  EXPECT_EQ(describeBuffer(outputs[0]), "f32[2x6]");
  EXPECT_EQ(describeBuffer(outputs[1]), "i64[2x6]");
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(plan.buffers[static_cast<size_t>(inputs[i])].roleIndex, i);
    EXPECT_EQ(plan.buffers[static_cast<size_t>(outputs[i])].roleIndex, i);
  }
  EXPECT_TRUE(rt::verifyPlan(plan).ok());
}

TEST_F(CompileCommandTest, ArtifactNeedsAnOutputPath) {
  options.emit = EmitStage::Artifact;
  options.output = "-";
  testing::internal::CaptureStderr();
  int code = runCompileCommand(options);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitUsage);
  EXPECT_NE(err.find("needs -o PATH"), std::string::npos) << err;
}

TEST_F(CompileCommandTest, MissingProgramFile) {
  options.program = dir.file("missing.mlir");
  options.emit = EmitStage::Mlir;
  testing::internal::CaptureStderr();
  int code = runCompileCommand(options);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitUsage);
  EXPECT_NE(err.find("missing.mlir: cannot open"), std::string::npos) << err;
}

TEST_F(CompileCommandTest, MalformedMlir) {
  writeTextFile(options.program, "module {\n  func.func @main( {\n}\n");
  options.emit = EmitStage::Mlir;
  testing::internal::CaptureStderr();
  int code = runCompileCommand(options);
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, kExitUsage);
  EXPECT_NE(err.find("sort.mlir:2:"), std::string::npos) << err;
}

TEST_F(CompileCommandTest, TruncatedArtifactIsRejected) {
  options.emit = EmitStage::Artifact;
  options.output = dir.file("sort.sift");
  ASSERT_EQ(runCompileCommand(options), kExitOk);
  uintmax_t size = fs::file_size(options.output);
  ASSERT_GT(size, 64u);
  for (uintmax_t keep : {size - 1, size / 2, uintmax_t(16), uintmax_t(0)}) {
    fs::resize_file(options.output, keep);
    auto artifact = rt::readArtifact(options.output);
    ASSERT_FALSE(artifact.ok()) << "kept " << keep << " of " << size;
    EXPECT_NE(artifact.message().find(options.output), std::string::npos)
        << artifact.message();
  }
}

} // namespace
