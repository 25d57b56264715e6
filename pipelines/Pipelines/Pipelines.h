//===- Pipelines.h - The sift pipelines as C++ recipes ----------*- C++ -*-===//
//
// Each pipeline is a function over typed options that adds numbered steps to
// a pass manager. The kind is an enum with one to/from-name function pair;
// textual registration (`--sift-cpu-pipeline`) exists only for lit and
// sift-opt users.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Fault.h"
#include "support/Targets.h"

#include "mlir/Pass/PassManager.h"

#include <optional>
#include <string>
#include <string_view>

namespace sift {

/// Options every pipeline reads.
struct PipelineOptions {
  PipelineKind kind = PipelineKind::Cpu;
  /// The device target; the cpu pipeline always targets the host.
  TargetKind target = TargetKind::Host;
  /// The GPU chip; empty: defaultChip(target).
  std::string chip;
  /// For amdgpu: a folder with llvm/bin/ld.lld, which links HSACO.
  std::string toolkitPath;
  /// For nvptx: CUDA's libdevice.10.bc (math functions); empty: none.
  std::string libdevicePath;
  /// The function the runtime dispatches.
  std::string entry = "main";
  /// >= 0: strategy selection draws random valid lowering configs from this
  /// seed instead of the default ones (--random-config).
  int64_t randomConfigSeed = -1;
  /// Injected compiler faults (off by default; see support/Fault.h).
  FaultSet faults;
  /// GPU pipelines: the GPU tail stops before serialization, with every
  /// gpu.module lowered to NVVM or ROCDL (the LLVM dialect the GPU back end
  /// gets), so that a copy can become the emu device's kernels
  /// (addEmuKernelLowering) before the module is serialized
  /// (addGpuSerialization).
  bool withoutBinary = false;
};

/// The cpu pipeline, from tensors to the LLVM dialect with the host ABI.
void addCpuPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The distribute pipeline: bufferize first, then one kernel per op with its
/// parallel loops spread over workgroups and threads, then the GPU tail.
void addDistributePipeline(mlir::OpPassManager &pm,
                           const PipelineOptions &options);

/// The tileandfuse pipeline: workgroup and thread scf.forall tiling with
/// elementwise producers fused, bufferization after tiling with the
/// memory-space policy, then the GPU tail.
void addTileAndFusePipeline(mlir::OpPassManager &pm,
                            const PipelineOptions &options);

/// The shared GPU tail: device lowering of every gpu.module to NVVM or ROCDL
/// and serialization to PTX or HSACO (gpu.binary ops; not with
/// `options.withoutBinary`).
void addGpuDeviceTail(mlir::OpPassManager &pm, const PipelineOptions &options);

/// The GPU tail's last step: every gpu.module (NVVM or ROCDL) serialized to
/// PTX or HSACO.
void addGpuSerialization(mlir::OpPassManager &pm,
                         const PipelineOptions &options);

/// The emu device's kernels: every gpu.module the GPU tail lowered to NVVM
/// or ROCDL (withoutBinary) made host functions with the emu device's ABI
/// (sift-lower-target-kernels-for-host).
void addEmuKernelLowering(mlir::OpPassManager &pm);

/// Adds the pipeline `options.kind` names; fails for a pipeline that is not
/// built yet, with a message saying so.
mlir::LogicalResult addPipeline(mlir::OpPassManager &pm,
                                const PipelineOptions &options,
                                std::string &error);

/// Registers `--sift-cpu-pipeline` and `--sift-distribute-pipeline` for
/// sift-opt.
void registerSiftPipelines();

} // namespace sift
