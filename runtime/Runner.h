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

#include "runtime/Artifact.h"
#include "runtime/Device.h"
#include "runtime/support/HostTensor.h"
#include "runtime/support/Result.h"

#include <vector>

namespace sift::rt {

/// Checks `inputs` against the plan's input buffers (in roleIndex order):
/// their count, element types, shapes and byte sizes. Errors read
/// "input 1: expected f32[4x8], got i64[4x8]".
Status checkInputs(const Plan &plan, const std::vector<HostTensor> &inputs);

/// Runs `artifact`'s plan on `device` with `inputs` (one per plan input, in
/// roleIndex order) and returns the outputs in roleIndex order. Errors name
/// the step and the buffer, executable or dispatch that failed
/// ("dispatch 2: ...").
Result<std::vector<HostTensor>> runPlan(Device &device,
                                        const Artifact &artifact,
                                        const std::vector<HostTensor> &inputs);

} // namespace sift::rt
