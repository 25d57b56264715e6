//===- RocdlTarget.h - #rocdl.target serialized with lld in process -*- C++ -*-===//
//
// MLIR's own `#rocdl.target` serialization links each HSACO code object by
// running TOOLKIT/llvm/bin/ld.lld, a child process that maps all of LLVM:
// most of an amdgpu compile's time in a fuzz case. sift attaches its own
// TargetAttrInterface model instead. It keeps MLIR's steps (translation,
// device libraries, optimization, ISA, assembly: ROCDL's
// SerializeGPUModuleBase) and only links differently, through Linker.h (lld
// in process when the build has its library; SIFT_LINK=process restores the
// child). The object attribute carries the same kernel metadata.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace sift {

/// Attaches the GPU target serializations every sift tool uses: MLIR's
/// for `#nvvm.target`, sift's (above) for `#rocdl.target`. Call it instead
/// of MLIR's registerROCDLTargetInterfaceExternalModels (the first model
/// attached to an attribute wins).
void registerGpuTargetModels(mlir::DialectRegistry &registry);

} // namespace sift
