//===- SiftDialect.h - The sift dialect and its ops -------------*- C++ -*-===//
//
// Include this to use the sift dialect: it declares the dialect, its enums
// and its ops (sift.sort, sift.topk, sift.nms, sift.nms_per_class, sift.yield), all generated from
// SiftBase.td and SiftOps.td, and the registration of the external models
// (bufferization) that live in their own files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#include "support/Targets.h"

#include "pipelines/Dialect/SiftDialect.h.inc"
#include "pipelines/Dialect/SiftEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pipelines/Dialect/SiftAttrs.h.inc"

#define GET_OP_CLASSES
#include "pipelines/Dialect/SiftOps.h.inc"

namespace sift {

/// The #sift.pipeline kind of a pipeline: the attribute's cases are
/// support/Targets.h's PipelineKind, in the same order, so the vocabulary
/// has one source (names parse with parsePipelineKind).
inline Pipeline toPipelineAttrKind(PipelineKind kind) {
  static_assert(static_cast<int>(Pipeline::Cpu) ==
                        static_cast<int>(PipelineKind::Cpu) &&
                    static_cast<int>(Pipeline::TileAndFuse) ==
                        static_cast<int>(PipelineKind::TileAndFuse) &&
                    static_cast<int>(Pipeline::Distribute) ==
                        static_cast<int>(PipelineKind::Distribute),
                "#sift.pipeline and PipelineKind list the same pipelines");
  return static_cast<Pipeline>(kind);
}

/// Registers the BufferizableOpInterface models of sift.sort and sift.topk.
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);

/// Adds the sift dialect and everything the sift pipelines need (upstream
/// dialects, their external models, LLVM IR translations) to `registry`.
void registerSiftDialects(mlir::DialectRegistry &registry);

} // namespace sift

namespace sift {

/// Builds `a < b` (i1) in the float total order of SEMANTICS.md (NaN largest,
/// -0.0 == +0.0) for floats, signed order for integers.
mlir::Value buildTotalOrderLess(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value lhs, mlir::Value rhs);

/// Builds the i1 `lhs` sorts before `rhs` for `op`: its named order, or its
/// comparator region inlined at the insertion point.
mlir::Value buildSortLess(mlir::OpBuilder &b, mlir::Location loc, SortOp op,
                          mlir::Value lhs, mlir::Value rhs);

/// Builds the i1 `lhs` is strictly better than `rhs` for `op` (greater when
/// it keeps the largest, less otherwise, in the total order).
mlir::Value buildTopkBetter(mlir::OpBuilder &b, mlir::Location loc, TopkOp op,
                            mlir::Value lhs, mlir::Value rhs);

/// The f32 corners of one NMS box (after its format is applied).
struct NmsCorners {
  mlir::Value ymin, xmin, ymax, xmax;
};

/// Loads box `boxes[batchAndBox..., 0..3]` (f16 widened to f32) and builds its
/// corners: `[y1, x1, y2, x2]` normalized by minimumf/maximumf per axis, or,
/// when `centerPointBox`, `[xc, yc, w, h]` as center -/+ size / 2.
NmsCorners buildNmsCorners(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value boxes, mlir::ValueRange batchAndBox,
                           bool centerPointBox);

/// Builds the f32 IoU of two boxes exactly as SEMANTICS.md orders it:
/// area = (ymax - ymin) * (xmax - xmin); intersection = max(0, min(ymax) -
/// max(ymin)) * max(0, min(xmax) - max(xmin)); union = (areaA + areaB) -
/// intersection; 0 when intersection, an area or the union is <= 0.
mlir::Value buildNmsIoU(mlir::OpBuilder &b, mlir::Location loc,
                        const NmsCorners &a, const NmsCorners &c);

/// The parts of buildNmsIoU before its division: the IoU is 0 when
/// `degenerate`, else intersection / unionArea.
struct NmsOverlap {
  mlir::Value intersection, unionArea, degenerate;
};
NmsOverlap buildNmsOverlap(mlir::OpBuilder &b, mlir::Location loc,
                           const NmsCorners &a, const NmsCorners &c);

/// The corners of box `batchAndBox` of `op`'s boxes as `op` reads them: its
/// box format, and fault nms-unnormalized-corners when `op` records it
/// (corner-format boxes taken as `[ymin, xmin, ymax, xmax]`). Every lowering
/// of the op (scalar, cooperative) builds its corners here.
NmsCorners buildNmsCorners(mlir::OpBuilder &b, mlir::Location loc,
                           NmsPerClassOp op, mlir::ValueRange batchAndBox);

} // namespace sift

namespace sift {

/// The debug name of the canonicalization that drops unused sort results
/// (to disable it by name).
inline constexpr const char *kDropUnusedSortResultsPattern =
    "sift-drop-unused-sort-results";

/// Clones `op` with new operands and result types (tensor to memref, tiles).
/// Regions are cloned after the new op exists, so rewriter listeners never see
/// blocks of a detached region.
mlir::Operation *cloneWithOperands(mlir::OpBuilder &b, mlir::Operation *op,
                                   mlir::TypeRange resultTypes,
                                   mlir::ValueRange operands);

} // namespace sift
