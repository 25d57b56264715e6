//===- oracles/static/Ptx.h - What the PTX reader gives the checks -----===//
//
// The PTX reader's model of a module (PtxParse.cpp): its functions with
// their calls, shared and local variables and accesses, and the registers
// that carry addresses; PtxChecks.cpp checks it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sift::oracle::detail {

/// The state spaces whose variables the alignment check follows.
enum class PtxSpace { Other, Shared, Local };

/// A `.shared` or `.local` variable (not `.extern`).
struct PtxVariable {
  PtxSpace space = PtxSpace::Other;
  /// Its `.align`, or its element's size without one; 0 when one function
  /// (or the module) declares it twice differently: then it is not checked.
  uint64_t align = 0;
  bool explicitAlign = false; ///< Declared with `.align`.
};

/// Variables by name.
using PtxVariables = std::map<std::string, PtxVariable, std::less<>>;

/// An `ld`, `st`, `atom` or `red` of shared or local memory at
/// `[base]` or `[base+offset]`.
struct PtxAccess {
  std::string opcode; ///< As written: "st.shared.v4.b32".
  PtxSpace space = PtxSpace::Other;
  uint64_t bytes = 0; ///< Of the whole access: vector length times width.
  std::string base;   ///< A symbol, or a register (`%...`).
  uint64_t offset = 0;
};

/// What `mov` or `add` puts in a register: a symbol's address or another
/// register's value, plus a constant.
struct PtxAddress {
  std::string base; ///< A symbol, or a register (`%...`).
  uint64_t offset = 0;
};

struct PtxFunction {
  std::string name;
  bool isEntry = false;
  /// Direct call targets, in first-call order, without repeats.
  std::vector<std::string> callees;
  /// `.shared`/`.local` variables its body declares (NVPTX "demotes"
  /// module-level shared variables used by one kernel into its body).
  PtxVariables variables;
  /// Shared and local accesses at a symbol or register, in order.
  std::vector<PtxAccess> accesses;
  /// How many instructions (and header parameters) define each register.
  std::map<std::string, int, std::less<>> definitions;
  /// Registers that a `mov` of a symbol's address (plus a constant) or of a
  /// register, or an `add` of a register and a constant, defines.
  std::map<std::string, PtxAddress, std::less<>> addresses;
  /// `.reg` declarations of nested blocks, which may shadow the body's
  /// registers: a name with its count for `%r<N>`, or with 0 for `%r`.
  std::vector<std::pair<std::string, uint64_t>> nestedRegisters;
};

struct PtxModule {
  std::vector<PtxFunction> functions; ///< Definitions, in module order.
  std::set<std::string> defined;
  /// Declared functions (`.extern .func` or forward `.func`), in order.
  std::vector<std::string> declared;
  /// `.extern .global`/`.const` variables, in order.
  std::vector<std::string> externVariables;
  /// Module-level `.shared`/`.local` variables.
  PtxVariables variables;
};

/// Parses a non-negative PTX integer: decimal, or hexadecimal after `0x`.
/// Octal (a leading 0), binary and suffixed literals are refused.
bool parsePtxInteger(std::string_view text, uint64_t &value);

/// The module `ptx` describes (a tokenizer that follows `.entry`/`.func`
/// bodies; what it does not know it skips).
PtxModule parsePtx(std::string_view ptx);

} // namespace sift::oracle::detail
