//===- Pipelines.cpp - The sift pipelines as C++ recipes ------------------===//
//
// The cpu pipeline: prepare the entry, bufferize the whole program with the
// function boundary, lower sift and linalg ops to loops, then to the LLVM
// dialect and the host ABI the cpu runtime calls. The GPU pipelines
// (tileandfuse, distribute) come with issue #3.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Pipelines/Pipelines.h"

#include "pipelines/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

std::string_view sift::toString(PipelineKind kind) {
  switch (kind) {
  case PipelineKind::Cpu:
    return "cpu";
  case PipelineKind::TileAndFuse:
    return "tileandfuse";
  case PipelineKind::Distribute:
    return "distribute";
  }
  return "?";
}

std::optional<sift::PipelineKind> sift::parsePipelineKind(std::string_view name) {
  for (PipelineKind kind : kAllPipelineKinds)
    if (toString(kind) == name)
      return kind;
  return std::nullopt;
}

void sift::addCpuPipeline(OpPassManager &pm, const PipelineOptions &options) {
  // Step 1. Simplify: drop unused sort results, fold what folds.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Step 2. Record the plan from the tensor signature, and keep input
  // buffers read-only.
  pm.addPass(createRecordDispatchPlan(RecordDispatchPlanOptions{options.entry}));
  pm.addPass(createMarkInputsReadOnly());

  // Step 3. Bufferize the whole module, results become trailing out-params,
  // temporaries get deallocations.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);

  // Step 4. Lower sift ops (scalar implementation), copies and linalg to
  // loops.
  pm.addNestedPass<func::FuncOp>(createCopiesToLinalg());
  pm.addNestedPass<func::FuncOp>(createLowerToLoops());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());

  // Step 5. Lower to the LLVM dialect.
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

  // Step 6. Export the entry with the runtime's host ABI.
  HostEntryAbiOptions abi;
  abi.entry = options.entry;
  pm.addPass(createHostEntryAbi(abi));
}

LogicalResult sift::addPipeline(OpPassManager &pm,
                                const PipelineOptions &options,
                                std::string &error) {
  switch (options.kind) {
  case PipelineKind::Cpu:
    addCpuPipeline(pm, options);
    return success();
  case PipelineKind::TileAndFuse:
  case PipelineKind::Distribute:
    // TODO(#3): the GPU pipelines.
    error = "pipeline '" + std::string(toString(options.kind)) +
            "' is not implemented yet (issue #3); use --pipeline=cpu";
    return failure();
  }
  error = "unknown pipeline";
  return failure();
}

void sift::registerSiftPipelines() {
  PassPipelineRegistration<>(
      "sift-cpu-pipeline",
      "The sift cpu pipeline: bufferize, lower to loops and to the LLVM "
      "dialect with the host ABI",
      [](OpPassManager &pm) { addCpuPipeline(pm, PipelineOptions{}); });
}
