//===- harness/Version.h - Which sift this is ------------------*- C++ -*-===//
//
// The version a bug report or a campaign's summary names: the release and
// the git commit the harness was built from.
//
//===----------------------------------------------------------------------===//

#pragma once

#include <string>

namespace sift::harness {

/// "0.1 (git 4d26d9f0a1b2)", "0.1 (git 4d26d9f0a1b2-dirty)" for a build
/// with uncommitted changes, or "0.1 (git unknown)" outside a checkout.
std::string siftVersion();

} // namespace sift::harness
