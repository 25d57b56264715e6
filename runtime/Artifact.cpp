//===- runtime/Artifact.cpp - Compiled programs as one verified file ------===//
//
// The artifact's plain data and its verifier, and where the emu executable's
// entries are. The file format's writer and reader are in ArtifactFile.cpp.
//
//===----------------------------------------------------------------------===//

#include "runtime/Artifact.h"

#include "runtime/ArtifactDetail.h"

#include <optional>
#include <set>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::detail;

bool Executable::operator==(const Executable &other) const {
  return format == other.format && target == other.target &&
         entries == other.entries && binary == other.binary;
}

bool Artifact::operator==(const Artifact &other) const {
  return meta == other.meta && executables == other.executables &&
         plan == other.plan && inputs == other.inputs &&
         expected == other.expected;
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

namespace {

bool isControl(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

} // namespace

std::string rt::detail::quoted(const std::string &s) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i)
    out += isControl(s[i]) ? '?' : s[i];
  if (s.size() > kMax)
    out += "...";
  return out + "'";
}

namespace {

/// Checks tensors against the plan buffers they stand for.
Status verifyTensors(const Plan &plan, const std::vector<HostTensor> &tensors,
                     const std::vector<int> &buffers, const char *what,
                     const char *role) {
  if (tensors.empty())
    return Status::success();
  if (tensors.size() != buffers.size())
    return makeError("the artifact carries " + std::to_string(tensors.size()) +
                     " " + what + " tensors but the plan has " +
                     std::to_string(buffers.size()) + " " + role + "s");
  for (size_t i = 0; i < tensors.size(); ++i) {
    const HostTensor &tensor = tensors[i];
    const PlanBuffer &buffer = plan.buffers[buffers[i]];
    if (tensor.type != buffer.type || tensor.shape != buffer.shape)
      return makeError(std::string(what) + " " + std::to_string(i) + " is " +
                       describe(tensor) + " but the plan's " + role + " " +
                       std::to_string(i) + " (buffer " +
                       std::to_string(buffers[i]) + ") is " +
                       describe(buffer.type, buffer.shape));
    std::optional<uint64_t> bytes = bufferByteSize(tensor.type, tensor.shape);
    if (!bytes || *bytes != tensor.data.size())
      return makeError(std::string(what) + " " + std::to_string(i) + " (" +
                       describe(tensor) + ") holds " +
                       std::to_string(tensor.data.size()) +
                       " data bytes, not the " +
                       (bytes ? std::to_string(*bytes) : std::string("?")) +
                       " its shape needs");
  }
  return Status::success();
}

Status verifyExecutable(const Executable &exe, size_t index) {
  std::string where = "executable " + std::to_string(index);
  switch (exe.format) {
  case ExecutableFormat::HostSharedObject:
  case ExecutableFormat::Ptx:
  case ExecutableFormat::Hsaco:
  case ExecutableFormat::EmuSharedObject: break;
  default: return makeError(where + " has an unknown format");
  }
  for (char c : exe.target)
    if (isControl(c))
      return makeError(where + " has a control character in its target " +
                       quoted(exe.target));
  if (exe.binary.empty())
    return makeError(where + " has an empty binary");
  if (exe.entries.empty())
    return makeError(where + " declares no entry points");
  std::set<std::string> seen;
  for (size_t e = 0; e < exe.entries.size(); ++e) {
    const std::string &entry = exe.entries[e];
    if (entry.empty())
      return makeError(where + " entry " + std::to_string(e) +
                       " has an empty name");
    for (char c : entry)
      if (isControl(c) || c == ' ')
        return makeError(where + " entry " + std::to_string(e) + " name " +
                         quoted(entry) +
                         " contains whitespace or a control character");
    if (!seen.insert(entry).second)
      return makeError(where + " declares entry " + quoted(entry) + " twice");
  }
  return Status::success();
}

/// At most one emu-so executable, the last, with one entry per entry of the
/// GPU executables before it (of ptx or hsaco format), in their order.
Status verifyEmuExecutable(const Artifact &artifact) {
  const std::vector<Executable> &exes = artifact.executables;
  size_t gpuEntries = 0;
  for (size_t i = 0; i < exes.size(); ++i) {
    ExecutableFormat format = exes[i].format;
    if (format == ExecutableFormat::Ptx || format == ExecutableFormat::Hsaco)
      gpuEntries += exes[i].entries.size();
    if (format != ExecutableFormat::EmuSharedObject)
      continue;
    std::string where = "executable " + std::to_string(i) + " (emu-so)";
    if (i + 1 != exes.size())
      return makeError(where + " is not the last executable");
    if (exes[i].entries.size() != gpuEntries)
      return makeError(where + " has " +
                       std::to_string(exes[i].entries.size()) +
                       " entries for the " + std::to_string(gpuEntries) +
                       " entries of the GPU executables before it");
  }
  return Status::success();
}

} // namespace

const Executable *rt::emuExecutable(const Artifact &artifact) {
  if (!artifact.executables.empty() &&
      artifact.executables.back().format == ExecutableFormat::EmuSharedObject)
    return &artifact.executables.back();
  return nullptr;
}

int rt::emuEntryIndex(const Artifact &artifact, const Dispatch &dispatch) {
  int index = 0;
  for (int i = 0; i < dispatch.executable; ++i)
    index += static_cast<int>(artifact.executables[i].entries.size());
  return index + dispatch.entry;
}

Status rt::verifyArtifact(const Artifact &artifact) {
  for (const auto &[key, value] : artifact.meta) {
    if (key.empty())
      return makeError("meta has an empty key");
    for (char c : key)
      if (c == '=' || isControl(c))
        return makeError("meta key " + quoted(key) +
                         " contains '=' or a control character");
    for (char c : value)
      if (c == '\n' || c == '\r' || c == '\0')
        return makeError("meta value of " + quoted(key) +
                         " contains a line break or NUL");
  }
  for (size_t i = 0; i < artifact.executables.size(); ++i)
    if (Status s = verifyExecutable(artifact.executables[i], i); !s)
      return s;

  if (Status s = verifyEmuExecutable(artifact); !s)
    return s;

  const Plan &plan = artifact.plan;
  if (Status s = verifyPlan(plan); !s)
    return s;
  for (size_t d = 0; d < plan.dispatches.size(); ++d) {
    const Dispatch &dispatch = plan.dispatches[d];
    std::string where = "dispatch " + std::to_string(d);
    if (static_cast<size_t>(dispatch.executable) >= artifact.executables.size())
      return makeError(
          where + " names executable " + std::to_string(dispatch.executable) +
          " but the artifact has " +
          std::to_string(artifact.executables.size()) + " executables");
    const Executable &exe = artifact.executables[dispatch.executable];
    if (exe.format == ExecutableFormat::EmuSharedObject)
      return makeError(where + " names executable " +
                       std::to_string(dispatch.executable) +
                       ", the emu kernels (which stand in for the others)");
    if (static_cast<size_t>(dispatch.entry) >= exe.entries.size())
      return makeError(where + " names entry " +
                       std::to_string(dispatch.entry) + " of executable " +
                       std::to_string(dispatch.executable) + ", which has " +
                       std::to_string(exe.entries.size()) + " entries");
  }
  if (Status s =
          verifyTensors(plan, artifact.inputs, plan.inputs(), "input", "input");
      !s)
    return s;
  return verifyTensors(plan, artifact.expected, plan.outputs(), "expected",
                       "output");
}
