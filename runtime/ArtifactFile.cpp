//===- runtime/ArtifactFile.cpp - The artifact's file format --------------===//
//
// Writes and reads an artifact's file form: the writer (encodeArtifact,
// resealArtifact, writeArtifact) and the reader (the container, then the
// sections, then verifyArtifact), with the checksum both use. The reader
// treats the file as hostile: every offset and size is checked before use,
// with overflow-safe arithmetic, and nothing is allocated from a size the file
// declares before that size has been checked against the bytes actually
// present.
//
//===----------------------------------------------------------------------===//

#include "runtime/Artifact.h"

#include "runtime/ArtifactDetail.h"
#include "support/FileIO.h"
#include "support/Npy.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::detail;

uint64_t rt::fnv1a64(const uint8_t *data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

namespace {

void putU32(std::vector<uint8_t> &out, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

void putU64(std::vector<uint8_t> &out, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

uint32_t getU32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

uint64_t getU64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

struct OutSection {
  std::string name;
  std::vector<uint8_t> bytes;
};

std::vector<uint8_t> textBytes(const std::string &text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

std::string exeMetaText(const Executable &exe) {
  std::string text = "format=" + std::string(toString(exe.format)) + "\n";
  text += "target=" + exe.target + "\n";
  for (const std::string &entry : exe.entries)
    text += "entry=" + entry + "\n";
  return text;
}

} // namespace

std::vector<uint8_t> rt::encodeArtifact(const Artifact &artifact) {
  std::vector<OutSection> sections;
  std::string meta;
  for (const auto &[key, value] : artifact.meta)
    meta += key + "=" + value + "\n";
  sections.push_back({"meta", textBytes(meta)});
  sections.push_back({"plan", textBytes(encodePlan(artifact.plan))});
  for (size_t i = 0; i < artifact.executables.size(); ++i) {
    const Executable &exe = artifact.executables[i];
    sections.push_back({"exe/" + std::to_string(i), exe.binary});
    sections.push_back(
        {"exe/" + std::to_string(i) + ".meta", textBytes(exeMetaText(exe))});
  }
  for (size_t i = 0; i < artifact.inputs.size(); ++i)
    sections.push_back(
        {"input/" + std::to_string(i) + ".npy", encodeNpy(artifact.inputs[i])});
  for (size_t i = 0; i < artifact.expected.size(); ++i)
    sections.push_back({"expected/" + std::to_string(i) + ".npy",
                        encodeNpy(artifact.expected[i])});

  size_t tableEnd = kArtifactHeaderBytes + sections.size() * kSectionEntryBytes;
  size_t total = tableEnd;
  for (const OutSection &section : sections)
    total = (total + 7) / 8 * 8 + section.bytes.size();
  std::vector<uint8_t> out(total, 0);
  std::memcpy(out.data(), kArtifactMagic, sizeof(kArtifactMagic));
  putU32(out, 8, kArtifactVersion);
  putU32(out, 12, static_cast<uint32_t>(sections.size()));

  size_t offset = tableEnd;
  for (size_t i = 0; i < sections.size(); ++i) {
    const OutSection &section = sections[i];
    offset = (offset + 7) / 8 * 8;
    size_t entry = kArtifactHeaderBytes + i * kSectionEntryBytes;
    std::memcpy(out.data() + entry, section.name.data(),
                std::min(section.name.size(), kSectionNameBytes - 1));
    putU64(out, entry + 32, offset);
    putU64(out, entry + 40, section.bytes.size());
    if (!section.bytes.empty())
      std::memcpy(out.data() + offset, section.bytes.data(),
                  section.bytes.size());
    offset += section.bytes.size();
  }
  resealArtifact(out);
  return out;
}

void rt::resealArtifact(std::vector<uint8_t> &bytes) {
  if (bytes.size() < kArtifactHeaderBytes)
    return;
  size_t count = getU32(bytes.data() + 12);
  count = std::min(count, (bytes.size() - kArtifactHeaderBytes) /
                              kSectionEntryBytes);
  for (size_t i = 0; i < count; ++i) {
    size_t entry = kArtifactHeaderBytes + i * kSectionEntryBytes;
    uint64_t offset = getU64(bytes.data() + entry + 32);
    uint64_t size = getU64(bytes.data() + entry + 40);
    if (offset <= bytes.size() && size <= bytes.size() - offset)
      putU64(bytes, entry + 48, fnv1a64(bytes.data() + offset, size));
  }
  putU64(bytes, 16,
         fnv1a64(bytes.data() + kArtifactHeaderBytes,
                 count * kSectionEntryBytes));
}

Status rt::writeArtifact(const std::string &path, const Artifact &artifact) {
  if (Status s = verifyArtifact(artifact); !s)
    return makeError(path +
                     ": refusing to write an invalid artifact: " + s.message());
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  return writeFileAtomic(path, bytes.data(), bytes.size());
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {

struct InSection {
  std::string name;
  const uint8_t *data;
  size_t size;
};

std::string hex64(uint64_t v) {
  static const char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  for (int i = 15; i >= 0; --i)
    s += kHex[(v >> (4 * i)) & 15];
  return s;
}

/// Splits the section table; errors have no name prefix.
Result<std::vector<InSection>> readContainer(const uint8_t *data, size_t size) {
  if (size == 0)
    return makeError("empty file: not a sift artifact");
  size_t magicBytes = std::min(size, sizeof(kArtifactMagic));
  if (std::memcmp(data, kArtifactMagic, magicBytes) != 0)
    return makeError("not a sift artifact: the file does not start with the "
                     "magic \"SIFTART\\0\"");
  if (size < kArtifactHeaderBytes)
    return makeError("truncated artifact: " + std::to_string(size) +
                     " bytes end inside the " +
                     std::to_string(kArtifactHeaderBytes) + "-byte header");
  uint32_t version = getU32(data + 8);
  if (version != kArtifactVersion)
    return makeError("unsupported artifact format version " +
                     std::to_string(version) + " (this runtime reads version " +
                     std::to_string(kArtifactVersion) + ")");
  uint64_t count = getU32(data + 12);
  uint64_t available = size - kArtifactHeaderBytes;
  if (count > available / kSectionEntryBytes)
    return makeError(
        "truncated artifact: the section table of " + std::to_string(count) +
        " entries needs " + std::to_string(count * kSectionEntryBytes) +
        " bytes but only " + std::to_string(available) + " follow the header");
  const uint8_t *table = data + kArtifactHeaderBytes;
  size_t tableBytes = count * kSectionEntryBytes;
  uint64_t storedTableSum = getU64(data + 16);
  uint64_t tableSum = fnv1a64(table, tableBytes);
  if (storedTableSum != tableSum)
    return makeError("section table checksum mismatch (stored " +
                     hex64(storedTableSum) + ", computed " + hex64(tableSum) +
                     "): the file is corrupt");

  std::vector<InSection> sections;
  sections.reserve(count);
  std::set<std::string> names;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t *entry = table + i * kSectionEntryBytes;
    std::string where = "section table entry " + std::to_string(i);
    const void *nul = std::memchr(entry, 0, kSectionNameBytes);
    if (!nul)
      return makeError(where + " has a name without a terminating NUL");
    size_t nameLength = static_cast<const uint8_t *>(nul) - entry;
    if (nameLength == 0)
      return makeError(where + " has an empty name");
    std::string name(reinterpret_cast<const char *>(entry), nameLength);
    for (char c : name)
      if (c <= ' ' || c > '~')
        return makeError(where + " has a name with a byte outside printable "
                                 "ASCII");
    for (size_t k = nameLength; k < kSectionNameBytes; ++k)
      if (entry[k] != 0)
        return makeError(where + " ('" + name +
                         "') has bytes after its name's NUL");
    if (getU64(entry + 56) != 0)
      return makeError("section '" + name + "' has a non-zero reserved field");
    uint64_t offset = getU64(entry + 32);
    uint64_t length = getU64(entry + 40);
    if (offset > size || length > size - offset)
      return makeError("section '" + name + "' (offset " +
                       std::to_string(offset) + ", size " +
                       std::to_string(length) + ") lies outside the file of " +
                       std::to_string(size) + " bytes");
    uint64_t stored = getU64(entry + 48);
    uint64_t computed = fnv1a64(data + offset, length);
    if (stored != computed)
      return makeError("section '" + name + "' checksum mismatch (stored " +
                       hex64(stored) + ", computed " + hex64(computed) +
                       "): the file is corrupt");
    if (!names.insert(name).second)
      return makeError("section '" + name + "' appears twice");
    sections.push_back({name, data + offset, static_cast<size_t>(length)});
  }
  return sections;
}

/// Parses "<digits><suffix>" after `prefix`; the index has no leading zeros.
std::optional<size_t> indexedName(const std::string &name,
                                  const std::string &prefix,
                                  const std::string &suffix) {
  if (name.size() <= prefix.size() + suffix.size() ||
      name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  size_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9')
      return std::nullopt;
    value = value * 10 + static_cast<size_t>(c - '0');
  }
  return value;
}

/// Orders indexed sections 0..N-1; reports the first missing index.
Result<std::vector<const InSection *>>
contiguous(const std::map<size_t, const InSection *> &byIndex,
           const std::string &pattern) {
  std::vector<const InSection *> ordered;
  for (const auto &[index, section] : byIndex) {
    if (index != ordered.size())
      return makeError("section '" + section->name + "' is present but '" +
                       pattern + std::to_string(ordered.size()) +
                       "...' is missing (indices must run 0..N-1)");
    ordered.push_back(section);
  }
  return ordered;
}

/// Parses "key=value" lines into ordered pairs.
Result<std::vector<std::pair<std::string, std::string>>>
parseKeyValues(const InSection &section) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string_view text(reinterpret_cast<const char *>(section.data),
                        section.size);
  size_t line = 0;
  while (!text.empty()) {
    ++line;
    size_t newline = text.find('\n');
    std::string_view content = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size()
                                                         : newline + 1);
    if (content.empty())
      continue;
    size_t eq = content.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return makeError("section '" + section.name + "' line " +
                       std::to_string(line) + ": expected key=value, found " +
                       quoted(std::string(content)));
    pairs.emplace_back(std::string(content.substr(0, eq)),
                       std::string(content.substr(eq + 1)));
  }
  return pairs;
}

Result<Executable> readExecutable(const InSection &binary,
                                  const InSection &metaSection) {
  Result<std::vector<std::pair<std::string, std::string>>> pairs =
      parseKeyValues(metaSection);
  if (!pairs)
    return pairs.error();
  Executable exe;
  bool sawFormat = false, sawTarget = false;
  std::string where = "section '" + metaSection.name + "'";
  for (const auto &[key, value] : *pairs) {
    if (key == "format") {
      std::optional<ExecutableFormat> format = parseExecutableFormat(value);
      if (!format)
        return makeError(where + ": unknown executable format " +
                         quoted(value) +
                         " (expected host-so, ptx, hsaco or emu-so)");
      if (sawFormat)
        return makeError(where + ": 'format' appears twice");
      exe.format = *format;
      sawFormat = true;
    } else if (key == "target") {
      if (sawTarget)
        return makeError(where + ": 'target' appears twice");
      exe.target = value;
      sawTarget = true;
    } else if (key == "entry") {
      exe.entries.push_back(value);
    } else {
      return makeError(where + ": unknown key " + quoted(key));
    }
  }
  if (!sawFormat)
    return makeError(where + ": missing 'format'");
  if (!sawTarget)
    return makeError(where + ": missing 'target'");
  exe.binary.assign(binary.data, binary.data + binary.size);
  return exe;
}

Result<std::vector<HostTensor>>
readTensors(const std::vector<const InSection *> &sections,
            const std::string &name) {
  std::vector<HostTensor> tensors;
  for (const InSection *section : sections) {
    Result<HostTensor> tensor =
        parseNpy(section->data, section->size,
                 name + ": section '" + section->name + "'");
    if (!tensor)
      return tensor.error();
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

/// A container's sections by what they hold.
struct ArtifactSections {
  const InSection *meta = nullptr, *plan = nullptr;
  std::map<size_t, const InSection *> binaries, exeMetas, inputs, expected;
};

/// Each section in its place; an unknown or missing one is an error.
Status sortSections(const std::vector<InSection> &sections,
                    ArtifactSections &out) {
  for (const InSection &section : sections) {
    const std::string &n = section.name;
    if (n == "meta")
      out.meta = &section;
    else if (n == "plan")
      out.plan = &section;
    else if (auto i = indexedName(n, "exe/", ".meta"))
      out.exeMetas[*i] = &section;
    else if (auto i = indexedName(n, "exe/", ""))
      out.binaries[*i] = &section;
    else if (auto i = indexedName(n, "input/", ".npy"))
      out.inputs[*i] = &section;
    else if (auto i = indexedName(n, "expected/", ".npy"))
      out.expected[*i] = &section;
    else
      return makeError("unknown section '" + n + "'");
  }
  if (!out.meta)
    return makeError("missing section 'meta'");
  if (!out.plan)
    return makeError("missing section 'plan'");
  return Status::success();
}

/// The executables, numbered from 0 without a gap, each with its meta.
Status readExecutables(const ArtifactSections &sections, Artifact &artifact) {
  Result<std::vector<const InSection *>> exeList =
      contiguous(sections.binaries, "exe/");
  if (!exeList)
    return exeList.error();
  for (const auto &[index, section] : sections.exeMetas)
    if (!sections.binaries.count(index))
      return makeError("section '" + section->name + "' describes executable " +
                       std::to_string(index) +
                       " but there is no section 'exe/" +
                       std::to_string(index) + "'");
  for (size_t i = 0; i < exeList->size(); ++i) {
    auto it = sections.exeMetas.find(i);
    if (it == sections.exeMetas.end())
      return makeError("section 'exe/" + std::to_string(i) + "' has no 'exe/" +
                       std::to_string(i) + ".meta'");
    Result<Executable> exe = readExecutable(*(*exeList)[i], *it->second);
    if (!exe)
      return exe.error();
    artifact.executables.push_back(std::move(*exe));
  }
  return Status::success();
}

} // namespace

Result<Artifact> rt::parseArtifact(const uint8_t *data, size_t size,
                                   const std::string &name) {
  auto error = [&](const std::string &message) {
    return makeError(name + ": " + message);
  };
  if (!data && size != 0)
    return error("no data");
  Result<std::vector<InSection>> sections = readContainer(data, size);
  if (!sections)
    return error(sections.message());
  ArtifactSections sorted;
  if (Status s = sortSections(*sections, sorted); !s)
    return error(s.message());

  Artifact artifact;
  Result<std::vector<std::pair<std::string, std::string>>> meta =
      parseKeyValues(*sorted.meta);
  if (!meta)
    return error(meta.message());
  for (auto &[key, value] : *meta)
    if (!artifact.meta.emplace(key, value).second)
      return error("section 'meta': key " + quoted(key) + " appears twice");

  Result<Plan> plan = parsePlan(
      std::string_view(reinterpret_cast<const char *>(sorted.plan->data),
                       sorted.plan->size),
      name + ": section 'plan'");
  if (!plan)
    return plan.error();
  artifact.plan = std::move(*plan);
  if (Status s = readExecutables(sorted, artifact); !s)
    return error(s.message());

  Result<std::vector<const InSection *>> inputList =
      contiguous(sorted.inputs, "input/");
  if (!inputList)
    return error(inputList.message());
  Result<std::vector<const InSection *>> expectedList =
      contiguous(sorted.expected, "expected/");
  if (!expectedList)
    return error(expectedList.message());
  Result<std::vector<HostTensor>> inputTensors = readTensors(*inputList, name);
  if (!inputTensors)
    return inputTensors.error();
  artifact.inputs = std::move(*inputTensors);
  Result<std::vector<HostTensor>> expectedTensors =
      readTensors(*expectedList, name);
  if (!expectedTensors)
    return expectedTensors.error();
  artifact.expected = std::move(*expectedTensors);

  if (Status s = verifyArtifact(artifact); !s)
    return error(s.message());
  return artifact;
}

Result<Artifact> rt::readArtifact(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  if (!bytes)
    return bytes.error();
  return parseArtifact(bytes->data(), bytes->size(), path);
}
