//===- SplitTopk.cpp - Apply split_select configs ------------------------===//
//
// sift-split-topk: every sift.topk on tensors whose config says
// split_select (tileandfuse) is checked against the split's limits and
// rewritten into its parts by Kernels/SplitTopk, before tiling; one over a
// tensor with no element becomes its (empty) destinations.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/SplitTopk/SplitTopk.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "sift-split-topk"

namespace sift {
#define GEN_PASS_DEF_SPLITTOPK
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct SplitTopkPass final : sift::impl::SplitTopkBase<SplitTopkPass> {
  using SplitTopkBase::SplitTopkBase;

  void runOnOperation() override {
    SmallVector<sift::TopkOp> ops;
    getOperation().walk([&](sift::TopkOp op) {
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      if (config && config.getAlgorithm() == sift::Algorithm::SplitSelect)
        ops.push_back(op);
    });
    for (sift::TopkOp op : ops) {
      auto config =
          op->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
      int64_t chunk = config.getRowTile();
      if (!type || op.getNumResults() != 2) {
        op->emitOpError("split_select splits a top-k on tensors");
        return signalPassFailure();
      }
      if (type.hasStaticShape() && type.getNumElements() == 0) {
        // No rows (k <= n, so an empty row has k = 0): the results hold no
        // element, and are their empty destinations. A split would slice
        // the empty batch at offset 0, which the slice's verifier refuses.
        op.getResult(0).replaceAllUsesWith(op.getValuesInit());
        op.getResult(1).replaceAllUsesWith(op.getIndicesInit());
        op.erase();
        continue;
      }
      int64_t rank = type.getRank();
      int64_t n = type.getShape().back();
      if (static_cast<int64_t>(op.getDimension()) != rank - 1 ||
          n <= chunk || chunk <= static_cast<int64_t>(op.getK()) ||
          op.getK() < 1) {
        op->emitOpError("split_select needs the last dimension, k >= 1 and "
                        "a row longer than its chunks of row_tile > k "
                        "elements; row ")
            << n << ", dimension " << op.getDimension() << ", k "
            << op.getK() << ", row_tile " << chunk;
        return signalPassFailure();
      }
      OpBuilder b(op);
      sift::SplitTopkParts split =
          sift::buildSplitTopk(b, op, chunk, injectLostChunkOffset);
      // The values' top-k writes the op's own values destination; the
      // indices are the gather's.
      op.getResult(0).replaceAllUsesWith(split.values);
      op.getResult(1).replaceAllUsesWith(split.indices);
      op.erase();
    }
  }
};

} // namespace
