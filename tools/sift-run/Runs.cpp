//===- tools/sift-run/Runs.cpp - Artifacts through GPU workers ------------===//

#include "tools/sift-run/Runs.h"

#include "oracles/Compare.h"
#include "oracles/Regenerate.h"
#include "oracles/Verdict.h"
#include "runtime/ExportedCase.h"
#include "runtime/Runner.h"
#include "runtime/emu/EmuDevice.h"
#include "runtime/gpu/GpuDriver.h"
#include "support/Npy.h"
#include "support/Process.h"
#include "support/Text.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

/// read(2), named apart from WorkerRead's members.
ssize_t read_(int fd, char *buffer, size_t size) {
  return ::read(fd, buffer, size);
}

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
/// Reads `file` and its case facts into `artifact` and `info`, naming
/// `row` once the facts are read, and makes a large case's inputs and
/// reference outputs. "" when the artifact can run, else why it is
/// unreadable (a benchmark run is timed with --bench instead).
std::string loadRunnable(const std::string &file, Row &row,
                         rt::Artifact &artifact, rt::ExportedCase &info) {
  Result<rt::Artifact> read = rt::readArtifact(file);
  if (!read.ok())
    return read.message();
  artifact = std::move(*read);
  Result<rt::ExportedCase> facts = rt::getExportedCase(artifact);
  if (!facts.ok())
    return file + ": " + facts.message();
  info = std::move(*facts);
  row.name = info.name();
  row.pipeline = std::string(toString(info.pipeline));
  row.target = std::string(toString(info.target));
  if (!info.bench.empty())
    return file + ": a benchmark run (case.bench); time it with --bench";
  if (info.regenerated())
    if (Result<gen::Program> program = oracle::regenerateCase(info, artifact);
        !program.ok())
      return file + ": " + program.message();
  return "";
}

/// Why `artifact` (case facts `info`) cannot run on `device` at all (a
/// usage mistake, not a finding), or "".
std::string deviceMismatch(const rt::Device &device,
                           const rt::ExportedCase &info,
                           const rt::Artifact &artifact,
                           const std::string &file) {
  std::string target(toString(info.target));
  std::string on =
      " does not run on --device=" + std::string(rt::toString(device.kind()));
  switch (device.kind()) {
  case rt::DeviceKind::Cpu:
    if (info.target != TargetKind::Host)
      return file + ": an artifact for " + target + on +
             " (its kernels run on cuda, hip or emu)";
    break;
  case rt::DeviceKind::Cuda:
  case rt::DeviceKind::Hip:
    if (info.target != (device.kind() == rt::DeviceKind::Cuda
                            ? TargetKind::Nvptx
                            : TargetKind::Amdgpu))
      return file + ": an artifact for " + target + on;
    break;
  case rt::DeviceKind::Emu:
    if (info.target == TargetKind::Host)
      return file + ": an artifact for host" + on + " (run it on cpu)";
    if (!rt::emuExecutable(artifact) && !artifact.plan.dispatches.empty())
      return file + ": an artifact without emu kernels" + on +
             " (export it with harness --device=emu, or compile it with "
             "harness compile --emu-kernels)";
    break;
  }
  return "";
}

/// alloc-select-first ignores a buffer's affinity, which only a plan that
/// gives a buffer to a second device shows; sift's plans use one device:
/// say so rather than pass silently.
static void warnIfNoEffect(const Options &options,
                           const rt::Artifact &artifact,
                           const std::string &file) {
  if (!options.faults.contains(Fault::AllocSelectFirst))
    return;
  auto secondDevice = [](const rt::PlanBuffer &b) {
    return std::any_of(b.affinity.begin(), b.affinity.end(),
                       [](int d) { return d != 0; });
  };
  if (std::none_of(artifact.plan.buffers.begin(), artifact.plan.buffers.end(),
                   secondDevice))
    std::fprintf(stderr,
                 "sift-run: %s: --inject=alloc-select-first has no effect "
                 "here: every buffer of its plan is used by device 0 alone "
                 "(a one-device plan, as sift's compiler writes); the fault "
                 "shows on plans whose buffers a second device uses\n",
                 file.c_str());
}

/// The verdict of an artifact's runs: a mismatch of the first with the
/// reference it carries, a later run that differs from the first
/// (nondeterministic), or a pass.
void judgeRuns(Row &row, const rt::ExportedCase &info,
               const rt::Artifact &artifact,
               const std::vector<std::vector<HostTensor>> &runs) {
  std::string unchecked;
  if (info.hasReference) {
    oracle::CarriedComparison compared =
        oracle::compareCarried(info.tolerances, artifact.expected, runs[0]);
    if (compared.mismatch) {
      row.verdict = "mismatch";
      row.detail = compared.mismatch->message;
      return;
    }
    for (const std::string &line : compared.unchecked)
      unchecked += (unchecked.empty() ? "" : "; ") + line;
  }
  for (size_t r = 1; r < runs.size(); ++r)
    if (auto differ = oracle::compareOutputs(
            std::vector<uint64_t>(runs[0].size(), 0), runs[0], runs[r])) {
      row.verdict = "nondeterministic";
      row.detail = "run " + std::to_string(r + 1) + " differs from run 1: " +
                   differ->message;
      return;
    }
  row.verdict = "pass";
  row.detail = unchecked;
  if (!info.hasReference)
    row.detail =
        std::string(kNoReferenceDetail) +
        (info.noReferenceNote.empty() ? std::string()
                                       : " (" + info.noReferenceNote + ")");
}

Row runOne(rt::Device &device, const std::string &file, const Options &options,
           const std::string &outputDir, std::string &writeError) {
  int repeat = options.repeat;
  Row row;
  row.file = file;
  row.name = fs::path(file).stem().string();
  rt::Artifact artifact;
  rt::ExportedCase info;
  std::string why = loadRunnable(file, row, artifact, info);
  if (why.empty())
    why = deviceMismatch(device, info, artifact, file);
  if (!why.empty()) {
    row.unreadable = true;
    row.verdict = "unreadable";
    row.detail = why;
    return row;
  }
  warnIfNoEffect(options, artifact, file);
  std::vector<std::vector<HostTensor>> runs;
  const bool gpuTimed = device.kind() == rt::DeviceKind::Cuda ||
                        device.kind() == rt::DeviceKind::Hip;
  for (int r = 0; r < repeat; ++r) {
    // The emu device draws each run's workgroup and thread orders from the
    // case's seed and the run's number; the first run has the access checks.
    if (device.kind() == rt::DeviceKind::Emu)
      static_cast<rt::EmuDevice &>(device).reseed(
          info.seed * 2 + static_cast<uint64_t>(r), r == 0);
    rt::GpuTimes before = rt::gpuTimes(device);
    // Even runs: queue-ordered buffers, every output exported as DLPack.
    rt::PlanRunOptions runOptions = rt::repeatedRunOptions(r);
    runOptions.faults = options.faults;
    if (!options.leadAllocator.empty())
      runOptions.allocatorPolicy =
          rt::leadAllocatorPolicy(std::stoi(options.leadAllocator));
    Result<std::vector<HostTensor>> outputs =
        rt::runPlan({&device}, artifact, artifact.inputs, runOptions);
    rt::GpuTimes after = rt::gpuTimes(device);
    // The kernel time of the fastest run: the first also pays each
    // kernel's lazy loading by the driver at its first launch.
    // Only a GPU's driver times kernels; the cpu and emu devices' rows
    // say "not measured" rather than 0.
    double kernelMs = (after.kernels - before.kernels).count() / 1e6;
    if (gpuTimed && (r == 0 || kernelMs < row.kernelMs))
      row.kernelMs = kernelMs;
    if (gpuTimed && r == 0)
      row.loadMs = (after.moduleLoad - before.moduleLoad).count() / 1e6;
    if (!outputs.ok()) {
      // The emu device's checks and a tool's own time limit are verdicts
      // of their own.
      row.verdict = std::string(oracle::toString(oracle::runFailureVerdict(
          outputs.message(), device.kind() == rt::DeviceKind::Emu)));
      row.detail = std::string(oracle::runFailureDetail(outputs.message()));
      return row;
    }
    runs.push_back(std::move(*outputs));
    if (r == 0 && !outputDir.empty())
      if (Status s = writeOutputs(outputDir, runs[0]); !s)
        writeError = s.message();
  }
  judgeRuns(row, info, artifact, runs);
  return row;
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

/// What the parent read from one worker.
struct WorkerRead {
  bool timedOut = false, deviceFailed = false;
  std::string deviceError;
  Status sinkStatus = Status::success();
};

/// One line a worker wrote: a device failure, an output it could not
/// write, or a row (stored, printed and handed to the sink). Advances
/// `next` past a row's file.
void takeWorkerLine(const std::string &line,
                    const std::vector<std::string> &files,
                    std::vector<Row> &rows, size_t &next, const RowSink &sink,
                    std::vector<std::string> &writeErrors, WorkerRead &read) {
  std::vector<std::string> f = splitFields(line);
  if (f.size() == 2 && f[0] == "device") {
    read.deviceFailed = true;
    read.deviceError = f[1];
    return;
  }
  if (f.size() == 2 && f[0] == "write") {
    writeErrors.push_back(f[1]);
    return;
  }
  if (f.size() != 9)
    return;
  size_t index = std::stoul(f[0]);
  if (index >= rows.size())
    return;
  Row &row = rows[index];
  row.file = files[index];
  row.name = f[1];
  row.pipeline = f[2];
  row.target = f[3];
  row.verdict = f[4];
  row.kernelMs = f[5] == "nan" ? kNotMeasured : std::stod(f[5]);
  row.loadMs = f[6] == "nan" ? kNotMeasured : std::stod(f[6]);
  row.unreadable = f[7] == "1";
  row.detail = f[8];
  next = index + 1;
  std::fprintf(stderr, "[%zu/%zu] %s: %s\n", next, files.size(),
               row.name.c_str(), row.verdict.c_str());
  read.sinkStatus = sink(row);
}

/// Reads a worker's lines until it ends, goes quiet past the timeout (per
/// row), or the sink fails.
WorkerRead readWorker(int fd, const Options &options,
                      const std::vector<std::string> &files,
                      std::vector<Row> &rows, size_t &next,
                      const RowSink &sink,
                      std::vector<std::string> &writeErrors) {
  WorkerRead read;
  std::string buffer;
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration<double>(options.timeoutSeconds);
  while (read.sinkStatus.ok()) {
    int waitMs = static_cast<int>(std::max<int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(
               deadline - std::chrono::steady_clock::now())
               .count()));
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, waitMs) == 0) {
      read.timedOut = true;
      break;
    }
    char chunk[4096];
    ssize_t n = read_(fd, chunk, sizeof(chunk));
    if (n <= 0)
      break; // the worker is gone
    buffer.append(chunk, static_cast<size_t>(n));
    size_t newline;
    while ((newline = buffer.find('\n')) != std::string::npos &&
           read.sinkStatus.ok()) {
      size_t before = next;
      takeWorkerLine(buffer.substr(0, newline), files, rows, next, sink,
                     writeErrors, read);
      buffer.erase(0, newline + 1);
      if (next != before)
        deadline = std::chrono::steady_clock::now() +
                   std::chrono::duration<double>(options.timeoutSeconds);
    }
  }
  return read;
}

/// The row of the file a worker stopped on without reporting it: it hung
/// (killed at the timeout) or died.
Row rowOfStoppedWorker(const std::string &file, const Options &options,
                       bool timedOut, int status) {
  Row row;
  row.file = file;
  row.name = fs::path(file).stem().string();
  if (timedOut) {
    char seconds[32];
    std::snprintf(seconds, sizeof(seconds), "%g", options.timeoutSeconds);
    row.verdict = "run-timeout";
    row.detail =
        std::string("no result after ") + seconds + " s; the worker was killed";
  } else {
    row.verdict = "runtime-error";
    row.detail = WIFSIGNALED(status)
                     ? "the worker died with signal " +
                           std::to_string(WTERMSIG(status))
                     : "the worker exited with status " +
                           std::to_string(WEXITSTATUS(status));
  }
  return row;
}

} // namespace

Status runAll(const Options &options, const std::vector<std::string> &files,
              std::vector<Row> &rows, const RowSink &sink,
              std::vector<std::string> &writeErrors, bool &deviceFailed) {
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
    WorkerRead read =
        readWorker(fds[0], options, files, rows, next, sink, writeErrors);
    close(fds[0]);
    if (read.timedOut || !read.sinkStatus.ok())
      kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!read.sinkStatus.ok())
      return read.sinkStatus;
    if (read.deviceFailed) {
      deviceFailed = true;
      return makeError(read.deviceError);
    }
    if (next >= files.size())
      break;
    bool died = WIFSIGNALED(status) ||
                (WIFEXITED(status) && WEXITSTATUS(status) != 0);
    if (!read.timedOut && !died)
      continue; // It stopped after a runtime error: a fresh worker goes on.
    rows[next] = rowOfStoppedWorker(files[next], options, read.timedOut, status);
    std::fprintf(stderr, "[%zu/%zu] %s: %s\n", next + 1, files.size(),
                 rows[next].name.c_str(), rows[next].verdict.c_str());
    if (Status s = sink(rows[next]); !s)
      return s;
    ++next;
  }
  return Status::success();
}

/// The artifact files of `paths`: directories contribute their *.siftart
/// files in name order.
std::vector<std::string> collectArtifacts(const std::vector<std::string> &paths,
                                          std::vector<std::string> &errors) {
  std::vector<std::string> files;
  for (const std::string &path : paths) {
    std::error_code ec;
    std::string extension = fs::path(path).extension().string();
    if ((extension == ".ireecase" || extension == ".syscase") &&
        fs::is_directory(path, ec)) {
      files.push_back(path); // one IREE or file system's case
    } else if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const fs::directory_entry &entry : fs::directory_iterator(path, ec))
        if (entry.path().extension() == ".siftart" ||
            ((entry.path().extension() == ".ireecase" ||
              entry.path().extension() == ".syscase") &&
             entry.is_directory()))
          found.push_back(entry.path().string());
      if (ec)
        errors.push_back(path + ": cannot list the directory: " + ec.message());
      std::sort(found.begin(), found.end());
      if (found.empty() && !ec)
        errors.push_back(path + ": no .siftart files, .ireecase or .syscase "
                                "folders in the directory");
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::exists(path, ec)) {
      files.push_back(path);
    } else {
      errors.push_back(path + ": no such file or directory");
    }
  }
  return files;
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

} // namespace sift::tools
