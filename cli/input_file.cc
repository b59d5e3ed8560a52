#include "cli/input_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

namespace strata::cli {

using ondisk::Result;
using ondisk::Status;

Result<std::unique_ptr<InputFile>> InputFile::Open(const std::string& path, bool gzip_allowed) {
  const int fd = path == "-" ? ::dup(STDIN_FILENO) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(path + ": " + std::strerror(errno));
  std::unique_ptr<InputFile> f(new InputFile());
  f->path_ = path == "-" ? "stdin" : path;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) f->size_ = static_cast<std::uint64_t>(st.st_size);
  if (!gzip_allowed) {
    f->fd_ = fd;
    return f;
  }
  gzFile gz = ::gzdopen(fd, "rb");
  if (!gz) {
    ::close(fd);
    return Status::IoError(path + ": cannot read it");
  }
  ::gzbuffer(gz, 1u << 20);
  f->gz_ = gz;
  return f;
}

InputFile::~InputFile() {
  if (gz_) ::gzclose(static_cast<gzFile>(gz_));
  if (fd_ >= 0) ::close(fd_);
}

Result<std::size_t> InputFile::Read(char* buf, std::size_t n) {
  if (fd_ >= 0) {
    for (;;) {
      const ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) {
        offset_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno != EINTR) return Status::IoError(path_ + ": " + std::strerror(errno));
    }
  }
  const int got = ::gzread(static_cast<gzFile>(gz_), buf, static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30)));
  if (got < 0) {
    int code = 0;
    const char* what = ::gzerror(static_cast<gzFile>(gz_), &code);
    return Status::Corruption(path_ + ": " + (code == Z_ERRNO ? std::strerror(errno) : what) + " (after " +
                              std::to_string(position()) + " bytes of the file)");
  }
  if (got == 0) {
    // The end, or a stream that stopped early: zlib says which only through its error
    // (Z_BUF_ERROR for a truncated file), whether or not it also reached the file's end.
    int code = 0;
    const char* what = ::gzerror(static_cast<gzFile>(gz_), &code);
    if (code != Z_OK) {
      return Status::Corruption(
          fmt::format("{}: the compressed stream is damaged or cut short at byte {} of {} ({}); "
                      "nothing after that point was read",
                      path_, position(), size_, what));
    }
  }
  return static_cast<std::size_t>(got);
}

std::uint64_t InputFile::position() const {
  if (fd_ >= 0) return offset_;
  const auto off = ::gzoffset(static_cast<gzFile>(gz_));
  return off < 0 ? 0 : static_cast<std::uint64_t>(off);
}

}  // namespace strata::cli
