//===- tools/sift-run/BenchRuns.cpp - A benchmark's timed runs ------------===//
//
// See BenchRuns.h. The runs are timed by the device's events from the first
// launch to the synchronize (the cpu device: wall time).
//
//===----------------------------------------------------------------------===//

#include "tools/sift-run/BenchRuns.h"

#include "oracles/Compare.h"
#include "runtime/Runner.h"
#include "runtime/gpu/GpuDriver.h"

#include <chrono>
#include <functional>
#include <memory>

namespace sift::tools {

namespace {

double elapsed(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

/// One run of a benchmark (run `i`, 0-based, of --warmup then --bench's):
/// `run` dispatches and synchronizes; its time goes into `r` unless it is a
/// warm-up (the first run is timed too when it alone is over the budget).
/// False, with `r`'s verdict set, when the run failed.
bool timeOneRun(rt::Device &device, const Options &options, int i,
                std::chrono::steady_clock::time_point begin,
                const std::function<Status()> &run, BenchResult &r) {
  rt::GpuTimes before = rt::gpuTimes(device);
  auto start = std::chrono::steady_clock::now();
  Status status = run();
  double wallMs = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  rt::GpuTimes after = rt::gpuTimes(device);
  if (!status) {
    r.verdict = "runtime-error";
    r.detail = status.message();
    return false;
  }
  // A GPU's events time its kernels; the cpu device has none: its wall
  // time.
  double kernelMs = (after.kernels - before.kernels).count() / 1e6;
  double ms = device.kind() == rt::DeviceKind::Cpu ? wallMs : kernelMs;
  bool slow = elapsed(begin) > options.benchBudgetSeconds;
  if (i >= options.warmup || (i == 0 && slow))
    r.ms.push_back(ms);
  return true;
}

/// Checks one run's outputs; a mismatch becomes `r`'s verdict (`which`
/// says which run, empty for the first).
void checkRun(const rt::ExportedCase &info,
              const std::vector<HostTensor> &expected,
              const std::vector<HostTensor> &outputs, const std::string &which,
              BenchResult &r) {
  if (!r.verdict.empty())
    return;
  if (auto m =
          oracle::compareCarried(info.tolerances, expected, outputs).mismatch) {
    r.verdict = "mismatch";
    r.detail = which.empty() ? m->message : which + m->message;
  }
}

} // namespace

void timeRuns(rt::Device &device, const Options &options,
              rt::Artifact &artifact, const rt::ExportedCase &info,
              const std::vector<HostTensor> &expected, BenchResult &r) {
  auto begin = std::chrono::steady_clock::now();
  int total = options.warmup + options.benchRuns;
  int runs = 0;
  std::vector<HostTensor> last;
  // A step around the runs that failed: the benchmark's verdict.
  auto failed = [&](const Status &s) {
    r.verdict = "runtime-error";
    r.detail = s.message();
  };
  std::unique_ptr<rt::PreparedPlan> plan;
  if (!options.benchFreshBuffers) {
    auto prepared =
        rt::PreparedPlan::prepare(device, artifact, artifact.inputs);
    if (!prepared.ok())
      return failed(prepared.status());
    plan = std::move(*prepared);
  }
  // Fresh buffers: the whole plan, its outputs kept.
  auto runFresh = [&]() -> Status {
    auto outputs = rt::runPlan({&device}, artifact, artifact.inputs, {});
    if (!outputs.ok())
      return outputs.status();
    last = std::move(*outputs);
    return Status::success();
  };
  auto download = [&]() -> Status {
    if (!plan)
      return Status::success();
    auto outputs = plan->outputs();
    if (!outputs.ok())
      return outputs.status();
    last = std::move(*outputs);
    return Status::success();
  };
  for (int i = 0; i < total; ++i) {
    if (elapsed(begin) > options.benchBudgetSeconds && !r.ms.empty())
      break;
    if (plan)
      if (Status s = plan->poisonOutputs(); !s)
        return failed(s);
    auto run = plan ? std::function<Status()>([&] { return plan->run(); })
                    : std::function<Status()>(runFresh);
    if (!timeOneRun(device, options, i, begin, run, r))
      return;
    ++runs;
    if (i == 0) {
      if (Status s = download(); !s)
        return failed(s);
      checkRun(info, expected, last, "", r);
    }
  }
  if (runs > 1) {
    if (Status s = download(); !s)
      return failed(s);
    checkRun(info, expected, last,
             "the last of " + std::to_string(runs) +
                 " runs (the first matched): ",
             r);
  }
  // Runs on the same buffers time the same work only if no run wrote its
  // inputs.
  if (plan && r.verdict.empty())
    if (Status s = plan->checkInputsUnchanged(artifact.inputs); !s) {
      r.verdict = "mismatch";
      r.detail = s.message() +
                 ", so the timed runs did not all see the benchmark's input";
    }
}

} // namespace sift::tools
