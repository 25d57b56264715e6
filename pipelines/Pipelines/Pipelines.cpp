//===- Pipelines.cpp - The sift pipelines as C++ recipes ------------------===//
//
// The cpu pipeline: prepare the entry, bufferize the whole program with the
// function boundary, lower sift and linalg ops to loops, then to the LLVM
// dialect and the host ABI the cpu runtime calls. The GPU pipelines share
// the front; distribute bufferizes before distributing, tileandfuse tiles
// and fuses on tensors first; both end in kernels, a host plan and PTX or
// HSACO (addGpuBack, addGpuDeviceTail).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Pipelines/Pipelines.h"

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace {

/// Strategy selection for `options` (the chosen pipeline and, with a seed,
/// random configs).
std::unique_ptr<Pass>
createStrategySelection(const sift::PipelineOptions &options) {
  sift::SelectLoweringStrategyOptions select;
  select.pipeline = std::string(sift::toString(options.kind));
  select.randomSeed = options.randomConfigSeed;
  // Static workgroup memory of the chip (the table the oracle reads too).
  select.maxWorkgroupMemory = sift::workgroupMemoryBudget(
      options.chip.empty() ? sift::defaultChip(options.target)
                           : std::string_view(options.chip));
  return sift::createSelectLoweringStrategy(select);
}

/// The first steps of every pipeline: simplify, choose the lowering
/// strategy, record the plan's argument buffers from the tensor signature,
/// keep inputs read-only.
void addFront(OpPassManager &pm, const sift::PipelineOptions &options) {
  // Fault tf-keep-unused-results (IREE #20699) keeps unused sort results.
  SmallVector<std::string> disabled;
  if (options.faults.contains(sift::Fault::TfKeepUnusedResults))
    disabled.push_back(sift::kDropUnusedSortResultsPattern);
  pm.addPass(createCanonicalizerPass(GreedyRewriteConfig(), disabled));
  pm.addPass(createCSEPass());
  // The NMS faults are recorded on the ops the decomposition builds.
  sift::DecomposeNmsOptions decompose;
  decompose.injectIouGe = options.faults.contains(sift::Fault::NmsIouGe);
  decompose.injectUnnormalizedCorners =
      options.faults.contains(sift::Fault::NmsUnnormalizedCorners);
  decompose.injectScoreThresholdGe =
      options.faults.contains(sift::Fault::NmsScoreThresholdGe);
  decompose.injectSortGlobalTemp =
      options.faults.contains(sift::Fault::NmsSortGlobalTemp);
  pm.addNestedPass<func::FuncOp>(sift::createDecomposeNms(decompose));
  pm.addPass(createStrategySelection(options));
  pm.addPass(sift::createRecordDispatchPlan(
      sift::RecordDispatchPlanOptions{options.entry}));
  pm.addPass(sift::createMarkInputsReadOnly());
}

/// Bufferize the whole module with results as trailing out-params.
void addBufferize(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addNestedPass<func::FuncOp>(sift::createDistinctResultBuffers());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
}

/// addFront, then addBufferize.
void addBufferizedFront(OpPassManager &pm,
                        const sift::PipelineOptions &options) {
  addFront(pm, options);
  addBufferize(pm);
}

/// sift-workgroup-rows' options for `options`: its faults, where
/// radix_match's table of peer masks may go, and whether NMS boxes are
/// staged.
sift::WorkgroupRowsOptions
workgroupRowsOptions(const sift::PipelineOptions &options) {
  using namespace sift;
  WorkgroupRowsOptions rows;
  rows.injectNoBarrier = options.faults.contains(Fault::DistNoBarrier);
  rows.injectMergeDropLast = options.faults.contains(Fault::MergeDropLast);
  rows.injectRadixDigitOffByOne =
      options.faults.contains(Fault::RadixDigitOffByOne);
  rows.injectRadixScanLostCarry =
      options.faults.contains(Fault::RadixScanLostCarry);
  rows.injectSelectMergeOneLevelShort =
      options.faults.contains(Fault::SelectMergeOneLevelShort);
  rows.injectRadixLookbackSkipsOne =
      options.faults.contains(Fault::RadixLookbackSkipsOne);
  rows.injectRadixTileByBlock =
      options.faults.contains(Fault::RadixTileByBlock);
  rows.injectRadixTailOverrun =
      options.faults.contains(Fault::RadixTailOverrun);
  rows.injectRadixSplitUnzeroed =
      options.faults.contains(Fault::RadixSplitUnzeroed);
  rows.injectScanBarrierInBranch =
      options.faults.contains(Fault::ScanBarrierInBranch);
  rows.injectRadixMatchPeerBitLost =
      options.faults.contains(Fault::RadixMatchPeerBitLost);
  rows.injectSelectDoneRace = options.faults.contains(Fault::SelectDoneRace);
  rows.injectWarpQueueHeadUnfilled =
      options.faults.contains(Fault::WarpQueueHeadUnfilled);
  rows.injectBf16OrderF16Layout =
      options.faults.contains(Fault::Bf16OrderF16Layout);
  rows.injectBareKeysUnchecked =
      options.faults.contains(Fault::BareKeysUnchecked);
  rows.injectRadixCompactDropsBetter =
      options.faults.contains(Fault::RadixCompactDropsBetter);
  rows.injectRadixFusedBinsKept =
      options.faults.contains(Fault::RadixFusedBinsKept);
  rows.injectNmsMaskLastBitLost =
      options.faults.contains(Fault::NmsMaskLastBitLost);
  rows.injectNmsWalkRowNotMerged =
      options.faults.contains(Fault::NmsWalkRowNotMerged);
  rows.injectNmsTileLastRowFirstBox =
      options.faults.contains(Fault::NmsTileLastRowFirstBox);
  // radix_match finds a warp's peers by atomic ORs into a table on nvptx
  // where the table fits (H200: argsort [64, 151936] f32 0.613 to 0.560
  // ms, sort [1, 2^20] bf16 0.036 to 0.032); on amdgpu by ballots (one
  // instruction a wave there; not timed).
  if (options.target != TargetKind::Amdgpu)
    rows.matchMasksBudget = sift::workgroupMemoryBudget(
        options.chip.empty() ? sift::defaultChip(options.target)
                             : std::string_view(options.chip));
  // tileandfuse's mask threads read boxes themselves (private memory only).
  rows.stageNmsBoxes = options.kind != PipelineKind::TileAndFuse;
  return rows;
}

/// From bufferized programs whose top-level ops are not yet distributed (and
/// mapped scf.forall loops) to outlined kernels, the plan and binaries:
/// parallel loops keeping their configs, mapping, outlining, the GPU tail.
void addGpuBack(OpPassManager &pm, const sift::PipelineOptions &options) {
  using namespace sift;
  pm.addNestedPass<func::FuncOp>(createCopiesToLinalg());
  pm.addPass(createStrategySelection(options));
  // Rows whose config says workgroup_row, merge_rows, radix_select,
  // radix_sort, register_select or warp_select become cooperative kernels
  // first.
  pm.addNestedPass<func::FuncOp>(
      createWorkgroupRows(workgroupRowsOptions(options)));
  LowerToLoopsOptions lower;
  lower.parallel = true;
  lower.crashOnPrime = options.faults.contains(Fault::CrashOnPrime);
  lower.hangOnK1 = options.faults.contains(Fault::HangOnK1);
  lower.crashAtRandom = options.faults.contains(Fault::CrashAtRandom);
  pm.addNestedPass<func::FuncOp>(createLowerToLoops(lower));
  pm.addPass(memref::createFoldMemRefAliasOpsPass());
  // No canonicalization until the loops are kernels: it would inline
  // one-iteration loops (a rank-1 sort's) and leave their work on the host.

  MapToGpuOptions map;
  map.injectUndistributedWrite =
      options.faults.contains(Fault::DistUndistributedWrite);
  pm.addNestedPass<func::FuncOp>(createMapToGpu(map));
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createDedupeKernels());

  // One kernel module a program (ptxas, the JIT and LLVM's back end pay a
  // fixed cost a module).
  pm.addPass(createMergeKernelModules());
  pm.addPass(createExtractGpuPlan(ExtractGpuPlanOptions{options.entry}));
  addGpuDeviceTail(pm, options);
}

} // namespace

void sift::addCpuPipeline(OpPassManager &pm, const PipelineOptions &options) {
  // Step 1. Simplify, record the plan, bufferize (see addBufferizedFront).
  addBufferizedFront(pm, options);

  // Step 2. Temporaries get deallocations.
  bufferization::buildBufferDeallocationPipeline(pm);

  // Step 3. Lower sift ops (scalar implementation), copies and linalg to
  // loops.
  pm.addNestedPass<func::FuncOp>(createCopiesToLinalg());
  LowerToLoopsOptions lower;
  lower.crashOnPrime = options.faults.contains(Fault::CrashOnPrime);
  lower.hangOnK1 = options.faults.contains(Fault::HangOnK1);
  lower.crashAtRandom = options.faults.contains(Fault::CrashAtRandom);
  pm.addNestedPass<func::FuncOp>(createLowerToLoops(lower));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // bf16 in f32 and integer ops (the host has no bf16 helpers).
  pm.addPass(createExpandBf16ForHost());

  // Step 4. Lower to the LLVM dialect.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // Step 5. Export the entry with the runtime's host ABI.
  HostEntryAbiOptions abi;
  abi.entry = options.entry;
  pm.addPass(createHostEntryAbi(abi));
}

void sift::addDistributePipeline(OpPassManager &pm,
                                 const PipelineOptions &options) {
  // Step 1. Simplify, choose the strategy, record the plan, bufferize before
  // distribution. The runtime owns temporaries as plan buffers: no host
  // deallocation.
  addBufferizedFront(pm, options);

  // Step 2. Every op becomes parallel loops over memrefs that keep their
  // lowering configs (sift ops over rows, copies and linalg ops over
  // elements), tiled into workgroups and threads as the configs say, mapped,
  // outlined; the host becomes the plan, the kernels go down the GPU tail.
  addGpuBack(pm, options);
}

void sift::addTileAndFusePipeline(OpPassManager &pm,
                                  const PipelineOptions &options) {
  // Step 1. Simplify, choose the strategy, record the plan; top-k's chosen
  // to split (split_select) become per-chunk and candidate top-k's, which a
  // second selection configures.
  addFront(pm, options);
  sift::SplitTopkOptions split;
  split.injectLostChunkOffset =
      options.faults.contains(sift::Fault::SplitLostChunkOffset);
  pm.addNestedPass<func::FuncOp>(sift::createSplitTopk(split));
  pm.addPass(createStrategySelection(options));

  // Step 2. Tile every consumer into workgroup and thread scf.forall loops
  // and fuse its elementwise producers into both, on tensors.
  TileAndFuseOptions tiling;
  tiling.injectKeepUnusedResults =
      options.faults.contains(Fault::TfKeepUnusedResults);
  pm.addNestedPass<func::FuncOp>(createTileAndFuse(tiling));
  // No CSE: it would merge the destinations tiling just separated.
  pm.addPass(createCanonicalizerPass());

  // Step 3. Bufferize after tiling, then the memory-space policy: per-thread
  // temporaries go to private memory (fault tf-global-temp leaves them on
  // the heap, IREE #20505).
  addBufferize(pm);
  // Inserting a thread tile into its workgroup tile bufferizes in place but
  // leaves a copy between two equal subviews: CSE makes it a self-copy,
  // which canonicalization drops (otherwise every thread would run it).
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  if (!options.faults.contains(Fault::TfGlobalTemp))
    pm.addNestedPass<func::FuncOp>(createPromoteTemporaries());

  // Step 4. What tiling left on the host (bufferization copies) is
  // distributed like in the distribute pipeline; the foralls map to blocks
  // and threads; outline, plan, GPU tail.
  addGpuBack(pm, options);
}

void sift::addGpuDeviceTail(OpPassManager &pm, const PipelineOptions &options) {
  std::string chip = options.chip.empty()
                         ? std::string(defaultChip(options.target))
                         : options.chip;
  // Step 1. Attach the target.
  if (options.target == TargetKind::Amdgpu) {
    GpuROCDLAttachTargetOptions attach;
    attach.chip = chip;
    pm.addPass(createGpuROCDLAttachTarget(attach));
  } else {
    GpuNVVMAttachTargetOptions attach;
    attach.chip = chip;
    if (!options.libdevicePath.empty())
      attach.linkLibs.push_back(options.libdevicePath);
    pm.addPass(createGpuNVVMAttachTarget(attach));
  }
  // Step 2. Lower each kernel module to NVVM or ROCDL. Math on bf16 is
  // done in f32 and rounded once (the ROCDL lowering has no bf16 math; f16
  // keeps the targets' own).
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  math::MathExtendToSupportedTypesOptions extend;
  extend.extraTypeStrs = {"f16"};
  kernels.addPass(math::createMathExtendToSupportedTypes(extend));
  LowerWarpOpsOptions warp;
  warp.target = options.target == TargetKind::Amdgpu ? "rocdl" : "nvvm";
  warp.injectBallotLowHalf = options.faults.contains(Fault::WarpBallotLowHalf);
  warp.injectWarpSyncDropped = options.faults.contains(Fault::WarpSyncDropped);
  warp.injectShuffleWaveWidth =
      options.faults.contains(Fault::WarpShuffleWaveWidth);
  kernels.addPass(createLowerWarpOps(warp));
  KernelAllocsToAttributionsOptions attributions;
  attributions.injectWgAllocAsMalloc =
      options.faults.contains(Fault::WgAllocAsMalloc);
  attributions.injectWgUnaligned = options.faults.contains(Fault::WgUnaligned);
  kernels.addPass(createKernelAllocsToAttributions(attributions));
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  // Kernel parameters are bare pointers, one per binding in the plan's
  // order (every kernel buffer is a whole, statically shaped plan buffer):
  // the runtime passes device addresses, not memref descriptors.
  if (options.target == TargetKind::Amdgpu) {
    ConvertGpuOpsToROCDLOpsOptions rocdl;
    rocdl.chipset = chip;
    rocdl.useBarePtrCallConv = true;
    kernels.addPass(createConvertGpuOpsToROCDLOps(rocdl));
    kernels.addPass(createAmdgpuNoVectorizeShifts());
  } else {
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.useBarePtrCallConv = true;
    kernels.addPass(createConvertGpuOpsToNVVMOps(nvvm));
    kernels.addPass(createDropUnusedLibdevice());
    GridDependencyControlOptions grid;
    grid.injectWaitAtExit = options.faults.contains(Fault::PdlWaitAtExit);
    kernels.addPass(createGridDependencyControl(grid));
  }
  kernels.addPass(createReconcileUnrealizedCastsPass());
  if (!options.withoutBinary)
    addGpuSerialization(pm, options);
}

void sift::addGpuSerialization(OpPassManager &pm,
                               const PipelineOptions &options) {
  // Step 3. Serialize: PTX text for nvptx, an HSACO (linked with the
  // toolkit's ld.lld) for amdgpu.
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget =
      options.target == TargetKind::Amdgpu ? "bin" : "isa";
  binary.toolkitPath = options.toolkitPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void sift::addEmuKernelLowering(OpPassManager &pm) {
  pm.nest<gpu::GPUModuleOp>().addPass(createLowerTargetKernelsForHost());
}

LogicalResult sift::addPipeline(OpPassManager &pm,
                                const PipelineOptions &options,
                                std::string &error) {
  switch (options.kind) {
  case PipelineKind::Cpu: addCpuPipeline(pm, options); return success();
  case PipelineKind::Distribute:
    if (options.target == TargetKind::Host) {
      error = "the distribute pipeline targets nvptx or amdgpu, not host";
      return failure();
    }
    addDistributePipeline(pm, options);
    return success();
  case PipelineKind::TileAndFuse:
    if (options.target == TargetKind::Host) {
      error = "the tileandfuse pipeline targets nvptx or amdgpu, not host";
      return failure();
    }
    addTileAndFusePipeline(pm, options);
    return success();
  case PipelineKind::Iree:
  case PipelineKind::IreeTileAndFuse:
  case PipelineKind::IreeDistribute:
    error = "the " + std::string(toString(options.kind)) +
            " pipeline is IREE's, not sift's";
    return failure();
  }
  error = "unknown pipeline";
  return failure();
}

namespace {

/// The textual options of --sift-distribute-pipeline.
struct GpuPipelineCliOptions
    : public PassPipelineOptions<GpuPipelineCliOptions> {
  Option<std::string> target{*this, "target", llvm::cl::desc("nvptx or amdgpu"),
                             llvm::cl::init("nvptx")};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("The GPU chip (default per target)"),
                           llvm::cl::init("")};
  Option<std::string> toolkit{
      *this, "toolkit", llvm::cl::desc("amdgpu: a folder with llvm/bin/ld.lld"),
      llvm::cl::init("")};
  Option<std::string> libdevice{*this, "libdevice",
                                llvm::cl::desc("nvptx: CUDA's libdevice.10.bc"),
                                llvm::cl::init("")};
  Option<int64_t> randomConfigSeed{
      *this, "random-config-seed",
      llvm::cl::desc("Draw random lowering configs from this seed (-1: off)"),
      llvm::cl::init(-1)};
};

/// Registers --sift-<name>-pipeline for a GPU pipeline: an unknown target
/// or chip is an error (naming the valid ones), never a silent default.
void registerGpuPipeline(StringRef arg, StringRef description,
                         sift::PipelineKind kind) {
  using namespace sift;
  registerPassPipeline(
      arg, description,
      [kind](OpPassManager &pm, StringRef text,
             function_ref<LogicalResult(const Twine &)> errorHandler) {
        GpuPipelineCliOptions cli;
        if (failed(cli.parseFromString(text)))
          return failure();
        std::optional<TargetKind> target = parseTargetKind(cli.target);
        if (!target || *target == TargetKind::Host)
          return errorHandler("unknown GPU target '" + cli.target +
                              "'; valid targets: nvptx, amdgpu");
        Result<ChipInfo> chip = findChip(*target, cli.chip);
        if (!chip.ok())
          return errorHandler(chip.message());
        PipelineOptions options;
        options.kind = kind;
        options.target = *target;
        options.chip = std::string(chip->name);
        options.toolkitPath = cli.toolkit;
        options.libdevicePath = cli.libdevice;
        options.randomConfigSeed = cli.randomConfigSeed;
        std::string error;
        if (failed(addPipeline(pm, options, error)))
          return errorHandler(error);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(GpuPipelineCliOptions());
      });
}

} // namespace

void sift::registerSiftPipelines() {
  PassPipelineRegistration<>(
      "sift-cpu-pipeline",
      "The sift cpu pipeline: bufferize, lower to loops and to the LLVM "
      "dialect with the host ABI",
      [](OpPassManager &pm) { addCpuPipeline(pm, PipelineOptions{}); });
  registerGpuPipeline(
      "sift-distribute-pipeline",
      "The sift distribute pipeline: kernels per op, the host plan, PTX or "
      "HSACO",
      PipelineKind::Distribute);
  registerGpuPipeline(
      "sift-tileandfuse-pipeline",
      "The sift tileandfuse pipeline: workgroup and thread foralls with fused "
      "producers, bufferization after tiling, PTX or HSACO",
      PipelineKind::TileAndFuse);
}
