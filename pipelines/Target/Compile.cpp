//===- Compile.cpp - From a sift program module to an artifact ------------===//
//
// Runs a pipeline recipe through a PassManager, then serializes: LLVM IR for
// `--emit=llvm`, or a host shared object and the dispatch plan (read back
// from the `sift.dispatch_plan` attribute) for `--emit=artifact`.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Target/Compile.h"

#include "pipelines/Target/PipelineRun.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>

#ifndef SIFT_DEFAULT_AMDGPU_TOOLKIT
#define SIFT_DEFAULT_AMDGPU_TOOLKIT ""
#endif
#ifndef SIFT_DEFAULT_LIBDEVICE
#define SIFT_DEFAULT_LIBDEVICE ""
#endif

using namespace mlir;

std::string_view sift::toString(EmitStage stage) {
  switch (stage) {
  case EmitStage::Mlir: return "mlir";
  case EmitStage::Llvm: return "llvm";
  case EmitStage::Ptx: return "ptx";
  case EmitStage::Artifact: return "artifact";
  }
  return "?";
}

std::optional<sift::EmitStage> sift::parseEmitStage(std::string_view name) {
  for (EmitStage stage :
       {EmitStage::Mlir, EmitStage::Llvm, EmitStage::Ptx, EmitStage::Artifact})
    if (toString(stage) == name)
      return stage;
  return std::nullopt;
}

namespace {

std::optional<sift::ElementType> toElementType(Type type) {
  if (type.isInteger(32))
    return sift::ElementType::I32;
  if (type.isInteger(64))
    return sift::ElementType::I64;
  if (type.isF16())
    return sift::ElementType::F16;
  if (type.isBF16())
    return sift::ElementType::BF16;
  if (type.isF32())
    return sift::ElementType::F32;
  if (type.isF64())
    return sift::ElementType::F64;
  return std::nullopt;
}

/// One buffer of the `sift.dispatch_plan` attribute, or nullopt with
/// `error` naming what is missing.
std::optional<sift::rt::PlanBuffer> parsePlanBuffer(Attribute attr, size_t i,
                                                    std::string &error) {
  using namespace sift;
  auto dict = dyn_cast<DictionaryAttr>(attr);
  auto element = dict ? dict.getAs<TypeAttr>("element") : nullptr;
  auto shape = dict ? dict.getAs<DenseI64ArrayAttr>("shape") : nullptr;
  auto role = dict ? dict.getAs<StringAttr>("role") : nullptr;
  auto index = dict ? dict.getAs<IntegerAttr>("index") : nullptr;
  if (!element || !shape || !role || !index) {
    error = "sift.dispatch_plan buffer " + std::to_string(i) +
            " needs element, shape, role and index";
    return std::nullopt;
  }
  rt::PlanBuffer buffer;
  std::optional<ElementType> type = toElementType(element.getValue());
  std::optional<rt::BufferRole> parsedRole =
      rt::parseBufferRole(role.getValue().str());
  if (!type || !parsedRole) {
    std::string typeText;
    llvm::raw_string_ostream os(typeText);
    os << element.getValue();
    error = "sift.dispatch_plan buffer " + std::to_string(i) +
            ": unsupported element type " + typeText + " or role '" +
            role.getValue().str() + "'";
    return std::nullopt;
  }
  buffer.type = *type;
  buffer.shape.assign(shape.asArrayRef().begin(), shape.asArrayRef().end());
  buffer.role = *parsedRole;
  buffer.roleIndex = static_cast<int>(index.getInt());
  buffer.memory = rt::MemoryType::DeviceLocal;
  buffer.usage = rt::BufferUsage::Dispatch | rt::BufferUsage::Transfer;
  return buffer;
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

std::string sift::defaultAmdgpuToolkit() {
  if (const char *env = std::getenv("SIFT_AMDGPU_TOOLKIT"))
    return env;
  return SIFT_DEFAULT_AMDGPU_TOOLKIT;
}

std::string sift::defaultLibdevice() {
  if (const char *env = std::getenv("SIFT_LIBDEVICE"))
    return env;
  return SIFT_DEFAULT_LIBDEVICE;
}

std::optional<sift::rt::Plan>
sift::extractDispatchPlan(ModuleOp module,
                          const std::vector<std::string> &executableNames,
                          std::string &error) {
  auto planAttr = module->getAttrOfType<DictionaryAttr>("sift.dispatch_plan");
  if (!planAttr) {
    error = "the module has no sift.dispatch_plan attribute";
    return std::nullopt;
  }
  auto buffers = planAttr.getAs<ArrayAttr>("buffers");
  auto dispatches = planAttr.getAs<ArrayAttr>("dispatches");
  if (!buffers || !dispatches) {
    error = "sift.dispatch_plan needs 'buffers' and 'dispatches' arrays";
    return std::nullopt;
  }
  rt::Plan plan;
  for (auto [i, attr] : llvm::enumerate(buffers)) {
    std::optional<rt::PlanBuffer> buffer = parsePlanBuffer(attr, i, error);
    if (!buffer)
      return std::nullopt;
    plan.buffers.push_back(std::move(*buffer));
  }
  for (auto [i, attr] : llvm::enumerate(dispatches)) {
    auto dict = dyn_cast<DictionaryAttr>(attr);
    auto bindings = dict ? dict.getAs<DenseI64ArrayAttr>("bindings") : nullptr;
    if (!bindings) {
      error = "sift.dispatch_plan dispatch " + std::to_string(i) +
              " needs bindings";
      return std::nullopt;
    }
    rt::Dispatch dispatch;
    dispatch.executable = 0;
    dispatch.entry = static_cast<int>(i);
    if (auto name = dict.getAs<StringAttr>("executable")) {
      auto it = llvm::find(executableNames, name.getValue().str());
      if (it == executableNames.end()) {
        error = "sift.dispatch_plan dispatch " + std::to_string(i) +
                " names executable '" + name.getValue().str() +
                "', which was not serialized";
        return std::nullopt;
      }
      dispatch.executable = static_cast<int>(it - executableNames.begin());
      dispatch.entry = 0;
    }
    for (auto [field, sizes] :
         {std::pair{"grid", &dispatch.grid}, {"block", &dispatch.block}}) {
      auto attr = dict.getAs<DenseI64ArrayAttr>(field);
      if (!attr)
        continue;
      if (attr.size() != 3) {
        error = "sift.dispatch_plan dispatch " + std::to_string(i) + ": " +
                field + " needs 3 sizes";
        return std::nullopt;
      }
      for (int d = 0; d < 3; ++d)
        (*sizes)[d] = static_cast<uint32_t>(attr[d]);
    }
    for (int64_t binding : bindings.asArrayRef())
      dispatch.bindings.push_back(static_cast<int>(binding));
    plan.dispatches.push_back(std::move(dispatch));
  }
  return plan;
}

namespace {

namespace rt = sift::rt;

/// The executables of a GPU module, one per gpu.binary (its object's
/// bytes), and the binaries' names in `names`.
FailureOr<std::vector<rt::Executable>>
binaryExecutables(ModuleOp module, const sift::CompileOptions &options,
                  const std::string &chip, std::vector<std::string> &names,
                  std::string &error) {
  using namespace sift;
  std::vector<rt::Executable> executables;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    auto objects = binary.getObjects();
    auto object = objects.empty()
                      ? nullptr
                      : dyn_cast<gpu::ObjectAttr>(objects.getValue().front());
    if (!object) {
      error = "gpu.binary @" + binary.getSymName().str() + " holds no object";
      return failure();
    }
    rt::Executable executable;
    executable.format = options.pipeline.target == TargetKind::Amdgpu
                            ? rt::ExecutableFormat::Hsaco
                            : rt::ExecutableFormat::Ptx;
    executable.target =
        std::string(toString(options.pipeline.target)) + "/" + chip;
    StringRef bytes = object.getObject().getValue();
    executable.binary.assign(bytes.begin(), bytes.end());
    names.push_back(binary.getSymName().str());
    executables.push_back(std::move(executable));
  }
  return executables;
}

/// The artifact's executables: those some dispatch of `plan` uses (their
/// entries the kernels the dispatches name, renumbered in the plan), then
/// the emu kernels of `hostKernels` (when given), one entry per kept entry
/// in the same order.
LogicalResult keepUsedExecutables(
    ModuleOp module, ModuleOp hostKernels, const sift::CompileOptions &options,
    const std::string &chip, const std::vector<std::string> &names,
    std::vector<rt::Executable> &executables, rt::Plan &plan,
    rt::Artifact &artifact, sift::CompileTimes *times, std::string &error) {
  using namespace sift;
  // Entries: the kernels the dispatches name, per executable.
  auto dispatches = module->getAttrOfType<DictionaryAttr>("sift.dispatch_plan")
                        .getAs<ArrayAttr>("dispatches");
  for (auto [attr, dispatch] : llvm::zip(dispatches, plan.dispatches)) {
    auto symbol = cast<DictionaryAttr>(attr).getAs<StringAttr>("symbol");
    std::vector<std::string> &entries =
        executables[dispatch.executable].entries;
    auto it = llvm::find(entries, symbol.getValue().str());
    dispatch.entry = static_cast<int>(it - entries.begin());
    if (it == entries.end())
      entries.push_back(symbol.getValue().str());
  }
  // Drop executables no dispatch uses (their launches had empty grids).
  std::vector<int> newIndex(executables.size(), -1);
  // The emu kernels: one entry per kept entry, in the same order.
  rt::Executable emu;
  emu.format = rt::ExecutableFormat::EmuSharedObject;
  emu.target =
      "emu/" + std::string(toString(options.pipeline.target)) + "/" + chip;
  for (size_t i = 0; i < executables.size(); ++i) {
    if (executables[i].entries.empty())
      continue;
    for (const std::string &entry : executables[i].entries)
      emu.entries.push_back(hostKernelSymbol(names[i], entry));
    newIndex[i] = static_cast<int>(artifact.executables.size());
    artifact.executables.push_back(std::move(executables[i]));
  }
  // A plan without dispatches has no kernels to emulate.
  if (hostKernels && !emu.entries.empty()) {
    std::vector<std::string> hostNames;
    OwningOpRef<ModuleOp> host = takeHostKernels(hostKernels, hostNames);
    Clock::time_point start = Clock::now();
    bool built = buildHostSharedObject(*host, options.host, emu.binary, error);
    if (times)
      (*times)["emu-object"] += secondsSince(start);
    if (!built) {
      error = "the emu kernels: " + error;
      return failure();
    }
    artifact.executables.push_back(std::move(emu));
  }
  for (rt::Dispatch &dispatch : plan.dispatches)
    dispatch.executable = newIndex[dispatch.executable];
  return success();
}

/// Builds the artifact of a GPU pipeline from its gpu.binary ops and plan:
/// one executable per binary that some dispatch uses, its entries the
/// kernels those dispatches name.
LogicalResult serializeGpu(ModuleOp module, ModuleOp hostKernels,
                           const sift::CompileOptions &options,
                           sift::EmitStage stage, sift::CompileOutput &output,
                           sift::CompileTimes *times, std::string &error) {
  using namespace sift;
  std::string chip = options.pipeline.chip.empty()
                         ? std::string(defaultChip(options.pipeline.target))
                         : options.pipeline.chip;
  std::vector<std::string> names;
  FailureOr<std::vector<rt::Executable>> executables =
      binaryExecutables(module, options, chip, names, error);
  if (failed(executables))
    return failure();
  if (stage == EmitStage::Ptx) {
    if (options.pipeline.target != TargetKind::Nvptx) {
      error = "--emit=ptx needs an nvptx target";
      return failure();
    }
    for (auto [name, executable] : llvm::zip(names, *executables)) {
      output.text += "// sift executable " + name + "\n";
      output.text.append(executable.binary.begin(), executable.binary.end());
    }
    return success();
  }
  if (stage == EmitStage::Llvm) {
    error = "--emit=llvm is for the cpu pipeline; use --emit=ptx or "
            "--emit=artifact for GPU targets";
    return failure();
  }
  std::optional<rt::Plan> plan = extractDispatchPlan(module, names, error);
  if (!plan)
    return failure();
  rt::Artifact &artifact = output.artifact;
  artifact = rt::Artifact();
  if (failed(keepUsedExecutables(module, hostKernels, options, chip, names,
                                 *executables, *plan, artifact, times, error)))
    return failure();
  artifact.meta["pipeline"] = std::string(toString(options.pipeline.kind));
  artifact.meta["target"] = std::string(toString(options.pipeline.target));
  artifact.meta["chip"] = chip;
  artifact.meta["abi"] = rt::kGpuKernelAbi;
  artifact.plan = std::move(*plan);
  if (Status status = rt::verifyArtifact(artifact); !status.ok()) {
    error = "the compiled artifact does not verify: " + status.message();
    return failure();
  }
  return success();
}

} // namespace

namespace {

/// Builds the artifact of the cpu pipeline: one host shared object, its
/// entries the dispatches' symbols.
LogicalResult serializeHost(ModuleOp module,
                            const sift::CompileOptions &options,
                            sift::CompileOutput &output,
                            sift::CompileTimes *times, std::string &error) {
  using namespace sift;
  std::optional<rt::Plan> plan = extractDispatchPlan(module, {}, error);
  if (!plan)
    return failure();
  rt::Executable executable;
  executable.format = rt::ExecutableFormat::HostSharedObject;
  executable.target = "host/x86_64";
  for (auto [i, attr] : llvm::enumerate(
           module->getAttrOfType<DictionaryAttr>("sift.dispatch_plan")
               .getAs<ArrayAttr>("dispatches"))) {
    auto symbol = cast<DictionaryAttr>(attr).getAs<StringAttr>("symbol");
    executable.entries.push_back(symbol ? symbol.getValue().str()
                                        : "sift_dispatch_" + std::to_string(i));
  }
  Clock::time_point start = Clock::now();
  bool built =
      buildHostSharedObject(module, options.host, executable.binary, error);
  if (times)
    (*times)["host-object"] += secondsSince(start);
  if (!built)
    return failure();
  rt::Artifact &artifact = output.artifact;
  artifact = rt::Artifact();
  artifact.meta["pipeline"] = std::string(toString(options.pipeline.kind));
  artifact.meta["target"] = "host";
  artifact.meta["abi"] = "host-v1";
  artifact.executables.push_back(std::move(executable));
  artifact.plan = std::move(*plan);
  if (Status status = rt::verifyArtifact(artifact); !status.ok()) {
    error = "the compiled artifact does not verify: " + status.message();
    return failure();
  }
  return success();
}

/// The emu device's kernels: `hostKernels` (a copy of the module after the
/// GPU tail's lowering to NVVM or ROCDL, before serialization) made host
/// functions.
LogicalResult lowerEmuKernels(ModuleOp hostKernels, bool verify,
                              sift::CompileTimes *times, std::string &error) {
  PassManager host(hostKernels.getContext());
  host.enableVerifier(verify);
  sift::addEmuKernelLowering(host);
  Clock::time_point start = Clock::now();
  LogicalResult lowered = host.run(hostKernels);
  if (times)
    (*times)["emu-lowering"] += secondsSince(start);
  if (failed(lowered))
    error = "the emu kernels' lowering (sift-lower-target-kernels-for-host) "
            "failed";
  return lowered;
}

/// sift::compile, adding its stages' seconds to `times` when given.
LogicalResult compileTimed(ModuleOp module, const sift::CompileOptions &options,
                           sift::EmitStage stage, sift::CompileOutput &output,
                           sift::CompileTimes *times, std::string &error) {
  using namespace sift;
  PassManager pm(module.getContext());
  pm.enableVerifier(options.verifyEachPass);
  PipelineOptions pipeline = options.pipeline;
  if (pipeline.target == TargetKind::Amdgpu && pipeline.toolkitPath.empty())
    pipeline.toolkitPath = defaultAmdgpuToolkit();
  if (pipeline.target == TargetKind::Nvptx && pipeline.libdevicePath.empty())
    pipeline.libdevicePath = defaultLibdevice();
  // With emu kernels the pipeline stops before serialization, with the
  // kernels in the LLVM dialect the GPU back end gets: a copy becomes the
  // emu device's kernels, and the module is serialized.
  bool gpu = pipeline.target != TargetKind::Host;
  bool emu = options.emuKernels && gpu && stage == EmitStage::Artifact;
  pipeline.withoutBinary = emu;
  if (failed(addPipeline(pm, pipeline, error)))
    return failure();
  sift::PipelineRun run(module, options, pipeline, emu, times, output, error);
  if (!run(pm))
    return failure();
  OwningOpRef<ModuleOp> hostKernels;
  if (emu) {
    hostKernels = module.clone();
    PassManager binary(module.getContext());
    binary.enableVerifier(options.verifyEachPass);
    addGpuSerialization(binary, pipeline);
    if (!run(binary))
      return failure();
    if (failed(lowerEmuKernels(*hostKernels, options.verifyEachPass, times,
                               error)))
      return failure();
  }
  if (stage == EmitStage::Mlir) {
    llvm::raw_string_ostream os(output.text);
    module.print(os);
    return success();
  }
  if (stage == EmitStage::Llvm && options.pipeline.target == TargetKind::Host) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> llvmModule =
        translateForHost(module, context, options.host, error);
    if (!llvmModule)
      return failure();
    llvm::raw_string_ostream os(output.text);
    llvmModule->print(os, nullptr);
    return success();
  }

  if (gpu)
    return serializeGpu(module, hostKernels ? *hostKernels : ModuleOp(),
                        options, stage, output, times, error);
  if (stage == EmitStage::Ptx) {
    error = "--emit=ptx needs an nvptx target";
    return failure();
  }

  return serializeHost(module, options, output, times, error);
}

} // namespace

LogicalResult sift::compile(ModuleOp module, const CompileOptions &options,
                            EmitStage stage, CompileOutput &output,
                            std::string &error) {
  if (!options.times)
    return compileTimed(module, options, stage, output, nullptr, error);
  CompileTimes times;
  Clock::time_point start = Clock::now();
  LogicalResult result =
      compileTimed(module, options, stage, output, &times, error);
  double counted = 0;
  for (const auto &[name, seconds] : times) {
    (*options.times)[name] += seconds;
    counted += seconds;
  }
  (*options.times)["other"] += std::max(0.0, secondsSince(start) - counted);
  return result;
}
