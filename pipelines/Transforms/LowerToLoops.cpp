//===- LowerToLoops.cpp - sift ops on memrefs to scf loops ----------------===//
//
// The scalar exit path: a loop nest over each sift op's iteration domain with
// the op's scalar implementation (one row per point) inside.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/PrivateRow/PrivateRow.h"
#include "pipelines/Transforms/Passes.h"
#include "support/Shape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/ErrorHandling.h"

#include <chrono>
#include <random>
#include <thread>

#define DEBUG_TYPE "sift-lower-to-loops"

namespace sift {
#define GEN_PASS_DEF_LOWERTOLOOPS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// The computation of one row: the scalar implementation in place, or
/// staged in private memory when the op's config says private_row.
LogicalResult emitRow(OpBuilder &b, Location loc, TilingInterface op,
                      ValueRange ivs) {
  auto config =
      op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
  if (config && config.getAlgorithm() == sift::Algorithm::PrivateRow)
    return sift::emitPrivateRow(b, loc, op, ivs);
  return op.generateScalarImplementation(b, loc, ivs);
}

/// Emits nested scf.for loops over `domain[depth:]` and the scalar
/// implementation innermost.
LogicalResult emitLoops(OpBuilder &b, Location loc, TilingInterface op,
                        ArrayRef<Range> domain, SmallVector<Value> &ivs) {
  if (ivs.size() == domain.size())
    return emitRow(b, loc, op, ivs);
  const Range &range = domain[ivs.size()];
  Value lower = getValueOrCreateConstantIndexOp(b, loc, range.offset);
  Value upper = getValueOrCreateConstantIndexOp(b, loc, range.size);
  Value step = getValueOrCreateConstantIndexOp(b, loc, range.stride);
  LogicalResult status = success();
  scf::ForOp::create(b, loc, lower, upper, step, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
                       ivs.push_back(iv);
                       status = emitLoops(b, loc, op, domain, ivs);
                       ivs.pop_back();
                       scf::YieldOp::create(b, loc);
                     });
  return status;
}

/// Emits one scf.parallel over `domain` (a single iteration when the domain
/// is empty) with the scalar implementation inside.
LogicalResult emitParallelLoop(OpBuilder &b, Location loc, TilingInterface op,
                               ArrayRef<Range> domain) {
  SmallVector<Value> lowers, uppers, steps;
  for (const Range &range : domain) {
    lowers.push_back(getValueOrCreateConstantIndexOp(b, loc, range.offset));
    uppers.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
    steps.push_back(getValueOrCreateConstantIndexOp(b, loc, range.stride));
  }
  bool empty = domain.empty();
  if (empty) {
    lowers.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    uppers.push_back(arith::ConstantIndexOp::create(b, loc, 1));
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  LogicalResult status = success();
  auto loop = scf::ParallelOp::create(
      b, loc, lowers, uppers, steps,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        status = emitRow(b, loc, op, empty ? ValueRange{} : ivs);
      });
  // The loop carries the op's lowering config to sift-map-to-gpu.
  if (Attribute config = op->getAttr("sift.lowering_config"))
    loop->setAttr("sift.lowering_config", config);
  return status;
}

/// The injected compiler faults of this pass: they re-create a compiler that
/// crashes or hangs, so the harness's crash and hang handling can be tested.
void injectFaults(Operation *op, bool crashOnPrime, bool hangOnK1,
                  bool crashAtRandom) {
  // Fault crash-at-random: a coin from the OS, so two runs of one program
  // disagree about half of the time.
  if (isa<sift::SortOp>(op) && crashAtRandom && std::random_device{}() % 2)
    llvm::report_fatal_error("sift-lower-to-loops: injected fault "
                             "crash-at-random: a sort lost a race");
  if (auto sort = dyn_cast<sift::SortOp>(op); sort && crashOnPrime) {
    int64_t n = sort.getKeyType().getDimSize(sort.getDimension());
    if (sift::isPrime(n))
      llvm::report_fatal_error(llvm::Twine("sift-lower-to-loops: injected "
                                           "fault crash-on-prime: sorted "
                                           "dimension of size ") +
                               llvm::Twine(n) + " is prime");
  }
  if (auto topk = dyn_cast<sift::TopkOp>(op); topk && hangOnK1 &&
                                              topk.getK() == 1) {
    // Injected fault hang-on-k1: this pass never returns.
    while (true)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

/// True when `op` already runs inside distributed loops (an scf.parallel or
/// scf.forall): it gets sequential loops.
bool isDistributed(Operation *op) {
  return op->getParentOfType<scf::ParallelOp>() ||
         op->getParentOfType<scf::ForallOp>();
}

struct LowerToLoopsPass final : sift::impl::LowerToLoopsBase<LowerToLoopsPass> {
  using LowerToLoopsBase::LowerToLoopsBase;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<sift::SortOp, sift::TopkOp, sift::NmsPerClassOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (op->getNumResults() != 0) {
        op->emitOpError("must be bufferized before sift-lower-to-loops");
        return signalPassFailure();
      }
      injectFaults(op, crashOnPrime, hangOnK1, crashAtRandom);
      // An op on an empty buffer has no work (and a kernel over it none).
      if (llvm::any_of(op->getOperandTypes(), [](Type type) {
            auto memref = dyn_cast<MemRefType>(type);
            return memref && memref.hasStaticShape() &&
                   memref.getNumElements() == 0;
          })) {
        rewriter.eraseOp(op);
        continue;
      }
      auto tilable = cast<TilingInterface>(op);
      rewriter.setInsertionPoint(op);
      SmallVector<Range> domain = tilable.getIterationDomain(rewriter);
      SmallVector<Value> ivs;
      LogicalResult lowered =
          parallel && !isDistributed(op)
              ? emitParallelLoop(rewriter, op->getLoc(), tilable, domain)
              : emitLoops(rewriter, op->getLoc(), tilable, domain, ivs);
      if (failed(lowered))
        return signalPassFailure();
      rewriter.eraseOp(op);
    }
    if (parallel && failed(lowerLinalgToParallelLoops(rewriter)))
      signalPassFailure();
  }

  /// Linalg ops on memrefs become parallel loops that keep the op's
  /// lowering config.
  LogicalResult lowerLinalgToParallelLoops(IRRewriter &rewriter) {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          isDistributed(op) ? linalg::linalgOpToLoops(rewriter, op)
                            : linalg::linalgOpToParallelLoops(rewriter, op);
      if (failed(loops))
        return op->emitOpError("cannot be lowered to parallel loops");
      Attribute config = op->getAttr("sift.lowering_config");
      if (config && !loops->empty())
        loops->front()->setAttr("sift.lowering_config", config);
      rewriter.eraseOp(op);
    }
    return success();
  }
};

} // namespace
