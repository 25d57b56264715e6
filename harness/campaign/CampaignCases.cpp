//===- harness/campaign/CampaignCases.cpp - Running a campaign's cases ----===//
//
// The cases of a campaign that FuzzCampaign.cpp set up and began: each
// case run in this process or in a worker (and run again once when its
// worker was killed from outside), its result recorded (tally, case
// folder, finding and dossier) and its progress stored, so that a stopped
// campaign resumes after the last case it finished.
//
//===----------------------------------------------------------------------===//

#include "harness/campaign/FuzzCampaign.h"
#include "harness/case/CaseDossier.h"
#include "harness/case/CaseFolder.h"

#include "generators/Rng.h"
#include "harness/case/IsolatedCase.h"
#include "harness/sut/iree/IreeCompiler.h"

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace sift::harness {

void FuzzCampaign::runCases() {
  // Isolated cases: up to --jobs workers at once, delivered in case order.
  if (isolated_)
    pool_ = std::make_unique<WorkerPool>(
        options_.jobs,
        [this](const std::string &request,
               const std::function<void(const char *)> &phase) {
          return workerCase(request, phase);
        },
        nullptr, limits_);
  if (pool_)
    // The progress line goes on while cases compile or run (an IREE
    // compile may take a minute), naming the longest case in flight.
    pool_->setIdle([this] {
      std::string running;
      std::vector<WorkerPool::Busy> busy = pool_->busy();
      if (!busy.empty() && busy.front().seconds >= 2) {
        char text[160];
        std::snprintf(text, sizeof text, "%zu running, one in %s for %.0f s",
                      busy.size(), busy.front().phase.c_str(),
                      busy.front().seconds);
        running = text;
      }
      progress_->tick(tally_, earlierSeconds_ + elapsed(), running);
    });
  uint64_t limit = options_.count.value_or(UINT64_MAX);
  uint64_t done = firstCase_ - options_.skip; // cases earlier runs did
  limit = limit > done ? limit - done : 0;
  bool cut = false; // stopped or past --time, not at the last case
  for (uint64_t n = 0; n < limit && !failed_; ++n) {
    cut = stop_->requested() ||
          (options_.seconds && elapsed() >= *options_.seconds);
    if (cut)
      break;
    uint64_t i = firstCase_ + n;
    if (i % options_.shardCount != options_.shardIndex)
      continue; // Another shard's case.
    ++thisRunCases_;
    for (size_t r = 0; r < options_.runs.size() && !failed_; ++r) {
      bool last = r + 1 == options_.runs.size();
      if (pool_)
        submitOne(i, r, last);
      else
        runOne(i, r, last);
    }
  }
  // Past the deadline only the cases in flight are waited for: the queued
  // ones are dropped whole (a later --resume runs them), so a 5-second
  // slot does not become 8.
  if (pool_ && cut && !failed_)
    thisRunCases_ -= static_cast<int64_t>(
        pool_->dropUnstarted([](const std::string &request) {
          return request.size() > 2 &&
                 request.compare(request.size() - 2, 2, " 0") == 0;
        }));
  // After a failure the workers in flight are killed, not waited for.
  if (pool_ && !failed_)
    pool_->drain();
  pool_.reset();
}

CaseOptions FuzzCampaign::optionsFor(size_t r) const {
  const PipelineTarget &run = options_.runs[r];
  CaseOptions o = caseOptions_;
  o.pipeline = run.pipeline;
  o.filePipeline = run.filePipeline;
  o.target = run.target;
  o.chip = run.chip;
  // NMS reaches IREE only through the ONNX front end (open() refuses
  // NMS-only campaigns with another front end). IREE's math library is
  // not the host's: no inexact op (sigmoid) may decide an order there
  // either.
  if (systemOf(run.pipeline) == SystemKind::Iree) {
    bool onnx = !o.frontEnd || *o.frontEnd == gen::FrontEnd::Onnx;
    if (!onnx)
      o.policy.familyWeights[static_cast<size_t>(gen::Family::Nms)] = 0;
    // IREE's ONNX NonMaxSuppression documents one batch and one class:
    // programs beyond that would only be set aside uncompiled.
    o.policy.nms.maxBatches = 1;
    o.policy.nms.maxClasses = 1;
    o.policy.allowInexactKeys = false;
    // Not driven yet: iree-run-module cannot write a bf16 result as .npy,
    // and IREE's bf16 arithmetic has not been checked by hand.
    o.policy.allowBf16 = false;
  }
  // Nor in a system described by a file: its math library is its own.
  // A file given with --system is recorded in its case folders (replay
  // finds it again); a shipped one is found by its pipeline's name.
  if (run.pipeline == PipelineKind::File) {
    o.policy.allowInexactKeys = false;
    // bf16 only for a system whose file says its runner carries it
    // (`bf16 = true`: the shipped XLA's reads and writes ml_dtypes' bf16
    // and asks XLA to round every op, as sift's reference does).
    o.policy.allowBf16 = bf16FilePipelines_.count(run.filePipeline) > 0;
    if (auto given = givenSystemFiles_.find(run.filePipeline);
        given != givenSystemFiles_.end())
      o.systemFile = given->second;
  }
  return o;
}

SystemUnderTest &FuzzCampaign::systemFor(const PipelineTarget &run) {
  // open() made every system a run needs.
  return **systems_.of(run.pipeline, run.filePipeline);
}

rt::Device &FuzzCampaign::deviceFor(const PipelineTarget &run) {
  return gpu_ && systemFor(run).runsOn(*gpu_, run.target) ? *gpu_ : *cpu_;
}

void FuzzCampaign::runOne(uint64_t i, size_t r, bool last) {
  const PipelineTarget &run = options_.runs[r];
  CaseResult result =
      runGeneratedCase(systemFor(run), deviceFor(run), optionsFor(r),
                       gen::caseSeed(options_.seed, i));
  if (!options_.exportDir.empty() && result.compiled) {
    if (Status s = exportCase(options_, run, result); !s)
      return fail("--export-artifacts: " + s.message());
    ++exported_;
  }
  record(i, r, result);
  if (last && !failed_)
    caseDone(i);
}

void FuzzCampaign::submitOne(uint64_t i, size_t r, bool last) {
  pool_->submit(std::to_string(i) + " " + std::to_string(r),
                !options_.saveCasesDir.empty(),
                [this, i, r, last](const IsolatedOutcome &outcome) {
                  if (failed_)
                    return;
                  CaseResult result = fromOutcome(i, r, outcome);
                  if (failed_)
                    return;
                  record(i, r, result);
                  if (last && !failed_)
                    caseDone(i);
                });
}

/// A worker's request is "CASE RUN" (the case index and the index of its
/// (pipeline, target) run); the worker derives the rest as this process
/// would, and exports its artifact where it was compiled.
CaseResult
FuzzCampaign::workerCase(const std::string &request,
                         const std::function<void(const char *)> &phase) {
  unsigned long long i = 0;
  size_t r = 0;
  std::sscanf(request.c_str(), "%llu %zu", &i, &r);
  const PipelineTarget &run = options_.runs[r];
  CaseOptions inWorker = optionsFor(r);
  inWorker.onPhase = phase;
  CaseResult done = runGeneratedCase(systemFor(run), deviceFor(run), inWorker,
                                     gen::caseSeed(options_.seed, i));
  if (!options_.exportDir.empty() && done.compiled)
    if (Status s = exportCase(options_, run, done); !s) {
      std::fprintf(stderr, "harness: --export-artifacts: %s\n",
                   s.message().c_str());
      std::fflush(stderr);
      _exit(3);
    }
  return done;
}

/// The result of one isolated run, from what its worker reported.
CaseResult FuzzCampaign::fromOutcome(uint64_t i, size_t r,
                                     const IsolatedOutcome &outcome) {
  if (!outcome.startError.empty()) {
    fail("cannot start an isolated case: " + outcome.startError);
    return {};
  }
  if (!outcome.reported && !outcome.timedOut && outcome.signal == 0 &&
      !options_.exportDir.empty()) {
    fail(outcome.stderrTail); // the worker could not export (exit 3)
    return {};
  }
  if (outcome.reported && outcome.compiled && !options_.exportDir.empty())
    ++exported_;
  // A reporting worker sent the case (whole for a finding): nothing to
  // compute again; one that died gets its case rebuilt from the seed.
  if (outcome.result)
    return resultFromOutcome(outcome, CaseSpec());
  CaseOptions o = optionsFor(r);
  if (killedFromOutside(outcome))
    return rerunKilled(i, r, outcome);
  CaseResult rebuilt = resultFromOutcome(
      outcome, generatedSpec(o, gen::caseSeed(options_.seed, i)));
  // Its steering again, so that its case folder spells it the same.
  if (o.steering && systemOf(o.pipeline) == SystemKind::Iree) {
    SteerOutcome steered;
    ireeSpelling(o, rebuilt.program, rebuilt.seed, steered);
    addSteerTags(steered, rebuilt.coverage);
  }
  return rebuilt;
}

/// SIGKILL the parent did not send (no time or memory limit): the
/// kernel's OOM killer or a user, never the compiler (which aborts or
/// faults); its case has no verdict yet.
bool FuzzCampaign::killedFromOutside(const IsolatedOutcome &outcome) const {
  return !outcome.reported && outcome.signal == SIGKILL &&
         !outcome.timedOut && !outcome.outOfMemory;
}

/// A case whose worker was killed from outside runs once more in a fresh
/// worker; killed again, the campaign stops (resumable at this case)
/// rather than call it the compiler's crash.
CaseResult FuzzCampaign::rerunKilled(uint64_t i, size_t r,
                                     const IsolatedOutcome &outcome) {
  const PipelineTarget &run = options_.runs[r];
  std::fprintf(stderr,
               "%sharness: case %llu %s: its worker was killed from outside "
               "(SIGKILL in %s: the kernel's OOM killer or a user, not the "
               "compiler); running it again\n",
               progress_->clear(), static_cast<unsigned long long>(i),
               runName(run).c_str(),
               outcome.phase.empty() ? "no phase" : outcome.phase.c_str());
  CaseSpec spec = generatedSpec(optionsFor(r), gen::caseSeed(options_.seed, i));
  IsolatedOutcome again = runIsolated(
      [&](const std::function<void(const char *)> &phase) {
        CaseOptions o = spec.options;
        o.onPhase = phase;
        return runProgramCase(systemFor(run), deviceFor(run), o, spec.program,
                              spec.inputs, spec.seed);
      },
      [&](const CaseResult &done) {
        if (!options_.exportDir.empty() && done.compiled)
          (void)exportCase(options_, run, done);
      },
      limits_);
  if (!again.startError.empty() || killedFromOutside(again)) {
    fail("case " + std::to_string(i) + " " + runName(run) +
         ": its worker was killed from outside again (SIGKILL: the kernel's "
         "OOM killer? dmesg tells), so it has no verdict; nothing was "
         "recorded for it, and the same command with --resume runs it "
         "again");
    return {};
  }
  if (again.reported && again.compiled && !options_.exportDir.empty())
    ++exported_;
  return resultFromOutcome(again, spec);
}

void FuzzCampaign::record(uint64_t i, size_t r, const CaseResult &result) {
  const PipelineTarget &run = options_.runs[r];
  CaseOptions o = optionsFor(r);
  if (!options_.saveCasesDir.empty())
    if (auto saved = writeCaseFolder(options_.saveCasesDir, result, o,
                                     reproCommand(options_, run, i));
        !saved.ok())
      return fail("--save-cases: " + saved.message());
  tally_.add(runName(run), result);
  std::vector<std::string> tags = result.coverage;
  tags.push_back(std::string("config=") +
                 (options_.randomConfig ? "random" : "default"));
  tags.push_back("inputs=" + std::string(gen::toString(options_.inputs)));
  if (result.frontEnd != gen::FrontEnd::Sift)
    tags.push_back("frontend=" + std::string(gen::toString(result.frontEnd)));
  tally_.addCoverage(tags);
  if (!oracle::isFinding(result.verdict))
    return;
  auto dir =
      store_->recordFinding(runId_, result, o, reproCommand(options_, run, i));
  // One line per signature: a night of a thousand findings of one bug
  // prints one (the database and the summary count them all).
  if (printedSignatures_.insert(findingSignature(result)).second)
    std::fprintf(stderr,
                 "%sfinding: case %llu (seed 0x%016llx) %s: %s at %s: %s\n",
                 progress_->clear(), static_cast<unsigned long long>(i),
                 static_cast<unsigned long long>(result.seed),
                 runName(run).c_str(),
                 std::string(oracle::toString(result.verdict)).c_str(),
                 result.stage.text().c_str(),
                 result.detail.substr(0, result.detail.find('\n')).c_str());
  if (!dir.ok())
    return fail("could not store the finding: " + dir.message());
  // What its reader opens first, and repro.sh (a folder of a signature
  // seen often enough has none: no folder, no dossier).
  if (!dir->empty())
    if (Status s = writeCaseDossier(systems_, *dir, result, o, limits_); !s)
      std::fprintf(stderr, "%sharness: %s\n", progress_->clear(),
                   s.message().c_str());
}

/// After the last run of case i: every case up to it is stored (results
/// arrive in case order), so a stopped or killed campaign resumes at i + 1
/// with the tally up to here.
void FuzzCampaign::caseDone(uint64_t i) {
  ++tally_.cases;
  nextCase_ = i + 1;
  tally_.seconds = earlierSeconds_ + elapsed();
  if (Status s = store_->recordProgress(runId_, nextCase_, thisRunCases_,
                                        tally_.toJson().dump());
      !s)
    fail(s.message());
  progress_->tick(tally_, tally_.seconds);
}

void FuzzCampaign::fail(const std::string &message) {
  std::fprintf(stderr, "harness: %s\n", message.c_str());
  if (!failed_)
    failed_ = kExitUsage;
}

double FuzzCampaign::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start_)
      .count();
}

} // namespace sift::harness
