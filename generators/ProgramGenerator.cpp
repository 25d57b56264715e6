//===- generators/ProgramGenerator.cpp - Entry point of program generation ===//
//
// Family choice and delegation.
//
//===----------------------------------------------------------------------===//
#include "generators/ProgramGenerator.h"

#include "generators/NmsGenerator.h"
#include "generators/SortGenerator.h"
#include "generators/TopkGenerator.h"

#include <cassert>

namespace sift::gen {

Program generateProgram(const Policy &policy, Family family, Rng &rng) {
  Program program;
  switch (family) {
  case Family::Sort: program = generateSortProgram(policy, rng); break;
  case Family::TopK: program = generateTopkProgram(policy, rng); break;
  case Family::Nms: program = generateNmsProgram(policy, rng); break;
  }
  assert(validate(program).empty() && "generator built an invalid program");
  return program;
}

Program generateProgram(const Policy &policy, Rng &rng) {
  Family family = kAllFamilies[rng.pickWeighted(policy.familyWeights.data(),
                                                policy.familyWeights.size())];
  return generateProgram(policy, family, rng);
}

Program generateProgram(const Policy &policy, uint64_t seed) {
  Rng rng = Rng(seed).fork(kProgramStream);
  return generateProgram(policy, rng);
}

} // namespace sift::gen
