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

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

using namespace mlir;

namespace {

/// While it lives, the LLVM context's error diagnostics are kept instead of
/// printed: LLVM's default for an error with no handler is to print it and
/// exit(1), which the AMDGPU back end reaches for a kernel over its LDS or
/// register limits. Kept, they fail the serialization as compile errors of
/// the gpu.module, like any other.
class BackendErrors {
public:
  explicit BackendErrors(llvm::LLVMContext &context)
      : context_(context), previous_(context.getDiagnosticHandler()) {
    context_.setDiagnosticHandler(std::make_unique<Keeper>(errors_));
  }
  ~BackendErrors() { context_.setDiagnosticHandler(std::move(previous_)); }

  /// Emits the kept errors on `op`; false when there were any.
  bool check(Operation &op) const {
    for (const std::string &error : errors_)
      op.emitError() << "the AMDGPU backend: " << error;
    return errors_.empty();
  }

private:
  /// Keeps the errors' text; the other severities are dropped, as MLIR's
  /// serializer drops them.
  struct Keeper final : llvm::DiagnosticHandler {
    explicit Keeper(std::vector<std::string> &errors) : errors(errors) {}
    bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
      if (info.getSeverity() == llvm::DS_Error) {
        std::string text;
        llvm::raw_string_ostream os(text);
        llvm::DiagnosticPrinterRawOStream printer(os);
        info.print(printer);
        // A diagnostic with no source location starts with "<unknown>:0:0: ".
        llvm::StringRef line(text);
        line.consume_front("<unknown>:0:0: ");
        errors.push_back(line.str());
      }
      return true;
    }
    std::vector<std::string> &errors;
  };

  llvm::LLVMContext &context_;
  std::unique_ptr<llvm::DiagnosticHandler> previous_;
  std::vector<std::string> errors_;
};

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
    BackendErrors errors(llvmModule.getContext());
    if (options_.getCompilationTarget() == gpu::CompilationTarget::Assembly) {
      FailureOr<SmallVector<char, 0>> isa =
          moduleToObjectImpl(options_, llvmModule);
      if (!errors.check(getOperation()))
        return failure();
      return isa;
    }
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
    if (!errors.check(getOperation()))
      return failure();
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

/// The loop unroll thresholds the AMDGPU back end uses for loops that touch
/// private and workgroup memory. Their defaults (2700 and 1000) fully
/// unrolled a private_row top-k of 37 with k = 28 (register allocation
/// took 3.3 s of one kernel) and the workgroup-memory loops of a radix
/// sort's scatter kernel (1.1 s each, eight of them for i64 keys); with
/// 1500 and 300: 0.1 and 0.2 s. These were the 5-11 s tileandfuse/amdgpu
/// compiles of `harness --pipeline=all --random-config --seed=3003`.
constexpr std::pair<const char *, const char *> kUnrollThresholds[] = {
    {"amdgpu-unroll-threshold-private", "1500"},
    {"amdgpu-unroll-threshold-local", "300"},
};

/// Sets the thresholds through LLVM's option registry (the back end reads
/// them as command-line options) before every module: lld, linking in
/// process, parses its own options and so resets every LLVM option to its
/// default after each link. A value given on the command line holds for the
/// first module only, for the same reason.
void limitUnrolling() {
  auto options = llvm::cl::getRegisteredOptions();
  for (auto [name, value] : kUnrollThresholds) {
    auto it = options.find(name);
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      it->second->addOccurrence(0, it->first, value);
  }
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
    limitUnrolling();
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
