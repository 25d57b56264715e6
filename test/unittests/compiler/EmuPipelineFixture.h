//===- EmuPipelineFixture.h - GPU pipelines run on the emu device -*- C++
//-*-===//
//
// The fixture of EmuPipelineTest.cpp and EmuFloatKeysTest.cpp: a program
// compiled through a GPU pipeline with host kernels (addEmuKernelLowering)
// and its plan's dispatches run in order on the emu device's fibers, over
// buffers the test allocates; and the programs and checks both share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "test/unittests/compiler/HostLibrary.h"
#include "test/unittests/compiler/IrTestFixture.h"

#include "pipelines/Pipelines/Pipelines.h"
#include "pipelines/Target/Compile.h"
#include "pipelines/Target/HostTarget.h"
#include "runtime/emu/Dispatch.h"
#include "runtime/emu/EmuDevice.h"

#include "mlir/Pass/PassManager.h"

#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace sift::emutest {

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

inline std::vector<float> randomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(n);
  for (float &x : v)
    x = static_cast<float>(static_cast<int64_t>(rng() % 2001) - 1000) / 8.0f;
  return v;
}

inline std::string sortProgram(int64_t rows, int64_t n,
                               const std::string &element = "f32") {
  std::string type = "tensor<" + std::to_string(rows) + "x" +
                     std::to_string(n) + "x" + element + ">";
  return "func.func @main(%a: " + type + ") -> " + type +
         " {\n  %r = sift.sort dimension(1) ascending outs(%a : " + type +
         ") -> " + type + "\n  return %r : " + type + "\n}\n";
}

/// A top-k of 8 of [2, 5000] keys of `element` (`config`: a lowering_config
/// for the op, or none for the default).
inline std::string topkProgram(const std::string &config,
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
inline int wrongTopkRanks(const std::function<float(int64_t)> &key,
                          const char *bytes, size_t width,
                          const std::vector<std::vector<char>> &out) {
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

inline int wrongTopkRanks(const std::vector<float> &x,
                          const std::vector<std::vector<char>> &out) {
  return wrongTopkRanks([&](int64_t e) { return x[e]; },
                        reinterpret_cast<const char *>(x.data()), 4, out);
}

/// A lowering_config of a top-k of one row tile a workgroup.
inline std::string selectConfig(int64_t threads, const std::string &algorithm,
                                int64_t chunk) {
  return "#sift.lowering_config<workgroup_tile = [1], thread_tile = [1], "
         "workgroup_size = [" +
         std::to_string(threads) + ", 1, 1], algorithm = " + algorithm +
         ", row_tile = " + std::to_string(chunk) + ">";
}

} // namespace sift::emutest
