//===- harness/commands/Cli.cpp - Flag values shared by commands ----------===//

#include "harness/commands/Cli.h"

#include "harness/sut/Systems.h"
#include "support/FileIO.h"
#include "support/Text.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <unistd.h>

namespace sift::harness {

namespace {

/// "a, b, c" from a list of names.
template <typename Range, typename ToName>
std::string joinNames(const Range &values, ToName toName) {
  std::string text;
  for (const auto &value : values)
    text += (text.empty() ? "" : ", ") + std::string(toName(value));
  return text;
}

/// The pipelines of the systems described by files that `name` selects
/// ("xla", "xla-nofusion", "xla-all"), loading --system files and the
/// shipped ones; empty when no system file has it.
std::vector<const SystemPipeline *> filePipelines(Systems &systems,
                                                  const std::string &name) {
  Result<const SystemFile *> file = systems.fileWithPipeline(name);
  if (!file.ok())
    throw UsageError{file.message()};
  if (*file)
    return {(*file)->pipeline(name)};
  std::vector<const SystemPipeline *> all;
  if (name.size() > 4 && name.compare(name.size() - 4, 4, "-all") == 0) {
    Result<const SystemFile *> named =
        systems.fileNamed(name.substr(0, name.size() - 4));
    if (!named.ok())
      throw UsageError{named.message()};
    if (*named)
      for (const SystemPipeline &pipeline : (*named)->pipelines)
        all.push_back(&pipeline);
  }
  return all;
}

/// An unknown --pipeline: sift's and IREE's names and those of every
/// system file.
std::string unknownPipelineMessage(const std::string &name, Systems &systems) {
  std::string list;
  for (PipelineKind kind : kAllPipelineKinds)
    list += (list.empty() ? "" : ", ") + std::string(toString(kind));
  list += ", all, iree-all";
  std::vector<std::string> errors;
  for (const SystemFile *file : systems.allFiles(errors)) {
    for (const SystemPipeline &pipeline : file->pipelines)
      list += ", " + pipeline.fullName;
    list += ", " + file->name + "-all";
  }
  return "unknown pipeline '" + name + "'; valid pipelines: " + list +
         " (harness list systems; --system=FILE adds a system file's)";
}

} // namespace

PipelineSelection pipelinesFlag(Systems &systems, const std::string &list,
                                const std::vector<std::string> &systemFiles,
                                bool listGiven) {
  for (const std::string &path : systemFiles)
    if (Status added = systems.addFile(path); !added.ok())
      throw UsageError{"--system: " + added.message()};
  // --system without --pipeline: the given systems' pipelines.
  std::vector<std::string> names;
  if (!systemFiles.empty() && !listGiven)
    for (const std::string &path : systemFiles)
      names.push_back(loadSystemFile(path)->name + "-all");
  else
    names = listFlag(list, "--pipeline");
  PipelineSelection selected;
  for (const std::string &name : names) {
    std::vector<PipelineKind> named;
    if (name == "all")
      named.assign(std::begin(kSiftPipelineKinds),
                   std::end(kSiftPipelineKinds));
    else if (name == "iree-all")
      named.assign(std::begin(kIreePipelineKinds),
                   std::end(kIreePipelineKinds));
    else if (parsePipelineKind(name))
      named = {pipelineFlag(name)};
    else if (std::vector<const SystemPipeline *> found =
                 filePipelines(systems, name);
             !found.empty()) {
      for (const SystemPipeline *pipeline : found)
        if (std::find(selected.files.begin(), selected.files.end(),
                      pipeline) == selected.files.end())
          selected.files.push_back(pipeline);
      continue;
    } else
      throw UsageError{unknownPipelineMessage(name, systems)};
    for (PipelineKind kind : named)
      if (std::find(selected.kinds.begin(), selected.kinds.end(), kind) ==
          selected.kinds.end())
        selected.kinds.push_back(kind);
  }
  return selected;
}

PipelineKind pipelineFlag(const std::string &name) {
  if (auto kind = parsePipelineKind(name))
    return *kind;
  throw UsageError{
      "unknown pipeline '" + name + "'; valid pipelines: " +
      joinNames(kAllPipelineKinds, [](PipelineKind k) { return toString(k); })};
}

PipelineKind siftPipelineFlag(const std::string &name, const char *command) {
  PipelineKind kind = pipelineFlag(name);
  if (systemOf(kind) != SystemKind::Sift)
    throw UsageError{"harness " + std::string(command) +
                     " takes sift's pipelines (cpu, tileandfuse, "
                     "distribute); IREE's " + name +
                     " runs through harness fuzz --pipeline=" + name};
  return kind;
}

TargetKind targetFlag(const std::string &name) {
  if (auto kind = parseTargetKind(name))
    return *kind;
  throw UsageError{
      "unknown target '" + name + "'; valid targets: " +
      joinNames(kAllTargetKinds, [](TargetKind k) { return toString(k); })};
}

rt::DeviceKind deviceFlag(const std::string &name) {
  for (rt::DeviceKind kind : rt::kAllDeviceKinds)
    if (rt::toString(kind) == name)
      return kind;
  throw UsageError{"unknown device '" + name +
                   "'; valid devices: cpu, cuda, hip, emu"};
}

gen::InputMode inputModeFlag(const std::string &name) {
  if (auto mode = gen::parseInputMode(name))
    return *mode;
  throw UsageError{"unknown input mode '" + name +
                   "'; valid modes: mixed, uniform, ties, special, sorted, "
                   "reversed"};
}

std::string chipFlag(TargetKind target, const std::string &chip) {
  if (chip.empty())
    return chip;
  Result<ChipInfo> info = findChip(target, chip);
  if (!info.ok())
    throw UsageError{"--chip: " + info.message()};
  return chip;
}

std::vector<std::string> listFlag(const std::string &list,
                                  const std::string &flag) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    size_t end = list.find(',', start);
    std::string item = list.substr(start, end - start);
    if (item.empty())
      throw UsageError{flag + ": empty item in '" + list + "'"};
    items.push_back(item);
    if (end == std::string::npos)
      return items;
    start = end + 1;
  }
}

void checkOutFolder(const std::string &flag, const std::string &path) {
  namespace fs = std::filesystem;
  if (path.empty())
    throw UsageError{flag + " needs a folder name"};
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec).lexically_normal();
  if (absolute == absolute.root_path())
    throw UsageError{flag + "=" + path +
                     ": the root folder; give the run a folder of its own "
                     "(its findings.db and cases/ go right in it)"};
  // The regression corpus (a corpus/ folder with its FORMAT.md) holds only
  // chosen cases: a run's findings.db and cases/ there would be replayed
  // as corpus cases by CI.
  for (fs::path at = absolute; !at.empty() && at != at.root_path();
       at = at.parent_path())
    if (at.filename() == "corpus" && fs::exists(at / "FORMAT.md", ec))
      throw UsageError{flag + "=" + path + ": inside the regression corpus " +
                       at.string() +
                       "; write runs elsewhere and copy a case there "
                       "(corpus/FORMAT.md says how)"};
}

std::string repeatedFile(const std::vector<std::string> &paths) {
  for (size_t a = 0; a < paths.size(); ++a)
    for (size_t b = a + 1; b < paths.size(); ++b)
      if (isSameFile(paths[a], paths[b]))
        return paths[a] == paths[b]
                   ? paths[a] + " is given twice"
                   : paths[a] + " and " + paths[b] + " are one file";
  return "";
}

std::string unwritableReason(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path at = fs::absolute(path, ec).parent_path();
  while (!at.empty() && !fs::exists(at, ec) && at != at.parent_path())
    at = at.parent_path();
  if (!fs::is_directory(at, ec))
    return at.string() + " is not a folder";
  // A file made and removed there: permissions, read-only mounts and
  // pseudo file systems (/proc) all answer the same way.
  fs::path probe = at / (".sift-probe-" + std::to_string(::getpid()));
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return "cannot write in " + at.string() + ": " + std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

double durationFlag(const std::string &flag, const std::string &text) {
  std::optional<double> seconds = parseDuration(text);
  if (!seconds)
    throw UsageError{flag + ": '" + text +
                     "' is not a positive duration (90, 90s, 5m, 2h)"};
  return *seconds;
}

uint64_t memoryFlag(const std::string &text) {
  if (text == "none")
    return 0;
  std::optional<uint64_t> bytes = parseByteSize(text);
  if (!bytes)
    throw UsageError{"--memory-limit: '" + text +
                     "' is not a size (512M, 4G) or none"};
  // A worker's empty compile takes over 320M of address space (LLVM's
  // and MLIR's libraries, its threads): under that every case would be a
  // compile-crash of the limit's making, not the compiler's.
  constexpr uint64_t kFloor = uint64_t(512) << 20;
  if (*bytes < kFloor)
    throw UsageError{"--memory-limit=" + text +
                     ": below 512M, less than a worker needs to compile an "
                     "empty program (every case would crash on the limit, "
                     "not on a bug); give 512M or more, or none"};
  return *bytes;
}

std::string faultListText(const FaultSet &faults) {
  std::string list;
  for (Fault fault : kAllFaults)
    if (faults.contains(fault))
      list += (list.empty() ? "" : ",") + std::string(toString(fault));
  return list;
}

FaultSet faultsFlag(const std::string &text) {
  std::string error;
  std::optional<FaultSet> faults = parseFaults(text, /*forFuzz=*/false, error);
  if (!faults)
    throw UsageError{"--inject: " + error};
  return *faults;
}

CLI::Validator wholeNumber() {
  return CLI::Validator(
      [](std::string &text) -> std::string {
        if (text.empty() ||
            text.find_first_not_of("0123456789") != std::string::npos)
          return "'" + text + "' is not a whole number (0, 1, 2, ...)";
        uint64_t value = 0;
        auto [end, ec] =
            std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size())
          return "'" + text + "' is larger than 2^64 - 1";
        return "";
      },
      "N");
}

void checkNoEmptyValues(const std::vector<std::string> &args) {
  for (const std::string &arg : args) {
    if (arg == "--")
      return;
    if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=')
      throw UsageError{arg + " has no value: write " + arg +
                       "VALUE (or leave the flag out for its default)"};
  }
}

} // namespace sift::harness
