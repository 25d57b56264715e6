//===- oracles/static/CheckText.h - Text helpers of the static checks ---===//
//
// What the PTX, LLVM IR and executable checks share: a prefix test and a
// list of names for a message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sift::oracle::detail {

inline bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// "a, b, c".
inline std::string joinNames(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  return out;
}

} // namespace sift::oracle::detail
