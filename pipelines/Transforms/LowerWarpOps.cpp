//===- LowerWarpOps.cpp - sift's warp ops per target ----------------------===//
//
// The warp-level ops that radix_match's ranking, the radix sorts' block
// scans and warp_select's queue build stay target-neutral until the kernels are
// outlined; this pass gives them the target's form (Passes.td says which). The
// emu device runs these forms too (it emulates the target's warps:
// sift-lower-target-kernels-for-host). Three planted faults live here:
// warp-ballot-low-half (every lane of a wave of 64 takes its low half's
// votes), warp-sync-dropped (a warp sync lowered as nothing) and
// warp-shuffle-wave-width (a shuffle's source counted as in a wave of 32:
// the upper warp of a wave of 64 reads the lower warp's values; shuffles up
// and by lane alike).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-lower-warp-ops"

namespace sift {
#define GEN_PASS_DEF_LOWERWARPOPS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

constexpr int64_t kWarp = 32;

struct LowerWarpOpsPass final : sift::impl::LowerWarpOpsBase<LowerWarpOpsPass> {
  using LowerWarpOpsBase::LowerWarpOpsBase;

  void runOnOperation() override {
    if (target != "nvvm" && target != "rocdl") {
      getOperation().emitError("sift-lower-warp-ops: target must be nvvm or "
                               "rocdl, not '")
          << target << "'";
      return signalPassFailure();
    }
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (failed(lower(func)))
        return signalPassFailure();
  }

  LogicalResult lower(gpu::GPUFuncOp func) {
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<sift::WarpBallotOp, sift::WarpSyncOp, sift::WarpShuffleUpOp,
              sift::WarpShuffleIdxOp, sift::WaveAnyOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return success();
    IRRewriter rewriter(func.getContext());
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto ballot = dyn_cast<sift::WarpBallotOp>(op)) {
        Value mask =
            target == "nvvm"
                ? lowerNvvm(rewriter, loc, ballot.getPredicate())
                : lowerRocdl(rewriter, loc, ballot.getPredicate(),
                             injectBallotLowHalf);
        rewriter.replaceOp(op, mask);
        continue;
      }
      if (auto shuffle = dyn_cast<sift::WarpShuffleUpOp>(op)) {
        int64_t delta = shuffle.getDelta();
        Value read =
            target == "nvvm"
                ? shuffleUpNvvm(rewriter, loc, shuffle.getValue(), delta)
                : shuffleUpRocdl(rewriter, loc, shuffle.getValue(), delta,
                                 injectShuffleWaveWidth);
        rewriter.replaceOp(op, read);
        continue;
      }
      if (auto shuffle = dyn_cast<sift::WarpShuffleIdxOp>(op)) {
        Value read =
            target == "nvvm"
                ? shuffleIdxNvvm(rewriter, loc, shuffle.getValue(),
                                 shuffle.getLane())
                : shuffleIdxRocdl(rewriter, loc, shuffle.getValue(),
                                  shuffle.getLane(), injectShuffleWaveWidth);
        rewriter.replaceOp(op, read);
        continue;
      }
      if (auto any = dyn_cast<sift::WaveAnyOp>(op)) {
        rewriter.replaceOp(
            op, target == "nvvm"
                    ? waveAnyNvvm(rewriter, loc, any.getPredicate())
                    : waveAnyRocdl(rewriter, loc, any.getPredicate()));
        continue;
      }
      if (injectWarpSyncDropped) {
        // Fault warp-sync-dropped: the lanes go on unsynchronized.
      } else if (target == "nvvm") {
        NVVM::SyncWarpOp::create(rewriter, loc, allLanes(rewriter, loc));
      } else {
        LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acq_rel,
                              "wavefront");
      }
      rewriter.eraseOp(op);
    }
    return success();
  }

  static Value allLanes(OpBuilder &b, Location loc) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), -1);
  }

  static Value lowerNvvm(OpBuilder &b, Location loc, Value predicate) {
    return NVVM::VoteSyncOp::create(b, loc, b.getI32Type(), allLanes(b, loc),
                                    predicate, NVVM::VoteSyncKind::ballot);
  }

  /// PTX's shfl.sync.up over the full warp: a clamp of 0 makes one
  /// segment of 32 lanes (the clamp CUDA's __shfl_up_sync(-1, v, d, 32)
  /// passes).
  static Value shuffleUpNvvm(OpBuilder &b, Location loc, Value value,
                             int64_t delta) {
    Type i32 = b.getI32Type();
    return NVVM::ShflOp::create(
        b, loc, i32, allLanes(b, loc), value,
        arith::ConstantIntOp::create(b, loc, i32, delta),
        arith::ConstantIntOp::create(b, loc, i32, 0), NVVM::ShflKind::up,
        /*return_value_and_is_valid=*/nullptr);
  }

  /// ds_bpermute from lane `lane - delta` of the wave where the lane's
  /// place in its warp of 32 is at least `delta`, else from itself. With
  /// `waveWidth` (fault warp-shuffle-wave-width) the source is counted as
  /// in a wave of 32, from the place alone: on a wave of 64 the upper warp
  /// reads the lower warp's values.
  static Value shuffleUpRocdl(OpBuilder &b, Location loc, Value value,
                              int64_t delta, bool waveWidth) {
    Type i32 = b.getI32Type();
    auto k = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, i32, v);
    };
    Value lane = arith::IndexCastUIOp::create(
        b, loc, i32, gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr));
    Value place = arith::AndIOp::create(b, loc, lane, k(kWarp - 1));
    Value reads = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        place, k(delta));
    Value own = waveWidth ? place : lane;
    Value from = arith::SelectOp::create(
        b, loc, reads, arith::SubIOp::create(b, loc, own, k(delta)), own);
    Value address = arith::ShLIOp::create(b, loc, from, k(2));
    return ROCDL::DsBpermuteOp::create(b, loc, i32, address, value);
  }

  /// PTX's shfl.sync.idx over the full warp from lane `lane` (a clamp of
  /// 31: one segment of 32 lanes).
  static Value shuffleIdxNvvm(OpBuilder &b, Location loc, Value value,
                              Value lane) {
    Type i32 = b.getI32Type();
    return NVVM::ShflOp::create(
        b, loc, i32, allLanes(b, loc), value, lane,
        arith::ConstantIntOp::create(b, loc, i32, kWarp - 1),
        NVVM::ShflKind::idx, /*return_value_and_is_valid=*/nullptr);
  }

  /// ds_bpermute from lane `lane` of the calling lane's warp of 32 within
  /// the wave. With `waveWidth` (fault warp-shuffle-wave-width) the source
  /// is `lane` of the wave: the upper warp of a wave of 64 reads the lower
  /// warp's values.
  static Value shuffleIdxRocdl(OpBuilder &b, Location loc, Value value,
                               Value lane, bool waveWidth) {
    Type i32 = b.getI32Type();
    auto k = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, i32, v);
    };
    Value from = arith::AndIOp::create(b, loc, lane, k(kWarp - 1));
    if (!waveWidth) {
      Value own = arith::IndexCastUIOp::create(
          b, loc, i32, gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr));
      Value warpBase = arith::AndIOp::create(b, loc, own, k(~(kWarp - 1)));
      from = arith::OrIOp::create(b, loc, warpBase, from);
    }
    Value address = arith::ShLIOp::create(b, loc, from, k(2));
    return ROCDL::DsBpermuteOp::create(b, loc, i32, address, value);
  }

  /// A ballot of the warp, not zero.
  static Value waveAnyNvvm(OpBuilder &b, Location loc, Value predicate) {
    Value mask = lowerNvvm(b, loc, predicate);
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne, mask,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  }

  /// A ballot of the whole wave (both warps of a wave64), not zero.
  static Value waveAnyRocdl(OpBuilder &b, Location loc, Value predicate) {
    Type i64 = b.getI64Type();
    Value wave = ROCDL::BallotOp::create(b, loc, i64, predicate);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, wave,
                                 arith::ConstantIntOp::create(b, loc, i64, 0));
  }

  /// A wave64's ballot holds two warps: each lane takes its half's. With
  /// `lowHalf` (fault warp-ballot-low-half) every lane takes the low half:
  /// the upper warp of a wave of 64 sees the lower warp's votes. (A ballot
  /// of 32 bits would lose them too, but LLVM 22's AMDGPU back end cannot
  /// select it for a wave of 64: the compile crashes.)
  static Value lowerRocdl(OpBuilder &b, Location loc, Value predicate,
                          bool lowHalf) {
    Type i64 = b.getI64Type();
    Value wave = ROCDL::BallotOp::create(b, loc, i64, predicate);
    if (lowHalf)
      return arith::TruncIOp::create(b, loc, b.getI32Type(), wave);
    Value lane = arith::IndexCastUIOp::create(
        b, loc, i64, gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr));
    Value half = arith::AndIOp::create(
        b, loc, lane, arith::ConstantIntOp::create(b, loc, i64, kWarp));
    Value shifted = arith::ShRUIOp::create(b, loc, wave, half);
    return arith::TruncIOp::create(b, loc, b.getI32Type(), shifted);
  }
};

} // namespace
