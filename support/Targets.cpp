//===- support/Targets.cpp - Pipelines, targets, chips and limits ---------===//

#include "support/Targets.h"

namespace sift {

namespace {
constexpr int64_t kKiB = 1024;
} // namespace

// NVIDIA: 48 KiB of static __shared__ memory per block on every chip (more
// needs dynamic shared memory and an opt-in). AMD: 64 KiB of LDS per
// workgroup, 160 KiB on gfx950.
const ChipInfo kChips[] = {
    {"sm_60", TargetKind::Nvptx, 48 * kKiB},
    {"sm_70", TargetKind::Nvptx, 48 * kKiB},
    {"sm_75", TargetKind::Nvptx, 48 * kKiB},
    {"sm_80", TargetKind::Nvptx, 48 * kKiB},
    {"sm_86", TargetKind::Nvptx, 48 * kKiB},
    {"sm_89", TargetKind::Nvptx, 48 * kKiB},
    {"sm_90", TargetKind::Nvptx, 48 * kKiB},
    {"sm_90a", TargetKind::Nvptx, 48 * kKiB},
    {"sm_100", TargetKind::Nvptx, 48 * kKiB},
    {"sm_120", TargetKind::Nvptx, 48 * kKiB},
    {"gfx908", TargetKind::Amdgpu, 64 * kKiB},
    {"gfx90a", TargetKind::Amdgpu, 64 * kKiB},
    {"gfx942", TargetKind::Amdgpu, 64 * kKiB},
    {"gfx950", TargetKind::Amdgpu, 160 * kKiB},
    {"gfx1030", TargetKind::Amdgpu, 64 * kKiB},
    {"gfx1100", TargetKind::Amdgpu, 64 * kKiB},
    {"gfx1200", TargetKind::Amdgpu, 64 * kKiB},
};
const size_t kChipCount = sizeof(kChips) / sizeof(kChips[0]);

std::string_view toString(PipelineKind kind) {
  switch (kind) {
  case PipelineKind::Cpu: return "cpu";
  case PipelineKind::TileAndFuse: return "tileandfuse";
  case PipelineKind::Distribute: return "distribute";
  case PipelineKind::Iree: return "iree";
  case PipelineKind::IreeTileAndFuse: return "iree-tileandfuse";
  case PipelineKind::IreeDistribute: return "iree-distribute";
  case PipelineKind::File: return "file";
  }
  return "?";
}

SystemKind systemOf(PipelineKind kind) {
  switch (kind) {
  case PipelineKind::Cpu:
  case PipelineKind::TileAndFuse:
  case PipelineKind::Distribute: return SystemKind::Sift;
  case PipelineKind::Iree:
  case PipelineKind::IreeTileAndFuse:
  case PipelineKind::IreeDistribute: return SystemKind::Iree;
  case PipelineKind::File: return SystemKind::File;
  }
  return SystemKind::Sift;
}

std::string_view toString(SystemKind kind) {
  switch (kind) {
  case SystemKind::Sift: return "sift";
  case SystemKind::Iree: return "iree";
  case SystemKind::File: return "file";
  }
  return "?";
}

bool pipelineTargets(PipelineKind pipeline, TargetKind target) {
  switch (pipeline) {
  case PipelineKind::Cpu: return target == TargetKind::Host;
  case PipelineKind::Iree:
  case PipelineKind::File: return true;
  default: return target != TargetKind::Host;
  }
}

std::optional<PipelineKind> parsePipelineKind(std::string_view name) {
  for (PipelineKind kind : kAllPipelineKinds)
    if (toString(kind) == name)
      return kind;
  return std::nullopt;
}

std::optional<StoredPipeline> parseStoredPipeline(std::string_view name) {
  if (std::optional<PipelineKind> kind = parsePipelineKind(name))
    return StoredPipeline{*kind, ""};
  if (name.empty() || name == "file" || name[0] < 'a' || name[0] > 'z')
    return std::nullopt;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      return std::nullopt;
  return StoredPipeline{PipelineKind::File, std::string(name)};
}

std::string_view toString(TargetKind kind) {
  switch (kind) {
  case TargetKind::Host: return "host";
  case TargetKind::Nvptx: return "nvptx";
  case TargetKind::Amdgpu: return "amdgpu";
  }
  return "?";
}

std::optional<TargetKind> parseTargetKind(std::string_view name) {
  for (TargetKind kind : kAllTargetKinds)
    if (toString(kind) == name)
      return kind;
  return std::nullopt;
}

std::string_view defaultChip(TargetKind kind) {
  switch (kind) {
  case TargetKind::Host: return "x86-64";
  case TargetKind::Nvptx: return "sm_90";
  case TargetKind::Amdgpu: return "gfx942";
  }
  return "";
}

std::string chipList(TargetKind target) {
  std::string text;
  for (size_t i = 0; i < kChipCount; ++i)
    if (kChips[i].target == target)
      text += (text.empty() ? "" : ", ") + std::string(kChips[i].name);
  return text;
}

Result<ChipInfo> findChip(TargetKind target, std::string_view chip) {
  if (chip.empty())
    chip = defaultChip(target);
  if (target == TargetKind::Host)
    return makeError("target host takes no GPU chip (got '" +
                     std::string(chip) + "')");
  for (size_t i = 0; i < kChipCount; ++i)
    if (kChips[i].name == chip) {
      if (kChips[i].target == target)
        return kChips[i];
      return makeError("chip '" + std::string(chip) + "' is a " +
                       std::string(toString(kChips[i].target)) +
                       " chip, not " + std::string(toString(target)) +
                       "; valid " + std::string(toString(target)) +
                       " chips: " + chipList(target));
    }
  return makeError("unknown " + std::string(toString(target)) + " chip '" +
                   std::string(chip) + "'; valid chips: " + chipList(target));
}

int64_t workgroupMemoryBudget(std::string_view targetOrChip) {
  for (size_t i = 0; i < kChipCount; ++i)
    if (kChips[i].name == targetOrChip)
      return kChips[i].workgroupMemoryBytes;
  auto startsWith = [&](std::string_view prefix) {
    return targetOrChip.substr(0, prefix.size()) == prefix;
  };
  if (targetOrChip == "amdgpu" || startsWith("gfx") || startsWith("amdgcn"))
    return findChip(TargetKind::Amdgpu, "")->workgroupMemoryBytes;
  return findChip(TargetKind::Nvptx, "")->workgroupMemoryBytes;
}

} // namespace sift
