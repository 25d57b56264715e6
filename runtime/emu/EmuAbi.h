//===- runtime/emu/EmuAbi.h - What an emulated kernel sees ------*- C++ -*-===//
//
// The C ABI between the emu device and a GPU kernel lowered for the host:
// the kernel is `void kernel(SiftEmuContext *context, void **buffers)`,
// called once per thread on that thread's fiber, with the dispatch's
// buffers in binding order. It reads its ids and the launch's sizes from
// the context, finds its workgroup's memory there, and calls back through
// the context at a barrier (a function pointer, so that a kernel library
// needs no symbol from the process that loads it). Plain C layout: the
// compiler's host lowering addresses the fields by offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

extern "C" {

struct SiftEmuContext;

/// Waits until every thread of the workgroup reaches barrier `site`.
typedef void (*SiftEmuBarrier)(SiftEmuContext *context, uint32_t site);

/// Reports that memory access `site` of the kernel (its number in the
/// kernel) went to element `index` of a memref of `size` elements; the
/// access itself went to element 0 instead.
typedef void (*SiftEmuOutOfBounds)(SiftEmuContext *context, uint32_t site,
                                   uint64_t index, uint64_t size);

/// What an access report's flags say.
enum : uint32_t {
  kSiftEmuAccessWrite = 1,     ///< a store (else a load)
  kSiftEmuAccessWorkgroup = 2, ///< to workgroup memory (else global)
  kSiftEmuAccessAtomic = 4,    ///< an atomic (never races with atomics)
  /// With kSiftEmuAccessWrite: a read-modify-write that reads the old value
  /// (an atomic add, not an exchange), so it reads before it writes.
  kSiftEmuAccessReadsOld = 8,
};

/// Reports that memory access `site` of the kernel is about to load or
/// store the element at host address `address` (flags: kSiftEmuAccess*).
/// Private memory is not reported; atomics are, with kSiftEmuAccessAtomic
/// (an atomic read-modify-write is a write).
typedef void (*SiftEmuAccess)(SiftEmuContext *context, uint32_t site,
                              uint64_t address, uint32_t flags);

/// What a warp callback does (EmuAbi.h's SiftEmuWarp).
enum : uint32_t {
  kSiftEmuWarpSync = 0,   ///< waits for the warp's lanes; returns 0
  kSiftEmuWarpBallot = 1, ///< waits for them; returns their votes' mask
  /// waits for them; `value` is the lane's 32-bit value in its low half
  /// and the lane it reads in its high half; returns that lane's value
  kSiftEmuWarpShuffle = 2,
  /// not a warp operation: the thread waits for the kernels before its
  /// dispatch (griddepcontrol.wait), which on the emu device have all
  /// finished; from here on its global accesses may touch what they
  /// wrote (the context's gridWaited). Returns 0 at once.
  kSiftEmuGridWait = 3,
};

/// Warp operation `kind` at `site` (a number naming it in the kernel):
/// waits until every lane of the calling thread's warp (the context's
/// warpSize lanes of consecutive linear thread ids; the last warp of a
/// workgroup may have fewer) has reached it. A ballot returns the mask of
/// the lanes whose `value` is not zero (bit l: lane l); a shuffle returns
/// the low 32 bits of the `value` of the lane that the high 32 bits of the
/// caller's `value` name (a lane its warp does not have fails the run with
/// out-of-bounds).
typedef uint64_t (*SiftEmuWarp)(SiftEmuContext *context, uint32_t site,
                                uint32_t kind, uint64_t value);

struct SiftEmuContext {
  uint32_t threadId[3];  ///< x, y, z within the workgroup
  uint32_t blockId[3];   ///< x, y, z within the grid
  uint32_t blockDim[3];  ///< threads of a workgroup
  uint32_t gridDim[3];   ///< workgroups of the dispatch
  void *workgroupMemory; ///< this workgroup's attributions, 16-byte aligned
  SiftEmuBarrier barrier;
  SiftEmuOutOfBounds outOfBounds;
  void *device; ///< the emu device's own state (opaque to kernels)
  SiftEmuAccess access;
  // The target-lowered kernels' warp operations and bounds checks.
  SiftEmuWarp warp;
  /// The bytes of each binding, in binding order (the bounds checks of the
  /// kernel's parameters).
  const uint64_t *bufferBytes;
  uint32_t warpSize; ///< lanes of a warp: 32 (nvptx), 64 (wave64)
  uint32_t laneId;   ///< the linear thread id modulo warpSize
  /// 0 until the thread has waited for the kernels before its dispatch
  /// (kSiftEmuGridWait) in a kernel that waits so (`<kernel>_grid_wait`):
  /// such a kernel may be launched while the one before still runs, so a
  /// global access before its wait is a data race. 1 otherwise.
  uint32_t gridWaited;
};

/// A GPU kernel lowered for the host.
typedef void (*SiftEmuKernel)(SiftEmuContext *context, void **buffers);

} // extern "C"
