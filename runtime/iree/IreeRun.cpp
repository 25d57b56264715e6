//===- runtime/iree/IreeRun.cpp - iree-compile and iree-run-module ----===//

#include "runtime/iree/IreeRun.h"

#include "support/Npy.h"
#include "support/Process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <thread>

namespace fs = std::filesystem;

namespace sift::rt {

std::vector<std::string> ireeTargetFlags(TargetKind target,
                                         const std::string &chip) {
  std::string name = chip.empty() ? std::string(defaultChip(target)) : chip;
  // f64 stays f64 (IREE demotes it to f32 by default; the model means it).
  const std::string keepF64 = "--iree-input-demote-f64-to-f32=false";
  switch (target) {
  case TargetKind::Host:
    return {"--iree-hal-target-device=local",
            "--iree-hal-local-target-device-backends=llvm-cpu",
            "--iree-llvmcpu-target-cpu=generic", keepF64};
  case TargetKind::Nvptx:
    return {"--iree-hal-target-device=cuda", "--iree-cuda-target=" + name,
            keepF64};
  case TargetKind::Amdgpu:
    return {"--iree-hal-target-device=hip", "--iree-rocm-target=" + name,
            keepF64};
  }
  return {};
}

ToolRun runTool(const std::vector<std::string> &args, double seconds) {
  ToolRun run;
  char log[] = "/tmp/sift-iree-XXXXXX";
  int fd = mkstemp(log);
  if (fd < 0) {
    run.output = std::string("mkstemp: ") + std::strerror(errno);
    return run;
  }
  pid_t pid = forkTiedChild();
  if (pid == 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    std::vector<char *> argv;
    for (const std::string &arg : args)
      argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fd);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(seconds);
  int status = 0;
  while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream in(log, std::ios::binary);
  run.output.assign(std::istreambuf_iterator<char>(in),
                    std::istreambuf_iterator<char>());
  unlink(log);
  if (pid > 0 && !run.timedOut && WIFEXITED(status))
    run.status = WEXITSTATUS(status);
  if (pid > 0 && !run.timedOut && WIFSIGNALED(status))
    run.signal = WTERMSIG(status);
  return run;
}

ToolRun ireeCompile(const IreeToolchain &iree, const std::string &mlirFile,
                    TargetKind target, const std::string &chip,
                    const std::vector<std::string> &extraFlags,
                    const std::string &workDir, double seconds,
                    IreeModule &module) {
  module.vmfb = (fs::path(workDir) / "module.vmfb").string();
  module.dumpDir = (fs::path(workDir) / "executables").string();
  std::vector<std::string> args = {iree.compile, mlirFile};
  for (const std::string &flag : ireeTargetFlags(target, chip))
    args.push_back(flag);
  args.push_back("--iree-hal-dump-executable-binaries-to=" + module.dumpDir);
  args.push_back("--iree-hal-dump-executable-intermediates-to=" +
                 module.dumpDir);
  args.insert(args.end(), extraFlags.begin(), extraFlags.end());
  args.push_back("-o");
  args.push_back(module.vmfb);
  return runTool(args, seconds);
}

std::string runFailure(const ToolRun &run) {
  // "c/runtime/src/...c:191: INVALID_ARGUMENT; input0 ..." -> the status
  // and its message, the line a signature can use.
  static const std::regex status(
      R"((CANCELLED|UNKNOWN|INVALID_ARGUMENT|DEADLINE_EXCEEDED|NOT_FOUND|)"
      R"(ALREADY_EXISTS|PERMISSION_DENIED|RESOURCE_EXHAUSTED|)"
      R"(FAILED_PRECONDITION|ABORTED|OUT_OF_RANGE|UNIMPLEMENTED|INTERNAL|)"
      R"(UNAVAILABLE|DATA_LOSS|UNAUTHENTICATED)\b.*)");
  std::string first =
      run.signal ? "iree-run-module was killed by signal " +
                       std::to_string(run.signal)
                 : "iree-run-module exited with status " +
                       std::to_string(run.status);
  std::smatch match;
  if (std::regex_search(run.output, match, status))
    first = "iree-run-module: " +
            match[0].str().substr(0, match[0].str().find('\n'));
  return first + "\n" + run.output;
}

Result<std::vector<HostTensor>>
ireeRunLocal(const IreeToolchain &iree, const IreeModule &module,
             const std::vector<HostTensor> &inputs, size_t outputCount,
             const std::string &workDir, double seconds) {
  return ireeRunModule(iree.runModule, "local-task", module.vmfb, inputs,
                       outputCount, workDir, seconds);
}

Result<std::vector<HostTensor>>
ireeRunModule(const std::string &runModule, const std::string &device,
              const std::string &vmfb, const std::vector<HostTensor> &inputs,
              size_t outputCount, const std::string &workDir, double seconds) {
  std::vector<std::string> args = {runModule, "--module=" + vmfb,
                                   "--device=" + device, "--function=main"};
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string file =
        (fs::path(workDir) / ("input" + std::to_string(i) + ".npy")).string();
    if (Status s = writeNpy(file, inputs[i]); !s)
      return s.error();
    args.push_back("--input=@" + file);
  }
  std::vector<std::string> outputs;
  for (size_t i = 0; i < outputCount; ++i) {
    outputs.push_back(
        (fs::path(workDir) / ("output" + std::to_string(i) + ".npy")).string());
    args.push_back("--output=@" + outputs.back());
  }
  ToolRun run = runTool(args, seconds);
  if (run.status != 0)
    return makeError(run.timedOut
                         ? std::string(kRunTimedOutPrefix) +
                               "the run did not finish in time; "
                               "iree-run-module was stopped at its limit of " +
                               std::to_string(static_cast<int>(seconds)) + " s"
                         : runFailure(run));
  std::vector<HostTensor> results;
  for (const std::string &file : outputs) {
    Result<HostTensor> tensor = readNpy(file);
    if (!tensor.ok())
      return makeError("iree-run-module's output: " + tensor.message());
    results.push_back(std::move(*tensor));
  }
  return results;
}

} // namespace sift::rt
