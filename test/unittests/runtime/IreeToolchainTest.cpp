//===- IreeToolchainTest.cpp - Where IREE's tools are ----------------------===//
//
// The version comes from iree-compile's own words; SIFT_IREE_DIR is an
// explicit choice (nowhere else is searched); a missing runtime tool or a
// missing folder makes IREE unavailable in one sentence.
//
//===----------------------------------------------------------------------===//

#include "runtime/iree/IreeToolchain.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace sift;
using namespace sift::rt;
namespace fs = std::filesystem;

namespace {

/// A folder with fake IREE tools, SIFT_IREE_DIR set to it while alive.
struct FakeIree {
  fs::path root;
  explicit FakeIree(bool withRuntime) {
    root = fs::temp_directory_path() /
           ("sift-fake-iree-" + std::to_string(getpid()));
    fs::create_directories(root / "bin");
    write("iree-compile", "echo 'IREE (https://iree.dev):'\n"
                          "echo '  IREE compiler version 9.9.9 @ abc123'\n"
                          "echo '  LLVM version 24.0.0git'\n");
    if (withRuntime)
      write("iree-run-module", "exit 0\n");
    setenv("SIFT_IREE_DIR", root.c_str(), 1);
  }
  ~FakeIree() {
    unsetenv("SIFT_IREE_DIR");
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  void write(const std::string &name, const std::string &body) {
    fs::path file = root / "bin" / name;
    std::ofstream(file) << "#!/bin/sh\n" << body;
    fs::permissions(file, fs::perms::owner_all);
  }
};

} // namespace

TEST(IreeToolchain, ParsesTheCompilersVersion) {
  EXPECT_EQ(parseIreeVersion("IREE (https://iree.dev):\n  IREE compiler "
                             "version 3.13.0rc20261016 @ 89ece87b\n  LLVM "
                             "version 24.0.0git\n"),
            "3.13.0rc20261016 @ 89ece87b");
  EXPECT_EQ(parseIreeVersion("command not found"), "");
}

TEST(IreeToolchain, FindsTheToolsOfSiftIreeDir) {
  FakeIree fake(/*withRuntime=*/true);
  Result<IreeToolchain> iree = findIree();
  ASSERT_TRUE(iree.ok()) << iree.message();
  EXPECT_EQ(iree->version, "9.9.9 @ abc123");
  EXPECT_EQ(fs::path(iree->binDir), fake.root / "bin");
  EXPECT_EQ(fs::path(iree->runModule), fake.root / "bin" / "iree-run-module");
}

TEST(IreeToolchain, UnavailableInOneSentence) {
  {
    FakeIree fake(/*withRuntime=*/false);
    Result<IreeToolchain> iree = findIree();
    ASSERT_FALSE(iree.ok());
    EXPECT_NE(iree.message().find("has iree-compile but no iree-run-module"),
              std::string::npos)
        << iree.message();
  }
  setenv("SIFT_IREE_DIR", "/nonexistent-iree", 1);
  Result<IreeToolchain> none = findIree();
  unsetenv("SIFT_IREE_DIR");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.message(), "IREE is unavailable: SIFT_IREE_DIR=/nonexistent-iree "
                            "has no bin/iree-compile");
}

TEST(IreeToolchain, RunsTheNativeToolsBehindAVenvsPythonScripts) {
  FakeIree fake(/*withRuntime=*/true);
  // pip's console script starts Python; the native tools live in the
  // package. The version is asked of the native compiler.
  fs::path site = fake.root / "lib" / "python3.11" / "site-packages" / "iree";
  fs::create_directories(site / "compiler" / "_mlir_libs");
  fs::create_directories(site / "_runtime_libs");
  auto tool = [](const fs::path &file, const std::string &body) {
    std::ofstream(file) << body;
    fs::permissions(file, fs::perms::owner_all);
  };
  tool(fake.root / "bin" / "iree-compile",
       "#!/usr/bin/python3\nraise SystemExit(1)\n");
  tool(site / "compiler" / "_mlir_libs" / "iree-compile",
       "#!/bin/sh\necho '  IREE compiler version 7.7.7 @ native'\n");
  tool(site / "_runtime_libs" / "iree-run-module", "#!/bin/sh\nexit 0\n");
  Result<IreeToolchain> iree = findIree();
  ASSERT_TRUE(iree.ok()) << iree.message();
  EXPECT_EQ(fs::path(iree->compile),
            site / "compiler" / "_mlir_libs" / "iree-compile");
  // bin/iree-run-module is a shell script here: it stays.
  EXPECT_EQ(fs::path(iree->runModule), fake.root / "bin" / "iree-run-module");
  EXPECT_EQ(iree->version, "7.7.7 @ native");
}
