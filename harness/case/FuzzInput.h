//===- FuzzInput.h - libFuzzer bytes to a case -----------------*- C++ -*-===//
//
// The structure-aware half of `sift-fuzz`: libFuzzer's bytes are read as a
// sequence of choices (FuzzedDataProvider) that build a program model
// directly: the family, the shape and dimension, element types, a chain of
// elementwise producers, the sort's operands and order or the top-k's k and
// direction, which results are returned, a consumer, and the data mode and
// seed of the inputs. A mutation of one byte changes one choice, so
// libFuzzer's coverage feedback steers the structure, not a random seed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/HostTensor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sift::harness {

struct FuzzCase {
  gen::Program program;
  std::vector<HostTensor> inputs;
};

/// The case `data` describes; nullopt when it describes no valid program
/// (gen::validate fails), which the fuzz target rejects. Short inputs are
/// read as zeros past their end, so every input describes something.
std::optional<FuzzCase> fuzzCaseFromBytes(const uint8_t *data, size_t size);

} // namespace sift::harness
