//===- runtime/emu/AccessChecker.h - Races and uninitialized reads -*- C++
//-*-===//
//
// The emu device's checks on the memory accesses a kernel reports
// (EmuAbi.h's access callback), during one dispatch:
//
//   data-race           two threads of a workgroup touch one element in the
//                       same interval between barriers, one of them
//                       writing; or two workgroups of the dispatch touch one
//                       global element, one of them writing (workgroups
//                       are not ordered within a dispatch)
//   uninitialized-read  a thread reads workgroup memory that no thread of
//                       its workgroup has written
//
// Two atomics never race; an atomic and a plain access of one element by
// two threads (or workgroups) do, one of them writing. Private memory is
// not reported.
// The first problem is kept (later ones are not looked at) and its message
// names the kernel's access sites, the element (its buffer and index, or
// its byte in workgroup memory) and both threads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/emu/LargeMemory.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sift::emu {

/// A hash map from addresses to `Value`s for the checks' shadow state:
/// open addressing, and clear() in constant time (a generation number
/// marks the live slots), since the workgroup memory's map is cleared for
/// every workgroup.
template <typename Value> class AddressMap {
public:
  AddressMap() : slots_(kInitialSlots) {}

  /// The value of `key`, default-constructed when new.
  Value &operator[](uint64_t key) {
    if ((used_ + 1) * 2 > slots_.size())
      grow();
    Slot &slot = find(slots_, key);
    if (slot.generation != generation_) {
      slot = Slot{key, generation_, Value()};
      ++used_;
    }
    return slot.value;
  }

  void clear() {
    used_ = 0;
    if (++generation_ == 0) { // wrapped: no stale slot may look live
      for (Slot &slot : slots_)
        slot.generation = 0;
      generation_ = 1;
    }
  }

private:
  static constexpr size_t kInitialSlots = 1024;
  struct Slot {
    uint64_t key = 0;
    uint32_t generation = 0;
    Value value{};
  };

  Slot &find(std::vector<Slot> &slots, uint64_t key) {
    size_t mask = slots.size() - 1;
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    for (size_t i = static_cast<size_t>(h >> 20) & mask;; i = (i + 1) & mask)
      if (slots[i].generation != generation_ || slots[i].key == key)
        return slots[i];
  }

  void grow() {
    std::vector<Slot> bigger(slots_.size() * 2);
    for (Slot &slot : slots_)
      if (slot.generation == generation_)
        find(bigger, slot.key) = slot;
    slots_.swap(bigger);
  }

  std::vector<Slot> slots_;
  uint32_t generation_ = 1;
  size_t used_ = 0;
};

/// A global buffer of the dispatch (its binding is its position): where it
/// starts and how many bytes it has.
struct BoundBuffer {
  uint64_t address = 0;
  uint64_t bytes = 0;
  /// The bytes of one element (the shadow's granularity); 0 (unknown) or
  /// not a power of two: the element's accesses are kept by address.
  uint64_t elementBytes = 0;
};

class AccessChecker {
public:
  /// A new dispatch over `buffers` (binding order) with workgroups of
  /// `blockDim` threads. Up to `slots` workgroups run at once, slot s's
  /// workgroup memory being [workgroupBase + s * slotStride, ... +
  /// workgroupBytes).
  void startDispatch(std::vector<BoundBuffer> buffers,
                     const std::array<uint32_t, 3> &blockDim,
                     uint64_t workgroupBase, uint64_t workgroupBytes,
                     uint32_t slots = 1, uint64_t slotStride = 0);
  /// A new workgroup in `slot`, now the running one: its workgroup memory
  /// holds nothing written yet.
  void startWorkgroup(uint64_t workgroup,
                      const std::array<uint32_t, 3> &blockId,
                      uint32_t slot = 0);
  /// The accesses that follow are workgroup `workgroup`'s, in `slot`
  /// (started before: its workgroup memory keeps what it wrote).
  void switchTo(uint64_t workgroup, const std::array<uint32_t, 3> &blockId,
                uint32_t slot);

  /// Where a thread's warp is: its number in the workgroup and how many
  /// warp operations (syncs, ballots) it completed. Two accesses of one
  /// warp's lanes in one interval between barriers are ordered when the
  /// warp completed an operation between them.
  struct WarpTime {
    uint32_t warp = 0, epoch = 0;
  };

  /// Thread `thread` (linear in its workgroup), in the interval between
  /// barriers `epoch`, at `warp`'s time, accesses the element at `address`
  /// at site `site`.
  /// `atomic`: an atomic access; `readsOld`: a write that reads the old
  /// value first (an atomic add), which reads uninitialized memory as a
  /// load does.
  void access(uint32_t thread, uint64_t epoch, WarpTime warp, uint32_t site,
              uint64_t address, bool write, bool workgroup, bool atomic = false,
              bool readsOld = false);

  /// The first problem seen ("data-race: ..." or "uninitialized-read:
  /// ..."), or "".
  const std::string &problem() const { return problem_; }

  /// Keeps `message` as the problem unless one came first (the bounds
  /// check's reports come here too, so that the earliest problem wins).
  void report(const std::string &message);

private:
  static constexpr uint32_t kNone = UINT32_MAX;
  /// Two distinct ids (threads or workgroups) that did something, with the
  /// access sites: enough to find one that is not a given other. Threads
  /// (at most 1024) fit `Id` = uint16_t, whose all-ones value is none.
  template <typename Id> struct Two {
    static constexpr Id kNoId = static_cast<Id>(~Id{0});
    Id first = kNoId, second = kNoId;
    uint32_t firstSite = 0, secondSite = 0;
    /// Whether every access of first (second) was atomic.
    bool firstAtomic = false, secondAtomic = false;
    void add(uint32_t id, uint32_t site, bool atomic) {
      if (first == kNoId || first == id) {
        firstAtomic = atomic && (first == kNoId || firstAtomic);
        first = static_cast<Id>(id);
        firstSite = site;
      } else if (second == kNoId || second == id) {
        secondAtomic = atomic && (second == kNoId || secondAtomic);
        second = static_cast<Id>(id);
        secondSite = site;
      }
    }
    /// One that is not `id` (with `plainOnly`, one whose accesses were not
    /// all atomic): its id and site; kNone when there is none.
    std::pair<uint32_t, uint32_t> other(uint32_t id,
                                        bool plainOnly = false) const {
      if (first != kNoId && first != id && !(plainOnly && firstAtomic))
        return {first, firstSite};
      if (second != kNoId && second != id && !(plainOnly && secondAtomic))
        return {second, secondSite};
      return {kNone, 0};
    }
  };
  using Threads = Two<uint16_t>;
  using Workgroups = Two<uint32_t>;
  /// An earlier access another id made that an access of `id` conflicts
  /// with: a write, or (when this access writes) a read; `id` kNone: none.
  struct Conflict {
    uint32_t id = kNone, site = 0;
    bool wrote = false;
  };
  /// An atomic access conflicts only with another's plain ones.
  template <typename Set>
  static Conflict conflictWith(const Set &writers, const Set &readers,
                               uint32_t id, bool write, bool atomic) {
    if (auto [writer, site] = writers.other(id, atomic); writer != kNone)
      return {writer, site, true};
    if (auto [reader, site] = readers.other(id, atomic);
        write && reader != kNone)
      return {reader, site, false};
    return {};
  }
  /// One element's accesses by the threads of workgroup `group` in its
  /// interval `epoch` between barriers. Workgroup memory needs no more
  /// (its workgroup is the current one: `group` is unused there).
  struct Entry {
    uint32_t generation = 0; ///< live when it is the current one
    uint32_t group = kNone;
    uint32_t epoch = 0;
    /// The warp whose lanes made every access of this interval (kNone:
    /// lanes of more than one) and its warp time at the last.
    uint32_t warp = kNone, warpEpoch = 0;
    Threads threadWriters, threadReaders;
    bool written = false;
  };
  /// A global element's: also the dispatch's workgroups that touched it.
  struct GlobalEntry : Entry {
    Workgroups groupWriters, groupReaders;
  };
  /// The checks of one access on its (live) entry; false when it found a
  /// problem.
  bool threadsAccess(Entry &e, uint32_t thread, uint32_t epoch, WarpTime warp,
                     uint32_t site, uint64_t address, bool write,
                     bool workgroup, bool atomic);
  enum class Problem { UninitializedRead, ThreadRace, WorkgroupRace };
  /// Reports `kind` for this access; `other` (a thread, or a workgroup)
  /// and `otherSite` did the access it conflicts with.
  [[gnu::noinline, gnu::cold]] void
  reportAccess(Problem kind, uint32_t thread, uint64_t address, bool write,
               bool workgroup, uint32_t site, uint32_t other,
               uint32_t otherSite, bool otherWrote);
  std::string where(uint64_t address, bool workgroup) const;
  std::string thread(uint32_t linear) const;

  std::vector<BoundBuffer> buffers_;
  /// Every slot's workgroup memory, [workgroupBase_, + workgroupSpan_),
  /// and the running workgroup's, [slotBase_, + workgroupBytes_).
  uint64_t workgroupBase_ = 0, workgroupBytes_ = 0, workgroupSpan_ = 0;
  uint64_t slotBase_ = 0, slotStride_ = 0;
  /// Each slot's generation of local_ entries (live: equal).
  std::vector<uint32_t> slotGenerations_;
  uint32_t slot_ = 0;
  uint32_t workgroup_ = 0;
  std::array<uint32_t, 3> blockId_{};
  std::array<uint32_t, 3> blockDim_{1, 1, 1};
  /// The live entry of `address` in global memory, reset when it is of an
  /// earlier dispatch.
  GlobalEntry &globalEntry(uint64_t address);

  /// Shadow arrays indexed by element (each binding of known element size)
  /// and by byte (workgroup memory), kept across dispatches and made stale
  /// by the generation numbers (zero bytes: generation 0, never live); a
  /// map for any other address.
  std::vector<LargeArray<GlobalEntry>> bindings_;
  std::vector<unsigned> shifts_; ///< log2 of each binding's element bytes
  LargeArray<Entry> local_;
  uint32_t globalGeneration_ = 0, localGeneration_ = 0;
  size_t lastBinding_ = 0;
  AddressMap<GlobalEntry> global_;
  std::string problem_;
  bool failed_ = false; ///< a problem was reported (cheaper to test)
};

} // namespace sift::emu
