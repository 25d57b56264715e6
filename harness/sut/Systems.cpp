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

} // namespace sift::harness
