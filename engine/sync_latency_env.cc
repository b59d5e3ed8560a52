#include "engine/sync_latency_env.h"

#include <sys/prctl.h>

#include <thread>

namespace strata::engine {

namespace {

class SlowSyncFile final : public File {
 public:
  SlowSyncFile(std::unique_ptr<File> base, std::chrono::microseconds latency, std::atomic<std::uint64_t>& count)
      : base_(std::move(base)), latency_(latency), count_(count) {}
  Status Read(std::uint64_t offset, std::span<std::byte> out) override { return base_->Read(offset, out); }
  Status Write(std::uint64_t offset, std::span<const std::byte> data) override { return base_->Write(offset, data); }
  Status Sync() override {
    // The default 50 us of timer slack, per thread, would lengthen every pause (the MariaDB
    // harness's fsync_delay.c sets it the same way).
    static thread_local const bool slack_set = ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) == 0;
    (void)slack_set;
    std::this_thread::sleep_for(latency_);
    ++count_;
    return base_->Sync();
  }
  Result<std::uint64_t> Size() override { return base_->Size(); }
  Status Resize(std::uint64_t size) override { return base_->Resize(size); }
  const std::filesystem::path& path() const override { return base_->path(); }

 private:
  std::unique_ptr<File> base_;
  std::chrono::microseconds latency_;
  std::atomic<std::uint64_t>& count_;
};

}  // namespace

Result<std::unique_ptr<File>> SyncLatencyEnv::OpenFile(const std::filesystem::path& path, OpenMode mode) {
  auto f = base_->OpenFile(path, mode);
  if (!f.ok() || latency_.count() <= 0 || !path.filename().string().starts_with("ib_logfile")) return f;
  return std::unique_ptr<File>(new SlowSyncFile(std::move(*f), latency_, delayed_));
}

}  // namespace strata::engine
