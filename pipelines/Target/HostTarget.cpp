//===- HostTarget.cpp - LLVM dialect to a host shared object --------------===//
//
// Translation to LLVM IR, -O2, object emission for generic x86-64 and a link
// with ld.lld (run as a child process) into a position-independent shared
// object with -Bsymbolic, so calls inside the object never resolve to the
// host process's symbols.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Target/HostTarget.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <mutex>

#ifndef SIFT_DEFAULT_LD_LLD
#define SIFT_DEFAULT_LD_LLD "ld.lld"
#endif

using namespace mlir;

namespace {

/// The triple of the host the artifacts run on (sift targets x86-64 Linux).
constexpr const char *kHostTriple = "x86_64-unknown-linux-gnu";

void initializeX86Once() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine>
createHostTargetMachine(const sift::HostTargetOptions &options,
                        std::string &error) {
  initializeX86Once();
  llvm::Triple triple(kHostTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions targetOptions;
  auto level = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
               : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                       : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, options.cpu, "", targetOptions,
                                  llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    error = "cannot create a target machine for " + std::string(kHostTriple) +
            " cpu " + options.cpu;
  return machine;
}

std::string linkerPath(const sift::HostTargetOptions &options) {
  if (!options.linker.empty())
    return options.linker;
  if (const char *env = std::getenv("SIFT_LD_LLD"))
    return env;
  return SIFT_DEFAULT_LD_LLD;
}

/// Removes a file when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

} // namespace

std::unique_ptr<llvm::Module>
sift::translateForHost(ModuleOp module, llvm::LLVMContext &context,
                       const HostTargetOptions &options, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createHostTargetMachine(options, error);
  if (!machine)
    return nullptr;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "sift");
  if (!llvmModule) {
    error = "translation of the LLVM dialect to LLVM IR failed";
    return nullptr;
  }
  llvmModule->setTargetTriple(machine->getTargetTriple());
  llvmModule->setDataLayout(machine->createDataLayout());
  auto optimize = makeOptimizingTransformer(options.optLevel, 0, machine.get());
  if (llvm::Error err = optimize(llvmModule.get())) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return nullptr;
  }
  return llvmModule;
}

bool sift::buildHostSharedObject(ModuleOp module,
                                 const HostTargetOptions &options,
                                 std::vector<uint8_t> &sharedObject,
                                 std::string &error) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateForHost(module, context, options, error);
  if (!llvmModule)
    return false;
  std::unique_ptr<llvm::TargetMachine> machine =
      createHostTargetMachine(options, error);
  if (!machine)
    return false;

  // Emit the object file.
  TempFile object, library, log;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-host", "o", object.path)) {
    error = "cannot create a temporary object file: " + ec.message();
    return false;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(object.path, ec);
    if (ec) {
      error = "cannot write " + object.path.str().str() + ": " + ec.message();
      return false;
    }
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, os, nullptr,
                                     llvm::CodeGenFileType::ObjectFile)) {
      error = "the x86-64 backend cannot emit an object file";
      return false;
    }
    passes.run(*llvmModule);
  }

  // Link it into a shared object.
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-host", "so", library.path)) {
    error = "cannot create a temporary library file: " + ec.message();
    return false;
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-ld", "log", log.path)) {
    error = "cannot create a temporary log file: " + ec.message();
    return false;
  }
  std::string linker = linkerPath(options);
  llvm::SmallVector<llvm::StringRef> args = {
      linker, "-shared",    "-Bsymbolic", "--hash-style=gnu",
      "-o",   library.path, object.path};
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(log.path),
                                                llvm::StringRef(log.path)};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(linker, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/60,
                                         /*MemoryLimit=*/0, &execError);
  if (status != 0) {
    error = "linking the host shared object with " + linker + " failed";
    if (!execError.empty())
      error += ": " + execError;
    if (auto text = llvm::MemoryBuffer::getFile(log.path))
      error += "\n" + (*text)->getBuffer().str();
    return false;
  }
  auto bytes = llvm::MemoryBuffer::getFile(library.path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes) {
    error = "cannot read the linked library " + library.path.str().str();
    return false;
  }
  llvm::StringRef data = (*bytes)->getBuffer();
  sharedObject.assign(data.begin(), data.end());
  return true;
}
