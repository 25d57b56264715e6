//===- oracles/static/ElfSymbols.cpp - Undefined symbols of ELF64 images --===//
//
// A small ELF64 little-endian reader, just enough to list the undefined
// symbols of SHT_SYMTAB and SHT_DYNSYM sections (an AMDGPU HSACO links with
// `malloc` undefined). It trusts nothing: every header, section, symbol and
// name is checked to lie inside the image before it is read, and anything
// malformed ends the read with an error that says what and where.
//
//===----------------------------------------------------------------------===//
#include "oracles/static/BinaryChecks.h"

#include <map>

namespace sift::oracle {

namespace {

constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtStrtab = 3;
constexpr uint32_t kShtDynsym = 11;
constexpr size_t kElfHeaderBytes = 64;
constexpr size_t kSectionHeaderBytes = 64;
constexpr size_t kSymbolBytes = 24;
constexpr uint8_t kStbWeak = 2;

/// Little-endian reads that fail instead of leaving [data, data + size).
class ElfBytes {
public:
  ElfBytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  size_t size() const { return size_; }
  const uint8_t *data() const { return data_; }
  /// True when [offset, offset + length) lies inside the image.
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }
  template <typename T> bool read(uint64_t offset, T &value) const {
    if (!contains(offset, sizeof(T)))
      return false;
    uint64_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v |= uint64_t(data_[offset + i]) << (8 * i);
    value = static_cast<T>(v);
    return true;
  }

private:
  const uint8_t *data_;
  size_t size_;
};

struct SectionHeader {
  uint32_t type = 0;
  uint64_t offset = 0, size = 0, entrySize = 0;
  uint32_t link = 0;
};

std::string hex(uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  do {
    out.insert(out.begin(), digits[value & 15]);
    value >>= 4;
  } while (value);
  return "0x" + out;
}

/// An ELF64 image's section header table.
struct SectionTable {
  uint64_t offset = 0;
  uint16_t entrySize = 0;
  uint64_t count = 0;

  SectionHeader at(const ElfBytes &elf, uint64_t index) const {
    SectionHeader h;
    uint64_t base = offset + index * entrySize;
    elf.read(base + 4, h.type);
    elf.read(base + 24, h.offset);
    elf.read(base + 32, h.size);
    elf.read(base + 40, h.link);
    elf.read(base + 56, h.entrySize);
    return h;
  }
};

/// The header (magic, ELF64 little-endian, EM_AMDGPU when required) and
/// where the section header table lies, inside the image. Messages start
/// with `where`. False with `error` set.
bool readSectionTable(const ElfBytes &elf, const std::string &where,
                      bool requireAmdgpu, SectionTable &sections,
                      std::string &error) {
  if (elf.size() < kElfHeaderBytes) {
    error = where + "expected an ELF header of 64 bytes";
    return false;
  }
  const uint8_t *d = elf.data();
  if (d[0] != 0x7f || d[1] != 'E' || d[2] != 'L' || d[3] != 'F') {
    error = where + "bad magic, expected \\x7fELF";
    return false;
  }
  if (d[4] != 2 || d[5] != 1) {
    error = where +
            "expected ELF64 little-endian (class 2, data 1), found "
            "class " +
            std::to_string(d[4]) + ", data " + std::to_string(d[5]);
    return false;
  }
  uint16_t machine = 0, shnum = 0;
  uint64_t &shoff = sections.offset;
  uint16_t &shentsize = sections.entrySize;
  elf.read(0x12, machine);
  elf.read(0x28, shoff);
  elf.read(0x3a, shentsize);
  elf.read(0x3c, shnum);
  if (requireAmdgpu && machine != kElfMachineAmdgpu) {
    error = where + "expected e_machine EM_AMDGPU (224), found " +
            std::to_string(machine);
    return false;
  }
  if (shoff == 0) {
    error = where + "no section header table (e_shoff is 0)";
    return false;
  }
  if (shentsize < kSectionHeaderBytes) {
    error = where + "e_shentsize is " + std::to_string(shentsize) +
            ", expected at least 64";
    return false;
  }
  uint64_t &count = sections.count;
  count = shnum;
  if (count == 0) {
    // Extended numbering: section 0's sh_size holds the count.
    if (!elf.contains(shoff, shentsize) || !elf.read(shoff + 32, count)) {
      error = where + "section header 0 at " + hex(shoff) +
              " lies outside the image";
      return false;
    }
  }
  if (!elf.contains(shoff, 0) || count > (elf.size() - shoff) / shentsize) {
    error = where + "section header table at " + hex(shoff) + " (" +
            std::to_string(count) + " entries of " + std::to_string(shentsize) +
            " bytes) lies outside the image";
    return false;
  }
  return true;
}

/// The undefined symbols of symbol table section `s` (`table`), each name
/// once over the image (`seen`); its string table checked first. False
/// with `error` set.
bool readSymbolTable(const ElfBytes &elf, const std::string &where,
                     std::string_view label, const SectionTable &sections,
                     uint64_t s, const SectionHeader &table,
                     std::map<std::string, size_t> &seen,
                     std::vector<StaticFinding> &findings,
                     std::string &error) {
  uint64_t count = sections.count;
  std::string tableName = table.type == kShtSymtab ? ".symtab" : ".dynsym";
  std::string section = "section " + std::to_string(s) + " (" + tableName + ")";
  if (table.entrySize != kSymbolBytes) {
    error = where + section + " has sh_entsize " +
            std::to_string(table.entrySize) + ", expected 24";
    return false;
  }
  if (table.size % kSymbolBytes != 0 ||
      !elf.contains(table.offset, table.size)) {
    error = where + section + " at " + hex(table.offset) + " of " +
            std::to_string(table.size) +
            " bytes is not a whole number of symbols inside the image";
    return false;
  }
  if (table.link >= count || table.link == 0) {
    error = where + section + " links string table " +
            std::to_string(table.link) + ", expected a section in 1.." +
            std::to_string(count - 1);
    return false;
  }
  SectionHeader strings = sections.at(elf, table.link);
  if (strings.type != kShtStrtab ||
      !elf.contains(strings.offset, strings.size)) {
    error = where + section + " links section " + std::to_string(table.link) +
            ", which is not a string table inside the image";
    return false;
  }
  std::string_view strtab(
      reinterpret_cast<const char *>(elf.data() + strings.offset),
      strings.size);
  for (uint64_t k = 1; k < table.size / kSymbolBytes; ++k) {
    uint64_t base = table.offset + k * kSymbolBytes;
    uint32_t nameOffset = 0;
    uint8_t info = 0;
    uint16_t shndx = 0;
    elf.read(base, nameOffset);
    elf.read(base + 4, info);
    elf.read(base + 6, shndx);
    if (shndx != 0 || nameOffset == 0)
      continue;
    size_t nul = nameOffset < strtab.size() ? strtab.find('\0', nameOffset)
                                            : std::string_view::npos;
    if (nul == std::string_view::npos) {
      error = where + section + " symbol " + std::to_string(k) +
              " has name offset " + std::to_string(nameOffset) +
              ", outside its string table of " +
              std::to_string(strtab.size()) + " bytes or unterminated";
      return false;
    }
    std::string name(strtab.substr(nameOffset, nul - nameOffset));
    if (name.empty() || seen.count(name))
      continue;
    bool weak = (info >> 4) == kStbWeak;
    seen.emplace(name, findings.size());
    findings.push_back({isAllocationSymbol(name) ? Verdict::MallocInKernel
                                                 : Verdict::UnresolvedSymbol,
                        name, "module",
                        std::string(label) + " has undefined " +
                            (weak ? "weak " : "") + "symbol " + name + " (" +
                            tableName + ")"});
  }
  return true;
}

/// Reads the header, the section table and every symbol table; `label`
/// ("ELF", "HSACO") starts messages. Returns false with `error` set.
bool readUndefinedSymbols(const ElfBytes &elf, std::string_view label,
                          bool requireAmdgpu,
                          std::vector<StaticFinding> &findings,
                          std::string &error) {
  std::string where = std::string(label) + " image of " +
                      std::to_string(elf.size()) + " bytes: ";
  SectionTable sections;
  if (!readSectionTable(elf, where, requireAmdgpu, sections, error))
    return false;
  std::map<std::string, size_t> seen; // name -> index into findings
  for (uint64_t s = 0; s < sections.count; ++s) {
    SectionHeader table = sections.at(elf, s);
    if (table.type != kShtSymtab && table.type != kShtDynsym)
      continue;
    if (!readSymbolTable(elf, where, label, sections, s, table, seen,
                         findings, error))
      return false;
  }
  return true;
}

std::vector<StaticFinding> readElf(const uint8_t *data, size_t size,
                                   std::string_view label, bool requireAmdgpu,
                                   std::string &error) {
  error.clear();
  std::vector<StaticFinding> findings;
  if (!data && size != 0) {
    error = std::string(label) + " image: null data";
    return {};
  }
  if (!readUndefinedSymbols(ElfBytes(data, size), label, requireAmdgpu,
                            findings, error))
    return {};
  return findings;
}

} // namespace

std::vector<StaticFinding>
checkElfUndefinedSymbols(const uint8_t *data, size_t size, std::string &error) {
  return readElf(data, size, "ELF", /*requireAmdgpu=*/false, error);
}

std::vector<StaticFinding> checkHsaco(const uint8_t *data, size_t size,
                                      std::string &error) {
  return readElf(data, size, "HSACO", /*requireAmdgpu=*/true, error);
}

} // namespace sift::oracle
