//===- tools/sift-run/Sanitize.cpp - Artifacts under compute-sanitizer ----===//
//
// --sanitize runs each artifact once as its own sift-run under NVIDIA's
// compute-sanitizer; an error it reports makes the row memcheck-error (for
// racecheck too), with the sanitizer's first report as the detail.
//
//===----------------------------------------------------------------------===//

#include "tools/sift-run/Runs.h"

#include "oracles/Verdict.h"
#include "support/Process.h"
#include "support/Text.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

constexpr int kSanitizerError = 86;

/// compute-sanitizer on PATH or in CUDA's usual place; empty if none.
std::string findSanitizer() {
  std::vector<std::string> places;
  if (const char *path = std::getenv("PATH"))
    places = splitFields(path, ':');
  places.push_back("/usr/local/cuda/bin");
  for (const std::string &dir : places) {
    std::string candidate = dir + "/compute-sanitizer";
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

/// Runs `args` with stdout and stderr to `log`; returns the wait status,
/// or -1 when it could not fork.
int runLogged(std::vector<std::string> args, const std::string &log) {
  pid_t pid = forkTiedChild();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    FILE *out = std::freopen(log.c_str(), "w", stdout);
    if (out)
      dup2(fileno(out), STDERR_FILENO);
    std::vector<char *> argv;
    for (std::string &arg : args)
      argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

/// The row the inner sift-run wrote to `csv` (header, then the artifact's
/// row: case, pipeline, target, device, verdict, kernel_ms,
/// module_load_ms, file, detail), or a row with only the file and name.
Row innerRow(const std::string &file, const std::string &csv) {
  Row row;
  row.file = file;
  row.name = fs::path(file).stem().string();
  std::ifstream in(csv, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  bool torn = false;
  std::vector<std::vector<std::string>> records = parseCsv(text, torn);
  if (records.size() >= 2 && records[1].size() == 9) {
    const std::vector<std::string> &f = records[1];
    row.name = f[0];
    row.pipeline = f[1];
    row.target = f[2];
    row.verdict = f[4];
    if (!parseTimeField(f[5], row.kernelMs))
      row.kernelMs = kNotMeasured;
    if (!parseTimeField(f[6], row.loadMs))
      row.loadMs = kNotMeasured;
    row.detail = f[8];
  }
  return row;
}

/// The sanitizer's first report line in `log`, or "".
std::string firstReport(const std::string &log) {
  std::ifstream report(log);
  std::string text;
  while (std::getline(report, text))
    if (text.find("=========") == 0 &&
        (text.find("ERROR") != std::string::npos ||
         text.find("Error") != std::string::npos ||
         text.find("Race") != std::string::npos ||
         text.find("Invalid") != std::string::npos))
      return text;
  return "";
}

/// Runs files[i] under `sanitizer`; its row.
Row sanitizeOne(const Options &options, const std::string &sanitizer,
                const std::string &self, const std::vector<std::string> &files,
                size_t i) {
  std::string csv = options.out + ".sanitize-" + std::to_string(i) + ".csv";
  std::string log = options.out + ".sanitize-" + std::to_string(i) + ".log";
  std::vector<std::string> args = {
      sanitizer, "--tool", options.sanitize, "--error-exitcode",
      std::to_string(kSanitizerError), "--print-limit", "5", self, files[i],
      "--device=" + std::string(rt::toString(options.device)), "--repeat=1",
      "--timeout=" + std::to_string(options.timeoutSeconds), "--out=" + csv};
  if (std::string dir = outputDirFor(options, files, i); !dir.empty())
    args.push_back("--output-dir=" + dir);
  int status = runLogged(args, log);
  Row row = innerRow(files[i], csv);
  std::remove((csv + ".partial").c_str());
  std::remove(csv.c_str());
  if (status >= 0 && WIFEXITED(status) &&
      WEXITSTATUS(status) == kSanitizerError) {
    std::string first = firstReport(log);
    row.verdict = std::string(oracle::toString(oracle::Verdict::MemcheckError));
    row.detail = "compute-sanitizer " + options.sanitize + ": " +
                 (first.empty() ? std::string("reported errors") : first) +
                 " (log " + log + ")";
    return row;
  }
  std::remove(log.c_str());
  if (row.verdict.empty()) {
    row.verdict = "runtime-error";
    row.detail = "the sanitized run gave no result (exit status " +
                 std::to_string(status >= 0 && WIFEXITED(status)
                                    ? WEXITSTATUS(status)
                                    : -1) +
                 ")";
  }
  return row;
}

} // namespace

Status runSanitized(const Options &options, const std::string &self,
                    const std::vector<std::string> &files,
                    std::vector<Row> &rows, const RowSink &sink) {
  std::string sanitizer = findSanitizer();
  if (sanitizer.empty())
    return makeError("--sanitize needs NVIDIA's compute-sanitizer (CUDA "
                     "toolkit) on PATH or in /usr/local/cuda/bin");
  rows.clear();
  for (size_t i = 0; i < files.size(); ++i) {
    Row row = sanitizeOne(options, sanitizer, self, files, i);
    std::fprintf(stderr, "[%zu/%zu] %s under %s: %s\n", i + 1, files.size(),
                 row.name.c_str(), options.sanitize.c_str(),
                 row.verdict.c_str());
    rows.push_back(row);
    if (Status s = sink(row); !s)
      return s;
  }
  return Status::success();
}

} // namespace sift::tools
