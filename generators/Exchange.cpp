//===- generators/Exchange.cpp - Programs in other compilers' formats -----===//

#include "generators/Exchange.h"

#include "generators/MlirEmitter.h"

namespace sift::gen {

std::string_view toString(ExchangeFormat format) {
  switch (format) {
  case ExchangeFormat::ModelJson: return "model-json";
  case ExchangeFormat::SiftMlir: return "sift-mlir";
  case ExchangeFormat::LinalgExt: return "linalg-ext";
  case ExchangeFormat::TorchMlir: return "torch-mlir";
  case ExchangeFormat::OnnxMlir: return "onnx-mlir";
  case ExchangeFormat::Onnx: return "onnx";
  case ExchangeFormat::StableHlo: return "stablehlo";
  case ExchangeFormat::Jax: return "jax";
  case ExchangeFormat::PyTorch: return "pytorch";
  }
  return "?";
}

std::optional<ExchangeFormat> parseExchangeFormat(std::string_view name) {
  for (ExchangeFormat format : kAllExchangeFormats)
    if (toString(format) == name)
      return format;
  return std::nullopt;
}

std::string_view programFileName(ExchangeFormat format) {
  switch (format) {
  case ExchangeFormat::ModelJson: return "program.json";
  case ExchangeFormat::SiftMlir:
  case ExchangeFormat::LinalgExt:
  case ExchangeFormat::TorchMlir:
  case ExchangeFormat::OnnxMlir:
  case ExchangeFormat::StableHlo: return "program.mlir";
  case ExchangeFormat::Onnx: return "model.onnx";
  case ExchangeFormat::Jax:
  case ExchangeFormat::PyTorch: return "program.py";
  }
  return "program";
}

namespace {

Result<std::string> ireeSpelling(const Program &program, FrontEnd frontEnd) {
  IreeSpelling spelling;
  spelling.frontEnd = frontEnd;
  return emitForIree(program, spelling);
}

Result<std::string> emitText(const Program &program, ExchangeFormat format) {
  switch (format) {
  case ExchangeFormat::ModelJson:
    return makeError("the model's JSON is written by the harness "
                     "(generators/ProgramJson)");
  case ExchangeFormat::SiftMlir: return emitMlir(program);
  case ExchangeFormat::LinalgExt:
    return ireeSpelling(program, FrontEnd::LinalgExt);
  case ExchangeFormat::TorchMlir: return ireeSpelling(program, FrontEnd::Torch);
  case ExchangeFormat::OnnxMlir: return ireeSpelling(program, FrontEnd::Onnx);
  case ExchangeFormat::Onnx: return emitOnnxModel(program);
  case ExchangeFormat::StableHlo: return emitStableHlo(program);
  case ExchangeFormat::Jax: return emitJaxProgram(program);
  case ExchangeFormat::PyTorch: return emitPyTorchProgram(program);
  }
  return makeError("unknown exchange format");
}

} // namespace

bool exchangeCarriesBf16(ExchangeFormat format) {
  // JAX's programs take and give ml_dtypes.bfloat16 (systems/runners).
  return format == ExchangeFormat::ModelJson || format == ExchangeFormat::Jax;
}

Result<ExchangeProgram> emitExchange(const Program &program,
                                     ExchangeFormat format) {
  for (const TensorType &value : program.values)
    if (value.elementType == ElementType::BF16 &&
        !exchangeCarriesBf16(format))
      return makeError(std::string(toString(format)) +
                       ": bf16 values are not written in this format yet");
  Result<std::string> bytes = emitText(program, format);
  if (!bytes.ok())
    return bytes.error();
  return ExchangeProgram{format, std::move(*bytes)};
}

} // namespace sift::gen
