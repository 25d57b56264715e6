//===- support/FileIO.h - Whole-file reads and atomic writes ------===//
//
// The two file operations the runtime needs: read a whole file into memory and
// replace a file atomically (write `path.tmp.<pid>`, then rename), so that a
// reader never sees a half-written `.npy` or artifact. Errors name the path and
// the system's reason. POSIX only; no exceptions escape.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sift {

/// Reads the whole file at `path`. Fails with "PATH: cannot open: REASON" or
/// "PATH: cannot read: REASON".
Result<std::vector<uint8_t>> readFileBytes(const std::string &path);

/// Writes `size` bytes to `path.tmp.<pid>`, flushes them to disk and renames
/// the temporary over `path`. On any failure the temporary is removed and
/// `path` is left as it was.
Status writeFileAtomic(const std::string &path, const uint8_t *data,
                       size_t size);

/// Whether `a` and `b` name one existing file (through links, `.`, `..`):
/// an output about to replace an input. False when either does not exist.
bool isSameFile(const std::string &a, const std::string &b);

} // namespace sift
