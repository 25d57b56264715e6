//===- harness/sut/file/SystemSemantics.cpp - A system file's policy ------===//
//
// The `[semantics]` table of a system file: each point of docs/SEMANTICS.md
// where a compiler may document something else (oracles/PolicyPoints.cpp
// lists them), written as
// `point = { value = ..., source = "the documentation that says so" }`.
// A point left out is sift's own rule (the reference's answer, exactly); a
// point without its source is an error, so every relaxation of a
// comparison names the page that allows it.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/file/SystemFile.h"

#include <toml++/toml.h>

namespace sift::harness {

namespace {

using SemanticsError = detail::SystemFileError;

int lineOf(const toml::node &node) {
  return static_cast<int>(node.source().begin.line);
}

/// The point's value as text ("true" for a boolean).
std::string valueText(const toml::node &node) {
  if (const auto *flag = node.as_boolean())
    return flag->get() ? "true" : "false";
  if (const auto *text = node.as_string())
    return text->get();
  return "";
}

void readPoint(const oracle::PolicyPoint &point, const toml::node &node,
               SystemFile &system) {
  const auto *table = node.as_table();
  std::string key = point.key;
  if (!table)
    throw SemanticsError{
        lineOf(node), "semantics point '" + key +
                          "' must be { value = ..., source = \"...\" }: every "
                          "point names the system's documentation"};
  for (const auto &[k, v] : *table)
    if (k.str() != "value" && k.str() != "source")
      throw SemanticsError{static_cast<int>(k.source().begin.line),
                           "unknown key '" + std::string(k.str()) +
                               "' in semantics point '" + key +
                               "' (known: value, source)"};
  const toml::node *value = table->get("value");
  const toml::node *source = table->get("source");
  std::string text = value ? valueText(*value) : "";
  if (!value || !oracle::applyPolicyPoint(system.policy, key, text)) {
    std::string values;
    for (const char *v : point.values)
      values += (values.empty() ? "" : ", ") + std::string(v);
    throw SemanticsError{value ? lineOf(*value) : lineOf(node),
                         "semantics point '" + key + "' takes " + values +
                             " (" + point.meaning + ")"};
  }
  if (!source || !source->as_string() ||
      source->as_string()->get().empty())
    throw SemanticsError{source ? lineOf(*source) : lineOf(node),
                         "semantics point '" + key +
                             "' needs 'source': the documentation (page and "
                             "words) that says so"};
  system.semantics.push_back({key, text, source->as_string()->get()});
}

} // namespace

/// Reads `[semantics]` into `system.semantics` and `system.policy`;
/// throws what parseSystemFile reports.
void readSemantics(const toml::table &file, SystemFile &system) {
  const toml::node *node = file.get("semantics");
  if (!node)
    return;
  const auto *table = node->as_table();
  if (!table)
    throw SemanticsError{lineOf(*node),
                         "'semantics' must be a table ([semantics])"};
  for (const auto &[key, value] : *table) {
    const oracle::PolicyPoint *point =
        oracle::findPolicyPoint(std::string(key.str()));
    if (!point) {
      std::string list;
      for (const oracle::PolicyPoint &known : oracle::policyPoints())
        list += (list.empty() ? "" : ", ") + std::string(known.key);
      throw SemanticsError{static_cast<int>(key.source().begin.line),
                           "unknown semantics point '" +
                               std::string(key.str()) + "' (known: " + list +
                               ")"};
    }
    readPoint(*point, value, system);
  }
}

} // namespace sift::harness
