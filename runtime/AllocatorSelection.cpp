//===- runtime/AllocatorSelection.cpp - Allocator policies and memo -------===//

#include "runtime/AllocatorSelection.h"

#include <algorithm>

using namespace sift;
using namespace sift::rt;

SelectAllocator rt::firstUserPolicy() {
  return [](const std::vector<int> &users, MemoryType, BufferUsage) {
    return users.front();
  };
}

SelectAllocator rt::leadAllocatorPolicy(int lead) {
  return [lead](const std::vector<int> &users, MemoryType, BufferUsage) {
    return std::find(users.begin(), users.end(), lead) != users.end()
               ? lead
               : users.front();
  };
}

SelectAllocator rt::ignoreAffinityPolicy() {
  return [](const std::vector<int> &, MemoryType, BufferUsage) { return 0; };
}

std::vector<int> rt::bufferUsers(const PlanBuffer &buffer) {
  std::vector<int> users = buffer.affinity;
  if (users.empty())
    users.push_back(0);
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  return users;
}

AllocatorSelector::AllocatorSelector(int deviceCount, SelectAllocator policy)
    : deviceCount_(deviceCount), policy_(std::move(policy)) {}

Result<int> AllocatorSelector::select(const PlanBuffer &buffer) {
  std::vector<int> users = bufferUsers(buffer);
  for (int user : users)
    if (user < 0 || user >= deviceCount_)
      return makeError("the buffer is used by device " + std::to_string(user) +
                       ", but this run has " + std::to_string(deviceCount_) +
                       " device" + (deviceCount_ == 1 ? "" : "s"));
  Key key{users, buffer.memory, buffer.usage};
  if (auto it = memo_.find(key); it != memo_.end())
    return it->second;
  ++policyCalls_;
  int chosen = policy_(users, buffer.memory, buffer.usage);
  if (chosen < 0 || chosen >= deviceCount_)
    return makeError("the allocator policy chose device " +
                     std::to_string(chosen) + " of " +
                     std::to_string(deviceCount_));
  memo_.emplace(std::move(key), chosen);
  return chosen;
}

Result<int> rt::parseLeadAllocator(const std::string &text, int deviceCount) {
  bool digits = !text.empty() && text.size() <= 9 &&
                text.find_first_not_of("0123456789") == std::string::npos;
  int lead = digits ? std::stoi(text) : -1;
  if (!digits || lead >= deviceCount)
    return makeError("--device-lead-allocator=" + text +
                     ": expected a device ordinal from 0 to " +
                     std::to_string(deviceCount - 1) + " (this run has " +
                     std::to_string(deviceCount) + " device" +
                     (deviceCount == 1 ? ")" : "s)"));
  return lead;
}

Status rt::checkAllocatorAffinity(const PlanBuffer &buffer, int bufferIndex,
                                  int allocator) {
  std::vector<int> users = bufferUsers(buffer);
  if (std::find(users.begin(), users.end(), allocator) != users.end())
    return Status::success();
  std::string list;
  for (int user : users)
    list += (list.empty() ? "" : ", ") + std::to_string(user);
  return makeError("buffer " + std::to_string(bufferIndex) +
                   " is used by device(s) {" + list +
                   "} but was allocated by device " +
                   std::to_string(allocator) +
                   ", which does not use it (allocator selection ignored the "
                   "buffer's affinity)");
}
