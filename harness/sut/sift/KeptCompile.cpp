//===- KeptCompile.cpp - What a compile keeps for a finding's reader ------===//

#include "harness/sut/sift/KeptCompile.h"

#include "pipelines/Dialect/SiftDialect.h"
#include "pipelines/Transforms/Passes.h"
#include "support/FileIO.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

constexpr const char *kSelectPass = "sift-select-lowering-strategy";

/// The ops strategy selection configures, in its walk order.
template <typename Fn> void walkConfigured(mlir::Operation *root, Fn fn) {
  root->walk([&](mlir::Operation *op) {
    if (!mlir::isa<SortOp, TopkOp, NmsPerClassOp, mlir::linalg::LinalgOp>(op))
      return;
    if (op->getParentOfType<mlir::scf::ForallOp>() ||
        op->getParentOfType<mlir::scf::ParallelOp>())
      return;
    if (mlir::Attribute config = op->getAttr("sift.lowering_config"))
      fn(op, config);
  });
}

class LoweringRecorder final : public mlir::PassInstrumentation {
public:
  explicit LoweringRecorder(std::vector<LoweringChoice> &choices)
      : choices_(choices) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (pass->getArgument() != kSelectPass)
      return;
    before_.clear();
    walkConfigured(op, [&](mlir::Operation *configured, mlir::Attribute) {
      before_.insert(configured);
    });
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    if (pass->getArgument() != kSelectPass)
      return;
    walkConfigured(op, [&](mlir::Operation *configured,
                           mlir::Attribute config) {
      if (before_.contains(configured))
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      config.print(os);
      choices_.push_back(
          {configured->getName().getStringRef().str(), os.str()});
    });
  }

private:
  std::vector<LoweringChoice> &choices_;
  llvm::DenseSet<mlir::Operation *> before_;
};

/// A pass name fit for a file name.
std::string fileSafe(const std::string &name) {
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'
               ? c
               : '_';
  return out;
}

class IrKeeper final : public mlir::PassInstrumentation {
public:
  IrKeeper(KeepRequest request, std::function<bool()> findingSeen)
      : request_(std::move(request)), findingSeen_(std::move(findingSeen)) {}
  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (!frozen_ && blamed(pass))
      keep("ir-before-", op);
  }
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    if (frozen_ || !blamed(pass))
      return;
    keep("ir-after-", op);
    frozen_ = findingSeen_ && findingSeen_();
  }
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *op) override {
    if (frozen_ || !blamed(pass))
      return;
    keep("ir-after-", op);
    frozen_ = true;
  }

private:
  bool blamed(mlir::Pass *pass) const {
    return !request_.blamedPass.empty() &&
           pass->getArgument() == request_.blamedPass;
  }
  void keep(const char *prefix, mlir::Operation *op) {
    mlir::Operation *top = op;
    while (top->getParentOp())
      top = top->getParentOp();
    std::string text;
    llvm::raw_string_ostream os(text);
    top->print(os, mlir::OpPrintingFlags().printGenericOpForm(false));
    os.flush();
    std::string path = (fs::path(request_.folder) /
                        (prefix + fileSafe(request_.blamedPass) + ".mlir"))
                           .string();
    (void)writeFileAtomic(path, reinterpret_cast<const uint8_t *>(text.data()),
                          text.size());
  }

  KeepRequest request_;
  std::function<bool()> findingSeen_;
  bool frozen_ = false;
};

} // namespace

std::unique_ptr<mlir::PassInstrumentation>
makeLoweringRecorder(std::vector<LoweringChoice> &choices) {
  return std::make_unique<LoweringRecorder>(choices);
}

std::unique_ptr<mlir::PassInstrumentation>
makeIrKeeper(const KeepRequest &request, std::function<bool()> findingSeen) {
  return std::make_unique<IrKeeper>(request, std::move(findingSeen));
}

nlohmann::json loweringJson(const CaseOptions &options, uint64_t seed,
                            const std::vector<LoweringChoice> &choices) {
  nlohmann::json ops = nlohmann::json::array();
  for (const LoweringChoice &choice : choices)
    ops.push_back({{"op", choice.op}, {"config", choice.config}});
  nlohmann::json record = {
      {"pipeline", pipelineName(options)},
      {"target", std::string(toString(options.target))},
      {"chip", options.chip.empty() ? std::string(defaultChip(options.target))
                                    : options.chip},
      {"strategy", options.loweringConfigs.empty()
                       ? (options.randomConfig ? "random" : "default")
                       : "given"},
      {"ops", ops},
  };
  if (options.randomConfig && options.loweringConfigs.empty())
    record["seed"] = seed;
  return record;
}

Result<std::vector<std::string>> readLoweringConfigs(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  if (!bytes.ok())
    return makeError(path + ": cannot read the lowering configs: " +
                     bytes.message());
  nlohmann::json record = nlohmann::json::parse(bytes->begin(), bytes->end(),
                                                nullptr, false);
  if (record.is_discarded() || !record.is_object())
    return makeError(path + ": not a JSON object (a lowering.json, or a "
                            "case.json with \"lowering\")");
  if (record.contains("lowering"))
    record = record["lowering"];
  if (!record.is_object() || !record.contains("ops") ||
      !record["ops"].is_array())
    return makeError(path + ": has no \"ops\" list of lowering configs "
                            "(a case of the cpu pipeline, or one written "
                            "before cases recorded them, has none)");
  std::vector<std::string> configs;
  for (const nlohmann::json &op : record["ops"]) {
    if (!op.is_object() || !op.contains("config") ||
        !op["config"].is_string())
      return makeError(path + ": ops[" + std::to_string(configs.size()) +
                       "] has no \"config\" string");
    configs.push_back(op["config"].get<std::string>());
  }
  return configs;
}

Status forceLoweringConfigs(mlir::ModuleOp module,
                            const std::vector<std::string> &configs,
                            const std::string &source) {
  mlir::MLIRContext *context = module->getContext();
  llvm::SmallVector<mlir::Attribute> attrs;
  for (size_t i = 0; i < configs.size(); ++i) {
    mlir::Attribute attr = mlir::parseAttribute(configs[i], context);
    if (!attr || !mlir::isa<LoweringConfigAttr>(attr))
      return makeError(source + ": ops[" + std::to_string(i) + "]'s config '" +
                       configs[i] + "' is not a #sift.lowering_config");
    attrs.push_back(attr);
  }
  module->setAttr(kForcedConfigsAttr, mlir::ArrayAttr::get(context, attrs));
  return Status::success();
}

std::vector<std::string> executableFileNames(const rt::Artifact &artifact) {
  std::map<rt::ExecutableFormat, int> seen, total;
  for (const rt::Executable &executable : artifact.executables)
    ++total[executable.format];
  std::vector<std::string> names;
  for (const rt::Executable &executable : artifact.executables) {
    std::string stem, extension;
    switch (executable.format) {
    case rt::ExecutableFormat::Ptx: stem = "kernel", extension = ".ptx"; break;
      // (writeExecutables keeps every PTX module in one kernel.ptx)
    case rt::ExecutableFormat::Hsaco:
      stem = "kernel", extension = ".hsaco";
      break;
    case rt::ExecutableFormat::HostSharedObject:
      stem = "host", extension = ".so";
      break;
    case rt::ExecutableFormat::EmuSharedObject:
      stem = "emu-kernels", extension = ".so";
      break;
    }
    int index = seen[executable.format]++;
    if (total[executable.format] > 1)
      stem += "-" + std::to_string(index);
    names.push_back(stem + extension);
  }
  return names;
}

Status writeExecutables(const std::string &folder,
                        const rt::Artifact &artifact) {
  std::vector<std::string> names = executableFileNames(artifact);
  // PTX is text: every kernel module in one kernel.ptx, each after a line
  // naming its entries (as harness compile --emit=ptx prints them).
  std::string ptx;
  for (const rt::Executable &executable : artifact.executables)
    if (executable.format == rt::ExecutableFormat::Ptx) {
      std::string entries;
      for (const std::string &entry : executable.entries)
        entries += (entries.empty() ? "" : ", ") + entry;
      ptx += "// sift executable for " + entries + "\n";
      ptx.append(executable.binary.begin(), executable.binary.end());
    }
  if (!ptx.empty())
    if (Status s = writeFileAtomic((fs::path(folder) / "kernel.ptx").string(),
                                   reinterpret_cast<const uint8_t *>(
                                       ptx.data()),
                                   ptx.size());
        !s.ok())
      return s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (artifact.executables[i].format == rt::ExecutableFormat::Ptx)
      continue;
    const std::vector<uint8_t> &binary = artifact.executables[i].binary;
    if (Status s = writeFileAtomic((fs::path(folder) / names[i]).string(),
                                   binary.data(), binary.size());
        !s.ok())
      return s;
  }
  return Status::success();
}

} // namespace sift::harness
