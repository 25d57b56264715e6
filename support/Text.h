//===- support/Text.h - Line-protocol text helpers ----*- C++ -*-===//
//
// The worker protocols (sift-run's workers, the harness's isolated cases)
// send one record per line with tab-separated fields; CSV fields and
// XML/HTML text are escaped here too, for every writer of them; and the
// one spelling of a duration every command's flags take.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sift {

/// Parses a duration: "90", "90s", "5m", "2h", "1.5m" (seconds). Nullopt
/// if malformed or not positive.
inline std::optional<double> parseDuration(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  double scale = 1;
  std::string number = text;
  switch (text.back()) {
  case 's': number.pop_back(); break;
  case 'm':
    scale = 60;
    number.pop_back();
    break;
  case 'h':
    scale = 3600;
    number.pop_back();
    break;
  default: break;
  }
  char *end = nullptr;
  double value = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() ||
      !std::isfinite(value) || value <= 0)
    return std::nullopt;
  return value * scale;
}

/// `text` with tabs and line breaks turned into spaces: one field of a
/// one-line record.
inline std::string oneLine(std::string text) {
  for (char &c : text)
    if (c == '\t' || c == '\n' || c == '\r')
      c = ' ';
  return text;
}

/// `text` as one field of a one-line record that keeps its line breaks and
/// tabs: backslash, tab, line feed and carriage return become `\\`, `\t`,
/// `\n`, `\r`. unescapeField undoes it.
inline std::string escapeField(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '\\': out += "\\\\"; break;
    case '\t': out += "\\t"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    default: out += c;
    }
  }
  return out;
}

/// The text escapeField was given.
inline std::string unescapeField(const std::string &field) {
  std::string out;
  out.reserve(field.size());
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 == field.size()) {
      out += field[i];
      continue;
    }
    switch (field[++i]) {
    case 't': out += '\t'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    default: out += field[i];
    }
  }
  return out;
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

/// `text` as one CSV field (RFC 4180): quoted, with quotes doubled, when it
/// holds a comma, a quote or a line break.
inline std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos)
    return text;
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

/// `text` as one word of a POSIX shell command line: unchanged when it
/// holds only characters no shell treats specially, else in single quotes
/// (a quote inside written '\'').
inline std::string shellQuoted(const std::string &text) {
  bool plain = !text.empty();
  for (char c : text)
    plain &= std::isalnum(static_cast<unsigned char>(c)) ||
             std::string_view("/._-+=:,@%").find(c) != std::string_view::npos;
  if (plain)
    return text;
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// `text` for XML or HTML: the five special characters escaped, and the
/// control characters XML 1.0 cannot hold replaced by '?'.
inline std::string markupEscaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' &&
          c != '\r')
        out += '?';
      else
        out += c;
    }
  }
  return out;
}

} // namespace sift
