//===- support/Process.h - Child-process helpers -------*- C++ -*-===//
//
// What the harness's isolated cases and sift-run's workers share about the
// processes they fork.
//
//===----------------------------------------------------------------------===//

#pragma once

#include <sys/types.h>

#include <string_view>

namespace sift {

/// How a run's error message starts when a tool sift runs under its own
/// time limit (iree-run-module) was stopped: the verdict is then
/// run-timeout, as when an isolated case's worker is killed, never
/// runtime-error (oracle::runFailureVerdict).
inline constexpr std::string_view kRunTimedOutPrefix = "run-timeout: ";

/// How a run's error message starts when the system under test said, by a
/// documented exit code or message, that it does not implement the
/// program: the verdict is then unsupported, not a finding
/// (oracle::runFailureVerdict).
inline constexpr std::string_view kUnsupportedPrefix = "unsupported: ";

/// In a child just forked from `parent`: be killed when the parent dies
/// (Linux; it holds across exec), and exit at once if it already has, so
/// that a killed harness or sift-run leaves no worker behind on the GPU.
void dieWithParent(pid_t parent);

/// fork() after flushing stdio (so that nothing buffered is written
/// twice), with the child tied to this process by dieWithParent. Returns
/// what fork() returns: the child's pid here, 0 in the child, -1 (errno
/// set) when no child could be made.
pid_t forkTiedChild();

} // namespace sift
