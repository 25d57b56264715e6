//===- CaseRunner.h - One fuzz case from seed to verdict --------*- C++ -*-===//
//
// The per-case function every driver shares (the fuzz loop, replay,
// reduction and the libFuzzer target): generate a program and its data
// from a seed, evaluate the reference on the model, have the system under
// test compile it (and check it statically) and run it on a device, and
// compare. The first failing step decides the verdict.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseResult.h"
#include "harness/sut/SystemUnderTest.h"
#include "runtime/Device.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sift::harness {

/// A case not compiled here: the program, its inputs, its text and the
/// reference's outputs, the rest left for the caller (a case folder written
/// from what an isolated child reported).
CaseResult uncompiledCase(const CaseOptions &options, uint64_t seed,
                          gen::Program program, std::vector<HostTensor> inputs);

/// Generates, compiles, runs and checks the case of `seed` with `system`.
/// GPU pipelines go through the static oracles first; they run only when
/// `device` runs their target (SystemUnderTest::runsOn), twice: outputs
/// that differ from the reference are a `mismatch`, a second run
/// (queue-ordered buffers, outputs exported as DLPack) that differs from the
/// first is `nondeterministic`.
CaseResult runGeneratedCase(SystemUnderTest &system, rt::Device &device,
                            const CaseOptions &options, uint64_t seed);

/// Compiles, runs and checks a given program model with given inputs (used by
/// runGeneratedCase and by tests with hand-made programs).
CaseResult runProgramCase(SystemUnderTest &system, rt::Device &device,
                          const CaseOptions &options, gen::Program program,
                          std::vector<HostTensor> inputs, uint64_t seed);

} // namespace sift::harness
