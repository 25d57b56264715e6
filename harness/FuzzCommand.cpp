//===- FuzzCommand.cpp - The fuzz loop: seeds to verdicts -----------------===//
//
// Case i of a campaign with seed S uses the per-case seed caseSeed(S, i), so
// any case can be re-run alone. Progress goes to stderr (a rewritten line on
// a terminal, one line per interval otherwise); the summary to stdout and to
// OUT/summary.json; findings to OUT/findings.db and OUT/cases/.
//
//===----------------------------------------------------------------------===//

#include "harness/Commands.h"

#include "generators/InputGenerator.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "generators/Rng.h"
#include "oracles/Reference.h"
#include "harness/CaseRunner.h"
#include "harness/FindingStore.h"
#include "harness/Isolation.h"
#include "harness/Session.h"
#include "harness/StopSignals.h"
#include "harness/WorkerPool.h"
#include "harness/Version.h"
#include "oracles/Compare.h"
#include "oracles/Verdict.h"
#include "runtime/ExportedCase.h"
#include "runtime/support/FileIO.h"
#include "runtime/support/Text.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <unistd.h>

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

std::optional<double> parseDuration(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  double scale = 1;
  std::string number = text;
  switch (text.back()) {
  case 's':
    scale = 1;
    number.pop_back();
    break;
  case 'm':
    scale = 60;
    number.pop_back();
    break;
  case 'h':
    scale = 3600;
    number.pop_back();
    break;
  default: break;
  }
  char *end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() ||
      !std::isfinite(value) || value <= 0)
    return std::nullopt;
  return value * scale;
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
      if (target != TargetKind::Host)
        runs.push_back({pipeline, target, chipFor(target)});
  }
  return runs;
}

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

using Clock = std::chrono::steady_clock;

std::string runName(PipelineKind pipeline, TargetKind target) {
  return std::string(toString(pipeline)) + "/" + std::string(toString(target));
}

std::string formatCounts(const std::map<oracle::Verdict, int64_t> &counts) {
  std::string text;
  for (auto [verdict, count] : counts) {
    if (!text.empty())
      text += " ";
    text +=
        std::string(oracle::toString(verdict)) + "=" + std::to_string(count);
  }
  return text.empty() ? "none" : text;
}

/// "sort,topk,nms": the campaign's families as --family takes them.
std::string familyList(const FuzzOptions &options) {
  std::string families;
  for (gen::Family family : options.families)
    families +=
        (families.empty() ? "" : ",") + std::string(gen::toString(family));
  return families;
}

std::string reproCommand(const FuzzOptions &options, const PipelineTarget &run,
                         uint64_t index) {
  std::string families = familyList(options);
  std::string target;
  if (run.target != TargetKind::Host)
    target = " --target=" + std::string(toString(run.target)) +
             (run.chip.empty() ? "" : " --chip=" + run.chip);
  return "harness fuzz --pipeline=" + std::string(toString(run.pipeline)) +
         target + " --seed=" + std::to_string(options.seed) +
         (options.randomConfig ? " --random-config" : "") +
         (options.injectText.empty() ? "" : " --inject=" + options.injectText) +
         (options.exactKeys ? " --exact-keys" : "") +
         " --skip=" + std::to_string(index) +
         " --count=1 --family=" + families +
         " --inputs=" + std::string(gen::toString(options.inputs));
}

/// Writes `result`'s artifact with its inputs, reference outputs and
/// tolerances to the export folder as <seed>-<pipeline>-<target>.siftart.
/// Runs with a static finding are exported too: a GPU shows what the
/// finding does to results.
Status exportCase(const FuzzOptions &options, const PipelineTarget &run,
                  const CaseResult &result) {
  rt::Artifact artifact = result.artifact;
  artifact.inputs = result.inputs;
  artifact.expected = result.expected;
  rt::ExportedCase info;
  info.seed = result.seed;
  info.pipeline = std::string(toString(run.pipeline));
  info.target = std::string(toString(run.target));
  info.chip = run.chip.empty() ? std::string(defaultChip(run.target)) : run.chip;
  info.inputs = std::string(gen::toString(options.inputs));
  info.faults = options.injectText;
  info.tolerances = oracle::outputTolerances(result.program);
  rt::setExportedCase(artifact, info);
  artifact.meta["case.static-verdict"] =
      std::string(oracle::toString(result.verdict));
  // What regenerates the program from the seed (harness import).
  std::string families = familyList(options);
  artifact.meta["case.families"] = families;
  artifact.meta["case.exact-keys"] = options.exactKeys ? "1" : "0";
  std::string path = options.exportDir + "/" + info.name() + ".siftart";
  if (Status s = rt::writeArtifact(path, artifact); !s)
    return makeError(path + ": " + s.message());
  return Status::success();
}

/// The case of a worker that crashed (recovered, or killed) or timed out,
/// rebuilt from its seed for the case folder: program, inputs, reference
/// and what the worker said; no compile here.
CaseResult unreportedCase(const CaseOptions &options, uint64_t seed,
                          const IsolatedOutcome &outcome) {
  gen::Program program = gen::generateProgram(options.policy, seed);
  std::vector<HostTensor> inputs =
      gen::generateInputs(program, options.inputs, seed);
  CaseResult result = uncompiledCase(options, seed, std::move(program),
                                     std::move(inputs));
  result.reproducer = outcome.reproducer;
  result.log = outcome.stderrTail;
  if (outcome.reported) {
    result.verdict = outcome.verdict;
    result.stage = outcome.stage;
    result.detail = outcome.detail;
    result.compileSeconds = outcome.compileSeconds;
    return result;
  }
  describeUnreported(outcome, result.verdict, result.stage, result.detail);
  return result;
}

} // namespace

int runFuzzCommand(const FuzzOptions &options) {
  if (options.runs.empty()) {
    std::fprintf(stderr, "harness: --pipeline and --target select nothing "
                         "to run (a GPU pipeline needs a GPU target)\n");
    return kExitUsage;
  }
  auto store = FindingStore::open(options.outDir);
  if (!store.ok()) {
    std::fprintf(stderr, "harness: %s\n", store.message().c_str());
    return kExitUsage;
  }
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok()) {
    std::fprintf(stderr, "harness: %s\n", device.message().c_str());
    return kExitUsage;
  }
  // GPU runs go to --device when it is a GPU; cpu runs always to the cpu.
  std::unique_ptr<rt::Device> gpu;
  if (options.device != rt::DeviceKind::Cpu) {
    auto created = rt::createDevice(options.device);
    if (!created.ok()) {
      std::fprintf(stderr, "harness: --device=%s: %s\n",
                   std::string(rt::toString(options.device)).c_str(),
                   created.message().c_str());
      return kExitUsage;
    }
    gpu = std::move(*created);
  }
  if (!options.exportDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.exportDir, ec);
    if (ec) {
      std::fprintf(stderr, "harness: --export-artifacts: cannot create %s: "
                           "%s\n",
                   options.exportDir.c_str(), ec.message().c_str());
      return kExitUsage;
    }
  }
  int64_t exported = 0;
  // Cases run in child processes unless a GPU device is in this process.
  bool isolated = options.isolate && !gpu;
  IsolationLimits limits;
  limits.timeoutSeconds = options.caseTimeoutSeconds;
  limits.memoryBytes = options.memoryLimitBytes;
  std::string runsText;
  for (const PipelineTarget &run : options.runs)
    runsText +=
        (runsText.empty() ? "" : ",") + runName(run.pipeline, run.target);
  RunInfo info;
  info.command = options.commandLine;
  info.pipeline = runsText;
  info.inputs = std::string(gen::toString(options.inputs));
  info.seed = options.seed;
  // What decides the campaign's cases: a resumed campaign must match it.
  std::string families = familyList(options);
  info.resumeKey = "seed=" + std::to_string(options.seed) + " runs=" +
                   runsText + " inputs=" + info.inputs + " family=" +
                   families + " inject=" + options.injectText +
                   (options.randomConfig ? " random-config" : "") +
                   (options.exactKeys ? " exact-keys" : "") + " shard=" +
                   std::to_string(options.shardIndex) + "/" +
                   std::to_string(options.shardCount);
  // --resume: go on after the last case an unfinished (killed) campaign
  // with the same key finished; --count stays the campaign's total.
  uint64_t firstCase = options.skip;
  std::optional<ResumePoint> resumed;
  if (options.resume) {
    auto point = (*store)->findResumePoint(info.resumeKey);
    if (!point.ok()) {
      std::fprintf(stderr, "harness: %s\n", point.message().c_str());
      return kExitUsage;
    }
    resumed = *point;
    if (resumed) {
      firstCase = std::max(firstCase, resumed->nextCase);
      std::fprintf(stderr, "harness: resuming run %lld at case %llu\n",
                   static_cast<long long>(resumed->run),
                   static_cast<unsigned long long>(firstCase));
    } else {
      std::fprintf(stderr, "harness: no unfinished campaign like this one "
                           "in %s: starting at case %llu\n",
                   (*store)->databasePath().c_str(),
                   static_cast<unsigned long long>(firstCase));
    }
  }
  info.firstCase = firstCase;
  auto runId = (*store)->beginRun(info);
  if (!runId.ok()) {
    std::fprintf(stderr, "harness: %s\n", runId.message().c_str());
    return kExitUsage;
  }
  if (resumed)
    if (Status s = (*store)->markResumed(resumed->run, *runId); !s) {
      std::fprintf(stderr, "harness: %s\n", s.message().c_str());
      return kExitUsage;
    }

  CaseOptions caseOptions;
  caseOptions.inputs = options.inputs;
  caseOptions.randomConfig = options.randomConfig;
  caseOptions.faults = options.faults;
  // Runs on a GPU compare with a host reference: no inexact op (sigmoid's
  // exp, an ulp apart between libdevice and the host) may decide an order.
  caseOptions.policy.allowInexactKeys = !options.exactKeys;
  caseOptions.policy.familyWeights = {};
  for (gen::Family family : options.families)
    caseOptions.policy.familyWeights[static_cast<size_t>(family)] = 1;

  Session session;
  std::map<oracle::Verdict, int64_t> counts;
  std::map<std::string, std::map<oracle::Verdict, int64_t>> countsByRun;
  int64_t cases = 0, findings = 0;
  double compileSeconds = 0, runSeconds = 0;
  bool tty = isatty(STDERR_FILENO);
  double progressSeconds =
      options.progressSeconds ? *options.progressSeconds : (tty ? 1.0 : 10.0);
  // SIGINT/SIGTERM: the loop finishes the current case, stores it and
  // prints the summary instead of dying mid-campaign.
  std::optional<StopSignals> stop(std::in_place);
  auto start = Clock::now();
  auto lastProgress = start;
  auto elapsed = [&] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  auto progress = [&](bool final) {
    double seconds = elapsed();
    std::string line = "[" + clockText(seconds);
    if (options.seconds)
      line += " of " + clockText(*options.seconds);
    line += "] " + std::to_string(cases) + " cases";
    if (options.count)
      line += "/" + std::to_string(*options.count);
    char rate[64];
    std::snprintf(rate, sizeof(rate), ", %.1f cases/s, ",
                  seconds > 0 ? cases / seconds : 0.0);
    line += rate + std::to_string(findings) + " findings";
    if (tty)
      std::fprintf(stderr, "\r%s\033[K%s", line.c_str(), final ? "\n" : "");
    else
      std::fprintf(stderr, "%s\n", line.c_str());
  };

  uint64_t limit = options.count.value_or(UINT64_MAX);
  uint64_t done = firstCase - options.skip; // cases an earlier run did
  limit = limit > done ? limit - done : 0;
  // A failure of the harness itself (not a finding) ends the campaign.
  std::optional<int> failed;
  auto fail = [&](const std::string &message) {
    std::fprintf(stderr, "harness: %s\n", message.c_str());
    if (!failed)
      failed = kExitUsage;
  };
  auto deviceFor = [&](const PipelineTarget &run) -> rt::Device & {
    return gpu && deviceRunsTarget(*gpu, run.target) ? *gpu : **device;
  };
  auto optionsFor = [&](const PipelineTarget &run) {
    CaseOptions o = caseOptions;
    o.pipeline = run.pipeline;
    o.target = run.target;
    o.chip = run.chip;
    return o;
  };
  // Counts and stores the result of one run of case i.
  auto record = [&](uint64_t i, const PipelineTarget &run,
                    const CaseOptions &o, const CaseResult &result) {
    if (!options.saveCasesDir.empty())
      if (auto saved = writeCaseFolder(options.saveCasesDir, result, o,
                                       reproCommand(options, run, i));
          !saved.ok())
        return fail("--save-cases: " + saved.message());
    ++counts[result.verdict];
    ++countsByRun[runName(run.pipeline, run.target)][result.verdict];
    compileSeconds += result.compileSeconds;
    runSeconds += result.runSeconds;
    if (!oracle::isFinding(result.verdict))
      return;
    ++findings;
    auto dir = (*store)->recordFinding(*runId, result, o,
                                       reproCommand(options, run, i));
    std::fprintf(stderr,
                 "%sfinding: case %llu (seed 0x%016llx) %s: %s at %s: %s\n",
                 tty ? "\r\033[K" : "", static_cast<unsigned long long>(i),
                 static_cast<unsigned long long>(result.seed),
                 runName(run.pipeline, run.target).c_str(),
                 std::string(oracle::toString(result.verdict)).c_str(),
                 result.stage.c_str(),
                 result.detail.substr(0, result.detail.find('\n')).c_str());
    if (!dir.ok())
      fail("could not store the finding: " + dir.message());
  };
  // The result of one isolated run, from what its child reported.
  auto fromOutcome = [&](uint64_t seed, const PipelineTarget &run,
                         const CaseOptions &o,
                         const IsolatedOutcome &outcome) {
    CaseResult result;
    if (!outcome.startError.empty()) {
      fail("cannot start an isolated case: " + outcome.startError);
      return result;
    }
    if (!outcome.reported && !outcome.timedOut && outcome.signal == 0 &&
        !options.exportDir.empty()) {
      fail(outcome.stderrTail);
      return result;
    }
    if (outcome.reported && outcome.compiled && !options.exportDir.empty())
      ++exported;
    if (outcome.result) {
      // The worker sent the whole case: nothing to compute again.
      result = *outcome.result;
    } else if (outcome.reported && !oracle::isFinding(outcome.verdict) &&
               options.saveCasesDir.empty()) {
      result.seed = seed;
      result.pipeline = run.pipeline;
      result.target = run.target;
      result.verdict = outcome.verdict;
      result.compileSeconds = outcome.compileSeconds;
      result.runSeconds = outcome.runSeconds;
      result.ran = outcome.ran;
    } else if (outcome.reported &&
               outcome.verdict != oracle::Verdict::CompileCrash) {
      // A finding that did not crash its worker re-runs here for the case
      // folder (everything is derived from the seed).
      result = runGeneratedCase(session, deviceFor(run), o, seed);
    } else {
      result = unreportedCase(o, seed, outcome);
    }
    return result;
  };
  // A worker's request: "CASE RUN" (the case index and the index of its
  // (pipeline, target) run); the worker derives the rest as this process
  // would, and exports its artifact where it was compiled.
  auto workerHandler = [&](const std::string &request,
                           const std::function<void(const char *)> &phase) {
    unsigned long long i = 0;
    size_t r = 0;
    std::sscanf(request.c_str(), "%llu %zu", &i, &r);
    const PipelineTarget &run = options.runs[r];
    CaseOptions inWorker = optionsFor(run);
    inWorker.onPhase = phase;
    CaseResult done = runGeneratedCase(session, deviceFor(run), inWorker,
                                       gen::caseSeed(options.seed, i));
    if (!options.exportDir.empty() && done.compiled)
      if (Status s = exportCase(options, run, done); !s) {
        std::fprintf(stderr, "harness: --export-artifacts: %s\n",
                     s.message().c_str());
        std::fflush(stderr);
        _exit(3);
      }
    return done;
  };
  // After the last run of case i: it is stored, a killed campaign resumes
  // at i + 1.
  // Cases whose every run is recorded (with --jobs, `cases` also counts
  // the ones in flight).
  int64_t casesDone = 0;
  auto caseDone = [&](uint64_t i) {
    ++casesDone;
    if (Status s = (*store)->recordProgress(*runId, i + 1, casesDone); !s)
      fail(s.message());
    if (progressSeconds > 0 &&
        std::chrono::duration<double>(Clock::now() - lastProgress).count() >=
            progressSeconds) {
      progress(false);
      lastProgress = Clock::now();
    }
  };

  // Isolated cases: up to --jobs children at once, delivered in case order
  // (one job: one child at a time).
  std::unique_ptr<WorkerPool> pool;
  if (isolated)
    pool = std::make_unique<WorkerPool>(options.jobs, workerHandler, nullptr,
                                        limits);
  for (uint64_t n = 0; n < limit && !failed; ++n) {
    if (stop->requested() || (options.seconds && elapsed() >= *options.seconds))
      break;
    uint64_t i = firstCase + n;
    if (i % options.shardCount != options.shardIndex)
      continue; // Another shard's case.
    uint64_t seed = gen::caseSeed(options.seed, i);
    ++cases;
    for (size_t r = 0; r < options.runs.size(); ++r) {
      const PipelineTarget &run = options.runs[r];
      CaseOptions o = optionsFor(run);
      bool last = r + 1 == options.runs.size();
      if (pool) {
        pool->submit(std::to_string(i) + " " + std::to_string(r),
                     !options.saveCasesDir.empty(),
                     [&, i, seed, r, o, last](const IsolatedOutcome &outcome) {
                       if (failed)
                         return;
                       const PipelineTarget &run = options.runs[r];
                       CaseResult result = fromOutcome(seed, run, o, outcome);
                       if (failed)
                         return;
                       record(i, run, o, result);
                       if (last && !failed)
                         caseDone(i);
                     });
        continue;
      }
      CaseResult result = runGeneratedCase(session, deviceFor(run), o, seed);
      if (!options.exportDir.empty() && result.compiled) {
        if (Status s = exportCase(options, run, result); !s) {
          fail("--export-artifacts: " + s.message());
          break;
        }
        ++exported;
      }
      record(i, run, o, result);
      if (last && !failed)
        caseDone(i);
    }
  }
  // After a failure the children in flight are killed, not waited for.
  if (pool && !failed)
    pool->drain();
  pool.reset();
  if (failed)
    return *failed;
  double seconds = elapsed();
  bool interrupted = stop->requested();
  stop.reset(); // a second Ctrl-C ends the process again
  if (progressSeconds > 0)
    progress(true);
  if (interrupted)
    std::fprintf(stderr, "harness: interrupted; stopped after %lld cases\n",
                 static_cast<long long>(cases));
  (void)(*store)->endRun(*runId, cases, findings, seconds);

  double rate = seconds > 0 ? cases / seconds : 0.0;
  std::printf("sift fuzz: runs=%s seed=%llu inputs=%s%s\n", runsText.c_str(),
              static_cast<unsigned long long>(options.seed),
              std::string(gen::toString(options.inputs)).c_str(),
              options.shardCount > 1
                  ? (" shard=" + std::to_string(options.shardIndex) + "/" +
                     std::to_string(options.shardCount))
                        .c_str()
                  : "");
  std::printf("cases: %lld in %.2f s (%.1f cases/s; compile %.2f s, run "
              "%.2f s)\n",
              static_cast<long long>(cases), seconds, rate, compileSeconds,
              runSeconds);
  std::printf("verdicts: %s\n", formatCounts(counts).c_str());
  if (options.runs.size() > 1)
    for (const auto &[name, runCounts] : countsByRun)
      std::printf("  %s: %s\n", name.c_str(), formatCounts(runCounts).c_str());
  std::printf("findings: %lld (database %s)\n",
              static_cast<long long>(findings),
              (*store)->databasePath().c_str());
  if (!options.exportDir.empty())
    std::printf("exported: %lld artifacts to %s (run them with sift-run %s "
                "--device=cuda)\n",
                static_cast<long long>(exported), options.exportDir.c_str(),
                options.exportDir.c_str());

  nlohmann::json summary = {
      {"runs", runsText},
      {"sift_version", siftVersion()},
      {"seed", options.seed},
      {"inputs", std::string(gen::toString(options.inputs))},
      {"cases", cases},
      {"findings", findings},
      {"seconds", seconds},
      {"cases_per_second", rate},
      {"compile_seconds", compileSeconds},
      {"run_seconds", runSeconds},
  };
  for (auto [verdict, count] : counts)
    summary["verdicts"][std::string(oracle::toString(verdict))] = count;
  for (const auto &[name, runCounts] : countsByRun)
    for (auto [verdict, count] : runCounts)
      summary["runs_verdicts"][name][std::string(oracle::toString(verdict))] =
          count;
  std::string text = summary.dump(2) + "\n";
  (void)writeFileAtomic(options.outDir + "/summary.json",
                        reinterpret_cast<const uint8_t *>(text.data()),
                        text.size());
  return findings ? kExitFindings : kExitOk;
}

} // namespace sift::harness
