//===- EmuKernelTest.cpp - Kernels lowered for the host, run on fibers ----===//
//
// The emu device's kernels end to end on the CPU: a gpu.module with
// workgroup and private attributions, thread and block ids and barriers
// goes down the GPU tail to NVVM or ROCDL (as the GPU back end gets it),
// then sift-lower-target-kernels-for-host makes it host functions, built
// into a shared object, loaded, and run with the emu runtime's dispatch
// (runtime/emu): the workgroups' sums are right under several seeds for
// both targets, the workgroup memory and warp size the kernel exports are
// its attributions' and its target's, a barrier only some threads reach is
// a barrier-divergence naming its site, and a store past its buffer is
// reported and kept inside.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/HostLibrary.h"
#include "test/unittests/compiler/IrTestFixture.h"

#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Target/HostTarget.h"
#include "runtime/emu/Dispatch.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

namespace {

using namespace sift::irtest;

/// Each workgroup sums its row of `in` through workgroup memory: every
/// thread stores its element, a barrier, thread 0 adds them up (through a
/// private slot), a second barrier that some threads skip when `diverge`.
std::string sumKernel(bool diverge) {
  std::string skip = diverge ? "%skip = arith.cmpi eq, %t, %c1 : index\n"
                               "    cf.cond_br %skip, ^out, ^done\n"
                             : "cf.br ^done\n";
  return R"(gpu.module @kernels {
  gpu.func @sum(%in: memref<8x64xi32>, %out: memref<8xi32>) workgroup(%partial: memref<64xi32, #gpu.address_space<workgroup>>) private(%tmp: memref<2xi32, #gpu.address_space<private>>) kernel {
    %t = gpu.thread_id x
    %g = gpu.block_id x
    %n = gpu.block_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %in[%g, %t] : memref<8x64xi32>
    memref.store %v, %partial[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %is0 = arith.cmpi eq, %t, %c0 : index
    cf.cond_br %is0, ^sum, ^after
  ^sum:
    %z = arith.constant 0 : i32
    cf.br ^loop(%c0, %z : index, i32)
  ^loop(%i: index, %acc: i32):
    %more = arith.cmpi ult, %i, %n : index
    cf.cond_br %more, ^body, ^write
  ^body:
    %x = memref.load %partial[%i] : memref<64xi32, #gpu.address_space<workgroup>>
    %acc2 = arith.addi %acc, %x : i32
    %i2 = arith.addi %i, %c1 : index
    cf.br ^loop(%i2, %acc2 : index, i32)
  ^write:
    memref.store %acc, %tmp[%c0] : memref<2xi32, #gpu.address_space<private>>
    %r = memref.load %tmp[%c0] : memref<2xi32, #gpu.address_space<private>>
    memref.store %r, %out[%g] : memref<8xi32>
    cf.br ^after
  ^after:
    )" + skip +
         R"(
  ^done:
    gpu.barrier
    cf.br ^out
  ^out:
    gpu.return
  }
}
)";
}

/// The kernel module lowered for the host and loaded.
class LoadedKernels {
public:
  LoadedKernels() = default;
  void load(MLIRContext &context, const std::string &text,
            sift::TargetKind target = sift::TargetKind::Nvptx) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&context));
    ASSERT_TRUE(module);
    PassManager pm(&context);
    sift::PipelineOptions options;
    options.target = target;
    options.withoutBinary = true;
    sift::addGpuDeviceTail(pm, options);
    sift::addEmuKernelLowering(pm);
    ASSERT_TRUE(succeeded(pm.run(*module)));
    std::vector<std::string> executables;
    OwningOpRef<ModuleOp> host = sift::takeHostKernels(*module, executables);
    ASSERT_NO_FATAL_FAILURE(library_.load(*host));
  }
  void *symbol(const char *name) const {
    return library_.symbol(sift::hostKernelSymbol("kernels", name));
  }

private:
  HostLibrary library_;
};

class EmuKernelTest : public SiftIrTest {};

TEST_F(EmuKernelTest, AKernelLoweredForTheHostRunsOnFibers) {
  for (auto [target, lanes] : {std::pair{sift::TargetKind::Nvptx, 32},
                               std::pair{sift::TargetKind::Amdgpu, 64}}) {
    LoadedKernels kernels;
    ASSERT_NO_FATAL_FAILURE(
        kernels.load(context_, sumKernel(/*diverge=*/false), target));
    auto kernel = reinterpret_cast<SiftEmuKernel>(kernels.symbol("sum"));
    auto *bytes =
        static_cast<const int64_t *>(kernels.symbol("sum_workgroup_bytes"));
    auto *warp = static_cast<const int32_t *>(kernels.symbol("sum_warp_size"));
    ASSERT_NE(kernel, nullptr);
    ASSERT_NE(bytes, nullptr);
    ASSERT_NE(warp, nullptr);
    EXPECT_EQ(*bytes, 64 * 4);
    EXPECT_EQ(*warp, lanes);
    std::vector<int32_t> in(8 * 64);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = static_cast<int32_t>(i * 7 % 13) - 6;
    for (uint64_t seed = 0; seed < 3; ++seed) {
      std::vector<int32_t> out(8, -1);
      void *buffers[] = {in.data(), out.data()};
      sift::emu::WorkgroupScheduler scheduler(
          sift::emu::SchedulerOptions{seed});
      sift::Status status = sift::emu::runDispatch(
          sift::emu::launchOf({8, 1, 1}, {64, 1, 1},
                              static_cast<size_t>(*bytes)),
          kernel, buffers, scheduler, seed);
      ASSERT_TRUE(status.ok()) << status.message();
      for (int g = 0; g < 8; ++g) {
        int32_t expected = 0;
        for (int i = 0; i < 64; ++i)
          expected += in[g * 64 + i];
        EXPECT_EQ(out[g], expected) << "workgroup " << g << ", seed " << seed;
      }
    }
  }
}

TEST_F(EmuKernelTest, ABarrierSomeThreadsSkipDiverges) {
  LoadedKernels kernels;
  ASSERT_NO_FATAL_FAILURE(kernels.load(context_, sumKernel(/*diverge=*/true)));
  auto kernel = reinterpret_cast<SiftEmuKernel>(kernels.symbol("sum"));
  ASSERT_NE(kernel, nullptr);
  std::vector<int32_t> in(8 * 64, 1), out(8, 0);
  void *buffers[] = {in.data(), out.data()};
  sift::emu::WorkgroupScheduler scheduler;
  sift::Status status =
      sift::emu::runDispatch(sift::emu::launchOf({8, 1, 1}, {64, 1, 1}, 256),
                             kernel, buffers, scheduler, 0);
  ASSERT_FALSE(status.ok());
  // Thread 1 leaves; the others wait at the kernel's second barrier.
  EXPECT_NE(status.message().find("barrier-divergence: thread 1 left the "
                                  "kernel while thread 0 waits at barrier 2"),
            std::string::npos)
      << status.message();
}

TEST_F(EmuKernelTest, AnAccessOutOfItsMemrefIsReported) {
  // Thread t writes element t + 1: the last thread writes past the end.
  LoadedKernels kernels;
  ASSERT_NO_FATAL_FAILURE(kernels.load(context_, R"(gpu.module @kernels {
  gpu.func @shift(%out: memref<64xi32>) kernel {
    %t = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %next = arith.addi %t, %c1 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %out[%next] : memref<64xi32>
    gpu.return
  }
}
)"));
  auto kernel = reinterpret_cast<SiftEmuKernel>(kernels.symbol("shift"));
  ASSERT_NE(kernel, nullptr);
  std::vector<int32_t> out(64 + 4, -1);
  void *buffers[] = {out.data()};
  sift::emu::WorkgroupScheduler scheduler;
  sift::emu::Launch launch = sift::emu::launchOf({1, 1, 1}, {64, 1, 1}, 0);
  launch.bufferBytes = {64 * sizeof(int32_t)};
  sift::Status status =
      sift::emu::runDispatch(launch, kernel, buffers, scheduler, 0);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "out-of-bounds: access 1 of the kernel goes to element 64 of a "
            "memref of 64 elements (thread (63, 0, 0) of workgroup (0, 0, 0))");
  // The access went to element 0 instead, never past the buffer.
  EXPECT_EQ(out[64], -1);
  for (int t = 1; t < 64; ++t)
    EXPECT_EQ(out[t], t - 1);
}

TEST_F(EmuKernelTest, PrivateMemoryStartsAsPoison) {
  // Each thread reads a private slot it never wrote: it holds 0xA5 bytes,
  // not what the fiber's stack held (on both targets).
  for (sift::TargetKind target :
       {sift::TargetKind::Nvptx, sift::TargetKind::Amdgpu}) {
    LoadedKernels kernels;
    ASSERT_NO_FATAL_FAILURE(kernels.load(context_, R"(gpu.module @kernels {
  gpu.func @stale(%out: memref<64xi32>) private(%tmp: memref<2xi32, #gpu.address_space<private>>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = arith.index_cast %t : index to i32
    memref.store %v, %tmp[%c0] : memref<2xi32, #gpu.address_space<private>>
    %w = memref.load %tmp[%c1] : memref<2xi32, #gpu.address_space<private>>
    memref.store %w, %out[%t] : memref<64xi32>
    gpu.return
  }
}
)",
                                         target));
    auto kernel = reinterpret_cast<SiftEmuKernel>(kernels.symbol("stale"));
    ASSERT_NE(kernel, nullptr);
    std::vector<int32_t> out(64, 0);
    void *buffers[] = {out.data()};
    sift::emu::WorkgroupScheduler scheduler;
    sift::emu::Launch launch = sift::emu::launchOf({1, 1, 1}, {64, 1, 1}, 0);
    launch.bufferBytes = {64 * sizeof(int32_t)};
    ASSERT_TRUE(
        sift::emu::runDispatch(launch, kernel, buffers, scheduler, 0).ok());
    for (int32_t v : out)
      EXPECT_EQ(static_cast<uint32_t>(v), 0xA5A5A5A5u);
  }
}

} // namespace
