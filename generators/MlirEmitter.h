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
#include "support/Result.h"

#include <string>
#include <vector>

namespace sift::gen {

/// Which ops a program's sort and top-k become.
enum class FrontEnd {
  Sift,          ///< sift.sort, sift.topk, sift.nms (sift's compiler)
  IreeLinalgExt, ///< iree_linalg_ext.sort and .topk (IREE's own input)
};

/// The module for `program`, which must pass validate().
std::string emitMlir(const Program &program);

/// The same program as IREE's input: the sift ops become
/// iree_linalg_ext.sort (named orders as their NaN-aware comparators, a
/// region argument pair per operand) and iree_linalg_ext.topk (outputs
/// filled with what every element beats or ties, an explicit i32 iota as the
/// input's indices and -1 as the initial index, widened to the model's i64);
/// everything else is the same linalg and tensor text. `opAttributes[i]`,
/// when present and not empty, goes into op i's attribute dictionary (a
/// compilation_info that forces a pipeline). NMS has no such form: an error.
Result<std::string>
emitIreeLinalgExt(const Program &program,
                  const std::vector<std::string> &opAttributes = {});

/// The MLIR spelling of a tensor type, e.g. "tensor<4x8xf32>".
std::string toMlirType(const TensorType &type);

} // namespace sift::gen
