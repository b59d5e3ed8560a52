#include "engine/fault_injection_env.h"

#include <algorithm>

namespace strata::engine {

class FaultInjectionFile final : public File {
 public:
  FaultInjectionFile(FaultInjectionEnv* env, std::unique_ptr<File> base) : env_(env), base_(std::move(base)) {}

  Status Read(std::uint64_t offset, std::span<std::byte> out) override { return base_->Read(offset, out); }

  Status Write(std::uint64_t offset, std::span<const std::byte> data) override {
    STRATA_RETURN_IF_ERROR(env_->CheckWritable(path()));
    auto size = base_->Size();
    if (!size.ok()) return size.status();
    FaultInjectionEnv::Undo undo{offset, {}, *size};
    if (offset < *size) {
      undo.old_bytes.resize(std::min<std::uint64_t>(data.size(), *size - offset));
      STRATA_RETURN_IF_ERROR(base_->Read(offset, undo.old_bytes));
    }
    std::span<const std::byte> written = data;
    {
      std::lock_guard<std::mutex> l(env_->mu_);
      env_->files_[path()].undo.push_back(std::move(undo));
      if (env_->tear_next_ && (env_->tear_only_.empty() || path().filename() == env_->tear_only_)) {
        written = data.first(std::min(*env_->tear_next_, data.size()));
        env_->tear_next_.reset();
        env_->stopped_ = true;
      }
    }
    return base_->Write(offset, written);
  }

  Status Sync() override {
    if (env_->sync_fails_) return Status::IoError(path().string() + ": fdatasync: Input/output error (injected)");
    STRATA_RETURN_IF_ERROR(env_->CheckWritable(path()));
    STRATA_RETURN_IF_ERROR(base_->Sync());
    std::lock_guard<std::mutex> l(env_->mu_);
    env_->files_[path()].undo.clear();
    ++env_->syncs_;
    return Status::Ok();
  }

  Result<std::uint64_t> Size() override { return base_->Size(); }

  Status Resize(std::uint64_t size) override {
    STRATA_RETURN_IF_ERROR(env_->CheckWritable(path()));
    auto old = base_->Size();
    if (!old.ok()) return old.status();
    FaultInjectionEnv::Undo undo{size, {}, *old};
    if (size < *old) {
      undo.old_bytes.resize(*old - size);
      STRATA_RETURN_IF_ERROR(base_->Read(size, undo.old_bytes));
    }
    {
      std::lock_guard<std::mutex> l(env_->mu_);
      env_->files_[path()].undo.push_back(std::move(undo));
    }
    return base_->Resize(size);
  }

  const std::filesystem::path& path() const override { return base_->path(); }

 private:
  FaultInjectionEnv* env_;
  std::unique_ptr<File> base_;
};

Status FaultInjectionEnv::CheckWritable(const std::filesystem::path& path) const {
  if (stopped_) return Status::IoError(path.string() + ": write after a torn write (the machine is down)");
  if (disk_full_) return Status::IoError(path.string() + ": write: No space left on device (injected)");
  return Status::Ok();
}

Result<std::unique_ptr<File>> FaultInjectionEnv::OpenFile(const std::filesystem::path& path, OpenMode mode) {
  const bool existed = base_->Exists(path);
  auto f = base_->OpenFile(path, mode);
  if (!f.ok()) return f.status();
  if (!existed) {
    // A new file: a crash before its first sync leaves it empty.
    std::lock_guard<std::mutex> l(mu_);
    files_[path].undo.push_back({0, {}, 0});
  }
  return std::unique_ptr<File>(new FaultInjectionFile(this, std::move(*f)));
}

Status FaultInjectionEnv::Remove(const std::filesystem::path& path) {
  {
    std::lock_guard<std::mutex> l(mu_);
    files_.erase(path);
  }
  return base_->Remove(path);
}

Status FaultInjectionEnv::Rename(const std::filesystem::path& from, const std::filesystem::path& to) {
  STRATA_RETURN_IF_ERROR(base_->Rename(from, to));
  std::lock_guard<std::mutex> l(mu_);
  if (auto it = files_.find(from); it != files_.end()) {
    files_[to] = std::move(it->second);
    files_.erase(it);
  }
  return Status::Ok();
}

void FaultInjectionEnv::Restart() {
  std::lock_guard<std::mutex> l(mu_);
  files_.clear();
  stopped_ = false;
  tear_next_.reset();
  tear_only_.clear();
}

Status FaultInjectionEnv::Crash() {
  std::map<std::filesystem::path, FileState> files;
  {
    std::lock_guard<std::mutex> l(mu_);
    files.swap(files_);
    stopped_ = false;
    tear_next_.reset();
  }
  for (auto& [path, state] : files) {
    if (state.undo.empty() || !base_->Exists(path)) continue;
    auto f = base_->OpenFile(path, OpenMode::kExisting);
    if (!f.ok()) return f.status();
    // Newest first: each undo puts back what its write replaced, then the size before it.
    for (auto it = state.undo.rbegin(); it != state.undo.rend(); ++it) {
      auto size = (*f)->Size();
      if (!size.ok()) return size.status();
      if (it->old_size > *size) STRATA_RETURN_IF_ERROR((*f)->Resize(it->old_size));
      if (!it->old_bytes.empty()) STRATA_RETURN_IF_ERROR((*f)->Write(it->offset, it->old_bytes));
      STRATA_RETURN_IF_ERROR((*f)->Resize(it->old_size));
    }
    STRATA_RETURN_IF_ERROR((*f)->Sync());
  }
  return Status::Ok();
}

}  // namespace strata::engine
