//===- LowerWarpOps.cpp - sift.warp_ballot and sift.warp_sync per target --===//
//
// The warp-level ops that radix_match's ranking builds stay target-neutral
// until the kernels are outlined; this pass gives them the target's form
// (Passes.td says which). The host form makes a warp's exchange a
// workgroup one: every thread writes its slot, all wait, each reads its
// warp's 32 slots, all wait again, so the emu device's checkers see it as
// ordinary workgroup-memory traffic between barriers.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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
    if (target != "nvvm" && target != "rocdl" && target != "host") {
      getOperation().emitError("sift-lower-warp-ops: target must be nvvm, "
                               "rocdl or host, not '")
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
      if (isa<sift::WarpBallotOp, sift::WarpSyncOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return success();
    IRRewriter rewriter(func.getContext());
    Value scratch, linear;
    int64_t threads = 0;
    if (target == "host") {
      auto sizes = func.getKnownBlockSize();
      if (!sizes)
        return func.emitError("sift-lower-warp-ops: the host form of a warp "
                              "op needs the kernel's known_block_size");
      threads = int64_t{(*sizes)[0]} * (*sizes)[1] * (*sizes)[2];
      rewriter.setInsertionPointToStart(&func.getBody().front());
      Location loc = func.getLoc();
      scratch = memref::AllocOp::create(
          rewriter, loc,
          sift::workgroupMemRefType(rewriter.getContext(), threads,
                                    rewriter.getI32Type()));
      // The linear thread id: x + X (y + Y z).
      Value x = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::x);
      Value y = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::y);
      Value z = gpu::ThreadIdOp::create(rewriter, loc, gpu::Dimension::z);
      auto c = [&](int64_t v) {
        return arith::ConstantIndexOp::create(rewriter, loc, v);
      };
      Value yz = arith::AddIOp::create(
          rewriter, loc, y,
          arith::MulIOp::create(rewriter, loc, z, c((*sizes)[1])));
      linear = arith::AddIOp::create(
          rewriter, loc, x,
          arith::MulIOp::create(rewriter, loc, yz, c((*sizes)[0])));
    }
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto ballot = dyn_cast<sift::WarpBallotOp>(op)) {
        Value mask;
        if (target == "nvvm")
          mask = lowerNvvm(rewriter, loc, ballot.getPredicate());
        else if (target == "rocdl")
          mask = lowerRocdl(rewriter, loc, ballot.getPredicate());
        else
          mask = lowerHost(rewriter, loc, ballot.getPredicate(), scratch,
                           linear, threads);
        rewriter.replaceOp(op, mask);
        continue;
      }
      if (target == "nvvm")
        NVVM::SyncWarpOp::create(rewriter, loc, allLanes(rewriter, loc));
      else if (target == "rocdl")
        LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acq_rel,
                              "wavefront");
      else
        gpu::BarrierOp::create(rewriter, loc);
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

  /// A wave64's ballot holds two warps: each lane takes its half's.
  static Value lowerRocdl(OpBuilder &b, Location loc, Value predicate) {
    Type i64 = b.getI64Type();
    Value wave = ROCDL::BallotOp::create(b, loc, i64, predicate);
    Value lane = arith::IndexCastUIOp::create(
        b, loc, i64, gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr));
    Value half = arith::AndIOp::create(
        b, loc, lane, arith::ConstantIntOp::create(b, loc, i64, kWarp));
    Value shifted = arith::ShRUIOp::create(b, loc, wave, half);
    return arith::TruncIOp::create(b, loc, b.getI32Type(), shifted);
  }

  static Value lowerHost(OpBuilder &b, Location loc, Value predicate,
                         Value scratch, Value linear, int64_t threads) {
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value bit = arith::ExtUIOp::create(b, loc, i32, predicate);
    memref::StoreOp::create(b, loc, bit, scratch, linear);
    gpu::BarrierOp::create(b, loc);
    Value first = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, linear, c(kWarp)), c(kWarp));
    Value end = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, c(kWarp)), c(threads));
    auto loop = scf::ForOp::create(
        b, loc, first, end, c(1),
        ValueRange{arith::ConstantIntOp::create(b, loc, i32, 0)},
        [&](OpBuilder &b, Location loc, Value t, ValueRange acc) {
          Value slot = memref::LoadOp::create(b, loc, scratch, t);
          Value lane = arith::IndexCastUIOp::create(
              b, loc, i32, arith::SubIOp::create(b, loc, t, first));
          Value placed = arith::ShLIOp::create(b, loc, slot, lane);
          scf::YieldOp::create(
              b, loc, arith::OrIOp::create(b, loc, acc[0], placed).getResult());
        });
    gpu::BarrierOp::create(b, loc);
    return loop.getResult(0);
  }
};

} // namespace
