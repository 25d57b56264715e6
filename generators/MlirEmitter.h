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

#include "generators/FrontEnd.h"
#include "generators/ProgramModel.h"
#include "support/Result.h"

#include <string>
#include <vector>

namespace sift::gen {

/// The module for `program`, which must pass validate().
std::string emitMlir(const Program &program);

/// How a program is printed for IREE.
struct IreeSpelling {
  FrontEnd frontEnd = FrontEnd::LinalgExt;
  /// `opAttributes[i]`, when present and not empty, goes into op i's
  /// attribute dictionary (a compilation_info that forces a pipeline); only
  /// the iree_linalg_ext front end takes them.
  std::vector<std::string> opAttributes;
  /// Dynamic dimensions of the arguments; every value computed from one
  /// keeps it dynamic (tensor.empty takes its size from tensor.dim).
  DynamicDims dynamicDims;
};

/// The same program as IREE's input. linalg_ext: the sift ops become
/// iree_linalg_ext.sort (named orders as their NaN-aware comparators, a
/// region argument pair per operand) and iree_linalg_ext.topk (outputs
/// filled with what every element beats or ties, an explicit i32 iota as the
/// input's indices and -1 as the initial index, widened to the model's
/// i64). torch: arguments and results are !torch.vtensor, sort is
/// torch.aten.sort of the key (a comparator sort sorts |key| or its low
/// byte) with torch.aten.gather moving the payloads, top-k torch.aten.topk.
/// onnx: the same as ONNX operators (onnx.TopK with k the dimension's size
/// for a sort, onnx.GatherElements, onnx.NonMaxSuppression, whose selected
/// rows are padded to the model's fixed capacity with -1 and counted).
/// Elementwise ops, iotas, slices and gathers are the same linalg and
/// tensor text in every front end (the torch ones convert with torch_c).
/// An error when the front end cannot spell the program (canExpress).
Result<std::string> emitForIree(const Program &program,
                                const IreeSpelling &spelling);

/// emitForIree with the linalg_ext front end, static shapes.
Result<std::string>
emitIreeLinalgExt(const Program &program,
                  const std::vector<std::string> &opAttributes = {});

/// The MLIR spelling of a tensor type, e.g. "tensor<4x8xf32>".
std::string toMlirType(const TensorType &type);

} // namespace sift::gen
