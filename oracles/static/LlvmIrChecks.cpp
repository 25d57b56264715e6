//===- oracles/static/LlvmIrChecks.cpp - Checks of LLVM IR ---------------===//
//
// checkLlvmIr: a line-based reader of LLVM IR `declare`/`define`/global
// lines and the externals it finds (allocation functions, and symbols no
// linked device library defines).
//
//===----------------------------------------------------------------------===//
#include "oracles/static/BinaryChecks.h"

#include "oracles/static/CheckText.h"

#include <algorithm>
#include <cctype>

namespace sift::oracle {

using namespace detail;

//===----------------------------------------------------------------------===//
// LLVM IR
//===----------------------------------------------------------------------===//

namespace {

bool isLlvmNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '$' || c == '.' ||
         c == '_' || c == '-';
}

/// Parses the global name that starts at line[i] (just after `@`): quoted
/// (`"a b"`, kept with its escapes) or bare. Sets `end` to the index after it.
std::string_view parseLlvmName(std::string_view line, size_t i, size_t &end) {
  if (i < line.size() && line[i] == '"') {
    size_t close = line.find('"', i + 1);
    if (close == std::string_view::npos) {
      end = line.size();
      return {};
    }
    end = close + 1;
    return line.substr(i + 1, close - i - 1);
  }
  size_t j = i;
  while (j < line.size() && isLlvmNameChar(line[j]))
    ++j;
  end = j;
  return line.substr(i, j - i);
}

/// Calls `visit` with every global name (`@name`) a line uses, outside
/// string literals and comments, until it returns false.
template <typename Visit>
void forEachLlvmName(std::string_view line, Visit visit) {
  bool inString = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (inString) {
      inString = c != '"';
    } else if (c == '"') {
      inString = true;
    } else if (c == ';') {
      return;
    } else if (c == '@') {
      size_t end;
      std::string_view name = parseLlvmName(line, i + 1, end);
      if (!visit(name))
        return;
      i = end - 1;
    }
  }
}

/// The first global name (`@name`) of a line, outside string literals and
/// comments; empty if none.
std::string_view firstLlvmName(std::string_view line) {
  std::string_view first;
  forEachLlvmName(line, [&](std::string_view name) {
    first = name;
    return false;
  });
  return first;
}

/// Every global name a line uses, outside string literals and comments.
void collectLlvmNames(std::string_view line, std::vector<std::string> &names) {
  forEachLlvmName(line, [&](std::string_view name) {
    if (!name.empty() &&
        std::find(names.begin(), names.end(), name) == names.end())
      names.emplace_back(name);
    return true;
  });
}

/// The whitespace-separated words of a line before its comment.
std::vector<std::string_view> llvmWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size() && line[i] != ';') {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < line.size() &&
           !std::isspace(static_cast<unsigned char>(line[i])))
      ++i;
    words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string_view trimLeft(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

struct LlvmFunction {
  std::string name;
  bool isKernel = false;
  std::vector<std::string> uses; ///< Global names its body uses.
};

struct LlvmExternal {
  std::string name;
  bool isFunction = true;
};

/// What the checks need of an LLVM IR module's text: its external
/// declarations, its functions and the names each uses, its triple.
struct LlvmModuleText {
  std::vector<LlvmExternal> externals;
  std::vector<LlvmFunction> functions;
  bool nvptx = false;
};

/// A top-level line that is not a function body's: the triple, a
/// declaration, a definition (true: its body follows) or a global.
bool readTopLevelLine(std::string_view line, LlvmModuleText &module) {
  std::vector<std::string_view> words = llvmWords(line);
  if (words.empty())
    return false;
  if (words[0] == "target" && words.size() >= 4 && words[1] == "triple")
    module.nvptx = startsWith(words[3], "\"nvptx");
  if (words[0] == "declare") {
    std::string_view name = firstLlvmName(line);
    if (!name.empty())
      module.externals.push_back({std::string(name), true});
  } else if (words[0] == "define") {
    std::string_view name = firstLlvmName(line);
    LlvmFunction function;
    function.name = std::string(name);
    for (std::string_view word : words)
      if (word == "ptx_kernel" || word == "amdgpu_kernel" ||
          word == "spir_kernel")
        function.isKernel = true;
    module.functions.push_back(std::move(function));
    // The printer puts `{` at the end of the define line and `}` alone.
    return words.back() == "{";
  } else if (words[0][0] == '@' && words.size() >= 3 && words[1] == "=") {
    // @name = [linkage...] [addrspace(N)] global|constant type ...
    bool external = false, shared = false;
    for (size_t w = 2; w < words.size(); ++w) {
      if (words[w] == "external" || words[w] == "extern_weak")
        external = true;
      else if (words[w] == "addrspace(3)")
        shared = true;
      else if (words[w] == "global" || words[w] == "constant")
        break;
    }
    std::string_view name = firstLlvmName(line);
    if (external && !shared && !name.empty())
      module.externals.push_back({std::string(name), false});
  }
  return false;
}

/// The module's externals, functions and triple, line by line.
LlvmModuleText readLlvmModule(std::string_view llvmIrText) {
  LlvmModuleText module;
  bool inBody = false;
  size_t pos = 0;
  while (pos < llvmIrText.size()) {
    size_t eol = llvmIrText.find('\n', pos);
    if (eol == std::string_view::npos)
      eol = llvmIrText.size();
    std::string_view raw = llvmIrText.substr(pos, eol - pos);
    pos = eol + 1;
    if (!raw.empty() && raw.back() == '\r')
      raw.remove_suffix(1);
    std::string_view line = trimLeft(raw);
    if (inBody) {
      if (line == "}")
        inBody = false;
      else
        collectLlvmNames(line, module.functions.back().uses);
      continue;
    }
    inBody = readTopLevelLine(line, module);
  }
  return module;
}

/// Whether external `name` is one the kernel may call: an LLVM intrinsic,
/// a linked device library's function, a CUDA system call on nvptx.
bool resolvedExternal(const std::string &name, bool nvptx, bool libdeviceLinked,
                      bool rocmDeviceLibsLinked) {
  if (startsWith(name, "llvm."))
    return true;
  if (libdeviceLinked && startsWith(name, "__nv_"))
    return true;
  if (rocmDeviceLibsLinked &&
      (startsWith(name, "__ocml_") || startsWith(name, "__ockl_") ||
       startsWith(name, "__oclc_")))
    return true;
  return nvptx && isCudaSystemCall(name);
}

} // namespace

std::vector<StaticFinding> checkLlvmIr(std::string_view llvmIrText,
                                       bool libdeviceLinked,
                                       bool rocmDeviceLibsLinked) {
  LlvmModuleText module = readLlvmModule(llvmIrText);
  std::vector<StaticFinding> findings;
  for (const LlvmExternal &external : module.externals) {
    const std::string &name = external.name;
    bool allocation = isAllocationSymbol(name);
    if (!allocation && resolvedExternal(name, module.nvptx, libdeviceLinked,
                                        rocmDeviceLibsLinked))
      continue;
    Verdict verdict =
        allocation ? Verdict::MallocInKernel : Verdict::UnresolvedSymbol;
    std::string what = external.isFunction ? "function " : "global ";
    bool used = false;
    for (const LlvmFunction &function : module.functions) {
      if (std::find(function.uses.begin(), function.uses.end(), name) ==
          function.uses.end())
        continue;
      used = true;
      findings.push_back({verdict, name, function.name,
                          std::string("LLVM IR ") +
                              (function.isKernel ? "kernel " : "function ") +
                              function.name + " uses external " + what + name});
    }
    if (!used)
      findings.push_back({verdict, name, "module",
                          "LLVM IR module declares external " + what + name});
  }
  return findings;
}

} // namespace sift::oracle
