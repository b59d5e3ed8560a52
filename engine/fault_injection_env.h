// An Env for crash and fault tests, wrapping a real one (RocksDB's fault_injection_fs in
// spirit). It remembers what every write overwrote until the file is synced, so a simulated
// crash can put each file back to its last synced state; and it can fail fsync, fill the disk,
// or tear the next write after a given number of bytes.
//
//   FaultInjectionEnv env(Env::Default());
//   ... run the engine on &env ...
//   env.Crash();   // unsynced writes are lost, as after a power cut
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/env.h"

namespace strata::engine {

class FaultInjectionEnv final : public Env {
 public:
  explicit FaultInjectionEnv(Env* base) : base_(base) {}

  // Puts every file back to its contents and size at its last Sync() (or its creation),
  // as a crash would. Files created since their directory was last synced are not removed:
  // the engine always syncs directories after creating files.
  Status Crash();

  // A crash after which everything written did reach the disk (a torn write only in part):
  // clears the stopped state and forgets the unsynced writes instead of undoing them.
  void Restart();

  // Every later write and sync fails, as if the machine had lost power, until Crash(): lets a
  // test drop a Database (whose shutdown would otherwise flush) and then crash.
  void PowerOff() { stopped_ = true; }

  // Faults. Each applies until cleared.
  void SetSyncFails(bool fails) { sync_fails_ = fails; }
  void SetDiskFull(bool full) { disk_full_ = full; }
  // The next write keeps only its first `keep` bytes (a torn write), then every later write
  // fails as if the machine had stopped; Crash() clears that state.
  void TearNextWrite(std::size_t keep) {
    std::lock_guard<std::mutex> l(mu_);
    tear_next_ = keep;
    tear_only_.clear();
  }
  // The same for the next write to a file whose name is `file_name` (writes to other files
  // go through untouched until then).
  void TearNextWriteTo(const std::string& file_name, std::size_t keep) {
    std::lock_guard<std::mutex> l(mu_);
    tear_next_ = keep;
    tear_only_ = file_name;
  }

  std::uint64_t syncs() const { return syncs_; }

  Result<std::unique_ptr<File>> OpenFile(const std::filesystem::path& path, OpenMode mode) override;
  Status CreateDir(const std::filesystem::path& path) override { return base_->CreateDir(path); }
  bool Exists(const std::filesystem::path& path) override { return base_->Exists(path); }
  Status Remove(const std::filesystem::path& path) override;
  Status Rename(const std::filesystem::path& from, const std::filesystem::path& to) override;
  Status SyncDir(const std::filesystem::path& dir) override { return base_->SyncDir(dir); }
  Result<std::vector<std::string>> ListDir(const std::filesystem::path& dir) override { return base_->ListDir(dir); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::filesystem::path& path) override {
    return base_->LockFile(path);
  }
  void SetOpenFilesLimit(std::size_t limit) override { base_->SetOpenFilesLimit(limit); }

 private:
  friend class FaultInjectionFile;
  // What a file looked like before its unsynced writes, newest last.
  struct Undo {
    std::uint64_t offset;
    std::vector<std::byte> old_bytes;  // the bytes the write replaced (within the old size)
    std::uint64_t old_size;
  };
  struct FileState {
    std::vector<Undo> undo;
  };
  Status CheckWritable(const std::filesystem::path& path) const;

  Env* base_;
  std::mutex mu_;
  std::map<std::filesystem::path, FileState> files_;  // guarded by mu_
  // Faults may be set from a test thread while engine threads write.
  std::atomic<bool> sync_fails_{false};
  std::atomic<bool> disk_full_{false};
  std::optional<std::size_t> tear_next_;  // guarded by mu_
  std::string tear_only_;                 // guarded by mu_; empty: any file
  std::atomic<bool> stopped_{false};      // after a torn write, until Crash()
  std::atomic<std::uint64_t> syncs_{0};
};

}  // namespace strata::engine
