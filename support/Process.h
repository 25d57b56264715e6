//===- support/Process.h - Child-process helpers -------*- C++ -*-===//
//
// What the harness's isolated cases and sift-run's workers share about the
// processes they fork.
//
//===----------------------------------------------------------------------===//

#pragma once

#include <sys/types.h>

namespace sift {

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
