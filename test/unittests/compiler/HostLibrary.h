//===- HostLibrary.h - A host module built and loaded for a test -*- C++
//-*-===//
//
// The emu tests build kernels lowered for the host into a shared object,
// write it to a temporary file and dlopen it: HostLibrary does that and
// removes the file when it goes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "pipelines/Target/HostTarget.h"

#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <dlfcn.h>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sift::irtest {

class HostLibrary {
public:
  HostLibrary() = default;
  HostLibrary(const HostLibrary &) = delete;
  HostLibrary &operator=(const HostLibrary &) = delete;
  ~HostLibrary() {
    if (handle_)
      dlclose(handle_);
    if (!path_.empty())
      std::remove(path_.c_str());
  }

  /// Builds `host` (LLVM dialect) into a shared object and loads it.
  void load(mlir::ModuleOp host) {
    std::vector<uint8_t> bytes;
    std::string error;
    ASSERT_TRUE(sift::buildHostSharedObject(host, sift::HostTargetOptions{},
                                            bytes, error))
        << error;
    char path[] = "/tmp/sift-emu-testXXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    path_ = path;
    std::ofstream(path_, std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    handle_ = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
  }

  /// A symbol of the library; null when absent or nothing is loaded.
  void *symbol(const std::string &name) const {
    return handle_ ? dlsym(handle_, name.c_str()) : nullptr;
  }

private:
  std::string path_;
  void *handle_ = nullptr;
};

} // namespace sift::irtest
