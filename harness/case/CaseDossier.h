//===- CaseDossier.h - What a finding's folder gives its reader -*- C++ -*-===//
//
// A finding's case folder is something a compiler engineer takes home: next
// to the program, the data and case.json, the campaign's writers add here
// what they open first and a script that shows the finding with `harness`
// alone, without the findings database:
//  - sift's GPU pipelines: case.json's "lowering" (and lowering.json): every
//    op's lowering config, drawn or default, which `harness compile --like`
//    or `--config` compiles again;
//  - sift's pipelines: ir-before-PASS.mlir and ir-after-PASS.mlir around
//    the pass a static, compile-crash or compile-timeout finding blames;
//    the final kernel.ptx, kernel.hsaco, host.so, emu-kernels.so of a case
//    that compiled;
//  - every system: repro.sh, which runs `harness check` on the folder (exit
//    1 while the finding is there, 0 once it is gone) and shows the
//    compiler's own command lines (harness compile, sift-run; iree-compile;
//    a system file's command).
// The case is compiled again in an isolated child (it may crash or hang as
// it did); what it writes is each file whole or nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/case/CaseResult.h"
#include "harness/case/Isolation.h"
#include "support/Result.h"

#include <string>

namespace sift::harness {

class Systems;

/// Adds the dossier of `result` (found under `options`) to its case folder
/// `folder`. An error says what could not be written; the folder stays a
/// whole case folder either way.
Status writeCaseDossier(Systems &systems, const std::string &folder,
                        const CaseResult &result, const CaseOptions &options,
                        const IsolationLimits &limits);

/// Writes `folder`/repro.sh for the case it holds (case.json read back).
Status writeReproScript(const std::string &folder);

/// The harness binary this process runs (for scripts it writes).
std::string harnessBinary();

} // namespace sift::harness
