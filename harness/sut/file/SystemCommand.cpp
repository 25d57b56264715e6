//===- harness/sut/file/SystemCommand.cpp - A system file's commands ------===//

#include "harness/sut/file/SystemCommand.h"

#include <cstdlib>
#include <filesystem>

namespace sift::harness {

std::string systemPython() {
  namespace fs = std::filesystem;
  if (const char *python = std::getenv("SIFT_PYTHON"); python && *python)
    return python;
  std::error_code ec;
#ifdef SIFT_BUILD_DIR
  if (fs::path venv = fs::path(SIFT_BUILD_DIR) / "venv" / "bin" / "python";
      fs::exists(venv, ec))
    return venv.string();
#endif
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    if (fs::path venv = self.parent_path().parent_path() / "venv" / "bin" /
                        "python";
        fs::exists(venv, ec))
      return venv.string();
  return "python3";
}

} // namespace sift::harness
