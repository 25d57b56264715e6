//===- generators/FrontEnd.cpp - The input forms a program is printed in ---===//

#include "generators/FrontEnd.h"


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

} // namespace sift::gen
