//===- runtime/Runner.cpp - Runs an artifact's plan on a device -----------===//
//
// runPlan: the fixed sequence of device calls that executes a plan. Buffers
// and loaded executables are owned by local vectors, so every early error
// return frees them. PreparedPlan: the same steps, split so that the
// dispatches can run again and again on the same buffers.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runner.h"

#include "runtime/DLPack.h"

#include <algorithm>
#include <memory>

using namespace sift;
using namespace sift::rt;

Status rt::checkInputs(const Plan &plan,
                       const std::vector<HostTensor> &inputs) {
  std::vector<int> indices = plan.inputs();
  if (inputs.size() != indices.size())
    return makeError("expected " + std::to_string(indices.size()) +
                     " inputs, got " + std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const PlanBuffer &buffer = plan.buffers[indices[i]];
    const HostTensor &input = inputs[i];
    if (input.type != buffer.type || input.shape != buffer.shape)
      return makeError("input " + std::to_string(i) + ": expected " +
                       describe(buffer.type, buffer.shape) + ", got " +
                       describe(input));
    std::optional<uint64_t> bytes = bufferByteSize(input.type, input.shape);
    if (!bytes || *bytes != input.data.size())
      return makeError(
          "input " + std::to_string(i) + ": " + describe(input) + " needs " +
          (bytes ? std::to_string(*bytes) : std::string("?")) +
          " data bytes but holds " + std::to_string(input.data.size()));
  }
  return Status::success();
}

Result<std::vector<HostTensor>>
rt::runPlan(Device &device, const Artifact &artifact,
            const std::vector<HostTensor> &inputs) {
  return runPlan(std::vector<Device *>{&device}, artifact, inputs,
                 PlanRunOptions());
}

namespace {

/// Whether the runtime can run `artifact` on `inputs`: a valid artifact,
/// inputs of its plan's types and shapes, GPU kernels of this runtime's ABI.
Status checkRunnable(const Artifact &artifact,
                     const std::vector<HostTensor> &inputs) {
  if (Status s = verifyArtifact(artifact); !s)
    return makeError("invalid artifact: " + s.message());
  if (Status s = checkInputs(artifact.plan, inputs); !s)
    return s;
  auto abi = artifact.meta.find("abi");
  for (const Executable &executable : artifact.executables)
    if (executable.format != ExecutableFormat::HostSharedObject &&
        abi != artifact.meta.end() && abi->second != kGpuKernelAbi)
      return makeError("the artifact's GPU kernels use ABI '" + abi->second +
                       "'; this runtime calls kernels with '" +
                       std::string(kGpuKernelAbi) + "'");
  return Status::success();
}

/// Every plan buffer allocated on the device its allocator selection
/// picks (into `buffers`, the device's index into `allocators`).
Status allocateBuffers(const std::vector<Device *> &devices, const Plan &plan,
                       const PlanRunOptions &options,
                       std::vector<std::unique_ptr<Buffer>> &buffers,
                       std::vector<int> &allocators) {
  // Allocator selection, memoized per (users, memory types, usage); fault
  // alloc-select-first ignores the users, and the affinity oracle says so.
  AllocatorSelector selector(
      static_cast<int>(devices.size()),
      options.faults.contains(Fault::AllocSelectFirst)
          ? ignoreAffinityPolicy()
          : (options.allocatorPolicy ? options.allocatorPolicy
                                     : firstUserPolicy()));
  buffers.reserve(plan.buffers.size());
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    PlanBuffer desc = plan.buffers[i];
    // On one device, that device is every buffer's user, whatever ordinals
    // the plan was written for.
    if (devices.size() == 1)
      desc.affinity.clear();
    if (options.exportOutputs && desc.role == BufferRole::Output)
      desc.usage = desc.usage | BufferUsage::Export;
    Result<int> allocator = selector.select(desc);
    if (!allocator)
      return makeError("buffer " + std::to_string(i) + ": " +
                       allocator.message());
    if (Status s = checkAllocatorAffinity(desc, static_cast<int>(i),
                                          *allocator);
        !s)
      return s;
    Device &owner = *devices[*allocator];
    Result<std::unique_ptr<Buffer>> buffer =
        options.asyncAllocation ? owner.allocateAsync(desc)
                                : owner.allocate(desc);
    if (!buffer)
      return makeError("buffer " + std::to_string(i) + ": " + buffer.message());
    buffers.push_back(std::move(*buffer));
    allocators.push_back(*allocator);
  }
  return Status::success();
}

/// The executables `device` runs, loaded (a null entry for each it does
/// not): the emu device runs the emu kernels in place of every GPU
/// executable; other devices never load them.
Status loadExecutables(
    Device &device, const Artifact &artifact,
    std::vector<std::unique_ptr<LoadedExecutable>> &executables) {
  const Executable *emu = emuExecutable(artifact);
  bool emulated = device.kind() == DeviceKind::Emu;
  if (emulated && !emu && !artifact.plan.dispatches.empty())
    return makeError("the artifact carries no emu kernels (compile it with "
                     "them: harness --device=emu, or harness compile "
                     "--emu-kernels)");
  executables.reserve(artifact.executables.size());
  for (size_t i = 0; i < artifact.executables.size(); ++i) {
    const Executable &executable = artifact.executables[i];
    if (emulated != (&executable == emu)) {
      executables.emplace_back();
      continue;
    }
    Result<std::unique_ptr<LoadedExecutable>> exe = device.load(executable);
    if (!exe)
      return makeError("executable " + std::to_string(i) + ": " +
                       exe.message());
    executables.push_back(std::move(*exe));
  }
  return Status::success();
}

/// The plan's dispatches in order, then a synchronize.
Status runDispatches(
    Device &device, const Artifact &artifact,
    const std::vector<std::unique_ptr<Buffer>> &buffers,
    const std::vector<std::unique_ptr<LoadedExecutable>> &executables) {
  bool emulated = device.kind() == DeviceKind::Emu;
  std::vector<Buffer *> bindings;
  const Plan &plan = artifact.plan;
  for (size_t d = 0; d < plan.dispatches.size(); ++d) {
    Dispatch dispatch = plan.dispatches[d];
    bindings.clear();
    for (int index : dispatch.bindings)
      bindings.push_back(buffers[index].get());
    if (emulated) {
      dispatch.entry = emuEntryIndex(artifact, dispatch);
      dispatch.executable = static_cast<int>(executables.size()) - 1;
    }
    if (Status s = device.dispatch(*executables[dispatch.executable], dispatch,
                                   bindings);
        !s)
      return makeError("dispatch " + std::to_string(d) + ": " + s.message());
  }
  if (Status s = device.synchronize(); !s)
    return makeError("synchronize: " + s.message());
  return Status::success();
}

/// Each output buffer exported as DLPack by its owner and checked against
/// its description (the buffer is the export's from then on).
Status exportOutputs(const std::vector<Device *> &devices, const Plan &plan,
                     const PlanRunOptions &options,
                     std::vector<std::unique_ptr<Buffer>> &buffers,
                     const std::vector<int> &allocators) {
  for (int index : plan.outputs()) {
    Device &owner = *devices[allocators[index]];
    PlanBuffer desc = buffers[index]->desc();
    Result<dlpack::ManagedTensor *> tensor =
        exportDlpack(owner, std::move(buffers[index]), options.faults);
    if (!tensor)
      return makeError("output buffer " + std::to_string(index) +
                       ": DLPack export failed: " + tensor.message());
    Status described = checkDlpackTensor(**tensor, desc, owner.kind());
    (*tensor)->deleter(*tensor);
    if (!described)
      return makeError("output buffer " + std::to_string(index) +
                       ": DLPack export: " + described.message());
  }
  return Status::success();
}

} // namespace

Result<std::vector<HostTensor>>
rt::runPlan(const std::vector<Device *> &devices, const Artifact &artifact,
            const std::vector<HostTensor> &inputs,
            const PlanRunOptions &options) {
  if (devices.empty())
    return makeError("no device to run on");
  Device &device = *devices.front();
  if (Status s = checkRunnable(artifact, inputs); !s)
    return s;
  const Plan &plan = artifact.plan;
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<int> allocators;
  if (Status s = allocateBuffers(devices, plan, options, buffers, allocators);
      !s)
    return s;

  std::vector<int> inputIndices = plan.inputs();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status s = device.upload(*buffers[inputIndices[i]], inputs[i]); !s)
      return makeError("input " + std::to_string(i) + ": " + s.message());

  std::vector<std::unique_ptr<LoadedExecutable>> executables;
  if (Status s = loadExecutables(device, artifact, executables); !s)
    return s;
  if (Status s = runDispatches(device, artifact, buffers, executables); !s)
    return s;

  std::vector<HostTensor> outputs;
  std::vector<int> outputIndices = plan.outputs();
  for (size_t o = 0; o < outputIndices.size(); ++o) {
    HostTensor output;
    if (Status s = device.download(*buffers[outputIndices[o]], output); !s)
      return makeError("output " + std::to_string(o) + ": " + s.message());
    outputs.push_back(std::move(output));
  }
  if (options.exportOutputs)
    if (Status s = exportOutputs(devices, plan, options, buffers, allocators);
        !s)
      return s;
  return outputs;
}

Result<std::unique_ptr<PreparedPlan>>
rt::PreparedPlan::prepare(Device &device, const Artifact &artifact,
                          const std::vector<HostTensor> &inputs) {
  if (Status s = checkRunnable(artifact, inputs); !s)
    return s.error();
  std::unique_ptr<PreparedPlan> plan(new PreparedPlan(device, artifact));
  std::vector<Device *> devices{&device};
  std::vector<int> allocators;
  if (Status s = allocateBuffers(devices, artifact.plan, PlanRunOptions(),
                                 plan->buffers_, allocators);
      !s)
    return s.error();
  std::vector<int> inputIndices = artifact.plan.inputs();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status s = device.upload(*plan->buffers_[inputIndices[i]], inputs[i]);
        !s)
      return makeError("input " + std::to_string(i) + ": " + s.message());
  if (Status s = loadExecutables(device, artifact, plan->executables_); !s)
    return s.error();
  return plan;
}

Status rt::PreparedPlan::run() {
  return runDispatches(device_, artifact_, buffers_, executables_);
}

Result<std::vector<HostTensor>>
rt::PreparedPlan::download(const std::vector<int> &indices, const char *what) {
  std::vector<HostTensor> tensors;
  for (size_t i = 0; i < indices.size(); ++i) {
    HostTensor tensor;
    if (Status s = device_.download(*buffers_[indices[i]], tensor); !s)
      return makeError(std::string(what) + " " + std::to_string(i) + ": " +
                       s.message());
    tensors.push_back(std::move(tensor));
  }
  return tensors;
}

Result<std::vector<HostTensor>> rt::PreparedPlan::outputs() {
  return download(artifact_.plan.outputs(), "output");
}

Status
rt::PreparedPlan::checkInputsUnchanged(const std::vector<HostTensor> &inputs) {
  Result<std::vector<HostTensor>> now =
      download(artifact_.plan.inputs(), "input");
  if (!now.ok())
    return now.status();
  for (size_t i = 0; i < now->size() && i < inputs.size(); ++i)
    if ((*now)[i].data != inputs[i].data)
      return makeError("input " + std::to_string(i) +
                       " changed during the runs (a kernel wrote it)");
  return Status::success();
}

Status rt::PreparedPlan::poisonOutputs() {
  std::vector<int> outputIndices = artifact_.plan.outputs();
  for (size_t o = 0; o < outputIndices.size(); ++o) {
    const PlanBuffer &desc = artifact_.plan.buffers[outputIndices[o]];
    HostTensor poison(desc.type, desc.shape);
    std::fill(poison.data.begin(), poison.data.end(), uint8_t{0xFF});
    if (Status s = device_.upload(*buffers_[outputIndices[o]], poison); !s)
      return makeError("output " + std::to_string(o) + ": " + s.message());
  }
  return Status::success();
}
