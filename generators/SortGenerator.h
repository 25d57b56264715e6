//===- generators/SortGenerator.h - Random programs around sift.sort ------===//
//
// A program whose main op is one `sift.sort`: 1 to 3 operands moved in
// lockstep (the key first; payloads are other producers of the same shape or
// an iota along the sort dimension, as in argsort), a key of any element
// type, a named order or a comparator region valid for the key type, any sort
// dimension. Elementwise producers feed it, consumers and slices follow it,
// and sometimes only some of its results are used, so that the compiler's
// dropping of unused results is exercised.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/Policy.h"
#include "generators/ProgramModel.h"
#include "generators/Rng.h"

namespace sift::gen {

/// A random program built around one sift.sort.
Program generateSortProgram(const Policy &policy, Rng &rng);

} // namespace sift::gen
