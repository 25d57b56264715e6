//===- generators/Exchange.h - Programs in other compilers' formats -*- C++ -*-===//
//
// A system described by a file (harness/sut/file/) is handed each program
// in an exchange format it reads: the program model as JSON, one of IREE's
// MLIR spellings, a real ONNX file, StableHLO text, or a Python program that
// builds the same computation with JAX or PyTorch. Every format is written
// from the program model (gen::Program), never from another format, and a
// program a format cannot express is an error whose message says what (the
// harness counts such a run as `unsupported`, not a finding).
//
// What every written program computes is exactly the model's function
// (docs/SEMANTICS.md), spelled with the format's own ops; where a system
// documents other semantics (an unstable sort, an open NaN order) its
// comparison policy says so, never the emitter.
//
// The files a run exchanges with a system: inputs `input_<i>.npy` (i the
// program's argument position) in an inputs folder, outputs
// `output_<i>.npy` (i the result position) in an outputs folder. The Python
// formats define `program(*args)` returning a tuple with one array per
// result; systems/runners/ holds the runners that load and run them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/Result.h"

#include <optional>
#include <string>
#include <string_view>

namespace sift::gen {

/// The forms a program is written in for a system described by a file.
enum class ExchangeFormat {
  ModelJson, ///< the program model as JSON (generators/ProgramJson)
  SiftMlir,  ///< sift's own dialect (MlirEmitter)
  LinalgExt, ///< IREE's iree_linalg_ext input (MlirEmitter's emitForIree)
  TorchMlir, ///< torch.aten ops on !torch.vtensor (IREE's torch front end)
  OnnxMlir,  ///< ONNX operators in the torch dialect (IREE's onnx front end)
  Onnx,      ///< a real ONNX model file (opset 17)
  StableHlo, ///< StableHLO text (stablehlo.sort, chlo.top_k)
  Jax,       ///< a Python program over jax.numpy / jax.lax
  PyTorch,   ///< a Python program over torch / torchvision.ops
};

inline constexpr ExchangeFormat kAllExchangeFormats[] = {
    ExchangeFormat::ModelJson, ExchangeFormat::SiftMlir,
    ExchangeFormat::LinalgExt, ExchangeFormat::TorchMlir,
    ExchangeFormat::OnnxMlir,  ExchangeFormat::Onnx,
    ExchangeFormat::StableHlo, ExchangeFormat::Jax,
    ExchangeFormat::PyTorch};

/// Stable names, as system files write them: "model-json", "sift-mlir",
/// "linalg-ext", "torch-mlir", "onnx-mlir", "onnx", "stablehlo", "jax",
/// "pytorch".
std::string_view toString(ExchangeFormat format);
std::optional<ExchangeFormat> parseExchangeFormat(std::string_view name);

/// The file name a program in `format` is written to ("program.json",
/// "program.mlir", "model.onnx", "program.py").
std::string_view programFileName(ExchangeFormat format);

/// The program written in a format: its bytes (text, or the ONNX
/// protobuf's bytes).
struct ExchangeProgram {
  ExchangeFormat format = ExchangeFormat::ModelJson;
  std::string bytes;
};

/// Whether programs in `format` may hold bf16 values (their runners read
/// and write bf16 .npy files).
bool exchangeCarriesBf16(ExchangeFormat format);

/// `program` (which passes validate()) in `format`; an error naming what
/// the format cannot express (an unsupported run). The model's JSON needs
/// sift_program_json and is written by the harness, not here.
Result<ExchangeProgram> emitExchange(const Program &program,
                                     ExchangeFormat format);

// One writer per format (generators/<Format>Emitter.cpp). Each returns an
// error, naming the op and what it cannot express, for a program the
// format cannot spell.

/// A Python module over jax.numpy / jax.lax with `def program(*args)`.
Result<std::string> emitJaxProgram(const Program &program);
/// A Python module over torch / torchvision.ops with `def program(*args)`.
Result<std::string> emitPyTorchProgram(const Program &program);
/// The bytes of an ONNX ModelProto (opset 17) whose graph inputs and
/// outputs are the program's arguments and results, in order.
Result<std::string> emitOnnxModel(const Program &program);
/// StableHLO text: a module with `func.func @main`.
Result<std::string> emitStableHlo(const Program &program);

} // namespace sift::gen
