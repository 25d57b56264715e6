//===- harness/commands/main.cpp - The harness command line ---------------===//
//
// Registers every command and runs the one given; `fuzz` is the default
// command: `harness --pipeline=cpu --count=10` means `harness fuzz
// --pipeline=cpu --count=10`. Every usage error prints what was wrong and
// exits with 2.
//
//===----------------------------------------------------------------------===//

#include "harness/Version.h"
#include "harness/commands/Cli.h"
#include "runtime/iree/IreeToolchain.h"

#include "llvm/Support/Signals.h"

#include <memory>
#include <cstdio>
#include <functional>

using namespace sift::harness;

namespace {

/// The arguments with `fuzz` inserted when no command is named.
std::vector<std::string> withDefaultCommand(int argc, char **argv) {
  std::vector<std::string> args(argv, argv + argc);
  static const char *commands[] = {
      "fuzz",  "run",      "compile", "import",  "merge",  "replay", "reduce",
      "check", "upstream", "bisect",  "nightly", "report", "bench",  "list"};
  bool named = false;
  if (args.size() > 1)
    for (const char *command : commands)
      named |= args[1] == command;
  bool topLevel = args.size() > 1 && (args[1] == "--help" || args[1] == "-h" ||
                                      args[1] == "--version");
  if (!named && !topLevel)
    args.insert(args.begin() + 1, "fuzz");
  return args;
}

/// Ends every command's help with what its exit code means.
void addExitCodes(CLI::App &app, const std::vector<CommandEntry> &commands) {
  const std::string exitCodes =
      "Exit: 0 nothing found; 1 findings (or the given program failed to "
      "compile or run; replay: a changed verdict); 2 bad usage or bad input "
      "(the message names the file and what is wrong); 3 (nightly) a corpus "
      "case changed its verdict; 130 or 143 stopped by Ctrl-C or SIGTERM "
      "(the same command with --resume, or a nightly's same command, goes "
      "on).";
  app.footer(exitCodes);
  for (const CommandEntry &command : commands)
    command.app->footer(command.app->get_footer().empty()
                            ? exitCodes
                            : command.app->get_footer() + "\n\n" + exitCodes);
}

} // namespace

int main(int argc, char **argv) {
  // A crash that nothing recovers prints its stack (kept in the finding's
  // stderr.txt when it happens in an isolated case).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  std::vector<std::string> args = withDefaultCommand(argc, argv);
  std::string commandLine;
  for (size_t i = 0; i < args.size(); ++i)
    commandLine += (i ? " " : "") + args[i];

  CLI::App app{"sift: differential fuzzing of MLIR GPU lowering of sort, "
               "top-k and NMS"};
  // The versions a bug report names: sift's, and the IREE it would test.
  app.set_version_flag("--version", std::function<std::string()>([] {
    sift::Result<sift::rt::IreeToolchain> iree = sift::rt::findIree();
    return "sift " + siftVersion() + "\n" +
           (iree.ok() ? "IREE " + iree->version + " (" + iree->compile + ")"
                      : iree.message());
  }));
  app.require_subcommand(1);
  std::vector<CommandEntry> commands = {addFuzzCommand(app, commandLine),
                                        addReplayCommand(app),
                                        addReduceCommand(app),
                                        addCheckCommand(app),
                                        addMergeCommand(app),
                                        addImportCommand(app, commandLine),
                                        addRunCommand(app),
                                        addCompileCommand(app),
                                        addUpstreamCommand(app),
                                        addBisectCommand(app),
                                        addNightlyCommand(app, commandLine),
                                        addReportCommand(app),
                                        addBenchCommand(app),
                                        addListCommand(app)};
  addExitCodes(app, commands);

  std::vector<const char *> cargs;
  for (const std::string &arg : args)
    cargs.push_back(arg.c_str());
  try {
    checkNoEmptyValues(args);
    app.parse(static_cast<int>(cargs.size()), cargs.data());
    for (const CommandEntry &command : commands)
      if (command.app->parsed())
        return command.run();
  } catch (const CLI::CallForHelp &e) {
    // `harness --help`: the commands, then the options of fuzz, the
    // default command, which a bare `harness --pipeline=...` runs.
    if (args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
      std::printf("%s\nThe default command: harness [fuzz] [OPTIONS] "
                  "(fuzz's options follow; harness COMMAND --help shows "
                  "another command's)\n\n%s",
                  app.help().c_str(), commands.front().app->help().c_str());
      return kExitOk;
    }
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fprintf(stderr, "harness: %s\nRun 'harness --help' for usage.\n",
                 e.what());
    return kExitUsage;
  } catch (const UsageError &e) {
    std::fprintf(stderr, "harness: %s\n", e.message.c_str());
    return kExitUsage;
  }
  return kExitUsage;
}
