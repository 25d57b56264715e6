//===- oracles/static/PtxTokens.h - PTX as tokens ---------------*- C++ -*-===//
//
// The tokens PtxParse.cpp reads PTX as (PtxTokens.cpp), and the small tests
// it asks of them. Internal to oracles/static.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace sift::oracle::detail {

/// A PTX token: a word (identifier, directive, opcode, register, number:
/// letters, digits and `_$%.`) or one punctuation character.
struct PtxToken {
  bool isWord = false;
  std::string_view text;
  /// A line break (or the start of the text) comes before it.
  bool newline = false;
  /// It follows the previous token directly: no space or comment between
  /// (`ld.shared::cta` is the tokens `ld.shared`, `:`, `:`, `cta`, joined).
  bool joined = false;
};

/// Splits PTX into tokens, dropping whitespace, `//` and `/* */` comments and
/// string literals (only `.file` uses them).
std::vector<PtxToken> tokenizePtx(std::string_view ptx);

/// Whether tokens[i] is the punctuation character `c`.
bool isPunct(const std::vector<PtxToken> &tokens, size_t i, char c);

/// A symbol name: a word that is not a directive, register or number.
bool isPtxName(const std::vector<PtxToken> &tokens, size_t i);

/// With tokens[i] an opening `open`, the index after its matching `close`
/// (tokens.size() when unbalanced).
size_t skipBalanced(const std::vector<PtxToken> &tokens, size_t i, char open,
                    char close);

} // namespace sift::oracle::detail
