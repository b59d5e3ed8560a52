// The redo log (architecture layer 4): ib_logfile0 with InnoDB's file header, two alternating
// checkpoint blocks and a circular area of 512-byte blocks (ondisk/redo.h), carrying Strata's
// redo records (ondisk/redo_record.h). LSN = position in the block stream, headers and
// trailers included, starting at 8192 as InnoDB's does.
//
// Mini-transactions append their records to the log buffer (Append), which hands back the
// LSN range they occupy. FlushUpTo makes the log durable up to an LSN with group commit: a
// caller writes everything appended so far and syncs it, and every commit waiting behind it is
// covered by that one write and one fsync. Writes are serialised, but a second sync may start
// while the first is in flight (as a device with a queue depth of two allows): on a disk whose
// fsync takes milliseconds, commits arriving during one sync need not wait for it to end before
// their own begins.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "engine/engine_status.h"
#include "engine/env.h"
#include "engine/thread_annotations.h"
#include "ondisk/redo.h"
#include "ondisk/types.h"

namespace strata::engine {

// One complete mini-transaction found by the recovery scan.
struct RedoGroup {
  ondisk::Lsn start, end;      // end: the LSN its pages carry
  ondisk::ConstBytes records;  // its records, MTR_END included (in the log's recovery buffer)
};

class RedoLog {
 public:
  static constexpr std::uint64_t kDefaultCapacity = 96u << 20;

  // A new log: header (creator "Strata"), both checkpoints at the start LSN, synced.
  static Result<std::unique_ptr<RedoLog>> Create(Env& env, const std::filesystem::path& path, std::uint64_t capacity);
  // An existing log: validates the header and picks the newer valid checkpoint. Recover()
  // must run before anything is appended.
  static Result<std::unique_ptr<RedoLog>> Open(Env& env, const std::filesystem::path& path, bool read_only = false);

  // Scans from the checkpoint to the end of the log and returns every complete
  // mini-transaction in order; positions the log to append after the last one. A damaged
  // block ends the scan (what follows was never acknowledged). The groups' records stay
  // valid until ReleaseRecovery().
  Result<std::vector<RedoGroup>> Recover(std::size_t page_size);
  void ReleaseRecovery() { recovered_ = {}; }

  // Appends one mini-transaction's records; returns its [start, end) LSNs.
  std::pair<ondisk::Lsn, ondisk::Lsn> Append(ondisk::ConstBytes records);
  // Writes and syncs the block holding the current LSN. Logging that resumes after Advance
  // needs it: that block was never written, and a checkpoint there must find it on disk.
  Status WriteCurrentBlock();
  // Advances the LSN without logging (redo disabled): page LSNs keep growing.
  std::pair<ondisk::Lsn, ondisk::Lsn> Advance(std::uint64_t bytes);
  // Durable up to `lsn` (no-op when already). The first error sticks: the log then refuses
  // to pretend anything later is durable.
  Status FlushUpTo(ondisk::Lsn lsn);
  // Written to the file (not synced) up to `lsn`: flush_log_at_trx_commit=2.
  Status WriteUpTo(ondisk::Lsn lsn);
  // Records `lsn` as the checkpoint: recovery starts there. The log must be durable to it.
  Status Checkpoint(ondisk::Lsn lsn);
  // Sets LOG_HEADER_FLAGS (kLogFlagNoLogging, kLogFlagCrashUnsafe) and syncs the header.
  Status SetFlags(std::uint32_t flags);

  ondisk::Lsn lsn() const;
  ondisk::Lsn flushed_lsn() const;
  ondisk::Lsn checkpoint_lsn() const;
  std::uint32_t flags() const { return flags_; }
  std::uint64_t capacity() const { return capacity_; }
  // Bytes of log between the checkpoint and the end: what recovery would have to read.
  std::uint64_t used() const;
  RedoStats stats() const;
  const std::filesystem::path& path() const { return file_->path(); }

  // Held shared by a mini-transaction from Append until its pages are marked dirty, and
  // exclusively by whoever computes a checkpoint LSN, so that no change can fall between the
  // oldest dirty page and the log's end.
  std::shared_mutex& commit_gate() { return commit_gate_; }

 private:
  RedoLog(std::unique_ptr<File> file, std::uint64_t capacity) : file_(std::move(file)), capacity_(capacity) {}
  Status WriteHeader();
  // Writes (and with `sync` syncs) the log up to `target`; lets go of mu_ during the I/O.
  Status WriteBlocks(ondisk::Lsn target, bool sync) REQUIRES(mu_);
  // Records a failed write or sync as the log's sticky error and wakes the waiters.
  Status Fail(const Status& s, const char* what) REQUIRES(mu_);
  // Sleeps (mu_ held) until flushed_lsn_ reaches `target` or the log fails: a sync in flight
  // covers it. Each such waiter sleeps on its own, woken only by the sync that covers it
  // (one shared condition woke every committer at every sync's end, and they crowded the
  // mutex the syncing thread needed back).
  void WaitForSyncInFlight(std::uint64_t target) REQUIRES(mu_);
  void WakeDurable() REQUIRES(mu_);  // the waiters flushed_lsn_ now covers (all of them once failed)
  std::uint64_t FileOffset(std::uint64_t block_lsn) const;
  void AppendBytes(ondisk::ConstBytes bytes) REQUIRES(mu_);

  std::unique_ptr<File> file_;
  std::uint64_t capacity_;  // bytes of the circular block area
  std::uint32_t flags_ = 0;
  mutable Mutex mu_;
  std::uint64_t checkpoint_no_ GUARDED_BY(mu_) = 0;
  std::uint64_t checkpoint_lsn_ GUARDED_BY(mu_) = ondisk::kLogStartLsn;
  CondVar cv_;  // a write ended, or a sync slot came free
  struct DurableWaiter {
    CondVar cv;
    bool woken = false;  // mu_ held
  };
  std::multimap<std::uint64_t, DurableWaiter*> durable_waiters_ GUARDED_BY(mu_);  // by the LSN each waits for
  // The log buffer: whole blocks from buf_lsn_ (block aligned) up to lsn_ (a payload position).
  std::vector<std::byte> buf_ GUARDED_BY(mu_);
  std::uint64_t buf_lsn_ GUARDED_BY(mu_) = ondisk::kLogStartLsn;
  std::uint64_t lsn_ GUARDED_BY(mu_) = ondisk::kLogStartLsn + ondisk::kLogBlockHeaderSize;
  std::uint64_t written_lsn_ GUARDED_BY(mu_) = 0, flushed_lsn_ GUARDED_BY(mu_) = 0;
  // Block writes go one at a time (each rewrites the partial last block of the one before);
  // syncs overlap, up to kSyncsInFlight, each covering what was written before it began.
  // Devices that take 1-10 ms per flush keep several in flight: with fewer slots than the
  // commits that arrive within one flush, a commit waits for a slot as well as for its flush
  // (strata bench hotrow, elr+group-commit, +10 ms: 4 slots 3,300 TPS, 16 4,440, 64 4,750 of
  // the 50 sessions' ceiling of 4,880). On this VM's own disk (0.2 ms) 64 cost nothing against
  // 16 in elr and elr+group-commit; a slot is only ever taken by a commit waiting for it.
  static constexpr int kSyncsInFlight = 64;
  bool writing_ GUARDED_BY(mu_) = false;
  int syncs_in_flight_ GUARDED_BY(mu_) = 0;
  std::uint64_t syncing_upto_ GUARDED_BY(mu_) = 0;  // the furthest LSN a sync in flight will make durable
  Status error_ GUARDED_BY(mu_);
  RedoStats stats_ GUARDED_BY(mu_);
  std::shared_mutex commit_gate_;
  ondisk::LogPayloadStream recovered_;  // the log read by Recover, which its groups point into
};

}  // namespace strata::engine
