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

/// The largest k radix_select takes (its last step ranks the k selected by
/// counting, k steps a candidate); the default takes it up to kRadixDefaultK
/// for rows from kRadixDefaultRow elements.
inline constexpr int64_t kRadixMaxK = 256;
inline constexpr int64_t kRadixDefaultK = 128;
inline constexpr int64_t kRadixDefaultRow = 1024;

/// From kRadixFusedRows rows of at most kRadixFusedLongestRow elements,
/// radix_select's default takes a row a workgroup of kRadixFusedThreads
/// threads, in one launch (its one-launch form): the launches of the
/// multi-launch form cost more than what its workgroups share of a row.
/// On the H200 (2026-11-30) top-k k64 of 16, 32 and 64 rows of 65536 took
/// 0.038, 0.036-0.047 and 0.036 ms so against 0.086-0.091 in many
/// launches, k50 of [64, 151936] 0.073 against 0.129; a longer row walked
/// by one workgroup was not measured, and stays with the many launches.
inline constexpr int64_t kRadixFusedRows = 16;
inline constexpr int64_t kRadixFusedLongestRow = int64_t{1} << 18;
inline constexpr int64_t kRadixFusedThreads = 1024;

/// Whether radix_select's default for `rows` rows of `row` is its
/// one-launch form.
bool radixOneLaunch(int64_t rows, const RowShape &row);

/// radix_select's sizes: by default the one-launch form (a workgroup of
/// kRadixFusedThreads a row) from kRadixFusedRows rows of at most
/// kRadixFusedLongestRow elements, else 256 threads on chunks of 4096
/// halved (down to 256) until the rows' chunks make about 512 workgroups;
/// drawn (`random`), any chunk from `rng`, and half of the draws the
/// one-launch form from `fusedRng`, a stream of its own.
LoweringConfigAttr radixSelectConfig(mlir::MLIRContext *context, int64_t rank,
                                     int64_t rows, const RowShape &row,
                                     bool random, ConfigRng &rng,
                                     ConfigRng &fusedRng);

} // namespace sift
