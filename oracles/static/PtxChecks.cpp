//===- oracles/static/PtxChecks.cpp - Checks of PTX ----------------------===//
//
// checkPtx: calls and declarations of functions the module does not
// define (malloc-in-kernel, unresolved-symbol), `.extern` variables, and
// shared and local accesses below their variable's alignment
// (misaligned-access), on the model PtxParse.cpp reads.
//
//===----------------------------------------------------------------------===//
#include "oracles/static/BinaryChecks.h"

#include "oracles/static/CheckText.h"
#include "oracles/static/Ptx.h"

#include <map>
#include <set>

namespace sift::oracle {

using namespace detail;

namespace {

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

/// True when a `.reg` declaration of a nested block may name `reg`.
bool isShadowed(const PtxFunction &function, std::string_view reg) {
  for (const auto &[name, count] : function.nestedRegisters) {
    if (count == 0) {
      if (reg == name)
        return true;
      continue;
    }
    if (!startsWith(reg, name))
      continue;
    uint64_t index;
    if (count == UINT64_MAX ||
        (parsePtxInteger(reg.substr(name.size()), index) && index < count))
      return true;
  }
  return false;
}

/// Follows `name`, a register, back through the `mov`s and `add`s that are
/// its only definitions (and its sources' only ones) to a symbol, adding
/// their constants to `offset`. False when a register on the way is defined
/// more than once or otherwise, or may be shadowed; or after 16 steps.
bool resolvePtxRegister(const PtxFunction &function, std::string &name,
                        uint64_t &offset) {
  for (int step = 0; step < 16; ++step) {
    if (name[0] != '%')
      return true;
    auto defs = function.definitions.find(name);
    auto address = function.addresses.find(name);
    if (defs == function.definitions.end() || defs->second != 1 ||
        address == function.addresses.end() || isShadowed(function, name))
      return false;
    // Wrapping is harmless: alignments divide 2^64.
    offset += address->second.offset;
    name = address->second.base;
  }
  return false;
}

/// The misaligned-access findings of one function: its shared and local
/// accesses at a variable (directly, or through a register resolvePtxRegister
/// follows to it) whose size exceeds the variable's alignment or does not
/// divide the offset. One per variable, the first.
void checkPtxAlignment(const PtxModule &module, const PtxFunction &function,
                       std::vector<StaticFinding> &findings) {
  std::set<std::string> reported;
  for (const PtxAccess &access : function.accesses) {
    std::string symbol = access.base;
    uint64_t offset = access.offset;
    std::string through;
    if (symbol[0] == '%') {
      through = symbol;
      if (!resolvePtxRegister(function, symbol, offset))
        continue;
    }
    auto variable = function.variables.find(symbol);
    if (variable == function.variables.end()) {
      variable = module.variables.find(symbol);
      if (variable == module.variables.end())
        continue;
    }
    const PtxVariable &declared = variable->second;
    if (declared.align == 0 || declared.space != access.space)
      continue;
    if (declared.align >= access.bytes && offset % access.bytes == 0)
      continue;
    if (!reported.insert(symbol).second)
      continue;
    std::string message = std::string("PTX ") +
                          (function.isEntry ? "kernel " : "function ") +
                          function.name + ": " + access.opcode + " (" +
                          std::to_string(access.bytes) + " bytes) at " +
                          symbol + "+" + std::to_string(offset);
    if (!through.empty())
      message += " (address in " + through + ")";
    message += declared.explicitAlign
                   ? ", declared .align " + std::to_string(declared.align)
                   : ", declared without .align (aligned to " +
                         std::to_string(declared.align) + ")";
    findings.push_back(
        {Verdict::MisalignedAccess, symbol, function.name, message});
  }
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
  for (const PtxFunction &function : module.functions)
    checkPtxAlignment(module, function, findings);
  return findings;
}

} // namespace sift::oracle
