//===- support/Fault.h - Injectable faults --------------*- C++ -*-===//
//
// Named switches that re-create a known bug class in the compiler or the
// runtime (`--inject=NAME`), so the harness can prove it would catch it.
// Each fault names the IREE issue it mirrors and the oracle that must catch
// it; every fault stays in the code as a tested path. Off by default.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

namespace sift {

/// The fault catalogue of DESIGN.md.
enum class Fault : uint8_t {
  /// tileandfuse temporaries in the default (global) space (IREE #20505):
  /// the kernel calls malloc. Oracle: malloc-in-kernel.
  TfGlobalTemp,
  /// Unused sort/top-k results neither dropped nor privatized (#20699).
  TfKeepUnusedResults,
  /// A workgroup allocation left as memref.alloc (upstream lowers it to
  /// malloc). Oracle: malloc-in-kernel.
  WgAllocAsMalloc,
  /// distribute leaves a write undistributed: every thread of a workgroup
  /// writes the same location (#20358). Oracle: undistributed-write.
  DistUndistributedWrite,
  /// distribute drops the barrier around workgroup-memory copies (#20358).
  /// Oracle: mismatch / nondeterministic on a GPU.
  DistNoBarrier,
  /// The compiler aborts when a sorted dimension is prime. Oracle:
  /// compile-crash.
  CrashOnPrime,
  /// A pass never returns when k = 1. Oracle: compile-timeout.
  HangOnK1,
  /// The runtime refuses to export an asynchronously allocated device-local
  /// buffer as DLPack (IREE #20170). Oracle: the export of every output.
  ExportDeviceLocal,
  /// Allocator selection ignores a buffer's affinity and always picks the
  /// first device (IREE #20857). Oracle: checkAllocatorAffinity.
  AllocSelectFirst,
  /// Workgroup attributions keep no explicit alignment: LLVM's middle end
  /// assumes 16 bytes and vectorizes, the NVPTX printer declares the
  /// element type's alignment (4): `st.shared.v4` faults with
  /// CUDA_ERROR_MISALIGNED_ADDRESS. Oracle: misaligned-access (static).
  WgUnaligned,
  /// NMS suppresses at IoU >= threshold instead of >. Oracle: mismatch.
  NmsIouGe,
  /// NMS uses flipped boxes' corners as given, without min/max. Oracle:
  /// mismatch.
  NmsUnnormalizedCorners,
  /// NMS keeps scores >= score_threshold instead of >. Oracle: mismatch.
  NmsScoreThresholdGe,
  /// tileandfuse leaves the NMS score sort's temporary in global memory
  /// (IREE #20505, found compiling ONNX NonMaxSuppression): the kernel
  /// calls malloc. Oracle: malloc-in-kernel, naming the pass.
  NmsSortGlobalTemp,
  /// The compiler aborts on about half of its runs over a sort, whatever
  /// the program (a race or an uninitialized read in a real compiler): its
  /// findings reproduce only sometimes. Oracle: compile-crash; a nightly
  /// calls them flaky.
  CrashAtRandom,
  /// Every merge pass of a long-row sort or top-k (algorithm merge_rows)
  /// loses the last element of the second run of each pair. Oracle:
  /// mismatch on a GPU.
  MergeDropLast,
  /// The radix select of a long top-k row (algorithm radix_select) counts
  /// every element one histogram bin too high. Oracle: mismatch on a GPU.
  RadixDigitOffByOne,
  /// The radix sort of long rows (algorithm radix_sort) loses the carry
  /// into every odd thread's chunk of the scan that turns the tiles' digit
  /// counts into offsets. Oracle: mismatch on a GPU.
  RadixScanLostCarry,
  /// tileandfuse's split top-k (split_select) maps a chosen candidate back
  /// to its index in its chunk but forgets the chunk's start. Oracle:
  /// mismatch on a GPU.
  SplitLostChunkOffset,
  /// The register select of a small-k top-k (algorithm register_select)
  /// stops its workgroup's tree merge one level early: the candidates of
  /// the upper half of the threads are lost. Oracle: mismatch on a GPU.
  SelectMergeOneLevelShort,
  /// The onesweep radix sort (algorithm radix_onesweep) starts each tile's
  /// look-back a tile too early: its predecessor's digit counts are lost.
  /// Oracle: mismatch on a GPU.
  RadixLookbackSkipsOne,
  /// The radix sort's loads run past a row's end in its last, partial
  /// tile (unused, but out of the buffer). Oracle: out-of-bounds under
  /// --device=emu (memcheck on a GPU).
  RadixTailOverrun,
  /// The radix sort's tile ranking counts into its workgroup-memory table
  /// without zeroing it first. Oracle: uninitialized-read under
  /// --device=emu (mismatch on a GPU, where the table holds leftovers).
  RadixSplitUnzeroed,
  /// The radix sort's scan puts a barrier of each step inside the branch
  /// of the threads that add, so the others skip it. Oracle:
  /// barrier-divergence under --device=emu (a hang or undefined behaviour
  /// on a GPU).
  ScanBarrierInBranch,
  /// The radix select's pick lets every thread read the row's done flag,
  /// which thread 0 then writes in the same interval between barriers.
  /// Oracle: data-race under --device=emu (harmless on today's GPUs,
  /// which is why only a checker finds it).
  SelectDoneRace,
  /// NMS's suppression mask (algorithm mask_blocks) never sets a word's
  /// last bit: a candidate at position 64 q + 63 of a block is never
  /// suppressed by the mask. Oracle: mismatch (GPU or emu).
  NmsMaskLastBitLost,
  /// NMS's walk (algorithm mask_blocks) merges every kept box of a block
  /// but the last into the removed set of the later blocks. Oracle:
  /// mismatch (GPU or emu).
  NmsWalkRowNotMerged,
  /// NMS's tiled mask (algorithm mask_tiles, tileandfuse's default) gives
  /// the last row of a thread's tile its first row's box: that candidate's
  /// mask word holds another box's overlaps. Oracle: mismatch (GPU or emu).
  NmsTileLastRowFirstBox,
  /// radix_match's warp match ignores a digit's top bit: lanes whose
  /// digits differ only there rank as one group, so two elements take one
  /// place of the sorted tile. Oracle: data-race on the emu device; on a
  /// GPU runtime-error (an illegal address) or mismatch.
  RadixMatchPeerBitLost,
  /// The radix sort's and radix select's order bits test a 16-bit float
  /// for NaN with f16's exponent mask: bf16 keys past 2^121 and its
  /// infinities order as NaN. Oracle: mismatch (GPU or emu).
  Bf16OrderF16Layout,
  /// radix_select's compaction keeps a row's matching elements as its
  /// survivors but forgets the elements already known to be among the k
  /// (better than the digits chosen so far). Oracle: mismatch (GPU or emu).
  RadixCompactDropsBetter,
  /// radix_select's one-launch form (a workgroup a row) does not clear
  /// its workgroup histogram between passes: a pass's bins still hold the
  /// last pass's counts. Oracle: uninitialized-read on the emu device
  /// (fewer than k candidates: the rank reads a slot nobody wrote), or
  /// mismatch.
  RadixFusedBinsKept,
  /// ROCDL's form of radix_match's ballot hands every lane the wave's low
  /// 32 votes: on a wave of 64 lanes the upper warp ranks with the lower
  /// warp's votes. Oracle: data-race or mismatch on the emu device
  /// for amdgpu (which runs the ROCDL kernels with waves of 64); nothing
  /// on nvptx.
  WarpBallotLowHalf,
  /// radix_match's warp syncs are lowered as nothing (both targets): a
  /// group's leader may write the warp's digit count before its peers read
  /// it. Oracle: data-race on the emu device (lanes scheduled
  /// independently); mismatch on a GPU that schedules them so.
  WarpSyncDropped,
  /// radix_onesweep's scatter takes its tile by its workgroup's id, not by
  /// a ticket: a tile's look-back may wait for a workgroup that has not
  /// started, which only ends when every workgroup runs at once. Oracle:
  /// hang on the emu device (a few workgroups at once); nothing on a GPU
  /// whose workgroups all fit (the H200 starts them in id order).
  RadixTileByBlock,
  /// ROCDL's form of a warp shuffle up (the radix sorts' block scans)
  /// counts the source lane as in a wave of 32, from the lane's place in
  /// its warp alone: on a wave of 64 the upper warp reads the lower warp's
  /// values. Oracle: data-race, out-of-bounds or uninitialized-read on
  /// the emu device for amdgpu (waves of 64); nothing on nvptx.
  WarpShuffleWaveWidth,
  /// warp_select's insert into its warp queue takes lane 0's neighbour
  /// above from the shuffle up, which hands lane 0 its own slot (a
  /// shuffle's edge read as the list's top): a better item than the
  /// warp's best is lost. Oracle: mismatch (GPU or emu).
  WarpQueueHeadUnfilled,
  /// workgroup_row's bare-key sort (a keys-only sort of 32-bit keys) skips
  /// its check for zeros and NaNs: a float row holding one sorts bare
  /// order bits anyway, so a -0 comes back as +0 and a NaN as one NaN of
  /// the order's choosing. Oracle: mismatch (GPU or emu).
  BareKeysUnchecked,
  /// Kernels for sm_90 and later wait for the kernel before them
  /// (griddepcontrol.wait) at their returns instead of their entry, while
  /// the runtime still launches them to overlap it: a kernel may read what
  /// the one before has not yet written. Oracle: data-race on the emu
  /// device (a global access before the thread's grid wait); mismatch on a
  /// GPU when the overlap is hit.
  PdlWaitAtExit,
};

/// Every fault, in enum order.
inline constexpr Fault kAllFaults[] = {Fault::TfGlobalTemp,
                                       Fault::TfKeepUnusedResults,
                                       Fault::WgAllocAsMalloc,
                                       Fault::DistUndistributedWrite,
                                       Fault::DistNoBarrier,
                                       Fault::CrashOnPrime,
                                       Fault::HangOnK1,
                                       Fault::ExportDeviceLocal,
                                       Fault::AllocSelectFirst,
                                       Fault::WgUnaligned,
                                       Fault::NmsIouGe,
                                       Fault::NmsUnnormalizedCorners,
                                       Fault::NmsScoreThresholdGe,
                                       Fault::NmsSortGlobalTemp,
                                       Fault::CrashAtRandom,
                                       Fault::MergeDropLast,
                                       Fault::RadixDigitOffByOne,
                                       Fault::RadixScanLostCarry,
                                       Fault::SplitLostChunkOffset,
                                       Fault::SelectMergeOneLevelShort,
                                       Fault::RadixLookbackSkipsOne,
                                       Fault::RadixTailOverrun,
                                       Fault::RadixSplitUnzeroed,
                                       Fault::ScanBarrierInBranch,
                                       Fault::SelectDoneRace,
                                       Fault::NmsMaskLastBitLost,
                                       Fault::NmsWalkRowNotMerged,
                                       Fault::NmsTileLastRowFirstBox,
                                       Fault::RadixMatchPeerBitLost,
                                       Fault::Bf16OrderF16Layout,
                                       Fault::RadixCompactDropsBetter,
                                       Fault::RadixFusedBinsKept,
                                       Fault::WarpBallotLowHalf,
                                       Fault::WarpSyncDropped,
                                       Fault::RadixTileByBlock,
                                       Fault::WarpShuffleWaveWidth,
                                       Fault::WarpQueueHeadUnfilled,
                                       Fault::BareKeysUnchecked,
                                       Fault::PdlWaitAtExit};

/// Stable names: "tf-global-temp", "tf-keep-unused-results",
/// "wg-alloc-as-malloc", "dist-undistributed-write", "dist-no-barrier",
/// "crash-on-prime", "hang-on-k1", "export-device-local",
/// "alloc-select-first", "wg-unaligned", "nms-iou-ge",
/// "nms-unnormalized-corners", "nms-score-threshold-ge",
/// "nms-sort-global-temp", "crash-at-random", "merge-drop-last",
/// "radix-digit-off-by-one", "radix-scan-lost-carry",
/// "split-lost-chunk-offset", "select-merge-one-level-short",
/// "radix-lookback-skips-one", "radix-tail-overrun",
/// "radix-split-unzeroed", "scan-barrier-in-branch", "select-done-race",
/// "nms-mask-last-bit-lost", "nms-walk-row-not-merged",
/// "nms-tile-last-row-first-box", "radix-match-peer-bit-lost",
/// "bf16-order-f16-layout", "radix-compact-drops-better",
/// "radix-fused-bins-kept", "warp-ballot-low-half", "warp-sync-dropped",
/// "radix-tile-by-block", "warp-shuffle-wave-width",
/// "warp-queue-head-unfilled", "bare-keys-unchecked", "pdl-wait-at-exit".
constexpr std::string_view toString(Fault fault) {
  switch (fault) {
  case Fault::TfGlobalTemp: return "tf-global-temp";
  case Fault::TfKeepUnusedResults: return "tf-keep-unused-results";
  case Fault::WgAllocAsMalloc: return "wg-alloc-as-malloc";
  case Fault::DistUndistributedWrite: return "dist-undistributed-write";
  case Fault::DistNoBarrier: return "dist-no-barrier";
  case Fault::CrashOnPrime: return "crash-on-prime";
  case Fault::HangOnK1: return "hang-on-k1";
  case Fault::ExportDeviceLocal: return "export-device-local";
  case Fault::AllocSelectFirst: return "alloc-select-first";
  case Fault::WgUnaligned: return "wg-unaligned";
  case Fault::NmsIouGe: return "nms-iou-ge";
  case Fault::NmsUnnormalizedCorners: return "nms-unnormalized-corners";
  case Fault::NmsScoreThresholdGe: return "nms-score-threshold-ge";
  case Fault::NmsSortGlobalTemp: return "nms-sort-global-temp";
  case Fault::CrashAtRandom: return "crash-at-random";
  case Fault::MergeDropLast: return "merge-drop-last";
  case Fault::RadixDigitOffByOne: return "radix-digit-off-by-one";
  case Fault::RadixScanLostCarry: return "radix-scan-lost-carry";
  case Fault::SplitLostChunkOffset: return "split-lost-chunk-offset";
  case Fault::SelectMergeOneLevelShort: return "select-merge-one-level-short";
  case Fault::RadixLookbackSkipsOne: return "radix-lookback-skips-one";
  case Fault::RadixTailOverrun: return "radix-tail-overrun";
  case Fault::RadixSplitUnzeroed: return "radix-split-unzeroed";
  case Fault::ScanBarrierInBranch: return "scan-barrier-in-branch";
  case Fault::SelectDoneRace: return "select-done-race";
  case Fault::NmsMaskLastBitLost: return "nms-mask-last-bit-lost";
  case Fault::NmsWalkRowNotMerged: return "nms-walk-row-not-merged";
  case Fault::NmsTileLastRowFirstBox: return "nms-tile-last-row-first-box";
  case Fault::RadixMatchPeerBitLost: return "radix-match-peer-bit-lost";
  case Fault::Bf16OrderF16Layout: return "bf16-order-f16-layout";
  case Fault::RadixCompactDropsBetter: return "radix-compact-drops-better";
  case Fault::RadixFusedBinsKept: return "radix-fused-bins-kept";
  case Fault::WarpBallotLowHalf: return "warp-ballot-low-half";
  case Fault::WarpSyncDropped: return "warp-sync-dropped";
  case Fault::RadixTileByBlock: return "radix-tile-by-block";
  case Fault::WarpShuffleWaveWidth: return "warp-shuffle-wave-width";
  case Fault::WarpQueueHeadUnfilled: return "warp-queue-head-unfilled";
  case Fault::BareKeysUnchecked: return "bare-keys-unchecked";
  case Fault::PdlWaitAtExit: return "pdl-wait-at-exit";
  }
  return "?";
}

/// Parses a stable name.
inline std::optional<Fault> parseFault(std::string_view name) {
  for (Fault fault : kAllFaults)
    if (toString(fault) == name)
      return fault;
  return std::nullopt;
}

/// A set of faults.
class FaultSet {
public:
  FaultSet() = default;
  void insert(Fault fault) { bits_ |= bit(fault); }
  bool contains(Fault fault) const { return bits_ & bit(fault); }
  bool empty() const { return bits_ == 0; }
  bool operator==(const FaultSet &other) const { return bits_ == other.bits_; }

private:
  static constexpr uint64_t bit(Fault fault) {
    return uint64_t(1) << static_cast<unsigned>(fault);
  }
  static_assert(std::size(kAllFaults) <= 64, "a FaultSet holds 64 faults");
  uint64_t bits_ = 0;
};

} // namespace sift
