//===- tools/sift-run/main.cpp - Run exported cases on a GPU host ---------===//
//
// The GPU half of a split campaign: `harness fuzz --export-artifacts=DIR` on
// a host with LLVM writes artifacts that carry their inputs, reference
// outputs and tolerances; `sift-run DIR --device=cuda` on a GPU host without
// LLVM runs each twice (Runs.h: in worker processes), compares, and writes
// one CSV row per artifact (ResultsCsv.h), which `harness import` brings back
// into the findings.
//
// Artifacts of hand-written programs (`harness compile --emit=artifact
// --input=...`) run the same way; one whose program is outside the
// reference's reach carries no expected outputs (case.expected=none): its
// runs are checked against each other only. --output-dir writes every
// artifact's outputs as .npy files, named as `harness run` names them.
//
// Built in the runtime-only configuration: the standard library, the OS,
// CLI11 (header-only) and sift's support, runtime, generators and oracles;
// no LLVM.
//
//===----------------------------------------------------------------------===//

#include "tools/sift-run/Bench.h"
#include "tools/sift-run/IreeCases.h"
#include "tools/sift-run/SystemCases.h"
#include "tools/sift-run/Options.h"
#include "tools/sift-run/ResultsCsv.h"
#include "tools/sift-run/Runs.h"

#include "runtime/gpu/ModuleCache.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

using namespace sift;
using namespace sift::tools;
namespace fs = std::filesystem;

namespace {

/// With --resume: the artifacts an earlier run finished are not run again.
void skipFinished(const ResultsCsv &csv, std::vector<std::string> &files) {
  std::set<std::string> done;
  for (const Row &row : csv.kept())
    done.insert(row.file);
  size_t before = files.size();
  files.erase(std::remove_if(files.begin(), files.end(),
                             [&](const std::string &file) {
                               return done.count(file) > 0;
                             }),
              files.end());
  std::fprintf(stderr,
               "sift-run: resuming from %s: %zu rows kept%s, %zu of %zu "
               "artifacts to run\n",
               csv.partialPath().c_str(), csv.kept().size(),
               csv.droppedTornRow() ? " (a torn last row dropped)" : "",
               files.size(), before);
}

/// Prints the summary line; returns the exit code.
int summarize(const Options &options, const std::vector<Row> &rows,
              bool errors) {
  int pass = 0, unchecked = 0, findings = 0, unreadable = 0, unsupported = 0;
  double kernelMs = 0, loadMs = 0;
  int timed = 0;
  for (const Row &row : rows) {
    if (row.unreadable) {
      ++unreadable;
      std::fprintf(stderr, "sift-run: %s\n", row.detail.c_str());
    } else if (row.verdict == "unsupported") {
      ++unsupported; // the system's own word: counted, not a finding
    } else if (row.verdict == "pass") {
      ++pass;
      if (row.detail.rfind(kNoReferenceDetail, 0) == 0)
        ++unchecked;
    } else {
      ++findings;
    }
    if (!std::isnan(row.kernelMs)) {
      ++timed;
      kernelMs += row.kernelMs;
      loadMs += std::isnan(row.loadMs) ? 0 : row.loadMs;
    }
  }
  std::string uncheckedNote =
      unchecked > 0 ? " (" + std::to_string(unchecked) +
                          " of them without a reference: outputs not "
                          "compared)"
                    : "";
  std::string unsupportedNote =
      unsupported > 0 ? " unsupported=" + std::to_string(unsupported) : "";
  char times[128];
  if (timed > 0)
    std::snprintf(times, sizeof(times),
                  "kernel time %.3f ms, module load %.3f ms (totals)",
                  kernelMs, loadMs);
  else
    std::snprintf(times, sizeof(times),
                  "kernel time not measured (the %s device times no "
                  "kernels)",
                  std::string(rt::toString(options.device)).c_str());
  std::printf("sift-run: %zu artifacts on %s: pass=%d findings=%d "
              "unreadable=%d%s%s; %s; results in %s\n",
              rows.size(), std::string(rt::toString(options.device)).c_str(),
              pass, findings, unreadable, unsupportedNote.c_str(),
              uncheckedNote.c_str(), times, options.out.c_str());
  if (unreadable > 0 || errors)
    return 2;
  return findings > 0 ? 1 : 0;
}

/// Runs `files` (under the sanitizer with --sanitize) into `csv`.
Status runFiles(const Options &options, std::vector<std::string> files,
                ResultsCsv &csv, std::vector<Row> &rows,
                std::vector<std::string> &writeErrors, bool &deviceFailed) {
  if (files.empty())
    return Status::success();
  auto sink = [&](const Row &row) { return csv.append(row); };
  // IREE cases run through IREE's iree-run-module, sift's artifacts on
  // sift's runtime.
  std::vector<std::string> iree, systems, sift;
  for (const std::string &file : files)
    (isIreeCase(file) ? iree : isSystemCase(file) ? systems : sift)
        .push_back(file);
  if (Status s = runIreeCases(options, iree, rows, sink, writeErrors); !s)
    return s;
  // Systems described by files run their own commands.
  if (Status s = runSystemCases(options, systems, rows, sink); !s)
    return s;
  files = sift;
  if (files.empty())
    return Status::success();
  char self[4096] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (options.sanitize.empty() || length <= 0)
    return runAll(options, files, rows, sink, writeErrors, deviceFailed);
  return runSanitized(options, std::string(self, length), files, rows, sink);
}

} // namespace

/// --write-ptx: each distinct PTX module of `files` as DIR/<key>.ptx
/// (written whole, then renamed), and DIR/order.txt: the keys, one a line,
/// in the order runs of the folders side by side first need them (the
/// artifacts by file name, whatever their folder: a campaign's shards hold
/// every n-th artifact of one folder). Exit 0, or 2 when an artifact could
/// not be read or a module or the order not written (the others are still
/// written).
static int writePtxModules(const std::string &dir,
                           std::vector<std::string> files) {
  std::stable_sort(files.begin(), files.end(),
                   [](const std::string &a, const std::string &b) {
                     return std::filesystem::path(a).filename() <
                            std::filesystem::path(b).filename();
                   });
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "sift-run: --write-ptx: cannot create %s: %s\n",
                 dir.c_str(), ec.message().c_str());
    return 2;
  }
  int status = 0;
  std::set<std::string> keys;
  std::string order;
  for (const std::string &file : files) {
    Result<rt::Artifact> artifact = rt::readArtifact(file);
    if (!artifact.ok()) {
      std::fprintf(stderr, "sift-run: %s\n", artifact.message().c_str());
      status = 2;
      continue;
    }
    for (const rt::Executable &executable : artifact->executables) {
      if (executable.format != rt::ExecutableFormat::Ptx)
        continue;
      std::string key = rt::moduleKey(executable.binary);
      if (!keys.insert(key).second)
        continue;
      order += key + "\n";
      std::string path = dir + "/" + key + ".ptx";
      std::string partial = path + ".partial";
      std::FILE *out = std::fopen(partial.c_str(), "wb");
      bool written =
          out && std::fwrite(executable.binary.data(), 1,
                             executable.binary.size(),
                             out) == executable.binary.size();
      if (out && std::fclose(out) != 0)
        written = false;
      if (!written || std::rename(partial.c_str(), path.c_str()) != 0) {
        std::fprintf(stderr, "sift-run: --write-ptx: cannot write %s\n",
                     path.c_str());
        std::remove(partial.c_str());
        status = 2;
      }
    }
  }
  std::string orderPath = dir + "/order.txt";
  std::FILE *out = std::fopen((orderPath + ".partial").c_str(), "wb");
  bool written =
      out && std::fwrite(order.data(), 1, order.size(), out) == order.size();
  if (out && std::fclose(out) != 0)
    written = false;
  if (!written ||
      std::rename((orderPath + ".partial").c_str(), orderPath.c_str()) != 0) {
    std::fprintf(stderr, "sift-run: --write-ptx: cannot write %s\n",
                 orderPath.c_str());
    std::remove((orderPath + ".partial").c_str());
    status = 2;
  }
  std::printf("sift-run: %zu distinct PTX modules of %zu artifacts in %s\n",
              keys.size(), files.size(), dir.c_str());
  return status;
}

int main(int argc, char **argv) {
  Options options;
  if (int code = parseOptions(argc, argv, options); code >= 0)
    return code;
  std::vector<std::string> errors;
  std::vector<std::string> files = collectArtifacts(options.paths, errors);
  for (const std::string &error : errors)
    std::fprintf(stderr, "sift-run: %s\n", error.c_str());
  if (!options.writeBenchInputs.empty())
    return !errors.empty() ? 2 : writeBenchInputs(options.writeBenchInputs, files);
  if (!options.writePtx.empty()) {
    int status = writePtxModules(options.writePtx, files);
    return !errors.empty() ? 2 : status;
  }
  if (files.empty())
    return 2;
  if (options.benchRuns > 0)
    return runBench(options, files);
  auto results = ResultsCsv::open(
      options.out, std::string(rt::toString(options.device)), options.resume);
  if (!results.ok()) {
    std::fprintf(stderr, "sift-run: %s\n", results.message().c_str());
    return 2;
  }
  ResultsCsv &csv = **results;
  if (csv.resumed())
    skipFinished(csv, files);
  if (!options.outputDir.empty()) {
    std::error_code ec;
    fs::create_directories(options.outputDir, ec);
    if (ec) {
      std::fprintf(stderr, "sift-run: --output-dir=%s: %s\n",
                   options.outputDir.c_str(), ec.message().c_str());
      csv.abandon();
      return 2;
    }
  }
  std::vector<Row> ran;
  std::vector<std::string> writeErrors;
  bool deviceFailed = false;
  if (Status s = runFiles(options, files, csv, ran, writeErrors, deviceFailed);
      !s) {
    // A device that never opened ran nothing: no results file is left.
    bool removed = deviceFailed && csv.abandon();
    std::fprintf(stderr, "sift-run: %s%s\n", s.message().c_str(),
                 removed ? ""
                         : (" (the rows so far are in " + csv.partialPath() +
                            ")")
                               .c_str());
    return 2;
  }
  if (Status s = csv.finish(); !s) {
    std::fprintf(stderr, "sift-run: %s\n", s.message().c_str());
    return 2;
  }
  std::vector<Row> rows = csv.kept();
  rows.insert(rows.end(), ran.begin(), ran.end());
  int code = summarize(options, rows, !errors.empty() || !writeErrors.empty());
  for (const std::string &error : writeErrors)
    std::fprintf(stderr, "sift-run: --output-dir: %s\n", error.c_str());
  return code;
}
