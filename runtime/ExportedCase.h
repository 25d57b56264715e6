//===- runtime/ExportedCase.h - A fuzz case carried by its artifact -------===//
//
// `harness fuzz --export-artifacts=DIR` writes one artifact per case and GPU
// run, with the case's inputs and reference outputs in it and, in the meta
// section, what sift-run needs to check and report it without the compiler:
// the case's seed and run, and the ulp tolerance of each output. The keys
// live here, next to the artifact, so the writer (harness) and the reader
// (sift-run) cannot disagree.
//
//   case.seed        decimal seed of the case
//   case.pipeline    tileandfuse | distribute | cpu
//   case.target      nvptx | amdgpu | host
//   case.chip        sm_90, gfx942, ...
//   case.inputs      the input data mode (mixed, ties, ...)
//   case.faults      comma-separated injected faults, may be empty
//   case.tolerances  comma-separated ulps per output (0 = exact bits)
//
// and, optional, what regenerates the case's program from its seed for a
// case folder (harness import) and what the static oracles said:
//
//   case.families       the campaign's families (sort,topk,nms)
//   case.bench          a benchmark program's name (gen::benchPrograms):
//                       the artifact carries no inputs or expected outputs,
//                       sift-run --bench makes them from the program
//   case.sizes          large: a case of `harness fuzz --sizes=large`,
//                       whose artifact carries no inputs or expected
//                       outputs either: sift-run regenerates the program
//                       from case.seed, case.families, case.exact-keys and
//                       the sizes, its inputs from case.inputs, and the
//                       reference's outputs (absent: default sizes)
//   case.exact-keys     1 when no inexact op fed a sort key or top-k input
//   case.static-verdict the verdict of the compile and static oracles
//
// `harness compile --emit=artifact --input=...` writes the same keys for a
// hand-written program, with two more and no case.seed:
//
//   case.program        the program's file name (its stem names the case)
//   case.expected       reference: expected/<i>.npy holds the reference's
//                       outputs; none: the program is outside the reference's
//                       reach and the artifact carries its inputs only, so a
//                       run is not compared (absent: reference, as in every
//                       fuzz export)
//   case.expected-note  with none: why there is no reference
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Artifact.h"
#include "support/Targets.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sift::rt {

struct ExportedCase {
  /// The fuzz case's seed; 0 and not stored for a hand-written program.
  uint64_t seed = 0;
  PipelineKind pipeline = PipelineKind::Cpu;
  TargetKind target = TargetKind::Host;
  std::string chip, inputs, faults;
  /// One per output when the artifact carries expected outputs, else none.
  std::vector<uint64_t> tolerances;
  /// A hand-written program's file name; empty for a fuzz export.
  std::string program;
  /// Whether the artifact carries the reference's outputs (case.expected).
  bool hasReference = true;
  /// Without a reference: why (case.expected-note).
  std::string noReferenceNote;
  /// A fuzz export's generator policy (case.families, case.exact-keys) and
  /// static verdict (case.static-verdict); empty when not recorded.
  std::string families, staticVerdict;
  bool exactKeys = false;
  /// A benchmark program's name (case.bench): inputs and expected outputs
  /// are not carried but made from it; empty for every other artifact.
  std::string bench;
  /// A fuzz export's size mode (case.sizes): "large" carries no inputs or
  /// expected outputs (sift-run regenerates them); empty for default sizes.
  std::string sizes;

  /// True when inputs and expected outputs are made on the GPU host
  /// (a benchmark, or large sizes) instead of carried.
  bool regenerated() const { return !bench.empty() || sizes == "large"; }

  /// "<seed>-<pipeline>-<target>", or for a hand-written program
  /// "<program stem>-<pipeline>-<target>": the CSV's case key (and an
  /// exported file's stem).
  std::string name() const;
};

/// Writes `info` into `artifact.meta`.
void setExportedCase(Artifact &artifact, const ExportedCase &info);

/// Reads the case back; an error names the key that is missing or bad. The
/// artifact must also carry its inputs and, unless case.expected is none,
/// its expected outputs with one tolerance per output.
Result<ExportedCase> getExportedCase(const Artifact &artifact);

} // namespace sift::rt
