//===- harness/nightly/NightlyPlan.cpp - What a night fuzzes --------------===//

#include "harness/nightly/NightlyPlan.h"

#include "generators/Rng.h"

#include <algorithm>
#include <numeric>

namespace sift::harness {

std::string NightCell::name() const {
  std::string text = (pipeline == PipelineKind::File
                          ? filePipeline
                          : std::string(toString(pipeline))) +
                     "/" +
                     std::string(toString(target)) + "/" +
                     std::string(gen::toString(family)) + "/" +
                     std::string(gen::toString(inputs));
  if (frontEnd)
    text += "/" + std::string(gen::toString(*frontEnd));
  if (randomConfig)
    text += "/random";
  return text;
}

namespace {

/// The targets `pipeline` runs on, among the selected ones.
std::vector<TargetKind> targetsOf(PipelineKind pipeline,
                                  const std::vector<TargetKind> &targets) {
  std::vector<TargetKind> out;
  bool host = pipeline == PipelineKind::Cpu || pipeline == PipelineKind::Iree;
  bool gpu = pipeline != PipelineKind::Cpu;
  for (TargetKind target : targets)
    if ((target == TargetKind::Host && host) ||
        (target != TargetKind::Host && gpu))
      out.push_back(target);
  return out;
}

} // namespace

std::vector<NightCell> nightCells(const NightSelection &selection) {
  std::vector<NightCell> cells;
  for (PipelineKind pipeline : selection.pipelines) {
    if (pipeline == PipelineKind::File)
      continue; // named by selection.filePipelines
    bool iree = systemOf(pipeline) == SystemKind::Iree;
    std::vector<std::optional<gen::FrontEnd>> frontEnds = {std::nullopt};
    if (iree)
      frontEnds = {gen::FrontEnd::LinalgExt, gen::FrontEnd::Torch,
                   gen::FrontEnd::Onnx};
    for (TargetKind target : targetsOf(pipeline, selection.targets)) {
      bool configs = target != TargetKind::Host && pipeline != PipelineKind::Iree;
      for (gen::Family family : selection.families)
        for (gen::InputMode inputs : selection.inputs)
          for (const auto &frontEnd : frontEnds) {
            if (iree && family == gen::Family::Nms &&
                frontEnd != gen::FrontEnd::Onnx)
              continue;
            for (bool random : {false, true}) {
              if (random && !configs)
                continue;
              cells.push_back(
                  {pipeline, target, family, inputs, frontEnd, random, ""});
            }
          }
    }
  }
  // A file system's GPU targets run on the GPU host (exported), never in
  // a night's slots: its cells are the host's.
  if (std::count(selection.targets.begin(), selection.targets.end(),
                 TargetKind::Host))
    for (const std::string &pipeline : selection.filePipelines)
      for (gen::Family family : selection.families)
        for (gen::InputMode inputs : selection.inputs)
          cells.push_back({PipelineKind::File, TargetKind::Host, family,
                           inputs, std::nullopt, false, pipeline});
  return cells;
}

std::vector<size_t> slotOrder(const std::vector<NightCell> &cells,
                              const std::map<std::string, double> &recent,
                              uint64_t seed) {
  std::vector<size_t> order(cells.size());
  std::iota(order.begin(), order.end(), 0);
  gen::Rng rng(seed);
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[static_cast<size_t>(rng.uniform(
                                0, static_cast<int64_t>(i) - 1))]);
  auto casesOf = [&](size_t i) {
    auto it = recent.find(cells[i].name());
    return it == recent.end() ? 0.0 : it->second;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return casesOf(a) < casesOf(b);
  });
  return order;
}

} // namespace sift::harness
