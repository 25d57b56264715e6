//===- support/Command.cpp - Command templates and bounded commands ---------===//

#include "support/Command.h"

#include "support/Process.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sift {

std::vector<std::string> expandCommand(const CommandTemplate &command,
                                       const CommandValues &values) {
  std::vector<std::string> args;
  for (const std::string &arg : command.args) {
    if (arg == "{options}") {
      args.insert(args.end(), values.options.begin(), values.options.end());
      continue;
    }
    std::string out;
    for (size_t i = 0; i < arg.size(); ++i) {
      if ((arg[i] == '{' || arg[i] == '}') && i + 1 < arg.size() &&
          arg[i + 1] == arg[i]) {
        out += arg[i++];
        continue;
      }
      size_t end = arg[i] == '{' ? arg.find('}', i) : std::string::npos;
      if (end == std::string::npos) {
        out += arg[i];
        continue;
      }
      auto found = values.values.find(arg.substr(i + 1, end - i - 1));
      out += found == values.values.end() ? "" : found->second;
      i = end;
    }
    args.push_back(out);
  }
  return args;
}

namespace {

/// In the child: the environment, limits and folder, then exec.
[[noreturn]] void execChild(const std::vector<std::string> &args,
                            const std::map<std::string, std::string> &env,
                            const std::string &workDir, uint64_t memoryMiB,
                            int logFd) {
  setpgid(0, 0);
  dup2(logFd, STDOUT_FILENO);
  dup2(logFd, STDERR_FILENO);
  int null = open("/dev/null", O_RDONLY);
  if (null >= 0)
    dup2(null, STDIN_FILENO);
  for (const auto &[name, value] : env)
    setenv(name.c_str(), value.c_str(), 1);
  if (memoryMiB) {
    rlimit limit{memoryMiB << 20, memoryMiB << 20};
    setrlimit(RLIMIT_AS, &limit);
  }
  if (!workDir.empty() && chdir(workDir.c_str()) != 0) {
    std::fprintf(stderr, "cannot enter %s: %s\n", workDir.c_str(),
                 std::strerror(errno));
    _exit(126);
  }
  std::vector<char *> argv;
  for (const std::string &arg : args)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::fprintf(stderr, "cannot run %s: %s\n", args[0].c_str(),
               std::strerror(errno));
  _exit(127);
}

std::string readLog(const char *path) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  constexpr size_t kKeep = 1 << 20;
  if (text.size() > kKeep)
    text = "[... " + std::to_string(text.size() - kKeep) + " bytes cut]\n" +
           text.substr(text.size() - kKeep);
  return text;
}

} // namespace

CommandRun runCommand(const std::vector<std::string> &args,
                      const std::map<std::string, std::string> &env,
                      const std::string &workDir, double seconds,
                      uint64_t memoryMiB) {
  CommandRun run;
  char log[] = "/tmp/sift-system-log-XXXXXX";
  int fd = mkstemp(log);
  if (fd < 0) {
    run.output = std::string("mkstemp: ") + std::strerror(errno);
    return run;
  }
  auto start = std::chrono::steady_clock::now();
  pid_t pid = forkTiedChild();
  if (pid == 0)
    execChild(args, env, workDir, memoryMiB, fd);
  close(fd);
  if (pid < 0) {
    unlink(log);
    run.output = std::string("fork: ") + std::strerror(errno);
    return run;
  }
  setpgid(pid, pid);
  auto deadline = start + std::chrono::duration<double>(seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      run.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // What the command left running in its group goes with it.
  kill(-pid, SIGKILL);
  run.seconds = std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  run.output = readLog(log);
  unlink(log);
  if (!run.timedOut && WIFEXITED(status))
    run.status = WEXITSTATUS(status);
  if (!run.timedOut && WIFSIGNALED(status))
    run.signal = WTERMSIG(status);
  return run;
}

std::string shellLine(const std::vector<std::string> &args) {
  std::string line;
  for (const std::string &arg : args) {
    bool plain = !arg.empty() &&
                 arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"
                                       "KLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") ==
                     std::string::npos;
    std::string quoted = arg;
    if (!plain) {
      quoted = "'";
      for (char c : arg)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      quoted += "'";
    }
    line += (line.empty() ? "" : " ") + quoted;
  }
  return line;
}

namespace {

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
      line.pop_back();
    if (!line.empty() && line.rfind("sift-phase:", 0) != 0)
      out.push_back(line);
  }
  return out;
}

} // namespace

std::string commandDiagnostic(const std::string &output) {
  std::vector<std::string> all = lines(output);
  if (all.empty())
    return "";
  // A compiler's diagnostic ("FILE:LINE:COL: error: MESSAGE"), also inside
  // an exception's text (iree.compiler's CompilerToolError ends with a
  // hint, not the error): its message, without the location.
  for (const std::string &line : all)
    if (size_t at = line.find("error: "); at != std::string::npos)
      return line.substr(at);
  // A Python traceback: the exception is its last unindented line.
  bool traceback = false;
  std::string exception;
  for (const std::string &line : all) {
    if (line.rfind("Traceback (most recent call last)", 0) == 0)
      traceback = true;
    else if (traceback && line[0] != ' ' && line[0] != '\t' &&
             line[0] != '^' && line[0] != '~')
      exception = line;
  }
  if (!exception.empty())
    return exception;
  for (const std::string &line : all)
    if (line.find("error") != std::string::npos ||
        line.find("Error") != std::string::npos ||
        line.find("Fatal") != std::string::npos)
      return line;
  return all.front();
}

std::string lastLines(const std::string &text, size_t count) {
  size_t at = text.size();
  for (size_t n = 0; n <= count && at > 0; ++n) {
    size_t nl = text.rfind('\n', at - 1);
    if (nl == std::string::npos)
      return text;
    at = nl;
  }
  return "[...]" + text.substr(at);
}

std::string lastPhase(const std::string &output) {
  std::string phase;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("sift-phase: ", 0) == 0) {
      phase = line.substr(12);
      while (!phase.empty() && (phase.back() == '\r' || phase.back() == ' '))
        phase.pop_back();
    }
  return phase;
}

} // namespace sift
