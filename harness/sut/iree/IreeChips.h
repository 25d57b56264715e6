//===- harness/sut/iree/IreeChips.h - Chips the installed IREE takes -*- C++
//-*-===//
//
// IREE knows its own list of GPU targets, not sift's: the pinned IREE 3.13
// rejects sm_90 ("missing GPU target in #hal.executable.target"), so a
// campaign that passed sift's default chip to it reported a compile error
// for every case. A chip is what the installed iree-compile accepts: a
// probe compiles a one-dispatch module for it (about a second; each answer
// kept for the process). A run that names no chip gets the first of a
// preference list the IREE accepts; a chip it does not accept is a usage
// error naming the ones it does, before any case runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/iree/IreeToolchain.h"
#include "support/Result.h"
#include "support/Targets.h"

#include <string>
#include <vector>

namespace sift::harness {

/// Whether `iree` compiles a dispatch for `chip` of GPU `target` (host:
/// always). Answers are cached per (compiler, target, chip).
bool ireeAcceptsChip(const rt::IreeToolchain &iree, TargetKind target,
                     const std::string &chip);

/// The chips of sift's table for `target` that `iree` accepts.
std::vector<std::string> ireeAcceptedChips(const rt::IreeToolchain &iree,
                                           TargetKind target);

/// The chip IREE compiles `target` for: `chip` when it accepts it (an
/// empty chip: the first it accepts of sm_90, sm_89, sm_86, sm_80 for
/// nvptx, gfx942, gfx90a, gfx950 for amdgpu; "" for the host). The error
/// names the chip, the IREE version and the chips it accepts.
Result<std::string> ireeChipFor(const rt::IreeToolchain &iree,
                                TargetKind target, const std::string &chip);

} // namespace sift::harness
