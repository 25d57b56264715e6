//===- FuzzTarget.cpp - sift's libFuzzer target ---------------------------===//
//
// LLVMFuzzerTestOneInput reads the bytes as a case (FuzzInput.h) and gives
// it to the harness's own per-case function, runProgramCase, once per
// pipeline: the cpu pipeline compiles, runs on the host and compares with
// the reference; the GPU pipelines compile for nvptx and go through the
// static oracles. Any verdict other than `pass` is printed with its
// program and aborts, which is how libFuzzer learns an input is a finding
// (it saves it as crash-<hash>). A crash or hang inside the compiler ends
// the process by itself and libFuzzer reports it the same way.
//
// Environment: SIFT_FUZZ_PIPELINES (default "cpu,tileandfuse,distribute"),
// SIFT_FUZZ_INJECT (faults to inject, as --inject; default none).
//
//===----------------------------------------------------------------------===//

#include "harness/case/CaseRunner.h"
#include "harness/case/FuzzInput.h"
#include "harness/sut/sift/SiftCompiler.h"

#include "oracles/Verdict.h"
#include "pipelines/Target/Compile.h"
#include "runtime/Device.h"
#include "support/Text.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace sift;
using namespace sift::harness;

namespace {

struct FuzzState {
  SiftCompiler session;
  std::unique_ptr<rt::Device> device;
  std::vector<CaseOptions> runs;
};

FuzzState *state = nullptr;

[[noreturn]] void fatal(const std::string &message) {
  std::fprintf(stderr, "sift-fuzz: %s\n", message.c_str());
  std::exit(2);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  state = new FuzzState;
  auto device = rt::createDevice(rt::DeviceKind::Cpu);
  if (!device.ok())
    fatal(device.message());
  state->device = std::move(*device);
  const char *pipelines = std::getenv("SIFT_FUZZ_PIPELINES");
  const char *inject = std::getenv("SIFT_FUZZ_INJECT");
  FaultSet faults;
  if (inject && *inject)
    for (const std::string &name : splitFields(inject, ',')) {
      std::optional<Fault> fault = parseFault(name);
      if (!fault)
        fatal("SIFT_FUZZ_INJECT: unknown fault '" + name + "'");
      faults.insert(*fault);
    }
  for (const std::string &name :
       splitFields(pipelines && *pipelines ? pipelines
                                           : "cpu,tileandfuse,distribute",
                   ',')) {
    std::optional<PipelineKind> kind = parsePipelineKind(name);
    if (!kind || systemOf(*kind) != SystemKind::Sift)
      fatal("SIFT_FUZZ_PIPELINES: unknown pipeline '" + name +
            "' (cpu, tileandfuse, distribute)");
    CaseOptions options;
    options.pipeline = *kind;
    options.target =
        *kind == PipelineKind::Cpu ? TargetKind::Host : TargetKind::Nvptx;
    options.faults = faults;
    state->runs.push_back(options);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::optional<FuzzCase> c = fuzzCaseFromBytes(data, size);
  if (!c)
    return -1; // not a program: keep it out of the corpus
  for (const CaseOptions &options : state->runs) {
    CaseResult result = runProgramCase(state->session, *state->device,
                                       options, c->program, c->inputs, 0);
    if (result.verdict == oracle::Verdict::Pass)
      continue;
    std::fprintf(stderr, "sift-fuzz: %s on %s/%s at %s: %s\n%s\n",
                 std::string(oracle::toString(result.verdict)).c_str(),
                 std::string(toString(options.pipeline)).c_str(),
                 std::string(toString(options.target)).c_str(),
                 result.stage.text().c_str(), result.detail.c_str(),
                 result.mlir.c_str());
    std::fflush(stderr);
    std::abort();
  }
  return 0;
}
