//===- oracles/static/BinaryChecks.cpp - Checks of final GPU code ---------===//
//
// The classification of externals and the dispatch over executable
// formats. The readers and their checks: PtxParse.cpp and PtxChecks.cpp
// (PTX), LlvmIrChecks.cpp (LLVM IR), ElfSymbols.cpp (HSACO's ELF64).
//
//===----------------------------------------------------------------------===//
#include "oracles/static/BinaryChecks.h"

#include "oracles/static/CheckText.h"
#include "runtime/Artifact.h"

namespace sift::oracle {

using detail::startsWith;

bool StaticFinding::operator==(const StaticFinding &other) const {
  return verdict == other.verdict && symbol == other.symbol &&
         where == other.where && message == other.message;
}

bool isAllocationSymbol(std::string_view name) {
  static constexpr std::string_view kExact[] = {
      "malloc",
      "free",
      "calloc",
      "realloc",
      "aligned_alloc",
      "posix_memalign",
      "memalign",
      "valloc",
      "pvalloc",
      "__malloc",
      "__free",
      "__nv_malloc",
      "__nv_free",
      "_mlir_memref_to_llvm_alloc",
      "_mlir_memref_to_llvm_aligned_alloc",
      "_mlir_memref_to_llvm_free",
      "__ockl_dm_alloc",
      "__ockl_dm_dealloc",
  };
  for (std::string_view exact : kExact)
    if (name == exact)
      return true;
  // Itanium-mangled operator new, new[], delete, delete[] in all overloads
  // (sized, aligned, nothrow): _Znwm, _Znam, _ZdlPv, _ZdaPvm, ...
  static constexpr std::string_view kPrefixes[] = {"_Znw", "_Zna", "_Zdl",
                                                   "_Zda"};
  for (std::string_view prefix : kPrefixes)
    if (startsWith(name, prefix))
      return true;
  return false;
}

bool isCudaSystemCall(std::string_view name) {
  return name == "vprintf" || name == "__assertfail";
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

std::vector<StaticFinding> checkExecutable(const rt::Executable &executable,
                                           std::string &error) {
  error.clear();
  const std::vector<uint8_t> &binary = executable.binary;
  switch (executable.format) {
  // Host code: the emu kernels are the emu device's own lowering, not
  // the code a GPU would run.
  case rt::ExecutableFormat::HostSharedObject:
  case rt::ExecutableFormat::EmuSharedObject: return {};
  case rt::ExecutableFormat::Ptx: {
    std::string_view text(reinterpret_cast<const char *>(binary.data()),
                          binary.size());
    while (!text.empty() && text.back() == '\0')
      text.remove_suffix(1);
    return checkPtx(text);
  }
  case rt::ExecutableFormat::Hsaco:
    return checkHsaco(binary.data(), binary.size(), error);
  }
  error = "executable for " + executable.target + ": unknown format " +
          std::to_string(static_cast<int>(executable.format));
  return {};
}

std::vector<StaticFinding> checkExecutable(const rt::Executable &executable) {
  std::string error;
  std::vector<StaticFinding> findings = checkExecutable(executable, error);
  if (!error.empty())
    findings.push_back({Verdict::RuntimeError, "", "module", error});
  return findings;
}

} // namespace sift::oracle
