// The commit pipeline: everything between "the transaction's changes are done" and "the
// client is told it committed". This is where INV-3 lives: a commit is acknowledged only once
// the redo log is durable up to its commit record, and under early lock release a reader of
// an undurable commit is held back until that commit is durable too.
//
// A commit that wrote goes through these states:
//
//   active ──CommitInMemory──► committed in memory ──MakeDurable──► durable ──► locks released,
//     (trx_no taken, undo logs      (commit record in the          (as flush_log_at_trx_commit   transaction ended,
//      ended, record appended        log buffer)                    asks: 0 none, 1 fsync,       caller acknowledged
//      under the database lock)                                     2 write)
//
//   with early lock release the locks go and the transaction ends right after CommitInMemory;
//   the caller is still acknowledged only once durable (Commit waits, CommitAsync's future
//   turns ready). A read-only transaction ends at once but waits for the newest early-released
//   commit to be durable, since it may have read it.
//
// A failed log write stops the pipeline (StopWrites): no later write is accepted, because a
// commit after the failure could be acknowledged without being durable. A failed rollback
// halts it (Halt): no statement is accepted, because rows may be half undone.
//
// With group commit off (DatabaseOptions::group_commit = false) one commit at a time goes from
// its in-memory commit to its fsync, holding `serial_` for that span: the span is an object,
// the Ticket, so the lock goes with it whichever way the commit ends.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "engine/async_commit.h"
#include "engine/buffer_pool.h"
#include "engine/lock_sys.h"
#include "engine/redo_log.h"
#include "engine/rseg.h"
#include "engine/thread_annotations.h"
#include "engine/trx_sys.h"

namespace strata::engine {

struct CommitSettings {
  int flush_log_at_trx_commit = 1;
  bool early_lock_release = false;
  std::size_t max_elr_dependent_trx_count = 1000;
  bool group_commit = true;
  bool writable = true;  // false (force_recovery >= 3): no asynchronous commit thread is started
};

class CommitPipeline {
 public:
  // The parts a commit touches; `db_mu` is the database's lock, held exclusively while the
  // commit takes its number and ends its undo logs.
  struct Parts {
    SharedMutex& db_mu;
    BufferPool& pool;
    RedoLog& log;
    Rseg& rseg;
    TrxSys& trx_sys;
    LockSys& locks;
  };
  CommitPipeline(Parts parts, CommitSettings settings);
  ~CommitPipeline();  // asynchronous commits still queued are made durable (or failed) first

  // Commits and returns once durable. `in_memory`, when given, runs once the commit is in
  // memory, before it is made durable (hot-row group commit hands its leadership on there).
  Status Commit(TrxImpl& trx, const std::function<void()>& in_memory = nullptr);
  // Returns once the commit record is in the log buffer, with the locks released; the future
  // turns ready when the commit is durable, or with the error that kept it from being so.
  std::shared_future<Status> CommitAsync(TrxImpl& trx);
  // Ends a transaction whose changes are all undone (or that made none).
  Status End(TrxImpl& trx, bool commit);
  // A transaction whose rollback failed part way: its locks go and it leaves the active set,
  // but its undo logs stay ACTIVE on disk for the next open to roll back.
  void Abandon(TrxImpl& trx);

  // Durable up to `lsn` as flush_log_at_trx_commit asks; a failure stops writes.
  Status MakeDurable(ondisk::Lsn lsn);
  Status WaitDurable();  // everything committed so far

  void StopWrites(const Status& cause);  // after a failed log write
  void Halt(const Status& cause);        // after a failed rollback
  bool writes_stopped() const { return writes_stopped_.load(); }
  bool halted() const { return halted_.load(); }
  Status Stopped() const;  // why writes stopped or the database halted; Ok when neither

  Status set_flush_log_at_trx_commit(int value);
  int flush_log_at_trx_commit() const { return flush_log_at_trx_commit_.load(); }
  void set_early_lock_release(bool on) { elr_enabled_ = on; }
  bool early_lock_release() const { return elr_enabled_.load(); }
  void set_max_elr_dependent_trx_count(std::size_t n) { elr_max_ = n; }
  std::size_t max_elr_dependent_trx_count() const { return elr_max_.load(); }
  std::uint64_t commits() const { return commits_.load(); }

 private:
  // A commit between its in-memory half and its durability.
  struct Ticket {
    Status status;
    ondisk::Lsn lsn;                      // the log end at the commit: durable to here acknowledges it
    bool released = false;                // locks released before durability
    std::unique_lock<std::mutex> serial;  // held to the fsync when group commit is off
  };
  Ticket CommitInMemory(TrxImpl& trx, bool release_early);
  Status CommitDurable(TrxImpl& trx, Ticket ticket);
  void Finish(TrxImpl& trx, TrxImpl::State state);  // locks released, out of the active set

  Parts parts_;
  const bool group_commit_;
  std::mutex serial_;  // group commit off: one commit at a time from in-memory to fsync
  std::atomic<std::uint64_t> commits_{0};
  std::atomic<int> flush_log_at_trx_commit_;
  std::atomic<bool> elr_enabled_;
  std::atomic<std::size_t> elr_max_;
  std::atomic<std::size_t> elr_waiting_{0};  // released early, not yet durable
  std::atomic<std::uint64_t> elr_lsn_{0};    // newest early-released commit
  mutable Mutex stop_mu_;
  Status write_stop_ GUARDED_BY(stop_mu_);   // set by StopWrites
  Status halt_ GUARDED_BY(stop_mu_);         // set by Halt
  std::atomic<bool> writes_stopped_{false};  // the two above, readable without stop_mu_
  std::atomic<bool> halted_{false};
  std::unique_ptr<AsyncCommitQueue> async_;
};

}  // namespace strata::engine
