//===- harness/sut/file/SystemSemantics.cpp - A system file's policy ------===//
//
// The `[semantics]` table of a system file: each point of docs/SEMANTICS.md
// where a compiler may document something else, written as
// `point = { value = ..., source = "the documentation that says so" }`.
// A point left out is sift's own rule (the reference's answer, exactly); a
// point without its source is an error, so every relaxation of a
// comparison names the page that allows it.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/file/SystemFile.h"

#include <toml++/toml.h>

#include <functional>

namespace sift::harness {

namespace {

/// One point: its key, the values it takes (the first is sift's rule), and
/// what each value sets in the policy.
struct PointSpec {
  const char *key;
  std::vector<const char *> values;
  std::function<void(oracle::ComparisonPolicy &, const std::string &)> apply;
  const char *meaning;
};

const std::vector<PointSpec> &pointSpecs() {
  using P = oracle::ComparisonPolicy;
  static const std::vector<PointSpec> specs = {
      {"stable_sort", {"true", "false"},
       [](P &p, const std::string &v) { p.stableSort = v == "true"; },
       "sorts keep equal keys in input order"},
      {"topk_ties", {"lower-index", "open"},
       [](P &p, const std::string &v) {
         p.topkLowerIndexFirst = v == "lower-index";
       },
       "top-k puts the lower index first among equal values"},
      {"nan_order", {"largest", "open"},
       [](P &p, const std::string &v) { p.nanOrderOpen = v == "open"; },
       "NaN (either sign) ranks above +inf in sorts and top-k"},
      {"signed_zero", {"equal", "ordered"},
       [](P &p, const std::string &v) {
         p.signedZeroOrdered = v == "ordered";
       },
       "-0.0 and +0.0 are equal keys (ordered: -0.0 sorts first)"},
      {"nms_ties", {"lower-index", "open"},
       [](P &p, const std::string &v) { p.nmsTieOrderOpen = v == "open"; },
       "NMS visits equal scores lower box index first"},
      {"nms_boxes", {"any-corners", "open"},
       [](P &p, const std::string &v) { p.nmsOddBoxesOpen = v == "open"; },
       "NMS boxes are any two diagonal corners (or center and size); open: "
       "non-finite coordinates and negative sizes have no meaning"},
      {"nms_scope", {"any", "one-batch-one-class"},
       [](P &p, const std::string &v) {
         p.nmsOneBatchOneClass = v == "one-batch-one-class";
       },
       "NMS over any batch and class count"},
      {"denormals", {"ieee", "flushed"},
       [](P &p, const std::string &v) { p.flushesDenormals = v == "flushed"; },
       "float code keeps IEEE denormals (flushed: FTZ and DAZ)"},
      {"transcendentals", {"checked", "unchecked"},
       [](P &p, const std::string &v) { p.inexactUnchecked = v == "unchecked"; },
       "inexact ops (sigmoid) within their ulp tolerance (unchecked: outputs "
       "past it are noted, not findings)"},
  };
  return specs;
}

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

void readPoint(const PointSpec &spec, const toml::node &node,
               SystemFile &system) {
  const auto *table = node.as_table();
  std::string key = spec.key;
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
  std::string values;
  for (const char *v : spec.values)
    values += (values.empty() ? "" : ", ") + std::string(v);
  std::string text = value ? valueText(*value) : "";
  bool known = false;
  for (const char *v : spec.values)
    known |= text == v;
  if (!value || !known)
    throw SemanticsError{value ? lineOf(*value) : lineOf(node),
                         "semantics point '" + key + "' takes " + values +
                             " (" + spec.meaning + ")"};
  if (!source || !source->as_string() ||
      source->as_string()->get().empty())
    throw SemanticsError{source ? lineOf(*source) : lineOf(node),
                         "semantics point '" + key +
                             "' needs 'source': the documentation (page and "
                             "words) that says so"};
  spec.apply(system.policy, text);
  system.semantics.push_back({key, text, source->as_string()->get()});
}

} // namespace

/// Reads `[semantics]` into `system.semantics` and `system.policy`;
/// throws what parseSystemFile reports.
void readSemantics(const toml::table &file, SystemFile &system) {
  const toml::node *node = file.get("semantics");
  if (!node)
    return;
  {
    const auto *table = node->as_table();
    if (!table)
      throw SemanticsError{lineOf(*node),
                           "'semantics' must be a table ([semantics])"};
    for (const auto &[key, value] : *table) {
      const PointSpec *spec = nullptr;
      for (const PointSpec &candidate : pointSpecs())
        if (key.str() == candidate.key)
          spec = &candidate;
      if (!spec) {
        std::string list;
        for (const PointSpec &candidate : pointSpecs())
          list += (list.empty() ? "" : ", ") + std::string(candidate.key);
        throw SemanticsError{static_cast<int>(key.source().begin.line),
                             "unknown semantics point '" +
                                 std::string(key.str()) + "' (known: " +
                                 list + ")"};
      }
      readPoint(*spec, value, system);
    }
  }
}

} // namespace sift::harness
