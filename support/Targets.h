//===- support/Targets.h - Pipelines, targets, chips and limits -*- C++ -*-===//
//
// The vocabulary every part of sift shares, typed: the pipelines sift
// compiles with, the targets it compiles for, and one table of the GPU chips
// it accepts with their limits (workgroup memory). The compiler, the
// oracles, the harness and the LLVM-free runtime tools all read them here;
// names are for flags and files only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sift {

/// The pipelines a case compiles with: sift's own three, then IREE's
/// (its own choice, and TileAndFuse or Distribute forced on a GPU).
enum class PipelineKind {
  Cpu,
  TileAndFuse,
  Distribute,
  Iree,
  IreeTileAndFuse,
  IreeDistribute,
  /// A pipeline of a system described by a file (harness/sut/file/): which
  /// one is named beside the kind (CaseOptions::filePipeline), since system
  /// files are data a command loads. Not in the lists below, and
  /// parsePipelineKind never returns it.
  File,
};

/// The compilers sift tests: its own, IREE, and those described by files.
enum class SystemKind { Sift, Iree, File };

/// Every pipeline kind, in enum order.
inline constexpr PipelineKind kAllPipelineKinds[] = {
    PipelineKind::Cpu,  PipelineKind::TileAndFuse,
    PipelineKind::Distribute, PipelineKind::Iree,
    PipelineKind::IreeTileAndFuse, PipelineKind::IreeDistribute};

/// sift's pipelines (`--pipeline=all`) and IREE's (`--pipeline=iree-all`).
inline constexpr PipelineKind kSiftPipelineKinds[] = {
    PipelineKind::Cpu, PipelineKind::TileAndFuse, PipelineKind::Distribute};
inline constexpr PipelineKind kIreePipelineKinds[] = {
    PipelineKind::Iree, PipelineKind::IreeTileAndFuse,
    PipelineKind::IreeDistribute};

/// Stable names: "cpu", "tileandfuse", "distribute", "iree",
/// "iree-tileandfuse", "iree-distribute".
std::string_view toString(PipelineKind kind);
std::optional<PipelineKind> parsePipelineKind(std::string_view name);

/// A pipeline as findings, case folders and workers store it: sift's or
/// IREE's by its stable name, or a system file's by its full name (kind
/// File, `file` the name: lower-case letters, digits and '-').
struct StoredPipeline {
  PipelineKind kind = PipelineKind::Cpu;
  std::string file;
};
/// Parses a stored pipeline name; nullopt when it is neither a known name
/// nor a well-formed system file pipeline's.
std::optional<StoredPipeline> parseStoredPipeline(std::string_view name);

/// The compiler a pipeline belongs to.
SystemKind systemOf(PipelineKind kind);
/// "sift", "iree", "file".
std::string_view toString(SystemKind kind);


/// What the device code is compiled for.
enum class TargetKind { Host, Nvptx, Amdgpu };

/// Every target kind, in enum order.
inline constexpr TargetKind kAllTargetKinds[] = {
    TargetKind::Host, TargetKind::Nvptx, TargetKind::Amdgpu};

/// Stable names: "host", "nvptx", "amdgpu".
std::string_view toString(TargetKind kind);
std::optional<TargetKind> parseTargetKind(std::string_view name);

/// Whether `pipeline` compiles for `target`: cpu for the host alone, sift's
/// GPU pipelines and IREE's forced ones for nvptx and amdgpu, `iree` for
/// every target; a file system's pipeline for the targets its file lists
/// (checked by the harness: true here).
bool pipelineTargets(PipelineKind pipeline, TargetKind target);

/// The default chip of a target: sm_90 (nvptx), gfx942 (amdgpu), x86-64.
std::string_view defaultChip(TargetKind kind);

/// A GPU chip sift compiles for, and its limits.
struct ChipInfo {
  std::string_view name;
  TargetKind target;
  /// Static workgroup (shared / LDS) memory one workgroup may use.
  int64_t workgroupMemoryBytes;
};

/// Every chip sift accepts (the ones its LLVM compiles for and its
/// runtime can load), with their limits.
extern const ChipInfo kChips[];
extern const size_t kChipCount;

/// The entry of `chip` for `target`; an empty chip is the target's
/// default. The error says what is wrong and lists the valid chips.
Result<ChipInfo> findChip(TargetKind target, std::string_view chip);

/// "sm_60, sm_70, ...": the chips of `target`.
std::string chipList(TargetKind target);

/// The workgroup memory budget of a target or chip name ("nvptx",
/// "sm_90", "amdgpu", "gfx950"); an unknown chip gets its target's default
/// chip's budget (48 KiB when not even the target is known).
int64_t workgroupMemoryBudget(std::string_view targetOrChip);

} // namespace sift
