//===- runtime/iree/IreeToolchain.h - Where IREE's tools are -*- C++ -*-===//
//
// IREE, the second system under test, is used through its command-line
// tools from the pinned Python packages (iree-base-compiler and
// iree-base-runtime 3.13.0, onnx) that scripts/bootstrap.sh installs into
// the build folder's virtual environment (`build/venv`; SIFT_WITH_IREE=0
// skips it). Without them the IREE pipelines are unavailable, said in one
// sentence, never a crash.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <string>

namespace sift::rt {

/// The IREE tools found, and the compiler's version.
struct IreeToolchain {
  std::string binDir;
  /// The tools themselves (the native programs behind a venv's Python
  /// console scripts).
  std::string compile;    ///< iree-compile
  std::string runModule;  ///< iree-run-module
  std::string importOnnx; ///< iree-import-onnx
  /// "3.13.0rc20261016 @ 89ece87b89852100c0a4ac3d515e14842d090967": what
  /// `iree-compile --version` says after "IREE compiler version".
  std::string version;
};

/// Finds IREE's tools in $SIFT_IREE_DIR/bin when set, else in the build's
/// virtual environment (`venv/bin` beside the harness's build folders),
/// else on PATH, and asks iree-compile its version. The error is one
/// sentence saying why the IREE pipelines are unavailable.
Result<IreeToolchain> findIree();

/// The version in `iree-compile --version`'s output, or "" when it has none.
std::string parseIreeVersion(const std::string &output);

} // namespace sift::rt
