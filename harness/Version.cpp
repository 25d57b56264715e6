//===- harness/Version.cpp - Which sift this is ---------------------------===//

#include "harness/Version.h"

#include "harness/GitVersion.h" // generated at build time

std::string sift::harness::siftVersion() {
  return std::string("0.1 (git ") + SIFT_GIT_VERSION + ")";
}
