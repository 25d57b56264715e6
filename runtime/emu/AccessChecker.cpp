//===- runtime/emu/AccessChecker.cpp - Races and uninitialized reads ------===//

#include "runtime/emu/AccessChecker.h"

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
                                  uint64_t workgroupBytes) {
  buffers_ = std::move(buffers);
  blockDim_ = blockDim;
  workgroupBase_ = workgroupBase;
  workgroupBytes_ = workgroupBytes;
  global_.clear();
  problem_.clear();
  ++globalGeneration_;
  if (bindings_.size() < buffers_.size())
    bindings_.resize(buffers_.size());
  for (size_t b = 0; b < buffers_.size(); ++b) {
    uint64_t size = buffers_[b].elementBytes
                        ? buffers_[b].bytes / buffers_[b].elementBytes
                        : 0;
    if (bindings_[b].size() < size)
      bindings_[b].resize(size);
  }
  if (local_.size() < workgroupBytes)
    local_.resize(workgroupBytes);
}

AccessChecker::Entry &AccessChecker::entryOf(uint64_t address, bool workgroup) {
  auto fresh = [](Entry &e, uint32_t generation) -> Entry & {
    if (e.generation != generation) {
      e = Entry();
      e.generation = generation;
    }
    return e;
  };
  if (workgroup) {
    uint64_t offset = address - workgroupBase_;
    if (address >= workgroupBase_ && offset < workgroupBytes_)
      return fresh(local_[offset], localGeneration_);
    return global_[address];
  }
  for (size_t k = 0; k < buffers_.size(); ++k) {
    size_t b = (lastBinding_ + k) % buffers_.size();
    const BoundBuffer &buffer = buffers_[b];
    if (address < buffer.address || address - buffer.address >= buffer.bytes ||
        buffer.elementBytes == 0)
      continue;
    lastBinding_ = b;
    uint64_t element = (address - buffer.address) / buffer.elementBytes;
    return fresh(bindings_[b][element], globalGeneration_);
  }
  return global_[address];
}

void AccessChecker::startWorkgroup(uint64_t workgroup,
                                   const std::array<uint32_t, 3> &blockId) {
  workgroup_ = static_cast<uint32_t>(workgroup);
  blockId_ = blockId;
  ++localGeneration_;
}

std::string AccessChecker::thread(uint32_t linear) const {
  std::array<uint32_t, 3> id{linear % blockDim_[0],
                             linear / blockDim_[0] % blockDim_[1],
                             linear / (blockDim_[0] * blockDim_[1])};
  return "thread " + triple(id);
}

std::string AccessChecker::where(uint64_t address, bool workgroup) const {
  if (workgroup)
    return "byte " + std::to_string(address - workgroupBase_) +
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
}

void AccessChecker::access(uint32_t threadIndex, uint64_t epoch, uint32_t site,
                           uint64_t address, bool write, bool workgroup) {
  if (!problem_.empty())
    return;
  // Messages are made only for a report.
  auto what = [&] {
    return std::string(write ? "writes " : "reads ") +
           where(address, workgroup) + " (access " + std::to_string(site) + ")";
  };
  auto me = [&] {
    return thread(threadIndex) + " of workgroup " + triple(blockId_);
  };
  Entry &e = entryOf(address, workgroup);
  if (workgroup && !write && !e.written) {
    report("uninitialized-read: " + me() + " " + what() +
           " before any thread of its workgroup wrote it");
    return;
  }
  // Global memory: the workgroups of a dispatch are not ordered.
  if (!workgroup) {
    auto [writer, writerSite] = e.groupWriters.other(workgroup_);
    auto [reader, readerSite] = e.groupReaders.other(workgroup_);
    if (writer != kNone || (write && reader != kNone)) {
      bool wrote = writer != kNone;
      report("data-race: " + me() + " " + what() +
             " that another workgroup of the dispatch " +
             (wrote ? "wrote" : "read") + " (access " +
             std::to_string(wrote ? writerSite : readerSite) + ")");
      return;
    }
    (write ? e.groupWriters : e.groupReaders).add(workgroup_, site);
  }
  // Threads of this workgroup since its last barrier.
  if (e.group != workgroup_ || e.epoch != epoch) {
    e.group = workgroup_;
    e.epoch = epoch;
    e.threadWriters = Two();
    e.threadReaders = Two();
  }
  auto [writer, writerSite] = e.threadWriters.other(threadIndex);
  auto [reader, readerSite] = e.threadReaders.other(threadIndex);
  if (writer != kNone || (write && reader != kNone)) {
    bool wrote = writer != kNone;
    report("data-race: " + me() + " " + what() + " that " +
           thread(wrote ? writer : reader) + " " + (wrote ? "wrote" : "read") +
           " (access " + std::to_string(wrote ? writerSite : readerSite) +
           ") since the last barrier");
    return;
  }
  (write ? e.threadWriters : e.threadReaders).add(threadIndex, site);
  e.written |= write;
}

} // namespace sift::emu
