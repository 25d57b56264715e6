//===- KeptCompile.h - What a compile keeps for a finding's reader -*- C++ -*-===//
//
// A finding's case folder holds what a compiler engineer opens first: the
// lowering configs every op was given (drawn from the case's seed or the
// default; case.json's "lowering", also lowering.json, which `--config`
// takes back), the module before and after the pass a finding blames, and
// the final binaries (PTX, HSACO, the host's shared object). The
// instrumentations here record them while a case is compiled again; the
// helpers read a lowering record back and force its configs on a module,
// so `harness compile --config` compiles exactly what a campaign did.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseResult.h"
#include "runtime/Artifact.h"
#include "support/Result.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sift::harness {

/// One op's lowering config, as strategy selection gave it.
struct LoweringChoice {
  std::string op;     ///< "sift.sort", "linalg.generic"
  std::string config; ///< "#sift.lowering_config<...>"
};

/// What a kept compile writes, and where.
struct KeepRequest {
  std::string folder;
  /// The pass whose input and output modules are kept
  /// (ir-before-PASS.mlir, ir-after-PASS.mlir); "" keeps none.
  std::string blamedPass;
};

/// Records, after every run of sift-select-lowering-strategy, the configs
/// it gave (ops in walk order; each run configures the ops created since).
std::unique_ptr<mlir::PassInstrumentation>
makeLoweringRecorder(std::vector<LoweringChoice> &choices);

/// Writes the whole module before every run of `request.blamedPass` and
/// after it (also after a failed run), into `request.folder`, until a run
/// after which `findingSeen()` holds: that run's modules stay. A run that
/// crashes or hangs leaves the module it started from.
std::unique_ptr<mlir::PassInstrumentation>
makeIrKeeper(const KeepRequest &request, std::function<bool()> findingSeen);

/// The lowering record of a case: how its configs were chosen ("random"
/// from "seed", or "default"), for which pipeline, target and chip, and
/// every op's config in order.
nlohmann::json loweringJson(const CaseOptions &options, uint64_t seed,
                            const std::vector<LoweringChoice> &choices);

/// The configs of a lowering record: a lowering.json, or a case.json with
/// one ("lowering"); the error names the file and what is wrong.
Result<std::vector<std::string>> readLoweringConfigs(const std::string &path);

/// Gives `module` the configs (sift.forced_configs): strategy selection
/// hands them to the ops it configures, in order. An error names the
/// config that does not parse.
Status forceLoweringConfigs(mlir::ModuleOp module,
                            const std::vector<std::string> &configs,
                            const std::string &source);

/// The file names an artifact's executables are kept under in a case
/// folder (kernel.ptx, kernel.hsaco, host.so, emu-kernels.so; numbered
/// when a format repeats), in the artifact's order.
std::vector<std::string> executableFileNames(const rt::Artifact &artifact);

/// Writes `artifact`'s executables into `folder` (executableFileNames;
/// every PTX module in one kernel.ptx, as `harness compile --emit=ptx`
/// prints them).
Status writeExecutables(const std::string &folder,
                        const rt::Artifact &artifact);

} // namespace sift::harness
