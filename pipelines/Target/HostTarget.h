//===- HostTarget.h - LLVM dialect to a host shared object ------*- C++ -*-===//
//
// The `host` target: translate an LLVM-dialect module to LLVM IR, optimize
// it, emit an x86-64 object and link it into a shared object with lld.
// The cpu runtime dlopens the result (runtime/cpu/CpuDevice.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Target/Linker.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace sift {

/// $SIFT_HOST_CODEGEN_OPT (0-3), else 0.
unsigned envCodegenOptLevel();

/// Options of the host target.
struct HostTargetOptions {
  /// LLVM optimization level of the generated code (0-3).
  unsigned optLevel = 2;
  /// The code generator's level (0-3) when it emits the object. 0 (fast
  /// instruction selection, no machine-level optimization) halves a fuzz
  /// case's compile; the IR it selects from was optimized at `optLevel`,
  /// which is where a lowering's undefined behaviour would show.
  unsigned codegenOptLevel = envCodegenOptLevel();
  /// The CPU to generate code for; "x86-64" keeps artifacts portable.
  std::string cpu = "x86-64";
  /// The linker; empty: $SIFT_LD_LLD, else the ld.lld of the LLVM sift was
  /// built with.
  std::string linker;
  /// In process (lld's library) or by running `linker`.
  LinkMode link = defaultLinkMode();
};

/// Translates `module` (LLVM dialect) to an optimized LLVM IR module for the
/// host. Returns null and sets `error` on failure.
std::unique_ptr<llvm::Module>
translateForHost(mlir::ModuleOp module, llvm::LLVMContext &context,
                 const HostTargetOptions &options, std::string &error);

/// The emu device's kernels: moves the contents of every gpu.module of
/// `module` (host LLVM functions and globals, after
/// sift-lower-target-kernels-for-host) into one new module, each symbol
/// renamed `<gpu.module>__<symbol>` with its uses (every kernel module names
/// its kernel alike); a declaration (libm's) keeps its name, once.
/// `executables` gets the gpu.modules' names in order.
mlir::OwningOpRef<mlir::ModuleOp>
takeHostKernels(mlir::ModuleOp module, std::vector<std::string> &executables);

/// The symbol of kernel `kernel` of executable `executable` in the module
/// takeHostKernels made.
std::string hostKernelSymbol(const std::string &executable,
                             const std::string &kernel);

/// Compiles `module` (LLVM dialect) into the bytes of a shared object.
/// Returns false and sets `error` on failure.
bool buildHostSharedObject(mlir::ModuleOp module,
                           const HostTargetOptions &options,
                           std::vector<uint8_t> &sharedObject,
                           std::string &error);

} // namespace sift
