//===- RocdlTarget.cpp - #rocdl.target serialized with lld in process -----===//

#include "pipelines/Target/RocdlTarget.h"

#include "pipelines/Target/Linker.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Utils.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <string_view>

using namespace mlir;

namespace {

/// ROCDL's serialization with the link of the assembled code object
/// through sift's linker.
class InProcessLinkSerializer : public ROCDL::SerializeGPUModuleBase {
public:
  InProcessLinkSerializer(Operation &module, ROCDL::ROCDLTargetAttr target,
                          const gpu::TargetOptions &options)
      : SerializeGPUModuleBase(module, target, options), options_(options) {}

protected:
  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &llvmModule) override {
    // Offload: the LLVM bitcode, as MLIR's serializer gives it.
    if (options_.getCompilationTarget() == gpu::CompilationTarget::Offload)
      return ModuleToObject::moduleToObject(llvmModule);
    if (options_.getCompilationTarget() == gpu::CompilationTarget::Assembly)
      return moduleToObjectImpl(options_, llvmModule);
    // A code object: emit the ELF object straight from the code generator
    // (no ISA text printed and assembled again), then link it.
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine)) {
      getOperation().emitError()
          << "no AMDGPU target machine for chip " << target.getChip();
      return failure();
    }
    SmallVector<char, 0> object;
    {
      llvm::raw_svector_ostream os(object);
      llvm::legacy::PassManager passes;
      if ((*machine)->addPassesToEmitFile(passes, os, nullptr,
                                          llvm::CodeGenFileType::ObjectFile)) {
        getOperation().emitError()
            << "the AMDGPU backend cannot emit an object file";
        return failure();
      }
      passes.run(llvmModule);
    }
    return link(object);
  }

  FailureOr<SmallVector<char, 0>> link(ArrayRef<char> object) {
    std::vector<uint8_t> hsaco;
    std::string error;
    if (!sift::linkElfObject({"-shared"},
                             std::string_view(object.data(), object.size()),
                             sift::defaultLinkMode(),
                             getToolkitPath().str() + "/llvm/bin/ld.lld",
                             hsaco, error)) {
      getOperation().emitError() << "the HSACO link failed: " << error;
      return failure();
    }
    return SmallVector<char, 0>(hsaco.begin(), hsaco.end());
  }

  FailureOr<SmallVector<char, 0>>
  compileToBinary(StringRef isa) override {
    auto emitError = [&] { return getOperation().emitError(); };
    FailureOr<SmallVector<char, 0>> object =
        ROCDL::assembleIsa(isa, target.getTriple(), target.getChip(),
                           target.getFeatures(), emitError);
    if (failed(object))
      return failure();
    return link(*object);
  }

private:
  gpu::TargetOptions options_;
};

/// The loop unroll threshold the AMDGPU back end uses for loops that touch
/// private memory: its default (2700) fully unrolls a private_row top-k of
/// 37 with k = 28 (nested loops of 37 and 28), and register allocation of
/// the result took 3.3 s of one kernel (the 5-7.6 s tileandfuse/amdgpu
/// compiles of `harness --pipeline=all --random-config --seed=3003`);
/// 1500 took 0.1 s.
constexpr const char *kUnrollThresholdPrivate = "1500";

/// Sets the threshold through LLVM's option registry (the back end reads it
/// as a command-line option) before every module: lld, linking in process,
/// parses its own options and so resets every LLVM option to its default
/// after each link. A value given on the command line holds for the first
/// module only, for the same reason.
void limitPrivateUnrolling() {
  auto options = llvm::cl::getRegisteredOptions();
  auto it = options.find("amdgpu-unroll-threshold-private");
  if (it != options.end() && it->second->getNumOccurrences() == 0)
    it->second->addOccurrence(0, it->first, kUnrollThresholdPrivate);
}

class RocdlTargetModel
    : public gpu::TargetAttrInterface::ExternalModel<RocdlTargetModel,
                                                     ROCDL::ROCDLTargetAttr> {
public:
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *module,
                    const gpu::TargetOptions &options) const {
    if (!module || !isa<gpu::GPUModuleOp>(module)) {
      if (module)
        module->emitError("#rocdl.target serializes only gpu.module ops");
      return std::nullopt;
    }
    limitPrivateUnrolling();
    InProcessLinkSerializer serializer(
        *module, cast<ROCDL::ROCDLTargetAttr>(attribute), options);
    serializer.init();
    return serializer.run();
  }

  Attribute createObject(Attribute attribute, Operation *module,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const {
    gpu::CompilationTarget format = options.getCompilationTarget();
    // Fatbin has no AMD meaning here: a code object is a binary.
    if (format > gpu::CompilationTarget::Binary)
      format = gpu::CompilationTarget::Binary;
    // The kernel table: names and, from a code object, its ELF metadata.
    gpu::KernelTableAttr kernels = ROCDL::getKernelMetadata(
        module, format == gpu::CompilationTarget::Binary
                    ? ArrayRef<char>(object)
                    : ArrayRef<char>());
    Builder builder(attribute.getContext());
    return builder.getAttr<gpu::ObjectAttr>(
        attribute, format,
        builder.getStringAttr(StringRef(object.data(), object.size())),
        DictionaryAttr(), kernels);
  }
};

} // namespace

void sift::registerGpuTargetModels(DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registry.addExtension(+[](MLIRContext *context, ROCDL::ROCDLDialect *) {
    ROCDL::ROCDLTargetAttr::attachInterface<RocdlTargetModel>(*context);
  });
}
