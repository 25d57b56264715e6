//===- harness/FuzzCampaign.cpp - Setting up, resuming, finishing ---------===//
//
// Case i of a campaign with seed S uses the per-case seed caseSeed(S, i), so
// any case can be re-run alone. Progress goes to stderr; the summary to
// stdout and to OUT/summary.json (FuzzSummary.cpp); findings to
// OUT/findings.db and OUT/cases/. This file sets a campaign up (its
// systems, devices and findings database), begins or resumes its run and
// finishes it; running the cases and recording their results is in
// CampaignCases.cpp.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"

#include "generators/Rng.h"
#include "harness/Version.h"
#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace sift::harness {

namespace {

/// "sort,topk,nms".
std::string familyText(const FuzzOptions &options) {
  std::string families;
  for (gen::Family family : options.families)
    families +=
        (families.empty() ? "" : ",") + std::string(gen::toString(family));
  return families;
}

/// Everything that decides which cases a campaign runs and how: a resumed
/// campaign must match it.
std::string resumeKey(const FuzzOptions &options, const std::string &runs,
                      const std::string &steered) {
  return "seed=" + std::to_string(options.seed) + " runs=" + runs +
         (steered.empty() ? "" : " steer=" + steered) +
         " inputs=" + std::string(gen::toString(options.inputs)) +
         " family=" + familyText(options) + " inject=" + options.injectText +
         (options.randomConfig ? " random-config" : "") +
         (options.frontEnd
              ? " frontend=" + std::string(gen::toString(*options.frontEnd))
              : "") +
         (options.exactKeys ? " exact-keys" : "") +
         (options.sizes != gen::SizeMode::Default
              ? " sizes=" + std::string(gen::toString(options.sizes))
              : "") +
         " shard=" + std::to_string(options.shardIndex) + "/" +
         std::to_string(options.shardCount);
}

} // namespace

std::optional<std::string> FuzzCampaign::ireeFamilyProblem() const {
  if (caseOptions_.policy.familyWeights[static_cast<size_t>(
          gen::Family::Nms)] == 0)
    return std::nullopt;
  std::optional<gen::FrontEnd> frontEnd = options_.frontEnd;
  if (frontEnd && *frontEnd != gen::FrontEnd::Onnx)
    return "NMS reaches IREE only through the ONNX front end: "
           "--frontend=" + std::string(gen::toString(*frontEnd)) +
           " takes --family=sort,topk";
  return std::nullopt;
}

std::string runName(const PipelineTarget &run) {
  return pipelineName(run.pipeline, run.filePipeline) + "/" +
         std::string(toString(run.target));
}

FuzzCampaign::FuzzCampaign(const FuzzOptions &options) : options_(options) {
  for (const PipelineTarget &run : options.runs)
    runsText_ += (runsText_.empty() ? "" : ",") + runName(run);
  caseOptions_.inputs = options.inputs;
  caseOptions_.randomConfig = options.randomConfig;
  caseOptions_.frontEnd = options.frontEnd;
  caseOptions_.faults = options.faults;
  caseOptions_.emuKernels =
      options.emuKernels || options.device == rt::DeviceKind::Emu;
  if (options.device != rt::DeviceKind::Cpu)
    caseOptions_.device = options.device;
  // Runs on a GPU compare with a host reference: no inexact op (sigmoid's
  // exp, an ulp apart between libdevice and the host) may decide an order.
  caseOptions_.policy.allowInexactKeys = !options.exactKeys;
  caseOptions_.policy.setSizes(options.sizes);
  caseOptions_.policy.familyWeights = {};
  for (gen::Family family : options.families)
    caseOptions_.policy.familyWeights[static_cast<size_t>(family)] = 1;
  limits_.timeoutSeconds = options.caseTimeoutSeconds;
  limits_.memoryBytes = options.memoryLimitBytes;
}

int FuzzCampaign::run() {
  if (std::optional<int> code = open())
    return *code;
  if (std::optional<int> code = begin())
    return *code;
  // SIGINT/SIGTERM: the cases in flight finish and are stored, then the
  // summary, instead of dying mid-campaign.
  stop_.emplace();
  progress_.emplace(options_.progressSeconds, options_.seconds, options_.count);
  start_ = std::chrono::steady_clock::now();
  runCases();
  return finish();
}

/// Systems described by files: each made now (its version asked), so a
/// system that is not installed is one sentence before anything runs; ""
/// or what is wrong.
std::string FuzzCampaign::openFileSystems() {
  for (const std::string &path : options_.systemFiles)
    if (Status added = systems_.addFile(path); !added.ok())
      return "--system: " + added.message();
  for (const PipelineTarget &run : options_.runs) {
    if (run.pipeline != PipelineKind::File)
      continue;
    if (Result<SystemUnderTest *> system =
            systems_.of(run.pipeline, run.filePipeline);
        !system.ok())
      return system.message();
    const SystemFile *file = *systems_.fileWithPipeline(run.filePipeline);
    if (file->bf16)
      bf16FilePipelines_.insert(run.filePipeline);
    CaseOptions options;
    options.pipeline = run.pipeline;
    options.filePipeline = run.filePipeline;
    limits_.timeoutSeconds =
        systems_.caseTimeoutFor(options, limits_.timeoutSeconds);
    std::error_code ec;
    for (const std::string &path : options_.systemFiles)
      if (std::filesystem::equivalent(path, file->path, ec))
        givenSystemFiles_[run.filePipeline] =
            std::filesystem::absolute(path).lexically_normal().string();
  }
  return "";
}

std::optional<int> FuzzCampaign::open() {
  auto usage = [](const std::string &message) {
    std::fprintf(stderr, "harness: %s\n", message.c_str());
    return kExitUsage;
  };
  if (options_.runs.empty())
    return usage("--pipeline and --target select nothing to run (the GPU "
                 "pipelines target nvptx or amdgpu; host takes cpu and "
                 "iree)");
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok())
    return usage(device.message());
  cpu_ = std::move(*device);
  // GPU runs go to --device when it is a GPU; cpu runs always to the cpu.
  if (options_.device != rt::DeviceKind::Cpu) {
    auto created = rt::createDevice(options_.device);
    if (!created.ok())
      return usage("--device=" + std::string(rt::toString(options_.device)) +
                   ": " + created.message());
    gpu_ = std::move(*created);
  }
  if (std::string problem = openFileSystems(); !problem.empty())
    return usage(problem);
  bool ireeRuns = false;
  for (const PipelineTarget &run : options_.runs)
    ireeRuns |= systemOf(run.pipeline) == SystemKind::Iree;
  if (ireeRuns) {
    for (PipelineTarget &run : options_.runs) {
      if (Result<SystemUnderTest *> system = systems_.of(run.pipeline);
          !system.ok())
        return usage(system.message());
      // A chip the installed IREE takes (never a finding for one it does
      // not): the given one checked, or its preferred default.
      Result<std::string> chip =
          systems_.chipFor(run.pipeline, run.target, run.chip);
      if (!chip.ok())
        return usage(chip.message());
      run.chip = *chip;
    }
    if (std::optional<std::string> why = ireeFamilyProblem())
      return usage(*why);
    // Known root causes tag IREE's findings; a file given by --known must
    // load, the default only when the source tree has it.
    std::string path = options_.knownFile.empty() ? defaultKnownCausesPath()
                                                  : options_.knownFile;
    bool given = !options_.knownFile.empty();
    if (path != "none" && !path.empty() &&
        (given || std::filesystem::exists(path))) {
      Result<KnownCauses> known = KnownCauses::load(path);
      if (!known.ok())
        return usage("--known: " + known.message());
      known_ = std::move(*known);
      if (!options_.exploreKnown && !known_->steerRules().empty())
        caseOptions_.steering =
            std::make_shared<std::vector<SteerRule>>(known_->steerRules());
    }
  }
  // The findings database only once every run can go (a bad chip or a
  // missing system leaves nothing behind).
  auto store = FindingStore::open(options_.outDir);
  if (!store.ok())
    return usage(store.message());
  store_ = std::move(*store);
  if (known_)
    store_->setKnownCauses(&*known_);
  if (!options_.exportDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.exportDir, ec);
    if (ec)
      return usage("--export-artifacts: cannot create " + options_.exportDir +
                   ": " + ec.message());
  }
  // Cases run in child processes unless a GPU device is in this process
  // (the emu device is host code: each worker uses its own copy).
  isolated_ =
      options_.isolate && (!gpu_ || gpu_->kind() == rt::DeviceKind::Emu);
  return std::nullopt;
}

std::optional<int> FuzzCampaign::begin() {
  RunInfo info;
  info.command = options_.commandLine;
  info.pipeline = runsText_;
  info.inputs = std::string(gen::toString(options_.inputs));
  info.seed = options_.seed;
  info.resumeKey = resumeKey(options_, runsText_, steeredText());
  // --resume: go on after the last case an unfinished (stopped or killed)
  // campaign with the same key finished; --count stays the campaign's total.
  firstCase_ = options_.skip;
  std::optional<ResumePoint> resumed;
  auto usage = [](const std::string &message) {
    std::fprintf(stderr, "harness: %s\n", message.c_str());
    return kExitUsage;
  };
  if (options_.resume) {
    auto point = store_->findResumePoint(info.resumeKey);
    if (!point.ok())
      return usage(point.message());
    resumed = *point;
    if (resumed) {
      firstCase_ = std::max(firstCase_, resumed->nextCase);
      if (!resumed->tally.empty()) {
        auto earlier = CampaignTally::fromJson(resumed->tally);
        if (!earlier.ok())
          return usage(store_->databasePath() + ": run " +
                       std::to_string(resumed->run) + ": " +
                       earlier.message());
        tally_ = *earlier;
        earlierSeconds_ = tally_.seconds;
      }
      std::fprintf(stderr, "harness: resuming run %lld at case %llu\n",
                   static_cast<long long>(resumed->run),
                   static_cast<unsigned long long>(firstCase_));
    } else {
      std::fprintf(stderr,
                   "harness: no unfinished campaign like this one in %s: "
                   "starting at case %llu\n",
                   store_->databasePath().c_str(),
                   static_cast<unsigned long long>(firstCase_));
    }
  }
  // Cases an earlier run of this campaign already ran would be counted
  // twice: only --resume (which starts after them) or other cases go on.
  uint64_t end = options_.count ? options_.skip + *options_.count : UINT64_MAX;
  uint64_t ranFrom = 0;
  auto earlier =
      store_->findOverlappingRun(info.resumeKey, firstCase_, end, &ranFrom);
  if (!earlier.ok())
    return usage(earlier.message());
  if (*earlier)
    return usage(
        store_->databasePath() + " already holds cases " +
        std::to_string(ranFrom) + " to " +
        std::to_string((*earlier)->nextCase - 1) + " of this campaign (run " +
        std::to_string((*earlier)->run) +
        "); running them again would count them twice: --resume goes on "
        "after a stopped run, --skip or another --seed runs other cases, "
        "another --out starts a new database");
  info.firstCase = firstCase_;
  nextCase_ = firstCase_;
  auto runId = store_->beginRun(info);
  if (!runId.ok())
    return usage(runId.message());
  runId_ = *runId;
  if (resumed)
    if (Status s = store_->markResumed(resumed->run, runId_); !s)
      return usage(s.message());
  return std::nullopt;
}

int FuzzCampaign::finish() {
  if (failed_)
    return *failed_;
  int signal = stop_->signalNumber();
  int stopCode = stop_->exitCode();
  stoppedBy_ = stop_->signalName();
  stop_.reset(); // a second Ctrl-C ends the process again
  tally_.seconds = earlierSeconds_ + elapsed();
  progress_->finish(tally_, tally_.seconds);
  if (signal && !options_.nightlySlot)
    std::fprintf(stderr,
                 "harness: stopped by %s after case %llu; the campaign is "
                 "resumable: run the same command with --resume\n",
                 stoppedBy_.c_str(),
                 static_cast<unsigned long long>(nextCase_ - 1));
  (void)store_->endRun(runId_, thisRunCases_, tally_.findings, elapsed(),
                       /*finished=*/signal == 0);
  double rate = tally_.seconds > 0 ? tally_.cases / tally_.seconds : 0.0;
  printSummary(rate);
  std::string json = writeSummary(rate);
  if (options_.json) {
    std::fputs(json.c_str(), stdout);
    std::fflush(stdout);
  }
  if (signal)
    return stopCode;
  return tally_.findings ? kExitFindings : kExitOk;
}

} // namespace sift::harness
