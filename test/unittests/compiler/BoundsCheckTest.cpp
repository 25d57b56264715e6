//===- BoundsCheckTest.cpp - The out-of-bounds oracle ---------------------===//
//
// Hand-written kernels for checkOutOfBounds (oracles/ir/IrChecks.h): stores
// and loads past the end or before the start of a memref, through thread
// ids, block ids, loops, vectors and affine maps, each next to its near miss
// that must stay clean (the same index under a guard, a clamp, a loop step
// that stops short, a dynamic shape, a data-dependent guard, a loop that
// never runs, a device function), and a finding only one thread between the
// corners of the thread range makes. StageCheckInstrumentation then names
// the pass that makes an access leave its memref (a test-only pass that
// drops guards), and keeps a finding of a mapped loop through its lowering
// to a gpu.launch and its outlining.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/IrTestFixture.h"
#include "oracles/ir/IrChecks.h"
#include "oracles/ir/StageChecks.h"
#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;
using namespace sift;
using namespace sift::oracle;

namespace {

using irtest::describe;
using irtest::kBudget;

class BoundsCheckTest : public irtest::SiftIrTest {
protected:
  BoundsCheckTest() { context_.loadDialect<vector::VectorDialect>(); }

  /// @main(%out: memref<16xf32>, %big: memref<4x64xf32>, `args`) with one
  /// gpu.launch of `blocks` x 1 x 1 blocks of `threads` x 1 x 1 threads
  /// whose body is `body` (%tx, %bx: the ids; %c0, %c16, %v: constants).
  OwningOpRef<ModuleOp> launch(const std::string &body, int threads = 32,
                               int blocks = 1, const std::string &args = "") {
    return parse(
        "func.func @main(%out: memref<16xf32>, %big: memref<4x64xf32>" + args +
        ") {\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %nb = arith.constant " +
        std::to_string(blocks) +
        " : index\n"
        "  %nt = arith.constant " +
        std::to_string(threads) +
        " : index\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, "
        "%gz = %c1)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %nt, %sy = "
        "%c1, %sz = %c1) {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c16 = arith.constant 16 : index\n"
        "    %v = arith.constant 1.0 : f32\n" +
        body +
        "\n    gpu.terminator\n"
        "  }\n"
        "  return\n"
        "}\n");
  }
};

/// The one out-of-bounds finding of `findings`, or a test failure.
void expectOne(const std::vector<IrFinding> &findings,
               const std::string &message,
               const std::string &kernel = "main/gpu.launch#0") {
  ASSERT_EQ(findings.size(), 1u) << describe(findings);
  EXPECT_EQ(findings[0].verdict, Verdict::OutOfBounds);
  EXPECT_EQ(toString(findings[0].verdict), std::string("out-of-bounds"));
  EXPECT_EQ(findings[0].message, message);
  EXPECT_EQ(findings[0].kernel, kernel);
}

//===----------------------------------------------------------------------===//
// Thread and block ids
//===----------------------------------------------------------------------===//

// 32 threads store at tid + 16 into 16 elements: every one writes past the
// end, the last at 47.
TEST_F(BoundsCheckTest, ThreadIdPastTheEnd) {
  auto module = launch(R"(
    %i = arith.addi %tx, %c16 : index
    memref.store %v, %out[%i] : memref<16xf32>)");
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.store index 0 of memref<16xf32> can reach 47 (size 16)");
}

// The same store under `%i < 16`: never executed, so never out of bounds.
TEST_F(BoundsCheckTest, GuardedByTheIndexIsClean) {
  for (const char *pred : {"slt", "ult"}) {
    auto module = launch(std::string(R"(
      %i = arith.addi %tx, %c16 : index
      %in = arith.cmpi )") +
                         pred +
                         R"(, %i, %c16 : index
      scf.if %in {
        memref.store %v, %out[%i] : memref<16xf32>
      })");
    ASSERT_TRUE(module);
    std::vector<IrFinding> findings = checkOutOfBounds(*module);
    EXPECT_TRUE(findings.empty()) << pred << ": " << describe(findings);
  }
}

// The guard of a partial tile as the pipelines emit it: the index and the
// compared value are computed twice (no CSE yet), and the guard is a
// conjunction. 2 blocks of 128 threads over 4x127 elements.
TEST_F(BoundsCheckTest, PartialTileGuardOnARecomputedIndexIsClean) {
  const char *body = R"(
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %row = arith.muli %bx, %c2 : index
    %i = arith.addi %tx, %c0 : index
    %j = arith.addi %tx, %c0 : index
    %inRow = arith.cmpi ult, %row, %c4 : index
    %inCol = arith.cmpi ult, %j, %c64 : index
    %in = arith.andi %inRow, %inCol : i1
    scf.if %in {
      memref.store %v, %big[%row, %i] : memref<4x64xf32>
    })";
  auto module = launch(body, /*threads=*/128, /*blocks=*/2);
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// Without the column guard, threads 64..127 store past the row: the
// finding names the second index.
TEST_F(BoundsCheckTest, PartialTileWithoutItsGuard) {
  auto module = launch(R"(
    %c2 = arith.constant 2 : index
    %row = arith.muli %bx, %c2 : index
    memref.store %v, %big[%row, %tx] : memref<4x64xf32>)",
                       /*threads=*/128, /*blocks=*/2);
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.store index 1 of memref<4x64xf32> can reach 127 (size 64)");
}

// Blocks past the rows: 3 blocks, row = 2 * bid reaches 4.
TEST_F(BoundsCheckTest, BlockIdPastTheEnd) {
  auto module = launch(R"(
    %c2 = arith.constant 2 : index
    %row = arith.muli %bx, %c2 : index
    %x = memref.load %big[%row, %c0] : memref<4x64xf32>)",
                       /*threads=*/1, /*blocks=*/3);
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.load index 0 of memref<4x64xf32> can reach 4 (size 4)");
}

TEST_F(BoundsCheckTest, BeforeTheStart) {
  auto module = launch(R"(
    %i = arith.subi %tx, %c1 : index
    %x = memref.load %out[%i] : memref<16xf32>)",
                       /*threads=*/16);
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.load index 0 of memref<16xf32> can reach -1 (size 16)");
}

// One finding per kernel: the first access out of bounds.
TEST_F(BoundsCheckTest, FirstFindingOfAKernelOnly) {
  auto module = launch(R"(
    %i = arith.addi %tx, %c16 : index
    memref.store %v, %out[%i] : memref<16xf32>
    %j = arith.subi %tx, %c1 : index
    memref.store %v, %out[%j] : memref<16xf32>)");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkOutOfBounds(*module).size(), 1u);
}

// Clamps: min and select keep the index in range; a select that clamps one
// too late does not.
TEST_F(BoundsCheckTest, ClampedIndices) {
  auto clean = launch(R"(
    %c15 = arith.constant 15 : index
    %i = arith.minsi %tx, %c15 : index
    memref.store %v, %out[%i] : memref<16xf32>
    %small = arith.cmpi slt, %tx, %c16 : index
    %j = arith.select %small, %tx, %c15 : index
    memref.store %v, %out[%j] : memref<16xf32>)");
  ASSERT_TRUE(clean);
  std::vector<IrFinding> findings = checkOutOfBounds(*clean);
  EXPECT_TRUE(findings.empty()) << describe(findings);

  auto late = launch(R"(
    %c15 = arith.constant 15 : index
    %c17 = arith.constant 17 : index
    %small = arith.cmpi slt, %tx, %c17 : index
    %j = arith.select %small, %tx, %c15 : index
    memref.store %v, %out[%j] : memref<16xf32>)");
  ASSERT_TRUE(late);
  expectOne(checkOutOfBounds(*late),
            "memref.store index 0 of memref<16xf32> can reach 16 (size 16)");
}

// A guard on the same sum computed the other way round: no interval sees
// it, the constraint set does (j + t < 16 bounds t + j).
TEST_F(BoundsCheckTest, RelationalGuardIsClean) {
  auto module = launch(R"(
    %c8 = arith.constant 8 : index
    scf.for %j = %c0 to %c16 step %c1 {
      %sum = arith.addi %j, %tx : index
      %in = arith.cmpi slt, %sum, %c16 : index
      scf.if %in {
        %i = arith.addi %tx, %j : index
        memref.store %v, %out[%i] : memref<16xf32>
      }
    })",
                       /*threads=*/8);
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// A guard the bounds cannot use (`!=`): only thread 30 of 32 stores past the
// end, found between the corners.
TEST_F(BoundsCheckTest, WitnessBetweenTheCorners) {
  const char *body = R"(
    %c31 = arith.constant 31 : index
    %last = arith.cmpi ne, %tx, %c31 : index
    scf.if %last {
      %i = arith.addi %tx, %c1 : index
      %x = memref.load %row[%i] : memref<LEN>
    })";
  auto withLength = [&](const std::string &length) {
    std::string text = body;
    text.replace(text.find("LEN"), 3, length);
    return launch(text, 32, 1, ", %row: memref<" + length + ">");
  };
  auto past = withLength("31xf32");
  ASSERT_TRUE(past);
  expectOne(checkOutOfBounds(*past),
            "memref.load index 0 of memref<31xf32> can reach 31 (size 31)");
  auto fits = withLength("32xf32");
  ASSERT_TRUE(fits);
  std::vector<IrFinding> findings = checkOutOfBounds(*fits);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// A partial tile: block b copies min(16, 100 - 16 b) elements from 16 b.
// 100 elements fit; 99 do not (block 6 reaches 99).
TEST_F(BoundsCheckTest, PartialTileLoop) {
  const char *body = R"(
    %base = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%bx]
    %n = affine.min affine_map<()[s0] -> (16, 100 - s0 * 16)>()[%bx]
    scf.for %k = %c0 to %n step %c1 {
      %i = arith.addi %base, %k : index
      memref.store %v, %data[%i] : memref<LEN>
    })";
  auto withLength = [&](const std::string &length) {
    std::string text = body;
    text.replace(text.find("LEN"), 3, length);
    return launch(text, 1, 7, ", %data: memref<" + length + ">");
  };
  auto fits = withLength("100xf32");
  ASSERT_TRUE(fits);
  std::vector<IrFinding> findings = checkOutOfBounds(*fits);
  EXPECT_TRUE(findings.empty()) << describe(findings);
  auto past = withLength("99xf32");
  ASSERT_TRUE(past);
  expectOne(checkOutOfBounds(*past),
            "memref.store index 0 of memref<99xf32> can reach 99 (size 99)");
}

// A device function runs only when called: its accesses are not reported.
TEST_F(BoundsCheckTest, DeviceFunctionIsNoFinding) {
  auto module = parse(R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        gpu.func @helper(%out: memref<16xf32>) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c20 = arith.constant 20 : index
          %v = arith.constant 1.0 : f32
          scf.for %i = %c0 to %c20 step %c1 {
            memref.store %v, %out[%i] : memref<16xf32>
          }
          gpu.return
        }
      }
    })");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// An outlined kernel: gpu.thread_id with known_block_size.
TEST_F(BoundsCheckTest, OutlinedKernelWithKnownBlockSize) {
  const std::string kernel = R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        gpu.func @f(%out: memref<64xf32>) kernel attributes {known_block_size = array<i32: BLOCK, 1, 1>} {
          %tid = gpu.thread_id x
          %c1 = arith.constant 1 : index
          %i = arith.addi %tid, %c1 : index
          %x = memref.load %out[%i] : memref<64xf32>
          gpu.return
        }
      }
    })";
  auto withBlock = [&](const std::string &block) {
    std::string text = kernel;
    text.replace(text.find("BLOCK"), 5, block);
    return parse(text);
  };
  auto full = withBlock("64");
  ASSERT_TRUE(full);
  expectOne(checkOutOfBounds(*full),
            "memref.load index 0 of memref<64xf32> can reach 64 (size 64)",
            "k::f");
  auto partial = withBlock("63");
  ASSERT_TRUE(partial);
  std::vector<IrFinding> findings = checkOutOfBounds(*partial);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// Without a known block size, the thread id can be anything: no finding.
TEST_F(BoundsCheckTest, UnknownBlockSizeIsNoFinding) {
  auto module = parse(R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        gpu.func @f(%out: memref<64xf32>) kernel {
          %tid = gpu.thread_id x
          %c1 = arith.constant 1 : index
          %i = arith.addi %tid, %c1 : index
          %x = memref.load %out[%i] : memref<64xf32>
          gpu.return
        }
      }
    })");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

TEST_F(BoundsCheckTest, LoopPastTheEnd) {
  auto module = launch(R"(
    %c20 = arith.constant 20 : index
    scf.for %i = %c0 to %c20 step %c1 {
      memref.store %v, %out[%i] : memref<16xf32>
    })");
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.store index 0 of memref<16xf32> can reach 19 (size 16)");
}

// Loops that stay inside: the whole range, a range that starts at the
// thread id and strides over the threads (the distribute pipeline's copy
// loops), and a loop whose step stops short of the upper bound.
TEST_F(BoundsCheckTest, InBoundsLoopsAreClean) {
  auto module = launch(R"(
    scf.for %i = %c0 to %c16 step %c1 {
      memref.store %v, %out[%i] : memref<16xf32>
    }
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : index
    scf.for %r = %c0 to %c4 step %c1 {
      scf.for %j = %tx to %c64 step %c16 {
        memref.store %v, %big[%r, %j] : memref<4x64xf32>
      }
    }
    %c19 = arith.constant 19 : index
    %c5 = arith.constant 5 : index
    scf.for %k = %c0 to %c19 step %c5 {
      %x = memref.load %out[%k] : memref<16xf32>
    })",
                       /*threads=*/16);
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// A loop that never runs has no out-of-bounds access, and neither has a
// loop bounded by the thread id's complement.
TEST_F(BoundsCheckTest, EmptyAndDependentLoopsAreClean) {
  auto module = launch(R"(
    %c20 = arith.constant 20 : index
    scf.for %i = %c20 to %c16 step %c1 {
      memref.store %v, %out[%i] : memref<16xf32>
    }
    %rest = arith.subi %c16, %tx : index
    scf.for %j = %c0 to %rest step %c1 {
      %k = arith.addi %tx, %j : index
      memref.store %v, %out[%k] : memref<16xf32>
    })",
                       /*threads=*/16);
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

TEST_F(BoundsCheckTest, DynamicShapeIsNoFinding) {
  auto module = launch(R"(
    %i = arith.addi %tx, %c16 : index
    memref.store %v, %dyn[%i] : memref<?xf32>
    %x = memref.load %dyn2[%i, %c0] : memref<?x?xf32>)",
                       32, 1, ", %dyn: memref<?xf32>, %dyn2: memref<?x?xf32>");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// What the evaluation cannot follow is not reported, however far the
// unguarded index would go: a guard on a loaded flag, an index loaded from
// memory, an access in a block reached through a branch.
TEST_F(BoundsCheckTest, DataDependenceIsNoFinding) {
  auto module =
      launch(R"(
    %i = arith.addi %tx, %c16 : index
    %flag = memref.load %flags[%tx] : memref<32xi1>
    scf.if %flag {
      memref.store %v, %out[%i] : memref<16xf32>
    }
    %p = memref.load %perm[%tx] : memref<32xindex>
    memref.store %v, %out[%p] : memref<16xf32>)",
             32, 1, ", %flags: memref<32xi1>, %perm: memref<32xindex>");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkOutOfBounds(*module);
  EXPECT_TRUE(findings.empty()) << describe(findings);

  auto branchy = parse(R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        gpu.func @f(%out: memref<16xf32>, %c: i1) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
          %tid = gpu.thread_id x
          %v = arith.constant 1.0 : f32
          cf.cond_br %c, ^store, ^done
        ^store:
          memref.store %v, %out[%tid] : memref<16xf32>
          cf.br ^done
        ^done:
          gpu.return
        }
      }
    })");
  ASSERT_TRUE(branchy);
  findings = checkOutOfBounds(*branchy);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// Mapped loops before they become kernels: their induction variables are
// the thread ids (tileandfuse and distribute before convert-parallel-
// loops-to-gpu); a step that skips the end stays in bounds.
TEST_F(BoundsCheckTest, MappedLoops) {
  auto module = parse(R"(
    func.func @main(%out: memref<16xf32>, %one: memref<1xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %v = arith.constant 1.0 : f32
      scf.forall (%i) = (0) to (2) step (2) {
        memref.store %v, %one[%i] : memref<1xf32>
      } {mapping = [#gpu.thread<x>]}
      scf.parallel (%i) = (%c0) to (%c32) step (%c1) {
        memref.store %v, %out[%i] : memref<16xf32>
        scf.reduce
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
      return
    })");
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "memref.store index 0 of memref<16xf32> can reach 31 (size 16)",
            "main/scf.parallel#1");
}

//===----------------------------------------------------------------------===//
// Vectors and affine accesses
//===----------------------------------------------------------------------===//

// A vector of 4 from 0, 4, 8, 12 fits 16 elements; from 14 it does not.
TEST_F(BoundsCheckTest, VectorAccesses) {
  auto clean = launch(R"(
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c16 step %c4 {
      %x = vector.load %out[%i] : memref<16xf32>, vector<4xf32>
      vector.store %x, %out[%i] : memref<16xf32>, vector<4xf32>
    })");
  ASSERT_TRUE(clean);
  std::vector<IrFinding> findings = checkOutOfBounds(*clean);
  EXPECT_TRUE(findings.empty()) << describe(findings);

  auto past = launch(R"(
    %c2 = arith.constant 2 : index
    %c15 = arith.constant 15 : index
    scf.for %i = %c0 to %c15 step %c2 {
      %x = vector.load %out[%i] : memref<16xf32>, vector<4xf32>
    })");
  ASSERT_TRUE(past);
  expectOne(checkOutOfBounds(*past),
            "vector.load of vector<4xf32> index 0 of memref<16xf32> can reach "
            "17 (size 16)");
}

TEST_F(BoundsCheckTest, AffineAccesses) {
  auto module = launch(R"(
    affine.for %i = 0 to 16 {
      affine.store %v, %out[%i] : memref<16xf32>
    }
    affine.for %i = 0 to 16 {
      affine.if affine_set<(d0) : (14 - d0 >= 0)>(%i) {
        %x = affine.load %out[%i + 1] : memref<16xf32>
      }
    }
    affine.for %i = 0 to 16 {
      affine.store %v, %out[%i + 1] : memref<16xf32>
    })");
  ASSERT_TRUE(module);
  expectOne(checkOutOfBounds(*module),
            "affine.store index 0 of memref<16xf32> can reach 16 (size 16)");
}

//===----------------------------------------------------------------------===//
// After every pass: StageCheckInstrumentation
//===----------------------------------------------------------------------===//

/// Test-only: replaces every `scf.if` marked `test.unguard` by its
/// then-block, as a pipeline bug that drops a partial tile's guard would.
struct DropGuardsPass
    : public PassWrapper<DropGuardsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DropGuardsPass)
  StringRef getArgument() const final { return "test-drop-guards"; }
  StringRef getDescription() const final { return "test only"; }
  void runOnOperation() override {
    SmallVector<scf::IfOp> guards;
    getOperation()->walk([&](scf::IfOp ifOp) {
      if (ifOp->hasAttr("test.unguard") && ifOp->getNumResults() == 0)
        guards.push_back(ifOp);
    });
    IRRewriter rewriter(&getContext());
    for (scf::IfOp ifOp : guards) {
      Block *then = ifOp.thenBlock();
      rewriter.eraseOp(then->getTerminator());
      rewriter.inlineBlockBefore(then, ifOp);
      rewriter.eraseOp(ifOp);
    }
  }
};

TEST_F(BoundsCheckTest, NamesThePassThatDropsTheGuard) {
  auto module = launch(R"(
    %i = arith.addi %tx, %c16 : index
    %in = arith.cmpi ult, %i, %c16 : index
    scf.if %in {
      memref.store %v, %out[%i] : memref<16xf32>
    } {test.unguard})");
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCSEPass());
  pm.addPass(std::make_unique<DropGuardsPass>());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createCanonicalizerPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  std::string all;
  for (const StageFinding &stage : findings)
    all += stage.pass + ": " + describe({stage.finding});
  // Outlining and canonicalization carry the store to main_kernel::
  // main_kernel: the same finding (same location and message), not a new one.
  ASSERT_EQ(findings.size(), 1u) << all;
  EXPECT_EQ(findings[0].pass, "test-drop-guards");
  EXPECT_EQ(findings[0].finding.verdict, Verdict::OutOfBounds);
  EXPECT_EQ(findings[0].finding.kernel, "main/gpu.launch#0");
  EXPECT_EQ(findings[0].finding.message,
            "memref.store index 0 of memref<16xf32> can reach 47 (size 16)");
}

// A mapped loop out of bounds in the input stays one finding, attributed to
// the input, through convert-parallel-loops-to-gpu and outlining.
TEST_F(BoundsCheckTest, MappedLoopFindingSurvivesLowering) {
  auto module = parse(R"(
    func.func @main(%out: memref<16xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %v = arith.constant 1.0 : f32
      scf.parallel (%i) = (%c0) to (%c32) step (%c1) {
        memref.store %v, %out[%i] : memref<16xf32>
        scf.reduce
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
      return
    })");
  ASSERT_TRUE(module);
  PassManager pm(&context_);
  StageCheckInstrumentation &stages = addStageChecks(pm, kBudget);
  pm.addPass(createCanonicalizerPass());
  pm.nest<func::FuncOp>().addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createCanonicalizerPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  std::vector<StageFinding> findings = stages.findings();
  std::string all;
  for (const StageFinding &stage : findings)
    all += stage.pass + ": " + describe({stage.finding});
  std::vector<StageFinding> outOfBounds;
  for (const StageFinding &stage : findings)
    if (stage.finding.verdict == Verdict::OutOfBounds)
      outOfBounds.push_back(stage);
  ASSERT_EQ(outOfBounds.size(), 1u) << all;
  EXPECT_EQ(outOfBounds[0].pass, "input");
  EXPECT_EQ(outOfBounds[0].finding.kernel, "main/scf.parallel#0");
}

} // namespace
