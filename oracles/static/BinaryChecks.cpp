//===- oracles/static/BinaryChecks.cpp - Externals in final GPU code ------===//
//
// The classification of externals, two of the three readers (a PTX
// tokenizer that follows `.entry`/`.func` bodies and their `call`s, and a
// line-based reader of LLVM IR `declare`/`define`/global lines) and the
// dispatch over executable formats. The ELF64 reader is in ElfSymbols.cpp.
//
//===----------------------------------------------------------------------===//
#include "oracles/static/BinaryChecks.h"

#include "runtime/Artifact.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace sift::oracle {

bool StaticFinding::operator==(const StaticFinding &other) const {
  return verdict == other.verdict && symbol == other.symbol &&
         where == other.where && message == other.message;
}

static bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
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

static std::string joinNames(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  return out;
}

//===----------------------------------------------------------------------===//
// PTX
//===----------------------------------------------------------------------===//

namespace {

/// A PTX token: a word (identifier, directive, opcode, register, number:
/// letters, digits and `_$%.`) or one punctuation character.
struct PtxToken {
  bool isWord = false;
  std::string_view text;
};

bool isPtxWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

/// Splits PTX into tokens, dropping whitespace, `//` and `/* */` comments and
/// string literals (only `.file` uses them).
std::vector<PtxToken> tokenizePtx(std::string_view ptx) {
  std::vector<PtxToken> tokens;
  size_t i = 0, n = ptx.size();
  while (i < n) {
    char c = ptx[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') {
      ++i;
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '/') {
      while (i < n && ptx[i] != '\n')
        ++i;
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '*') {
      size_t end = ptx.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
    } else if (c == '"') {
      for (++i; i < n && ptx[i] != '"' && ptx[i] != '\n'; ++i)
        if (ptx[i] == '\\' && i + 1 < n)
          ++i;
      ++i;
    } else if (isPtxWordChar(c)) {
      size_t start = i;
      while (i < n && isPtxWordChar(ptx[i]))
        ++i;
      tokens.push_back({true, ptx.substr(start, i - start)});
    } else {
      tokens.push_back({false, ptx.substr(i, 1)});
      ++i;
    }
  }
  return tokens;
}

bool isPunct(const std::vector<PtxToken> &tokens, size_t i, char c) {
  return i < tokens.size() && !tokens[i].isWord && tokens[i].text[0] == c;
}

/// A symbol name: a word that is not a directive, register or number.
bool isPtxName(const std::vector<PtxToken> &tokens, size_t i) {
  if (i >= tokens.size() || !tokens[i].isWord)
    return false;
  char c = tokens[i].text[0];
  return c != '.' && c != '%' && !std::isdigit(static_cast<unsigned char>(c));
}

/// With tokens[i] an opening `open`, the index after its matching `close`
/// (tokens.size() when unbalanced).
size_t skipBalanced(const std::vector<PtxToken> &tokens, size_t i, char open,
                    char close) {
  int depth = 0;
  for (; i < tokens.size(); ++i) {
    if (isPunct(tokens, i, open)) {
      ++depth;
    } else if (isPunct(tokens, i, close)) {
      if (--depth == 0)
        return i + 1;
    }
  }
  return tokens.size();
}

struct PtxFunction {
  std::string name;
  bool isEntry = false;
  /// Direct call targets, in first-call order, without repeats.
  std::vector<std::string> callees;
};

struct PtxModule {
  std::vector<PtxFunction> functions; ///< Definitions, in module order.
  std::set<std::string> defined;
  /// Declared functions (`.extern .func` or forward `.func`), in order.
  std::vector<std::string> declared;
  /// `.extern .global`/`.const` variables, in order.
  std::vector<std::string> externVariables;
};

/// Records the direct call targets of the body that starts at tokens[i] (its
/// `{`); returns the index after the body.
size_t parsePtxBody(const std::vector<PtxToken> &tokens, size_t i,
                    PtxFunction &function) {
  int depth = 0;
  for (; i < tokens.size(); ++i) {
    if (isPunct(tokens, i, '{')) {
      ++depth;
      continue;
    }
    if (isPunct(tokens, i, '}')) {
      if (--depth == 0)
        return i + 1;
      continue;
    }
    if (!tokens[i].isWord)
      continue;
    std::string_view word = tokens[i].text;
    if (word != "call" && !startsWith(word, "call."))
      continue;
    // call[.uni] [(ret-params),] target[, (params)][, prototype];
    size_t t = i + 1;
    if (isPunct(tokens, t, '(')) {
      t = skipBalanced(tokens, t, '(', ')');
      if (isPunct(tokens, t, ','))
        ++t;
    }
    if (!isPtxName(tokens, t))
      continue; // Indirect call through a register, or malformed.
    std::string callee(tokens[t].text);
    if (std::find(function.callees.begin(), function.callees.end(), callee) ==
        function.callees.end())
      function.callees.push_back(std::move(callee));
  }
  return tokens.size();
}

PtxModule parsePtx(std::string_view ptx) {
  std::vector<PtxToken> tokens = tokenizePtx(ptx);
  PtxModule module;
  auto declare = [&](std::vector<std::string> &list, std::string_view name) {
    if (std::find(list.begin(), list.end(), name) == list.end())
      list.emplace_back(name);
  };
  size_t i = 0;
  while (i < tokens.size()) {
    const PtxToken &token = tokens[i];
    if (isPunct(tokens, i, '{')) {
      // A `.section` block (debug info) or a variable initializer.
      i = skipBalanced(tokens, i, '{', '}');
      continue;
    }
    if (!token.isWord) {
      ++i;
      continue;
    }
    if (token.text == ".extern" && i + 1 < tokens.size() &&
        (tokens[i + 1].text == ".global" || tokens[i + 1].text == ".const")) {
      // .extern .global .align 4 .b32 name[16];  The name is the last symbol
      // name before `[`, `=` or `;`.
      std::string_view name;
      size_t j = i + 2;
      for (; j < tokens.size() && !isPunct(tokens, j, ';') &&
             !isPunct(tokens, j, '[') && !isPunct(tokens, j, '=');
           ++j)
        if (isPtxName(tokens, j))
          name = tokens[j].text;
      if (!name.empty())
        declare(module.externVariables, name);
      i = j;
      continue;
    }
    if (token.text != ".entry" && token.text != ".func") {
      ++i;
      continue;
    }
    // [.visible|.extern|.weak] .entry|.func [(ret-params)] name [(params)]
    // [performance directives] ( { body } | ; )
    bool isEntry = token.text == ".entry";
    size_t j = i + 1;
    if (!isEntry && isPunct(tokens, j, '('))
      j = skipBalanced(tokens, j, '(', ')');
    if (!isPtxName(tokens, j)) {
      i = j;
      continue;
    }
    std::string_view name = tokens[j].text;
    ++j;
    if (isPunct(tokens, j, '('))
      j = skipBalanced(tokens, j, '(', ')');
    while (j < tokens.size() && !isPunct(tokens, j, '{') &&
           !isPunct(tokens, j, ';') && tokens[j].text != ".entry" &&
           tokens[j].text != ".func")
      ++j;
    if (isPunct(tokens, j, '{')) {
      PtxFunction function;
      function.name = std::string(name);
      function.isEntry = isEntry;
      j = parsePtxBody(tokens, j, function);
      module.defined.insert(function.name);
      module.functions.push_back(std::move(function));
    } else {
      declare(module.declared, name);
    }
    i = j;
  }
  return module;
}

/// The kernels from which `target` is reachable through direct calls.
std::vector<std::string> kernelsReaching(const PtxModule &module,
                                         const std::string &target) {
  std::map<std::string, const PtxFunction *> byName;
  for (const PtxFunction &function : module.functions)
    byName.emplace(function.name, &function);
  std::vector<std::string> kernels;
  for (const PtxFunction &entry : module.functions) {
    if (!entry.isEntry)
      continue;
    std::set<std::string> seen{entry.name};
    std::vector<const PtxFunction *> work{&entry};
    bool reaches = false;
    while (!work.empty() && !reaches) {
      const PtxFunction *function = work.back();
      work.pop_back();
      for (const std::string &callee : function->callees) {
        if (callee == target) {
          reaches = true;
          break;
        }
        auto it = byName.find(callee);
        if (it != byName.end() && seen.insert(callee).second)
          work.push_back(it->second);
      }
    }
    if (reaches)
      kernels.push_back(entry.name);
  }
  return kernels;
}

} // namespace

std::vector<StaticFinding> checkPtx(std::string_view ptx) {
  PtxModule module = parsePtx(ptx);
  std::vector<StaticFinding> findings;
  std::set<std::string> called;
  for (const PtxFunction &function : module.functions) {
    for (const std::string &callee : function.callees) {
      if (module.defined.count(callee))
        continue;
      called.insert(callee);
      bool allocation = isAllocationSymbol(callee);
      if (!allocation && isCudaSystemCall(callee))
        continue;
      StaticFinding finding;
      finding.verdict =
          allocation ? Verdict::MallocInKernel : Verdict::UnresolvedSymbol;
      finding.symbol = callee;
      finding.where = function.name;
      finding.message = std::string("PTX ") +
                        (function.isEntry ? "kernel " : "function ") +
                        function.name + " calls " + callee;
      if (!allocation)
        finding.message += ", which the module does not define";
      if (!function.isEntry) {
        std::vector<std::string> kernels =
            kernelsReaching(module, function.name);
        finding.message += kernels.empty() ? " (reached from no kernel)"
                                           : " (reached from kernel " +
                                                 joinNames(kernels) + ")";
      }
      findings.push_back(std::move(finding));
    }
  }
  for (const std::string &name : module.declared) {
    if (module.defined.count(name) || called.count(name))
      continue;
    bool allocation = isAllocationSymbol(name);
    if (!allocation && isCudaSystemCall(name))
      continue;
    findings.push_back(
        {allocation ? Verdict::MallocInKernel : Verdict::UnresolvedSymbol, name,
         "module",
         "PTX module declares function " + name + " without defining it"});
  }
  for (const std::string &name : module.externVariables)
    findings.push_back({Verdict::UnresolvedSymbol, name, "module",
                        "PTX module declares .extern variable " + name});
  return findings;
}

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

} // namespace

std::vector<StaticFinding> checkLlvmIr(std::string_view llvmIrText,
                                       bool libdeviceLinked,
                                       bool rocmDeviceLibsLinked) {
  std::vector<LlvmExternal> externals;
  std::vector<LlvmFunction> functions;
  bool nvptx = false;
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
        collectLlvmNames(line, functions.back().uses);
      continue;
    }
    std::vector<std::string_view> words = llvmWords(line);
    if (words.empty())
      continue;
    if (words[0] == "target" && words.size() >= 4 && words[1] == "triple")
      nvptx = startsWith(words[3], "\"nvptx");
    if (words[0] == "declare") {
      std::string_view name = firstLlvmName(line);
      if (!name.empty())
        externals.push_back({std::string(name), true});
    } else if (words[0] == "define") {
      std::string_view name = firstLlvmName(line);
      LlvmFunction function;
      function.name = std::string(name);
      for (std::string_view word : words)
        if (word == "ptx_kernel" || word == "amdgpu_kernel" ||
            word == "spir_kernel")
          function.isKernel = true;
      functions.push_back(std::move(function));
      // The printer puts `{` at the end of the define line and `}` alone.
      inBody = words.back() == "{";
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
        externals.push_back({std::string(name), false});
    }
  }

  std::vector<StaticFinding> findings;
  for (const LlvmExternal &external : externals) {
    const std::string &name = external.name;
    bool allocation = isAllocationSymbol(name);
    if (!allocation) {
      if (startsWith(name, "llvm."))
        continue;
      if (libdeviceLinked && startsWith(name, "__nv_"))
        continue;
      if (rocmDeviceLibsLinked &&
          (startsWith(name, "__ocml_") || startsWith(name, "__ockl_") ||
           startsWith(name, "__oclc_")))
        continue;
      if (nvptx && isCudaSystemCall(name))
        continue;
    }
    Verdict verdict =
        allocation ? Verdict::MallocInKernel : Verdict::UnresolvedSymbol;
    std::string what = external.isFunction ? "function " : "global ";
    bool used = false;
    for (const LlvmFunction &function : functions) {
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

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

std::vector<StaticFinding> checkExecutable(const rt::Executable &executable,
                                           std::string &error) {
  error.clear();
  const std::vector<uint8_t> &binary = executable.binary;
  switch (executable.format) {
  case rt::ExecutableFormat::HostSharedObject: return {};
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
