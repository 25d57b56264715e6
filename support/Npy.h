//===- support/Npy.h - NumPy .npy files for host tensors ----------===//
//
// Reads and writes NumPy `.npy` files, the format inputs, expected outputs and
// run results take on disk and inside artifacts. Reads format versions 1.0 and
// 2.0, writes 1.0 (2.0 only when the header would not fit 1.0). Supported
// dtypes are the little-endian `<f2 <f4 <f8 <i4 <i8` in C order, 0-d scalars
// and shapes with 0-sized dimensions included; anything else (Fortran order,
// big-endian, other dtypes, a data size that does not match the header) is an
// error that names the file and what is wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/HostTensor.h"
#include "support/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sift {

/// The NumPy dtype string of an element type: "<f4" for f32, ...
std::string_view npyDtype(ElementType type);

/// The element type of a NumPy dtype string; nullopt for anything but
/// "<f2", "<f4", "<f8", "<i4", "<i8".
std::optional<ElementType> parseNpyDtype(std::string_view dtype);

/// Parses the `.npy` bytes in [data, data + size). `nameForMessages` (usually
/// the file name) starts every error message.
Result<HostTensor> parseNpy(const uint8_t *data, size_t size,
                            const std::string &nameForMessages);

/// Reads and parses the `.npy` file at `path`.
Result<HostTensor> readNpy(const std::string &path);

/// Encodes a tensor as `.npy` bytes (format 1.0). The tensor's data must hold
/// numElements() * byteWidth(type) bytes; writeNpy checks this, encodeNpy
/// writes whatever data the tensor holds.
std::vector<uint8_t> encodeNpy(const HostTensor &tensor);

/// Writes `tensor` to `path` atomically (a temporary file, then a rename).
/// Fails without touching `path` when the tensor's data size does not match
/// its shape or the file cannot be written.
Status writeNpy(const std::string &path, const HostTensor &tensor);

} // namespace sift
