//===- harness/commands/Cli.h - The harness's command line ------*- C++ -*-===//
//
// Every command registers its own subcommand, options and checks
// (`addFuzzCommand(app)`, ...); main only dispatches to the one parsed. A
// bad value is a UsageError with a message naming the flag and the valid
// values, which main turns into exit code 2.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "harness/commands/Commands.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace sift::harness {

class Systems;
struct SystemPipeline;

/// A bad flag or value: printed as "harness: MESSAGE", exit 2.
struct UsageError {
  std::string message;
};

/// A registered command: its subcommand, and what runs it once the command
/// line is parsed (checks that span several flags included).
struct CommandEntry {
  CLI::App *app = nullptr;
  std::function<int()> run;
};

CommandEntry addFuzzCommand(CLI::App &app, const std::string &commandLine);
CommandEntry addReplayCommand(CLI::App &app);
CommandEntry addReduceCommand(CLI::App &app);
CommandEntry addCheckCommand(CLI::App &app);
CommandEntry addMergeCommand(CLI::App &app);
CommandEntry addNightlyCommand(CLI::App &app, const std::string &commandLine);
CommandEntry addReportCommand(CLI::App &app);
CommandEntry addBenchCommand(CLI::App &app);
CommandEntry addImportCommand(CLI::App &app, const std::string &commandLine);
CommandEntry addRunCommand(CLI::App &app);
CommandEntry addCompileCommand(CLI::App &app);
CommandEntry addUpstreamCommand(CLI::App &app);
CommandEntry addBisectCommand(CLI::App &app);
CommandEntry addListCommand(CLI::App &app);

// Flag values shared by several commands; each throws a UsageError.

PipelineKind pipelineFlag(const std::string &name);
/// What --pipeline and --system select: sift's and IREE's pipelines, and
/// pipelines of systems described by files.
struct PipelineSelection {
  std::vector<PipelineKind> kinds;
  std::vector<const SystemPipeline *> files;
};
/// --pipeline's `list` (sift's and IREE's names, "all", "iree-all", a
/// system file's "xla", "onnxruntime-basic", "xla-all") over --system's
/// `systemFiles`, added to `systems` first, and the shipped ones; without
/// --pipeline (`listGiven` false), --system's files select their own
/// pipelines. Each named once; an unknown name lists the valid ones.
PipelineSelection pipelinesFlag(Systems &systems, const std::string &list,
                                const std::vector<std::string> &systemFiles,
                                bool listGiven);
/// pipelineFlag for a command that only drives sift's compiler.
PipelineKind siftPipelineFlag(const std::string &name, const char *command);
TargetKind targetFlag(const std::string &name);
rt::DeviceKind deviceFlag(const std::string &name);
gen::InputMode inputModeFlag(const std::string &name);
/// A chip of the chip table for `target` ("" stays "": the default).
std::string chipFlag(TargetKind target, const std::string &chip);
/// "a,b,c"; an empty item is an error naming `flag`.
std::vector<std::string> listFlag(const std::string &list,
                                  const std::string &flag);
/// The seconds of a duration (`90`, `90s`, `5m`, `2h`).
double durationFlag(const std::string &flag, const std::string &text);
/// --memory-limit: a size (512M, 4G), or "none" (0: no limit).
uint64_t memoryFlag(const std::string &text);
/// The faults of a by-hand command's --inject.
FaultSet faultsFlag(const std::string &text);
/// `faults` as --inject spells them: comma-separated, catalogue order.
std::string faultListText(const FaultSet &faults);
/// A CLI11 check for unsigned options (CLI11 would wrap "-5" around).
CLI::Validator wholeNumber();

/// An output folder flag's value: not empty, not a file system's root
/// (a campaign writes findings.db and cases/ right in it).
void checkOutFolder(const std::string &flag, const std::string &path);

/// "A and B are one file" when two of `paths` name the same file (it
/// would be counted twice), else "".
std::string repeatedFile(const std::vector<std::string> &paths);

/// Why a file or folder cannot be written at `path` ("" when it can): its
/// nearest existing ancestor is not a folder or not writable. Checked
/// before long work, so that the work is not lost at the end.
std::string unwritableReason(const std::string &path);

/// A usage error when some `--name=` has an empty value: CLI11 would take
/// the next argument as its value instead (`--pipeline= --count=1`).
void checkNoEmptyValues(const std::vector<std::string> &args);

} // namespace sift::harness
