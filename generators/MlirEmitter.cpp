//===- generators/MlirEmitter.cpp - Print a Program as MLIR text ----------===//
//
// The entry points of MlirEmitter.h over the printer in Emitter.h.
//
//===----------------------------------------------------------------------===//
#include "generators/MlirEmitter.h"

#include "generators/Emitter.h"

namespace sift::gen {

std::string toMlirType(const TensorType &type) {
  std::string s = "tensor<";
  for (int64_t d : type.shape)
    s += std::to_string(d) + "x";
  s += toString(type.elementType);
  s += ">";
  return s;
}

using detail::Emitter;

std::string emitMlir(const Program &program) { return Emitter(program).emit(); }

Result<std::string> emitForIree(const Program &program,
                                const IreeSpelling &spelling) {
  if (spelling.frontEnd == FrontEnd::Sift)
    return makeError("the sift front end is sift's compiler's, not IREE's");
  if (!canExpress(spelling.frontEnd, program))
    return makeError("NMS has no " + std::string(toString(spelling.frontEnd)) +
                     " form: it reaches IREE through the ONNX front end");
  for (const TensorType &value : program.values)
    if (value.elementType == ElementType::BF16)
      return makeError("bf16 does not reach IREE yet: iree-run-module cannot "
                       "write a bf16 result as .npy");
  return Emitter(program, spelling.frontEnd, spelling.opAttributes,
                 spelling.dynamicDims)
      .emit();
}

Result<std::string>
emitIreeLinalgExt(const Program &program,
                  const std::vector<std::string> &opAttributes) {
  IreeSpelling spelling;
  spelling.opAttributes = opAttributes;
  return emitForIree(program, spelling);
}

} // namespace sift::gen
