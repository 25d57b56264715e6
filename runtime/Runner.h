//===- runtime/Runner.h - Runs an artifact's plan on a device -------------===//
//
// The one function that turns an artifact and input tensors into output
// tensors on any Device: verify, check the inputs against the plan, allocate
// every buffer, upload, load, dispatch in order, synchronize, download. It is
// what sift-run, the harness and the conformance tests call; it trusts
// neither the artifact (it verifies it again) nor the inputs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/AllocatorSelection.h"
#include "runtime/Artifact.h"
#include "runtime/Device.h"
#include "support/HostTensor.h"
#include "support/Fault.h"
#include "support/Result.h"

#include <memory>
#include <vector>

namespace sift::rt {

/// Checks `inputs` against the plan's input buffers (in roleIndex order):
/// their count, element types, shapes and byte sizes. Errors read
/// "input 1: expected f32[4x8], got i64[4x8]".
Status checkInputs(const Plan &plan, const std::vector<HostTensor> &inputs);

/// How runPlan allocates and hands out buffers.
struct PlanRunOptions {
  /// Allocate every buffer queue-ordered (Device::allocateAsync).
  bool asyncAllocation = false;
  /// After the run, export every output as a DLPack tensor (outputs get
  /// the `export` usage) and check it describes its buffer (the export
  /// oracle); outputs are downloaded first.
  bool exportOutputs = false;
  /// Which device allocates each buffer; empty: the first device that uses
  /// it (firstUserPolicy). Checked against the buffer's affinity.
  SelectAllocator allocatorPolicy;
  /// Runtime faults: export-device-local, alloc-select-first.
  FaultSet faults;
};

/// The options of repeated run `run` (0-based) of one artifact, as the
/// harness and sift-run repeat it: even runs allocate in order, odd runs
/// queue-ordered with every output exported as DLPack (and checked).
inline PlanRunOptions repeatedRunOptions(int run) {
  PlanRunOptions options;
  options.asyncAllocation = run % 2 == 1;
  options.exportOutputs = run % 2 == 1;
  return options;
}

/// Runs `artifact`'s plan with `inputs` (one per plan input, in roleIndex
/// order) and returns the outputs in roleIndex order. Buffers are allocated
/// by the device allocator selection picks among `devices` (by ordinal; on
/// one device, that device serves every affinity); executables load and
/// dispatches run on `devices[0]`. Errors name the
/// step and the buffer, executable or dispatch that failed ("dispatch 2:
/// ...", "buffer 3: ...").
Result<std::vector<HostTensor>> runPlan(const std::vector<Device *> &devices,
                                        const Artifact &artifact,
                                        const std::vector<HostTensor> &inputs,
                                        const PlanRunOptions &options);

/// runPlan on one device with the default options.
Result<std::vector<HostTensor>> runPlan(Device &device,
                                        const Artifact &artifact,
                                        const std::vector<HostTensor> &inputs);

/// A plan made ready to run again and again on one device, on the same
/// buffers: a benchmark's timed runs, which time the dispatches the way the
/// vendors' baselines time their calls (buffers allocated, inputs uploaded
/// and kernels loaded once, outside the runs). Runs do not upload or
/// download; outputs() downloads what the last run wrote.
class PreparedPlan {
public:
  /// Checks and allocates like runPlan, uploads `inputs` and loads the
  /// executables. `artifact` must outlive the plan.
  static Result<std::unique_ptr<PreparedPlan>>
  prepare(Device &device, const Artifact &artifact,
          const std::vector<HostTensor> &inputs);

  /// The plan's dispatches in order, then a synchronize.
  Status run();
  /// Every output's bytes, in roleIndex order.
  Result<std::vector<HostTensor>> outputs();
  /// Whether every input still holds `inputs` (the ones prepare() took):
  /// a run that writes an input gives the next run other data. The error
  /// names the first input that changed.
  Status checkInputsUnchanged(const std::vector<HostTensor> &inputs);
  /// Sets every output byte to 0xFF, so that outputs() after a run shows
  /// only what that run wrote.
  Status poisonOutputs();

private:
  PreparedPlan(Device &device, const Artifact &artifact)
      : device_(device), artifact_(artifact) {}
  Device &device_;
  const Artifact &artifact_;
  std::vector<std::unique_ptr<Buffer>> buffers_;
  std::vector<std::unique_ptr<LoadedExecutable>> executables_;
  /// The buffers `indices` name, downloaded; errors name `what` and its
  /// position.
  Result<std::vector<HostTensor>> download(const std::vector<int> &indices,
                                           const char *what);
};

} // namespace sift::rt
