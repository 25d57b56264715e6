//===- harness/nightly/NightlySlots.cpp - A night's fuzz slots ------------===//
//
// The nightly's fuzz phase: the night's cells (sift's pipelines, IREE's
// when installed, and the pipelines of systems described by files when
// asked for), each slot's campaign over one cell (its options and the
// `harness fuzz` command that makes the same campaign alone), and the slots
// until the fuzz share of the budget is spent. The phases around it are in
// Nightly.cpp.
//
//===----------------------------------------------------------------------===//

#include "harness/nightly/Nightly.h"
#include "harness/commands/Commands.h"

#include "generators/Rng.h"
#include "harness/case/CaseResult.h"
#include "harness/sut/Systems.h"

#include <algorithm>
#include <cstdio>

namespace sift::harness {

std::vector<NightCell> Night::cells() {
  NightSelection selection = options_.selection;
  if (!options_.pipelinesGiven) {
    selection.pipelines.assign(std::begin(kSiftPipelineKinds),
                               std::end(kSiftPipelineKinds));
    Systems systems;
    auto iree = systems.of(PipelineKind::Iree);
    if (iree.ok())
      selection.pipelines.insert(selection.pipelines.end(),
                                 std::begin(kIreePipelineKinds),
                                 std::end(kIreePipelineKinds));
    else
      std::printf("nightly: IREE's cells are left out: %s\n",
                  iree.message().c_str());
  }
  return nightCells(selection);
}

namespace {

/// The `harness fuzz` command of a slot's campaign `o` over `cell`: the
/// same cases, alone.
std::string slotCommand(const NightCell &cell, const FuzzOptions &o) {
  std::string fuzz = "harness fuzz --pipeline=" +
                     pipelineName(cell.pipeline, cell.filePipeline);
  for (const std::string &file : o.systemFiles)
    fuzz += " --system=" + file;
  fuzz += " --target=" + std::string(toString(cell.target)) +
          " --seed=" + std::to_string(o.seed) +
          " --family=" + std::string(gen::toString(cell.family)) +
          " --inputs=" + std::string(gen::toString(cell.inputs));
  if (cell.frontEnd)
    fuzz += " --frontend=" + std::string(gen::toString(*cell.frontEnd));
  if (cell.randomConfig)
    fuzz += " --random-config";
  if (systemOf(cell.pipeline) == SystemKind::Iree) {
    if (!o.knownFile.empty())
      fuzz += " --known=" + o.knownFile;
    if (o.exploreKnown)
      fuzz += " --explore-known";
  }
  if (!o.injectText.empty())
    fuzz += " --inject=" + o.injectText;
  if (cell.target != TargetKind::Host && o.device != rt::DeviceKind::Cpu)
    fuzz += " --device=" + std::string(rt::toString(o.device));
  return fuzz;
}

} // namespace

FuzzOptions Night::slotOptions(const NightCell &cell, uint64_t slot,
                               double seconds) const {
  FuzzOptions o;
  // The target's default chip; an IREE run's is one the installed IREE
  // takes (the campaign picks it, IreeChips.h).
  o.runs = {PipelineTarget{cell.pipeline, cell.target, "", cell.filePipeline}};
  // A file pipeline's system file, when --system gave it (shipped ones are
  // found by the pipeline's name).
  if (cell.pipeline == PipelineKind::File)
    if (auto file = options_.systemFiles.find(cell.filePipeline);
        file != options_.systemFiles.end())
      o.systemFiles = {file->second};
  o.seconds = seconds;
  uint64_t state = state_.seed ^ (slot * 0x9e3779b97f4a7c15ull);
  o.seed = gen::splitmix64(state);
  o.families = {cell.family};
  o.inputs = cell.inputs;
  o.randomConfig = cell.randomConfig;
  o.frontEnd = cell.frontEnd;
  if (systemOf(cell.pipeline) == SystemKind::Sift) {
    o.faults = options_.faults;
    o.injectText = options_.injectText;
  }
  o.knownFile = options_.knownFile;
  o.exploreKnown = options_.exploreKnown;
  o.outDir = options_.outDir;
  o.jobs = options_.jobs;
  o.shardIndex = options_.shardIndex;
  o.shardCount = options_.shardCount;
  o.caseTimeoutSeconds = options_.caseTimeoutSeconds;
  o.device = options_.device;
  o.progressSeconds = 30;
  o.nightlySlot = true;
  o.commandLine = "nightly slot " + std::to_string(slot) + " cell " +
                  cell.name() + ": " + slotCommand(cell, o);
  return o;
}

/// The slots until the fuzz share of the budget is spent; the exit code
/// of a slot stopped by a signal, else nullopt.
Result<std::optional<int>> Night::fuzzSlots() {
  std::vector<NightCell> all = cells();
  if (all.empty())
    return makeError("no cell to fuzz: the selected pipelines, targets and "
                     "families leave none");
  std::map<std::string, double> recent;
  if (previous_) {
    auto cells = previous_->recentCells();
    if (!cells.ok())
      return cells.error();
    recent = *cells;
  }
  std::vector<size_t> order = slotOrder(all, recent, state_.seed);
  double fuzzEnd = options_.seconds * 0.8;
  bool resumingSlot = resumed_;
  while (spent() + 5 < fuzzEnd) {
    const NightCell &cell = all[order[state_.slot % order.size()]];
    double seconds = std::min(options_.slotSeconds, fuzzEnd - spent());
    FuzzOptions slot = slotOptions(cell, state_.slot, seconds);
    slot.resume = resumingSlot;
    resumingSlot = false;
    std::printf("nightly: slot %llu, %s, %.0f s (%.0f of %.0f s spent)\n",
                static_cast<unsigned long long>(state_.slot),
                cell.name().c_str(), seconds, spent(), options_.seconds);
    std::fflush(stdout);
    int code = runFuzzCommand(slot);
    if (code >= 128)
      return std::optional<int>(code);
    if (code == kExitUsage)
      std::printf("nightly: slot %llu could not run (exit 2); going on\n",
                  static_cast<unsigned long long>(state_.slot));
    ++state_.slot;
    if (Status s = saveState(); !s.ok())
      return s.error();
  }
  return std::optional<int>();
}

} // namespace sift::harness
