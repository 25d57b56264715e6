//===- AimedAlgorithm.cpp - Random configs aimed at algorithms' edges -----===//
//
// Without an aim, a random config draws a row's algorithm uniformly among
// the five to seven that fit, and the algorithms whose faults hide at
// their edges come up seldom: a 150-case mix drew radix_select in 6 of
// its 300 runs, register_select and split_select in 2 each (generator 3),
// and radix_match, half of the drawn radix sorts, in 22 of 300 with
// generator 4, seldom with a second warp. The aim, from a stream of its
// own, takes:
// - every top-k that drew no select to one: split_select 12,
//   register_select 10 (half of those of k >= 2 and chunks of 64 or
//   more warp_select: the strategy's warp stream), radix_select 2 where
//   they fit (four in five, and
//   register_select 4, until generator 4's second step: register_select's
//   merge and radix_select's compaction faults stayed under 5 %);
// - a k = 1 top-k in tileandfuse (where split_select fits): a drawn radix
//   or register select to split_select 12, private_row 4 or
//   row_per_thread 4 (a thread's walk keeping one slot, which the
//   cooperative selects never meet), any other draw to split_select
//   (whose chunks' top-k's are such walks; half of the time until
//   split_select took rows its chunks do not divide, when
//   split-lost-chunk-offset was still caught in 4.7 % of the mix's runs,
//   and 5.0 % with three in four).
// - a k = 1 top-k where split_select does not fit (every one in
//   distribute): a draw of a select or a thread's walk stays, an edge of
//   its own (corpus cases fault-dist-no-barrier, fault-select-done-race);
//   a sort's algorithm becomes register_select where it fits (since
//   generator 6's step: its merge fault was caught in 4.7 % of the mix's
//   runs, 14 of its 16 register_select runs);
// - bf16 keys to a radix algorithm, radix_match among them (their order
//   bits are bf16's own);
// - an NMS's score sort to a thread's private memory where it fits;
// - a sort of a prime row of 32 to kLongestSerialRow keys that drew a
//   radix or merge algorithm to a thread's walk (since generator 6's second
//   step: crash-on-prime, a fault of the walks' lowering on prime rows, was
//   caught in 4.3 % of the mix's runs);
// - three in four other sorts (and top-k's no select takes) of 32 or more
//   keys that drew workgroup_row or a thread's walk to radix_match, whose
//   random configs fill a wave of 64 (SelectLoweringStrategy.cpp's
//   rowConfig): its warp votes then span two warps of 32 and the whole of
//   gfx942's wave, where warp-ballot-low-half lives.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Strategy/AimedAlgorithm.h"

#include "support/Shape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

using namespace mlir;

namespace sift {

namespace {

/// Whether `op` is a sort whose result an NMS takes (its score sort).
bool isNmsScoreSort(Operation *op) {
  return isa<SortOp>(op) && llvm::any_of(op->getUsers(), [](Operation *user) {
           return isa<NmsPerClassOp>(user);
         });
}

/// Whether `op` is a sort of a prime row of a warp or more that a thread
/// may walk, and drew something other than workgroup_row: the aim gives it
/// a thread's walk. A prime row is one no tile, warp or bin divides, and
/// the walks' loops met one seldom: the edge sizes are few of them prime,
/// and the aims took most prime rows to cooperative algorithms. Shorter
/// prime rows stay, edges of their own (a reduced case's row of 3 merged,
/// corpus case fault-merge-drop-last), and a drawn workgroup_row is left to
/// the radix_match aim (a row of 5 staged in workgroup memory,
/// fault-wg-unaligned).
bool walksPrimeRow(Operation *op, const RowShape &row, Algorithm drawn) {
  return isa<SortOp>(op) && isPrime(row.n) && row.n >= 32 &&
         row.n <= kLongestSerialRow && drawn != Algorithm::WorkgroupRow;
}

/// A thread's walk that fits (drawn from the aim's stream), if any.
std::optional<Algorithm> drawWalk(ArrayRef<Algorithm> fitting, ConfigRng &aim) {
  SmallVector<Algorithm, 2> walks;
  for (Algorithm a : {Algorithm::RowPerThread, Algorithm::PrivateRow})
    if (llvm::is_contained(fitting, a))
      walks.push_back(a);
  if (walks.empty())
    return std::nullopt;
  return walks[aim.below(walks.size())];
}

} // namespace

std::optional<Algorithm> aimRowAlgorithm(Operation *op, const RowShape &row,
                                         ArrayRef<Algorithm> fitting,
                                         Algorithm drawn, ConfigRng &aim) {
  auto fits = [&](Algorithm a) { return llvm::is_contained(fitting, a); };
  auto threadWalk = [](Algorithm a) {
    return a == Algorithm::RowPerThread || a == Algorithm::PrivateRow;
  };
  bool bf16 = getElementTypeOrSelf(op->getOperand(0).getType()).isBF16();
  bool topk = isa<TopkOp>(op);
  // radix_match takes a row where a radix sort fits, from 32 keys.
  bool matchFits = row.n >= 32 && fits(Algorithm::RadixSort);
  bool selectFits = fits(Algorithm::SplitSelect) ||
                    fits(Algorithm::RegisterSelect) ||
                    fits(Algorithm::RadixSelect);
  SmallVector<std::pair<Algorithm, int64_t>> weighted;
  if (bf16) {
    for (Algorithm a : {Algorithm::RadixSelect, Algorithm::RadixSort,
                        Algorithm::RadixOnesweep})
      if (fits(a))
        weighted.push_back({a, 1});
    if (matchFits)
      weighted.push_back({Algorithm::RadixMatch, 1});
  } else if (isNmsScoreSort(op) && fits(Algorithm::PrivateRow)) {
    weighted.push_back({Algorithm::PrivateRow, 1});
  } else if (!topk || !selectFits) {
    // A prime row a thread may walk: a walk (a drawn one stays).
    if (walksPrimeRow(op, row, drawn))
      return threadWalk(drawn) ? std::nullopt : drawWalk(fitting, aim);
    // A sort (an NMS's score sort in distribute, a top-k no select takes):
    // three in four that drew workgroup_row or a thread's walk take
    // radix_match.
    if ((drawn == Algorithm::WorkgroupRow || threadWalk(drawn)) && matchFits &&
        aim.below(4) != 0)
      return Algorithm::RadixMatch;
    return std::nullopt;
  } else {
    if (fits(Algorithm::SplitSelect))
      weighted.push_back({Algorithm::SplitSelect, 12});
    if (row.k == 1 && fits(Algorithm::PrivateRow))
      weighted.push_back({Algorithm::PrivateRow, 4});
    if (row.k == 1 && fits(Algorithm::RowPerThread))
      weighted.push_back({Algorithm::RowPerThread, 4});
    if (row.k != 1 && fits(Algorithm::RegisterSelect))
      weighted.push_back({Algorithm::RegisterSelect, 10});
    if (row.k != 1 && fits(Algorithm::RadixSelect))
      weighted.push_back({Algorithm::RadixSelect, 2});
  }
  if (topk && !bf16 && row.k == 1) {
    bool sortDrawn = !threadWalk(drawn) && drawn != Algorithm::SplitSelect &&
                     drawn != Algorithm::RegisterSelect &&
                     drawn != Algorithm::RadixSelect;
    if (!fits(Algorithm::SplitSelect))
      return sortDrawn && fits(Algorithm::RegisterSelect)
                 ? std::optional(Algorithm::RegisterSelect)
                 : std::nullopt;
    if (drawn == Algorithm::SplitSelect)
      return std::nullopt;
    if (drawn != Algorithm::RadixSelect && drawn != Algorithm::RegisterSelect)
      return Algorithm::SplitSelect;
  }
  if (weighted.empty() ||
      llvm::any_of(weighted, [&](auto &w) { return w.first == drawn; }))
    return std::nullopt;
  int64_t total = 0;
  for (auto &w : weighted)
    total += w.second;
  int64_t pick = aim.below(total);
  for (auto &w : weighted) {
    if (pick < w.second)
      return w.first;
    pick -= w.second;
  }
  return std::nullopt;
}

} // namespace sift
