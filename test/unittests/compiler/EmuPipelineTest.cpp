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

#include "test/unittests/compiler/HostLibrary.h"
#include "test/unittests/compiler/IrTestFixture.h"

#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Target/Compile.h"
#include "pipelines/Target/HostTarget.h"
#include "runtime/Runner.h"
#include "runtime/emu/Dispatch.h"
#include "runtime/emu/EmuDevice.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace {

using namespace sift::irtest;

class EmuPipelineTest : public SiftIrTest {
protected:
  /// Compiles `text` through `kind` with host kernels and runs its plan on
  /// the emu runtime: `inputs` are the f32 inputs' elements; returns the
  /// outputs' bytes.
  void run(const std::string &text, sift::PipelineKind kind, int64_t randomSeed,
           const std::vector<std::vector<float>> &inputs,
           std::vector<std::vector<char>> &outputs, sift::FaultSet faults = {},
           std::string *dispatchError = nullptr) {
    OwningOpRef<ModuleOp> module = parse(text);
    ASSERT_TRUE(module);
    sift::PipelineOptions options;
    options.kind = kind;
    options.target = sift::TargetKind::Nvptx;
    options.randomConfigSeed = randomSeed;
    options.withoutBinary = true;
    options.faults = faults;
    PassManager pm(&context_);
    std::string message;
    ASSERT_TRUE(succeeded(sift::addPipeline(pm, options, message))) << message;
    sift::addEmuKernelLowering(pm);
    ASSERT_TRUE(succeeded(pm.run(*module)));
    std::vector<std::string> names;
    OwningOpRef<ModuleOp> host = sift::takeHostKernels(*module, names);
    std::string error;
    std::optional<sift::rt::Plan> plan =
        sift::extractDispatchPlan(*module, names, error);
    ASSERT_TRUE(plan) << error;
    auto symbols = (*module)
                       ->getAttrOfType<DictionaryAttr>("sift.dispatch_plan")
                       .getAs<ArrayAttr>("dispatches");
    ASSERT_NO_FATAL_FAILURE(library_.load(*host));
    // Buffers: inputs filled, the rest zeroed.
    std::vector<std::vector<char>> memory;
    for (const sift::rt::PlanBuffer &buffer : plan->buffers) {
      std::optional<uint64_t> size =
          sift::rt::bufferByteSize(buffer.type, buffer.shape);
      ASSERT_TRUE(size);
      memory.emplace_back(*size + 16, 0);
      if (buffer.role == sift::rt::BufferRole::Input) {
        const std::vector<float> &in = inputs.at(buffer.roleIndex);
        ASSERT_EQ(in.size() * sizeof(float), *size);
        std::memcpy(memory.back().data(), in.data(), *size);
      }
    }
    sift::emu::WorkgroupScheduler scheduler;
    for (auto [i, dispatch] : llvm::enumerate(plan->dispatches)) {
      std::string symbol = sift::hostKernelSymbol(
          names[dispatch.executable], cast<DictionaryAttr>(symbols[i])
                                          .getAs<StringAttr>("symbol")
                                          .getValue()
                                          .str());
      auto kernel = reinterpret_cast<SiftEmuKernel>(library_.symbol(symbol));
      auto *workgroupBytes = static_cast<const int64_t *>(
          library_.symbol(symbol + "_workgroup_bytes"));
      ASSERT_NE(kernel, nullptr) << symbol;
      ASSERT_NE(workgroupBytes, nullptr) << symbol;
      auto *warpSize =
          static_cast<const int32_t *>(library_.symbol(symbol + "_warp_size"));
      ASSERT_NE(warpSize, nullptr) << symbol;
      sift::emu::Launch launch = sift::emu::launchOf(
          dispatch.grid, dispatch.block, static_cast<size_t>(*workgroupBytes));
      launch.warpSize = static_cast<uint32_t>(*warpSize);
      std::vector<void *> bindings;
      for (int b : dispatch.bindings) {
        bindings.push_back(memory[b].data());
        launch.bufferBytes.push_back(memory[b].size() - 16);
      }
      sift::Status status =
          sift::emu::runDispatch(launch, kernel, bindings.data(), scheduler, i);
      if (!status.ok() && dispatchError) {
        *dispatchError = symbol + ": " + status.message();
        break;
      }
      ASSERT_TRUE(status.ok()) << symbol << ": " << status.message();
    }
    for (int o : plan->outputs())
      outputs.push_back(memory[o]);
  }

  HostLibrary library_;
};

std::vector<float> randomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(static_cast<int64_t>(rng() % 2001) - 1000) / 8.0f;
  return v;
}

std::string sortProgram(int64_t rows, int64_t n,
                        const std::string &element = "f32") {
  std::string type = "tensor<" + std::to_string(rows) + "x" +
                     std::to_string(n) + "x" + element + ">";
  return "func.func @main(%a: " + type + ") -> " + type +
         " {\n  %r = sift.sort dimension(1) ascending outs(%a : " + type +
         ") -> " + type + "\n  return %r : " + type + "\n}\n";
}

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

/// A top-k of 8 of [2, 5000] keys of `element` (`config`: a lowering_config
/// for the op, or none for the default).
std::string topkProgram(const std::string &config,
                        const std::string &element = "f32") {
  std::string in = "tensor<2x5000x" + element + ">",
              v = "tensor<2x8x" + element + ">", i = "tensor<2x8xi64>";
  std::string attr =
      config.empty() ? "" : " {sift.lowering_config = " + config + "}";
  return "func.func @main(%x: " + in + ") -> (" + v + ", " + i +
         ") {\n"
         "  %v0 = tensor.empty() : " +
         v + "\n  %i0 = tensor.empty() : " + i +
         "\n  %v, %i = sift.topk dimension(1) k(8) largest" + attr +
         " ins(%x : " + in + ") outs(%v0, %i0 : " + v + ", " + i + ") -> " + v +
         ", " + i + "\n  return %v, %i : " + v + ", " + i + "\n}\n";
}

/// The ranks of topkProgram's outputs that differ from its reference
/// (largest first, ties to the lower index): `key(e)` is element e's key
/// as a float, `bytes` its `width` bytes each, which the output value must
/// repeat.
int wrongTopkRanks(const std::function<float(int64_t)> &key, const char *bytes,
                   size_t width, const std::vector<std::vector<char>> &out) {
  constexpr int64_t kRows = 2, kN = 5000, kK = 8;
  int wrong = 0;
  for (int64_t r = 0; r < kRows; ++r) {
    std::vector<int64_t> order(kN);
    for (int64_t e = 0; e < kN; ++e)
      order[e] = e;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return key(r * kN + a) > key(r * kN + b);
    });
    for (int64_t j = 0; j < kK; ++j) {
      int64_t index;
      std::memcpy(&index, out[1].data() + (r * kK + j) * 8, 8);
      bool value = std::memcmp(out[0].data() + (r * kK + j) * width,
                               bytes + (r * kN + order[j]) * width, width) == 0;
      wrong += index != order[j] || !value;
    }
  }
  return wrong;
}

int wrongTopkRanks(const std::vector<float> &x,
                   const std::vector<std::vector<char>> &out) {
  return wrongTopkRanks([&](int64_t e) { return x[e]; },
                        reinterpret_cast<const char *>(x.data()), 4, out);
}

/// A lowering_config of a top-k of one row tile a workgroup.
std::string selectConfig(int64_t threads, const std::string &algorithm,
                         int64_t chunk) {
  return "#sift.lowering_config<workgroup_tile = [1], thread_tile = [1], "
         "workgroup_size = [" +
         std::to_string(threads) + ", 1, 1], algorithm = " + algorithm +
         ", row_tile = " + std::to_string(chunk) + ">";
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

/// bf16 bits of `x`, rounded to nearest even.
/// A float's place in SEMANTICS.md's total order, as a double: NaN above
/// +inf, -0 = +0.
double totalOrderRank(float v) {
  return std::isnan(v)   ? std::numeric_limits<double>::infinity()
         : std::isinf(v) ? (v > 0 ? 1e300 : -1e300)
                         : static_cast<double>(v == 0.0f ? 0.0f : v);
}

uint16_t toBf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

/// `n` bf16 keys rounded from randomFloats(n, seed) * 9 (ties from
/// rounding).
std::vector<uint16_t> randomBf16(size_t n, uint64_t seed) {
  std::vector<float> wide = randomFloats(n, seed);
  std::vector<uint16_t> keys(n);
  for (size_t e = 0; e < n; ++e)
    keys[e] = toBf16(wide[e] * 9.0f);
  return keys;
}

/// bf16 keys (an even number) packed two a float, as run() takes inputs.
std::vector<float> packedBf16(const std::vector<uint16_t> &keys) {
  std::vector<float> packed(keys.size() / 2);
  std::memcpy(packed.data(), keys.data(), keys.size() * 2);
  return packed;
}

TEST_F(EmuPipelineTest, Bf16TopkSelectsWithNarrowCompositesOnTheCpu) {
  // k = 8 of two bf16 rows of 5000 (i32 composites: 16 bits of order bits
  // over 16 of inverted position), with ties from rounding and zeros of
  // both signs (-0 = +0, the lower index first), under the default
  // (warp_select), warp_select of two warps over five chunks (a select and
  // a merge launch), register_select and radix_select's one-launch form
  // (8 + 3 key bits from its first pass, then 5, then the index digits
  // that break row 1's ties).
  constexpr int64_t kN = 5000;
  std::vector<uint16_t> keys = randomBf16(2 * kN, 11);
  // Row 1: zeros of both signs at the even positions, negative keys at the
  // odd ones: its top 8 are the zeros at 0, 2, ..., 14.
  for (int64_t e = 0; e < kN; ++e)
    keys[kN + e] = e % 2 ? toBf16(-1.0f - std::abs(fromBf16(keys[kN + e])))
                         : (e % 4 ? 0x8000 : 0x0000);
  std::vector<float> packed = packedBf16(keys);
  for (const std::string &config :
       {std::string(), selectConfig(64, "warp_select", 1024),
        selectConfig(128, "register_select", 4096),
        selectConfig(1024, "radix_select", 8192)}) {
    SCOPED_TRACE(config.empty() ? "the default" : config);
    std::vector<std::vector<char>> out;
    ASSERT_NO_FATAL_FAILURE(run(topkProgram(config, "bf16"),
                                sift::PipelineKind::Distribute, -1, {packed},
                                out));
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(wrongTopkRanks([&](int64_t e) { return fromBf16(keys[e]); },
                             reinterpret_cast<const char *>(keys.data()), 2,
                             out),
              0);
  }
}

/// Elements of rows of `n` keys (bit patterns, `value` giving each one's
/// float) sorted ascending in the float total order (NaN last, -0 = +0,
/// stable) that differ from `out`: the bits, or any NaN for a NaN.
template <typename Bits>
int wrongSorted(const std::vector<Bits> &keys, int64_t n,
                const std::vector<char> &out, float (*value)(Bits)) {
  auto rank = [&](Bits h) { return totalOrderRank(value(h)); };
  int wrong = 0;
  for (size_t r = 0; r < keys.size(); r += n) {
    std::vector<Bits> row(keys.begin() + r, keys.begin() + r + n);
    std::stable_sort(row.begin(), row.end(),
                     [&](Bits a, Bits b) { return rank(a) < rank(b); });
    for (int64_t e = 0; e < n; ++e) {
      Bits got;
      std::memcpy(&got, out.data() + (r + e) * sizeof(Bits), sizeof(Bits));
      wrong +=
          std::isnan(value(row[e])) ? !std::isnan(value(got)) : got != row[e];
    }
  }
  return wrong;
}

int wrongSortedBf16(const std::vector<uint16_t> &keys, int64_t n,
                    const std::vector<char> &out) {
  return wrongSorted<uint16_t>(keys, n, out, fromBf16);
}

float fromF32Bits(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

TEST_F(EmuPipelineTest, Bf16SortSortsWithNarrowCompositesOnTheCpu) {
  // Four bf16 rows of 1024 (workgroup_row, i32 composites: 16 bits of order
  // bits over 16 of position): ties from rounding; zeros of both signs
  // among negative and positive keys (-0 = +0 keep their order); the
  // specials (NaN of both signs, both infinities, magnitudes above 2^121).
  constexpr int64_t kN = 1024;
  std::vector<uint16_t> keys = randomBf16(4 * kN, 12);
  for (int64_t e = 0; e < kN; e += 3)
    keys[kN + e] = e % 2 ? 0x8000 : 0x0000;
  const uint16_t specials[] = {0x7fc0, 0xffc1, 0x7f80, 0xff80,
                               0x7f00, 0xfef0, 0x7f7f, 0x0001};
  for (int64_t e = 0; e < kN; e += 7)
    keys[2 * kN + e] = specials[(e / 7) % 8];
  std::vector<float> packed = packedBf16(keys);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN, "bf16"),
                              sift::PipelineKind::Distribute, -1, {packed},
                              out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(wrongSortedBf16(keys, kN, out[0]), 0);
  // Fault bf16-order-f16-layout: the infinities and the magnitudes above
  // 2^121 order as NaN, after every number.
  out.clear();
  sift::FaultSet faults;
  faults.insert(sift::Fault::Bf16OrderF16Layout);
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN, "bf16"),
                              sift::PipelineKind::Distribute, -1, {packed}, out,
                              faults));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_GT(wrongSortedBf16(keys, kN, out[0]), 0);
}

TEST_F(EmuPipelineTest, BareF32SortTakesCompositesForZerosAndNansOnTheCpu) {
  // Four f32 rows of 1024 (a keys-only workgroup_row sort: bare order bits
  // unless the row holds a zero or a NaN). Row 0: ties, subnormals, both
  // infinities, no zero (bare); row 1: zeros of both signs among them; row
  // 2: NaNs of both signs and several payloads; row 3: bare again.
  constexpr int64_t kN = 1024;
  std::mt19937_64 rng(21);
  std::vector<uint32_t> keys(4 * kN);
  for (uint32_t &k : keys) {
    float v = static_cast<float>(static_cast<int64_t>(rng() % 400) + 1) / 8.0f;
    if (rng() % 2)
      v = -v;
    std::memcpy(&k, &v, 4);
  }
  const uint32_t specials[] = {0x7f800000, 0xff800000, 0x00000001,
                               0x80000003, 0x7f7fffff, 0xff7fffff};
  for (int64_t e = 0; e < kN; e += 11)
    keys[e] = keys[3 * kN + e] = specials[(e / 11) % 6];
  for (int64_t e = 0; e < kN; e += 5)
    keys[kN + e] = e % 2 ? 0x80000000 : 0x00000000;
  const uint32_t nans[] = {0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff};
  for (int64_t e = 0; e < kN; e += 9)
    keys[2 * kN + e] = nans[(e / 9) % 4];
  std::vector<float> packed(keys.size());
  std::memcpy(packed.data(), keys.data(), keys.size() * 4);
  std::vector<std::vector<char>> out;
  ASSERT_NO_FATAL_FAILURE(run(
      sortProgram(4, kN), sift::PipelineKind::Distribute, -1, {packed}, out));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(wrongSorted<uint32_t>(keys, kN, out[0], fromF32Bits), 0);
  // Fault bare-keys-unchecked: rows 1 and 2 sort bare too, so their -0s
  // come back as +0 (their NaNs as one NaN, which SEMANTICS.md allows);
  // rows 0 and 3 stay right.
  out.clear();
  sift::FaultSet faults;
  faults.insert(sift::Fault::BareKeysUnchecked);
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(4, kN),
                              sift::PipelineKind::Distribute, -1, {packed}, out,
                              faults));
  ASSERT_EQ(out.size(), 1u);
  std::vector<char> bare(out[0].begin(), out[0].begin() + kN * 4);
  std::vector<uint32_t> first(keys.begin(), keys.begin() + kN);
  EXPECT_EQ(wrongSorted<uint32_t>(first, kN, bare, fromF32Bits), 0);
  EXPECT_GT(wrongSorted<uint32_t>(keys, kN, out[0], fromF32Bits), 0);
  // i32 keys sort bare always, extremes included.
  std::vector<int32_t> ints(2 * kN);
  for (int32_t &x : ints)
    x = static_cast<int32_t>(rng() % 64) - 32;
  ints[3] = std::numeric_limits<int32_t>::max();
  ints[kN + 5] = std::numeric_limits<int32_t>::min();
  std::vector<float> packedInts(ints.size());
  std::memcpy(packedInts.data(), ints.data(), ints.size() * 4);
  out.clear();
  ASSERT_NO_FATAL_FAILURE(run(sortProgram(2, kN, "i32"),
                              sift::PipelineKind::Distribute, -1, {packedInts},
                              out));
  ASSERT_EQ(out.size(), 1u);
  std::vector<int32_t> sortedInts = ints;
  for (int64_t r = 0; r < 2; ++r)
    std::sort(sortedInts.begin() + r * kN, sortedInts.begin() + (r + 1) * kN);
  std::vector<int32_t> gotInts(ints.size());
  std::memcpy(gotInts.data(), out[0].data(), ints.size() * 4);
  EXPECT_EQ(gotInts, sortedInts);
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

/// k = 1 walks f32 keys as floats: NaN above everything (largest takes the
/// first NaN, smallest never takes one unless a row is all NaN), -0 = +0,
/// ties to the lower index, across the two chunks of a row of 5000 (a
/// select and a merge launch).
/// A k = 1 top-k of `rows` rows of `n` keys of `type` (largest or
/// smallest), returning its values and indices.
std::string argmaxProgram(const std::string &type, int64_t rows, int64_t n,
                          bool largest) {
  std::string shape = std::to_string(rows) + "x";
  std::string in = "tensor<" + shape + std::to_string(n) + "x" + type + ">",
              v = "tensor<" + shape + "1x" + type + ">",
              i = "tensor<" + shape + "1xi64>";
  return "func.func @main(%x: " + in + ") -> (" + v + ", " + i +
         ") {\n  %v0 = tensor.empty() : " + v +
         "\n  %i0 = tensor.empty() : " + i +
         "\n  %v, %i = sift.topk dimension(1) k(1) " +
         (largest ? "largest" : "smallest") + " ins(%x : " + in +
         ") outs(%v0, %i0 : " + v + ", " + i + ") -> " + v + ", " + i +
         "\n  return %v, %i : " + v + ", " + i + "\n}\n";
}

/// The index of a row's best of `n` keys (`value(e)` the e-th) in the total
/// order (NaN above +inf, -0 = +0), the lower index on ties.
int64_t expectedArgmax(const std::function<float(int64_t)> &value, int64_t n,
                       bool largest) {
  int64_t expected = 0;
  for (int64_t e = 1; e < n; ++e) {
    double now = totalOrderRank(value(e)),
           best = totalOrderRank(value(expected));
    bool nans = std::isnan(value(expected)) && std::isnan(value(e));
    if (!nans && (largest ? now > best : now < best))
      expected = e;
  }
  return expected;
}

TEST_F(EmuPipelineTest, RegisterSelectArgmaxOfFloatSpecialsOnTheCpu) {
  constexpr int64_t kRows = 4, kN = 5000;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = randomFloats(kRows * kN, 9);
  auto at = [&](int64_t r, int64_t e) -> float & { return x[r * kN + e]; };
  // Row 0: ties at the extremes, the later in the other chunk.
  at(0, 100) = at(0, 4500) = 5.0f;
  at(0, 200) = at(0, 4100) = -5.0f;
  // Row 1: NaNs (one negative) above +inf, -inf below all.
  at(1, 4999) = -nan;
  at(1, 3000) = nan;
  at(1, 10) = inf;
  at(1, 2000) = at(1, 4200) = -inf;
  // Row 2: zeros of both signs only; row 3: NaN only.
  for (int64_t e = 0; e < kN; ++e) {
    at(2, e) = e % 2 ? 0.0f : -0.0f;
    at(3, e) = nan;
  }
  for (bool largest : {true, false}) {
    std::vector<std::vector<char>> out;
    ASSERT_NO_FATAL_FAILURE(run(argmaxProgram("f32", kRows, kN, largest),
                                sift::PipelineKind::Distribute, -1, {x}, out));
    ASSERT_EQ(out.size(), 2u);
    for (int64_t r = 0; r < kRows; ++r) {
      int64_t expected =
          expectedArgmax([&](int64_t e) { return at(r, e); }, kN, largest);
      int64_t index;
      std::memcpy(&index, out[1].data() + r * 8, 8);
      EXPECT_EQ(index, expected)
          << (largest ? "largest" : "smallest") << ", row " << r;
    }
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

TEST_F(EmuPipelineTest, RegisterSelectArgmaxOfBf16SpecialsOnTheCpu) {
  // k = 1 of bf16 rows (register_select's walk widens each key to f32 and
  // compares floats): ties at the extremes, NaNs of both signs above +inf,
  // -inf below all, zeros of both signs only, NaN only. Fault
  // bf16-order-f16-layout widens the bits as f16's: -inf (0xff80) and
  // magnitudes from 2^121 become f16 NaNs or infinities.
  constexpr int64_t kRows = 5, kN = 5000;
  std::vector<uint16_t> keys = randomBf16(kRows * kN, 19);
  auto at = [&](int64_t r, int64_t e) -> uint16_t & {
    return keys[r * kN + e];
  };
  at(0, 100) = at(0, 4500) = toBf16(1000.0f);
  at(0, 200) = at(0, 4100) = toBf16(-1000.0f);
  at(1, 4999) = 0xffc1;
  at(1, 3000) = 0x7fc0;
  at(1, 10) = 0x7f80;
  at(1, 2000) = at(1, 4200) = 0xff80;
  for (int64_t e = 0; e < kN; ++e) {
    at(2, e) = e % 2 ? 0x0000 : 0x8000;
    at(3, e) = 0x7fc0;
  }
  // Row 4: a magnitude past f16's range among small ones.
  at(4, 1234) = 0x7f00;
  at(4, 4321) = 0xff00;
  std::vector<float> packed = packedBf16(keys);
  for (bool fault : {false, true}) {
    int wrong = 0;
    for (bool largest : {true, false}) {
      sift::FaultSet faults;
      if (fault)
        faults.insert(sift::Fault::Bf16OrderF16Layout);
      std::vector<std::vector<char>> out;
      ASSERT_NO_FATAL_FAILURE(run(argmaxProgram("bf16", kRows, kN, largest),
                                  sift::PipelineKind::Distribute, -1, {packed},
                                  out, faults));
      ASSERT_EQ(out.size(), 2u);
      for (int64_t r = 0; r < kRows; ++r) {
        int64_t expected = expectedArgmax(
            [&](int64_t e) { return fromBf16(at(r, e)); }, kN, largest);
        int64_t index;
        std::memcpy(&index, out[1].data() + r * 8, 8);
        if (!fault)
          EXPECT_EQ(index, expected)
              << (largest ? "largest" : "smallest") << ", row " << r;
        wrong += index != expected;
      }
    }
    if (fault)
      EXPECT_GT(wrong, 0);
  }
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
