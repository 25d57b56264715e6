//===- BoundsContext.cpp - Kernels, ids and scopes for the bounds check ---===//
//
// The shared part of the out-of-bounds check (BoundsContext.h): what a
// kernel knows of its thread and block counts, which body argument of a
// gpu.launch is which id, the loops and guards around an access, the bounds
// of the loops' induction variables, and integer division rounding down or
// up.
//
//===----------------------------------------------------------------------===//

#include "oracles/ir/BoundsContext.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace sift::oracle::detail;

namespace sift::oracle::bounds {

namespace {

std::optional<std::array<int64_t, 3>> sizesOf(std::optional<int64_t> x,
                                              std::optional<int64_t> y,
                                              std::optional<int64_t> z) {
  if (!x || !y || !z)
    return std::nullopt;
  return std::array<int64_t, 3>{*x, *y, *z};
}

std::optional<std::array<int64_t, 3>> sizesOf(DenseI32ArrayAttr attr) {
  if (!attr || attr.size() != 3)
    return std::nullopt;
  return std::array<int64_t, 3>{attr[0], attr[1], attr[2]};
}

Value component(const gpu::KernelDim3 &dims, unsigned d) {
  return d == 0 ? dims.x : d == 1 ? dims.y : dims.z;
}

/// A bound as a one-result map: s0 of the value, or the constant.
void asMap(OpFoldResult bound, AffineMap &map, SmallVectorImpl<Value> &ops,
           MLIRContext *ctx) {
  if (std::optional<int64_t> constant = getConstantIntValue(bound)) {
    map = AffineMap::getConstantMap(*constant, ctx);
    return;
  }
  map = symbolMap(ctx);
  ops.push_back(cast<Value>(bound));
}

} // namespace

//===----------------------------------------------------------------------===//
// Kernels, ids and the scopes around an access
//===----------------------------------------------------------------------===//

KernelInfo kernelInfo(const Kernel &kernel) {
  KernelInfo info;
  info.blockSize = kernel.blockSize;
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel.op)) {
    info.launch = launch;
    info.gridSize = sizesOf(evaluateConstant(launch.getGridSizeX()),
                            evaluateConstant(launch.getGridSizeY()),
                            evaluateConstant(launch.getGridSizeZ()));
  } else if (auto func = dyn_cast<gpu::GPUFuncOp>(kernel.op)) {
    info.gridSize = sizesOf(func.getKnownGridSizeAttr());
  } else {
    info.gridSize = sizesOf(
        kernel.op->getAttrOfType<DenseI32ArrayAttr>("gpu.known_grid_size"));
  }
  return info;
}

std::optional<LaunchArgument> launchArgument(gpu::LaunchOp launch,
                                             BlockArgument arg) {
  if (arg.getOwner() != &launch.getBody().front())
    return std::nullopt;
  gpu::KernelDim3 blockOperands = launch.getBlockSizeOperandValues();
  gpu::KernelDim3 gridOperands = launch.getGridSizeOperandValues();
  for (unsigned d = 0; d < 3; ++d) {
    if (arg == component(launch.getThreadIds(), d))
      return LaunchArgument{kThreadX + d, false, component(blockOperands, d)};
    if (arg == component(launch.getBlockSize(), d))
      return LaunchArgument{kThreadX + d, true, component(blockOperands, d)};
    if (arg == component(launch.getBlockIds(), d))
      return LaunchArgument{kBlockX + d, false, component(gridOperands, d)};
    if (arg == component(launch.getGridSize(), d))
      return LaunchArgument{kBlockX + d, true, component(gridOperands, d)};
  }
  return std::nullopt;
}

unsigned dimensionIndex(gpu::Dimension dim) {
  return static_cast<unsigned>(dim);
}

std::optional<SmallVector<Scope, 6>> scopesOf(Operation *access,
                                              const Kernel &kernel) {
  SmallVector<Scope, 6> scopes;
  Operation *op = access;
  while (true) {
    Block *block = op->getBlock();
    if (!block || !block->isEntryBlock())
      return std::nullopt;
    Operation *parent = block->getParentOp();
    if (!parent)
      return std::nullopt;
    if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, affine::AffineForOp>(
            parent)) {
      scopes.push_back({Scope::Loop, parent});
    } else if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      scopes.push_back(
          {Scope::If, parent, block->getParent() == &ifOp.getThenRegion()});
    } else if (auto ifOp = dyn_cast<affine::AffineIfOp>(parent)) {
      scopes.push_back({Scope::AffineIf, parent,
                        block->getParent() == &ifOp.getThenRegion()});
    } else if (parent != kernel.op &&
               !isa<scf::ExecuteRegionOp, memref::AllocaScopeOp>(parent)) {
      return std::nullopt;
    }
    if (parent == kernel.op)
      break;
    op = parent;
  }
  std::reverse(scopes.begin(), scopes.end());
  return scopes;
}

AffineMap symbolMap(MLIRContext *ctx) {
  return AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx));
}

std::optional<LoopBounds> loopBounds(Operation *loop, BlockArgument iv) {
  MLIRContext *ctx = loop->getContext();
  LoopBounds bounds;
  unsigned i = iv.getArgNumber();
  auto fromValues = [&](OpFoldResult lb, OpFoldResult ub, OpFoldResult step) {
    asMap(lb, bounds.lower, bounds.lowerOperands, ctx);
    asMap(ub, bounds.upper, bounds.upperOperands, ctx);
    bounds.step = step;
    return bounds;
  };
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    if (iv != forOp.getInductionVar() || forOp.getUnsignedCmp())
      return std::nullopt;
    return fromValues(forOp.getLowerBound(), forOp.getUpperBound(),
                      forOp.getStep());
  }
  if (auto parallel = dyn_cast<scf::ParallelOp>(loop)) {
    if (i >= parallel.getNumLoops())
      return std::nullopt;
    return fromValues(parallel.getLowerBound()[i], parallel.getUpperBound()[i],
                      parallel.getStep()[i]);
  }
  if (auto forall = dyn_cast<scf::ForallOp>(loop)) {
    if (i >= forall.getRank())
      return std::nullopt;
    return fromValues(forall.getMixedLowerBound()[i],
                      forall.getMixedUpperBound()[i], forall.getMixedStep()[i]);
  }
  if (auto forOp = dyn_cast<affine::AffineForOp>(loop)) {
    if (iv != forOp.getInductionVar())
      return std::nullopt;
    bounds.lower = forOp.getLowerBoundMap();
    bounds.upper = forOp.getUpperBoundMap();
    bounds.lowerOperands = llvm::to_vector(forOp.getLowerBoundOperands());
    bounds.upperOperands = llvm::to_vector(forOp.getUpperBoundOperands());
    bounds.step = Builder(ctx).getIndexAttr(forOp.getStepAsInt());
    return bounds;
  }
  return std::nullopt;
}

SmallVector<Value> inductionVariables(Operation *loop) {
  if (auto forOp = dyn_cast<scf::ForOp>(loop))
    return {forOp.getInductionVar()};
  if (auto parallel = dyn_cast<scf::ParallelOp>(loop))
    return llvm::to_vector(parallel.getInductionVars());
  if (auto forall = dyn_cast<scf::ForallOp>(loop))
    return forall.getInductionVars();
  if (auto forOp = dyn_cast<affine::AffineForOp>(loop))
    return {forOp.getInductionVar()};
  return {};
}

} // namespace sift::oracle::bounds
