//===- oracles/Regenerate.h - An exported case's data, made again ---------===//
//
// An artifact of `harness fuzz --sizes=large --export-artifacts` carries its
// kernels but not its inputs or the reference's outputs (too large to move):
// the GPU host makes them again from the case's seed and the campaign's
// policy recorded in the artifact (rt::ExportedCase), exactly as the
// harness made them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "runtime/Artifact.h"
#include "runtime/ExportedCase.h"
#include "support/Result.h"

namespace sift::oracle {

/// The program of `info` made again from its seed and the policy it
/// records (families, exact keys, sizes). An error when the facts name no
/// policy or sizes, or the program's inputs and outputs are not `plan`'s
/// (an artifact of another sift version).
Result<gen::Program> regenerateProgram(const rt::ExportedCase &info,
                                       const rt::Plan &plan);

/// regenerateProgram, then fills `artifact`'s inputs (the recorded input
/// mode) and expected outputs (the reference). An error says why (also an
/// unknown input mode or a reference failure). The program is returned.
Result<gen::Program> regenerateCase(const rt::ExportedCase &info,
                                    rt::Artifact &artifact);

} // namespace sift::oracle
