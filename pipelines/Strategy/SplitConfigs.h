//===- SplitConfigs.h - The chunks of tileandfuse's split top-k -*- C++ -*-===//
//
// Which chunks split_select (Kernels/SplitTopk) may take for a top-k row,
// by default and under random configs: chunks a thread walks, and chunks
// of cooperative parts (SplitConfigs.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/SplitTopk/SplitTopk.h"
#include "pipelines/Strategy/RowConfigs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace sift {

/// The largest k split_select takes by default: the candidates of a later
/// level arrive as sorted runs of k, each inserted into the k kept with up
/// to k shifts (k = 64 on rows of 65536 was 18x PyTorch on the H100;
/// radix_select takes those).
inline constexpr int64_t kSplitDefaultK = 16;

/// The largest k whose split_select parts a thread walks: a thread's part
/// keeps its k best sorted, an insertion shifting up to k of them; random
/// splits of k = 81 to 231 into chunks of 512 took 8 to 73 ms on the H200
/// (seed 1403), so larger k's splits take cooperative parts only.
inline constexpr int64_t kSplitThreadMaxK = 64;

/// tileandfuse's default split of a top-k into cooperative parts: where
/// radix_select's default is its one-launch form but the rows make fewer
/// than kSplitFillRows workgroups, a row becomes the fewest parts (a power
/// of two, dividing it) that make that many, each of at least
/// kShortestCooperativeChunk elements; their candidates (k a part) go to a
/// top-k of their own. On the H200 (2026-12-01) the parts of [64, 151936]
/// k50 in two took 0.044 ms (f32) and 0.031 (bf16) against 0.069 and 0.052
/// for the whole rows, and their candidates' top-k 0.006.
inline constexpr int64_t kSplitFillRows = 128;
inline constexpr int64_t kShortestCooperativeChunk = 16384;

/// The chunk lengths split_select may take for a top-k row of `n` along
/// the last dimension: powers of two from `shortest` to `longest` (by
/// default those a thread walks alone), shorter than the row, at least 2k
/// long (each level keeps at most half of its whole chunks), whose split
/// takes at most four levels. A chunk need not divide the row: the
/// remainder's elements are candidates as they are (SplitTopk.cpp).
llvm::SmallVector<int64_t> splitChunks(int64_t n, int64_t k,
                                       int64_t shortest = 2,
                                       int64_t longest = kLongestThreadChunk);

/// The chunk lengths a random split_select into cooperative parts may
/// take (the parts are top-k's like any, SplitTopk.h): as splitChunks', of
/// 2 * kLongestThreadChunk elements and longer.
llvm::SmallVector<int64_t> cooperativeSplitChunks(int64_t n, int64_t k);

/// split_select's default chunk among `chunks` (splitChunks'): of those
/// that divide the row `n`, the shortest of at least 8k and 256 elements (a
/// thread's serial walk stays short and the chunks fill the GPU), else the
/// longest; 0 when none (a remainder's split is drawn by random configs
/// only).
int64_t defaultSplitChunk(llvm::ArrayRef<int64_t> chunks, int64_t n,
                          int64_t k);

/// The chunk of the default split into cooperative parts of `rows` rows of
/// `row`, whose default would be radix_select's one-launch form when
/// `oneLaunch`; 0 when none.
int64_t defaultCooperativeChunk(int64_t rows, const RowShape &row,
                                bool oneLaunch);

} // namespace sift
