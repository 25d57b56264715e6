//===- Linker.cpp - ELF links with lld, in this process or a child --------===//

#include "pipelines/Target/Linker.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

#ifndef SIFT_HAVE_LLD_LIBRARY
#define SIFT_HAVE_LLD_LIBRARY 0
#endif

#if SIFT_HAVE_LLD_LIBRARY
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

namespace sift {

namespace {

/// Removes a file when it goes out of scope.
struct TempFile {
  llvm::SmallString<128> path;
  ~TempFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

/// Set when lld said a failed link left it unable to run again in this
/// process: later links run as children.
bool lldSpent = false;

bool linkInProcess(const std::vector<const char *> &args, std::string &error) {
#if SIFT_HAVE_LLD_LIBRARY
  std::string diagnostics;
  llvm::raw_string_ostream out(diagnostics), err(diagnostics);
  lld::Result result =
      lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  if (!result.canRunAgain)
    lldSpent = true;
  if (result.retCode == 0)
    return true;
  error = "linking with lld (in process) failed\n" + diagnostics;
  return false;
#else
  (void)args;
  error = "this build has no in-process lld";
  return false;
#endif
}

bool linkInChild(const std::string &linker,
                 const std::vector<const char *> &args, std::string &error) {
  TempFile log;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-ld", "log", log.path)) {
    error = "cannot create a temporary log file: " + ec.message();
    return false;
  }
  llvm::SmallVector<llvm::StringRef> argv = {linker};
  for (size_t i = 1; i < args.size(); ++i)
    argv.push_back(args[i]);
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(log.path),
                                                llvm::StringRef(log.path)};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(linker, argv, std::nullopt, redirects,
                                         /*SecondsToWait=*/60,
                                         /*MemoryLimit=*/0, &execError);
  if (status == 0)
    return true;
  error = "linking with " + linker + " failed";
  if (!execError.empty())
    error += ": " + execError;
  if (auto text = llvm::MemoryBuffer::getFile(log.path))
    error += "\n" + (*text)->getBuffer().str();
  return false;
}

} // namespace

bool haveInProcessLinker() { return SIFT_HAVE_LLD_LIBRARY != 0; }

LinkMode defaultLinkMode() {
  const char *env = std::getenv("SIFT_LINK");
  if (!haveInProcessLinker() || (env && std::strcmp(env, "process") == 0))
    return LinkMode::ChildProcess;
  return LinkMode::InProcess;
}

bool linkElfObject(const std::vector<std::string> &flags,
                   std::string_view object, LinkMode mode,
                   const std::string &linker, std::vector<uint8_t> &output,
                   std::string &error) {
  TempFile input, result;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-link", "o", input.path)) {
    error = "cannot create a temporary object file: " + ec.message();
    return false;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input.path, ec);
    if (ec) {
      error = "cannot write " + input.path.str().str() + ": " + ec.message();
      return false;
    }
    os.write(object.data(), object.size());
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("sift-link", "out", result.path)) {
    error = "cannot create a temporary output file: " + ec.message();
    return false;
  }
  std::vector<const char *> args = {"ld.lld"};
  for (const std::string &flag : flags)
    args.push_back(flag.c_str());
  // One thread: the harness runs a case per core already.
  args.push_back("--threads=1");
  args.push_back("-o");
  args.push_back(result.path.c_str());
  args.push_back(input.path.c_str());
  bool linked = mode == LinkMode::InProcess && !lldSpent
                    ? linkInProcess(args, error)
                    : linkInChild(linker, args, error);
  if (!linked)
    return false;
  auto bytes = llvm::MemoryBuffer::getFile(result.path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes) {
    error = "cannot read the linked file " + result.path.str().str();
    return false;
  }
  llvm::StringRef data = (*bytes)->getBuffer();
  output.assign(data.begin(), data.end());
  return true;
}

} // namespace sift
