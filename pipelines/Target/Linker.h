//===- Linker.h - ELF links with lld, in this process or a child -*- C++ -*-===//
//
// Host shared objects and HSACO code objects are both an ELF object linked
// with `ld.lld -shared`. When sift is built with lld's library (Debian's
// liblld-22-dev), the link runs in this process: no exec of a program that
// maps all of LLVM, which cost a fuzz case more than the link itself.
// Without the library, or with SIFT_LINK=process, it runs ld.lld as a child.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sift {

/// How links run.
enum class LinkMode {
  /// lld's library in this process.
  InProcess,
  /// The ld.lld program as a child process.
  ChildProcess,
};

/// In process when this build has lld's library, unless the environment
/// variable SIFT_LINK is "process".
LinkMode defaultLinkMode();

/// Whether this build has lld's library.
bool haveInProcessLinker();

/// Links one ELF object into `output` with `ld.lld <flags> -o OUT OBJECT`.
/// `linker` is the ld.lld program a ChildProcess link runs. Returns false
/// with lld's diagnostics in `error` when the link fails.
bool linkElfObject(const std::vector<std::string> &flags,
                   std::string_view object, LinkMode mode,
                   const std::string &linker, std::vector<uint8_t> &output,
                   std::string &error);

} // namespace sift
