//===- generators/FrontEnd.h - The input forms a program is printed in -*- C++ -*-===//
//
// One program model, several spellings: sift's own ops for sift's
// compiler, and for IREE the three ways programs reach it: its own
// iree_linalg_ext ops, the torch dialect (as PyTorch models arrive) and
// ONNX ops in the torch dialect (as ONNX models arrive, and the only way
// NMS does). Plain data, no MLIR: the harness, the oracles' comparison
// policy and sift-run (on a GPU host without LLVM) all name front ends.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"

#include <optional>
#include <string_view>
#include <vector>

namespace sift::gen {

/// Which ops a program's sort, top-k and NMS become.
enum class FrontEnd {
  Sift,      ///< sift.sort, sift.topk, sift.nms (sift's compiler)
  LinalgExt, ///< iree_linalg_ext.sort and .topk (IREE's own input)
  Torch,     ///< torch.aten.sort and torch.aten.topk on !torch.vtensor
  Onnx,      ///< torch.operator "onnx.TopK", "onnx.NonMaxSuppression"
};

/// IREE's front ends, in a fixed order (drawing one from a seed).
inline constexpr FrontEnd kIreeFrontEnds[] = {
    FrontEnd::LinalgExt, FrontEnd::Torch, FrontEnd::Onnx};

/// "sift", "linalg_ext", "torch", "onnx".
std::string_view toString(FrontEnd frontEnd);
std::optional<FrontEnd> parseFrontEnd(std::string_view name);

/// Whether `frontEnd` can spell every op of `program`: NMS has no
/// iree_linalg_ext or torch.aten form (ONNX is how it reaches IREE).
bool canExpress(FrontEnd frontEnd, const Program &program);

/// The IREE front ends that can spell `program`, in kIreeFrontEnds order.
std::vector<FrontEnd> ireeFrontEndsFor(const Program &program);

/// Per function argument of a program (by input position), which of its
/// dimensions are dynamic ('?' in its type; the data's real sizes at run
/// time). Empty, or shorter than the inputs: the rest are static.
using DynamicDims = std::vector<std::vector<bool>>;

} // namespace sift::gen
