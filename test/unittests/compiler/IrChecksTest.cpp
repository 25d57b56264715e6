//===- IrChecksTest.cpp - The IR oracles on hand-written kernels ----------===//
//
// Hand-written kernels for each IR oracle of oracles/ir/IrChecks.h (a clean
// one, then one per verdict and its near misses: workgroup vs default
// allocations, budgets, thread-dependent vs uniform stores, guards, block
// sizes of one). The pass instrumentation's tests are StageChecksTest.cpp.
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

// A clean kernel: each thread stores its own element, computed from a load
// of its own element, and keeps a private scratch buffer.
TEST_F(IrChecksTest, CleanKernelHasNoFinding) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %v = memref.load %out[%tid] : memref<64xf32>
    %s = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
    %c0 = arith.constant 0 : index
    memref.store %v, %s[%c0] : memref<4xf32, #gpu.address_space<private>>
    memref.store %v, %out[%tid] : memref<64xf32>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

TEST_F(IrChecksTest, HeapAllocIsMallocInKernel) {
  auto module = kernel("%a = memref.alloc() : memref<16xf32>");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkKernelAllocations(*module);
  ASSERT_EQ(findings.size(), 1u) << describe(findings);
  EXPECT_EQ(findings[0].verdict, Verdict::MallocInKernel);
  EXPECT_EQ(findings[0].kernel, "k::f");
  EXPECT_NE(findings[0].message.find("memref<16xf32>"), std::string::npos);
  EXPECT_EQ(checkAll(*module, kBudget).size(), 1u);
}

// A workgroup alloc asks for shared memory, which the GPU tail turns into an
// attribution: it is not a finding itself. If it reaches the NVVM / ROCDL
// lowering, the call to malloc that upstream makes of it is.
TEST_F(IrChecksTest, WorkgroupAllocIsLeftToTheLoweringsMalloc) {
  auto module = kernel(
      "%a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
  // Its bytes still count against the workgroup budget.
  EXPECT_EQ(verdicts(checkWorkgroupMemory(*module, 63)),
            std::vector<Verdict>{Verdict::SmemOverflow});
}

TEST_F(IrChecksTest, DeallocIsMallocInKernel) {
  auto module = kernel(R"(
    %a = memref.alloca() : memref<16xf32, 5>
    %c = memref.memory_space_cast %a : memref<16xf32, 5> to memref<16xf32>
    memref.dealloc %c : memref<16xf32>)");
  ASSERT_TRUE(module);
  EXPECT_EQ(verdicts(checkKernelAllocations(*module)),
            std::vector<Verdict>{Verdict::MallocInKernel});
}

TEST_F(IrChecksTest, DefaultSpaceAllocaIsWrongAddressSpace) {
  auto module = kernel("%a = memref.alloca() : memref<16xf32>");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  ASSERT_EQ(verdicts(findings),
            std::vector<Verdict>{Verdict::WrongAddressSpace})
      << describe(findings);
  EXPECT_NE(findings[0].message.find("default memory space"),
            std::string::npos);
}

TEST_F(IrChecksTest, GlobalSpaceAllocaIsWrongAddressSpace) {
  auto module = kernel(
      "%a = memref.alloca() : memref<16xf32, #gpu.address_space<global>>");
  ASSERT_TRUE(module);
  EXPECT_EQ(verdicts(checkKernelAllocations(*module)),
            std::vector<Verdict>{Verdict::WrongAddressSpace});
}

TEST_F(IrChecksTest, PrivateAndWorkgroupAllocasAreClean) {
  auto module = kernel(R"(
    %a = memref.alloca() : memref<16xf32, #gpu.address_space<private>>
    %b = memref.alloca() : memref<16xf32, 5>
    %c = memref.alloca() : memref<16xf32, #gpu.address_space<workgroup>>
    %d = memref.alloca() : memref<16xf32, 3>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// Allocations in a gpu.launch body, before outlining, are checked too.
TEST_F(IrChecksTest, LaunchBodyAllocIsMallocInKernel) {
  auto module = parse(R"(
    func.func @main() {
      %c1 = arith.constant 1 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
        %a = memref.alloc() : memref<16xf32>
        gpu.terminator
      }
      return
    })");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  ASSERT_EQ(verdicts(findings), std::vector<Verdict>{Verdict::MallocInKernel});
  EXPECT_EQ(findings[0].kernel, "main/gpu.launch#0");
}

// After the NVVM lowering, the allocation is a call in an llvm.func.
TEST_F(IrChecksTest, LlvmCallToMallocIsMallocInKernel) {
  auto module = parse(R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        llvm.func @malloc(i64) -> !llvm.ptr
        llvm.func @free(!llvm.ptr)
        llvm.func @unused_decl(i64) -> !llvm.ptr
        llvm.func @f() attributes {gpu.kernel, nvvm.kernel} {
          %c = llvm.mlir.constant(64 : i64) : i64
          %p = llvm.call @malloc(%c) : (i64) -> !llvm.ptr
          llvm.call @free(%p) : (!llvm.ptr) -> ()
          llvm.return
        }
      }
    })");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  ASSERT_EQ(verdicts(findings), (std::vector<Verdict>{Verdict::MallocInKernel,
                                                      Verdict::MallocInKernel}))
      << describe(findings);
  EXPECT_EQ(findings[0].kernel, "k::f");
  EXPECT_NE(findings[0].message.find("@malloc"), std::string::npos);
  EXPECT_NE(findings[1].message.find("@free"), std::string::npos);
}

TEST_F(IrChecksTest, WorkgroupAttributionsOverBudgetOverflow) {
  // 16384 x f32 = 64 KiB > 48 KiB.
  auto module = kernel("", "64, 1, 1",
                       "workgroup(%buf : memref<16384xf32, "
                       "#gpu.address_space<workgroup>>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkWorkgroupMemory(*module, kBudget);
  ASSERT_EQ(verdicts(findings), std::vector<Verdict>{Verdict::SmemOverflow});
  EXPECT_NE(findings[0].message.find("65536 bytes"), std::string::npos)
      << findings[0].message;
  // The same kernel fits an AMD workgroup (64 KiB).
  EXPECT_TRUE(
      checkWorkgroupMemory(*module, workgroupMemoryBudget("gfx942")).empty());
}

TEST_F(IrChecksTest, WorkgroupAttributionsUnderBudgetAreClean) {
  // 4096 x f32 = 16 KiB.
  auto module = kernel("", "64, 1, 1",
                       "workgroup(%buf : memref<4096xf32, "
                       "#gpu.address_space<workgroup>>)");
  ASSERT_TRUE(module);
  EXPECT_TRUE(checkAll(*module, kBudget).empty());
}

// Workgroup memory adds up over attributions, workgroup allocas and globals.
TEST_F(IrChecksTest, WorkgroupMemorySumsAllocasAndGlobals) {
  auto module = parse(R"(
    module attributes {gpu.container_module} {
      gpu.module @k {
        memref.global "private" @shared : memref<4096xf32, #gpu.address_space<workgroup>>
        llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<4096 x f32>
        gpu.func @f() workgroup(%w : memref<2048xf32, #gpu.address_space<workgroup>>)
            kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
          %a = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
          %g = memref.get_global @shared : memref<4096xf32, #gpu.address_space<workgroup>>
          %h = memref.get_global @shared : memref<4096xf32, #gpu.address_space<workgroup>>
          %p = llvm.mlir.addressof @lds : !llvm.ptr<3>
          gpu.return
        }
      }
    })");
  ASSERT_TRUE(module);
  // (2048 + 1024 + 4096 + 4096) x 4 = 45056 bytes: the global counts once.
  EXPECT_TRUE(checkWorkgroupMemory(*module, 45056).empty());
  std::vector<IrFinding> findings = checkWorkgroupMemory(*module, 45055);
  ASSERT_EQ(verdicts(findings), std::vector<Verdict>{Verdict::SmemOverflow});
  EXPECT_NE(findings[0].message.find("45056 bytes in 4 buffers"),
            std::string::npos)
      << findings[0].message;
}

TEST_F(IrChecksTest, WorkgroupMemoryBudgets) {
  EXPECT_EQ(workgroupMemoryBudget("sm_90"), 48 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("nvptx"), 48 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("gfx942"), 64 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("gfx90a"), 64 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("amdgpu"), 64 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("gfx950"), 160 * 1024);
  EXPECT_EQ(workgroupMemoryBudget("something"), 48 * 1024);
}

TEST_F(IrChecksTest, StoreIndexedByBlockIdOnlyIsUndistributed) {
  auto module = kernel(R"(
    %bid = gpu.block_id x
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%bid] : memref<64xf32>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  ASSERT_EQ(verdicts(findings),
            std::vector<Verdict>{Verdict::UndistributedWrite})
      << describe(findings);
  EXPECT_EQ(findings[0].kernel, "k::f");
  EXPECT_NE(findings[0].message.find("global memory"), std::string::npos);
  EXPECT_NE(findings[0].message.find("64x1x1"), std::string::npos);
}

TEST_F(IrChecksTest, StoreIndexedByThreadIdIsClean) {
  auto module = kernel(R"(
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %i = arith.addi %bid, %tid : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%i] : memref<64xf32>)");
  ASSERT_TRUE(module);
  EXPECT_TRUE(checkAll(*module, kBudget).empty());
}

// A slot taken from an atomic counter differs per thread (the radix
// select's compaction): a store there is distributed. The same address read
// with a plain load is the same for every thread: undistributed.
TEST_F(IrChecksTest, StoreAtASlotFromAnAtomicIsClean) {
  const std::string counter =
      "workgroup(%cnt : memref<1xi32, #gpu.address_space<workgroup>>)";
  auto atomic = kernel(R"(
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %slot = memref.atomic_rmw addi %one, %cnt[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
    %i = arith.index_cast %slot : i32 to index
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%i] : memref<64xf32>)",
                       "64, 1, 1", counter);
  ASSERT_TRUE(atomic);
  std::vector<IrFinding> findings = checkAll(*atomic, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
  auto load = kernel(R"(
    %c0 = arith.constant 0 : index
    %slot = memref.load %cnt[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    %i = arith.index_cast %slot : i32 to index
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%i] : memref<64xf32>)",
                     "64, 1, 1", counter);
  ASSERT_TRUE(load);
  EXPECT_EQ(verdicts(checkAll(*load, kBudget)),
            std::vector<Verdict>{Verdict::UndistributedWrite});
}

TEST_F(IrChecksTest, SingleThreadBlockIsClean) {
  auto module = kernel(R"(
    %bid = gpu.block_id x
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%bid] : memref<64xf32>)",
                       "1, 1, 1");
  ASSERT_TRUE(module);
  EXPECT_TRUE(checkAll(*module, kBudget).empty());
}

TEST_F(IrChecksTest, StoreToPrivateAllocaIsClean) {
  auto module = kernel(R"(
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    %a = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
    memref.store %v, %a[%c0] : memref<4xf32, #gpu.address_space<private>>)");
  ASSERT_TRUE(module);
  EXPECT_TRUE(checkAll(*module, kBudget).empty());
}

// A thread id along a dimension of one thread is 0 in every thread.
TEST_F(IrChecksTest, ThreadIdOfUnitDimensionDoesNotDistribute) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%tid] : memref<64xf32>)",
                       "1, 64, 1");
  ASSERT_TRUE(module);
  EXPECT_EQ(verdicts(checkUndistributedWrites(*module)),
            std::vector<Verdict>{Verdict::UndistributedWrite});
}

// In a block of 8x4 threads, an address of tid.x alone leaves the 4 threads
// along y writing the same location; tid.x and tid.y together are clean.
TEST_F(IrChecksTest, AddressMustCoverEveryDimensionOfTheBlock) {
  auto module = kernel(R"(
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %c8 = arith.constant 8 : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %out[%tx] : memref<64xf32>
    %row = arith.muli %ty, %c8 : index
    %i = arith.addi %row, %tx : index
    memref.store %v, %out[%i] : memref<64xf32>)",
                       "8, 4, 1");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkUndistributedWrites(*module);
  ASSERT_EQ(findings.size(), 1u) << describe(findings);
  EXPECT_NE(findings[0].message.find("along x only"), std::string::npos)
      << findings[0].message;
  EXPECT_NE(findings[0].message.find("differ along y"), std::string::npos)
      << findings[0].message;
}

// A guard pins the dimensions it tests: tid.x == 0 alone leaves y free.
TEST_F(IrChecksTest, GuardMustPinEveryDimensionOfTheBlock) {
  auto module = kernel(R"(
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %bid = gpu.block_id x
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    %x0 = arith.cmpi eq, %tx, %c0 : index
    scf.if %x0 {
      memref.store %v, %out[%bid] : memref<64xf32>
    }
    %y0 = arith.cmpi eq, %ty, %c0 : index
    %both = arith.andi %x0, %y0 : i1
    scf.if %both {
      memref.store %v, %out[%bid] : memref<64xf32>
    })",
                       "2, 32, 1");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkUndistributedWrites(*module);
  ASSERT_EQ(findings.size(), 1u) << describe(findings);
  // The first store, under tid.x == 0 only.
  memref::StoreOp first;
  (*module)->walk([&](memref::StoreOp store) {
    if (!first)
      first = store;
  });
  EXPECT_EQ(findings[0].loc, first.getLoc());
}

// A loop whose bounds depend on the thread id distributes its iterations; a
// loop of uniform bounds does not, and its loop-carried index stays uniform.
TEST_F(IrChecksTest, ThreadDependentLoopBoundsDistribute) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %v = arith.constant 1.0 : f32
    scf.for %i = %tid to %c64 step %c64 {
      memref.store %v, %out[%i] : memref<64xf32>
    }
    %r = scf.for %j = %c1 to %c8 step %c1 iter_args(%k = %c1) -> (index) {
      %n = arith.addi %k, %j : index
      scf.yield %n : index
    }
    memref.store %v, %out[%r] : memref<64xf32>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkUndistributedWrites(*module);
  ASSERT_EQ(findings.size(), 1u) << describe(findings);
  // The second store, after the loops.
  EXPECT_NE(findings[0].message.find("memref.store"), std::string::npos);
}

TEST_F(IrChecksTest, SingleThreadGuardsAreClean) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      memref.store %v, %out[%bid] : memref<64xf32>
    }
    %others = arith.cmpi ne, %tid, %c0 : index
    scf.if %others {
    } else {
      memref.store %v, %out[%bid] : memref<64xf32>
    })");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

// A guard of many threads (tid < 8) still lets them all write one place.
TEST_F(IrChecksTest, ManyThreadGuardIsUndistributed) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %c8 = arith.constant 8 : index
    %v = arith.constant 1.0 : f32
    %few = arith.cmpi ult, %tid, %c8 : index
    scf.if %few {
      memref.store %v, %out[%bid] : memref<64xf32>
    })");
  ASSERT_TRUE(module);
  EXPECT_EQ(verdicts(checkAll(*module, kBudget)),
            std::vector<Verdict>{Verdict::UndistributedWrite});
}

// After convert-scf-to-cf the guard is a branch edge that dominates the
// store; thread-dependent values still flow through block arguments.
TEST_F(IrChecksTest, ControlFlowGuardsAndBlockArguments) {
  auto module = kernel(R"(
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    %first = arith.cmpi eq, %tid, %c0 : index
    cf.cond_br %first, ^guarded, ^join(%tid : index)
  ^guarded:
    cf.br ^loop(%c0 : index)
  ^loop(%i: index):
    memref.store %v, %out[%bid] : memref<64xf32>
    %c1 = arith.constant 1 : index
    %next = arith.addi %i, %c1 : index
    %again = arith.cmpi ult, %next, %bid : index
    cf.cond_br %again, ^loop(%next : index), ^join(%tid : index)
  ^join(%j: index):
    memref.store %v, %out[%j] : memref<64xf32>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkAll(*module, kBudget);
  EXPECT_TRUE(findings.empty()) << describe(findings);
}

TEST_F(IrChecksTest, WorkgroupAttributionWriteIsUndistributed) {
  auto module = kernel(R"(
    %c0 = arith.constant 0 : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %buf[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.copy %out, %out : memref<64xf32> to memref<64xf32>)",
                       "32, 1, 1",
                       "workgroup(%buf : memref<64xf32, "
                       "#gpu.address_space<workgroup>>)");
  ASSERT_TRUE(module);
  std::vector<IrFinding> findings = checkUndistributedWrites(*module);
  ASSERT_EQ(findings.size(), 2u) << describe(findings);
  EXPECT_NE(findings[0].message.find("workgroup memory"), std::string::npos);
  EXPECT_NE(findings[1].message.find("memref.copy"), std::string::npos);
}

// A gpu.launch body with block sizes computed by affine.apply, as
// convert-parallel-loops-to-gpu leaves them.
TEST_F(IrChecksTest, LaunchBlockSizesFromAffineApply) {
  const char *text = R"(
    func.func @main(%out: memref<64xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %n = affine.apply affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>(%c64)[%c0, %c1]
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
        %v = arith.constant 1.0 : f32
        memref.store %v, %out[%INDEX] : memref<64xf32>
        gpu.terminator
      }
      return
    })";
  for (auto [index, expected] :
       {std::pair<std::string, size_t>{"bx", 1}, {"tx", 0}, {"ty", 1}}) {
    std::string source = text;
    source.replace(source.find("INDEX"), 5, index);
    auto module = parse(source);
    ASSERT_TRUE(module);
    std::vector<IrFinding> findings = checkAll(*module, kBudget);
    EXPECT_EQ(findings.size(), expected) << index << "\n" << describe(findings);
    for (const IrFinding &finding : findings)
      EXPECT_EQ(finding.kernel, "main/gpu.launch#0");
  }
}

} // namespace
