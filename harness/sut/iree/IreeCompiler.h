//===- harness/sut/iree/IreeCompiler.h - IREE as a system under test -*- C++ -*-===//
//
// IREE through its tools: a program model becomes iree_linalg_ext input
// (with compilation_info forcing TileAndFuse or Distribute on GPU targets),
// iree-compile builds a module with its executables dumped, the static
// oracles read the dumped PTX, HSACO and device LLVM IR, and llvm-cpu
// modules run through iree-run-module on the host. Outputs are compared
// under IREE's comparison policy (oracles/ComparisonPolicy.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/MlirEmitter.h"
#include "harness/sut/SystemUnderTest.h"
#include "harness/sut/iree/IreeSteering.h"
#include "runtime/iree/IreeRun.h"
#include "runtime/iree/IreeToolchain.h"

#include <string>

namespace sift::harness {

using rt::findIree;
using rt::IreeModule;
using rt::IreeToolchain;
using rt::ireeTargetFlags;
using rt::ToolRun;
using rt::runTool;

class IreeCompiler final : public SystemUnderTest {
public:
  explicit IreeCompiler(IreeToolchain toolchain);

  std::string_view name() const override { return "iree"; }
  std::string version() const override { return iree_.version; }
  /// `result.mlir` becomes the IREE input text that was compiled.
  bool compile(const CaseOptions &options, CaseResult &result) override;
  /// The text is IREE input (iree_linalg_ext, linalg, tensor, arith).
  CaseResult compileText(const CaseOptions &options, const std::string &text,
                         const std::string &name, uint64_t seed) override;
  Result<std::vector<HostTensor>> run(const CaseResult &compiled,
                                      rt::Device &device,
                                      int repetition) override;
  /// llvm-cpu modules on the cpu device; GPU modules run through sift-run.
  bool runsOn(const rt::Device &device, TargetKind target) const override;
  oracle::ComparisonPolicy
  comparisonPolicy(const CaseResult &result) const override;

  const IreeToolchain &toolchain() const { return iree_; }

private:
  /// Compiles `text` for `options` in a fresh work folder and checks the
  /// dumped executables; false when that decided `result`.
  bool compileIn(const CaseOptions &options, const std::string &text,
                 CaseResult &result);

  IreeToolchain iree_;
};

/// The first line of a failed iree-compile's output that says what went
/// wrong, without its location: the first "error: " message, an assertion,
/// an LLVM fatal error; else `fallback`.
std::string ireeDiagnostic(const std::string &output,
                           const std::string &fallback);

/// How a case is spelled for IREE: its front end (options' or drawn from
/// `seed`), its dynamic dimensions (drawn from `seed`; none with
/// options.staticDims), after options.steering (what it did in `steered`).
/// Op attributes are the caller's.
gen::IreeSpelling ireeSpelling(const CaseOptions &options,
                               const gen::Program &program, uint64_t seed,
                               SteerOutcome &steered);

/// The flags a case adds to the target's (ireeTargetFlags).
std::vector<std::string> ireeExtraFlags(const CaseOptions &options);

/// The iree-compile command line of `options` for `file`, as a user would
/// type it (for details and upstream reports).
std::string ireeCompileCommand(const CaseOptions &options,
                               const std::string &file,
                               const std::string &output = "module.vmfb");

} // namespace sift::harness
