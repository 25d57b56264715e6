//===- harness/reduce/IrReduction.h - The IR half of a reduction -*- C++ -*-===//
//
// After the model reducer, a finding the compile decides (a crash, an
// error, a static finding) can shrink further as IR: sift-reduce over the
// case's program text, each candidate tested by `harness check`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/Isolation.h"
#include "harness/sut/sift/Session.h"

#include <string>

namespace sift::harness {

/// Reduces `mlir` (the program of the case folder `folder`) with
/// sift-reduce; a smaller text with the folder's signature is kept as
/// FOLDER/reduced.mlir. Prints what it did, or why it skipped.
void reduceIr(Session &session, const std::string &folder,
              const std::string &mlir, const IsolationLimits &limits);

} // namespace sift::harness
