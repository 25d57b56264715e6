//===- ImportCommand.cpp - `harness import`: GPU verdicts into findings ---===//
//
// The last step of a split campaign: the CSVs sift-run wrote on a GPU host
// (one row per artifact) come back here. Every row counts in a run of its
// own in the findings database; every row that is not `pass` becomes a
// finding, with the artifact's inputs and reference outputs in its case
// folder when the artifact is found (the CSV's path, or --artifacts/NAME).
// The CSV is read with fast-cpp-csv-parser; a malformed file is an error
// naming the file and line, and nothing of it is stored.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Commands.h"
#include "harness/commands/Cli.h"

#include "harness/case/CaseRunner.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "harness/store/FindingStore.h"
#include "oracles/Regenerate.h"
#include "oracles/Verdict.h"
#include "runtime/Artifact.h"
#include "runtime/ExportedCase.h"
#include "support/FileIO.h"
#include "support/Npy.h"
#include "support/Text.h"
#include "generators/ProgramJson.h"
#include "runtime/iree/IreeRun.h"

#include <iterator>

// csv.h copies file names with strncpy into a fixed buffer, which GCC
// warns about; the truncation is the library's intent.
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <memory>
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <map>

namespace sift::harness {

namespace {

/// One row of a sift-run CSV.
struct ImportedRow {
  std::string name, pipeline, target, device, verdict, file, detail;
  /// NaN: not measured (an empty field: the cpu and emu devices).
  double kernelMs = 0, loadMs = 0;
  int line = 0;
};

/// A time field of the CSV: a number, or empty (not measured: NaN).
bool timeOf(const std::string &field, double &ms) {
  if (field.empty()) {
    ms = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  char *end = nullptr;
  ms = std::strtod(field.c_str(), &end);
  return *end == '\0' && !std::isnan(ms);
}

Result<std::vector<ImportedRow>> readResults(const std::string &path) {
  std::vector<ImportedRow> rows;
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  if (!bytes.ok())
    return makeError(bytes.message());
  std::string text(bytes->begin(), bytes->end());
  // A sift-run that was stopped leaves FILE.csv.partial, whose last row
  // may be torn: the complete rows before it are still results.
  if (!text.empty() && text.back() != '\n') {
    size_t end = text.rfind('\n');
    std::fprintf(stderr,
                 "harness import: %s: the last line is incomplete (a sift-run "
                 "that was stopped?); it is left out\n",
                 path.c_str());
    text.erase(end == std::string::npos ? 0 : end + 1);
  }
  try {
    io::CSVReader<9, io::trim_chars<>, io::double_quote_escape<',', '"'>>
        reader(path, text.data(), text.data() + text.size());
    reader.read_header(io::ignore_extra_column, "case", "pipeline", "target",
                       "device", "verdict", "kernel_ms", "module_load_ms",
                       "file", "detail");
    ImportedRow row;
    std::string kernelMs, loadMs;
    while (reader.read_row(row.name, row.pipeline, row.target, row.device,
                           row.verdict, kernelMs, loadMs, row.file,
                           row.detail)) {
      row.line = static_cast<int>(reader.get_file_line());
      if (!timeOf(kernelMs, row.kernelMs) || !timeOf(loadMs, row.loadMs))
        return makeError("line " + std::to_string(row.line) +
                         ": kernel_ms and module_load_ms must be numbers "
                         "(or empty: not measured), got '" + kernelMs +
                         "' and '" + loadMs + "'");
      rows.push_back(row);
    }
  } catch (const io::error::base &e) {
    return makeError(e.what());
  }
  return rows;
}

/// The seed of a case name "<seed>-<pipeline>-<target>".
std::optional<uint64_t> seedOf(const std::string &name) {
  size_t dash = name.find('-');
  std::string digits = name.substr(0, dash);
  if (digits.empty() || digits.size() > 20 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits);
}

/// Fills `result` (program, inputs, expected outputs, artifact) and the
/// input mode from the exported artifact at `path`. Returns "" when the
/// case is complete, else why it is not.
std::string completeFromIreeCase(const std::string &dir, CaseResult &result,
                                 CaseOptions &caseOptions) {
  namespace fs = std::filesystem;
  Result<std::vector<uint8_t>> json =
      readFileBytes((fs::path(dir) / "case.json").string());
  Result<std::vector<uint8_t>> mlir =
      readFileBytes((fs::path(dir) / "program.mlir").string());
  if (!json.ok() || !mlir.ok())
    return "its IREE case " + dir +
           " lacks a readable case.json or "
           "program.mlir: " +
           (!json.ok() ? json.message() : mlir.message());
  try {
    nlohmann::json facts = nlohmann::json::parse(json->begin(), json->end());
    Result<gen::Program> program = gen::programFromJson(facts.at("program"));
    if (!program.ok())
      return "its IREE case's program: " + program.message();
    result.program = std::move(*program);
    result.systemVersion = facts.value("iree_version", "");
    if (auto mode = gen::parseInputMode(facts.value("inputs", "")))
      caseOptions.inputs = *mode;
    // What the case was compiled with: a replay or reduction of the
    // finding spells and configures it the same way.
    caseOptions.chip = facts.value("chip", "");
    caseOptions.randomConfig = facts.value("random_config", false);
    std::string frontEnd = facts.value("frontend", "");
    if (!frontEnd.empty()) {
      std::optional<gen::FrontEnd> parsed = gen::parseFrontEnd(frontEnd);
      if (!parsed)
        return dir + "/case.json: unknown frontend '" + frontEnd + "'";
      result.frontEnd = *parsed;
      caseOptions.frontEnd = *parsed;
    }
  } catch (const nlohmann::json::exception &error) {
    return dir + "/case.json: " + gen::jsonProblem(error);
  }
  result.mlir.assign(mlir->begin(), mlir->end());
  for (auto [prefix, count, tensors] :
       {std::tuple{"input", result.program.inputs.size(), &result.inputs},
        {"expected", result.program.outputs.size(), &result.expected}})
    for (size_t i = 0; i < count; ++i) {
      Result<HostTensor> t = readNpy(
          (fs::path(dir) / (prefix + std::to_string(i) + ".npy")).string());
      if (!t.ok())
        return "its IREE case: " + t.message();
      tensors->push_back(std::move(*t));
    }
  return "";
}

std::string completeFromArtifact(const std::string &path, CaseResult &result,
                                 CaseOptions &caseOptions) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return "its artifact " + path + " is missing";
  if (std::filesystem::path(path).extension() == rt::kIreeCaseExtension)
    return completeFromIreeCase(path, result, caseOptions);
  Result<rt::Artifact> artifact = rt::readArtifact(path);
  if (!artifact.ok()) {
    result.detail += " (artifact unreadable: " + artifact.message() + ")";
    return "its artifact is unreadable: " + artifact.message();
  }
  Result<rt::ExportedCase> exported = rt::getExportedCase(*artifact);
  if (exported.ok()) {
    // The program again from the seed and the export's policy; a large
    // case's inputs and reference outputs too (its artifact carries none).
    Result<gen::Program> program =
        exported->regenerated()
            ? oracle::regenerateCase(*exported, *artifact)
            : oracle::regenerateProgram(*exported, artifact->plan);
    if (program.ok()) {
      result.program = std::move(*program);
      result.mlir = gen::emitMlir(result.program);
    } else if (exported->regenerated()) {
      return "its case could not be regenerated from " + path + ": " +
             program.message();
    }
    if (auto mode = gen::parseInputMode(exported->inputs))
      caseOptions.inputs = *mode;
  }
  result.inputs = artifact->inputs;
  result.expected = artifact->expected;
  result.artifact = *artifact;
  if (result.mlir.empty())
    return "its program could not be regenerated from " + path +
           " (not exported by harness fuzz --export-artifacts?)";
  return "";
}

/// Every file's rows, each checked (a verdict sift knows, a case name of a
/// sift-run row) before anything is stored; an error names file and line.
Result<std::vector<std::pair<std::string, std::vector<ImportedRow>>>>
readAllResults(const std::vector<std::string> &paths) {
  std::vector<std::pair<std::string, std::vector<ImportedRow>>> files;
  if (std::string twice = repeatedFile(paths); !twice.empty())
    return makeError(twice + ": its rows would be counted twice");
  for (const std::string &path : paths) {
    Result<std::vector<ImportedRow>> rows = readResults(path);
    if (!rows.ok())
      return rows.error();
    for (const ImportedRow &row : *rows) {
      std::string where = path + ":" + std::to_string(row.line) + ": ";
      if (row.verdict == "unreadable")
        continue;
      if (!oracle::parseVerdict(row.verdict))
        return makeError(where + "unknown verdict '" + row.verdict + "'");
      if (!parsePipelineKind(row.pipeline) || !parseTargetKind(row.target) ||
          !seedOf(row.name))
        return makeError(where + "case '" + row.name + "' (pipeline '" +
                         row.pipeline + "', target '" + row.target +
                         "') is not a sift-run row");
    }
    files.emplace_back(path, std::move(*rows));
  }
  return files;
}

/// What an import counted.
struct ImportTotals {
  int64_t rows = 0, findings = 0, unreadable = 0;
  std::map<std::string, int64_t> verdicts;
  /// Over the rows whose times were measured (`timed` of them).
  double kernelMs = 0, loadMs = 0;
  int64_t timed = 0;
};

/// The finding of a non-pass row, completed from its artifact where it is.
CaseResult findingOfRow(const ImportedRow &row, const std::string &path,
                        const std::string &artifactPath,
                        CaseOptions &caseOptions) {
  CaseResult result;
  result.seed = *seedOf(row.name);
  result.pipeline = *parsePipelineKind(row.pipeline);
  result.target = *parseTargetKind(row.target);
  result.verdict = *oracle::parseVerdict(row.verdict);
  result.stage = Stage(Step::Run, row.device);
  // sift-run keeps a row on one line: the detail's line breaks (IREE's
  // multi-line runtime errors) are escaped there.
  result.detail = unescapeField(row.detail);
  result.ran = true;
  caseOptions.pipeline = result.pipeline;
  caseOptions.target = result.target;
  if (std::string missing =
          completeFromArtifact(artifactPath, result, caseOptions);
      !missing.empty())
    std::fprintf(stderr,
                 "harness import: %s:%d: case %s: %s; the finding is stored "
                 "without a case folder (--artifacts=DIR names the folder "
                 "of the exported artifacts)\n",
                 path.c_str(), row.line, row.name.c_str(), missing.c_str());
  return result;
}

/// What an import of the CSV `path` is known by in a database: its bytes'
/// 64-bit FNV-1a hash, so the same rows under another name are the same
/// import.
std::string importKey(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  uint64_t hash = 14695981039346656037ull;
  if (bytes.ok())
    for (uint8_t byte : *bytes)
      hash = (hash ^ byte) * 1099511628211ull;
  char text[40];
  std::snprintf(text, sizeof(text), "import %016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

/// "" when no CSV of `files` was imported into `store` before, else what
/// says which: importing its rows again would count each finding twice.
std::string importedBefore(
    FindingStore &store,
    const std::vector<std::pair<std::string, std::vector<ImportedRow>>> &files) {
  for (const auto &file : files) {
    uint64_t first = 0;
    auto earlier = store.findOverlappingRun(importKey(file.first), 0, 1, &first);
    if (!earlier.ok())
      return earlier.message();
    if (*earlier)
      return file.first + ": these rows are in " + store.databasePath() +
             " already (imported by run " + std::to_string((*earlier)->run) +
             "); importing them again would count each finding twice";
  }
  return "";
}

/// Stores one CSV's rows as a run of their own; false when the store
/// failed (printed).
bool importFile(FindingStore &store, const ImportOptions &options,
                const std::string &path, const std::vector<ImportedRow> &rows,
                ImportTotals &totals) {
  RunInfo info;
  info.command = options.commandLine;
  info.pipeline = "import " + path;
  info.resumeKey = importKey(path);
  auto runId = store.beginRun(info);
  if (!runId.ok()) {
    std::fprintf(stderr, "harness import: %s\n", runId.message().c_str());
    return false;
  }
  int64_t runFindings = 0;
  for (const ImportedRow &row : rows) {
    ++totals.rows;
    ++totals.verdicts[row.verdict];
    if (!std::isnan(row.kernelMs)) {
      ++totals.timed;
      totals.kernelMs += row.kernelMs;
      totals.loadMs += std::isnan(row.loadMs) ? 0 : row.loadMs;
    }
    if (row.verdict == "unreadable") {
      ++totals.unreadable;
      std::fprintf(stderr,
                   "harness import: %s:%d: case %s: sift-run could not read "
                   "its artifact: %s\n",
                   path.c_str(), row.line, row.name.c_str(),
                   row.detail.c_str());
      continue;
    }
    if (!oracle::isFinding(*oracle::parseVerdict(row.verdict)))
      continue;
    bool iree = parsePipelineKind(row.pipeline) &&
                systemOf(*parsePipelineKind(row.pipeline)) == SystemKind::Iree;
    std::string artifactPath =
        options.artifactsDir.empty()
            ? row.file
            : options.artifactsDir + "/" + row.name +
                  (iree ? rt::kIreeCaseExtension : ".siftart");
    CaseOptions caseOptions;
    CaseResult result = findingOfRow(row, path, artifactPath, caseOptions);
    auto dir = store.recordFinding(*runId, result, caseOptions,
                                   "sift-run " + artifactPath +
                                       " --device=" + row.device);
    if (!dir.ok()) {
      std::fprintf(stderr, "harness import: could not store the finding: "
                           "%s\n",
                   dir.message().c_str());
      return false;
    }
    ++totals.findings;
    ++runFindings;
    std::printf("finding: %s on %s: %s: %s\n", row.name.c_str(),
                row.device.c_str(), row.verdict.c_str(), row.detail.c_str());
  }
  // The import's one "case": a later import of the same bytes overlaps it.
  (void)store.recordProgress(*runId, 1, static_cast<int64_t>(rows.size()));
  (void)store.endRun(*runId, static_cast<int64_t>(rows.size()), runFindings,
                     0);
  return true;
}

} // namespace

int runImportCommand(const ImportOptions &options) {
  // Read and check every file before storing anything.
  auto files = readAllResults(options.csvFiles);
  if (!files.ok()) {
    std::fprintf(stderr, "harness import: %s\n", files.message().c_str());
    return kExitUsage;
  }
  auto store = FindingStore::open(options.outDir);
  if (!store.ok()) {
    std::fprintf(stderr, "harness import: %s\n", store.message().c_str());
    return kExitUsage;
  }
  if (std::string again = importedBefore(**store, *files); !again.empty()) {
    std::fprintf(stderr, "harness import: %s\n", again.c_str());
    return kExitUsage;
  }
  ImportTotals totals;
  for (const auto &[path, rows] : *files)
    if (!importFile(**store, options, path, rows, totals))
      return kExitUsage;
  std::string verdicts;
  for (const auto &[verdict, count] : totals.verdicts)
    verdicts += (verdicts.empty() ? "" : " ") + verdict + "=" +
                std::to_string(count);
  char times[96];
  if (totals.timed > 0)
    std::snprintf(times, sizeof(times),
                  "kernel time %.3f ms, module load %.3f ms (totals)",
                  totals.kernelMs, totals.loadMs);
  else
    std::snprintf(times, sizeof(times),
                  "kernel time not measured (no row ran on a GPU)");
  std::printf("imported: %lld rows from %zu files: %s; %s\n",
              static_cast<long long>(totals.rows), files->size(),
              verdicts.empty() ? "none" : verdicts.c_str(), times);
  std::printf("findings: %lld (database %s)\n",
              static_cast<long long>(totals.findings),
              (*store)->databasePath().c_str());
  if (totals.unreadable > 0) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "harness import: %lld rows are unreadable (sift-run could "
                 "not read their artifacts; listed above): exit 2\n",
                 static_cast<long long>(totals.unreadable));
    return kExitUsage;
  }
  return totals.findings > 0 ? kExitFindings : kExitOk;
}

CommandEntry addImportCommand(CLI::App &app, const std::string &commandLine) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App *cmd = app.add_subcommand(
      "import", "Bring the verdicts of sift-run CSVs (a GPU host's half of a "
                "campaign) into the findings database");
  cmd->add_option("results", options->csvFiles, "sift-run CSV files")
      ->required();
  cmd->add_option("--out", options->outDir,
                  "Output folder (findings.db, cases/)")
      ->capture_default_str();
  cmd->add_option("--artifacts", options->artifactsDir,
                  "Folder of the exported artifacts (default: the CSV's file "
                  "column)");
  return {cmd, [options, commandLine] {
            options->commandLine = commandLine;
            return runImportCommand(*options);
          }};
}

} // namespace sift::harness
