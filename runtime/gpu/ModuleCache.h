//===- runtime/gpu/ModuleCache.h - Prebuilt cubins for PTX ----*- C++ -*-===//
//
// Loading PTX makes the CUDA driver compile it (the JIT: about 116 ms a
// module on the H200, most of a GPU campaign's time). A GPU host can
// compile a campaign's PTX ahead, in parallel, with ptxas: `sift-run
// --write-ptx=DIR` writes each distinct module as DIR/<key>.ptx, ptxas
// makes DIR/<key>.cubin beside it, and sift-run given SIFT_CUBIN_CACHE=DIR
// loads the cubin instead of the PTX (the same code: ptxas is the JIT's
// compiler). A module without a cubin, or whose cubin the driver refuses,
// is loaded from its PTX as before.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sift::rt {

/// The environment variable naming the cubin cache folder.
inline constexpr const char *kCubinCacheEnv = "SIFT_CUBIN_CACHE";

/// A module's key in the cache: the FNV-1a 64 of its bytes, 16 lowercase
/// hex digits.
std::string moduleKey(const std::vector<uint8_t> &image);

/// The folder SIFT_CUBIN_CACHE names, or "" when it is unset or empty.
std::string cubinCacheDir();

/// The bytes of `dir`/<key of `ptx`>.cubin, or nullopt when there is none
/// (or it cannot be read).
std::optional<std::vector<uint8_t>> cachedCubin(const std::string &dir,
                                                const std::vector<uint8_t> &ptx);

/// The environment variable giving how many seconds sift-run waits for a
/// cubin that ptxas is still making beside the runs (scripts/gpu-run.sh
/// starts the runs while ptxas works through the modules in the order the
/// runs need them); unset, 0 or not a number: no wait.
inline constexpr const char *kCubinWaitEnv = "SIFT_CUBIN_WAIT";

/// SIFT_CUBIN_WAIT's seconds (0 when unset or not a positive number).
double cubinWaitSeconds();

/// cachedCubin, except that a module whose cubin is still to come (`dir`
/// holds <key>.ptx but neither <key>.cubin nor <key>.failed, which a
/// failed ptxas leaves) is waited for, up to `waitSeconds`. ptxas writes
/// the cubin under another name and renames it, so a cubin that is there
/// is whole. nullopt: no cubin (the caller loads the PTX).
std::optional<std::vector<uint8_t>> awaitCubin(const std::string &dir,
                                               const std::vector<uint8_t> &ptx,
                                               double waitSeconds);

} // namespace sift::rt
