//===- harness/sut/Systems.h - The systems a command may test ---*- C++ -*-===//
//
// sift's compiler always; IREE made when a pipeline of its is first asked
// for, its tools found then (a missing IREE is one sentence, not a crash).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/sut/iree/IreeChips.h"
#include "harness/sut/iree/IreeCompiler.h"
#include "harness/sut/sift/SiftCompiler.h"

#include <memory>

namespace sift::harness {

class Systems {
public:
  /// The system `pipeline` belongs to; the error says why IREE is
  /// unavailable.
  Result<SystemUnderTest *> of(PipelineKind pipeline);
  SiftCompiler &sift() { return sift_; }
  /// The chip a run compiles for: sift's runs `chip` as given (their
  /// chips are checked against sift's table when parsed); IREE's GPU runs a
  /// chip the installed IREE accepts (IreeChips.h), the error naming the
  /// ones it does.
  Result<std::string> chipFor(PipelineKind pipeline, TargetKind target,
                              const std::string &chip);

private:
  SiftCompiler sift_;
  std::unique_ptr<IreeCompiler> iree_;
};

} // namespace sift::harness
