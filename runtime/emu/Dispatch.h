//===- runtime/emu/Dispatch.h - One dispatch on the host --------*- C++ -*-===//
//
// Runs one dispatch of a kernel lowered for the host (EmuAbi.h): its
// workgroups started in an order drawn from the seed, a few at once
// (interleaved wherever a thread reaches a global atomic, so that a
// decoupled look-back can find a predecessor's flag unwritten), each
// workgroup's threads as fibers (Workgroup.h) with its own workgroup memory,
// filled with a pattern rather than zeros so that a kernel reading it before
// writing does not see a lucky zero. Resident workgroups that only spin
// (atomic loads, nothing written, no barrier reached) for 2^20 pauses in a
// row are a hang: a "hang: ..." error, not a hung run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/emu/EmuAbi.h"
#include "runtime/emu/Workgroup.h"
#include "support/Result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sift::emu {

/// The byte workgroup memory holds before a kernel writes it.
inline constexpr unsigned char kWorkgroupFill = 0xA5;

/// The byte a plan buffer the emu device allocates holds until an upload
/// or a kernel writes it: a GPU's allocations are not zeroed either, so a
/// kernel that reads a temporary before any kernel wrote it reads this
/// (0x5A5A5A5A: a large count, an f32 of about 1.5e16), not a zero that
/// happens to be right.
inline constexpr unsigned char kGlobalFill = 0x5A;

/// One launch of a kernel: its grid, its workgroup and the bytes of
/// workgroup memory a workgroup takes.
struct Launch {
  std::array<uint32_t, 3> grid{1, 1, 1};
  std::array<uint32_t, 3> block{1, 1, 1};
  size_t workgroupBytes = 0;
  /// The bytes of each buffer (binding order), to name an element's
  /// buffer in a report; may be empty.
  std::vector<uint64_t> bufferBytes;
  /// The bytes of each buffer's element (the race check's granularity); may
  /// be empty.
  std::vector<uint64_t> bufferElementBytes;
  /// Lanes of a warp (the kernel's target: 32 on nvptx, 64 on a wave64
  /// chip).
  uint32_t warpSize = 32;
  /// Whether the kernel waits for the kernels before its dispatch
  /// (`<kernel>_grid_wait`): a global access of a thread that has not yet
  /// waited is then a data race with them.
  bool gridWait = false;
  /// Whether the kernel's access reports go to the race and
  /// uninitialized-read checks (else they are ignored: a repeated run).
  bool checkAccesses = true;
  /// Workgroups running at once (interleaved at global atomics); 0: drawn
  /// from the dispatch's seed, 2 to 4. 1 runs them one after another.
  uint32_t resident = 0;
};

/// How many workgroups of `groups` a dispatch of `launch` holds at once
/// under `seed`.
uint32_t residentWorkgroups(const Launch &launch, uint64_t seed,
                            uint64_t groups);

/// A launch of `grid` x `block` threads with `workgroupBytes` of workgroup
/// memory each (no buffer sizes: accesses are then kept by address).
inline Launch launchOf(const std::array<uint32_t, 3> &grid,
                       const std::array<uint32_t, 3> &block,
                       size_t workgroupBytes) {
  Launch launch;
  launch.grid = grid;
  launch.block = block;
  launch.workgroupBytes = workgroupBytes;
  return launch;
}

/// Runs `kernel` over `launch` with `buffers` (the dispatch's bindings),
/// workgroups in an order drawn from `seed`, threads scheduled by
/// `scheduler` (the first resident workgroup's; the others' are this host
/// thread's own). An error names the workgroup (x, y, z) whose barriers
/// diverged, the workgroups that hang, or a launch that is empty or too
/// large to emulate; or it is the first report of the checks
/// (out-of-bounds, data-race, uninitialized-read: AccessChecker.h).
Status runDispatch(const Launch &launch, SiftEmuKernel kernel, void **buffers,
                   WorkgroupScheduler &scheduler, uint64_t seed);

} // namespace sift::emu
