//===- RadixSelectLowering.h - radix_select's builder -----------*- C++ -*-===//
//
// Internal to radix_select (RadixSelect.cpp: the plan buffers, init, the
// picks and the rank; RadixSelectPasses.cpp: the passes over a row's
// elements, histograms with their compaction and the filter): the builder
// they share, its row state's fields and what a pass reads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Kernels/RadixSelect/RadixSelect.h"

#include "pipelines/Dialect/SiftDialect.h"

#include "mlir/IR/PatternMatch.h"

#include <cstdint>
#include <utility>

namespace sift::radix_select {

/// Loads a thread of a histogram or filter launch issues before it counts.
constexpr int64_t kLoadsAhead = 4;
/// The same in the one-launch form, whose one workgroup per row must keep
/// enough loads in flight to draw its share of DRAM bandwidth alone.
constexpr int64_t kFusedLoadsAhead = 16;

/// The bits the one-launch form's first pass counts beyond its 8-bit
/// digit: its histogram has 2^(8 + kFineBits) bins, and the second key
/// digit (kFineBits wide) is picked from it without reading the row again.
constexpr int64_t kFineBits = 3;

/// The one-launch form compacts a row in the pass after a pick whose bin
/// holds at most 1 / kFusedCompactBelow of it (its survivor counter is in
/// workgroup memory, and the pass it saves reads the whole row).
constexpr int64_t kFusedCompactBelow = 8;

/// Fields of a row's state (i64 each).
enum StateField : int64_t {
  kKeyPrefix,
  kIndexPrefix,
  kLeft,
  kDone,
  kSource, ///< what a pass reads: the row, the row while compacting, or
           ///< the survivors (Source)
  kFields
};

/// Values of a row's kSource field.
enum Source : int64_t { kFromRow, kCompacting, kFromSurvivors };

/// Builds the dispatches of radix_select for one sift.topk (build()).
class RadixLowering : sift::RowKernelBuilder {
public:
  RadixLowering(mlir::RewriterBase &rewriter, const sift::RowOp &row,
                const sift::RadixSelectOptions &options)
      : RowKernelBuilder(row.op->getLoc()), b(rewriter), row(row),
        options(options), topk(mlir::cast<sift::TopkOp>(row.op)) {}

  mlir::LogicalResult build();

private:
  /// The integer type the per-element work of the histogram and filter
  /// passes is done in: i32 when the key's order bits and the inverted
  /// index both fit in 32 bits (f32, bf16, f16, i32 keys of rows under
  /// 2^32: half the instructions of i64 on a GPU), else i64.
  mlir::IntegerType wordType(mlir::OpBuilder &b) const;

  /// The constant `v` of integer type `type` (i32: its low 32 bits, so
  /// that 2^32 - 1 is the all-ones word).
  mlir::Value word(mlir::OpBuilder &b, mlir::Type type, int64_t v);

  /// The order-preserving bits of `value`, larger = better, as `type`
  /// (default i64).
  mlir::Value betterBits(mlir::OpBuilder &b, mlir::Value value,
                         mlir::Type type = {});

  /// The inverted index of row position `position` (index), as `type`
  /// (default i64) of indexDigitBits bits: lower index = larger.
  mlir::Value invertedIndex(mlir::OpBuilder &b, mlir::Value position,
                            mlir::Type type = {});

  /// A state field as the word type `type` (its low bits: the prefixes
  /// fit, since the word type is chosen so that they do).
  mlir::Value narrowed(mlir::OpBuilder &b, mlir::Value wide, mlir::Type type);

  /// The chunk of workgroup `block`.
  Tile chunkOf(mlir::OpBuilder &b, mlir::Value block);

  mlir::Value loadState(mlir::OpBuilder &b, mlir::Value r, StateField field);
  void storeState(mlir::OpBuilder &b, mlir::Value v, mlir::Value r,
                  StateField field);

  /// The indices of slot `slot` of row `r` in a candidate buffer (the
  /// one-launch form keeps its row's candidates in workgroup memory).
  llvm::SmallVector<mlir::Value> candidateSlot(mlir::Value r,
                                               mlir::Value slot) const;

  /// Row `r`'s counter of candidates (or of survivors): a global one per
  /// row, or the one-launch form's in workgroup memory.
  std::pair<mlir::Value, llvm::SmallVector<mlir::Value>>
  counterOf(mlir::OpBuilder &b, mlir::Value r, bool survivors);

  /// Loads a thread keeps in flight over a row.
  int64_t loadsAhead() const { return fused ? kFusedLoadsAhead : kLoadsAhead; }

  void buildInit();

  /// The one-launch form (a row in one chunk, at least kRadixBins threads):
  /// a workgroup per row runs every pass, the picks, the filter and the
  /// rank itself, its histogram, state, counters and candidates in
  /// workgroup memory, barriers between the phases.
  void buildFused();

  /// The count thread `tid` of the one-launch form's workgroup hands the
  /// pick of pass `pass`: its bin of `bins`; the sum of its 2^w fine bins
  /// when the next digit (w bits) is picked from them; or, for that
  /// derived pick, fine bin (chosen digit << w) + tid (0 from the threads
  /// at or past 2^w).
  mlir::Value fusedPickCount(mlir::OpBuilder &b, int64_t pass, mlir::Value r,
                             mlir::Value tid, mlir::Value bins);

  /// Whether the composite (u, inverted index) matches the digits chosen
  /// before pass `pass` (prefixes pk, pi); and the digit of this pass.
  /// All values are of one word type (wordType); `inverted` is only read
  /// by the index passes (null before them). The shifts stay below the
  /// word's width: a key pass shifts by less than keyBits and compares
  /// above it only after the first digit, an index pass likewise.
  std::pair<mlir::Value, mlir::Value>
  matchAndDigit(mlir::OpBuilder &b, int64_t pass, mlir::Value u,
                mlir::Value inverted, mlir::Value pk, mlir::Value pi);

  /// Whether the composite (u, inverted index) is better than the digits
  /// chosen before pass `pass` (>= 1) in those digits: one of the k
  /// whatever the later digits are. Same words as matchAndDigit.
  mlir::Value betterThanPrefix(mlir::OpBuilder &b, int64_t pass, mlir::Value u,
                               mlir::Value inverted, mlir::Value pk,
                               mlir::Value pi);

  /// Appends the element `x` at row position `at` (order bits `u`, a word)
  /// to row `r`'s candidates, at a slot of its counter (none past k).
  void appendCandidate(mlir::OpBuilder &b, mlir::Value r, mlir::Value x,
                       mlir::Value at, mlir::Value u);

  /// Runs `body(b, x, at)` for each element of chunk `c` a thread takes
  /// with the workgroup's stride: value x at row position `at` (index).
  /// kLoadsAhead loads are issued before the first body runs (a load
  /// past the chunk's end reads its last element and is not used), so
  /// that a warp keeps several loads in flight: with one, the histogram
  /// passes were bound by memory latency on the H200 (neither the SMs nor
  /// DRAM past 60 %).
  void forEachOfChunk(
      mlir::OpBuilder &b, mlir::Value tid, const Tile &c,
      llvm::function_ref<void(mlir::OpBuilder &, mlir::Value, mlir::Value)>
          body);

  /// Runs `body(b, u, at)` for each survivor of row `r` in the slots of
  /// chunk `c` (those below the row's survivor count): its order bits (a
  /// word) and row position (index).
  void forEachSurvivor(
      mlir::OpBuilder &b, mlir::Value tid, const Tile &c,
      llvm::function_ref<void(mlir::OpBuilder &, mlir::Value, mlir::Value)>
          body);

  /// The digits chosen so far of a row, as words (wordType).
  struct Prefix {
    mlir::Value key, index;
  };
  /// An element of a histogram pass: its value (null for a survivor),
  /// order bits (a word) and row position (index).
  struct Element {
    mlir::Value x, u, at;
  };

  /// Pass `pass`, element `e` of chunk `c`: counted in `bins` when it
  /// matches `prefix`; when compacting (an i1, uniform in the workgroup;
  /// null: never), appended to the survivors, or to the candidates when
  /// it is better. One body for both (a copy each made the campaigns'
  /// compiles 6 % slower).
  void countElement(mlir::OpBuilder &b, int64_t pass, const Tile &c,
                    mlir::Value bins, const Prefix &prefix, const Element &e,
                    mlir::Value compacting);

  /// Pass `pass`: each workgroup's histogram of its chunk, added to the
  /// row's.
  void buildHistogram(int64_t pass);

  /// Pass `pass` over chunk `c` of a live row (its source: the row, the
  /// row while compacting, or the survivors), counted into `bins`.
  void countChunk(mlir::OpBuilder &b, int64_t pass, const Tile &c,
                  mlir::Value tid, mlir::Value bins);

  /// Pass `pass`: a workgroup of 256 threads per row picks the digit.
  void buildPick(int64_t pass);

  /// The pick of pass `pass` for row `r` by the workgroup's threads
  /// below kRadixBins, thread `tid` holding bin `tid`'s `count` (i32; any
  /// value above): the suffix sums into `sums` (kRadixBins i32) and the
  /// bins that reach what is left of k into `reached` (1 i32), both
  /// workgroup memory; the digit recorded by thread 0. Every thread of the workgroup must call it (barriers).
  void pickDigit(mlir::OpBuilder &b, int64_t pass, mlir::Value r,
                 mlir::Value tid, mlir::Value count, mlir::Value sums,
                 mlir::Value reached);

  /// Runs `record` on thread 0 when row `r` is not done yet (with the
  /// fault select-done-race, every thread reads the flag).
  void recordIfLive(mlir::OpBuilder &b, mlir::Value r, mlir::Value tid,
                    llvm::function_ref<void(mlir::OpBuilder &)> record);

  /// Thread 0 of a pick: the digit, what is left of k, done.
  void recordDigit(mlir::OpBuilder &b, int64_t pass, mlir::Value r,
                   mlir::Value left, mlir::Value sums, mlir::Value reached);

  /// The k elements at or above the chosen prefix, appended to the row's
  /// candidates: read from the row, or from its survivors when it was
  /// compacted (the better ones were appended then).
  void buildFilter();

  /// The filter's body for chunk `c`.
  void filterChunk(mlir::OpBuilder &b, const Tile &c, mlir::Value tid);

  /// Each candidate written at its rank among the row's k.
  void buildRank();

  /// Candidate `j` (< k) of row `r` written at its rank.
  void rankCandidate(mlir::OpBuilder &b, mlir::Value r, mlir::Value j);

  mlir::RewriterBase &b;
  const sift::RowOp &row;
  const sift::RadixSelectOptions &options;
  sift::TopkOp topk;
  int64_t rows = 0, k = 0, chunks = 0;
  bool fused = false;
  /// The one-launch form's workgroup memory (inside its launch only): the
  /// row's state (StateField), its candidate and survivor counters.
  mlir::Value localState, localCounters;
  int64_t keyBits = 0, indexDigitBits = 0, keyPasses = 0, passes = 0;
  /// Per pass: its digit's lowest bit in its word (the key's order bits or
  /// the inverted index) and its width (8, but for the one-launch form's
  /// fine second digit and the key's last); whether it is picked from the
  /// last pass's histogram (no count of its own).
  llvm::SmallVector<int64_t> digitShift, digitWidth;
  llvm::SmallVector<bool> derived;
  /// Fills digitShift, digitWidth and derived (and keyPasses, passes).
  void planDigits();

  /// The bins of the histogram pass `pass` counts into: its digit's, or
  /// with the next digit's too when that one is derived from it.
  int64_t histogramBits(int64_t pass) const;
  mlir::Type keyType;
  mlir::Value state, histograms, counters, candidateKeys, candidateIndices,
      candidateBits, survivorCounts, survivorBits, survivorPositions;
};

} // namespace sift::radix_select
