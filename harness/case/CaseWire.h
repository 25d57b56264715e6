//===- CaseWire.h - A case result through a pipe ----------------*- C++ -*-===//
//
// An isolated worker sends its parent the whole CaseResult of a finding (the
// program, its inputs and outputs, the artifact, the reproducer, the log),
// so the parent records what the worker computed instead of computing it
// again; a passing case sends only its summary. The encoding is a list of
// `NAME LENGTH\n` headers each followed by LENGTH raw bytes: binary fields
// (tensors as .npy, the artifact in its own format) need no escaping.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseRunner.h"
#include "support/Result.h"

#include <string>

namespace sift::harness {

/// `result` as bytes. Without `full`, only the summary: seed, pipeline,
/// target, verdict, stage, detail, times, ran, compiled, reproducer.
std::string encodeCaseResult(const CaseResult &result, bool full);

/// The result `encodeCaseResult` encoded; an error names the field that is
/// cut short or wrong. Whether the encoding was full is `full`.
Result<CaseResult> decodeCaseResult(const std::string &bytes, bool &full);

} // namespace sift::harness
