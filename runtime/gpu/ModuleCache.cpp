//===- runtime/gpu/ModuleCache.cpp - Prebuilt cubins for PTX modules ------===//

#include "runtime/gpu/ModuleCache.h"

#include "runtime/Artifact.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

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

double cubinWaitSeconds() {
  const char *text = std::getenv(kCubinWaitEnv);
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  double seconds = std::strtod(text, &end);
  return *end == '\0' && seconds > 0 ? seconds : 0;
}

std::optional<std::vector<uint8_t>> awaitCubin(const std::string &dir,
                                               const std::vector<uint8_t> &ptx,
                                               double waitSeconds) {
  std::string stem = dir + "/" + moduleKey(ptx);
  std::error_code ec;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(waitSeconds);
  while (waitSeconds > 0 && std::filesystem::exists(stem + ".ptx", ec) &&
         !std::filesystem::exists(stem + ".cubin", ec) &&
         !std::filesystem::exists(stem + ".failed", ec) &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return cachedCubin(dir, ptx);
}

} // namespace sift::rt
