//===- tools/sift-run/main.cpp - Run exported cases on a GPU host ---------===//
//
// The GPU half of a split campaign: `harness fuzz --export-artifacts=DIR` on
// a host with LLVM writes artifacts that carry their inputs, reference
// outputs and tolerances; `sift-run DIR --device=cuda` on a GPU host without
// LLVM runs each twice, compares, and writes one CSV row per artifact
// (case, pipeline, device, verdict, kernel time, module load time), which
// `harness import` brings back into the findings.
//
// Artifacts of hand-written programs (`harness compile --emit=artifact
// --input=...`) run the same way; one whose program is outside the
// reference's reach carries no expected outputs (case.expected=none): its
// runs are checked against each other only, and its row passes with a
// detail that says it was not compared. --output-dir writes every
// artifact's outputs as .npy files, named as `harness run` names them.
//
// The artifacts run in a worker process: the parent survives a kernel that
// never finishes (the worker is killed after --timeout and the case is
// `run-timeout`) or a worker that dies (`runtime-error`); a fresh worker
// takes the remaining artifacts. A runtime error also ends its worker, since
// a GPU context that faulted is not trusted with the next case.
//
// Built in the runtime-only configuration: standard library, the OS, and
// sift's runtime, generators and oracles (no LLVM, no CLI11).
//
//===----------------------------------------------------------------------===//

#include "oracles/Compare.h"
#include "oracles/Verdict.h"
#include "runtime/Device.h"
#include "runtime/ExportedCase.h"
#include "runtime/Runner.h"
#include "runtime/gpu/GpuDriver.h"
#include "support/Npy.h"
#include "support/Process.h"
#include "support/Text.h"
#include "tools/sift-run/ResultsCsv.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace sift;
using namespace sift::tools;
namespace fs = std::filesystem;

namespace {

constexpr const char *kUsage =
    "usage: sift-run PATH... [--device=cuda|hip|cpu] [--out=FILE.csv]\n"
    "                [--output-dir=DIR] [--timeout=SECONDS] [--repeat=N]\n"
    "                [--inject=FAULT,...] [--device-lead-allocator=N]\n"
    "                [--sanitize=memcheck|racecheck] [--resume]\n"
    "Runs the artifacts written by 'harness fuzz --export-artifacts=DIR' or\n"
    "'harness compile --emit=artifact --input=...' (PATH: a directory of\n"
    ".siftart files, or such files), compares each with the reference\n"
    "outputs it carries and writes one CSV row per artifact. An artifact\n"
    "without reference outputs (case.expected=none: a program outside the\n"
    "reference's reach) is only checked for runs that agree: its row is\n"
    "pass with the detail 'no reference: outputs not compared'.\n"
    "--output-dir=DIR writes the first run's outputs as DIR/result0.npy,\n"
    "DIR/result1.npy, ... (with several artifacts DIR/<file stem>/result0.npy\n"
    "...), each file atomically.\n"
    "Odd runs allocate in order; even runs allocate queue-ordered and export\n"
    "every output as DLPack. Runtime faults: export-device-local,\n"
    "alloc-select-first. --sanitize runs each artifact once under NVIDIA's\n"
    "compute-sanitizer; an error it reports makes the row memcheck-error\n"
    "(for racecheck too), with the sanitizer's first report as the detail.\n"
    "Sanitizers slow kernels 10-100x: raise --timeout with them.\n"
    "Rows go to FILE.csv.partial as artifacts finish, and it becomes\n"
    "FILE.csv at the end; after a stopped run, --resume keeps its rows and\n"
    "runs only the artifacts it had not finished.\n"
    "Exit: 0 all pass, 1 findings, 2 bad usage, unreadable artifacts or\n"
    "outputs that could not be written to --output-dir.\n";

struct Options {
  std::vector<std::string> paths;
  rt::DeviceKind device = rt::DeviceKind::Cuda;
  std::string out = "sift-run.csv";
  /// Where outputs are written as .npy files; empty: nowhere.
  std::string outputDir;
  double timeoutSeconds = 30;
  int repeat = 2;
  FaultSet faults;
  std::string leadAllocator;
  std::string sanitize; ///< memcheck | racecheck; empty: none
  /// Go on from the rows of OUT.partial that a stopped run left.
  bool resume = false;
};

struct UsageError {
  std::string message;
};

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) -> std::optional<std::string> {
      std::string prefix = std::string(flag) + "=";
      if (arg.rfind(prefix, 0) == 0)
        return arg.substr(prefix.size());
      return std::nullopt;
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (auto v = value("--device")) {
      std::optional<rt::DeviceKind> kind = rt::parseDeviceKind(*v);
      if (!kind)
        throw UsageError{"unknown device '" + *v +
                         "'; valid devices: cpu, cuda, hip"};
      options.device = *kind;
    } else if (auto v = value("--out")) {
      options.out = *v;
    } else if (auto v = value("--output-dir")) {
      if (v->empty())
        throw UsageError{"--output-dir needs a folder"};
      options.outputDir = *v;
    } else if (auto v = value("--timeout")) {
      char *end = nullptr;
      options.timeoutSeconds = std::strtod(v->c_str(), &end);
      if (v->empty() || *end != '\0' || !(options.timeoutSeconds > 0))
        throw UsageError{"--timeout needs a positive number of seconds, got '" +
                         *v + "'"};
    } else if (auto v = value("--repeat")) {
      char *end = nullptr;
      long repeat = std::strtol(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || repeat < 1 || repeat > 100)
        throw UsageError{"--repeat needs a count from 1 to 100, got '" + *v +
                         "'"};
      options.repeat = static_cast<int>(repeat);
    } else if (auto v = value("--inject")) {
      for (const std::string &name : splitFields(*v, ',')) {
        std::optional<Fault> fault = parseFault(name);
        if (!fault || (*fault != Fault::ExportDeviceLocal &&
                       *fault != Fault::AllocSelectFirst))
          throw UsageError{"--inject: '" + name +
                           "' is not a runtime fault; sift-run injects "
                           "export-device-local and alloc-select-first"};
        options.faults.insert(*fault);
      }
    } else if (auto v = value("--device-lead-allocator")) {
      // sift-run drives one device: only ordinal 0 exists.
      if (Result<int> lead = rt::parseLeadAllocator(*v, 1); !lead.ok())
        throw UsageError{lead.message()};
      options.leadAllocator = *v;
    } else if (auto v = value("--sanitize")) {
      if (*v != "memcheck" && *v != "racecheck")
        throw UsageError{"--sanitize takes memcheck or racecheck, got '" + *v +
                         "'"};
      options.sanitize = *v;
    } else if (arg == "--resume") {
      options.resume = true;
    } else if (arg.rfind("--", 0) == 0) {
      throw UsageError{"unknown option '" + arg + "'"};
    } else {
      options.paths.push_back(arg);
    }
  }
  if (options.paths.empty())
    throw UsageError{"no artifacts given"};
  if (!options.outputDir.empty()) {
    std::error_code ec;
    if (fs::exists(options.outputDir, ec) &&
        !fs::is_directory(options.outputDir, ec))
      throw UsageError{"--output-dir=" + options.outputDir +
                       ": exists and is not a folder"};
  }
  return options;
}

/// The artifact files of `paths`: directories contribute their *.siftart
/// files in name order.
std::vector<std::string> collectArtifacts(const std::vector<std::string> &paths,
                                          std::vector<std::string> &errors) {
  std::vector<std::string> files;
  for (const std::string &path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const fs::directory_entry &entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".siftart")
          found.push_back(entry.path().string());
      if (ec)
        errors.push_back(path + ": cannot list the directory: " + ec.message());
      std::sort(found.begin(), found.end());
      if (found.empty() && !ec)
        errors.push_back(path + ": no .siftart files in the directory");
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, ec)) {
      files.push_back(path);
    } else {
      errors.push_back(path + ": no such file or directory");
    }
  }
  return files;
}

/// The detail of a row that passed without a reference to compare with.
constexpr const char *kNoReferenceDetail = "no reference: outputs not compared";

/// Writes `outputs` as `dir`/result<i>.npy, each atomically.
Status writeOutputs(const std::string &dir,
                    const std::vector<HostTensor> &outputs) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return makeError(dir + ": cannot create the folder: " + ec.message());
  for (size_t i = 0; i < outputs.size(); ++i)
    if (Status s = writeNpy(
            (fs::path(dir) / ("result" + std::to_string(i) + ".npy")).string(),
            outputs[i]);
        !s)
      return s;
  return Status::success();
}

/// Runs one artifact `repeat` times on `device` and decides its verdict.
/// When `outputDir` is not empty the first run's outputs are written there
/// (failing that, `writeError` says why).
Row runOne(rt::Device &device, const std::string &file, const Options &options,
           const std::string &outputDir, std::string &writeError) {
  int repeat = options.repeat;
  Row row;
  row.file = file;
  row.name = fs::path(file).stem().string();
  Result<rt::Artifact> artifact = rt::readArtifact(file);
  if (!artifact.ok()) {
    row.unreadable = true;
    row.verdict = "unreadable";
    row.detail = artifact.message();
    return row;
  }
  Result<rt::ExportedCase> info = rt::getExportedCase(*artifact);
  if (!info.ok()) {
    row.unreadable = true;
    row.verdict = "unreadable";
    row.detail = file + ": " + info.message();
    return row;
  }
  row.name = info->name();
  row.pipeline = info->pipeline;
  row.target = info->target;
  std::vector<std::vector<HostTensor>> runs;
  for (int r = 0; r < repeat; ++r) {
    rt::GpuTimes before = rt::gpuTimes(device);
    // Even runs: queue-ordered buffers, every output exported as DLPack.
    rt::PlanRunOptions runOptions = rt::repeatedRunOptions(r);
    runOptions.faults = options.faults;
    if (!options.leadAllocator.empty())
      runOptions.allocatorPolicy =
          rt::leadAllocatorPolicy(std::stoi(options.leadAllocator));
    Result<std::vector<HostTensor>> outputs =
        rt::runPlan({&device}, *artifact, artifact->inputs, runOptions);
    rt::GpuTimes after = rt::gpuTimes(device);
    if (r == 0) {
      row.kernelMs = (after.kernels - before.kernels).count() / 1e6;
      row.loadMs = (after.moduleLoad - before.moduleLoad).count() / 1e6;
    }
    if (!outputs.ok()) {
      row.verdict = "runtime-error";
      row.detail = outputs.message();
      return row;
    }
    runs.push_back(std::move(*outputs));
    if (r == 0 && !outputDir.empty())
      if (Status s = writeOutputs(outputDir, runs[0]); !s)
        writeError = s.message();
  }
  if (info->hasReference)
    if (auto mismatch = oracle::compareOutputs(info->tolerances,
                                               artifact->expected, runs[0])) {
      row.verdict = "mismatch";
      row.detail = mismatch->message;
      return row;
    }
  for (size_t r = 1; r < runs.size(); ++r)
    if (auto differ = oracle::compareOutputs(
            std::vector<uint64_t>(runs[0].size(), 0), runs[0], runs[r])) {
      row.verdict = "nondeterministic";
      row.detail = "run " + std::to_string(r + 1) + " differs from run 1: " +
                   differ->message;
      return row;
    }
  row.verdict = "pass";
  if (!info->hasReference)
    row.detail =
        std::string(kNoReferenceDetail) +
        (info->noReferenceNote.empty() ? std::string()
                                       : " (" + info->noReferenceNote + ")");
  return row;
}

/// Where artifact `index` of `files` writes its outputs: the --output-dir
/// itself for a single artifact, else a folder named after the file.
std::string outputDirFor(const Options &options,
                         const std::vector<std::string> &files, size_t index) {
  if (options.outputDir.empty())
    return "";
  if (files.size() == 1)
    return options.outputDir;
  return (fs::path(options.outputDir) / fs::path(files[index]).stem()).string();
}

/// The worker: creates the device, runs files[first..] and writes one line
/// per file to `fd`; exits after a runtime error.
[[noreturn]] void worker(const Options &options,
                         const std::vector<std::string> &files, size_t first,
                         int fd) {
  FILE *out = fdopen(fd, "w");
  Result<std::unique_ptr<rt::Device>> device = rt::createDevice(options.device);
  if (!device.ok()) {
    std::fprintf(out, "device\t%s\n", oneLine(device.message()).c_str());
    std::fflush(out);
    _exit(3);
  }
  for (size_t i = first; i < files.size(); ++i) {
    std::string writeError;
    Row row = runOne(**device, files[i], options,
                     outputDirFor(options, files, i), writeError);
    if (!writeError.empty())
      std::fprintf(out, "write\t%s\n", oneLine(writeError).c_str());
    std::fprintf(out, "%zu\t%s\t%s\t%s\t%s\t%.6f\t%.6f\t%d\t%s\n", i,
                 row.name.c_str(), row.pipeline.c_str(), row.target.c_str(),
                 row.verdict.c_str(), row.kernelMs, row.loadMs,
                 row.unreadable ? 1 : 0, oneLine(row.detail).c_str());
    std::fflush(out);
    if (row.verdict == "runtime-error")
      _exit(0);
  }
  _exit(0);
}

/// Hands each finished row on (to the results file) as soon as it is known.
using RowSink = std::function<Status(const Row &)>;

/// Runs every file through workers; fills `rows` (one per file) and hands
/// each to `sink` when it is complete; outputs that could not be written to
/// --output-dir add to `writeErrors`. Returns an error when no worker could
/// create the device or the sink failed.
Status runAll(const Options &options, const std::vector<std::string> &files,
              std::vector<Row> &rows, const RowSink &sink,
              std::vector<std::string> &writeErrors) {
  rows.assign(files.size(), Row());
  size_t next = 0;
  while (next < files.size()) {
    int fds[2];
    if (pipe(fds) != 0)
      return makeError(std::string("pipe: ") + std::strerror(errno));
    pid_t pid = forkTiedChild();
    if (pid < 0)
      return makeError(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
      close(fds[0]);
      worker(options, files, next, fds[1]);
    }
    close(fds[1]);
    std::string buffer;
    bool timedOut = false, deviceFailed = false;
    std::string deviceError;
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration<double>(options.timeoutSeconds);
    while (true) {
      int waitMs = static_cast<int>(std::max<int64_t>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(
                 deadline - std::chrono::steady_clock::now())
                 .count()));
      pollfd p{fds[0], POLLIN, 0};
      int ready = poll(&p, 1, waitMs);
      if (ready == 0) {
        timedOut = true;
        break;
      }
      char chunk[4096];
      ssize_t n = read(fds[0], chunk, sizeof(chunk));
      if (n <= 0)
        break; // the worker is gone
      buffer.append(chunk, static_cast<size_t>(n));
      size_t newline;
      while ((newline = buffer.find('\n')) != std::string::npos) {
        std::vector<std::string> f = splitFields(buffer.substr(0, newline));
        buffer.erase(0, newline + 1);
        if (f.size() == 2 && f[0] == "device") {
          deviceFailed = true;
          deviceError = f[1];
          continue;
        }
        if (f.size() == 2 && f[0] == "write") {
          writeErrors.push_back(f[1]);
          continue;
        }
        if (f.size() != 9)
          continue;
        size_t index = std::stoul(f[0]);
        if (index >= rows.size())
          continue;
        Row &row = rows[index];
        row.file = files[index];
        row.name = f[1];
        row.pipeline = f[2];
        row.target = f[3];
        row.verdict = f[4];
        row.kernelMs = std::stod(f[5]);
        row.loadMs = std::stod(f[6]);
        row.unreadable = f[7] == "1";
        row.detail = f[8];
        next = index + 1;
        std::fprintf(stderr, "[%zu/%zu] %s: %s\n", next, files.size(),
                     row.name.c_str(), row.verdict.c_str());
        if (Status s = sink(row); !s) {
          kill(pid, SIGKILL);
          waitpid(pid, nullptr, 0);
          close(fds[0]);
          return s;
        }
        deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration<double>(options.timeoutSeconds);
      }
    }
    close(fds[0]);
    if (timedOut)
      kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (deviceFailed)
      return makeError(deviceError);
    if (next >= files.size())
      break;
    // The worker stopped before reporting files[next]: it hung or died there.
    Row &row = rows[next];
    row.file = files[next];
    row.name = fs::path(files[next]).stem().string();
    bool died = WIFSIGNALED(status) ||
                (WIFEXITED(status) && WEXITSTATUS(status) != 0);
    if (!timedOut && !died)
      continue; // It stopped after a runtime error: a fresh worker goes on.
    if (timedOut) {
      char seconds[32];
      std::snprintf(seconds, sizeof(seconds), "%g", options.timeoutSeconds);
      row.verdict = "run-timeout";
      row.detail = std::string("no result after ") + seconds +
                   " s; the worker was killed";
    } else {
      row.verdict = "runtime-error";
      row.detail = WIFSIGNALED(status)
                       ? "the worker died with signal " +
                             std::to_string(WTERMSIG(status))
                       : "the worker exited with status " +
                             std::to_string(WEXITSTATUS(status));
    }
    std::fprintf(stderr, "[%zu/%zu] %s: %s\n", next + 1, files.size(),
                 row.name.c_str(), row.verdict.c_str());
    if (Status s = sink(row); !s)
      return s;
    ++next;
  }
  return Status::success();
}

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

/// Runs every file once under compute-sanitizer (this program, one
/// artifact, no further sanitizing) and fills `rows`: the inner run's row,
/// or memcheck-error with the sanitizer's first report when it flagged one
/// (any tool: racecheck's reports too).
Status runSanitized(const Options &options, const std::string &self,
                    const std::vector<std::string> &files,
                    std::vector<Row> &rows, const RowSink &sink) {
  std::string sanitizer = findSanitizer();
  if (sanitizer.empty())
    return makeError("--sanitize needs NVIDIA's compute-sanitizer (CUDA "
                     "toolkit) on PATH or in /usr/local/cuda/bin");
  constexpr int kSanitizerError = 86;
  rows.clear();
  for (size_t i = 0; i < files.size(); ++i) {
    std::string csv = options.out + ".sanitize-" + std::to_string(i) + ".csv";
    std::string log = options.out + ".sanitize-" + std::to_string(i) + ".log";
    std::vector<std::string> args = {
        sanitizer, "--tool", options.sanitize, "--error-exitcode",
        std::to_string(kSanitizerError), "--print-limit", "5", self, files[i],
        "--device=" + std::string(rt::toString(options.device)), "--repeat=1",
        "--timeout=" + std::to_string(options.timeoutSeconds), "--out=" + csv};
    if (std::string dir = outputDirFor(options, files, i); !dir.empty())
      args.push_back("--output-dir=" + dir);
    pid_t pid = forkTiedChild();
    if (pid < 0)
      return makeError(std::string("fork: ") + std::strerror(errno));
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
    Row row;
    row.file = files[i];
    row.name = fs::path(files[i]).stem().string();
    std::ifstream in(csv, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    bool torn = false;
    std::vector<std::vector<std::string>> records = parseCsv(text, torn);
    // The header, then the artifact's row: case, pipeline, target, device,
    // verdict, kernel_ms, module_load_ms, file, detail.
    if (records.size() >= 2 && records[1].size() == 9) {
      const std::vector<std::string> &f = records[1];
      row.name = f[0];
      row.pipeline = f[1];
      row.target = f[2];
      row.verdict = f[4];
      row.kernelMs = std::atof(f[5].c_str());
      row.loadMs = std::atof(f[6].c_str());
      row.detail = f[8];
    }
    std::remove((csv + ".partial").c_str());
    std::remove(csv.c_str());
    if (WIFEXITED(status) && WEXITSTATUS(status) == kSanitizerError) {
      std::ifstream report(log);
      std::string first, text;
      while (std::getline(report, text))
        if (text.find("=========") == 0 &&
            (text.find("ERROR") != std::string::npos ||
             text.find("Error") != std::string::npos ||
             text.find("Race") != std::string::npos ||
             text.find("Invalid") != std::string::npos)) {
          first = text;
          break;
        }
      row.verdict =
          std::string(oracle::toString(oracle::Verdict::MemcheckError));
      row.detail = "compute-sanitizer " + options.sanitize + ": " +
                   (first.empty() ? std::string("reported errors") : first) +
                   " (log " + log + ")";
    } else {
      std::remove(log.c_str());
      if (row.verdict.empty()) {
        row.verdict = "runtime-error";
        row.detail = "the sanitized run gave no result (exit status " +
                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status)
                                                      : -1) +
                     ")";
      }
    }
    std::fprintf(stderr, "[%zu/%zu] %s under %s: %s\n", i + 1, files.size(),
                 row.name.c_str(), options.sanitize.c_str(),
                 row.verdict.c_str());
    rows.push_back(row);
    if (Status s = sink(row); !s)
      return s;
  }
  return Status::success();
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  try {
    options = parseOptions(argc, argv);
  } catch (const UsageError &e) {
    std::fprintf(stderr, "sift-run: %s\n%s", e.message.c_str(), kUsage);
    return 2;
  }
  std::vector<std::string> errors;
  std::vector<std::string> files = collectArtifacts(options.paths, errors);
  for (const std::string &error : errors)
    std::fprintf(stderr, "sift-run: %s\n", error.c_str());
  if (files.empty())
    return 2;
  std::string device(rt::toString(options.device));
  auto results = ResultsCsv::open(options.out, device, options.resume);
  if (!results.ok()) {
    std::fprintf(stderr, "sift-run: %s\n", results.message().c_str());
    return 2;
  }
  ResultsCsv &csv = **results;
  // With --resume, the artifacts an earlier run finished are not run again.
  std::vector<Row> rows = csv.kept();
  if (csv.resumed()) {
    std::set<std::string> done;
    for (const Row &row : rows)
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
                 csv.partialPath().c_str(), rows.size(),
                 csv.droppedTornRow() ? " (a torn last row dropped)" : "",
                 files.size(), before);
  }
  if (!options.outputDir.empty()) {
    std::error_code ec;
    fs::create_directories(options.outputDir, ec);
    if (ec) {
      std::fprintf(stderr, "sift-run: --output-dir=%s: %s\n",
                   options.outputDir.c_str(), ec.message().c_str());
      return 2;
    }
  }
  std::vector<Row> ranRows;
  std::vector<std::string> writeErrors;
  auto sink = [&](const Row &row) { return csv.append(row); };
  char self[4096] = {};
  ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  Status ran = Status::success();
  if (!files.empty())
    ran = options.sanitize.empty() || length <= 0
              ? runAll(options, files, ranRows, sink, writeErrors)
              : runSanitized(options, std::string(self, length), files, ranRows,
                             sink);
  if (Status s = ran; !s) {
    std::fprintf(stderr, "sift-run: %s (the rows so far are in %s)\n",
                 s.message().c_str(), csv.partialPath().c_str());
    return 2;
  }
  if (Status s = csv.finish(); !s) {
    std::fprintf(stderr, "sift-run: %s\n", s.message().c_str());
    return 2;
  }
  rows.insert(rows.end(), ranRows.begin(), ranRows.end());
  int pass = 0, unchecked = 0, findings = 0, unreadable = 0;
  double kernelMs = 0, loadMs = 0;
  for (const Row &row : rows) {
    if (row.unreadable) {
      ++unreadable;
      std::fprintf(stderr, "sift-run: %s\n", row.detail.c_str());
    } else if (row.verdict == "pass") {
      ++pass;
      if (row.detail.rfind(kNoReferenceDetail, 0) == 0)
        ++unchecked;
    } else {
      ++findings;
    }
    kernelMs += row.kernelMs;
    loadMs += row.loadMs;
  }
  std::string uncheckedNote =
      unchecked > 0 ? " (" + std::to_string(unchecked) +
                          " of them without a reference: outputs not "
                          "compared)"
                    : "";
  std::printf("sift-run: %zu artifacts on %s: pass=%d findings=%d "
              "unreadable=%d%s; kernel time %.3f ms, module load %.3f ms "
              "(totals); results in %s\n",
              rows.size(), device.c_str(), pass, findings, unreadable,
              uncheckedNote.c_str(), kernelMs, loadMs, options.out.c_str());
  for (const std::string &error : writeErrors)
    std::fprintf(stderr, "sift-run: --output-dir: %s\n", error.c_str());
  if (unreadable > 0 || !errors.empty() || !writeErrors.empty())
    return 2;
  return findings > 0 ? 1 : 0;
}
