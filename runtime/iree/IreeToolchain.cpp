//===- runtime/iree/IreeToolchain.cpp - Where IREE's tools are --------===//

#include "runtime/iree/IreeToolchain.h"

#include "support/Text.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sift::rt {

namespace {

/// The folders to look in, first match wins.
std::vector<fs::path> candidateDirs() {
  std::vector<fs::path> dirs;
  if (const char *dir = std::getenv("SIFT_IREE_DIR"); dir && *dir) {
    dirs.push_back(fs::path(dir) / "bin");
    return dirs; // an explicit choice: nowhere else
  }
  // The venv of the build folder this harness was built in (bootstrap puts
  // it there), then one beside an installed or copied harness.
#ifdef SIFT_BUILD_DIR
  dirs.push_back(fs::path(SIFT_BUILD_DIR) / "venv" / "bin");
#endif
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    dirs.push_back(self.parent_path().parent_path() / "venv" / "bin");
  if (const char *path = std::getenv("PATH"))
    for (const std::string &dir : splitFields(path, ':'))
      if (!dir.empty())
        dirs.push_back(dir);
  return dirs;
}

bool executable(const fs::path &file) {
  return access(file.c_str(), X_OK) == 0;
}

/// The output of `command` (stdout and stderr), or "" when it cannot run.
std::string outputOf(const std::string &command) {
  std::string output;
  if (FILE *pipe = popen((command + " 2>&1").c_str(), "r")) {
    char chunk[512];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0)
      output.append(chunk, n);
    pclose(pipe);
  }
  return output;
}

/// The native tool behind a Python package's console script: pip's
/// `venv/bin/iree-compile` starts Python to start
/// `site-packages/iree/compiler/_mlir_libs/iree-compile` (iree-run-module:
/// `iree/_runtime_libs/`). Running the native one saves Python's start per
/// call, a third of a small compile. `script` itself when it is native or
/// the package's layout is not there.
fs::path nativeTool(const fs::path &script, const char *packageDir) {
  std::FILE *file = std::fopen(script.c_str(), "rb");
  if (!file)
    return script;
  char head[64] = {};
  size_t n = std::fread(head, 1, sizeof head - 1, file);
  std::fclose(file);
  if (n < 2 || std::string(head, n).find("python") == std::string::npos)
    return script;
  std::error_code ec;
  fs::path lib = script.parent_path().parent_path() / "lib";
  for (const auto &python : fs::directory_iterator(lib, ec)) {
    fs::path native = python.path() / "site-packages" / "iree" / packageDir /
                      script.filename();
    if (executable(native))
      return native;
  }
  return script;
}

} // namespace

std::string parseIreeVersion(const std::string &output) {
  const std::string key = "IREE compiler version ";
  size_t at = output.find(key);
  if (at == std::string::npos)
    return "";
  size_t end = output.find('\n', at);
  return output.substr(at + key.size(), end == std::string::npos
                                            ? std::string::npos
                                            : end - at - key.size());
}

Result<IreeToolchain> findIree() {
  for (const fs::path &dir : candidateDirs()) {
    if (!executable(dir / "iree-compile"))
      continue;
    IreeToolchain iree;
    iree.binDir = dir.string();
    iree.compile =
        nativeTool(dir / "iree-compile", "compiler/_mlir_libs").string();
    iree.runModule =
        nativeTool(dir / "iree-run-module", "_runtime_libs").string();
    iree.importOnnx = (dir / "iree-import-onnx").string();
    if (!executable(iree.runModule))
      return makeError("IREE is unavailable: " + iree.binDir +
                       " has iree-compile but no iree-run-module "
                       "(install iree-base-runtime beside iree-base-compiler)");
    iree.version = parseIreeVersion(outputOf("'" + iree.compile + "' --version"));
    if (iree.version.empty())
      return makeError("IREE is unavailable: " + iree.compile +
                       " --version does not say which IREE it is");
    return iree;
  }
  const char *dir = std::getenv("SIFT_IREE_DIR");
  return makeError(
      dir && *dir
          ? std::string("IREE is unavailable: SIFT_IREE_DIR=") + dir +
                " has no bin/iree-compile"
          : std::string("IREE is unavailable: no iree-compile in the build's "
                        "venv/bin or on PATH (scripts/bootstrap.sh installs "
                        "it unless SIFT_WITH_IREE=0)"));
}

} // namespace sift::rt
