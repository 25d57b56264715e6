//===- harness/sut/iree/IreeConfigs.h - Forcing IREE's GPU pipelines -*- C++ -*-===//
//
// IREE picks a codegen pipeline and a lowering config per dispatch; a
// `compilation_info` attribute on a linalg_ext op overrides both. The
// iree-tileandfuse and iree-distribute pipelines put one on every sort and
// top-k: a fixed config by default, or one drawn from the case's seed under
// --random-config (tile sizes that divide their dimension, never the sorted
// one; thread tiles that divide the workgroup's; a workgroup of 32 to 256
// threads, the target's subgroup size).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/Targets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sift::harness {

/// Per op of `program`: the attribute that forces `pipeline` on it
/// ("compilation_info = ..."), or "" (other ops, and the `iree` pipeline,
/// which leaves the choice to IREE).
std::vector<std::string> ireeOpAttributes(const gen::Program &program,
                                          PipelineKind pipeline,
                                          TargetKind target, bool randomConfig,
                                          uint64_t seed);

} // namespace sift::harness
