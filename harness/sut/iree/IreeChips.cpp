//===- harness/sut/iree/IreeChips.cpp - Chips the installed IREE takes ----===//

#include "harness/sut/iree/IreeChips.h"

#include "runtime/iree/IreeRun.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <tuple>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// One elementwise dispatch: enough for iree-compile to build a GPU
/// executable, and so to check its target.
constexpr const char *kProbe =
    R"(func.func @probe(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
)";

constexpr double kProbeSeconds = 120;

std::mutex cacheMutex;
std::map<std::tuple<std::string, TargetKind, std::string>, bool> cache;

bool probe(const rt::IreeToolchain &iree, TargetKind target,
           const std::string &chip) {
  std::string pattern =
      (fs::temp_directory_path() / "sift-iree-chip-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    return false;
  fs::path dir = pattern;
  std::ofstream(dir / "probe.mlir") << kProbe;
  rt::IreeModule module;
  rt::ToolRun run =
      rt::ireeCompile(iree, (dir / "probe.mlir").string(), target, chip, {},
                      dir.string(), kProbeSeconds, module);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return !run.timedOut && run.signal == 0 && run.status == 0;
}

std::vector<std::string> preferences(TargetKind target) {
  switch (target) {
  case TargetKind::Nvptx: return {"sm_90", "sm_89", "sm_86", "sm_80"};
  case TargetKind::Amdgpu: return {"gfx942", "gfx90a", "gfx950"};
  case TargetKind::Host: break;
  }
  return {};
}

std::string joined(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

} // namespace

bool ireeAcceptsChip(const rt::IreeToolchain &iree, TargetKind target,
                     const std::string &chip) {
  if (target == TargetKind::Host)
    return true;
  auto key = std::make_tuple(iree.compile, target, chip);
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    if (auto found = cache.find(key); found != cache.end())
      return found->second;
  }
  bool accepted = probe(iree, target, chip);
  std::lock_guard<std::mutex> lock(cacheMutex);
  cache[key] = accepted;
  return accepted;
}

std::vector<std::string> ireeAcceptedChips(const rt::IreeToolchain &iree,
                                           TargetKind target) {
  std::vector<std::string> accepted;
  for (size_t i = 0; i < kChipCount; ++i)
    if (kChips[i].target == target &&
        ireeAcceptsChip(iree, target, std::string(kChips[i].name)))
      accepted.emplace_back(kChips[i].name);
  return accepted;
}

Result<std::string> ireeChipFor(const rt::IreeToolchain &iree,
                                TargetKind target, const std::string &chip) {
  if (target == TargetKind::Host)
    return std::string();
  std::string what = "IREE " + iree.version + " (" + iree.compile + ")";
  if (chip.empty()) {
    for (const std::string &preferred : preferences(target))
      if (ireeAcceptsChip(iree, target, preferred))
        return preferred;
    return makeError(
        what + " accepts none of the " + std::string(toString(target)) +
        " chips " + joined(preferences(target)) + "; it accepts: " +
        joined(ireeAcceptedChips(iree, target)) + " (give one with --chip)");
  }
  if (ireeAcceptsChip(iree, target, chip))
    return chip;
  return makeError("--chip=" + chip + ": " + what +
                   " does not compile for it; its " +
                   std::string(toString(target)) +
                   " chips: " + joined(ireeAcceptedChips(iree, target)));
}

} // namespace sift::harness
