// Env and File: the only code in the engine that calls the operating system (architecture
// layer 1). Tests swap in FaultInjectionEnv (fault_injection_env.h) to drop unsynced writes,
// tear a page write, fail fsync or fill the disk.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ondisk/status.h"

namespace strata::engine {

using ondisk::Result;
using ondisk::Status;

// A file read and written at offsets (pread/pwrite). Writes are durable only after Sync().
class File {
 public:
  virtual ~File() = default;
  // Reads exactly out.size() bytes at `offset`; IoError naming the file and offset otherwise
  // (including a read past the end).
  virtual Status Read(std::uint64_t offset, std::span<std::byte> out) = 0;
  virtual Status Write(std::uint64_t offset, std::span<const std::byte> data) = 0;
  virtual Status Sync() = 0;  // data (and size) reach the disk
  virtual Result<std::uint64_t> Size() = 0;
  // Grows (with zeros, space reserved so later writes cannot hit a full disk) or shrinks.
  virtual Status Resize(std::uint64_t size) = 0;
  virtual const std::filesystem::path& path() const = 0;
};

// Holds an exclusive lock on a file until destroyed.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

enum class OpenMode {
  kExisting,   // fail if missing
  kCreate,     // open, creating if missing
  kCreateNew,  // fail if it exists
  kReadOnly,   // fail if missing; reads only (a read-only open: a snapshot, a backup mount)
};

class Env {
 public:
  virtual ~Env() = default;
  // The process-wide POSIX environment.
  static Env* Default();

  virtual Result<std::unique_ptr<File>> OpenFile(const std::filesystem::path& path, OpenMode mode) = 0;
  virtual Status CreateDir(const std::filesystem::path& path) = 0;  // with parents; ok if it exists
  virtual bool Exists(const std::filesystem::path& path) = 0;
  virtual Status Remove(const std::filesystem::path& path) = 0;
  virtual Status Rename(const std::filesystem::path& from, const std::filesystem::path& to) = 0;
  // Makes creations, removals and renames in `dir` durable.
  virtual Status SyncDir(const std::filesystem::path& dir) = 0;
  virtual Result<std::vector<std::string>> ListDir(const std::filesystem::path& dir) = 0;
  // An exclusive lock (flock) on `path`, created if needed. Fails at once, saying who holds
  // it when that is known, if another process does.
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::filesystem::path& path) = 0;
  // innodb_open_files: at most this many files stay open at once (process-wide); the least
  // recently used are closed and reopened when next used. Half of `ulimit -n` until set.
  virtual void SetOpenFilesLimit(std::size_t limit) { (void)limit; }
};

}  // namespace strata::engine
