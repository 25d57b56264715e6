//===- TileAndFuse.cpp - Workgroup and thread tiling with fusion ----------===//
//
// The tiling half of the tileandfuse pipeline (like IREE's
// LLVMGPUTileAndFuse): consumers are tiled with scf.forall at workgroup and
// thread level as their lowering configs say, and their elementwise
// producers are fused into the loops. Bufferization runs afterwards, so the
// fused producers' tiles become per-thread temporaries whose memory space
// the pipeline's policy decides.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Kernels/RowKernels/RowKernels.h"
#include "pipelines/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

#define DEBUG_TYPE "sift-tile-and-fuse"

namespace sift {
#define GEN_PASS_DEF_TILEANDFUSE
#include "pipelines/Transforms/Passes.h.inc"
} // namespace sift

using namespace mlir;

namespace {

enum class Level { Workgroup, Thread };

/// The mapping attribute of dimension `axis` (0 = x) at `level`.
Attribute mappingAttr(MLIRContext *context, Level level, int64_t axis) {
  auto id = static_cast<gpu::MappingId>(static_cast<int64_t>(gpu::MappingId::DimX) + axis);
  if (level == Level::Workgroup)
    return gpu::GPUBlockMappingAttr::get(context, id);
  return gpu::GPUThreadMappingAttr::get(context, id);
}

/// Tile sizes (0 = untiled) and mapping of `config` at `level` for a domain
/// of `rank`: only the innermost three dimensions are tiled; x innermost.
void tilesAndMapping(MLIRContext *context, sift::LoweringConfigAttr config,
                     Level level, int64_t rank,
                     SmallVector<OpFoldResult> &sizes,
                     SmallVector<Attribute> &mapping) {
  Builder b(context);
  ArrayRef<int64_t> tiles = level == Level::Workgroup
                                ? config.getWorkgroupTile().asArrayRef()
                                : config.getThreadTile().asArrayRef();
  sizes.clear();
  mapping.clear();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t axis = rank - 1 - d;
    if (axis >= 3 || d >= static_cast<int64_t>(tiles.size())) {
      sizes.push_back(b.getIndexAttr(0));
      continue;
    }
    sizes.push_back(b.getIndexAttr(tiles[d]));
    mapping.push_back(mappingAttr(context, level, axis));
  }
}

/// Algorithms whose workgroups cooperate on a row (lowered whole by
/// sift-workgroup-rows after bufferization, never tiled).
bool isCooperative(sift::Algorithm algorithm) {
  return algorithm == sift::Algorithm::WorkgroupRow ||
         algorithm == sift::Algorithm::MergeRows ||
         algorithm == sift::Algorithm::RadixSelect ||
         algorithm == sift::Algorithm::RegisterSelect ||
         algorithm == sift::Algorithm::WarpSelect ||
         algorithm == sift::Algorithm::RadixSort ||
         algorithm == sift::Algorithm::RadixOnesweep ||
         algorithm == sift::Algorithm::RadixMatch ||
         algorithm == sift::Algorithm::MaskBlocks ||
         algorithm == sift::Algorithm::MaskTiles;
}

/// Fuse elementwise linalg producers (not sift ops: their rows span tiles).
bool isFusable(Operation *producer) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(producer);
  return linalgOp && linalgOp.getNumReductionLoops() == 0;
}

/// The domain dimensions of `consumer` that index `operand`: a linalg op's
/// indexing map says; a `sift.nms_per_class` reads the boxes of its batch
/// whatever the class; a sort or top-k row is indexed by every dimension.
llvm::SmallBitVector dimsIndexing(Operation *consumer, OpOperand &operand,
                                  int64_t rank) {
  llvm::SmallBitVector dims(rank, true);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(consumer)) {
    dims.reset();
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr expr) {
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          if (static_cast<int64_t>(dim.getPosition()) < rank)
            dims.set(dim.getPosition());
      });
  } else if (auto nms = dyn_cast<sift::NmsPerClassOp>(consumer)) {
    if (operand.get() == nms.getBoxes()) {
      dims.reset();
      dims.set(0);
    }
  }
  return dims;
}

/// The bytes per thread that fusing every fusable producer of `consumer`
/// (transitively) into its thread loops would take: each producer's result
/// tile of one thread becomes a private temporary. A thread's share of an
/// operand is the fraction of the (up to three innermost) tiled domain
/// dimensions that index the operand its thread tile covers; dimensions
/// outside the domain (a sift op's row), untiled ones and ones that do not
/// index the operand (an NMS class's boxes) are whole. A producer's own
/// producers share its fraction.
int64_t fusedBytesPerThread(TilingInterface consumer,
                            sift::LoweringConfigAttr config) {
  OpBuilder b(consumer.getContext());
  SmallVector<int64_t> domain;
  for (const Range &range : consumer.getIterationDomain(b)) {
    std::optional<int64_t> size = getConstantIntValue(range.size);
    domain.push_back(size ? *size : 1);
  }
  ArrayRef<int64_t> threadTiles = config.getThreadTile().asArrayRef();
  int64_t rank = domain.size();
  auto fractionOf = [&](const llvm::SmallBitVector &dims) {
    double fraction = 1.0;
    for (int64_t d = 0; d < std::min<int64_t>(rank, 3); ++d) {
      int64_t axis = rank - 1 - d;
      if (dims.test(axis) &&
          axis < static_cast<int64_t>(threadTiles.size()) && domain[axis] > 0)
        fraction *= static_cast<double>(std::min(threadTiles[axis],
                                                 domain[axis])) /
                    static_cast<double>(domain[axis]);
    }
    return fraction;
  };
  double bytes = 0;
  llvm::SmallPtrSet<Operation *, 8> seen;
  SmallVector<std::pair<Operation *, double>> worklist;
  for (OpOperand &operand : consumer->getOpOperands()) {
    Operation *producer = operand.get().getDefiningOp();
    if (!isFusable(producer) || !seen.insert(producer).second)
      continue;
    double fraction = fractionOf(dimsIndexing(consumer, operand, rank));
    auto type = cast<ShapedType>(operand.get().getType());
    bytes += static_cast<double>(type.getNumElements()) *
             std::max<int64_t>(1, type.getElementTypeBitWidth() / 8) *
             fraction;
    worklist.push_back({producer, fraction});
  }
  while (!worklist.empty()) {
    auto [op, fraction] = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!isFusable(producer) || !seen.insert(producer).second)
        continue;
      auto type = cast<ShapedType>(operand.getType());
      bytes += static_cast<double>(type.getNumElements()) *
               std::max<int64_t>(1, type.getElementTypeBitWidth() / 8) *
               fraction;
      worklist.push_back({producer, fraction});
    }
  }
  return static_cast<int64_t>(std::ceil(bytes));
}

/// Wraps a tensor DPS op with an empty domain in a one-iteration scf.forall
/// mapped to `mapping`, returning the new op inside it.
FailureOr<Operation *> wrapInForall(RewriterBase &rewriter, Operation *op,
                                    Attribute mapping) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  SmallVector<Value> inits(dps.getDpsInits());
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  auto forall = scf::ForallOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)}, inits,
      rewriter.getArrayAttr({mapping}));
  Block *body = forall.getBody();
  rewriter.setInsertionPointToStart(body);
  IRMapping map;
  for (auto [init, arg] : llvm::zip(inits, forall.getRegionIterArgs()))
    map.map(init, arg);
  Operation *inner = rewriter.clone(*op, map);
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [result, arg] :
       llvm::zip(inner->getResults(), forall.getRegionIterArgs())) {
    auto type = cast<RankedTensorType>(result.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    tensor::ParallelInsertSliceOp::create(rewriter, loc, result, arg, offsets,
                                          sizes, strides);
  }
  rewriter.replaceOp(op, forall.getResults());
  return inner;
}

/// Tiles `op` at `level` and fuses its elementwise producers; returns the
/// tiled op.
FailureOr<Operation *> tileLevel(RewriterBase &rewriter, TilingInterface op,
                                 sift::LoweringConfigAttr config, Level level,
                                 bool fuse) {
  MLIRContext *context = op.getContext();
  int64_t rank = op.getLoopIteratorTypes().size();
  if (rank == 0)
    return wrapInForall(rewriter, op, mappingAttr(context, level, 0));
  SmallVector<OpFoldResult> sizes;
  SmallVector<Attribute> mapping;
  tilesAndMapping(context, config, level, rank, sizes, mapping);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(sizes);
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setMapping(mapping);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [fuse](tensor::ExtractSliceOp, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!fuse || !isFusable(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(result))
    return op->emitOpError("tile-and-fuse failed");
  for (OpResult value : op->getResults())
    if (Value replacement = result->replacements.lookup(value))
      rewriter.replaceAllUsesWith(value, replacement);
  Operation *tiled = result->tiledAndFusedOps.front();
  if (op->use_empty())
    rewriter.eraseOp(op);
  return tiled;
}

/// Fault tf-keep-unused-results: the destinations of the unused results
/// `unused` of the thread-level op become per-thread buffers in global
/// memory (a sort's keep their tile's data, since it sorts in place).
void keepUnusedResults(RewriterBase &rewriter, Operation *threadOp,
                       ArrayRef<unsigned> unused) {
  auto dps = cast<DestinationStyleOpInterface>(threadOp);
  auto global = gpu::AddressSpaceAttr::get(rewriter.getContext(),
                                           gpu::AddressSpace::Global);
  bool sort = isa<sift::SortOp>(threadOp);
  rewriter.setInsertionPoint(threadOp);
  for (unsigned result : unused) {
    OpOperand *init = dps.getDpsInitOperand(result);
    auto type = cast<RankedTensorType>(init->get().getType());
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(tensor::DimOp::create(
            rewriter, threadOp->getLoc(), init->get(), d));
    auto buffer = bufferization::AllocTensorOp::create(
        rewriter, threadOp->getLoc(), type, dynamicSizes,
        sort ? init->get() : Value());
    buffer.setMemorySpaceAttr(global);
    rewriter.modifyOpInPlace(threadOp, [&] { init->set(buffer); });
  }
}

struct TileAndFusePass final : sift::impl::TileAndFuseBase<TileAndFusePass> {
  using TileAndFuseBase::TileAndFuseBase;

  void runOnOperation() override {
    // Consumers, last first: an op fused into a later consumer is gone by
    // the time the walk would reach it.
    SmallVector<Operation *> roots;
    getOperation().walk([&](Operation *op) {
      if (isa<sift::SortOp, sift::TopkOp, sift::NmsPerClassOp,
              linalg::LinalgOp>(op) &&
          !op->getParentOfType<scf::ForallOp>())
        roots.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *root : llvm::reverse(roots)) {
      if (!root->getBlock() || root->getParentOfType<scf::ForallOp>())
        continue;
      if (replacedByInits(rewriter, root))
        continue;
      if (root->use_empty() && root->getNumResults() > 0 &&
          isa<linalg::LinalgOp>(root))
        continue; // Fused into every consumer already.
      giveOwnEmpties(rewriter, root);
      auto config =
          root->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
      if (!config) {
        root->emitOpError("has no sift.lowering_config to tile by");
        return signalPassFailure();
      }
      // A row too long for a thread's private memory gets a cooperative
      // algorithm (workgroups on a row): the op stays whole for
      // sift-workgroup-rows, its producers are tiled as consumers of their
      // own.
      if (isCooperative(config.getAlgorithm()) || feedsRadixArgsort(root))
        continue;
      if (failed(tileRoot(rewriter, root, config)))
        return signalPassFailure();
    }
  }

  /// An argsort's iota (a payload of a radix sort, its only user, filled
  /// with positions along the sorted dimension) stays whole: after
  /// bufferization the radix sort folds it (foldIotasIntoRow) and writes
  /// the positions it carries instead of reading them.
  static bool feedsRadixArgsort(Operation *root) {
    auto generic = dyn_cast<linalg::GenericOp>(root);
    if (!generic || generic->getNumResults() != 1 ||
        !generic->getResult(0).hasOneUse())
      return false;
    OpOperand &use = *generic->getResult(0).getUses().begin();
    auto sort = dyn_cast<sift::SortOp>(use.getOwner());
    if (!sort || use.getOperandNumber() == 0)
      return false;
    auto config =
        sort->getAttrOfType<sift::LoweringConfigAttr>("sift.lowering_config");
    if (!config || (config.getAlgorithm() != sift::Algorithm::RadixSort &&
                    config.getAlgorithm() != sift::Algorithm::RadixOnesweep &&
                    config.getAlgorithm() != sift::Algorithm::RadixMatch))
      return false;
    return sift::isIotaAlong(generic, sort.getDimension());
  }

  /// An op whose results all have no elements computes nothing: its
  /// results become its inits (tiles of empty tensors would be out of
  /// bounds). True when it did.
  static bool replacedByInits(IRRewriter &rewriter, Operation *root) {
    auto empty = [](Type type) {
      return cast<ShapedType>(type).getNumElements() == 0;
    };
    if (root->getNumResults() == 0 ||
        !llvm::any_of(root->getResultTypes(), empty) ||
        !llvm::all_of(root->getResultTypes(), empty))
      return false;
    rewriter.replaceOp(root,
                       cast<DestinationStyleOpInterface>(root).getDpsInits());
    return true;
  }

  /// A tensor.empty shared by several destinations (CSE merges them) makes
  /// bufferization copy tiles inside the loops: each destination of `root`
  /// gets its own.
  static void giveOwnEmpties(IRRewriter &rewriter, Operation *root) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(root);
    if (!dps)
      return;
    for (OpOperand &init : dps.getDpsInitsMutable()) {
      auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
      if (!empty || empty->hasOneUse())
        continue;
      rewriter.setInsertionPoint(root);
      Operation *own = rewriter.clone(*empty);
      rewriter.modifyOpInPlace(root, [&] { init.set(own->getResult(0)); });
    }
  }

  /// `root` tiled to workgroups, then threads, its producers fused when
  /// their per-thread tiles fit private memory.
  LogicalResult tileRoot(IRRewriter &rewriter, Operation *root,
                         sift::LoweringConfigAttr config) {
    // A sort works in place on its outs: give it fresh ones, copied at the
    // top level, so bufferization never copies a tile inside a workgroup
    // loop, where every thread would run the copy.
    if (auto sort = dyn_cast<sift::SortOp>(root)) {
      rewriter.setInsertionPoint(sort);
      for (OpOperand &out : sort->getOpOperands()) {
        auto fresh = bufferization::AllocTensorOp::create(
            rewriter, sort.getLoc(),
            cast<RankedTensorType>(out.get().getType()), ValueRange{},
            /*copy=*/out.get());
        rewriter.modifyOpInPlace(sort, [&] { out.set(fresh); });
      }
    }
    SmallVector<unsigned> unused;
    if (isa<sift::SortOp, sift::TopkOp>(root))
      for (OpResult result : root->getResults())
        if (result.use_empty())
          unused.push_back(result.getResultNumber());
    // Producers whose per-thread tiles would not fit private memory stay
    // consumers of their own (tiled later in this walk).
    bool fuse = fusedBytesPerThread(cast<TilingInterface>(root), config) <=
                maxPrivateMemory;
    FailureOr<Operation *> workgroupTile =
        tileLevel(rewriter, cast<TilingInterface>(root), config,
                  Level::Workgroup, fuse);
    if (failed(workgroupTile))
      return failure();
    FailureOr<Operation *> threadTile =
        tileLevel(rewriter, cast<TilingInterface>(*workgroupTile), config,
                  Level::Thread, fuse);
    if (failed(threadTile))
      return failure();
    if (injectKeepUnusedResults)
      keepUnusedResults(rewriter, *threadTile, unused);
    return success();
  }
};

} // namespace
