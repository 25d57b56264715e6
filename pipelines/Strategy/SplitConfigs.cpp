//===- SplitConfigs.cpp - The chunks of tileandfuse's split top-k ---------===//
//
// The chunk lengths split_select may take (SplitConfigs.h).
//
//===----------------------------------------------------------------------===//

#include "pipelines/Strategy/SplitConfigs.h"

#include <algorithm>
#include <limits>

llvm::SmallVector<int64_t> sift::splitChunks(int64_t n, int64_t k,
                                             int64_t shortest,
                                             int64_t longest) {
  llvm::SmallVector<int64_t> chunks;
  if (k < 1)
    return chunks;
  for (int64_t chunk = shortest; chunk <= longest && chunk < n; chunk *= 2) {
    if (chunk < 2 * k)
      continue;
    int64_t m = n, levels = 0;
    while (m > chunk) {
      m = m / chunk * k + m % chunk;
      ++levels;
    }
    if (levels <= 4)
      chunks.push_back(chunk);
  }
  return chunks;
}

llvm::SmallVector<int64_t> sift::cooperativeSplitChunks(int64_t n,
                                                        int64_t k) {
  return splitChunks(n, k, 2 * kLongestThreadChunk,
                     std::numeric_limits<int64_t>::max() / 4);
}

int64_t sift::defaultSplitChunk(llvm::ArrayRef<int64_t> chunks, int64_t n,
                                int64_t k) {
  int64_t longest = 0;
  for (int64_t chunk : chunks) {
    if (n % chunk != 0)
      continue;
    if (chunk >= std::max<int64_t>(8 * k, 256))
      return chunk;
    longest = chunk;
  }
  return longest;
}

int64_t sift::defaultCooperativeChunk(int64_t rows, const RowShape &row,
                                      bool oneLaunch) {
  if (!oneLaunch || row.k < 1)
    return 0;
  for (int64_t parts = 2; rows * (parts / 2) < kSplitFillRows; parts *= 2) {
    if (row.n % parts != 0 || row.n / parts < kShortestCooperativeChunk)
      return 0;
    if (rows * parts >= kSplitFillRows)
      return row.n / parts;
  }
  return 0;
}
