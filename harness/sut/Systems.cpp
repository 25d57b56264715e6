//===- harness/sut/Systems.cpp - The systems a command may test -----------===//

#include "harness/sut/Systems.h"

namespace sift::harness {

Result<SystemUnderTest *> Systems::of(PipelineKind pipeline) {
  if (systemOf(pipeline) == SystemKind::Sift)
    return static_cast<SystemUnderTest *>(&sift_);
  if (!iree_) {
    Result<IreeToolchain> iree = findIree();
    if (!iree.ok())
      return iree.error();
    iree_ = std::make_unique<IreeCompiler>(std::move(*iree));
  }
  return static_cast<SystemUnderTest *>(iree_.get());
}

Result<std::string> Systems::chipFor(PipelineKind pipeline, TargetKind target,
                                     const std::string &chip) {
  if (systemOf(pipeline) == SystemKind::Sift)
    return chip;
  Result<SystemUnderTest *> system = of(pipeline);
  if (!system.ok())
    return system.error();
  return ireeChipFor(iree_->toolchain(), target, chip);
}

} // namespace sift::harness
