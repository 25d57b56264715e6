//===- harness/report/UpstreamIssue.h - Issues upstream ---------*- C++ -*-===//
//
// What `harness upstream` writes for a compiler's developers: the pieces an
// IREE issue and a file system's issue share (a tensor's values, fenced
// blocks), and the whole issue of a case of a system described by a file
// (docs/systems.md), written from its case folder alone: the system and
// its version, the command to run on the kept program (with the runner it
// names copied beside it), the program, the inputs, expected and actual
// outputs, the comparison policy points that applied with their sources,
// and how much to trust it. IREE's issue (which runs the case again
// through IREE) is UpstreamCommand.cpp's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseFolder.h"
#include "harness/sut/file/SystemFile.h"
#include "support/HostTensor.h"
#include "support/Result.h"

#include <string>

namespace sift::harness {

/// "f32[2x3] = v0 v1 ...": up to 64 elements of `t` (more: the count).
std::string issueValues(const HostTensor &t);

/// `body` in a Markdown fenced block of `language` ("" for none).
std::string issueFenced(const std::string &language, const std::string &body);

/// What writeSystemIssue wrote.
struct SystemIssueFiles {
  /// The program file, the inputs copied, the files of the system file's
  /// folder the command names (its runner), for the summary line.
  std::string programFile;
  size_t inputs = 0;
  std::vector<std::string> copied;
};

/// Writes the issue of `stored`, a case of the system `file` describes,
/// into the folder `outDir` (created): report.md, the program file,
/// inputs/input_<i>.npy, expected/output_<i>.npy and actual/output_<i>.npy
/// (the layout the system's command reads and writes) and the files of
/// the system file's folder its command names. An error names the case
/// folder's file that is missing or unreadable, or what cannot be written.
Result<SystemIssueFiles> writeSystemIssue(const StoredCase &stored,
                                          const SystemFile &file,
                                          const std::string &outDir);

} // namespace sift::harness
