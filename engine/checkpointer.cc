#include "engine/checkpointer.h"

#include <chrono>
#include <mutex>
#include <shared_mutex>

namespace strata::engine {

using ondisk::Lsn;

Checkpointer::~Checkpointer() { StopThread(); }

void Checkpointer::StopThread() {
  {
    MutexLock lock(stop_mu_);
    stop_ = true;
  }
  stop_cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

void Checkpointer::StartThread() {
  thread_ = std::thread([this] { Loop(); });
}

Status Checkpointer::FreeCheck() {
  if (log_.used() < log_.capacity() / 2) return Status::Ok();
  STRATA_RETURN_IF_ERROR(pool_.FlushAll());
  return Checkpoint();
}

Status Checkpointer::Checkpoint() {
  Lsn cp;
  {
    std::unique_lock gate(log_.commit_gate());
    const std::uint64_t oldest = pool_.OldestModification();
    cp = oldest ? Lsn(oldest) : log_.lsn();
  }
  if (cp <= log_.checkpoint_lsn()) return Status::Ok();
  STRATA_RETURN_IF_ERROR(log_.FlushUpTo(cp));
  // Pages written since the last sync (by eviction, say) must be on disk before the log
  // forgets how to redo them.
  STRATA_RETURN_IF_ERROR(pool_.SyncAll());
  return log_.Checkpoint(cp);
}

void Checkpointer::Loop() {
  MutexLock stop(stop_mu_);
  while (!stop_) {
    (void)stop_cv_.WaitFor(stop_mu_, std::chrono::seconds(1));
    if (stop_) break;
    stop.Unlock();
    if (pool_.redo_enabled()) {
      (void)log_.FlushUpTo(log_.lsn());  // modes 0 and 2: durable within a second
      (void)Checkpoint();
    }
    stop.Lock();
  }
}

}  // namespace strata::engine
