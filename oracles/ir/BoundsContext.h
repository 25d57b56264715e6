//===- oracles/ir/BoundsContext.h - What the bounds steps share -*- C++ -*-===//
//
// Internal to the out-of-bounds check (Bounds.cpp and its steps, see its file
// comment); included from nowhere else. What more than one step reads of a
// kernel and of an access: the kernel's known thread and block counts, the
// body arguments of a gpu.launch, the loops and guards around an access, the
// bounds of loop induction variables, one index of an access, and integer
// division rounding down or up.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "oracles/ir/Kernels.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>

namespace sift::oracle::bounds {

//===----------------------------------------------------------------------===//
// Kernels, ids and the scopes around an access
//===----------------------------------------------------------------------===//

/// Thread and block ids by their position: thread x, y, z, block x, y, z.
enum IdKind : unsigned { kThreadX = 0, kBlockX = 3, kNumIds = 6 };

/// What a kernel knows of its ids.
struct KernelInfo {
  mlir::gpu::LaunchOp launch; ///< Null unless the kernel is a gpu.launch body.
  std::optional<std::array<int64_t, 3>> blockSize;
  std::optional<std::array<int64_t, 3>> gridSize;

  /// Threads (id < 3) or blocks (id >= 3) along the id's dimension.
  std::optional<int64_t> extent(unsigned id) const {
    const auto &sizes = id < kBlockX ? blockSize : gridSize;
    if (!sizes)
      return std::nullopt;
    return (*sizes)[id % 3];
  }
};

/// What `kernel` knows of its ids: its block size, and its grid size from
/// the gpu.launch operands or the known grid size attributes.
KernelInfo kernelInfo(const detail::Kernel &kernel);

/// A body argument of a gpu.launch: its id (thread or block), or its size.
struct LaunchArgument {
  unsigned id;        ///< kThreadX + d or kBlockX + d.
  bool isSize;        ///< The block or grid size along d, not the id.
  mlir::Value extent; ///< The launch operand of that size.
};

/// What `arg` is when it is a body argument of `launch`.
std::optional<LaunchArgument> launchArgument(mlir::gpu::LaunchOp launch,
                                             mlir::BlockArgument arg);

/// 0, 1, 2 for x, y, z.
unsigned dimensionIndex(mlir::gpu::Dimension dim);

/// One loop or guard around an access.
struct Scope {
  enum Kind { Loop, If, AffineIf } kind;
  mlir::Operation *op;
  bool thenBranch = true; ///< If, AffineIf: the access is in the then-region.
};

/// The loops and guards between the kernel and an access, outermost first.
/// Null when the access is reached in a way this check does not follow
/// (unstructured control flow, scf.while, unknown region ops).
std::optional<llvm::SmallVector<Scope, 6>>
scopesOf(mlir::Operation *access, const detail::Kernel &kernel);

/// A loop's induction variables with their bounds: the max of `lower`'s
/// results, the min of `upper`'s (exclusive), and a step.
struct LoopBounds {
  mlir::AffineMap lower, upper;
  llvm::SmallVector<mlir::Value> lowerOperands, upperOperands;
  mlir::OpFoldResult step;
};

/// The map `()[s0] -> (s0)`.
mlir::AffineMap symbolMap(mlir::MLIRContext *ctx);

/// The bounds of `iv` when it is an induction variable of `loop` that the
/// checks model (scf.for with a signed comparison, scf.parallel,
/// scf.forall, affine.for).
std::optional<LoopBounds> loopBounds(mlir::Operation *loop,
                                     mlir::BlockArgument iv);

/// The induction variables of a loop scope.
llvm::SmallVector<mlir::Value> inductionVariables(mlir::Operation *loop);

/// One index of an access, as a one-result map of operands.
struct Index {
  unsigned dim;        ///< The memref dimension.
  mlir::AffineMap map; ///< One result.
  llvm::SmallVector<mlir::Value> operands;
  int64_t size;       ///< The dimension's size.
  int64_t extent = 1; ///< Elements the access touches from the index on.
};

//===----------------------------------------------------------------------===//
// Integers
//===----------------------------------------------------------------------===//

/// The integer arithmetic every IR check shares (Kernels.h).
using detail::ceilDiv;
using detail::evaluateAffine;
using detail::floorDiv;

} // namespace sift::oracle::bounds
