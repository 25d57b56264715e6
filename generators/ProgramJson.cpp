//===- ProgramJson.cpp - gen::Program <-> JSON ----------------------------===//

#include "generators/ProgramJson.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace sift::gen {

using nlohmann::json;

namespace {

template <typename Enum, size_t N>
std::optional<Enum> parseEnum(const std::string &name,
                              const Enum (&values)[N]) {
  for (Enum value : values)
    if (gen::toString(value) == name)
      return value;
  return std::nullopt;
}

constexpr gen::OpKind kOpKinds[] = {gen::OpKind::Elementwise, gen::OpKind::Iota,
                                    gen::OpKind::Sort, gen::OpKind::TopK,
                                    gen::OpKind::Slice, gen::OpKind::Nms,
                                    gen::OpKind::Gather};
constexpr gen::EwKind kEwKinds[] = {
    gen::EwKind::NegF,      gen::EwKind::AbsF,      gen::EwKind::Sigmoid,
    gen::EwKind::AddConstF, gen::EwKind::MulConstF, gen::EwKind::AddF,
    gen::EwKind::SubF,      gen::EwKind::MulF,      gen::EwKind::MaximumF,
    gen::EwKind::MinimumF,  gen::EwKind::AddConstI, gen::EwKind::MulConstI,
    gen::EwKind::AddI,      gen::EwKind::SubI,      gen::EwKind::MulI,
    gen::EwKind::XOrI,      gen::EwKind::MaxSI,     gen::EwKind::MinSI,
    gen::EwKind::ExtF,      gen::EwKind::TruncF,    gen::EwKind::SIToFP,
    gen::EwKind::ExtSI,     gen::EwKind::TruncI};
constexpr gen::SortOrder kOrders[] = {gen::SortOrder::Ascending,
                                      gen::SortOrder::Descending,
                                      gen::SortOrder::Comparator};
constexpr gen::ComparatorKind kComparators[] = {
    gen::ComparatorKind::Less, gen::ComparatorKind::Greater,
    gen::ComparatorKind::LessAbs, gen::ComparatorKind::LessLowByte};

/// A float as JSON: a number, or "inf", "-inf" or "nan" (JSON has no
/// spelling for them; nlohmann writes null, which would read back as no
/// score threshold at all).
json floatJson(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}

/// A float written by floatJson (throws nlohmann's type_error otherwise).
double floatOf(const json &value) {
  if (value.is_string()) {
    std::string text = value.get<std::string>();
    if (text == "inf")
      return std::numeric_limits<double>::infinity();
    if (text == "-inf")
      return -std::numeric_limits<double>::infinity();
    if (text == "nan")
      return std::numeric_limits<double>::quiet_NaN();
  }
  return value.get<double>();
}

} // namespace

json programToJson(const gen::Program &program) {
  json values = json::array();
  for (const gen::TensorType &type : program.values)
    values.push_back({{"type", std::string(toString(type.elementType))},
                      {"shape", type.shape}});
  json ops = json::array();
  for (const gen::Op &op : program.ops) {
    json o = {{"kind", std::string(gen::toString(op.kind))},
              {"operands", op.operands},
              {"results", op.results}};
    switch (op.kind) {
    case gen::OpKind::Elementwise:
      o["ew"] = std::string(gen::toString(op.ew));
      o["constant"] = floatJson(op.constant);
      o["int_constant"] = op.intConstant;
      break;
    case gen::OpKind::Iota: o["dimension"] = op.dimension; break;
    case gen::OpKind::Sort:
      o["dimension"] = op.dimension;
      o["order"] = std::string(gen::toString(op.order));
      o["comparator"] = std::string(gen::toString(op.comparator));
      break;
    case gen::OpKind::TopK:
      o["dimension"] = op.dimension;
      o["k"] = op.k;
      o["largest"] = op.largest;
      break;
    case gen::OpKind::Slice:
      o["offsets"] = op.offsets;
      o["sizes"] = op.sizes;
      o["strides"] = op.strides;
      break;
    case gen::OpKind::Nms:
      // f32 values widen to double exactly and print to round-trip.
      o["max_output_boxes_per_class"] = op.maxOutputBoxesPerClass;
      o["iou_threshold"] = floatJson(op.iouThreshold);
      o["score_threshold"] = op.scoreThreshold
                                 ? floatJson(*op.scoreThreshold)
                                 : json(nullptr);
      o["center_point_box"] = op.centerPointBox;
      break;
    case gen::OpKind::Gather: o["axis"] = op.axis; break;
    }
    ops.push_back(o);
  }
  return {{"values", values},
          {"inputs", program.inputs},
          {"ops", ops},
          {"outputs", program.outputs}};
}

namespace {

/// The fields of op `o` of its kind (already read) into `op`; "" or what
/// is wrong. Throws json::exception for a missing or mistyped field.
std::string opFieldsFromJson(const json &o, gen::Op &op) {
  switch (op.kind) {
  case gen::OpKind::Elementwise: {
    std::string ew = o.at("ew").get<std::string>();
    std::optional<gen::EwKind> parsed = parseEnum(ew, kEwKinds);
    if (!parsed)
      return "unknown elementwise op '" + ew + "'";
    op.ew = *parsed;
    op.constant = floatOf(o.at("constant"));
    op.intConstant = o.at("int_constant").get<int64_t>();
    return "";
  }
  case gen::OpKind::Iota: op.dimension = o.at("dimension").get<int64_t>(); return "";
  case gen::OpKind::Sort: {
    op.dimension = o.at("dimension").get<int64_t>();
    std::string order = o.at("order").get<std::string>();
    std::string comparator = o.at("comparator").get<std::string>();
    std::optional<gen::SortOrder> parsedOrder = parseEnum(order, kOrders);
    std::optional<gen::ComparatorKind> parsedComparator =
        parseEnum(comparator, kComparators);
    if (!parsedOrder || !parsedComparator)
      return "unknown sort order '" + order + "' or comparator '" + comparator +
             "'";
    op.order = *parsedOrder;
    op.comparator = *parsedComparator;
    return "";
  }
  case gen::OpKind::TopK:
    op.dimension = o.at("dimension").get<int64_t>();
    op.k = o.at("k").get<int64_t>();
    op.largest = o.at("largest").get<bool>();
    return "";
  case gen::OpKind::Slice:
    op.offsets = o.at("offsets").get<std::vector<int64_t>>();
    op.sizes = o.at("sizes").get<std::vector<int64_t>>();
    op.strides = o.at("strides").get<std::vector<int64_t>>();
    return "";
  case gen::OpKind::Nms: {
    op.maxOutputBoxesPerClass =
        o.at("max_output_boxes_per_class").get<int64_t>();
    op.iouThreshold = static_cast<float>(floatOf(o.at("iou_threshold")));
    const json &threshold = o.at("score_threshold");
    if (!threshold.is_null())
      op.scoreThreshold = static_cast<float>(floatOf(threshold));
    op.centerPointBox = o.at("center_point_box").get<bool>();
    return "";
  }
  case gen::OpKind::Gather: op.axis = o.at("axis").get<int64_t>(); return "";
  }
  return "unknown op kind";
}

} // namespace

Result<gen::Program> programFromJson(const json &j, bool check) {
  try {
    gen::Program program;
    for (const json &value : j.at("values")) {
      std::optional<ElementType> type =
          parseElementType(value.at("type").get<std::string>());
      if (!type)
        return makeError("program: unknown element type " +
                         value.at("type").dump());
      program.values.push_back(
          {*type, value.at("shape").get<std::vector<int64_t>>()});
    }
    program.inputs = j.at("inputs").get<std::vector<int>>();
    program.outputs = j.at("outputs").get<std::vector<int>>();
    for (const json &o : j.at("ops")) {
      gen::Op op;
      std::string kind = o.at("kind").get<std::string>();
      std::optional<gen::OpKind> parsedKind = parseEnum(kind, kOpKinds);
      if (!parsedKind)
        return makeError("program: unknown op kind '" + kind + "'");
      op.kind = *parsedKind;
      op.operands = o.at("operands").get<std::vector<int>>();
      op.results = o.at("results").get<std::vector<int>>();
      if (std::string problem = opFieldsFromJson(o, op); !problem.empty())
        return makeError("program: " + problem);
      program.ops.push_back(std::move(op));
    }
    if (std::string problem = gen::validate(program);
        check && !problem.empty())
      return makeError("program: " + problem);
    return program;
  } catch (const json::exception &e) {
    return makeError("program: " + jsonProblem(e));
  }
}

std::string jsonProblem(const nlohmann::json::exception &error) {
  std::string text = error.what();
  if (!text.empty() && text[0] == '[') {
    size_t close = text.find("] ");
    if (close != std::string::npos)
      text.erase(0, close + 2);
  }
  // out_of_range.403: "key 'verdict' not found".
  const std::string key = "key '", notFound = "' not found";
  if (error.id == 403 && text.rfind(key, 0) == 0 &&
      text.size() > key.size() + notFound.size() &&
      text.compare(text.size() - notFound.size(), notFound.size(),
                   notFound) == 0)
    return "missing field '" +
           text.substr(key.size(),
                       text.size() - key.size() - notFound.size()) +
           "'";
  return text;
}

} // namespace sift::gen
