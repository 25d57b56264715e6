//===- runtime/gpu/ModuleCache.cpp - Prebuilt cubins for PTX modules ------===//

#include "runtime/gpu/ModuleCache.h"

#include "runtime/Artifact.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

namespace sift::rt {

std::string moduleKey(const std::vector<uint8_t> &image) {
  char key[17];
  std::snprintf(key, sizeof(key), "%016llx",
                static_cast<unsigned long long>(
                    fnv1a64(image.data(), image.size())));
  return key;
}

std::string cubinCacheDir() {
  const char *dir = std::getenv(kCubinCacheEnv);
  return dir ? dir : "";
}

std::optional<std::vector<uint8_t>> cachedCubin(const std::string &dir,
                                                const std::vector<uint8_t> &ptx) {
  std::ifstream in(dir + "/" + moduleKey(ptx) + ".cubin", std::ios::binary);
  if (!in)
    return std::nullopt;
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof())
    return std::nullopt;
  if (bytes.empty())
    return std::nullopt;
  return bytes;
}

} // namespace sift::rt
