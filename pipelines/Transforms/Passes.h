//===- Passes.h - Declarations of the sift compiler's passes ----*- C++ -*-===//
//
// Only declarations: the generated constructors and registration of every
// pass in Passes.td.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>
#include <string>

namespace sift {

#define GEN_PASS_DECL
#include "pipelines/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipelines/Transforms/Passes.h.inc"

/// A module's lowering configs given from outside (`harness compile
/// --config`, a case folder's lowering record): an array of
/// #sift.lowering_config that sift-select-lowering-strategy gives, in walk
/// order, to the ops it would choose a config for (taking them off the
/// array as it does).
inline constexpr llvm::StringLiteral kForcedConfigsAttr = "sift.forced_configs";

} // namespace sift
