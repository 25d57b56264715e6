//===- generators/ProgramGenerator.h - Entry point of program generation --===//
//
// Picks an op family by the Policy's weights and delegates to its generator.
// With a seed instead of an engine, the program comes from the seed's
// `kProgramStream` fork, so that input data (the `kInputStream` fork, see
// InputGenerator.h) never depends on how many draws the program took.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"

#include <cstdint>

namespace sift::gen {

/// The generator's version: raised whenever a seed and policy would give a
/// different program or different data than before, so a stored repro
/// command (`harness fuzz --seed=S --skip=I`) says which generator it needs.
/// Case folders record it (`generator_version`).
///
/// 3: the nms family's top-k pre-filter (NmsPolicy::prefilterChance): some
/// seeds now give a top-k and two gathers before the sift.nms (the other
/// programs and their data are those of version 2: the pre-filter draws from
/// a stream of its own).
///
/// 4: aims at the GPU algorithms' edges, each from a stream of its own
/// (TopKPolicy::edgeChance, NmsPolicy::aimWeights, the mixed input mode's
/// cluster-grid boxes and bf16 extremes): aimed top-k and NMS programs take
/// other sizes, k, max_out and thresholds and some a second top-k; the
/// programs that are not aimed, and sort programs, are those of version 3,
/// and their data too unless they hold bf16 or NMS box inputs.
///
/// 5: 9 in 10 aimed top-k programs take a second top-k (7 in 10 before),
/// and 9 in 10 plain bf16 inputs of the mixed mode get bf16 extremes (half
/// before); the other programs and data are those of version 4.
///
/// 6: in the mixed mode, half the rows of a plain input a top-k reads (not
/// sorted or reversed) get 1 to 3 outliers on the side the top-k
/// keeps, from a stream of their own (InputGenerator.cpp); the programs,
/// and every other input, are those of version 5.
inline constexpr int kGeneratorVersion = 6;

/// A random program of a family drawn from policy.familyWeights. The result
/// passes validate().
Program generateProgram(const Policy &policy, Rng &rng);

/// A random program of `family`.
Program generateProgram(const Policy &policy, Family family, Rng &rng);

/// generateProgram(policy, Rng(seed).fork(kProgramStream)).
Program generateProgram(const Policy &policy, uint64_t seed);

} // namespace sift::gen
