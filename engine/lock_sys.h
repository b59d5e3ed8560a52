// Row locks (architecture layer 9): InnoDB's record, gap, next-key and insert-intention
// locks in S and X modes, with wait queues, a lock wait timeout and deadlock detection.
//
// A lock names a record by its index and key bytes ("index id, key" as LockKey builds it),
// not by page and heap number as InnoDB does: records move between pages on splits and
// merges and a logical name needs no lock migration. A gap lock on key K covers the gap
// below K (between K and the record before it); the gap above the last record is the
// index's supremum key. Purge removing a record hands its gap locks to the next record.
//
// Which requests wait for which (lock_rec_has_to_wait):
//   - a gap request (S or X) never waits;
//   - S is compatible with S;
//   - an insert intention waits for gap and next-key locks of others, nothing else;
//   - record and next-key requests wait for record and next-key locks of others;
//   - an insert intention lock never makes anyone wait.
// Requests queue in arrival order: a request also waits for an earlier waiting request it
// conflicts with.
//
// Inserted records are locked implicitly, as in InnoDB: the record's DB_TRX_ID names an
// active transaction. A transaction about to lock such a record first turns the implicit
// lock into an explicit one for its owner (ConvertImplicit), then queues behind it.
//
// Deadlocks: a transaction about to wait walks the wait-for graph; on a cycle the youngest
// transaction in it (the one that began last) is the victim and gets Status::Deadlock.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/engine_status.h"
#include "engine/key.h"
#include "engine/thread_annotations.h"
#include "ondisk/status.h"

namespace strata::engine {

using ondisk::Result;
using ondisk::Status;

enum class LockMode : std::uint8_t { kShared, kExclusive };
enum class LockKind : std::uint8_t { kRecord = 1, kGap = 2, kNextKey = 3, kInsertIntention = 4 };

// The lock-system side of one transaction.
struct TrxLocks {
  std::uint64_t id = 0;   // transaction id (0 until it has one)
  std::uint64_t seq = 0;  // begin order: the larger is younger
  // The rest is the lock system's, read and written under its mutex.
  std::vector<std::string> keys;  // keys it has queue entries on
  CondVar cv;
  const std::string* waiting_on = nullptr;  // the key of its waiting request
  bool victim = false;
  bool registered = false;
};

// A record's lock name: the index id and the record's key fields.
std::string LockKey(std::uint64_t index_id, const Tuple& key, std::size_t n_fields);
std::string SupremumKey(std::uint64_t index_id);

class LockSys {
 public:
  struct Options {
    std::chrono::milliseconds wait_timeout{50'000};  // innodb_lock_wait_timeout
    bool deadlock_detect = true;                     // innodb_deadlock_detect
  };
  explicit LockSys(Options o) : options_(o) {}

  // Grants the lock at once or says the caller must wait (Busy), queueing nothing.
  ondisk::Status TryAcquire(TrxLocks& trx, const std::string& key, LockMode mode, LockKind kind) EXCLUDES(mu_);
  // Grants the lock, waiting for it as long as the timeout allows. Call it holding no latch
  // or database lock: the holders must be able to finish.
  ondisk::Status Acquire(TrxLocks& trx, const std::string& key, LockMode mode, LockKind kind) EXCLUDES(mu_);
  // Makes an inserted record's implicit lock explicit for `owner_id`, if that transaction
  // still holds its locks.
  void ConvertImplicit(std::uint64_t owner_id, const std::string& key);
  // A transaction that has written records (its DB_TRX_ID marks them) until ReleaseAll.
  void Register(TrxLocks& trx);
  bool HoldsLocks(std::uint64_t trx_id);
  // Releases every lock of the transaction and wakes whoever waited for them.
  void ReleaseAll(TrxLocks& trx) EXCLUDES(mu_);
  // Purge removed the record at `key`: gap locks on it now guard the gap below `next`.
  void InheritGaps(const std::string& key, const std::string& next);
  // Whether any gap or next-key lock exists (inserts skip the insert-intention check when not).
  bool AnyGapLocks();

  LockStats stats();
  void set_wait_timeout(std::chrono::milliseconds t);
  void set_deadlock_detect(bool on);

 private:
  struct Entry {
    TrxLocks* trx;
    LockMode mode;
    LockKind kind;
    bool granted;
  };
  using Queue = std::vector<Entry>;
  static bool Conflicts(const Entry& request, const Entry& other);
  bool Covered(const Queue& q, const TrxLocks& trx, LockMode mode, LockKind kind) const;
  // The transactions `q[at]` waits for.
  std::vector<TrxLocks*> Blockers(const Queue& q, std::size_t at) const;
  std::vector<TrxLocks*> BlockersOf(TrxLocks& trx) REQUIRES(mu_);
  TrxLocks* FindCycle(TrxLocks& start) REQUIRES(mu_);  // the victim, or null
  void Grant(TrxLocks& trx, const std::string& key, Queue& q, Entry e) REQUIRES(mu_);
  void Remove(TrxLocks& trx, const std::string& key) REQUIRES(mu_);
  void WakeWaiters(const Queue& q) REQUIRES(mu_);

  Mutex mu_;
  Options options_ GUARDED_BY(mu_);
  std::unordered_map<std::string, Queue> queues_ GUARDED_BY(mu_);
  std::unordered_map<std::uint64_t, TrxLocks*> owners_ GUARDED_BY(mu_);  // registered writers by id
  std::uint64_t entries_ GUARDED_BY(mu_) = 0, gap_entries_ GUARDED_BY(mu_) = 0;
  std::uint64_t waits_ GUARDED_BY(mu_) = 0, timeouts_ GUARDED_BY(mu_) = 0, deadlocks_ GUARDED_BY(mu_) = 0;
};

}  // namespace strata::engine
