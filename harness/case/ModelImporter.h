//===- harness/ModelImporter.h - Hand-written MLIR as a program model ----===//
//
// Reads a hand-written @main back into the program model
// (generators/ProgramModel.h), so that `harness compile --input` and
// `harness run` can evaluate sift's reference on it: the inverse of
// gen::emitMlir (ModelImporter.cpp says what it accepts).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/Result.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace sift::harness {

/// An MLIR type or attribute as it prints.
template <typename T> std::string printed(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

/// The model type of a statically shaped tensor of a sift element type.
std::optional<gen::TensorType> tensorTypeOf(mlir::Type type);

/// The program model of `main`, or why the reference cannot evaluate it
/// (the error names the op outside its reach).
Result<gen::Program> importModel(mlir::func::FuncOp main);

} // namespace sift::harness
