//===- generators/MlirEmitter.h - Print a Program as MLIR text ------------===//
//
// The only part of the generators that knows MLIR syntax, and it only prints
// text (no MLIR library dependency): one module holding
// `func.func @main(%arg0: tensor<...>, ...) -> (tensor<...>, ...)` with the
// program's ops as `linalg.generic` (elementwise ops and iotas, identity maps,
// all-parallel), `sift.sort`, `sift.topk` and `tensor.extract_slice`, and a
// `return` of the outputs. Float constants are printed as hexadecimal bit
// patterns so they are exact. The text is a pure function of the Program:
// byte-for-byte deterministic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"

#include <string>

namespace sift::gen {

/// The module for `program`, which must pass validate().
std::string emitMlir(const Program &program);

/// The MLIR spelling of a tensor type, e.g. "tensor<4x8xf32>".
std::string toMlirType(const TensorType &type);

} // namespace sift::gen
