//===- support/FileIO.cpp - Whole-file reads and atomic writes ----===//
//
// POSIX implementations of readFileBytes and writeFileAtomic. Every system call
// is checked, EINTR is retried, and a failed atomic write removes its
// temporary file.
//
//===----------------------------------------------------------------------===//

#include "support/FileIO.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sift;

namespace {

std::string systemError(const std::string &path, const char *what, int err) {
  return path + ": " + what + ": " + std::strerror(err);
}

/// Closes a file descriptor when it goes out of scope.
class FdCloser {
public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  /// Closes now and reports the error close() returned, if any.
  int closeNow() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

private:
  int fd_;
};

} // namespace

Result<std::vector<uint8_t>> sift::readFileBytes(const std::string &path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return makeError(systemError(path, "cannot open", errno));
  FdCloser closer(fd);

  struct stat st;
  if (::fstat(fd, &st) != 0)
    return makeError(systemError(path, "cannot stat", errno));
  if (S_ISDIR(st.st_mode))
    return makeError(path + ": is a directory, not a file");

  std::vector<uint8_t> bytes;
  if (S_ISREG(st.st_mode) && st.st_size > 0)
    bytes.reserve(static_cast<size_t>(st.st_size));
  uint8_t chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return makeError(systemError(path, "cannot read", errno));
    }
    if (n == 0)
      break;
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  return bytes;
}

Status sift::writeFileAtomic(const std::string &path, const uint8_t *data,
                             size_t size) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd;
  do {
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return makeError(systemError(tmp, "cannot create", errno));
  FdCloser closer(fd);

  auto fail = [&](const char *what, int err) -> Status {
    ::unlink(tmp.c_str());
    return makeError(systemError(tmp, what, err));
  };

  size_t written = 0;
  while (written < size) {
    ssize_t n = ::write(fd, data + written, size - written);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return fail("cannot write", errno);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
    return fail("cannot flush", errno);
  if (closer.closeNow() != 0)
    return fail("cannot close", errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return makeError(path + ": cannot rename " + tmp +
                     " over it: " + std::strerror(err));
  }
  return Status::success();
}

bool sift::isSameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
