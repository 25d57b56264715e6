//===- HostTarget.cpp - LLVM dialect to a host shared object --------------===//
//
// Translation to LLVM IR, -O2, object emission (in memory) for generic x86-64
// and a link with lld (Linker.h: in this process when the build has lld's
// library) into a position-independent shared object with -Bsymbolic, so
// calls inside the object never resolve to the host process's symbols.
//
//===----------------------------------------------------------------------===//

#include "pipelines/Target/HostTarget.h"
#include "pipelines/Target/Linker.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
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
                        unsigned optLevel, std::string &error) {
  initializeX86Once();
  llvm::Triple triple(kHostTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions targetOptions;
  auto level = optLevel == 0   ? llvm::CodeGenOptLevel::None
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                               : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, options.cpu, "", targetOptions,
                                  llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    error = "cannot create a target machine for " + std::string(kHostTriple) +
            " cpu " + options.cpu;
  return machine;
}

/// True when an instruction of `module` produces or takes a bfloat.
bool usesBfloat(const llvm::Module &module) {
  for (const llvm::Function &function : module)
    for (const llvm::Instruction &inst : llvm::instructions(function)) {
      if (inst.getType()->getScalarType()->isBFloatTy())
        return true;
      for (const llvm::Value *operand : inst.operands())
        if (operand->getType()->getScalarType()->isBFloatTy())
          return true;
    }
  return false;
}

/// Defines `__truncsfbf2` (f32 -> bf16, round to nearest even, a NaN kept
/// quiet with its sign and top payload bits) in `module`, hidden and weak.
/// x86-64 keeps bf16 values promoted to f32 in registers and rounds them
/// back with this libgcc helper, which Debian 12's libgcc does not have.
/// The pipelines do bf16 arithmetic as explicit integer rounding
/// (sift-expand-bf16-for-host), so the back end only rounds values that
/// came from bf16 exactly: any correct rounding gives them back.
void defineTruncSfBf2(llvm::Module &module) {
  const char *name = "__truncsfbf2";
  if (llvm::Function *existing = module.getFunction(name))
    if (!existing->isDeclaration())
      return;
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> b(context);
  auto *type = llvm::FunctionType::get(b.getBFloatTy(), {b.getFloatTy()},
                                       /*isVarArg=*/false);
  llvm::Function *function = llvm::cast<llvm::Function>(
      module.getOrInsertFunction(name, type).getCallee());
  function->setLinkage(llvm::GlobalValue::WeakAnyLinkage);
  function->setVisibility(llvm::GlobalValue::HiddenVisibility);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
  llvm::Value *x = function->getArg(0);
  llvm::Value *bits = b.CreateBitCast(x, b.getInt32Ty());
  llvm::Value *odd = b.CreateAnd(b.CreateLShr(bits, 16), b.getInt32(1));
  llvm::Value *rounded =
      b.CreateLShr(b.CreateAdd(bits, b.CreateAdd(odd, b.getInt32(0x7fff))), 16);
  llvm::Value *quiet = b.CreateOr(b.CreateLShr(bits, 16), b.getInt32(0x40));
  llvm::Value *isNan = b.CreateFCmpUNO(x, x);
  llvm::Value *half =
      b.CreateTrunc(b.CreateSelect(isNan, quiet, rounded), b.getInt16Ty());
  b.CreateRet(b.CreateBitCast(half, b.getBFloatTy()));
}

std::string linkerPath(const sift::HostTargetOptions &options) {
  if (!options.linker.empty())
    return options.linker;
  if (const char *env = std::getenv("SIFT_LD_LLD"))
    return env;
  return SIFT_DEFAULT_LD_LLD;
}

} // namespace

unsigned sift::envCodegenOptLevel() {
  const char *env = std::getenv("SIFT_HOST_CODEGEN_OPT");
  if (env && env[0] >= '0' && env[0] <= '3' && env[1] == '\0')
    return static_cast<unsigned>(env[0] - '0');
  return 0;
}

std::unique_ptr<llvm::Module>
sift::translateForHost(ModuleOp module, llvm::LLVMContext &context,
                       const HostTargetOptions &options, std::string &error) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createHostTargetMachine(options, options.optLevel, error);
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
  if (usesBfloat(*llvmModule))
    defineTruncSfBf2(*llvmModule);
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
      createHostTargetMachine(options, options.codegenOptLevel, error);
  if (!machine)
    return false;

  // Emit the object into memory, then link it into a shared object.
  llvm::SmallVector<char, 0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, os, nullptr,
                                     llvm::CodeGenFileType::ObjectFile)) {
      error = "the x86-64 backend cannot emit an object file";
      return false;
    }
    passes.run(*llvmModule);
  }
  return linkElfObject({"-shared", "-Bsymbolic", "--hash-style=gnu"},
                       std::string_view(object.data(), object.size()),
                       options.link, linkerPath(options), sharedObject, error);
}

std::string sift::hostKernelSymbol(const std::string &executable,
                                   const std::string &kernel) {
  return executable + "__" + kernel;
}

mlir::OwningOpRef<mlir::ModuleOp>
sift::takeHostKernels(mlir::ModuleOp module,
                      std::vector<std::string> &executables) {
  mlir::OwningOpRef<mlir::ModuleOp> host =
      mlir::ModuleOp::create(module.getLoc());
  for (auto kernels :
       llvm::make_early_inc_range(module.getOps<mlir::gpu::GPUModuleOp>())) {
    std::string name = kernels.getName().str();
    executables.push_back(name);
    for (mlir::Operation &op :
         llvm::make_early_inc_range(kernels.getBody()->getOperations())) {
      // A declaration (libm's, malloc) keeps its name, once.
      if (auto func = llvm::dyn_cast<mlir::LLVM::LLVMFuncOp>(op);
          func && func.isExternal()) {
        if (mlir::SymbolTable::lookupSymbolIn(*host, func.getName()))
          op.erase();
        else
          op.moveBefore(host->getBody(), host->getBody()->end());
        continue;
      }
      if (auto symbol = mlir::SymbolTable::getSymbolName(&op)) {
        auto renamed = mlir::StringAttr::get(
            op.getContext(), hostKernelSymbol(name, symbol.getValue().str()));
        if (failed(
                mlir::SymbolTable::replaceAllSymbolUses(&op, renamed, kernels)))
          llvm::report_fatal_error("takeHostKernels: cannot rename a symbol");
        mlir::SymbolTable::setSymbolName(&op, renamed);
      }
      op.moveBefore(host->getBody(), host->getBody()->end());
    }
  }
  return host;
}
