//===- harness/case/CaseSignature.cpp - A finding's signature
//--------------===//
//
// The signature that deduplicates findings (CaseFolder.h's
// findingSignature): the verdict, the step or pass that failed, the first
// line of the detail with numbers, SSA names, shapes and paths normalized
// away, and the op the case is about.
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseFolder.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace sift::harness {

namespace {

/// Replaces numbers (decimal, hex, floats, signs) with N, except digits that
/// belong to an identifier (f32, i64, sm_90, %v12 is handled by the SSA rule)
/// so type names survive; the "x" between shape dimensions is a separator.
std::string normalizeNumbers(const std::string &text) {
  std::string out;
  size_t i = 0, n = text.size();
  auto isIdent = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  };
  auto isDigit = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  };
  while (i < n) {
    char c = text[i];
    bool shapeSeparator = i >= 2 && text[i - 1] == 'x' && isDigit(text[i - 2]);
    bool inIdentifier = i > 0 && (isIdent(text[i - 1]) || isDigit(text[i - 1]));
    if (isDigit(c) && (!inIdentifier || shapeSeparator)) {
      // A number: digits, hex digits after 0x, a fraction, an exponent.
      if (c == '0' && i + 1 < n && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
          i + 2 < n && std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
        i += 2;
        while (i < n && std::isxdigit(static_cast<unsigned char>(text[i])))
          ++i;
      } else {
        while (i < n && (isDigit(text[i]) || text[i] == '.'))
          ++i;
        if (i + 1 < n && (text[i] == 'e' || text[i] == 'E') &&
            (isDigit(text[i + 1]) || text[i + 1] == '-' ||
             text[i + 1] == '+')) {
          i += 2;
          while (i < n && isDigit(text[i]))
            ++i;
        }
      }
      if (!out.empty() && out.back() == '-')
        out.pop_back();
      out += 'N';
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

/// Shaped types (`memref<...>`, `tensor<...>`, `vector<...>`) as `memref<T>`
/// (or tensor, vector) whatever their shape, rank, element type and layout:
/// one lowering bug reports the same message for every shape it meets. A
/// memref's memory space stays (`memref<T, workgroup>`, `memref<T,
/// private>`): where a buffer lives is part of a bug's class.
std::string normalizeShapedTypes(const std::string &text) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = std::string::npos;
    std::string kind;
    for (const char *name : {"memref<", "tensor<", "vector<"}) {
      size_t at = text.find(name, i);
      if (at != std::string::npos &&
          (start == std::string::npos || at < start)) {
        start = at;
        kind = std::string(name, std::strlen(name) - 1);
      }
    }
    if (start == std::string::npos) {
      out.append(text, i, std::string::npos);
      break;
    }
    size_t open = start + kind.size();
    size_t end = open, depth = 0;
    for (; end < text.size(); ++end) {
      if (text[end] == '<')
        ++depth;
      else if (text[end] == '>' && --depth == 0)
        break;
    }
    if (end >= text.size()) { // Unbalanced: leave the rest as it is.
      out.append(text, i, std::string::npos);
      break;
    }
    std::string inside = text.substr(open + 1, end - open - 1);
    out.append(text, i, start - i);
    out += kind + "<T";
    for (const char *space : {"workgroup", "private"})
      if (inside.find(std::string("address_space<") + space) !=
          std::string::npos)
        out += std::string(", ") + space;
    out += ">";
    i = end + 1;
  }
  return out;
}

/// A finding's first line with what varies without changing the bug
/// rewritten away.
std::string normalizedDetail(std::string first) {
  // Rewrites applied in order; each names what varies without changing
  // the bug.
  struct Rewrite {
    std::regex pattern;
    const char *with;
  };
  // Before shapes and numbers: a leading "file:line:col: " or loc(...)
  // location, SSA names, paths; a kernel's or workgroup buffer's number in
  // its module (main_kernel_4, __wg_main_kernel_1, and the first kernel's
  // main_kernel__): a kernel more or less before it renumbers it; a count
  // of further places ("(and 3 more)"), which depends on the program. A
  // program's kernels share one module (sift-merge-kernel-modules), so the
  // kernel's number sits in its own name, not its module's: the emu's
  // main_kernel__main_kernel_3, the PTX's main_kernel_3 and its buffer
  // __wg_main_kernel_3_1 read as the one-kernel-a-module names
  // (main_kernel_3__main_kernel, main_kernel, __wg_main_kernel_1), so a
  // finding keeps the signature it had.
  static const Rewrite early[] = {
      {std::regex(R"(^[^ :]+:\d+:\d+: |^loc\([^)]*\): )"), ""},
      {std::regex(R"(%[A-Za-z0-9_#]+)"), "%V"},
      {std::regex(R"((/[^ /:'"]+)+)"), "PATH"},
      {std::regex(R"(\b([A-Za-z]+_kernel)__([A-Za-z]+_kernel)_\d+\b)"),
       "$1__$2"},
      {std::regex(R"((__wg_[A-Za-z]+_kernel)_\d+_(\d+))"), "$1_$2"},
      {std::regex(R"(\b(kernel [A-Za-z]+_kernel)_\d+\b)"), "$1"},
      {std::regex(R"(([A-Za-z_]*kernel)_\d+)"), "$1_K"},
      {std::regex(R"(\b([A-Za-z]+_kernel)__)"), "$1_K__"},
      {std::regex(R"( \(and \d+ more\))"), ""},
  };
  // After shapes: scalar element types (`f16`, `i64`, `index`), whichever a
  // message met; then numbers.
  static const Rewrite scalars[] = {
      {std::regex(R"(\b(b?f(16|32|64)|i(1|8|16|32|64)|index)\b)"), "E"},
  };
  // After numbers: a wrong output at any index rank, with or without the
  // values' bits in parentheses or a float's ulp distance; a vector access
  // of any width to under-aligned memory.
  static const Rewrite late[] = {
      {std::regex(R"(at \[N(, N)*\])"), "at [N..]"},
      {std::regex(R"( \(N\))"), ""},
      {std::regex(R"(; N ulp apart, tolerance N ulp)"), ""},
      {std::regex(R"(\b(ld|st)\.(shared|global|local)\.v\d+\.[bfsu]\d+)"),
       "vector $1.$2"},
  };
  auto apply = [&](const auto &rewrites) {
    for (const Rewrite &r : rewrites)
      first = std::regex_replace(first, r.pattern, r.with);
  };
  apply(early);
  first = normalizeShapedTypes(first);
  apply(scalars);
  first = normalizeNumbers(first);
  apply(late);
  return first;
}

} // namespace

std::string findingSignature(const CaseResult &result) {
  std::string first =
      normalizedDetail(result.detail.substr(0, result.detail.find('\n')));
  // The op the case is about (its first sort, top-k or NMS; from the text
  // when there is no model).
  std::string op = "-";
  for (const gen::Op &candidate : result.program.ops)
    if (candidate.kind == gen::OpKind::Sort ||
        candidate.kind == gen::OpKind::TopK ||
        candidate.kind == gen::OpKind::Nms) {
      op = std::string(gen::toString(candidate.kind));
      break;
    }
  if (result.program.ops.empty()) {
    size_t sort = result.mlir.find("sift.sort"),
           topk = result.mlir.find("sift.topk"),
           nms = result.mlir.find("sift.nms");
    size_t first = std::min({sort, topk, nms});
    if (first != std::string::npos)
      op = first == sort ? "sort" : first == topk ? "topk" : "nms";
  }
  // A pass's finding (static, or a compile that crashed or hung in it) is
  // named by the pass and its message: the same bug whichever op family
  // the case began with. Wrong results keep the op, their main clue.
  std::string stage = result.stage.text();
  if (stage.rfind("static", 0) == 0 || stage.rfind("compile", 0) == 0)
    op = "*";
  return std::string(oracle::toString(result.verdict)) + "|" + stage + "|" +
         first + "|" + op;
}

} // namespace sift::harness
