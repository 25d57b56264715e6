//===- runtime/ArtifactDetail.h - What the artifact sources share ---------===//
//
// Internal to the runtime: the helper that the artifact verifier
// (Artifact.cpp) and the artifact reader (ArtifactFile.cpp) share.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace sift::rt::detail {

/// `s` in single quotes for an error message, with control characters as '?'
/// and cut to a readable length.
std::string quoted(const std::string &s);

} // namespace sift::rt::detail
