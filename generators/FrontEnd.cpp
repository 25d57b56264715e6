//===- generators/FrontEnd.cpp - The input forms a program is printed in ---===//

#include "generators/FrontEnd.h"

#include <string>

namespace sift::gen {

std::string_view toString(FrontEnd frontEnd) {
  switch (frontEnd) {
  case FrontEnd::Sift: return "sift";
  case FrontEnd::LinalgExt: return "linalg_ext";
  case FrontEnd::Torch: return "torch";
  case FrontEnd::Onnx: return "onnx";
  }
  return "?";
}

std::optional<FrontEnd> parseFrontEnd(std::string_view name) {
  for (FrontEnd f : {FrontEnd::Sift, FrontEnd::LinalgExt, FrontEnd::Torch,
                     FrontEnd::Onnx})
    if (name == toString(f))
      return f;
  return std::nullopt;
}

bool canExpress(FrontEnd frontEnd, const Program &program) {
  if (frontEnd == FrontEnd::Sift || frontEnd == FrontEnd::Onnx)
    return true;
  for (const Op &op : program.ops)
    if (op.kind == OpKind::Nms)
      return false;
  return true;
}

std::vector<FrontEnd> ireeFrontEndsFor(const Program &program) {
  std::vector<FrontEnd> result;
  for (FrontEnd f : kIreeFrontEnds)
    if (canExpress(f, program))
      result.push_back(f);
  return result;
}

bool anyDynamic(const DynamicDims &dims) {
  for (const std::vector<bool> &input : dims)
    for (bool d : input)
      if (d)
        return true;
  return false;
}

std::string toString(const DynamicDims &dims, const Program &program) {
  std::string text;
  for (size_t i = 0; i < dims.size() && i < program.inputs.size(); ++i) {
    const TensorType &type =
        program.values[static_cast<size_t>(program.inputs[i])];
    bool dynamic = false;
    std::string shape;
    for (size_t d = 0; d < type.shape.size(); ++d) {
      bool isDynamic = d < dims[i].size() && dims[i][d];
      dynamic |= isDynamic;
      shape += (d ? "x" : "") +
               (isDynamic ? std::string("?") : std::to_string(type.shape[d]));
    }
    if (dynamic)
      text += (text.empty() ? "" : " ") + std::to_string(i) + ":" + shape;
  }
  return text;
}

} // namespace sift::gen
