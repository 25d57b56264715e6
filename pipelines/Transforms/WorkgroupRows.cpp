//===- WorkgroupRows.cpp - Apply the cooperative algorithms' configs ------===//
//
// sift-workgroup-rows: every bufferized sift.sort, sift.topk and
// sift.nms_per_class whose #sift.lowering_config names a cooperative
// algorithm becomes that algorithm's launches over plan buffers, built by
// its home in Kernels/ (workgroup_row, merge_rows, radix_sort,
// radix_match and radix_onesweep, radix_select, register_select, warp_select,
// mask_blocks and mask_tiles, and an NMS's workgroup_row). The pass only
// reads the config and the planted faults into each algorithm's options;
// which algorithm an op gets is the strategy's choice (Strategy/).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/MergeRows/MergeRows.h"
#include "pipelines/Kernels/Nms/MaskNms.h"
#include "pipelines/Kernels/Nms/WorkgroupNms.h"
#include "pipelines/Kernels/RadixSelect/RadixSelect.h"
#include "pipelines/Kernels/RadixSort/RadixSort.h"
#include "pipelines/Kernels/RegisterSelect/RegisterSelect.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"
#include "pipelines/Kernels/WorkgroupRows/WorkgroupRow.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-workgroup-rows"

namespace sift {
#define GEN_PASS_DEF_WORKGROUPROWS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

/// Workgroup memory (bytes) an NMS suppression mask may take; a larger one
/// is a host-allocated global buffer. Half of NVIDIA's static 48 KiB.
constexpr int64_t kNmsMaskBudget = 24 * 1024;

struct WorkgroupRowsPass final
    : sift::impl::WorkgroupRowsBase<WorkgroupRowsPass> {
  using WorkgroupRowsBase::WorkgroupRowsBase;

  /// Whether sift-workgroup-rows lowers ops of `algorithm`.
  static bool lowersHere(sift::Algorithm algorithm) {
    switch (algorithm) {
    case sift::Algorithm::WorkgroupRow:
    case sift::Algorithm::MergeRows:
    case sift::Algorithm::RadixSelect:
    case sift::Algorithm::RadixSort:
    case sift::Algorithm::RadixOnesweep:
    case sift::Algorithm::RadixMatch:
    case sift::Algorithm::RegisterSelect:
    case sift::Algorithm::WarpSelect:
    case sift::Algorithm::MaskBlocks:
    case sift::Algorithm::MaskTiles:
      return true;
    default:
      return false;
    }
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (!isa<sift::SortOp, sift::TopkOp, sift::NmsPerClassOp>(op))
        return;
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      if (config && lowersHere(config.getAlgorithm()))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (op->getNumResults() != 0) {
        op->emitOpError("must be bufferized before sift-workgroup-rows");
        return signalPassFailure();
      }
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ForallOp>() ||
          op->getParentOfType<scf::ParallelOp>()) {
        op->emitOpError("workgroup_row needs the op at the top level, not "
                        "inside distributed loops");
        return signalPassFailure();
      }
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      rewriter.setInsertionPoint(op);
      LogicalResult lowered =
          isa<sift::NmsPerClassOp>(op)
              ? lowerNms(rewriter, cast<sift::NmsPerClassOp>(op), config)
              : lowerRow(rewriter, op, config);
      if (failed(lowered))
        return signalPassFailure();
    }
  }

  /// An NMS per class: mask blocks or tiles, else a workgroup each.
  LogicalResult lowerNms(IRRewriter &rewriter, sift::NmsPerClassOp nms,
                         sift::LoweringConfigAttr config) {
    if (config.getAlgorithm() == sift::Algorithm::MaskBlocks ||
        config.getAlgorithm() == sift::Algorithm::MaskTiles) {
      sift::MaskNmsOptions mask;
      mask.walkThreads = config.getWorkgroupSize()[0];
      if (config.getAlgorithm() == sift::Algorithm::MaskTiles)
        mask.tileRows = config.getRowTile();
      else
        mask.group = config.getRowTile();
      mask.stageBoxes = stageNmsBoxes;
      mask.barriers = !injectNoBarrier;
      mask.lastBitLost = injectNmsMaskLastBitLost;
      mask.rowNotMerged = injectNmsWalkRowNotMerged;
      mask.tileRowShifted = injectNmsTileLastRowFirstBox;
      if (failed(sift::lowerNmsPerClassByMaskBlocks(rewriter, nms, mask)))
        return failure();
      rewriter.eraseOp(nms);
      return success();
    }
    if (failed(sift::lowerNmsPerClassToWorkgroups(
            rewriter, nms, config.getWorkgroupSize()[0], !injectNoBarrier,
            kNmsMaskBudget)))
      return failure();
    rewriter.eraseOp(nms);
    return success();
  }

  /// A sort or top-k row: the config's algorithm builds its dispatches,
  /// then the op (and the copies folded into the row) goes.
  LogicalResult lowerRow(IRRewriter &rewriter, Operation *op,
                         sift::LoweringConfigAttr config) {
    FailureOr<sift::RowOp> row = sift::describeRow(op);
    if (failed(row))
      return failure();
    sift::Algorithm algorithm = config.getAlgorithm();
    bool radixSort = algorithm == sift::Algorithm::RadixSort ||
                     algorithm == sift::Algorithm::RadixOnesweep ||
                     algorithm == sift::Algorithm::RadixMatch;
    // The algorithms that stage a sort's rows read them from where a copy
    // just before took them (a sort of a read-only input: one read of the
    // input, no copy dispatch).
    bool folds = algorithm == sift::Algorithm::WorkgroupRow || radixSort;
    if (folds)
      sift::foldCopiesIntoRow(*row);
    // The radix sorts write an argsort's iota payload from the slots they
    // carry anyway: no fill launch, no copy aside, no gather.
    if (radixSort)
      sift::foldIotasIntoRow(*row);
    bool registers = algorithm == sift::Algorithm::RegisterSelect ||
                     algorithm == sift::Algorithm::WarpSelect;
    if ((algorithm == sift::Algorithm::RadixSelect || registers) &&
        !isa<sift::TopkOp>(op))
      return op->emitOpError()
             << sift::stringifyAlgorithm(algorithm)
             << " selects a top-k; it cannot sort";
    LogicalResult built = success();
    if (algorithm == sift::Algorithm::RadixSelect)
      built = lowerRadixSelect(rewriter, *row, config);
    else if (registers)
      built = lowerRegisterSelect(rewriter, *row, config);
    else if (radixSort)
      built = lowerRadixSort(rewriter, *row, config);
    else if (algorithm == sift::Algorithm::MergeRows)
      built = lowerMergeRows(rewriter, *row, config);
    else
      sift::lowerRowsToWorkgroups(rewriter, *row, config.getWorkgroupSize()[0],
                                  !injectNoBarrier, injectBf16OrderF16Layout,
                                  injectBareKeysUnchecked);
    if (failed(built))
      return failure();
    rewriter.eraseOp(op);
    if (folds)
      for (Operation *copy : row->foldedCopies)
        rewriter.eraseOp(copy);
    for (Operation *fill : row->foldedIotas)
      rewriter.eraseOp(fill);
    return success();
  }

  LogicalResult lowerRadixSelect(IRRewriter &rewriter, const sift::RowOp &row,
                                 sift::LoweringConfigAttr config) {
    sift::RadixSelectOptions radix;
    radix.chunk = config.getRowTile();
    radix.threads = config.getWorkgroupSize()[0];
    radix.digitOffByOne = injectRadixDigitOffByOne;
    radix.doneRace = injectSelectDoneRace;
    radix.halfNanLayout = injectBf16OrderF16Layout;
    radix.compactDropsBetter = injectRadixCompactDropsBetter;
    radix.fusedBinsKept = injectRadixFusedBinsKept;
    return sift::lowerTopkByRadixSelect(rewriter, row, radix);
  }

  LogicalResult lowerRegisterSelect(IRRewriter &rewriter,
                                    const sift::RowOp &row,
                                    sift::LoweringConfigAttr config) {
    sift::RegisterSelectOptions select;
    select.chunk = config.getRowTile();
    select.threads = config.getWorkgroupSize()[0];
    select.shortMerge = injectSelectMergeOneLevelShort;
    select.warpQueue = config.getAlgorithm() == sift::Algorithm::WarpSelect;
    select.headUnfilled = injectWarpQueueHeadUnfilled;
    select.halfNanLayout = injectBf16OrderF16Layout;
    return sift::lowerTopkByRegisterSelect(rewriter, row, select);
  }

  LogicalResult lowerRadixSort(IRRewriter &rewriter, const sift::RowOp &row,
                               sift::LoweringConfigAttr config) {
    sift::RadixSortOptions radix;
    radix.tile = config.getRowTile();
    radix.threads = config.getWorkgroupSize()[0];
    radix.barriers = !injectNoBarrier;
    radix.lostCarry = injectRadixScanLostCarry;
    radix.onesweep = config.getAlgorithm() == sift::Algorithm::RadixOnesweep;
    radix.match = config.getAlgorithm() == sift::Algorithm::RadixMatch;
    radix.matchPeerBitLost = injectRadixMatchPeerBitLost;
    radix.matchMasksBudget = matchMasksBudget;
    radix.halfNanLayout = injectBf16OrderF16Layout;
    radix.lookbackSkipsOne = injectRadixLookbackSkipsOne;
    radix.tileByBlock = injectRadixTileByBlock;
    radix.tailOverrun = injectRadixTailOverrun;
    radix.splitUnzeroed = injectRadixSplitUnzeroed;
    radix.scanBarrierInBranch = injectScanBarrierInBranch;
    return sift::lowerRowsByRadixSort(rewriter, row, radix);
  }

  LogicalResult lowerMergeRows(IRRewriter &rewriter, const sift::RowOp &row,
                               sift::LoweringConfigAttr config) {
    sift::MergeRowsOptions merge;
    merge.tile = config.getRowTile();
    merge.threads = config.getWorkgroupSize()[0];
    merge.barriers = !injectNoBarrier;
    merge.dropLast = injectMergeDropLast;
    return sift::lowerRowsByMerging(rewriter, row, merge);
  }
};

} // namespace
