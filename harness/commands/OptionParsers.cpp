//===- harness/OptionParsers.cpp - Values of the harness's flags ----------===//
//
// Shards (from --shard or the batch system's environment), byte sizes,
// durations, fault lists and the (pipeline, target) runs a campaign makes.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"

#include "support/Text.h"

#include <memory>
#include <cmath>
#include <cstdlib>

namespace sift::harness {

Result<std::pair<uint64_t, uint64_t>> shardFrom(const std::string &flag) {
  auto number = [](const std::string &text) -> std::optional<uint64_t> {
    if (text.empty() || text.size() > 12 ||
        text.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoull(text);
  };
  auto env = [](const char *name) -> std::string {
    const char *value = std::getenv(name);
    return value ? value : "";
  };
  std::optional<uint64_t> index, count;
  std::string source;
  if (!flag.empty()) {
    size_t slash = flag.find('/');
    if (slash != std::string::npos) {
      index = number(flag.substr(0, slash));
      count = number(flag.substr(slash + 1));
    }
    source = "--shard=" + flag;
    if (!index || !count)
      return makeError(source + ": expected I/N, for example --shard=0/8");
  } else if (!env("SLURM_ARRAY_TASK_ID").empty()) {
    source = "Slurm's SLURM_ARRAY_TASK_ID/MIN/COUNT";
    std::optional<uint64_t> id = number(env("SLURM_ARRAY_TASK_ID"));
    std::optional<uint64_t> min = env("SLURM_ARRAY_TASK_MIN").empty()
                                      ? std::optional<uint64_t>(0)
                                      : number(env("SLURM_ARRAY_TASK_MIN"));
    count = number(env("SLURM_ARRAY_TASK_COUNT"));
    if (!id || !min || !count || *id < *min)
      return makeError(source + " do not describe a shard");
    index = *id - *min;
  } else if (!env("JOB_COMPLETION_INDEX").empty()) {
    source = "Kubernetes' JOB_COMPLETION_INDEX with SIFT_SHARD_COUNT";
    index = number(env("JOB_COMPLETION_INDEX"));
    count = number(env("SIFT_SHARD_COUNT"));
    if (!index || !count)
      return makeError(source + " do not describe a shard (set "
                                "SIFT_SHARD_COUNT to the Job's completions)");
  } else {
    return std::pair<uint64_t, uint64_t>{0, 1};
  }
  if (*count == 0 || *index >= *count)
    return makeError(source + ": shard " + std::to_string(*index) + " of " +
                     std::to_string(*count) + " does not exist");
  return std::pair<uint64_t, uint64_t>{*index, *count};
}

std::optional<uint64_t> parseByteSize(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  uint64_t scale = 1;
  std::string digits = text;
  switch (text.back()) {
  case 'K': case 'k': scale = uint64_t(1) << 10; break;
  case 'M': case 'm': scale = uint64_t(1) << 20; break;
  case 'G': case 'g': scale = uint64_t(1) << 30; break;
  default: break;
  }
  if (scale != 1)
    digits.pop_back();
  if (digits.empty() || digits.size() > 12 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  uint64_t value = std::stoull(digits) * scale;
  if (value == 0)
    return std::nullopt;
  return value;
}

std::optional<FaultSet> parseFaults(const std::string &list, bool forFuzz,
                                    std::string &error, bool isolated) {
  FaultSet faults;
  if (list.empty())
    return faults;
  for (const std::string &name : splitFields(list, ',')) {
    std::optional<Fault> fault = parseFault(name);
    if (!fault) {
      error = "unknown fault '" + name + "'; valid faults:";
      for (Fault f : kAllFaults)
        error += " " + std::string(toString(f));
      return std::nullopt;
    }
    switch (*fault) {
    case Fault::CrashOnPrime:
    case Fault::CrashAtRandom:
      // Its crash is recovered in the pass manager (the crash reproducer):
      // it ends no campaign, isolated or not.
      break;
    case Fault::HangOnK1:
      if (forFuzz && !isolated) {
        error = "fault '" + name +
                "' hangs the compiler, which would end the campaign: it "
                "needs isolated cases (drop --no-isolate; a GPU --device "
                "turns isolation off)";
        return std::nullopt;
      }
      break;
    case Fault::DistUndistributedWrite:
    case Fault::TfGlobalTemp:
    case Fault::TfKeepUnusedResults:
    case Fault::WgAllocAsMalloc:
    case Fault::DistNoBarrier:
    case Fault::MergeDropLast:
    case Fault::RadixDigitOffByOne:
    case Fault::RadixScanLostCarry:
    case Fault::SplitLostChunkOffset:
    case Fault::SelectMergeOneLevelShort:
    case Fault::RadixLookbackSkipsOne:
    case Fault::RadixTileByBlock:
    case Fault::RadixTailOverrun:
    case Fault::RadixSplitUnzeroed:
    case Fault::ScanBarrierInBranch:
    case Fault::SelectDoneRace:
    case Fault::NmsMaskLastBitLost:
    case Fault::NmsWalkRowNotMerged:
    case Fault::NmsTileLastRowFirstBox:
    case Fault::RadixMatchPeerBitLost:
    case Fault::Bf16OrderF16Layout:
    case Fault::RadixCompactDropsBetter:
    case Fault::RadixFusedBinsKept:
    case Fault::WarpBallotLowHalf:
    case Fault::WarpSyncDropped:
    case Fault::WarpShuffleWaveWidth:
    case Fault::WarpQueueHeadUnfilled:
    case Fault::BareKeysUnchecked:
    case Fault::PdlWaitAtExit:
    case Fault::WgUnaligned:
    case Fault::NmsIouGe:
    case Fault::NmsUnnormalizedCorners:
    case Fault::NmsScoreThresholdGe:
    case Fault::NmsSortGlobalTemp:
      break;
    case Fault::ExportDeviceLocal:
    case Fault::AllocSelectFirst:
      error = "fault '" + name +
              "' is in the runtime, not the compiler: give it to sift-run "
              "(sift-run --inject=" + name + ")";
      return std::nullopt;
    }
    faults.insert(*fault);
  }
  return faults;
}

std::string faultsWithoutPipeline(const FaultSet &faults,
                                  const std::vector<PipelineTarget> &runs) {
  bool sift = false, siftGpu = false;
  for (const PipelineTarget &run : runs) {
    sift |= systemOf(run.pipeline) == SystemKind::Sift;
    siftGpu |= systemOf(run.pipeline) == SystemKind::Sift &&
               run.pipeline != PipelineKind::Cpu;
  }
  for (Fault fault : kAllFaults) {
    if (!faults.contains(fault))
      continue;
    std::string name(toString(fault));
    if (!sift)
      return "fault '" + name +
             "' is planted in sift's compiler, and no selected pipeline is "
             "sift's (cpu, tileandfuse, distribute)";
    // The faults of every sift pipeline: the crash and the hang, and
    // NMS's decomposition, which the cpu pipeline shares.
    bool everyPipeline =
        fault == Fault::CrashOnPrime || fault == Fault::CrashAtRandom ||
        fault == Fault::HangOnK1 || fault == Fault::NmsIouGe ||
        fault == Fault::NmsUnnormalizedCorners ||
        fault == Fault::NmsScoreThresholdGe;
    if (!everyPipeline && !siftGpu)
      return "fault '" + name +
             "' is planted in the GPU pipelines' kernels, and no selected "
             "pipeline is one (tileandfuse, distribute)";
  }
  return "";
}

std::vector<PipelineTarget>
selectPipelineTargets(const std::vector<PipelineKind> &pipelines,
                      const std::vector<TargetKind> &targets,
                      const std::vector<std::string> &chips) {
  auto chipFor = [&](TargetKind target) -> std::string {
    std::string_view prefix = target == TargetKind::Nvptx ? "sm_" : "gfx";
    for (const std::string &chip : chips)
      if (chip.rfind(prefix, 0) == 0)
        return chip;
    return "";
  };
  std::vector<PipelineTarget> runs;
  for (PipelineKind pipeline : pipelines) {
    if (pipeline == PipelineKind::Cpu) {
      runs.push_back({pipeline, TargetKind::Host, ""});
      continue;
    }
    for (TargetKind target : targets)
      if (pipelineTargets(pipeline, target))
        runs.push_back({pipeline, target,
                        target == TargetKind::Host ? "" : chipFor(target)});
  }
  return runs;
}

} // namespace sift::harness
