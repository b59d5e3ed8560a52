// An Env that makes every sync of the redo log take at least a given time longer, wrapping a
// real one: the disks users deploy on take 1-10 ms per fsync where a test machine's NVMe or
// page cache takes a fraction of that, and how commits share fsyncs (group commit, early lock
// release) only shows at those latencies. The sync still happens; it is only slower.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "engine/env.h"

namespace strata::engine {

class SyncLatencyEnv final : public Env {
 public:
  SyncLatencyEnv(Env* base, std::chrono::microseconds latency) : base_(base), latency_(latency) {}

  std::uint64_t delayed_syncs() const { return delayed_; }

  Result<std::unique_ptr<File>> OpenFile(const std::filesystem::path& path, OpenMode mode) override;
  Status CreateDir(const std::filesystem::path& path) override { return base_->CreateDir(path); }
  bool Exists(const std::filesystem::path& path) override { return base_->Exists(path); }
  Status Remove(const std::filesystem::path& path) override { return base_->Remove(path); }
  Status Rename(const std::filesystem::path& from, const std::filesystem::path& to) override {
    return base_->Rename(from, to);
  }
  Status SyncDir(const std::filesystem::path& dir) override { return base_->SyncDir(dir); }
  Result<std::vector<std::string>> ListDir(const std::filesystem::path& dir) override { return base_->ListDir(dir); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::filesystem::path& path) override {
    return base_->LockFile(path);
  }

 private:
  Env* base_;
  std::chrono::microseconds latency_;
  std::atomic<std::uint64_t> delayed_{0};
};

}  // namespace strata::engine
