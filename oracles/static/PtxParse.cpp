//===- oracles/static/PtxParse.cpp - A reader of PTX for the checks ------===//
//
// A reader of PTX that follows `.entry`/`.func` bodies over PtxTokens.h's
// tokens: their `call`s, their shared and local variables and accesses, and
// the registers that carry a symbol's address (Ptx.h's model).
//
//===----------------------------------------------------------------------===//
#include "oracles/static/Ptx.h"

#include "oracles/static/CheckText.h"
#include "oracles/static/PtxTokens.h"

#include <algorithm>
#include <cctype>

namespace sift::oracle::detail {

/// Parses a non-negative PTX integer: decimal, or hexadecimal after `0x`.
/// Octal (a leading 0), binary and suffixed literals are refused.
bool parsePtxInteger(std::string_view text, uint64_t &value) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.empty() || (text.size() > 1 && text[0] == '0')) {
    return false;
  }
  value = 0;
  for (char c : text) {
    unsigned digit;
    if (std::isdigit(static_cast<unsigned char>(c)))
      digit = c - '0';
    else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c)))
      digit = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    else
      return false;
    if (value > (UINT64_MAX - digit) / base)
      return false;
    value = value * base + digit;
  }
  return true;
}

namespace {

/// The size in bytes of a PTX fundamental type written without its dot
/// ("b32" is 4, "f16x2" is 4), or 0 when `text` names none.
uint64_t ptxTypeBytes(std::string_view text) {
  if (text == "f16x2" || text == "bf16x2")
    return 4;
  if (text == "bf16")
    return 2;
  if (text.size() < 2)
    return 0;
  std::string_view bits = text.substr(1);
  bool b = text[0] == 'b', f = text[0] == 'f';
  bool integer = text[0] == 'u' || text[0] == 's';
  if (bits == "8" && (b || integer))
    return 1;
  if (bits == "16" && (b || integer || f))
    return 2;
  if (bits == "32" && (b || integer || f))
    return 4;
  if (bits == "64" && (b || integer || f))
    return 8;
  if (bits == "128" && b)
    return 16;
  return 0;
}

/// The length of a `.vN` vector qualifier written without its dot ("v4"),
/// or 0.
uint64_t ptxVectorLength(std::string_view text) {
  if (text == "v2")
    return 2;
  if (text == "v4")
    return 4;
  if (text == "v8")
    return 8;
  return 0;
}

/// The index of the `;` that ends the statement starting at tokens[i], or
/// `end` when none does before it.
size_t ptxStatementEnd(const std::vector<PtxToken> &tokens, size_t i,
                       size_t end) {
  while (i < end && !isPunct(tokens, i, ';'))
    ++i;
  return i;
}

/// Records the variables of a `.shared`/`.local` declaration, tokens[i] its
/// state space and tokens[stop] its `;`:
/// `.shared [.align A] [.vN] .type name[dims] {, name[dims]};`. A declaration
/// it cannot read records nothing. A name declared again differently gets
/// alignment 0 (unknown).
void parsePtxVariables(const std::vector<PtxToken> &tokens, size_t i,
                       size_t stop, PtxVariables &variables) {
  PtxVariable variable;
  variable.space =
      tokens[i].text == ".shared" ? PtxSpace::Shared : PtxSpace::Local;
  uint64_t vector = 1, width = 0;
  size_t j = i + 1;
  for (; j < stop && tokens[j].isWord && tokens[j].text[0] == '.'; ++j) {
    std::string_view qualifier = tokens[j].text.substr(1);
    if (qualifier == "align") {
      ++j;
      if (j >= stop || !parsePtxInteger(tokens[j].text, variable.align) ||
          variable.align == 0)
        return;
      variable.explicitAlign = true;
    } else if (uint64_t length = ptxVectorLength(qualifier)) {
      vector = length;
    } else if (uint64_t bytes = ptxTypeBytes(qualifier); bytes && !width) {
      width = bytes;
    } else {
      return;
    }
  }
  if (!width)
    return;
  if (!variable.explicitAlign)
    variable.align = vector * width;
  std::vector<std::string_view> names;
  while (j < stop) {
    if (!isPtxName(tokens, j))
      return;
    names.push_back(tokens[j].text);
    ++j;
    while (isPunct(tokens, j, '['))
      j = skipBalanced(tokens, j, '[', ']');
    if (j > stop || (j < stop && !isPunct(tokens, j, ',')))
      return; // An initializer, a parameterized name `a<4>`...
    ++j;
  }
  for (std::string_view name : names) {
    auto [it, inserted] = variables.emplace(std::string(name), variable);
    if (!inserted && (it->second.space != variable.space ||
                      it->second.align != variable.align))
      it->second.align = 0;
  }
}

/// Records the names a `.reg` declaration of a nested block declares,
/// tokens[i] being `.reg` and tokens[stop] its `;`.
void parsePtxNestedRegisters(const std::vector<PtxToken> &tokens, size_t i,
                             size_t stop, PtxFunction &function) {
  for (size_t j = i + 1; j < stop; ++j) {
    if (!tokens[j].isWord || tokens[j].text[0] != '%')
      continue;
    uint64_t count = 0;
    if (isPunct(tokens, j + 1, '<') && j + 2 < stop &&
        !parsePtxInteger(tokens[j + 2].text, count))
      count = UINT64_MAX; // Unreadable: shadows every name with the prefix.
    function.nestedRegisters.emplace_back(tokens[j].text, count);
  }
}

/// Reads the address operand [first, last): `[base]` or `[base+offset]` with
/// `base` a symbol or a register. False for anything else.
bool parsePtxAddress(const std::vector<PtxToken> &tokens, size_t first,
                     size_t last, std::string &base, uint64_t &offset) {
  if (!isPunct(tokens, first, '[') || first + 1 >= last ||
      !tokens[first + 1].isWord)
    return false;
  std::string_view word = tokens[first + 1].text;
  if (!isPtxName(tokens, first + 1) && word[0] != '%')
    return false;
  base = std::string(word);
  offset = 0;
  size_t j = first + 2;
  if (isPunct(tokens, j, '+')) {
    if (j + 1 >= last || !parsePtxInteger(tokens[j + 1].text, offset))
      return false;
    j += 2;
  }
  return j + 1 == last && isPunct(tokens, j, ']');
}

/// True when tokens[i] is a register (`%rd1`, `%SPL`).
bool isPtxRegister(const std::vector<PtxToken> &tokens, size_t i) {
  return i < tokens.size() && tokens[i].isWord && tokens[i].text[0] == '%';
}

using OperandSpans = std::vector<std::pair<size_t, size_t>>;

/// The operands in tokens [first, stop), split at the commas outside
/// braces, brackets and parentheses: each a [first, last) token span.
OperandSpans splitPtxOperands(const std::vector<PtxToken> &tokens,
                              size_t first, size_t stop) {
  OperandSpans operands;
  int nesting = 0;
  size_t start = first;
  for (size_t k = first; k < stop; ++k) {
    if (isPunct(tokens, k, '{') || isPunct(tokens, k, '[') ||
        isPunct(tokens, k, '('))
      ++nesting;
    else if (isPunct(tokens, k, '}') || isPunct(tokens, k, ']') ||
             isPunct(tokens, k, ')'))
      --nesting;
    else if (nesting == 0 && isPunct(tokens, k, ',')) {
      operands.emplace_back(start, k);
      start = k + 1;
    }
  }
  if (start < stop || !operands.empty())
    operands.emplace_back(start, stop);
  return operands;
}

/// A `mov` of a symbol's address (plus a constant) or of a register, or an
/// `add` of a register and a constant, recorded as its destination's
/// address.
void recordPtxAddress(const std::vector<PtxToken> &tokens, bool mov,
                      const OperandSpans &operands, PtxFunction &function) {
  auto [destFirst, destLast] = operands[0];
  if (destLast != destFirst + 1 || !isPtxRegister(tokens, destFirst))
    return;
  PtxAddress address;
  if (mov && operands.size() == 2) {
    // mov.u64 %rd1, name;  mov.u64 %rd1, name+8;  mov.b64 %rd2, %rd1;
    auto [srcFirst, srcLast] = operands[1];
    bool symbol = isPtxName(tokens, srcFirst);
    if (!symbol && !isPtxRegister(tokens, srcFirst))
      return;
    address.base = std::string(tokens[srcFirst].text);
    if (srcLast != srcFirst + 1 &&
        !(symbol && srcLast == srcFirst + 3 &&
          isPunct(tokens, srcFirst + 1, '+') &&
          parsePtxInteger(tokens[srcFirst + 2].text, address.offset)))
      return;
  } else if (!mov && operands.size() == 3) {
    // add.u64 %rd2, %rd1, 16;  (or 16, %rd1)
    auto [aFirst, aLast] = operands[1];
    auto [bFirst, bLast] = operands[2];
    if (aLast != aFirst + 1 || bLast != bFirst + 1)
      return;
    if (isPtxRegister(tokens, aFirst) &&
        parsePtxInteger(tokens[bFirst].text, address.offset))
      address.base = std::string(tokens[aFirst].text);
    else if (isPtxRegister(tokens, bFirst) &&
             parsePtxInteger(tokens[aFirst].text, address.offset))
      address.base = std::string(tokens[bFirst].text);
    else
      return;
  } else {
    return;
  }
  function.addresses[std::string(tokens[destFirst].text)] = std::move(address);
}

/// A shared or local `ld`/`st`/`atom`/`red` of one type (`opcode` with its
/// qualifiers), recorded with its bytes and address.
void recordPtxAccess(const std::vector<PtxToken> &tokens,
                     const std::string &opcode, const OperandSpans &operands,
                     PtxFunction &function) {
  std::string_view base = std::string_view(opcode).substr(0, opcode.find('.'));
  if (base != "ld" && base != "st" && base != "atom" && base != "red")
    return;
  PtxAccess access;
  access.opcode = opcode;
  uint64_t vector = 1, width = 0;
  size_t dot = base.size();
  while (dot < opcode.size()) {
    size_t next = opcode.find('.', dot + 1);
    std::string_view part =
        std::string_view(opcode).substr(dot + 1, next - dot - 1);
    dot = next == std::string::npos ? opcode.size() : next;
    if (part == "shared" || startsWith(part, "shared::"))
      access.space = PtxSpace::Shared;
    else if (part == "local")
      access.space = PtxSpace::Local;
    else if (uint64_t length = ptxVectorLength(part))
      vector = length;
    else if (uint64_t bytes = ptxTypeBytes(part)) {
      if (width)
        return; // Two types: not an access this check knows.
      width = bytes;
    }
  }
  if (access.space == PtxSpace::Other || !width)
    return;
  access.bytes = vector * width;
  for (auto [first, last] : operands) {
    if (!isPunct(tokens, first, '['))
      continue;
    if (parsePtxAddress(tokens, first, last, access.base, access.offset))
      function.accesses.push_back(std::move(access));
    return;
  }
}

/// Reads one instruction, tokens[i] its opcode and tokens[stop] its `;`:
/// counts the registers it defines (those of its first operand, unless that
/// is an address) and records a `mov` of a symbol's address or of a
/// register, an `add` of a register and a constant, and a shared or local
/// `ld`/`st`/`atom`/`red`.
void parsePtxInstruction(const std::vector<PtxToken> &tokens, size_t i,
                         size_t stop, PtxFunction &function) {
  // The opcode and what is joined to it: `ld.shared::cta.v4.b32`.
  std::string opcode(tokens[i].text);
  size_t j = i + 1;
  for (; j < stop && tokens[j].joined &&
         (tokens[j].isWord || isPunct(tokens, j, ':'));
       ++j)
    opcode += tokens[j].text;
  OperandSpans operands = splitPtxOperands(tokens, j, stop);
  if (operands.empty())
    return;
  auto [destFirst, destLast] = operands[0];
  if (!isPunct(tokens, destFirst, '['))
    for (size_t k = destFirst; k < destLast; ++k)
      if (tokens[k].isWord && tokens[k].text[0] == '%')
        ++function.definitions[std::string(tokens[k].text)];
  bool mov = opcode == "mov.u64" || opcode == "mov.b64" ||
             opcode == "mov.u32" || opcode == "mov.b32";
  bool add = opcode == "add.u64" || opcode == "add.s64" ||
             opcode == "add.u32" || opcode == "add.s32";
  if (mov || add)
    recordPtxAddress(tokens, mov, operands, function);
  else
    recordPtxAccess(tokens, opcode, operands, function);
}

/// Reads the statements of the body that starts at tokens[begin] (its `{`)
/// and ends before tokens[end]: variable declarations, nested `.reg`
/// declarations and instructions (after their labels and `@p` guards).
/// `.loc` lines (which have no `;`) are skipped.
void parsePtxStatements(const std::vector<PtxToken> &tokens, size_t begin,
                        size_t end, PtxFunction &function) {
  int depth = 0;
  size_t i = begin;
  while (i < end) {
    if (isPunct(tokens, i, '{')) {
      ++depth;
      ++i;
      continue;
    }
    if (isPunct(tokens, i, '}')) {
      --depth;
      ++i;
      continue;
    }
    if (isPunct(tokens, i, '@')) {
      // A guard: @%p1 or @!%p1.
      ++i;
      if (isPunct(tokens, i, '!'))
        ++i;
      if (i < end && tokens[i].isWord)
        ++i;
      continue;
    }
    if (!tokens[i].isWord) {
      ++i;
      continue;
    }
    std::string_view word = tokens[i].text;
    if (isPunct(tokens, i + 1, ':') &&
        !(tokens[i + 1].joined && isPunct(tokens, i + 2, ':') &&
          tokens[i + 2].joined)) {
      i += 2; // A label.
      continue;
    }
    if (word == ".loc" || word == ".file") {
      for (++i; i < end && !tokens[i].newline; ++i)
        ;
      continue;
    }
    size_t stop = ptxStatementEnd(tokens, i, end);
    if (word == ".shared" || word == ".local")
      parsePtxVariables(tokens, i, stop, function.variables);
    else if (word == ".reg" && depth > 1)
      parsePtxNestedRegisters(tokens, i, stop, function);
    else if (word[0] != '.')
      parsePtxInstruction(tokens, i, stop, function);
    i = stop + 1;
  }
}

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

/// Adds `name` to `list` unless it is there.
void declareOnce(std::vector<std::string> &list, std::string_view name) {
  if (std::find(list.begin(), list.end(), name) == list.end())
    list.emplace_back(name);
}

/// With tokens[i] the `.extern` of `.extern .global .align 4 .b32
/// name[16];`, records the name (the last symbol name before `[`, `=` or
/// `;`) and returns the index after it.
size_t parsePtxExternVariable(const std::vector<PtxToken> &tokens, size_t i,
                              PtxModule &module) {
  std::string_view name;
  size_t j = i + 2;
  for (; j < tokens.size() && !isPunct(tokens, j, ';') &&
         !isPunct(tokens, j, '[') && !isPunct(tokens, j, '=');
       ++j)
    if (isPtxName(tokens, j))
      name = tokens[j].text;
  if (!name.empty())
    declareOnce(module.externVariables, name);
  return j;
}

/// With tokens[i] an `.entry` or `.func`, records the function it defines
/// (and parses its body) or declares, and returns the index after it.
size_t parsePtxFunction(const std::vector<PtxToken> &tokens, size_t i,
                        PtxModule &module) {
  const PtxToken &token = tokens[i];
  // [.visible|.extern|.weak] .entry|.func [(ret-params)] name [(params)]
  // [performance directives] ( { body } | ; )
  bool isEntry = token.text == ".entry";
  size_t j = i + 1;
  if (!isEntry && isPunct(tokens, j, '('))
    j = skipBalanced(tokens, j, '(', ')');
  if (!isPtxName(tokens, j))
    return j;
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
    // Parameters in registers are defined by the caller.
    for (size_t k = i + 1; k < j; ++k)
      if (tokens[k].isWord && tokens[k].text[0] == '%')
        ++function.definitions[std::string(tokens[k].text)];
    size_t body = j;
    j = parsePtxBody(tokens, j, function);
    parsePtxStatements(tokens, body, j, function);
    module.defined.insert(function.name);
    module.functions.push_back(std::move(function));
  } else {
    declareOnce(module.declared, name);
  }
  return j;
}

} // namespace

PtxModule parsePtx(std::string_view ptx) {
  std::vector<PtxToken> tokens = tokenizePtx(ptx);
  PtxModule module;
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
    if (token.text == ".shared" || token.text == ".local") {
      size_t stop = ptxStatementEnd(tokens, i, tokens.size());
      parsePtxVariables(tokens, i, stop, module.variables);
      i = stop;
      continue;
    }
    if (token.text == ".extern" && i + 1 < tokens.size() &&
        (tokens[i + 1].text == ".shared" || tokens[i + 1].text == ".local")) {
      // Dynamic shared memory: where it starts is the launch's business.
      i = ptxStatementEnd(tokens, i, tokens.size());
      continue;
    }
    if (token.text == ".extern" && i + 1 < tokens.size() &&
        (tokens[i + 1].text == ".global" || tokens[i + 1].text == ".const")) {
      i = parsePtxExternVariable(tokens, i, module);
      continue;
    }
    if (token.text != ".entry" && token.text != ".func") {
      ++i;
      continue;
    }
    i = parsePtxFunction(tokens, i, module);
  }
  return module;
}

} // namespace sift::oracle::detail
