//===- tools/sift-run/Options.cpp - sift-run's command line ---------------===//

#include "tools/sift-run/Options.h"

#include "runtime/AllocatorSelection.h"
#include "support/FileIO.h"
#include "support/Text.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>

#ifndef SIFT_RUN_VERSION
#define SIFT_RUN_VERSION "unknown"
#endif

namespace fs = std::filesystem;

namespace sift::tools {

namespace {

constexpr const char *kDescription =
    "Runs the artifacts written by 'harness fuzz --export-artifacts=DIR' or "
    "'harness compile --emit=artifact --input=...' (PATH: a directory of "
    ".siftart files, or such files), compares each with the reference "
    "outputs it carries and writes one CSV row per artifact.";

constexpr const char *kFooter =
    "An artifact without reference outputs (case.expected=none) is only "
    "checked for runs that agree: its row is pass with the detail 'no "
    "reference: outputs not compared'. Odd runs allocate in order; even runs "
    "allocate queue-ordered and export every output as DLPack. Rows go to "
    "FILE.csv.partial as artifacts finish, and it becomes FILE.csv at the "
    "end; after a stopped run, --resume keeps its rows and runs only the "
    "artifacts it had not finished. Exit: 0 all pass, 1 findings, 2 bad "
    "usage, unreadable artifacts or outputs that could not be written.";

/// A bad value: printed as "sift-run: MESSAGE", exit 2.
struct UsageError {
  std::string message;
};

void addBenchFlags(CLI::App &app, Options &o);

void addFlags(CLI::App &app, Options &o, std::string &device,
              std::string &inject) {
  app.add_option("paths", o.paths,
                 "Artifacts (.siftart), IREE cases (.ireecase folders) or "
                 "folders of them (required but with --write-bench-inputs)");
  app.add_option("--device", device,
                 "cuda, hip, cpu or emu (a GPU artifact's emu kernels on the "
                 "host, with checks)")
      ->capture_default_str();
  app.add_option("--out", o.out, "The results CSV")->capture_default_str();
  app.add_option("--output-dir", o.outputDir,
                 "Write each artifact's first-run outputs here as "
                 "result<i>.npy (per artifact file stem with several)");
  app.add_option_function<std::string>(
         "--timeout",
         [&o](const std::string &text) {
           std::optional<double> seconds = parseDuration(text);
           if (!seconds)
             throw CLI::ValidationError(
                 "--timeout", "'" + text +
                                  "' is not a positive duration (30, 30s, "
                                  "5m, 1h)");
           o.timeoutSeconds = *seconds;
         },
         "How long one artifact may run before its worker is killed: 30, "
         "30s, 5m")
      ->default_str("30");
  app.add_option("--repeat", o.repeat,
                 "Runs per artifact (a second run that differs is "
                 "nondeterministic)")
      ->capture_default_str();
  app.add_option("--inject", inject,
                 "Runtime faults: export-device-local (a queue-ordered "
                 "device-local output refuses its DLPack export), "
                 "alloc-select-first (allocator selection ignores a buffer's "
                 "affinity: caught on plans whose buffers a second device "
                 "uses; a one-device plan runs as without it, with a "
                 "warning)");
  app.add_option("--device-lead-allocator", o.leadAllocator,
                 "The device ordinal whose allocator leads (0 here)");
  app.add_option("--sanitize", o.sanitize,
                 "Run each artifact once under compute-sanitizer: memcheck "
                 "or racecheck (raise --timeout: 10-100x slower)");
  app.add_option("--iree-run-module", o.ireeRunModule,
                 "IREE's iree-run-module for .ireecase folders (default: "
                 "the first on PATH)");
  addBenchFlags(app, o);
  app.add_flag("--resume", o.resume,
               "Keep the rows of OUT.partial a stopped run left and run only "
               "the artifacts it had not finished");
}

/// The flags of timing (--bench and its companions) and of the files a GPU
/// host's other tools read (--write-bench-inputs, --write-ptx).
void addBenchFlags(CLI::App &app, Options &o) {
  app.add_option("--bench", o.benchRuns,
                 "Time benchmark runs (harness bench) N times each and write "
                 "Google Benchmark JSON to --bench-out")
      // --bench=0 once ran the artifacts untimed and said nothing of it.
      ->check(CLI::Validator(
          [](std::string &value) -> std::string {
            try {
              if (std::stoi(value) >= 1)
                return "";
            } catch (...) {
            }
            return "'" + value + "' is not a count of timed runs: give 1 or "
                   "more, or leave --bench out to run without timing";
          },
          "N"));
  app.add_option("--warmup", o.warmup, "Untimed runs before --bench's")
      ->capture_default_str();
  app.add_option("--bench-budget", o.benchBudgetSeconds,
                 "Seconds of repetitions per benchmark (one run at least)")
      ->capture_default_str();
  app.add_flag("--bench-fresh-buffers", o.benchFreshBuffers,
               "Each timed run allocates its buffers, uploads the inputs and "
               "downloads the outputs (by default the runs dispatch again on "
               "buffers made ready once, as the vendors' baselines run)");
  app.add_option("--bench-out", o.benchOut, "--bench's JSON")
      ->capture_default_str();
  app.add_option("--write-bench-inputs", o.writeBenchInputs,
                 "Write the inputs of the benchmarks the given runs time "
                 "(of the fixed benchmark programs without runs) to "
                 "DIR/<name>/input<i>.npy, for the vendor baselines, and "
                 "exit");
  app.add_option("--write-ptx", o.writePtx,
                 "Write every distinct PTX module of the given artifacts to "
                 "DIR/<key>.ptx and exit: ptxas can compile them ahead to "
                 "DIR/<key>.cubin, which runs given SIFT_CUBIN_CACHE=DIR "
                 "load instead of JIT-compiling the PTX");
}

/// Checks every value before any artifact runs; throws UsageError.
void checkValues(Options &o, const std::string &device,
                 const std::string &inject) {
  std::optional<rt::DeviceKind> kind = rt::parseDeviceKind(device);
  if (!kind)
    throw UsageError{"unknown device '" + device +
                     "'; valid devices: cpu, cuda, hip, emu"};
  o.device = *kind;
  if (!(o.timeoutSeconds > 0))
    throw UsageError{"--timeout needs a positive number of seconds"};
  if (o.repeat < 1 || o.repeat > 100)
    throw UsageError{"--repeat needs a count from 1 to 100, got '" +
                     std::to_string(o.repeat) + "'"};
  if (!inject.empty())
    for (const std::string &name : splitFields(inject, ',')) {
      std::optional<Fault> fault = parseFault(name);
      if (!fault || (*fault != Fault::ExportDeviceLocal &&
                     *fault != Fault::AllocSelectFirst))
        throw UsageError{"--inject: '" + name +
                         "' is not a runtime fault; sift-run injects "
                         "export-device-local and alloc-select-first"};
      o.faults.insert(*fault);
    }
  // sift-run drives one device: only ordinal 0 exists.
  if (!o.leadAllocator.empty())
    if (Result<int> lead = rt::parseLeadAllocator(o.leadAllocator, 1);
        !lead.ok())
      throw UsageError{lead.message()};
  if (!o.sanitize.empty() && o.sanitize != "memcheck" &&
      o.sanitize != "racecheck")
    throw UsageError{"--sanitize takes memcheck or racecheck, got '" +
                     o.sanitize + "'"};
}

/// --out and --output-dir can be written: checked now, not after the run.
void checkPaths(const Options &o) {
  std::error_code ec;
  if (o.out.empty())
    throw UsageError{"--out needs a file name"};
  if (fs::is_directory(o.out, ec))
    throw UsageError{"--out=" + o.out +
                     ": is a folder; give the results file's name, for "
                     "example --out=" +
                     (fs::path(o.out) / "results.csv").string()};
  // The results must not replace what the run reads.
  for (const std::string &path : o.paths)
    if (isSameFile(o.out, path))
      throw UsageError{"--out=" + o.out + " is " + path +
                       ", one of the artifacts to run: writing the results "
                       "there would destroy it"};
  if (fs::path(o.out).extension() == ".siftart" && fs::exists(o.out, ec))
    throw UsageError{"--out=" + o.out +
                     " is an artifact: the results are a CSV file"};
  fs::path parent = fs::path(o.out).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw UsageError{"--out=" + o.out + ": the folder " + parent.string() +
                     " does not exist"};
  if (!o.outputDir.empty() && fs::exists(o.outputDir, ec) &&
      !fs::is_directory(o.outputDir, ec))
    throw UsageError{"--output-dir=" + o.outputDir +
                     ": exists and is not a folder"};
}

} // namespace

int parseOptions(int argc, char **argv, Options &options) {
  CLI::App app{kDescription, "sift-run"};
  app.footer(kFooter);
  app.set_version_flag("--version", std::string("sift-run ") + SIFT_RUN_VERSION);
  std::string device = "cuda", inject;
  addFlags(app, options, device, inject);
  try {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--output-dir=")
        throw UsageError{"--output-dir needs a folder"};
      if (arg.size() > 3 && arg.rfind("--", 0) == 0 && arg.back() == '=')
        throw UsageError{arg + " has no value: write " + arg + "VALUE"};
    }
    app.parse(argc, argv);
    if (options.paths.empty() && options.writeBenchInputs.empty())
      throw UsageError{"paths is required: artifacts, IREE cases or folders "
                       "of them"};
    checkValues(options, device, inject);
    checkPaths(options);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "sift-run: %s\nRun 'sift-run --help' for usage.\n",
                 e.what());
    return 2;
  } catch (const UsageError &e) {
    std::fprintf(stderr, "sift-run: %s\n", e.message.c_str());
    return 2;
  }
  return -1;
}

} // namespace sift::tools
