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

} // namespace sift::rt
