//===- runtime/PlanText.cpp - The text form of a dispatch plan ------------===//
//
// Reads and writes a plan's text form: encodePlan and parsePlan (see Plan.h
// for the encoding). The parser takes untrusted text (it is fuzzed through the
// artifact reader): every number is range-checked and every error names the
// line.
//
//===----------------------------------------------------------------------===//

#include "runtime/Plan.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <type_traits>

using namespace sift;
using namespace sift::rt;

namespace {

constexpr std::string_view kPlanHeader = "sift-plan 1";

template <typename T> std::string listToString(const T &values) {
  std::string out = "[";
  bool first = true;
  for (const auto &value : values) {
    if (!first)
      out += ",";
    first = false;
    out += std::to_string(value);
  }
  return out + "]";
}

/// Parses a whole decimal integer within [lo, hi].
template <typename T>
std::optional<T> parseInteger(std::string_view text,
                              T lo = std::numeric_limits<T>::min(),
                              T hi = std::numeric_limits<T>::max()) {
  static_assert(sizeof(T) <= sizeof(int64_t), "wider than int64_t");
  int64_t value;
  if (text.empty() || text.front() == '+')
    return std::nullopt;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  if constexpr (std::is_unsigned_v<T>) {
    if (value < 0 || static_cast<uint64_t>(value) < lo ||
        static_cast<uint64_t>(value) > hi)
      return std::nullopt;
  } else {
    if (value < lo || value > hi)
      return std::nullopt;
  }
  return static_cast<T>(value);
}

/// Parses "[a,b,c]" (or "[]") into integers within [lo, hi].
template <typename T>
std::optional<std::vector<T>> parseList(std::string_view text,
                                        T lo = std::numeric_limits<T>::min(),
                                        T hi = std::numeric_limits<T>::max()) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    return std::nullopt;
  text = text.substr(1, text.size() - 2);
  std::vector<T> values;
  if (text.empty())
    return values;
  while (true) {
    size_t comma = text.find(',');
    std::optional<T> value = parseInteger<T>(text.substr(0, comma), lo, hi);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
    if (comma == std::string_view::npos)
      return values;
    text.remove_prefix(comma + 1);
  }
}

/// Text quoted in an error message, cut to a readable length.
std::string clip(std::string_view text) {
  constexpr size_t kMax = 60;
  if (text.size() <= kMax)
    return std::string(text);
  return std::string(text.substr(0, kMax)) + "...";
}

std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start)
      words.push_back(line.substr(start, i - start));
  }
  return words;
}

/// Parses one record line of the form "KIND INDEX key=value ...".
class RecordParser {
public:
  explicit RecordParser(std::string prefix) : prefix_(std::move(prefix)) {}

  std::optional<Error> error;

  /// Splits the key=value words; fails on a malformed or repeated key.
  bool collect(const std::vector<std::string_view> &words, size_t first) {
    for (size_t i = first; i < words.size(); ++i) {
      size_t eq = words[i].find('=');
      if (eq == std::string_view::npos || eq == 0)
        return fail("expected key=value, found '" + clip(words[i]) + "'");
      std::string key(words[i].substr(0, eq));
      if (!fields_.emplace(key, words[i].substr(eq + 1)).second)
        return fail("'" + key + "' appears twice");
    }
    return true;
  }

  /// Takes the value of `key`; fails when a required key is missing.
  std::optional<std::string_view> take(const std::string &key, bool required) {
    auto it = fields_.find(key);
    if (it == fields_.end()) {
      if (required)
        fail("missing '" + key + "'");
      return std::nullopt;
    }
    std::string_view value = it->second;
    fields_.erase(it);
    return value;
  }

  /// Fails when keys that no take() consumed remain.
  bool finish() {
    if (error)
      return false;
    if (!fields_.empty())
      return fail("unknown key '" + fields_.begin()->first + "'");
    return true;
  }

  bool bad(const std::string &key, std::string_view value, const char *what) {
    return fail("'" + key + "' must be " + what + ", found '" + clip(value) +
                "'");
  }

  bool fail(const std::string &message) {
    if (!error)
      error = makeError(prefix_ + message);
    return false;
  }

private:
  std::string prefix_;
  std::map<std::string, std::string_view> fields_;
};

bool parseBufferRecord(RecordParser &p, PlanBuffer &buffer) {
  auto type = p.take("type", true);
  auto shape = p.take("shape", true);
  auto memory = p.take("memory", true);
  auto usage = p.take("usage", true);
  auto role = p.take("role", true);
  auto roleIndex = p.take("role_index", true);
  auto affinity = p.take("affinity", false);
  if (!p.finish())
    return false;
  if (auto t = parseElementType(*type))
    buffer.type = *t;
  else
    return p.bad("type", *type,
                 "an element type (i32, i64, f16, bf16, f32, f64)");
  if (auto s = parseList<int64_t>(*shape))
    buffer.shape = std::move(*s);
  else
    return p.bad("shape", *shape, "a list of integers like [4,8]");
  if (auto m = parseMemoryType(*memory))
    buffer.memory = *m;
  else
    return p.bad("memory", *memory,
                 "'|'-separated device_local, host_visible, host_coherent or "
                 "none");
  if (auto u = parseBufferUsage(*usage))
    buffer.usage = *u;
  else
    return p.bad("usage", *usage,
                 "'|'-separated dispatch, transfer, export or none");
  if (auto r = parseBufferRole(*role))
    buffer.role = *r;
  else
    return p.bad("role", *role, "input, output or temporary");
  if (auto i = parseInteger<int>(*roleIndex))
    buffer.roleIndex = *i;
  else
    return p.bad("role_index", *roleIndex, "an integer");
  if (affinity) {
    if (auto a = parseList<int>(*affinity))
      buffer.affinity = std::move(*a);
    else
      return p.bad("affinity", *affinity, "a list of device ordinals like [0]");
  }
  return true;
}

bool parseTriple(RecordParser &p, const std::string &key,
                 std::string_view value, std::array<uint32_t, 3> &out) {
  auto list = parseList<uint32_t>(value);
  if (!list || list->size() != 3)
    return p.bad(key, value, "three unsigned 32-bit integers like [1,1,1]");
  std::copy(list->begin(), list->end(), out.begin());
  return true;
}

bool parseDispatchRecord(RecordParser &p, Dispatch &dispatch) {
  auto executable = p.take("executable", true);
  auto entry = p.take("entry", true);
  auto grid = p.take("grid", true);
  auto block = p.take("block", true);
  auto bindings = p.take("bindings", true);
  auto workgroupMemory = p.take("workgroup_memory", false);
  auto constants = p.take("constants", false);
  if (!p.finish())
    return false;
  if (auto e = parseInteger<int>(*executable))
    dispatch.executable = *e;
  else
    return p.bad("executable", *executable, "an integer");
  if (auto e = parseInteger<int>(*entry))
    dispatch.entry = *e;
  else
    return p.bad("entry", *entry, "an integer");
  if (!parseTriple(p, "grid", *grid, dispatch.grid) ||
      !parseTriple(p, "block", *block, dispatch.block))
    return false;
  if (auto b = parseList<int>(*bindings))
    dispatch.bindings = std::move(*b);
  else
    return p.bad("bindings", *bindings, "a list of buffer indices like [0,1]");
  if (workgroupMemory) {
    if (auto w = parseInteger<uint32_t>(*workgroupMemory))
      dispatch.workgroupMemoryBytes = *w;
    else
      return p.bad("workgroup_memory", *workgroupMemory,
                   "an unsigned 32-bit integer");
  }
  if (constants) {
    if (auto c = parseList<int64_t>(*constants))
      dispatch.constants = std::move(*c);
    else
      return p.bad("constants", *constants, "a list of integers like [3,-1]");
  }
  return true;
}

} // namespace

std::string rt::encodePlan(const Plan &plan) {
  std::string out(kPlanHeader);
  out += "\n";
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const PlanBuffer &b = plan.buffers[i];
    out += "buffer " + std::to_string(i) +
           " type=" + std::string(toString(b.type)) +
           " shape=" + listToString(b.shape) + " memory=" + toString(b.memory) +
           " usage=" + toString(b.usage) +
           " role=" + std::string(toString(b.role)) +
           " role_index=" + std::to_string(b.roleIndex) +
           " affinity=" + listToString(b.affinity) + "\n";
  }
  for (size_t i = 0; i < plan.dispatches.size(); ++i) {
    const Dispatch &d = plan.dispatches[i];
    out += "dispatch " + std::to_string(i) +
           " executable=" + std::to_string(d.executable) +
           " entry=" + std::to_string(d.entry) +
           " grid=" + listToString(d.grid) + " block=" + listToString(d.block) +
           " workgroup_memory=" + std::to_string(d.workgroupMemoryBytes) +
           " bindings=" + listToString(d.bindings) +
           " constants=" + listToString(d.constants) + "\n";
  }
  return out;
}

Result<Plan> rt::parsePlan(std::string_view text, const std::string &name) {
  Plan plan;
  bool sawHeader = false;
  size_t lineNumber = 0;
  while (!text.empty()) {
    ++lineNumber;
    size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size()
                                                         : newline + 1);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    std::string where = name + ":" + std::to_string(lineNumber) + ": ";
    for (char c : line)
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t')
        return makeError(where + "control character in the plan text");

    std::vector<std::string_view> words = splitWords(line);
    if (words.empty() || words[0].front() == '#')
      continue;
    if (!sawHeader) {
      if (words.size() != 2 || words[0] != "sift-plan")
        return makeError(where + "expected the header '" +
                         std::string(kPlanHeader) + "', found '" + clip(line) +
                         "'");
      if (words[1] != "1")
        return makeError(where + "unsupported plan version '" + clip(words[1]) +
                         "' (this runtime reads 1)");
      sawHeader = true;
      continue;
    }

    bool isBuffer = words[0] == "buffer";
    if (!isBuffer && words[0] != "dispatch")
      return makeError(where + "expected a 'buffer' or 'dispatch' record, " +
                       "found '" + clip(words[0]) + "'");
    size_t expectedIndex =
        isBuffer ? plan.buffers.size() : plan.dispatches.size();
    std::optional<size_t> index =
        words.size() > 1 ? parseInteger<size_t>(words[1]) : std::nullopt;
    if (!index)
      return makeError(where + std::string(words[0]) +
                       " record without an index");
    if (*index != expectedIndex)
      return makeError(where + std::string(words[0]) + " " +
                       std::to_string(*index) + " where " +
                       std::string(words[0]) + " " +
                       std::to_string(expectedIndex) + " was expected");
    if (isBuffer && !plan.dispatches.empty())
      return makeError(where + "buffer records must come before dispatch "
                               "records");

    RecordParser parser(where + std::string(words[0]) + " " +
                        std::to_string(*index) + ": ");
    if (!parser.collect(words, 2))
      return *parser.error;
    if (isBuffer) {
      PlanBuffer buffer;
      if (!parseBufferRecord(parser, buffer))
        return *parser.error;
      plan.buffers.push_back(std::move(buffer));
    } else {
      Dispatch dispatch;
      if (!parseDispatchRecord(parser, dispatch))
        return *parser.error;
      plan.dispatches.push_back(std::move(dispatch));
    }
  }
  if (!sawHeader)
    return makeError(name + ": empty plan: expected the header '" +
                     std::string(kPlanHeader) + "'");
  return plan;
}
