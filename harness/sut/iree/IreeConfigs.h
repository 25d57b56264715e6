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

#include "generators/FrontEnd.h"
#include "generators/ProgramModel.h"
#include "support/Targets.h"

#include <cstdint>
#include <optional>
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

/// The front end a case is spelled in: `chosen` when given, else one drawn
/// from `seed` among those that can spell `program` (the forced pipelines:
/// linalg_ext, whose ops carry their compilation_info).
gen::FrontEnd ireeFrontEnd(const gen::Program &program, PipelineKind pipeline,
                           std::optional<gen::FrontEnd> chosen, uint64_t seed);

/// Which argument dimensions a case marks dynamic, drawn from `seed`: in
/// half the cases none; in the others each dimension of each argument with
/// chance 1/2 (models reach IREE with dynamic batch and sequence sizes).
gen::DynamicDims ireeDynamicDims(const gen::Program &program, uint64_t seed);

} // namespace sift::harness
