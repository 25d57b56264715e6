//===- runtime/emu/AccessChecker.cpp - Races and uninitialized reads ------===//

#include "runtime/emu/AccessChecker.h"

#include <algorithm>

namespace sift::emu {

namespace {

std::string triple(const std::array<uint32_t, 3> &v) {
  return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
         std::to_string(v[2]) + ")";
}

} // namespace

void AccessChecker::startDispatch(std::vector<BoundBuffer> buffers,
                                  const std::array<uint32_t, 3> &blockDim,
                                  uint64_t workgroupBase,
                                  uint64_t workgroupBytes, uint32_t slots,
                                  uint64_t slotStride) {
  buffers_ = std::move(buffers);
  blockDim_ = blockDim;
  workgroupBase_ = workgroupBase;
  workgroupBytes_ = workgroupBytes;
  slots = std::max<uint32_t>(slots, 1);
  slotStride_ = slots > 1 ? slotStride : workgroupBytes;
  workgroupSpan_ = (slots - 1) * slotStride_ + workgroupBytes;
  slotBase_ = workgroupBase;
  slot_ = 0;
  slotGenerations_.assign(slots, 0);
  global_.clear();
  problem_.clear();
  failed_ = false;
  if (++globalGeneration_ == 0) // 0 is the zero bytes' generation
    ++globalGeneration_;
  if (bindings_.size() < buffers_.size())
    bindings_.resize(buffers_.size());
  shifts_.assign(buffers_.size(), 0);
  for (size_t b = 0; b < buffers_.size(); ++b) {
    // Elements of a power-of-two size are found by a shift (a division
    // for every access would cost more than the rest of the check).
    uint64_t bytes = buffers_[b].elementBytes;
    if (bytes == 0 || (bytes & (bytes - 1)) != 0)
      buffers_[b].elementBytes = 0; // checked through the map instead
    else
      while ((uint64_t{1} << shifts_[b]) < bytes)
        ++shifts_[b];
    uint64_t size =
        buffers_[b].elementBytes ? buffers_[b].bytes >> shifts_[b] : 0;
    bindings_[b].grow(size);
  }
  local_.grow(workgroupSpan_);
}

AccessChecker::GlobalEntry &AccessChecker::globalEntry(uint64_t address) {
  auto live = [&](size_t b) -> GlobalEntry & {
    const BoundBuffer &buffer = buffers_[b];
    GlobalEntry &e = bindings_[b][(address - buffer.address) >> shifts_[b]];
    if (e.generation != globalGeneration_) {
      e = GlobalEntry();
      e.generation = globalGeneration_;
    }
    return e;
  };
  auto inside = [&](const BoundBuffer &buffer) {
    return address >= buffer.address &&
           address - buffer.address < buffer.bytes && buffer.elementBytes != 0;
  };
  // Accesses come in runs on one binding: try the last one first.
  if (lastBinding_ < buffers_.size() && inside(buffers_[lastBinding_]))
    return live(lastBinding_);
  for (size_t b = 0; b < buffers_.size(); ++b)
    if (inside(buffers_[b])) {
      lastBinding_ = b;
      return live(b);
    }
  return global_[address];
}

void AccessChecker::startWorkgroup(uint64_t workgroup,
                                   const std::array<uint32_t, 3> &blockId,
                                   uint32_t slot) {
  if (++localGeneration_ == 0)
    ++localGeneration_;
  slotGenerations_.at(slot) = localGeneration_;
  switchTo(workgroup, blockId, slot);
}

void AccessChecker::switchTo(uint64_t workgroup,
                             const std::array<uint32_t, 3> &blockId,
                             uint32_t slot) {
  workgroup_ = static_cast<uint32_t>(workgroup);
  blockId_ = blockId;
  slot_ = slot;
  slotBase_ = workgroupBase_ + slot * slotStride_;
}

std::string AccessChecker::thread(uint32_t linear) const {
  std::array<uint32_t, 3> id{linear % blockDim_[0],
                             linear / blockDim_[0] % blockDim_[1],
                             linear / (blockDim_[0] * blockDim_[1])};
  return "thread " + triple(id);
}

std::string AccessChecker::where(uint64_t address, bool workgroup) const {
  if (workgroup)
    return "byte " + std::to_string(address - slotBase_) +
           " of workgroup memory";
  for (size_t b = 0; b < buffers_.size(); ++b)
    if (address >= buffers_[b].address &&
        address - buffers_[b].address < buffers_[b].bytes)
      return "byte " + std::to_string(address - buffers_[b].address) +
             " of binding " + std::to_string(b);
  return "address " + std::to_string(address);
}

void AccessChecker::report(const std::string &message) {
  if (problem_.empty())
    problem_ = message;
  failed_ = true;
}

// The reports are out of line and cold: the checks run on the fibers'
// stacks, and a frame big enough to build a message would be one more
// cache line to miss at every access.
void AccessChecker::reportAccess(Problem kind, uint32_t threadIndex,
                                 uint64_t address, bool write, bool workgroup,
                                 uint32_t site, uint32_t other,
                                 uint32_t otherSite, bool otherWrote) {
  std::string me = thread(threadIndex) + " of workgroup " + triple(blockId_) +
                   " " + (write ? "writes " : "reads ") +
                   where(address, workgroup) + " (access " +
                   std::to_string(site) + ")";
  std::string them = std::string(otherWrote ? "wrote" : "read") + " (access " +
                     std::to_string(otherSite) + ")";
  switch (kind) {
  case Problem::UninitializedRead:
    report("uninitialized-read: " + me +
           " before any thread of its workgroup wrote it");
    return;
  case Problem::ThreadRace:
    report("data-race: " + me + " that " + thread(other) + " " + them +
           " since the last barrier");
    return;
  case Problem::WorkgroupRace:
    report("data-race: " + me + " that another workgroup of the dispatch " +
           them);
    return;
  }
}

bool AccessChecker::threadsAccess(Entry &e, uint32_t threadIndex,
                                  uint32_t epoch, WarpTime warp, uint32_t site,
                                  uint64_t address, bool write, bool workgroup,
                                  bool atomic) {
  if (e.group != workgroup_ || e.epoch != epoch) {
    e.group = workgroup_;
    e.epoch = epoch;
    e.warp = warp.warp;
    e.warpEpoch = warp.epoch;
    e.threadWriters = Threads();
    e.threadReaders = Threads();
  } else if (e.warp == warp.warp && e.warpEpoch != warp.epoch) {
    // Only this warp's lanes touched the element since the barrier, and
    // the warp completed a warp operation since: those accesses are
    // ordered before this one.
    e.warpEpoch = warp.epoch;
    e.threadWriters = Threads();
    e.threadReaders = Threads();
  } else if (e.warp != warp.warp) {
    e.warp = kNone;
  }
  if (Conflict c = conflictWith(e.threadWriters, e.threadReaders, threadIndex,
                                write, atomic);
      c.id != kNone) {
    reportAccess(Problem::ThreadRace, threadIndex, address, write, workgroup,
                 site, c.id, c.site, c.wrote);
    return false;
  }
  (write ? e.threadWriters : e.threadReaders).add(threadIndex, site, atomic);
  e.written |= write;
  return true;
}

void AccessChecker::access(uint32_t threadIndex, uint64_t epoch, WarpTime warp,
                           uint32_t site, uint64_t address, bool write,
                           bool workgroup, bool atomic, bool readsOld) {
  if (failed_)
    return;
  auto interval = static_cast<uint32_t>(epoch);
  // A generic pointer of unknown origin may point into workgroup memory:
  // the address says where it is.
  workgroup |= address - workgroupBase_ < workgroupSpan_;
  if (workgroup) {
    // Another slot's workgroup memory is not this workgroup's: checked by
    // address, as memory of no known allocation.
    if (address < slotBase_ || address - slotBase_ >= workgroupBytes_) {
      threadsAccess(global_[address], threadIndex, interval, warp, site,
                    address, write, workgroup, atomic);
      return;
    }
    Entry &e = local_[address - workgroupBase_];
    uint32_t generation = slotGenerations_[slot_];
    if (e.generation != generation) {
      e = Entry();
      e.generation = generation;
    }
    if ((!write || readsOld) && !e.written) {
      // An atomic add reads before it writes: reported as the read.
      reportAccess(Problem::UninitializedRead, threadIndex, address,
                   /*write=*/false, workgroup, site, kNone, 0, false);
      return;
    }
    threadsAccess(e, threadIndex, interval, warp, site, address, write,
                  workgroup, atomic);
    return;
  }
  // Global memory: the workgroups of a dispatch are not ordered.
  GlobalEntry &e = globalEntry(address);
  if (Conflict c = conflictWith(e.groupWriters, e.groupReaders, workgroup_,
                                write, atomic);
      c.id != kNone) {
    reportAccess(Problem::WorkgroupRace, threadIndex, address, write, workgroup,
                 site, c.id, c.site, c.wrote);
    return;
  }
  (write ? e.groupWriters : e.groupReaders).add(workgroup_, site, atomic);
  threadsAccess(e, threadIndex, interval, warp, site, address, write, workgroup,
                atomic);
}

} // namespace sift::emu
