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
#include "support/Result.h"
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

/// `text` (IREE input after its input phase: iree_linalg_ext ops in their
/// custom form) with a compilation_info forcing `pipeline` on every
/// iree_linalg_ext.sort and .topk that has none, from the op's own
/// iteration shape (`?` for a dynamic size: a tile drawn without knowing
/// the size, 1 by default) and dimension. This is how the forced pipelines
/// reach programs the torch and ONNX front ends spell: IREE's input phase
/// writes their sorts and top-ks, then they are annotated. `forced` counts
/// the ops annotated; an op the function cannot read is an error naming it.
Result<std::string> forceLinalgExtOps(const std::string &text,
                                      PipelineKind pipeline, TargetKind target,
                                      bool randomConfig, uint64_t seed,
                                      int &forced);

/// Why IREE's diagnostic `line` rejects a forced config rather than
/// failing on a valid one, or "": a config that needs more workgroup
/// memory than the chip has is the config's fault (the forced pipelines
/// choose it, IREE only refuses it); the same diagnostic under IREE's own
/// choice (the iree pipeline) is a finding, and so is a size no config
/// asks for (2^55 bytes: an allocation sized from a dynamic dimension).
std::string forcedConfigRejection(const std::string &line);

/// The front end a case is spelled in: `chosen` when given, else one drawn
/// from `seed` among those that can spell `program`.
gen::FrontEnd ireeFrontEnd(const gen::Program &program,
                           std::optional<gen::FrontEnd> chosen, uint64_t seed);

/// Which argument dimensions a case marks dynamic, drawn from `seed`: in
/// half the cases none; in the others each dimension of each argument with
/// chance 1/2 (models reach IREE with dynamic batch and sequence sizes).
gen::DynamicDims ireeDynamicDims(const gen::Program &program, uint64_t seed);

} // namespace sift::harness
