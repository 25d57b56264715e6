//===- SiftAttrs.cpp - Lowering strategy attributes -----------------------===//
//
// The generated attribute classes of SiftAttrs.td, their registration and the
// verifier of #sift.lowering_config.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace sift;

#define GET_ATTRDEF_CLASSES
#include "pipelines/Dialect/SiftAttrs.cpp.inc"

void SiftDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pipelines/Dialect/SiftAttrs.cpp.inc"
      >();
}

namespace {

using EmitError = function_ref<InFlightDiagnostic()>;

/// The algorithms that take a row_tile (a power of two >= 2, split_select's
/// any length from 2): tiles of a row a workgroup sorts, counts or selects
/// from.
bool takesRowTile(Algorithm algorithm) {
  return algorithm == Algorithm::MergeRows ||
         algorithm == Algorithm::RadixSelect ||
         algorithm == Algorithm::RadixSort ||
         algorithm == Algorithm::RadixOnesweep ||
         algorithm == Algorithm::RadixMatch ||
         algorithm == Algorithm::SplitSelect ||
         algorithm == Algorithm::RegisterSelect ||
         algorithm == Algorithm::WarpSelect;
}

/// Tiles: as many thread as workgroup sizes, each >= 1, the thread's
/// dividing the workgroup's.
LogicalResult verifyTiles(EmitError emitError, DenseI64ArrayAttr workgroupTile,
                          DenseI64ArrayAttr threadTile) {
  if (workgroupTile.size() != threadTile.size())
    return emitError() << "workgroup_tile has " << workgroupTile.size()
                       << " sizes but thread_tile has " << threadTile.size();
  for (auto [i, wg, thread] :
       llvm::enumerate(workgroupTile.asArrayRef(), threadTile.asArrayRef())) {
    if (wg < 1 || thread < 1)
      return emitError() << "tile sizes must be >= 1, dimension " << i
                         << " has workgroup " << wg << " and thread "
                         << thread;
    if (wg % thread != 0)
      return emitError() << "thread_tile " << thread
                         << " does not divide workgroup_tile " << wg
                         << " in dimension " << i;
  }
  return success();
}

/// workgroup_size: [x, y, z], each >= 1, at most 1024 threads (their
/// number in `threads`).
LogicalResult verifyWorkgroupSize(EmitError emitError,
                                  DenseI64ArrayAttr workgroupSize,
                                  int64_t &threads) {
  if (workgroupSize.size() != 3)
    return emitError() << "workgroup_size needs 3 sizes [x, y, z], found "
                       << workgroupSize.size();
  threads = 1;
  for (int64_t size : workgroupSize.asArrayRef()) {
    if (size < 1)
      return emitError() << "workgroup_size entries must be >= 1";
    threads *= size;
  }
  if (threads > 1024)
    return emitError() << "workgroup_size has " << threads
                       << " threads, more than 1024";
  return success();
}

/// row_tile: what each algorithm takes (none for the others).
LogicalResult verifyRowTile(EmitError emitError, Algorithm algorithm,
                            int64_t rowTile, int64_t threads) {
  bool merge = takesRowTile(algorithm);
  // split_select's chunk is any length from 2 (a default split into
  // cooperative parts divides the row: [64, 151936] k50 into two of 75968).
  if (algorithm == Algorithm::SplitSelect) {
    if (rowTile < 2)
      return emitError() << "split_select needs a row_tile >= 2, found "
                         << rowTile;
    return success();
  }
  if (merge && (rowTile < 2 || !llvm::isPowerOf2_64(rowTile)))
    return emitError() << stringifyAlgorithm(algorithm)
                       << " needs a row_tile that is a power of two >= 2, "
                          "found "
                       << rowTile;
  if ((algorithm == Algorithm::RadixSort ||
       algorithm == Algorithm::RadixOnesweep ||
       algorithm == Algorithm::RadixMatch) &&
      (rowTile < threads || rowTile % threads != 0))
    return emitError() << stringifyAlgorithm(algorithm)
                       << " gives every thread the same number of elements "
                          "of a tile, at least one: row_tile "
                       << rowTile << " over " << threads << " threads";
  if (algorithm == Algorithm::RadixMatch &&
      (threads % 32 != 0 || rowTile > 16 * threads))
    return emitError() << "radix_match ranks in whole warps of 32 threads, "
                          "at most 16 elements a thread: "
                       << threads << " threads, row_tile " << rowTile;
  if (algorithm == Algorithm::WarpSelect && threads % 32 != 0)
    return emitError() << "warp_select keeps a warp's list over its lanes: "
                          "whole warps of 32 threads, not "
                       << threads;
  if (algorithm == Algorithm::MaskBlocks &&
      (rowTile < 1 || !llvm::isPowerOf2_64(rowTile)))
    return emitError() << "mask_blocks needs a row_tile (mask words a "
                          "workgroup computes) that is a power of two, found "
                       << rowTile;
  if (algorithm == Algorithm::MaskTiles &&
      (rowTile < 1 || rowTile > 64 || !llvm::isPowerOf2_64(rowTile)))
    return emitError() << "mask_tiles needs a row_tile (candidates a "
                          "thread's tile holds) that is a power of two from "
                          "1 to 64, found "
                       << rowTile;
  bool mask =
      algorithm == Algorithm::MaskBlocks || algorithm == Algorithm::MaskTiles;
  if (!merge && !mask && rowTile != 0)
    return emitError() << "row_tile is for merge_rows, radix_select, "
                          "radix_sort, radix_onesweep, radix_match, "
                          "split_select, register_select, warp_select, "
                          "mask_blocks and mask_tiles only, "
                          "not "
                       << stringifyAlgorithm(algorithm);
  return success();
}

} // namespace

LogicalResult
LoweringConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           DenseI64ArrayAttr workgroupTile,
                           DenseI64ArrayAttr threadTile,
                           DenseI64ArrayAttr workgroupSize,
                           Algorithm algorithm, int64_t rowTile) {
  int64_t threads = 1;
  if (failed(verifyTiles(emitError, workgroupTile, threadTile)) ||
      failed(verifyWorkgroupSize(emitError, workgroupSize, threads)) ||
      failed(verifyRowTile(emitError, algorithm, rowTile, threads)))
    return failure();
  bool merge = takesRowTile(algorithm);
  bool mask =
      algorithm == Algorithm::MaskBlocks || algorithm == Algorithm::MaskTiles;
  if (algorithm == Algorithm::WorkgroupRow || mask || merge) {
    // Workgroups per row: the domain tile is one point and the threads
    // cooperate on the row (or a tile of it) along x.
    StringRef name = stringifyAlgorithm(algorithm);
    if (llvm::any_of(workgroupTile.asArrayRef(),
                     [](int64_t t) { return t != 1; }) ||
        llvm::any_of(threadTile.asArrayRef(), [](int64_t t) { return t != 1; }))
      return emitError() << name
                         << " computes a row in workgroups: "
                            "workgroup_tile and thread_tile must be all 1s";
    if (workgroupSize[1] != 1 || workgroupSize[2] != 1)
      return emitError() << name
                         << " spreads a row over x: "
                            "workgroup_size must be [threads, 1, 1]";
    return success();
  }
  int64_t tileThreads = 1;
  for (auto [wg, thread] :
       llvm::zip(workgroupTile.asArrayRef(), threadTile.asArrayRef()))
    tileThreads *= wg / thread;
  if (tileThreads != threads)
    return emitError() << "workgroup_tile / thread_tile needs "
                       << tileThreads << " threads but workgroup_size has "
                       << threads;
  return success();
}
