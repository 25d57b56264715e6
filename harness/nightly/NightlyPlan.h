//===- harness/nightly/NightlyPlan.h - What a night fuzzes ------*- C++ -*-===//
//
// A night is a sequence of time slots, each one fuzz campaign over one
// cell: a system's pipeline on a target, one family, one input mode, one
// front end (IREE) and default or random configs. A system described by a
// file (docs/systems.md) has cells of its pipelines on the host, the
// target that runs here. The order puts the cells
// recent nights covered least first (their decayed case counts), ties in a
// seeded order, then repeats; every shard of a night walks the same order
// and splits each slot's cases (`--shard`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/FrontEnd.h"
#include "generators/Policy.h"
#include "support/Targets.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sift::harness {

struct NightCell {
  PipelineKind pipeline = PipelineKind::Cpu;
  TargetKind target = TargetKind::Host;
  gen::Family family = gen::Family::Sort;
  gen::InputMode inputs = gen::InputMode::Mixed;
  /// IREE's front end; none for sift's pipelines.
  std::optional<gen::FrontEnd> frontEnd;
  bool randomConfig = false;
  /// PipelineKind::File: the system file's pipeline, by its full name
  /// ("xla", "onnxruntime-basic").
  std::string filePipeline;

  /// "tileandfuse/nvptx/topk/ties/random", "iree/host/sort/mixed/torch",
  /// "onnxruntime-basic/host/nms/mixed": a file pipeline by its full name
  /// (never one of sift's or IREE's: system files may not take those).
  std::string name() const;
};

/// Which cells a night may draw.
struct NightSelection {
  std::vector<PipelineKind> pipelines;
  /// Pipelines of systems described by files, by their full names: each
  /// gets host cells (when the host is a selected target).
  std::vector<std::string> filePipelines;
  std::vector<TargetKind> targets = {TargetKind::Host, TargetKind::Nvptx,
                                     TargetKind::Amdgpu};
  std::vector<gen::Family> families = {gen::Family::Sort, gen::Family::TopK,
                                       gen::Family::Nms};
  std::vector<gen::InputMode> inputs = {std::begin(gen::kAllInputModes),
                                        std::end(gen::kAllInputModes)};
};

/// Every cell of `selection` a campaign can run: cpu and iree on the host,
/// each GPU pipeline on each GPU target (random configs where a pipeline
/// takes them: every GPU pipeline but IREE's own), IREE's cells once per
/// front end, NMS for IREE through ONNX only, file pipelines on the host.
std::vector<NightCell> nightCells(const NightSelection &selection);

/// The order slots take cells in: ascending `recent` cases (a cell absent
/// from it has none), ties in an order drawn from `seed`.
std::vector<size_t> slotOrder(const std::vector<NightCell> &cells,
                              const std::map<std::string, double> &recent,
                              uint64_t seed);

} // namespace sift::harness
