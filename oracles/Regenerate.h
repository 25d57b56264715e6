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

/// Regenerates the program of `info` (its seed, families, exact keys and
/// sizes), fills `artifact`'s inputs (the recorded input mode) and expected
/// outputs (the reference). An error says why (unknown input mode, a
/// program whose inputs or outputs are not the plan's, a reference
/// failure). The program is returned.
Result<gen::Program> regenerateCase(const rt::ExportedCase &info,
                                    rt::Artifact &artifact);

} // namespace sift::oracle
