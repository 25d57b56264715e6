//===- harness/CampaignParts.cpp - Progress, repro commands, export -------===//
//
// The parts of a campaign that are not its scheduling: the progress line,
// the command that re-runs one case, the exported artifact of a case and
// the case of a worker that could not report.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"
#include "support/Text.h"

#include "oracles/Compare.h"
#include "generators/ProgramJson.h"
#include "runtime/ExportedCase.h"
#include "runtime/iree/IreeRun.h"
#include "support/FileIO.h"
#include "support/Npy.h"

#include <algorithm>
#include <filesystem>

#include <cstdio>
#include <unistd.h>

namespace sift::harness {

namespace {

/// A duration for the progress line: "42s", "3m05s", "2h07m30s".
std::string clockText(double seconds) {
  int64_t total = static_cast<int64_t>(seconds);
  int64_t h = total / 3600, m = total / 60 % 60, sec = total % 60;
  char text[48];
  if (h > 0)
    std::snprintf(text, sizeof text, "%lldh%02lldm%02llds",
                  static_cast<long long>(h), static_cast<long long>(m),
                  static_cast<long long>(sec));
  else if (m > 0)
    std::snprintf(text, sizeof text, "%lldm%02llds",
                  static_cast<long long>(m), static_cast<long long>(sec));
  else
    std::snprintf(text, sizeof text, "%llds", static_cast<long long>(sec));
  return text;
}

/// "sort,topk,nms": the campaign's families as --family takes them.
std::string familyList(const FuzzOptions &options) {
  std::string families;
  for (gen::Family family : options.families)
    families +=
        (families.empty() ? "" : ",") + std::string(gen::toString(family));
  return families;
}

} // namespace

ProgressLine::ProgressLine(std::optional<double> intervalSeconds,
                           std::optional<double> budgetSeconds,
                           std::optional<uint64_t> count)
    : tty_(isatty(STDERR_FILENO)),
      interval_(intervalSeconds ? *intervalSeconds : (tty_ ? 1.0 : 10.0)),
      budget_(budgetSeconds), count_(count),
      last_(std::chrono::steady_clock::now()) {}

void ProgressLine::tick(const CampaignTally &tally, double seconds,
                        const std::string &running) {
  auto now = std::chrono::steady_clock::now();
  if (interval_ <= 0 ||
      std::chrono::duration<double>(now - last_).count() < interval_)
    return;
  print(tally, seconds, /*final=*/false, running);
  last_ = now;
}

void ProgressLine::finish(const CampaignTally &tally, double seconds) {
  if (interval_ > 0)
    print(tally, seconds, /*final=*/true);
}

void ProgressLine::print(const CampaignTally &tally, double seconds, bool final,
                         const std::string &running) {
  std::string line = "[" + clockText(seconds);
  if (budget_)
    line += " of " + clockText(*budget_);
  line += "] " + std::to_string(tally.cases) + " cases";
  if (count_)
    line += "/" + std::to_string(*count_);
  char rate[64];
  std::snprintf(rate, sizeof(rate), ", %.1f cases/s, ",
                seconds > 0 ? tally.cases / seconds : 0.0);
  line += rate + std::to_string(tally.findings) + " findings";
  // What is left: the cases at this rate, or the time budget, whichever
  // ends first.
  if (!final) {
    std::optional<double> left;
    if (count_ && tally.cases > 0 && seconds > 0)
      left = (static_cast<double>(*count_) - static_cast<double>(tally.cases)) *
             seconds / static_cast<double>(tally.cases);
    if (budget_)
      left = std::min(left.value_or(*budget_), *budget_ - seconds);
    if (left)
      line += ", ETA " + clockText(std::max(0.0, *left));
  }
  if (!running.empty())
    line += "; " + running;
  if (tty_)
    std::fprintf(stderr, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
  else
    std::fprintf(stderr, "%s\n", line.c_str());
}

std::string reproCommand(const FuzzOptions &options, const PipelineTarget &run,
                         uint64_t index) {
  std::string target;
  if (run.target != TargetKind::Host)
    target = " --target=" + std::string(toString(run.target)) +
             (run.chip.empty() ? "" : " --chip=" + run.chip);
  std::string systems;
  for (const std::string &file : options.systemFiles)
    systems += " --system=" + shellQuoted(file);
  return "harness fuzz --pipeline=" +
         pipelineName(run.pipeline, run.filePipeline) + systems + target +
         " --seed=" + std::to_string(options.seed) +
         (options.randomConfig ? " --random-config" : "") +
         (options.frontEnd
              ? " --frontend=" + std::string(gen::toString(*options.frontEnd))
              : "") +
         (options.injectText.empty() ? "" : " --inject=" + options.injectText) +
         (options.exactKeys ? " --exact-keys" : "") +
         (run.target != TargetKind::Host &&
                  options.device != rt::DeviceKind::Cpu
              ? " --device=" + std::string(rt::toString(options.device))
              : "") +
         (options.sizes != gen::SizeMode::Default
              ? " --sizes=" + std::string(gen::toString(options.sizes))
              : "") +
         " --skip=" + std::to_string(index) +
         " --count=1 --family=" + familyList(options) +
         " --inputs=" + std::string(gen::toString(options.inputs));
}

Status writeExportFolder(const std::filesystem::path &final,
                         const std::vector<std::pair<std::string, std::string>> &files,
                         const CaseResult &result) {
  namespace fs = std::filesystem;
  fs::path temp = final.string() + ".tmp-" + std::to_string(getpid());
  std::error_code ec;
  fs::remove_all(temp, ec);
  fs::create_directories(temp, ec);
  if (ec)
    return makeError(temp.string() + ": " + ec.message());
  for (const auto &[name, bytes] : files)
    if (Status s = writeFileAtomic(
            (temp / name).string(),
            reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
        !s)
      return s;
  for (auto [prefix, tensors] : {std::pair{"input", &result.inputs},
                                 {"expected", &result.expected}})
    for (size_t i = 0; i < tensors->size(); ++i)
      if (Status s = writeNpy(
              (temp / (prefix + std::to_string(i) + ".npy")).string(),
              (*tensors)[i]);
          !s)
        return s;
  fs::remove_all(final, ec);
  fs::rename(temp, final, ec);
  if (ec)
    return makeError(final.string() + ": " + ec.message());
  return Status::success();
}

/// Runs with a static finding are exported too: a GPU shows what the
/// finding does to results.
namespace {

/// An IREE case for sift-run: NAME.ireecase/ with module.vmfb, case.json
/// (the case's facts and program model: sift-run judges the outputs under
/// IREE's policy), input<i>.npy and expected<i>.npy; written under a
/// temporary name and renamed into place.
Status exportIreeCase(const FuzzOptions &options, const rt::ExportedCase &info,
                      const CaseResult &result, const std::string &name) {
  nlohmann::json facts = {
      {"format", "sift-iree-case 1"},
      {"name", name},
      {"seed", result.seed},
      {"pipeline", std::string(toString(info.pipeline))},
      {"target", std::string(toString(info.target))},
      {"chip", info.chip},
      {"inputs", info.inputs},
      {"families", info.families},
      {"iree_version", result.systemVersion},
      {"frontend", std::string(gen::toString(result.frontEnd))},
      {"random_config", options.randomConfig},
      {"static_verdict", info.staticVerdict},
      // Its inputs are generateInputs(program, inputs, seed): a GPU host
      // may get the case without its .npy files (sift-run regenerates).
      {"regenerable", true},
      {"program", gen::programToJson(result.program)}};
  // A benchmark's inputs are too large to carry: sift-run --bench makes
  // them (and the reference) from the program and seed.
  if (!info.bench.empty())
    facts["bench"] = info.bench;
  std::string module(result.ireeModule.begin(), result.ireeModule.end());
  return writeExportFolder(
      std::filesystem::path(options.exportDir) / (name + rt::kIreeCaseExtension),
      {{"case.json", facts.dump(1)},
       {"program.mlir", result.mlir},
       {"module.vmfb", module}},
      result);
}

} // namespace

Status exportIreeBench(const FuzzOptions &options, const rt::ExportedCase &info,
                       const CaseResult &result, const std::string &name) {
  return exportIreeCase(options, info, result, name);
}

Status exportCase(const FuzzOptions &options, const PipelineTarget &run,
                  const CaseResult &result, const std::string &name) {
  rt::Artifact artifact = result.artifact;
  artifact.inputs = result.inputs;
  artifact.expected = result.expected;
  rt::ExportedCase info;
  info.seed = result.seed;
  info.pipeline = run.pipeline;
  info.target = run.target;
  info.chip = run.chip.empty() ? std::string(defaultChip(run.target)) : run.chip;
  info.inputs = std::string(gen::toString(options.inputs));
  info.faults = options.injectText;
  info.tolerances = oracle::outputTolerances(result.program);
  info.staticVerdict = std::string(oracle::toString(result.verdict));
  // What regenerates the program from the seed (harness import).
  info.families = familyList(options);
  info.exactKeys = options.exactKeys;
  if (options.sizes == gen::SizeMode::Large) {
    // Too large to carry: the GPU host regenerates them from the seed.
    info.sizes = std::string(gen::toString(options.sizes));
    artifact.inputs.clear();
    artifact.expected.clear();
  }
  const std::string file = name.empty() ? info.name() : name;
  if (run.pipeline == PipelineKind::File)
    return exportSystemCase(options, info, run.filePipeline, result,
                            name.empty() ? std::to_string(result.seed) + "-" +
                                               run.filePipeline + "-" +
                                               std::string(toString(run.target))
                                         : name);
  if (systemOf(run.pipeline) == SystemKind::Iree)
    return exportIreeCase(options, info, result, file);
  rt::setExportedCase(artifact, info);
  std::string path = options.exportDir + "/" + file + ".siftart";
  if (Status s = rt::writeArtifact(path, artifact); !s)
    return makeError(path + ": " + s.message());
  return Status::success();
}

} // namespace sift::harness
