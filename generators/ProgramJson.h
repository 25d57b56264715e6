//===- ProgramJson.h - The program model as JSON --------------*- C++ -*-===//
//
// Case folders (findings, the corpus) store the program model itself, not
// only its MLIR: the reference evaluates the model, and a reduced program
// has no seed to regenerate it from. Every field of gen::Program, with the
// models' stable enum names; reading checks every name, index and count and
// then gen::validate.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "generators/ProgramModel.h"
#include "support/Result.h"

#include <nlohmann/json.hpp>

namespace sift::gen {

nlohmann::json programToJson(const gen::Program &program);

/// The program of `json`; an error names the field that is wrong. With
/// `check`, a program gen::validate rejects is an error too (without it:
/// a generator's invalid program, kept as its finding).
Result<gen::Program> programFromJson(const nlohmann::json &json,
                                     bool check = true);

/// What a JSON library error says, for a person: without the library's
/// "[json.exception.KIND.N]" tag, and "missing field 'x'" for a key that is
/// not there.
std::string jsonProblem(const nlohmann::json::exception &error);

} // namespace sift::gen
