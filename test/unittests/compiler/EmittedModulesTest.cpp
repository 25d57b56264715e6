//===- EmittedModulesTest.cpp - Every emitted module parses and verifies --===//
//
// The generators promise (MlirEmitter.h) that the text of every valid program
// is a module the sift dialect accepts, and that the text is a pure function
// of the program. This test holds them to it over 1000 seeds of the default
// policy, parsing through the same Session the harness uses, so a failure is
// a `gen-invalid` the fuzz loop would have reported.
//
//===----------------------------------------------------------------------===//

#include "generators/MlirEmitter.h"
#include "generators/Policy.h"
#include "generators/ProgramGenerator.h"
#include "harness/sut/sift/Session.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

using namespace sift;

namespace {

constexpr uint64_t kSeeds = 1000;

TEST(EmittedModulesTest, EveryModuleParsesAndVerifies) {
  harness::Session session;
  gen::Policy policy;
  int failures = 0;
  uint64_t sorts = 0, topks = 0, bytes = 0;
  for (uint64_t seed = 0; seed < kSeeds && failures < 5; ++seed) {
    gen::Program program = gen::generateProgram(policy, seed);
    ASSERT_EQ(gen::validate(program), "") << "seed " << seed;
    std::string text = gen::emitMlir(program);
    sorts += text.find("sift.sort") != std::string::npos;
    topks += text.find("sift.topk") != std::string::npos;
    bytes += text.size();
    std::string error;
    auto module =
        session.parse(text, "seed-" + std::to_string(seed) + ".mlir", error);
    if (!module) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << ": the emitted module does not "
                    << "parse or verify:\n"
                    << error << "\n--- module ---\n"
                    << text;
    }
  }
  // Both families of the default policy were exercised.
  EXPECT_GT(sorts, kSeeds / 5);
  EXPECT_GT(topks, kSeeds / 5);
  RecordProperty("module_bytes", static_cast<int64_t>(bytes));
}

TEST(EmittedModulesTest, EmittingTwiceIsByteIdentical) {
  gen::Policy policy;
  for (uint64_t seed = 0; seed < kSeeds; ++seed) {
    gen::Program program = gen::generateProgram(policy, seed);
    std::string first = gen::emitMlir(program);
    std::string second = gen::emitMlir(program);
    ASSERT_EQ(first, second) << "seed " << seed;
    // A second generation from the same seed yields the same text too.
    ASSERT_EQ(gen::emitMlir(gen::generateProgram(policy, seed)), first)
        << "seed " << seed;
  }
}

} // namespace
