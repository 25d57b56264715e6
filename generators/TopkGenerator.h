//===- generators/TopkGenerator.h - Random programs around sift.topk ------===//
//
// A program whose main op is one `sift.topk`: float or integer input, any
// dimension, k from 0 to n (0, 1, n and small k favoured), largest or
// smallest, sometimes a sigmoid right before it (as in detection models),
// and values only, indices only or both used afterwards, with the same
// producers, consumers and slices as the sort family. Most programs are
// aimed at the GPU selects' edges (TopKPolicy::edgeChance): the innermost
// dimension at whole and partial tiles, an edge k, sometimes bf16 and a
// second top-k of the same input in the other direction.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"

namespace sift::gen {

/// A random program built around one sift.topk.
Program generateTopkProgram(const Policy &policy, Rng &rng);

/// A k in [0, n] drawn with the weights of TopKPolicy::kWeights.
int64_t generateK(const TopKPolicy &policy, int64_t n, Rng &rng);

} // namespace sift::gen
