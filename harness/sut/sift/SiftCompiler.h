//===- harness/sut/sift/SiftCompiler.h - sift's compiler under test -*- C++ -*-===//
//
// sift's own MLIR pipelines (cpu, tileandfuse, distribute) as a system
// under test: the programs are compiled from their sift-dialect text, the
// static oracles run after every pass and on the binaries, and artifacts
// run on sift's runtime.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/sut/SystemUnderTest.h"
#include "harness/sut/sift/KeptCompile.h"
#include "harness/sut/sift/Session.h"

#include <string>

namespace sift::harness {

class SiftCompiler final : public SystemUnderTest {
public:
  SiftCompiler();
  ~SiftCompiler() override;

  std::string_view name() const override { return "sift"; }
  std::string version() const override;
  bool compile(const CaseOptions &options, CaseResult &result) override;
  Result<std::vector<HostTensor>> run(const CaseResult &compiled,
                                      rt::Device &device,
                                      int repetition) override;

  /// The text is sift-dialect MLIR.
  CaseResult compileText(const CaseOptions &options, const std::string &text,
                         const std::string &name, uint64_t seed) override;

  /// Compiles the program `text` as `compile` does, keeping what a
  /// finding's reader opens first in `keep.folder` (KeptCompile.h): the
  /// lowering record (GPU pipelines), the module before and after the
  /// blamed pass, the final binaries.
  CaseResult compileKeeping(const CaseOptions &options,
                            const std::string &text, uint64_t seed,
                            const KeepRequest &keep);

  /// The MLIR context and compile entry point (harness run and compile).
  Session &session() { return session_; }

private:
  Session session_;
};

} // namespace sift::harness
