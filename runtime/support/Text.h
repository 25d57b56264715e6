//===- runtime/support/Text.h - Line-protocol text helpers ----*- C++ -*-===//
//
// The worker protocols (sift-run's workers, the harness's isolated cases)
// send one record per line with tab-separated fields.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace sift {

/// `text` with tabs and line breaks turned into spaces: one field of a
/// one-line record.
inline std::string oneLine(std::string text) {
  for (char &c : text)
    if (c == '\t' || c == '\n' || c == '\r')
      c = ' ';
  return text;
}

/// The fields of `line` between `separator`s (an empty line is one empty
/// field).
inline std::vector<std::string> splitFields(const std::string &line,
                                            char separator = '\t') {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t end = line.find(separator, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string::npos)
      return fields;
    start = end + 1;
  }
}

} // namespace sift
