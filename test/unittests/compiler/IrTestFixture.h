//===- IrTestFixture.h - Hand-written kernels for the IR oracle tests -*- C++ -*-===//
//
// The fixture IrChecksTest.cpp, StageChecksTest.cpp and BoundsCheckTest.cpp
// share: a context with sift's dialects, a parser, a one-kernel module
// builder, and the verdicts and descriptions of findings for assertions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ir/IrChecks.h"
#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sift::irtest {

using namespace mlir;
using namespace sift::oracle;

constexpr int64_t kBudget = 48 * 1024;

/// A context with sift's dialects and a parser that fails the test on
/// text that does not parse.
class SiftIrTest : public ::testing::Test {
protected:
  SiftIrTest() {
    DialectRegistry registry;
    registerSiftDialects(registry);
    context_.appendDialectRegistry(registry);
    context_.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(const std::string &text) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, ParserConfig(&context_));
    EXPECT_TRUE(module) << "does not parse:\n" << text;
    return module;
  }

  MLIRContext context_;
};

class IrChecksTest : public SiftIrTest {
protected:

  /// A module with one kernel @k::@f taking %out: memref<64xf32>, with
  /// `attributions` after its arguments, `known_block_size` `blockSize` and
  /// `body` before the gpu.return.
  OwningOpRef<ModuleOp> kernel(const std::string &body,
                               const std::string &blockSize = "64, 1, 1",
                               const std::string &attributions = "") {
    return parse("module attributes {gpu.container_module} {\n"
                 "gpu.module @k {\n"
                 "gpu.func @f(%out: memref<64xf32>) " +
                 attributions +
                 " kernel attributes {known_block_size = array<i32: " +
                 blockSize + ">} {\n" + body + "\n  gpu.return\n}\n}\n}\n");
  }
};

inline std::vector<Verdict> verdicts(const std::vector<IrFinding> &findings) {
  std::vector<Verdict> out;
  for (const IrFinding &finding : findings)
    out.push_back(finding.verdict);
  return out;
}

inline std::string describe(const std::vector<IrFinding> &findings) {
  std::string out;
  for (const IrFinding &finding : findings)
    out += std::string(toString(finding.verdict)) + " [" + finding.kernel +
           "] " + finding.message + "\n";
  return out;
}

} // namespace sift::irtest
