//===- RowConfigs.h - Lowering configs of the cooperative row kernels -*- C++
//-*-===//
//
// The row shape strategy selection reasons about, and the configs of the
// row algorithms that tile a row (RowConfigs.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Strategy/DomainConfigs.h"

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace sift {

/// The row a sift op sorts or selects: its size, and the bytes a staged
/// copy of one row takes in workgroup memory (every sort operand, or the
/// top-k input, plus an i32 index per slot of the padded row) and in a
/// thread's private memory (the operands, or the top-k input and outputs).
struct RowShape {
  int64_t n = 0;
  int64_t k = -1; ///< top-k's k; -1 for a sort
  int64_t keyBytes = 0;
  int64_t workgroupBytes = 0;
  int64_t privateBytes = 0;
  /// Whether workgroup_row may sort the row as one i64 composite an
  /// element (keys of at most 32 bits in a named order).
  bool composite = false;
  /// Whether radix_sort moves each key with its row position.
  bool slots = true;
};

/// The row of `op` (a sift.sort or sift.topk with static shapes).
RowShape rowShape(mlir::Operation *op);

/// merge_rows or radix_select: workgroups of `threads` threads along x,
/// each on `tile` elements of a row.
LoweringConfigAttr rowTileConfig(mlir::MLIRContext *context, int64_t rank,
                                 int64_t threads, int64_t tile,
                                 Algorithm algorithm);

/// The longest row random configs give one thread alone when a cooperative
/// algorithm fits it: an insertion sort of 128 elements is ~4 K steps
/// (80-200 ns each on the H100 in global memory; one of 1024 took 20 ms,
/// two rows of 255 a thread 6 ms).
inline constexpr int64_t kLongestSerialRow = 128;

/// The serial steps a default config may give one thread of a sift op's
/// rows: rows a thread are limited to this budget over a row's steps (an
/// NMS's default walk stays a thread's within it too).
inline constexpr int64_t kSerialStepsPerThread = 65536;

/// The rows of an iteration domain (the product of its sizes).
int64_t rowsOf(llvm::ArrayRef<int64_t> domain);

/// A workgroup per row: `threads` along x, one row per workgroup.
LoweringConfigAttr workgroupRowConfig(mlir::MLIRContext *context,
                                      int64_t rank, int64_t threads);

/// register_select's default rows start here (a bitonic sort of a shorter
/// row in workgroup memory is as quick; at 128, with the bitonic merge of
/// the threads' lists, register_select took 0.039 ms for [16384, 128] k8
/// where merge_rows took 0.052 on the H200).
inline constexpr int64_t kRegisterDefaultRow = 128;

/// register_select's default k's end here: each thread's insertion of an
/// element into its k best grows with k, and radix_select's passes do not
/// (on the H200 radix_select took 0.35 ms for [256, 129280] k20 where
/// register_select took 0.46; register_select wins at k 8 and under).
inline constexpr int64_t kRegisterDefaultMaxK = 16;

/// The fewest threads a random config gives a workgroup of `items`
/// elements.
int64_t fewestRandomThreads(int64_t items);

/// Any power of two from `lowest` up to `highest` (both powers of two).
int64_t randomPowerOfTwo(int64_t lowest, int64_t highest, ConfigRng &rng);

/// A random merge_rows or radix_select config of a row of `n` (tiles up to
/// `largest`).
LoweringConfigAttr randomRowTileConfig(mlir::MLIRContext *context, int64_t rank,
                                       int64_t n, int64_t largest,
                                       Algorithm algorithm, ConfigRng &rng);

/// The radix_sort (radix_onesweep, radix_match) config of `rows` rows within
/// `budget` bytes of workgroup memory, random ones of at least
/// `leastThreads` threads where any fits; null when none fits.
LoweringConfigAttr radixSortConfig(mlir::MLIRContext *context, int64_t rank,
                                   int64_t rows, const RowShape &row,
                                   int64_t budget, bool random, ConfigRng &rng,
                                   Algorithm algorithm,
                                   int64_t leastThreads = 0);

/// The register_select config of `rows` rows within `budget` bytes of
/// workgroup memory; null when none fits.
LoweringConfigAttr registerSelectConfig(mlir::MLIRContext *context,
                                        int64_t rank, int64_t rows,
                                        const RowShape &row, int64_t budget,
                                        bool random, ConfigRng &rng);

/// The default warp_select config of `rows` rows within `budget` bytes of
/// workgroup memory (whole warps of 32); null when none fits.
LoweringConfigAttr warpSelectConfig(mlir::MLIRContext *context, int64_t rank,
                                    int64_t rows, const RowShape &row,
                                    int64_t budget);

} // namespace sift
