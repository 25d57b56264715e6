//===- IreeFrontEndTest.cpp - Program models as IREE's linalg_ext input -----===//
//
// Programs built as models (a NaN-carrying sort, a descending sort moving an
// i64 payload, top-k largest and smallest with NaNs, an elementwise
// producer) are emitted as iree_linalg_ext text, compiled by IREE for
// llvm-cpu, run, and compared with sift's reference on the same model. Keys
// are distinct, so IREE's unstable sort cannot tell; stability is the
// comparison policy's business. NMS has no linalg_ext form: an error.
// Skipped, saying why, where IREE is unavailable.
//
//===----------------------------------------------------------------------===//

#include "generators/MlirEmitter.h"
#include "generators/ProgramBuilder.h"
#include "runtime/iree/IreeRun.h"
#include "oracles/Compare.h"
#include "oracles/Reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sift;
using namespace sift::rt;
namespace fs = std::filesystem;

namespace {

HostTensor tensorOf(ElementType type, std::vector<int64_t> shape,
                    const std::vector<double> &values) {
  HostTensor t(type, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t at = static_cast<int64_t>(i);
    switch (type) {
    case ElementType::F32: t.set<float>(at, static_cast<float>(values[i])); break;
    case ElementType::I64: t.set<int64_t>(at, static_cast<int64_t>(values[i])); break;
    case ElementType::I32: t.set<int32_t>(at, static_cast<int32_t>(values[i])); break;
    default: ADD_FAILURE() << "unused type";
    }
  }
  return t;
}

/// Emits `program`, compiles it with IREE for the host, runs it on
/// `inputs` and compares with the reference; "" when they agree.
std::string runThroughIree(const IreeToolchain &iree,
                           const gen::Program &program,
                           const std::vector<HostTensor> &inputs) {
  Result<std::string> text = gen::emitIreeLinalgExt(program);
  if (!text.ok())
    return text.message();
  fs::path dir = fs::temp_directory_path() /
                 ("sift-iree-front-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream((dir / "program.mlir")) << *text;
  IreeModule module;
  ToolRun compiled = ireeCompile(iree, (dir / "program.mlir").string(),
                                 TargetKind::Host, "", {}, dir.string(), 120,
                                 module);
  std::string problem;
  if (compiled.status != 0) {
    problem = "iree-compile: " + compiled.output + "\n" + *text;
  } else {
    auto actual = ireeRunLocal(iree, module, inputs, program.outputs.size(),
                               dir.string(), 60);
    auto expected = oracle::evaluate(program, inputs);
    if (!actual.ok())
      problem = actual.message();
    else if (!expected.ok())
      problem = "reference: " + expected.message();
    else if (auto mismatch =
                 oracle::compareOutputs(program, *expected, *actual))
      problem = mismatch->message + "\n" + *text;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return problem;
}

gen::Policy policy;
gen::Rng rng(1);

} // namespace

TEST(IreeFrontEnd, SortAndTopKMatchTheReference) {
  Result<IreeToolchain> iree = findIree();
  if (!iree.ok())
    GTEST_SKIP() << iree.message();
  const double nan = std::nan("");
  {
    // Ascending f32 with NaNs (largest) and an elementwise producer.
    gen::ProgramBuilder b(policy, rng);
    int x = b.addInput({ElementType::F32, {2, 5}});
    int neg = b.addElementwise(gen::EwKind::NegF, {x}, ElementType::F32);
    std::vector<int> sorted = b.addSort({neg}, 1, gen::SortOrder::Ascending,
                                        gen::ComparatorKind::Less);
    b.addOutput(sorted[0]);
    EXPECT_EQ(runThroughIree(*iree, b.take(),
                             {tensorOf(ElementType::F32, {2, 5},
                                       {3, nan, 2, -5, 4, 9, 8, -7, nan, 1})}),
              "");
  }
  {
    // Descending i32 keys moving an i64 payload (distinct keys).
    gen::ProgramBuilder b(policy, rng);
    int k = b.addInput({ElementType::I32, {6}});
    int p = b.addInput({ElementType::I64, {6}});
    std::vector<int> sorted = b.addSort({k, p}, 0, gen::SortOrder::Descending,
                                        gen::ComparatorKind::Less);
    b.addOutput(sorted[0]);
    b.addOutput(sorted[1]);
    EXPECT_EQ(runThroughIree(*iree, b.take(),
                             {tensorOf(ElementType::I32, {6}, {4, -1, 9, 0, 7, 3}),
                              tensorOf(ElementType::I64, {6}, {0, 1, 2, 3, 4, 5})}),
              "");
  }
  for (bool largest : {true, false}) {
    gen::ProgramBuilder b(policy, rng);
    int v = b.addInput({ElementType::F32, {2, 6}});
    auto [values, indices] = b.addTopK(v, 1, 3, largest);
    b.addOutput(values);
    b.addOutput(indices);
    EXPECT_EQ(runThroughIree(*iree, b.take(),
                             {tensorOf(ElementType::F32, {2, 6},
                                       {3, 1, nan, -1, 5, 9, 2, 6, 4, -3, 0.5, 8})}),
              "")
        << (largest ? "largest" : "smallest");
  }
}

TEST(IreeFrontEnd, NmsHasNoLinalgExtForm) {
  gen::ProgramBuilder b(policy, rng);
  int boxes = b.addInput({ElementType::F32, {1, 3, 4}});
  int scores = b.addInput({ElementType::F32, {1, 1, 3}});
  auto [selected, count] = b.addNms(boxes, scores, 2, 0.5f, std::nullopt, false);
  b.addOutput(selected);
  b.addOutput(count);
  Result<std::string> text = gen::emitIreeLinalgExt(b.take());
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.message().find("ONNX front end"), std::string::npos);
}
