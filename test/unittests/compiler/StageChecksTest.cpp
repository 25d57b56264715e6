//===- StageChecksTest.cpp - The IR oracles as pass instrumentation -------===//
//
// StageCheckInstrumentation on small pass managers with a test-only pass
// that introduces a heap allocation into kernels, so the finding must be
// attributed to that pass and to no other. The distribute pipeline itself
// must come out clean, and a disabled test measures the instrumentation's
// overhead on it.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/IrTestFixture.h"

#include "oracles/ir/IrChecks.h"
#include "oracles/ir/StageChecks.h"
#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Pipelines/Pipelines.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace mlir;
using namespace sift;
using namespace sift::oracle;

namespace {

using namespace sift::irtest;

//===----------------------------------------------------------------------===//
// StageCheckInstrumentation
//===----------------------------------------------------------------------===//

class StageChecksTest : public IrChecksTest {};

/// Test-only: puts a heap buffer (`memref.alloc`, stored to so that it stays)
/// at the top of every gpu.func.
template <typename Op> void insertAllocs(Op root) {
  root->walk([](gpu::GPUFuncOp func) {
    Block &entry = func.getBody().front();
    OpBuilder b(&entry, entry.begin());
    Location loc = NameLoc::get(b.getStringAttr("inserted"), func.getLoc());
    Value buffer =
        memref::AllocOp::create(b, loc, MemRefType::get({16}, b.getF32Type()));
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
    memref::StoreOp::create(b, loc, one, buffer, ValueRange{zero});
  });
}

struct InsertKernelAllocPass
    : public PassWrapper<InsertKernelAllocPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InsertKernelAllocPass)
  StringRef getArgument() const final { return "test-insert-kernel-alloc"; }
  StringRef getDescription() const final { return "test only"; }
  void runOnOperation() override { insertAllocs(getOperation()); }
};

struct InsertKernelAllocNestedPass
    : public PassWrapper<InsertKernelAllocNestedPass,
                         OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(InsertKernelAllocNestedPass)
  StringRef getArgument() const final {
    return "test-insert-kernel-alloc-nested";
  }
  StringRef getDescription() const final { return "test only"; }
  void runOnOperation() override { insertAllocs(getOperation()); }
};

constexpr const char *kTwoKernels = R"(
  module attributes {gpu.container_module} {
    gpu.module @k0 {
      gpu.func @f(%out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
        %tid = gpu.thread_id x
        %v = arith.constant 2.0 : f32
        memref.store %v, %out[%tid] : memref<64xf32>
        gpu.return
      }
    }
    gpu.module @k1 {
      gpu.func @f(%out: memref<64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
        %tid = gpu.thread_id x
        %v = arith.constant 3.0 : f32
        memref.store %v, %out[%tid] : memref<64xf32>
        gpu.return
      }
    }
  })";

TEST_F(StageChecksTest, NamesTheIntroducingPass) {
  auto module = parse(kTwoKernels);
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(std::make_unique<InsertKernelAllocPass>());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  ASSERT_EQ(findings.size(), 2u);
  for (const StageFinding &stage : findings) {
    EXPECT_EQ(stage.pass, "test-insert-kernel-alloc");
    EXPECT_EQ(stage.finding.verdict, Verdict::MallocInKernel);
  }
  EXPECT_EQ(findings[0].finding.kernel, "k0::f");
  EXPECT_EQ(findings[1].finding.kernel, "k1::f");
  // input + 4 passes on the module.
  EXPECT_EQ(stages.checksRun(), 5u);
}

// A nested pass, run on both gpu.modules in parallel: each finding is
// checked in the thread that made it and named after the nested pass.
TEST_F(StageChecksTest, NestedPassInParallel) {
  ASSERT_TRUE(context_.isMultithreadingEnabled());
  auto module = parse(kTwoKernels);
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCanonicalizerPass());
  OpPassManager &nested = pm.nest<gpu::GPUModuleOp>();
  nested.addPass(createCSEPass());
  nested.addPass(std::make_unique<InsertKernelAllocNestedPass>());
  nested.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].finding.kernel, "k0::f");
  EXPECT_EQ(findings[1].finding.kernel, "k1::f");
  for (const StageFinding &stage : findings)
    EXPECT_EQ(stage.pass, "test-insert-kernel-alloc-nested");
  // input + canonicalize + 3 nested passes x 2 modules + cse; no adaptor.
  EXPECT_EQ(stages.checksRun(), 9u);
}

TEST_F(StageChecksTest, FindingInTheInput) {
  auto module = kernel("%a = memref.alloc() : memref<16xf32>");
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCSEPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].pass, "input");
}

// Findings keep their identity from a gpu.launch body into the outlined
// gpu.func (locations are kept), so outlining introduces nothing; the NVVM
// lowering turns the alloc into a call to malloc, a finding of its own.
TEST_F(StageChecksTest, OutliningKeepsFindingsLoweringAddsMallocCall) {
  auto module = parse(R"(
    module {
      func.func @main(%out: memref<64xf32>) {
        %c1 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                   threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
          %c0 = arith.constant 0 : index
          %v = arith.constant 1.0 : f32
          %a = memref.alloc() : memref<64xf32>
          memref.store %v, %a[%c0] : memref<64xf32>
          memref.store %v, %out[%bx] : memref<64xf32>
          %l = memref.load %a[%tx] : memref<64xf32>
          memref.store %l, %out[%tx] : memref<64xf32>
          gpu.terminator
        }
        return
      }
    })");
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createCanonicalizerPass());
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToNVVMOps());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  std::string all;
  for (const StageFinding &stage : findings)
    all += stage.pass + ": " + describe({stage.finding});
  ASSERT_EQ(findings.size(), 3u) << all;
  EXPECT_EQ(findings[0].pass, "input") << all;
  EXPECT_EQ(findings[0].finding.kernel, "main/gpu.launch#0");
  EXPECT_EQ(findings[1].pass, "input") << all;
  std::vector<Verdict> inputVerdicts = {findings[0].finding.verdict,
                                        findings[1].finding.verdict};
  std::sort(inputVerdicts.begin(), inputVerdicts.end());
  EXPECT_EQ(inputVerdicts, (std::vector<Verdict>{Verdict::MallocInKernel,
                                                 Verdict::UndistributedWrite}));
  EXPECT_EQ(findings[2].pass, "convert-gpu-to-nvvm") << all;
  EXPECT_EQ(findings[2].finding.verdict, Verdict::MallocInKernel);
  EXPECT_EQ(findings[2].finding.kernel, "main_kernel::main_kernel");
  EXPECT_NE(findings[2].finding.message.find("llvm.call @malloc"),
            std::string::npos)
      << all;
}

/// The function of test/Pipelines/pipeline_distribute.mlir: an elementwise
/// op, a sort and a top-k.
constexpr const char *kDistributeInput = R"(
  func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xi64>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<4x8xf32>
    %s = sift.sort dimension(1) descending outs(%y : tensor<4x8xf32>) -> tensor<4x8xf32>
    %v0 = tensor.empty() : tensor<4x3xf32>
    %i0 = tensor.empty() : tensor<4x3xi64>
    %v, %i = sift.topk dimension(1) k(3) smallest ins(%x : tensor<4x8xf32>) outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
    return %s, %i : tensor<4x8xf32>, tensor<4x3xi64>
  })";

PipelineOptions distributeOptions() {
  PipelineOptions options;
  options.kind = PipelineKind::Distribute;
  options.target = TargetKind::Nvptx;
  return options;
}

TEST_F(StageChecksTest, DistributePipelineIsClean) {
  auto module = parse(kDistributeInput);
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  addDistributePipeline(pm, distributeOptions());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::string all;
  for (const StageFinding &stage : stages.findings())
    all += stage.pass + ": " + describe({stage.finding});
  EXPECT_TRUE(all.empty()) << all;
  EXPECT_GT(stages.checksRun(), 20u);
}

} // namespace
