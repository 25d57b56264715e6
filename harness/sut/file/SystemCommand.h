//===- harness/sut/file/SystemCommand.h - A system file's commands -*- C++ -*-===//
//
// What a system file's commands need beyond support/Command.h: the Python
// that "{python}" names on the compile host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Command.h"

#include <string>

namespace sift::harness {

/// The Python a system file's "{python}" names: $SIFT_PYTHON, else the
/// build's venv (bootstrap's build/venv/bin/python), else python3.
std::string systemPython();

} // namespace sift::harness
