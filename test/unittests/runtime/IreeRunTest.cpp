//===- IreeRunTest.cpp - Hand-made programs through IREE on llvm-cpu --------===//
//
// IREE's own front end (iree_linalg_ext sort and top-k with linalg
// producers) compiled by iree-compile for the host and run by
// iree-run-module with .npy inputs and outputs: the outputs are worked out
// by hand, and the dumped executable is there for the static oracles.
// Skipped, saying why, where IREE is unavailable (SIFT_WITH_IREE=0).
//
//===----------------------------------------------------------------------===//

#include "runtime/iree/IreeRun.h"
#include "test/unittests/RequireIree.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sift;
using namespace sift::rt;
namespace fs = std::filesystem;

namespace {

struct Work {
  fs::path dir;
  Work() {
    dir = fs::temp_directory_path() /
          ("sift-iree-run-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Work() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string &name, const std::string &text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
};

HostTensor f32(std::vector<int64_t> shape, const std::vector<float> &values) {
  HostTensor t(ElementType::F32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    t.set<float>(static_cast<int64_t>(i), values[i]);
  return t;
}

template <typename T> std::vector<T> valuesOf(const HostTensor &t) {
  std::vector<T> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.get<T>(i));
  return out;
}

constexpr const char *kSort = R"mlir(
func.func @main(%a: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = iree_linalg_ext.sort dimension(1) outs(%a : tensor<2x5xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.cmpf olt, %x, %y : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}
)mlir";

constexpr const char *kTopK = R"mlir(
func.func @main(%v: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x3xi32>
  %o0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %o1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<2x3xi32>) -> tensor<2x3xi32>
  %r:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x6xf32>)
      outs(%o0, %o1 : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
)mlir";

} // namespace

TEST(IreeRun, TargetFlags) {
  EXPECT_EQ(ireeTargetFlags(TargetKind::Amdgpu, ""),
            (std::vector<std::string>{"--iree-hal-target-device=hip",
                                      "--iree-rocm-target=gfx942",
                                      "--iree-input-demote-f64-to-f32=false"}));
  EXPECT_EQ(ireeTargetFlags(TargetKind::Nvptx, "sm_80")[1],
            "--iree-cuda-target=sm_80");
  EXPECT_EQ(ireeTargetFlags(TargetKind::Host, "")[1],
            "--iree-hal-local-target-device-backends=llvm-cpu");
}

TEST(IreeRun, SortAndTopKOnTheHost) {
  Result<IreeToolchain> iree = findIree();
  if (!iree.ok())
    SIFT_NEEDS_IREE(iree.message());
  Work work;
  IreeModule sort;
  ToolRun compiled = ireeCompile(*iree, work.file("sort.mlir", kSort),
                                 TargetKind::Host, "", {},
                                 work.dir.string(), 120, sort);
  ASSERT_EQ(compiled.status, 0) << compiled.output;
  // The executable is dumped for the static oracles.
  bool dumped = false;
  for (const auto &entry : fs::directory_iterator(sort.dumpDir))
    dumped |= entry.path().extension() == ".so";
  EXPECT_TRUE(dumped);
  auto sorted = ireeRunLocal(*iree, sort,
                             {f32({2, 5}, {3, 1, 2, 5, 4, 9, 8, 7, 6, 0})}, 1,
                             work.dir.string(), 60);
  ASSERT_TRUE(sorted.ok()) << sorted.message();
  EXPECT_EQ(valuesOf<float>((*sorted)[0]),
            (std::vector<float>{1, 2, 3, 4, 5, 0, 6, 7, 8, 9}));

  IreeModule topk;
  compiled = ireeCompile(*iree, work.file("topk.mlir", kTopK),
                         TargetKind::Host, "", {}, work.dir.string(), 120,
                         topk);
  ASSERT_EQ(compiled.status, 0) << compiled.output;
  auto top = ireeRunLocal(
      *iree, topk, {f32({2, 6}, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8})}, 2,
      work.dir.string(), 60);
  ASSERT_TRUE(top.ok()) << top.message();
  EXPECT_EQ(valuesOf<float>((*top)[0]), (std::vector<float>{9, 5, 4, 8, 6, 5}));
  // Row 2 has 5 twice (indices 2 and 4): the lower index comes first.
  EXPECT_EQ(valuesOf<int32_t>((*top)[1]),
            (std::vector<int32_t>{5, 4, 2, 5, 1, 2}));
}

TEST(IreeRun, ACompileErrorIsReported) {
  Result<IreeToolchain> iree = findIree();
  if (!iree.ok())
    SIFT_NEEDS_IREE(iree.message());
  Work work;
  IreeModule module;
  ToolRun compiled = ireeCompile(
      *iree, work.file("bad.mlir", "func.func @main( {"), TargetKind::Host, "",
      {}, work.dir.string(), 60, module);
  EXPECT_NE(compiled.status, 0);
  EXPECT_NE(compiled.output.find("error"), std::string::npos)
      << compiled.output;
}
