//===- support/Result.h - Explicit errors for the runtime --------===//
//
// The runtime reports failures as values, never by exiting or throwing: a
// `Status` is success or an `Error` with a message, and `Result<T>` holds either
// a T or an Error. Messages say what was expected, what was found and where.
// This header depends on the C++ standard library only, so everything below
// `harness/` (including the LLVM-free runtime build) can use it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace sift {

/// A failure: a human-readable message that names the file, object or field
/// that is wrong and what was expected there.
struct Error {
  std::string message;
};

/// Makes an Error from a message.
inline Error makeError(std::string message) { return Error{std::move(message)}; }

/// Success or an Error.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}
  static Status success() { return Status(); }
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error &error() const {
    assert(error_ && "error() on a successful Status");
    return *error_;
  }
  const std::string &message() const { return error().message; }

private:
  std::optional<Error> error_;
};

/// A value of type T or an Error.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : storage_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}
  Result(Status status) : storage_(std::in_place_index<1>, status.error()) {
    assert(!status.ok() && "Result built from a successful Status");
  }
  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T &value() & {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(storage_);
  }
  const T &value() const & {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(storage_);
  }
  T &&value() && {
    assert(ok() && "value() on a failed Result");
    return std::get<0>(std::move(storage_));
  }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  const Error &error() const {
    assert(!ok() && "error() on a successful Result");
    return std::get<1>(storage_);
  }
  const std::string &message() const { return error().message; }
  /// The error as a Status (only valid when !ok()).
  Status status() const { return ok() ? Status() : Status(error()); }

private:
  std::variant<T, Error> storage_;
};

} // namespace sift
