//===- EmuPipelineTest.cpp - sift's GPU kernels run on the CPU ------------===//
//
// The distribute and tileandfuse pipelines up to serialization, their
// kernels then made host functions (addEmuKernelLowering: the emu device's
// lowering of the NVVM kernels) on programs that reach the cooperative
// algorithms: the plan's dispatches run in order on fibers (runtime/emu), over
// buffers the test allocates, and the outputs are checked against std::sort.
// This is the GPU kernels' first execution without a GPU: workgroup_row's
// phased network, radix_sort, radix_onesweep (whose look-back spins on
// other workgroups' words: sequential workgroups take tickets in order),
// register_select and warp_select.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/EmuPipelineFixture.h"

#include "pipelines/Target/Compile.h"
#include "pipelines/Target/HostTarget.h"
#include "runtime/Runner.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace {

using namespace sift::emutest;

/// Each row of `in` sorted.
std::vector<float> sortedRows(std::vector<float> in, int64_t n) {
  for (size_t r = 0; r < in.size(); r += n)
    std::stable_sort(in.begin() + r, in.begin() + r + n);
  return in;
}

void expectFloats(const std::vector<char> &bytes,
                  const std::vector<float> &expected) {
  ASSERT_EQ(bytes.size() - 16, expected.size() * sizeof(float));
  std::vector<float> got(expected.size());
  std::memcpy(got.data(), bytes.data(), expected.size() * sizeof(float));
  EXPECT_EQ(got, expected);
}

TEST_F(EmuPipelineTest, WorkgroupRowSortsOnTheCpu) {
  std::vector<float> in = randomFloats(4 * 1024, 1);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(
      run(sortProgram(4, 1024), sift::PipelineKind::Distribute, -1, {in}, out));
  ASSERT_EQ(out.size(), 1u);
  expectFloats(out[0], sortedRows(in, 1024));
}

TEST_F(EmuPipelineTest, DroppedBarriersAreCaughtOnTheCpu) {
  // Fault dist-no-barrier: the network's phases no longer wait for each
  // other; a thread reads composites no thread has written yet, which the
  // uninitialized-read check reports (without it the write-back would
  // follow their fill-pattern position bits out of the row).
  std::vector<float> in = randomFloats(4 * 1024, 1);
  std::vector<std::vector<char>> out;
  sift::FaultSet faults;
  faults.insert(sift::Fault::DistNoBarrier);
  std::string error;
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, 1024),
                              sift::PipelineKind::Distribute, -1, {in}, out,
                              faults, &error));
  EXPECT_NE(error.find("uninitialized-read: thread"), std::string::npos)
      << error;
}

TEST_F(EmuPipelineTest, RadixSortSortsOnTheCpu) {
  std::vector<float> in = randomFloats(40000, 2);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(1, 40000),
                              sift::PipelineKind::Distribute, -1, {in}, out));
  ASSERT_EQ(out.size(), 1u);
  expectFloats(out[0], sortedRows(in, 40000));
}

TEST_F(EmuPipelineTest, OnesweepSortsOnTheCpu) {
  // Random-config seed 6 draws radix_onesweep (tiles of 1024, 32 threads):
  // 40 tiles a pass whose look-backs read each other's status words.
  std::vector<float> in = randomFloats(40000, 3);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(
      run(sortProgram(1, 40000), sift::PipelineKind::Distribute, 6, {in}, out));
  ASSERT_EQ(out.size(), 1u);
  expectFloats(out[0], sortedRows(in, 40000));
}

/// An argsort of [2, 40000] f32 keys, descending, with an iota of `index`
/// (i64 or i32) as the payload (`config`: a lowering_config, or none).
std::string argsortProgram(const std::string &config,
                           const std::string &index) {
  std::string keys = "tensor<2x40000xf32>",
              positions = "tensor<2x40000x" + index + ">";
  std::string attr =
      config.empty() ? "" : " {sift.lowering_config = " + config + "}";
  return "func.func @main(%x: " + keys + ") -> (" + keys + ", " + positions +
         ") {\n  %e = tensor.empty() : " + positions +
         "\n  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> "
         "(d0, d1)>], iterator_types = [\"parallel\", \"parallel\"]} outs(%e "
         ": " +
         positions + ") {\n  ^bb0(%o: " + index +
         "):\n    %i = linalg.index 1 : index\n    %c = arith.index_cast %i "
         ": index to " +
         index + "\n    linalg.yield %c : " + index + "\n  } -> " + positions +
         "\n  %s:2 = sift.sort dimension(1) descending" + attr +
         " outs(%x, %p : " + keys + ", " + positions + ") -> " + keys + ", " +
         positions + "\n  return %s#0, %s#1 : " + keys + ", " + positions +
         "\n}\n";
}

TEST_F(EmuPipelineTest, RadixArgsortWritesPositionsOnTheCpu) {
  // The iota payload is folded into the radix sorts (no fill, no copy
  // aside, the positions written from the slots): every one of the three
  // radix algorithms in distribute, and tileandfuse's default, with an i64
  // and an i32 iota. Ties (2001 distinct
  // keys in 40000) keep their first order.
  constexpr int64_t kN = 40000;
  std::vector<float> x = randomFloats(2 * kN, 5);
  auto radix = [](const std::string &algorithm) {
    return "#sift.lowering_config<workgroup_tile = [1], thread_tile = [1], "
           "workgroup_size = [128, 1, 1], algorithm = " +
           algorithm + ", row_tile = 2048>";
  };
  // tileandfuse leaves the iota untiled for the sort to fold (its default
  // is radix_match too).
  struct Run {
    std::string config;
    sift::PipelineKind kind;
  };
  for (const std::string &index : {"i64", "i32"})
    for (const Run &r :
         {Run{std::string(), sift::PipelineKind::Distribute},
          Run{radix("radix_sort"), sift::PipelineKind::Distribute},
          Run{radix("radix_onesweep"), sift::PipelineKind::Distribute},
          Run{std::string(), sift::PipelineKind::TileAndFuse}}) {
      const std::string &config = r.config;
      SCOPED_TRACE(
          index + " " + (config.empty() ? "the default" : config) +
          (r.kind == sift::PipelineKind::TileAndFuse ? " (tileandfuse)" : ""));
      std::vector<std::vector<char>> out;
      ASSERT_NO_FATAL_FAILURE(
          run(argsortProgram(config, index), r.kind, -1, {x}, out));
      ASSERT_EQ(out.size(), 2u);
      size_t width = index == "i64" ? 8 : 4;
      int wrong = 0;
      for (int64_t r = 0; r < 2; ++r) {
        std::vector<int64_t> order(kN);
        for (int64_t e = 0; e < kN; ++e)
          order[e] = e;
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          return x[r * kN + a] > x[r * kN + b];
        });
        for (int64_t e = 0; e < kN; ++e) {
          float value;
          int64_t position = 0;
          std::memcpy(&value, out[0].data() + (r * kN + e) * 4, 4);
          std::memcpy(&position, out[1].data() + (r * kN + e) * width, width);
          wrong += value != x[r * kN + order[e]] || position != order[e];
        }
      }
      EXPECT_EQ(wrong, 0);
    }
}

TEST_F(EmuPipelineTest, RadixMatchPeerMasksOnTheCpu) {
  // On nvptx radix_match finds each warp's peers by atomic ORs into a table
  // of peer masks (test/Transforms/radix-sort.mlir checks the IR): beside
  // the workgroup's arrays for the default argsort of [2, 40000] f32 (128
  // threads on tiles of 2048, 45 KiB with the table), in the second key
  // array for the default sort of [1, 40000] f32 keys alone (256 threads
  // on tiles of 4096: 46 KiB of arrays, no room beside them). The argsort
  // and sort tests above run both clean. With fault
  // radix-match-peer-bit-lost, lanes whose digits differ only in the top
  // bit share an entry and rank as one group: two elements take one place
  // of the sorted tile (a race), a rank lands past the tile (out of
  // bounds), or wrong elements come out.
  struct Case {
    std::string program;
    int64_t rows, n;
    std::vector<float> x;
    bool descending;
  };
  for (const Case &c :
       {Case{argsortProgram("", "i64"), 2, 40000, randomFloats(2 * 40000, 5),
             true},
        Case{sortProgram(1, 40000), 1, 40000, randomFloats(40000, 2), false}}) {
    SCOPED_TRACE(c.program.substr(0, 60));
    std::vector<std::vector<char>> out;
    sift::FaultSet faults;
    faults.insert(sift::Fault::RadixMatchPeerBitLost);
    std::string error;
    ASSERT_NO_FATAL_FAILURE(run(c.program, sift::PipelineKind::Distribute, -1,
                                {c.x}, out, faults, &error));
    if (!error.empty()) {
      EXPECT_TRUE(error.find("data-race") != std::string::npos ||
                  error.find("out-of-bounds") != std::string::npos)
          << error;
      continue;
    }
    ASSERT_GE(out.size(), 1u);
    int wrong = 0;
    for (int64_t r = 0; r < c.rows; ++r) {
      std::vector<float> sorted(c.x.begin() + r * c.n,
                                c.x.begin() + (r + 1) * c.n);
      if (c.descending)
        std::stable_sort(sorted.begin(), sorted.end(), std::greater<float>());
      else
        std::stable_sort(sorted.begin(), sorted.end());
      for (int64_t e = 0; e < c.n; ++e) {
        float value;
        std::memcpy(&value, out[0].data() + (r * c.n + e) * 4, 4);
        wrong += value != sorted[e];
      }
    }
    EXPECT_GT(wrong, 0);
  }
}

TEST_F(EmuPipelineTest, TopkSelectsOnTheCpu) {
  // topkProgram (k = 8 of rows of 5000) under: the default, warp_select of
  // two chunks a row (a select and a merge launch) and 128 threads (four
  // warps); warp_select of one warp a workgroup (the default for rows of 128
  // to 2048: no tree levels) and five chunks a row; register_select;
  // radix_select's one-launch form (its first pass of 11 bits, two key
  // digits picked from it) with 256 and 1024 threads.
  for (const std::string &config :
       {std::string(), selectConfig(32, "warp_select", 1024),
        selectConfig(128, "register_select", 4096),
        selectConfig(256, "radix_select", 8192),
        selectConfig(1024, "radix_select", 8192)}) {
    SCOPED_TRACE(config.empty() ? "the default" : config);
    std::vector<float> x = randomFloats(2 * 5000, 4);
    std::vector<std::vector<char>> out;
    ASSERT_NO_FATAL_FAILURE(
        run(topkProgram(config), sift::PipelineKind::Distribute, -1, {x}, out));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(wrongTopkRanks(x, out), 0);
  }
}

TEST_F(EmuPipelineTest, WarpQueueHeadUnfilledIsCaughtOnTheCpu) {
  // Fault warp-queue-head-unfilled: lane 0 takes its own slot as the one
  // above, so an item better than a warp's best is lost: wrong ranks, or
  // an empty slot's position read out of the row.
  std::vector<float> x = randomFloats(2 * 5000, 4);
  std::vector<std::vector<char>> out;
  sift::FaultSet faults;
  faults.insert(sift::Fault::WarpQueueHeadUnfilled);
  std::string error;
  ASSERT_NO_FATAL_FAILURE(run(topkProgram(""), sift::PipelineKind::Distribute,
                              -1, {x}, out, faults, &error));
  if (error.empty()) {
    ASSERT_EQ(out.size(), 2u);
    EXPECT_GT(wrongTopkRanks(x, out), 0);
  } else {
    EXPECT_NE(error.find("out-of-bounds"), std::string::npos) << error;
  }
}

/// Compiles `text` with sift::compile and emu kernels for `target` and runs
/// the artifact on the emu device through runPlan (what sift-run does).
sift::Result<std::vector<sift::HostTensor>>
compileAndEmulate(MLIRContext &context, const std::string &text,
                  sift::TargetKind target, const sift::HostTensor &input,
                  sift::FaultSet faults = {}) {
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&context));
  if (!module)
    return sift::makeError("does not parse");
  sift::CompileOptions options;
  options.pipeline.kind = sift::PipelineKind::Distribute;
  options.pipeline.target = target;
  options.pipeline.faults = faults;
  options.emuKernels = true;
  sift::CompileOutput output;
  std::string error;
  if (failed(sift::compile(*module, options, sift::EmitStage::Artifact, output,
                           error)))
    return sift::makeError(error);
  const sift::rt::Executable *emu = sift::rt::emuExecutable(output.artifact);
  if (!emu)
    return sift::makeError("the artifact carries no emu kernels");
  // One emu entry per GPU kernel, and the GPU executables still there.
  size_t gpuEntries = 0;
  for (const sift::rt::Executable &exe : output.artifact.executables)
    if (exe.format != sift::rt::ExecutableFormat::EmuSharedObject)
      gpuEntries += exe.entries.size();
  EXPECT_EQ(emu->entries.size(), gpuEntries);
  sift::rt::EmuDevice device(7);
  return sift::rt::runPlan(device, output.artifact, {input});
}

TEST_F(EmuPipelineTest, CompiledArtifactsRunOnTheEmuDeviceForBothTargets) {
  std::vector<float> in = randomFloats(2 * 3000, 5);
  sift::HostTensor input;
  input.type = sift::ElementType::F32;
  input.shape = {2, 3000};
  input.data.resize(in.size() * sizeof(float));
  std::memcpy(input.data.data(), in.data(), input.data.size());
  std::vector<float> expected = sortedRows(in, 3000);
  for (sift::TargetKind target :
       {sift::TargetKind::Nvptx, sift::TargetKind::Amdgpu}) {
    auto outputs =
        compileAndEmulate(context_, sortProgram(2, 3000), target, input);
    ASSERT_TRUE(outputs.ok()) << outputs.message();
    ASSERT_EQ(outputs->size(), 1u);
    std::vector<float> got(expected.size());
    ASSERT_EQ((*outputs)[0].data.size(), got.size() * sizeof(float));
    std::memcpy(got.data(), (*outputs)[0].data.data(),
                (*outputs)[0].data.size());
    EXPECT_EQ(got, expected) << sift::toString(target);
  }
  // The same program with fault dist-no-barrier: the dispatch fails with
  // the uninitialized-read check's report, naming the kernel.
  sift::FaultSet faults;
  faults.insert(sift::Fault::DistNoBarrier);
  auto faulty = compileAndEmulate(context_, sortProgram(2, 3000),
                                  sift::TargetKind::Nvptx, input, faults);
  ASSERT_FALSE(faulty.ok());
  EXPECT_NE(faulty.message().find("uninitialized-read: thread"),
            std::string::npos)
      << faulty.message();
  EXPECT_NE(faulty.message().find("in kernel main_kernel"), std::string::npos)
      << faulty.message();
}

} // namespace
