#include "engine/commit_pipeline.h"

#include <fmt/format.h>

namespace strata::engine {

namespace {

// The commit of a transaction that wrote: its undo logs ended in one mini-transaction.
Status EndUndoLogs(Rseg& rseg, TrxImpl& trx, std::uint64_t trx_no) {
  return rseg.Commit(trx.insert_undo ? &*trx.insert_undo : nullptr, trx.update_undo ? &*trx.update_undo : nullptr,
                     trx_no);
}

std::shared_future<Status> Ready(Status s) {
  std::promise<Status> p;
  p.set_value(std::move(s));
  return p.get_future().share();
}

}  // namespace

CommitPipeline::CommitPipeline(Parts parts, CommitSettings settings)
    : parts_(parts),
      group_commit_(settings.group_commit),
      flush_log_at_trx_commit_(settings.flush_log_at_trx_commit),
      elr_enabled_(settings.early_lock_release),
      elr_max_(settings.max_elr_dependent_trx_count) {
  if (settings.writable)
    async_ = std::make_unique<AsyncCommitQueue>([this](ondisk::Lsn lsn) { return MakeDurable(lsn); });
}

CommitPipeline::~CommitPipeline() { async_.reset(); }

Status CommitPipeline::Commit(TrxImpl& trx, const std::function<void()>& in_memory) {
  if (halted()) return Stopped();  // the transaction stays active: its end rolls it back
  if (trx.id == 0) {
    // Read-only: nothing of its own to make durable, but what it read may have been released
    // early by commits not yet durable; it reports success only once they are (INV-3).
    Status s = End(trx, true);
    if (in_memory) in_memory();
    const std::uint64_t seen = elr_lsn_.load();
    if (s.ok() && seen > 0 && parts_.pool.redo_enabled()) s = MakeDurable(ondisk::Lsn(seen));
    return s;
  }
  const bool early = elr_enabled_.load() && elr_waiting_.load() < elr_max_.load();
  Ticket ticket = CommitInMemory(trx, early);
  const bool released = ticket.released;
  if (released) ++elr_waiting_;
  if (in_memory) in_memory();
  Status s = CommitDurable(trx, std::move(ticket));
  if (released) --elr_waiting_;
  return s;
}

std::shared_future<Status> CommitPipeline::CommitAsync(TrxImpl& trx) {
  if (trx.id == 0) return Ready(Commit(trx));
  Ticket ticket = CommitInMemory(trx, true);
  if (!ticket.released || !async_)
    return Ready(CommitDurable(trx, std::move(ticket)));  // nothing to wait for in the background
  if (ticket.serial.owns_lock()) ticket.serial.unlock();
  ++commits_;
  return async_->Add(ticket.lsn);
}

CommitPipeline::Ticket CommitPipeline::CommitInMemory(TrxImpl& trx, bool release_early) {
  Ticket t;
  {
    std::unique_lock lock(parts_.db_mu);
    if (!group_commit_) t.serial = std::unique_lock(serial_);
    t.status = parts_.trx_sys.Commit(trx, [&](std::uint64_t no) { return EndUndoLogs(parts_.rseg, trx, no); });
    t.lsn = parts_.log.lsn();
  }
  // Early release needs the commit record in the log buffer (it is: the commit's
  // mini-transaction appended it) and a log that will be made durable (flush_log_at_trx_commit=1).
  if (t.status.ok() && release_early && parts_.pool.redo_enabled() && flush_log_at_trx_commit_.load() == 1) {
    std::uint64_t seen = elr_lsn_.load();
    while (seen < t.lsn.value() && !elr_lsn_.compare_exchange_weak(seen, t.lsn.value())) {
    }
    Finish(trx, TrxImpl::State::kCommitted);
    t.released = true;
  }
  return t;
}

Status CommitPipeline::CommitDurable(TrxImpl& trx, Ticket ticket) {
  Status s = ticket.status;
  // Without early release nobody reads an undurable commit through a lock: the locks go
  // only after the commit is durable.
  if (s.ok()) s = MakeDurable(ticket.lsn);
  if (ticket.serial.owns_lock()) ticket.serial.unlock();
  if (s.ok()) ++commits_;
  if (!ticket.released) Finish(trx, TrxImpl::State::kCommitted);
  return s;
}

void CommitPipeline::Finish(TrxImpl& trx, TrxImpl::State state) {
  trx.state = state;
  parts_.locks.ReleaseAll(trx.locks);
  parts_.trx_sys.Finish(trx);
}

Status CommitPipeline::End(TrxImpl& trx, bool commit) {
  Status s;
  if (trx.id && (trx.insert_undo || trx.update_undo)) {
    std::unique_lock lock(parts_.db_mu);
    s = parts_.trx_sys.Commit(trx, [&](std::uint64_t no) { return EndUndoLogs(parts_.rseg, trx, no); });
  }
  Finish(trx, commit ? TrxImpl::State::kCommitted : TrxImpl::State::kRolledBack);
  return s;
}

void CommitPipeline::Abandon(TrxImpl& trx) { Finish(trx, TrxImpl::State::kRolledBack); }

Status CommitPipeline::MakeDurable(ondisk::Lsn lsn) {
  if (!parts_.pool.redo_enabled()) return Status::Ok();
  Status s;
  switch (flush_log_at_trx_commit_.load()) {
    case 0:
      break;
    case 2:
      s = parts_.log.WriteUpTo(lsn);
      break;
    default:
      s = parts_.log.FlushUpTo(lsn);
  }
  if (!s.ok()) StopWrites(s);
  return s;
}

Status CommitPipeline::WaitDurable() {
  return parts_.pool.redo_enabled() ? MakeDurable(parts_.log.lsn()) : Status::Ok();
}

void CommitPipeline::StopWrites(const Status& cause) {
  MutexLock lock(stop_mu_);
  if (write_stop_.ok()) write_stop_ = cause;
  writes_stopped_ = true;
}

void CommitPipeline::Halt(const Status& cause) {
  MutexLock lock(stop_mu_);
  if (halt_.ok()) halt_ = cause;
  halted_ = true;
}

Status CommitPipeline::Stopped() const {
  MutexLock lock(stop_mu_);
  if (!halt_.ok()) {
    return Status::IoError(
        fmt::format("the database stopped after a rollback failed ({}); it refuses every statement: "
                    "reopen it, and recovery rolls back what the rollback left undone",
                    halt_.ToString()));
  }
  if (write_stop_.ok()) return Status::Ok();
  return Status::IoError(
      fmt::format("the database stopped accepting writes after a redo log write failed ({}); no "
                  "commit after the last durable one was acknowledged; reopen it once the cause is fixed",
                  write_stop_.ToString()));
}

Status CommitPipeline::set_flush_log_at_trx_commit(int value) {
  if (value < 0 || value > 2)
    return Status::InvalidArgument(fmt::format("innodb_flush_log_at_trx_commit must be 0, 1 or 2, not {}", value));
  flush_log_at_trx_commit_ = value;
  return Status::Ok();
}

}  // namespace strata::engine
