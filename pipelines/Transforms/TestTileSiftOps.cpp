//===- TestTileSiftOps.cpp - Tile sift ops through TilingInterface --------===//
//
// A test pass: tiles every sift op with scf.for loops and the given tile
// sizes, so lit can check the ops' TilingInterface implementation (domain,
// operand slices, result positions) without a GPU pipeline.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"

#define DEBUG_TYPE "sift-test-tile"

namespace sift {
#define GEN_PASS_DEF_TESTTILESIFTOPS
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

struct TestTileSiftOpsPass final
    : sift::impl::TestTileSiftOpsBase<TestTileSiftOpsPass> {
  using TestTileSiftOpsBase::TestTileSiftOpsBase;

  void runOnOperation() override {
    SmallVector<TilingInterface> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<sift::SortOp, sift::TopkOp>(op))
        ops.push_back(cast<TilingInterface>(op));
    });
    IRRewriter rewriter(&getContext());
    for (TilingInterface op : ops) {
      size_t rank = op.getLoopIteratorTypes().size();
      SmallVector<OpFoldResult> sizes;
      for (size_t i = 0; i < rank; ++i)
        sizes.push_back(
            rewriter.getIndexAttr(i < tileSizes.size() ? tileSizes[i] : 0));
      scf::SCFTilingOptions options;
      options.setTileSizes(sizes);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled =
          scf::tileUsingSCF(rewriter, op, options);
      if (failed(tiled)) {
        op.emitError("tiling failed");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, tiled->replacements);
    }
  }
};

} // namespace
