// The POSIX Env: pread/pwrite, fdatasync, posix_fallocate, flock.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/env.h"

namespace strata::engine {

namespace {

Status Errno(const std::filesystem::path& path, const std::string& what, int err) {
  return Status::IoError(path.string() + ": " + what + ": " + std::strerror(err));
}

class PosixFile final : public File {
 public:
  PosixFile(std::filesystem::path path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  Status Read(std::uint64_t offset, std::span<std::byte> out) override {
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno(path_, "read at offset " + std::to_string(offset + done), errno);
      if (n == 0) {
        return Status::IoError(path_.string() + ": read of " + std::to_string(out.size()) + " bytes at offset " +
                               std::to_string(offset) + " runs past the end of the file");
      }
      done += static_cast<std::size_t>(n);
    }
    return Status::Ok();
  }

  Status Write(std::uint64_t offset, std::span<const std::byte> data) override {
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::pwrite(fd_, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Errno(path_, "write at offset " + std::to_string(offset + done), n < 0 ? errno : ENOSPC);
      done += static_cast<std::size_t>(n);
    }
    return Status::Ok();
  }

  Status Sync() override {
    if (::fdatasync(fd_) != 0) return Errno(path_, "fdatasync", errno);
    return Status::Ok();
  }

  Result<std::uint64_t> Size() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0) return Errno(path_, "fstat", errno);
    return static_cast<std::uint64_t>(st.st_size);
  }

  Status Resize(std::uint64_t size) override {
    auto current = Size();
    if (!current.ok()) return current.status();
    if (size > *current) {
      // Reserve the blocks now: a full disk shows up here, not in a later page write.
      const int err = ::posix_fallocate(fd_, static_cast<off_t>(*current), static_cast<off_t>(size - *current));
      if (err == 0) return Status::Ok();
      if (err != EOPNOTSUPP && err != EINVAL) return Errno(path_, "extend to " + std::to_string(size) + " bytes", err);
    }
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0)
      return Errno(path_, "resize to " + std::to_string(size), errno);
    return Status::Ok();
  }

  const std::filesystem::path& path() const override { return path_; }

 private:
  std::filesystem::path path_;
  int fd_;
};

class PosixLock final : public FileLock {
 public:
  explicit PosixLock(int fd) : fd_(fd) {}
  ~PosixLock() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  int fd_;
};

class PosixEnv final : public Env {
 public:
  Result<std::unique_ptr<File>> OpenFile(const std::filesystem::path& path, OpenMode mode) override {
    int flags = (mode == OpenMode::kReadOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC;
    if (mode == OpenMode::kCreate) flags |= O_CREAT;
    if (mode == OpenMode::kCreateNew) flags |= O_CREAT | O_EXCL;
    const int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0) return Errno(path, "open", errno);
    return std::unique_ptr<File>(new PosixFile(path, fd));
  }

  Status CreateDir(const std::filesystem::path& path) override {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (ec) return Status::IoError(path.string() + ": create directory: " + ec.message());
    return Status::Ok();
  }

  bool Exists(const std::filesystem::path& path) override {
    std::error_code ec;
    return std::filesystem::exists(path, ec);
  }

  Status Remove(const std::filesystem::path& path) override {
    if (::remove(path.c_str()) != 0) return Errno(path, "remove", errno);  // a file or an empty directory
    return Status::Ok();
  }

  Status Rename(const std::filesystem::path& from, const std::filesystem::path& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return Errno(from, "rename to " + to.string(), errno);
    return Status::Ok();
  }

  Status SyncDir(const std::filesystem::path& dir) override {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return Errno(dir, "open directory", errno);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return Errno(dir, "fsync directory", err);
    return Status::Ok();
  }

  Result<std::vector<std::string>> ListDir(const std::filesystem::path& dir) override {
    std::error_code ec;
    std::vector<std::string> names;
    for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    if (ec) return Status::IoError(dir.string() + ": list directory: " + ec.message());
    return names;
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::filesystem::path& path) override {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Errno(path, "open lock file", errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) {
        return Status::Busy(path.string() +
                            ": locked by another process (is another strata using this data directory?)");
      }
      return Errno(path, "lock", err);
    }
    return std::unique_ptr<FileLock>(new PosixLock(fd));
  }
};

}  // namespace

Env* Env::Default() {
  static PosixEnv env;
  return &env;
}

}  // namespace strata::engine
