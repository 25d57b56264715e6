//===- runtime/iree/IreeRun.h - iree-compile and iree-run-module -*- C++ -*-===//
//
// One program through IREE's tools, each a child process with a time bound:
// iree-compile for a target (llvm-cpu on the host, CUDA, ROCm), with the
// executables' binaries and intermediates dumped for the static oracles,
// then iree-run-module with .npy inputs and outputs on the local-task
// device. What a tool printed is kept for the finding's detail.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/iree/IreeToolchain.h"
#include "support/HostTensor.h"
#include "support/Result.h"
#include "support/Targets.h"

#include <string>
#include <vector>

namespace sift::rt {

/// iree-compile's flags for `target` and `chip` (empty: the target's
/// default): host is llvm-cpu (generic CPU), nvptx CUDA, amdgpu ROCm.
std::vector<std::string> ireeTargetFlags(TargetKind target,
                                         const std::string &chip);

/// A program IREE compiled: the module, and the folder of the dumped
/// executable binaries and intermediates.
struct IreeModule {
  std::string vmfb;
  std::string dumpDir;
};

/// What a tool did: its exit status (-1: it could not run or timed out,
/// `timedOut` set for the latter) and what it printed.
struct ToolRun {
  int status = -1;
  bool timedOut = false;
  /// The signal that killed the tool (a crash), 0 when none did.
  int signal = 0;
  std::string output;
};

/// Runs `args` (args[0] the program) with stdout and stderr captured, for
/// at most `seconds`.
ToolRun runTool(const std::vector<std::string> &args, double seconds);

/// What a failed iree-run-module said, its first line the status and
/// message (e.g. "iree-run-module: INVALID_ARGUMENT; input0 element type
/// mismatch; ..."), then everything it printed.
std::string runFailure(const ToolRun &run);

/// Compiles `mlirFile` for `target` into `workDir`/module.vmfb.
ToolRun ireeCompile(const IreeToolchain &iree, const std::string &mlirFile,
                    TargetKind target, const std::string &chip,
                    const std::vector<std::string> &extraFlags,
                    const std::string &workDir, double seconds,
                    IreeModule &module);

/// Runs @main of `module` on the local-task device with `inputs` (written
/// as .npy files into `workDir`) and reads its `outputCount` results. The
/// error carries what iree-run-module printed.
Result<std::vector<HostTensor>>
ireeRunLocal(const IreeToolchain &iree, const IreeModule &module,
             const std::vector<HostTensor> &inputs, size_t outputCount,
             const std::string &workDir, double seconds);

/// ireeRunLocal with the iree-run-module at `runModule` on `device`
/// ("local-task", "cuda", "hip"), for the module file `vmfb`.
Result<std::vector<HostTensor>>
ireeRunModule(const std::string &runModule, const std::string &device,
              const std::string &vmfb, const std::vector<HostTensor> &inputs,
              size_t outputCount, const std::string &workDir, double seconds);

/// Where an exported IREE case is: a folder NAME.ireecase holding
/// module.vmfb, case.json (the case's facts and its program model),
/// input<i>.npy and expected<i>.npy.
inline constexpr const char *kIreeCaseExtension = ".ireecase";

} // namespace sift::rt
