//===- harness/report/BenchFindings.cpp - A bench table's findings --------===//

#include "harness/report/BenchFindings.h"

#include "harness/case/CaseFolder.h"
#include "harness/commands/Commands.h"
#include "harness/store/FindingStore.h"

#include "generators/BenchPrograms.h"
#include "support/FileIO.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <optional>

namespace fs = std::filesystem;

namespace sift::harness {

namespace {

/// "topk-1024x1024-k8" as words a signature keeps apart by family only:
/// "topk [1024, 1024] k = 8" (numbers become N in signatures; slashes
/// and dashes would read as paths and signs).
std::string benchWords(const gen::BenchProgram &bench) {
  const gen::Program &p = bench.program;
  const gen::TensorType &in = p.values[static_cast<size_t>(p.inputs[0])];
  std::string shape;
  for (size_t i = 0; i < in.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(in.shape[i]);
  std::string text = std::string(gen::toString(bench.family)) + " [" + shape +
                     "]";
  if (bench.family == gen::Family::TopK)
    text += " k = " + std::to_string(p.ops[0].k);
  return text;
}

/// The finding of a run of the table that is not a pass (a slow kernel, a
/// wrong answer, a hang, a crash, a compile failure), or nullopt. Its
/// detail names the benchmark, so a signature is a (family, pipeline,
/// verdict) after numbers are normalized; a slow kernel's first line is
/// the same whether its runs finished or not (the time is on the second).
std::optional<CaseResult> benchFinding(const BenchRow &row, double factor) {
  std::optional<gen::BenchProgram> bench = gen::findBenchProgram(row.bench);
  std::optional<PipelineKind> pipeline = parsePipelineKind(row.impl);
  std::optional<TargetKind> target = parseTargetKind(row.target);
  std::optional<oracle::Verdict> verdict =
      row.slow ? oracle::Verdict::SlowKernel : oracle::parseVerdict(row.verdict);
  if (!bench || !pipeline || !target || !verdict ||
      !oracle::isFinding(*verdict))
    return std::nullopt;
  CaseResult result;
  result.seed = bench->seed;
  result.pipeline = *pipeline;
  result.target = *target;
  result.verdict = *verdict;
  bool compile = *verdict == oracle::Verdict::CompileError ||
                 *verdict == oracle::Verdict::CompileCrash;
  result.stage = Stage(compile ? Step::Compile : Step::Run, "bench");
  std::string what = benchWords(*bench) + " on " + row.impl + " for " +
                     row.target;
  char text[320];
  if (row.slow && row.medianMs <= 0)
    std::snprintf(text, sizeof(text),
                  "%s: a slow kernel, over %.0fx the best vendor baseline\n"
                  "did not finish in %.0f ms: over %.0fx",
                  what.c_str(), factor, row.atLeastMs, row.ratio);
  else if (row.slow)
    std::snprintf(text, sizeof(text),
                  "%s: a slow kernel, over %.0fx the best vendor baseline\n"
                  "median %.3f ms: %.0fx",
                  what.c_str(), factor, row.medianMs, row.ratio);
  else
    std::snprintf(text, sizeof(text), "%s: %s", what.c_str(),
                  row.detail.c_str());
  result.detail = text;
  return result;
}

/// A slow kernel's reduced case for the GPU host: the exported run of its
/// smallest slow rung, what was measured (slow-kernel.json) and how to time
/// it again (repro.sh), written under a temporary name, then renamed. The
/// folder, or "" when the kernel was not reduced or the rung's exported
/// file is not at hand.
Result<std::string> writeSlowCase(const std::string &findingsDir,
                                  const BenchTable &table, const BenchRow &row,
                                  int64_t runId) {
  const BenchRow *rung = nullptr;
  for (const BenchRow &r : table.rows)
    if (!row.reducedTo.empty() && r.bench == row.reducedTo &&
        r.impl == row.impl && r.target == row.target)
      rung = &r;
  std::error_code ec;
  if (!rung || rung->file.empty() || !fs::exists(rung->file, ec))
    return std::string();
  fs::path cases = fs::path(findingsDir) / "cases";
  std::string name = "slow-" + row.bench + "-" + row.impl + "-" + row.target +
                     "-run" + std::to_string(runId);
  fs::path temporary = cases / (".tmp-" + name), final = cases / name;
  fs::remove_all(temporary, ec);
  fs::create_directories(temporary, ec);
  std::string file = fs::path(rung->file).filename().string();
  fs::copy(rung->file, temporary / file, fs::copy_options::recursive, ec);
  if (ec)
    return makeError(rung->file + ": cannot copy into " + temporary.string() +
                     ": " + ec.message());
  nlohmann::json facts = {
      {"verdict", "slow-kernel"},       {"bench", row.bench},
      {"implementation", row.impl},     {"target", row.target},
      {"median_ms", row.medianMs},      {"at_least_ms", row.atLeastMs},
      {"ratio", row.ratio},             {"slow_factor", table.slowFactor},
      {"reduced_to", row.reducedTo},    {"reduced_median_ms", rung->medianMs},
      {"reduced_at_least_ms", rung->atLeastMs},
      {"reduced_ratio", row.reducedRatio}, {"fast_at", row.fastAt},
      {"fast_ratio", row.fastRatio},    {"file", file}};
  bool iree = file.size() > 9 && file.substr(file.size() - 9) == ".ireecase";
  std::string device = row.target == "host"      ? "cpu"
                       : row.target == "amdgpu" ? "hip"
                                                : "cuda";
  std::string repro =
      "#!/bin/sh\n# Times this slow kernel's reduced case on the GPU host, "
      "from sift's checkout;\n# compare with the vendors' on the same "
      "shape (scripts/bench-gpu.sh).\nexec build/tools/sift-run \"$(dirname "
      "\"$0\")/" + file + "\" --device=" + device + " --bench=10 --warmup=2 "
      "--bench-out=slow-kernel-bench.json" +
      (iree ? " --iree-run-module=.deps/iree/iree-run-module" : "") + "\n";
  std::string text = facts.dump(1) + "\n";
  for (const auto &[leaf, body] :
       {std::pair<std::string, std::string>{"slow-kernel.json", text},
        {"repro.sh", repro}})
    if (Status st = writeFileAtomic(
            (temporary / leaf).string(),
            reinterpret_cast<const uint8_t *>(body.data()), body.size());
        !st.ok())
      return st.error();
  fs::permissions(temporary / "repro.sh", fs::perms::owner_exec,
                  fs::perm_options::add, ec);
  fs::remove_all(final, ec);
  fs::rename(temporary, final, ec);
  if (ec)
    return makeError(final.string() + ": cannot write the case folder: " +
                     ec.message());
  return final.string();
}

} // namespace

Status recordBenchFindings(const BenchTable &table,
                           const std::string &findingsDir,
                           const std::string &command) {
  auto store = FindingStore::open(findingsDir);
  if (!store.ok())
    return store.error();
  RunInfo info;
  info.command = command;
  info.pipeline = "bench";
  auto run = (*store)->beginRun(info);
  if (!run.ok())
    return run.error();
  int64_t findings = 0;
  for (const BenchRow &row : table.rows) {
    // A ladder's rungs are the reductions of the fixed runs' findings.
    std::optional<CaseResult> finding =
        row.rung ? std::nullopt : benchFinding(row, table.slowFactor);
    if (!finding)
      continue;
    Result<std::string> caseDir =
        row.slow ? writeSlowCase(findingsDir, table, row, *run)
                 : Result<std::string>(std::string());
    if (!caseDir.ok())
      return caseDir.error();
    CaseOptions options;
    options.pipeline = finding->pipeline;
    options.target = finding->target;
    std::string repro = "harness bench --export=DIR --bench=" + row.bench +
                        " --pipeline=" + row.impl + " --target=" + row.target +
                        " && scripts/bench-gpu.sh DIR (on the GPU host)";
    if (!caseDir->empty())
      repro = *caseDir + "/repro.sh (on the GPU host)";
    if (auto s = (*store)->recordFinding(*run, *finding, options, repro,
                                         *caseDir);
        !s.ok())
      return s.error();
    ++findings;
  }
  return (*store)->endRun(*run, static_cast<int64_t>(table.rows.size()),
                          findings, 0);
}

std::string slowKernelSignature(const BenchRow &row, double slowFactor) {
  BenchRow slow = row;
  slow.slow = true;
  std::optional<CaseResult> finding = benchFinding(slow, slowFactor);
  return finding ? findingSignature(*finding) : std::string();
}

} // namespace sift::harness
