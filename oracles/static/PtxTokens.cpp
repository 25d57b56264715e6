//===- oracles/static/PtxTokens.cpp - PTX as tokens -----------------------===//
//
// The tokenizer of PtxTokens.h: words (identifiers, directives, opcodes,
// registers, numbers) and single punctuation characters, with whether a
// line break comes before each and whether it is joined to the previous.
//
//===----------------------------------------------------------------------===//
#include "oracles/static/PtxTokens.h"

#include <cctype>

namespace sift::oracle::detail {

namespace {

bool isPtxWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '%' || c == '.';
}

} // namespace

std::vector<PtxToken> tokenizePtx(std::string_view ptx) {
  std::vector<PtxToken> tokens;
  size_t i = 0, n = ptx.size();
  bool newline = true;
  size_t lastEnd = std::string_view::npos;
  auto push = [&](bool isWord, size_t start, size_t end) {
    tokens.push_back(
        {isWord, ptx.substr(start, end - start), newline, start == lastEnd});
    newline = false;
    lastEnd = end;
  };
  while (i < n) {
    char c = ptx[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\0') {
      newline |= c == '\n';
      ++i;
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '/') {
      while (i < n && ptx[i] != '\n')
        ++i;
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '*') {
      size_t end = ptx.find("*/", i + 2);
      end = end == std::string_view::npos ? n : end + 2;
      newline |= ptx.substr(i, end - i).find('\n') != std::string_view::npos;
      i = end;
    } else if (c == '"') {
      for (++i; i < n && ptx[i] != '"' && ptx[i] != '\n'; ++i)
        if (ptx[i] == '\\' && i + 1 < n)
          ++i;
      if (i < n && ptx[i] == '"')
        ++i;
    } else if (isPtxWordChar(c)) {
      size_t start = i;
      while (i < n && isPtxWordChar(ptx[i]))
        ++i;
      push(true, start, i);
    } else {
      push(false, i, i + 1);
      ++i;
    }
  }
  return tokens;
}

bool isPunct(const std::vector<PtxToken> &tokens, size_t i, char c) {
  return i < tokens.size() && !tokens[i].isWord && tokens[i].text[0] == c;
}

bool isPtxName(const std::vector<PtxToken> &tokens, size_t i) {
  if (i >= tokens.size() || !tokens[i].isWord)
    return false;
  char c = tokens[i].text[0];
  return c != '.' && c != '%' && !std::isdigit(static_cast<unsigned char>(c));
}

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

} // namespace sift::oracle::detail
