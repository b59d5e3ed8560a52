// The POSIX Env: pread/pwrite, fdatasync, posix_fallocate, flock.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <list>
#include <mutex>
#include <utility>

#include "engine/env.h"

namespace strata::engine {

namespace {

Status Errno(const std::filesystem::path& path, const std::string& what, int err) {
  return Status::IoError(path.string() + ": " + what + ": " + std::strerror(err));
}

// Descriptors are a process-wide budget (ulimit -n), and a data directory may hold more tables
// than it allows. As InnoDB's innodb_open_files, files beyond the limit are closed, least
// recently used first, and reopened by path at their next use. A file being read or written is
// never closed, and one with unsynced writes is synced first, so the fsync that makes its
// writes durable (and any error of theirs) is never lost with its descriptor.
class PosixFile;

class DescriptorCache {
 public:
  static DescriptorCache& Get() {
    static DescriptorCache cache;
    return cache;
  }

  void SetLimit(std::size_t limit) {
    std::lock_guard<std::mutex> l(mu_);
    limit_ = std::max<std::size_t>(limit, 1);
  }

  // Registers a file opened on `fd`, making room for it among the open ones.
  void Add(PosixFile* f);
  // The descriptor of `f`, reopened if it was closed; it stays open until Release().
  Result<int> Acquire(PosixFile* f);
  void Release(PosixFile* f);
  void Remove(PosixFile* f);  // the file is being destroyed: closes its descriptor
  // The failure of a sync the cache made before closing `f` (Ok when none), given once.
  Status TakeSyncError(PosixFile* f);
  // After EMFILE from an open elsewhere: closes half of the unused files.
  void GiveBack() {
    std::lock_guard<std::mutex> l(mu_);
    MakeRoom(open_ / 2 + 1);
  }

 private:
  DescriptorCache() {
    // Half the soft limit: the rest stays for sockets, directories and the lock file.
    rlimit r{};
    if (::getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
      limit_ = std::max<std::size_t>(static_cast<std::size_t>(r.rlim_cur) / 2, 16);
  }
  // Closes unused files, least recently used first, until fewer than `keep` are open.
  void MakeRoom(std::size_t keep);
  void Close(PosixFile* f);

  std::mutex mu_;
  std::size_t limit_ = 4096;
  std::size_t open_ = 0;
  std::list<PosixFile*> lru_;  // open files, most recently used first
};

class PosixFile final : public File {
 public:
  PosixFile(std::filesystem::path path, int fd, bool read_only) : path_(std::move(path)), read_only_(read_only) {
    struct stat st;
    if (::fstat(fd, &st) == 0) {
      dev_ = st.st_dev;
      ino_ = st.st_ino;
    }
    fd_ = fd;
    DescriptorCache::Get().Add(this);
  }
  ~PosixFile() override { DescriptorCache::Get().Remove(this); }

  Status Read(std::uint64_t offset, std::span<std::byte> out) override {
    Held fd(this);
    if (!fd.ok()) return fd.status();
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::pread(*fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
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
    Held fd(this);
    if (!fd.ok()) return fd.status();
    ++writes_;
    std::size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::pwrite(*fd, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Errno(path_, "write at offset " + std::to_string(offset + done), n < 0 ? errno : ENOSPC);
      done += static_cast<std::size_t>(n);
    }
    return Status::Ok();
  }

  Status Sync() override {
    Held fd(this);
    if (!fd.ok()) return fd.status();
    Status synced = SyncOpen(*fd);
    // A sync the cache made before closing the file, and that failed, is reported once, here.
    Status failed_before = DescriptorCache::Get().TakeSyncError(this);
    return synced.ok() ? failed_before : synced;
  }

  Result<std::uint64_t> Size() override {
    Held fd(this);
    if (!fd.ok()) return fd.status();
    struct stat st;
    if (::fstat(*fd, &st) != 0) return Errno(path_, "fstat", errno);
    return static_cast<std::uint64_t>(st.st_size);
  }

  Status Resize(std::uint64_t size) override {
    Held fd(this);
    if (!fd.ok()) return fd.status();
    ++writes_;
    struct stat st;
    if (::fstat(*fd, &st) != 0) return Errno(path_, "fstat", errno);
    const auto current = static_cast<std::uint64_t>(st.st_size);
    if (size > current) {
      // Reserve the blocks now: a full disk shows up here, not in a later page write.
      const int err = ::posix_fallocate(*fd, static_cast<off_t>(current), static_cast<off_t>(size - current));
      if (err == 0) return Status::Ok();
      if (err != EOPNOTSUPP && err != EINVAL) return Errno(path_, "extend to " + std::to_string(size) + " bytes", err);
    }
    if (::ftruncate(*fd, static_cast<off_t>(size)) != 0)
      return Errno(path_, "resize to " + std::to_string(size), errno);
    return Status::Ok();
  }

  const std::filesystem::path& path() const override { return path_; }

 private:
  friend class DescriptorCache;

  // The descriptor for one operation, reopened if the cache had closed it.
  class Held {
   public:
    explicit Held(PosixFile* f) : f_(f), fd_(DescriptorCache::Get().Acquire(f)) {}
    ~Held() {
      if (fd_.ok()) DescriptorCache::Get().Release(f_);
    }
    bool ok() const { return fd_.ok(); }
    Status status() const { return fd_.status(); }
    int operator*() const { return *fd_; }

   private:
    PosixFile* f_;
    Result<int> fd_;
  };

  // fdatasync; what it reports covers every write before it began.
  Status SyncOpen(int fd) {
    const std::uint64_t writes = writes_;
    if (::fdatasync(fd) != 0) return Errno(path_, "fdatasync", errno);
    synced_writes_ = writes;
    return Status::Ok();
  }

  // Opens the file again by its path: the same file (device and inode) or an error. (A file
  // removed by hand whose inode number went to a new file at the same path is not noticed.)
  Result<int> Reopen(int* err) {
    const int fd = ::open(path_.c_str(), (read_only_ ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    *err = fd < 0 ? errno : 0;
    if (fd < 0) return Errno(path_, "reopen (closed to keep within the open-files limit)", *err);
    struct stat st;
    if (::fstat(fd, &st) != 0 || st.st_dev != dev_ || st.st_ino != ino_) {
      ::close(fd);
      return Status::IoError(path_.string() +
                             ": was removed or replaced while closed to keep within the open-files limit");
    }
    return fd;
  }

  bool dirty() const { return writes_ != synced_writes_; }

  const std::filesystem::path path_;
  const bool read_only_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  // The rest is guarded by the cache's mutex, except the write counters: atomics, where two
  // syncs racing can at worst leave the file looking dirty, which costs an extra sync.
  int fd_ = -1;
  int users_ = 0;  // operations holding fd_ now
  std::list<PosixFile*>::iterator lru_position_;
  std::atomic<std::uint64_t> writes_{0};
  std::atomic<std::uint64_t> synced_writes_{0};
  Status close_sync_error_ = Status::Ok();  // guarded by the cache's mutex
};

void DescriptorCache::Add(PosixFile* f) {
  std::lock_guard<std::mutex> l(mu_);
  MakeRoom(limit_);
  lru_.push_front(f);
  f->lru_position_ = lru_.begin();
  ++open_;
}

Result<int> DescriptorCache::Acquire(PosixFile* f) {
  std::lock_guard<std::mutex> l(mu_);
  if (f->fd_ < 0) {
    MakeRoom(limit_);
    int err = 0;
    auto fd = f->Reopen(&err);
    if (err == EMFILE && open_ > 0) {  // the process ran out elsewhere: give back more
      MakeRoom(open_ / 2 + 1);
      fd = f->Reopen(&err);
    }
    if (!fd.ok()) return fd.status();
    f->fd_ = *fd;
    ++open_;
    lru_.push_front(f);
  } else {
    lru_.splice(lru_.begin(), lru_, f->lru_position_);
  }
  f->lru_position_ = lru_.begin();
  ++f->users_;
  return f->fd_;
}

void DescriptorCache::Release(PosixFile* f) {
  std::lock_guard<std::mutex> l(mu_);
  --f->users_;
}

Status DescriptorCache::TakeSyncError(PosixFile* f) {
  std::lock_guard<std::mutex> l(mu_);
  return std::exchange(f->close_sync_error_, Status::Ok());
}

void DescriptorCache::Remove(PosixFile* f) {
  std::lock_guard<std::mutex> l(mu_);
  if (f->fd_ >= 0) Close(f);
}

void DescriptorCache::MakeRoom(std::size_t keep) {
  // Clean files first: closing them costs nothing but a later open.
  for (bool dirty_too : {false, true}) {
    for (auto it = lru_.end(); open_ >= keep && it != lru_.begin();) {
      PosixFile* f = *--it;
      if (f->users_ > 0 || (f->dirty() && !dirty_too)) continue;
      if (f->dirty()) {
        Status synced = f->SyncOpen(f->fd_);
        if (!synced.ok()) f->close_sync_error_ = synced;  // the owner's next Sync() reports it
      }
      const auto next = std::next(it);
      Close(f);
      it = next;
    }
  }
}

void DescriptorCache::Close(PosixFile* f) {
  lru_.erase(f->lru_position_);
  ::close(f->fd_);
  f->fd_ = -1;
  --open_;
}

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
    int fd = ::open(path.c_str(), flags, 0644);
    if (fd < 0 && errno == EMFILE) {
      DescriptorCache::Get().GiveBack();
      fd = ::open(path.c_str(), flags, 0644);
    }
    if (fd < 0 && errno == ENOENT) return Status::NotFound(path.string() + ": open: " + std::strerror(ENOENT));
    if (fd < 0) return Errno(path, "open", errno);
    return std::unique_ptr<File>(new PosixFile(path, fd, mode == OpenMode::kReadOnly));
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

  void SetOpenFilesLimit(std::size_t limit) override { DescriptorCache::Get().SetLimit(limit); }

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
