// The transaction system (architecture layer 8): transaction ids and serialisation numbers,
// the active transactions, and the read views that decide what purge may remove.
//
// Ids and numbers come from one counter (trx_sys->max_trx_id): a transaction gets an id when
// it first writes, and a serialisation number (trx_no) when it commits. The counter is kept
// in the TRX_SYS page every 256 values (TRX_SYS_TRX_ID_WRITE_MARGIN); after a restart it
// resumes 512 past the stored value and past every id found in the undo logs.
//
// Committing is atomic with respect to views: the number is taken, the undo logs are ended
// and the transaction leaves the active set under one mutex, so a view sees a transaction as
// committed exactly when its undo log carries a number below the view's low_limit_no.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine_status.h"
#include "engine/btree.h"
#include "engine/buffer_pool.h"
#include "engine/lock_sys.h"
#include "engine/read_view.h"
#include "engine/rseg.h"
#include "engine/tablespace.h"

namespace strata::engine {

// One transaction's state inside the engine (Transaction in db.h is its face).
struct TrxImpl {
  enum class State : std::uint8_t { kActive, kCommitted, kRolledBack };
  Isolation isolation = Isolation::kRepeatableRead;
  State state = State::kActive;
  std::uint64_t id = 0;  // 0 until the first write
  std::uint64_t no = 0;  // serialisation number, at commit
  TrxLocks locks;
  std::optional<ReadView> view;  // open while registered with TrxSys
  std::optional<UndoLog> insert_undo, update_undo;
  std::uint64_t undo_no = 0;  // undo records written (the next record's undo_no)
  std::uint64_t rows_modified = 0;
  // The clustered record this transaction last locked exclusively by its primary key, and
  // where it was: an UPDATE of that row then writes it there without searching for it or
  // asking for its lock again (one descent and one lock request per row, as InnoDB's
  // persistent cursor). Stale once its tree's modify clock moves.
  struct LockedRecord {
    const void* table = nullptr;
    Tuple key;
    Btree::Marked record;
    Btree::Position at;
  };
  std::optional<LockedRecord> locked_record;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

class TrxSys {
 public:
  TrxSys(BufferPool& pool, Tablespace& system) : pool_(pool), system_(system) {}

  // Reads the stored counter; `seen_id`/`seen_no` are the largest found in undo logs.
  Status Load(std::uint64_t seen_id, std::uint64_t seen_no);
  void Begin(TrxImpl& trx);   // registers it (status report, begin order)
  void Finish(TrxImpl& trx);  // unregisters a committed or rolled-back transaction
  // Gives the transaction its id (callers hold the database's write lock: it may write the
  // TRX_SYS page).
  Status AssignId(TrxImpl& trx);
  // Registers a recovered active transaction with its old id.
  void AdoptRecovered(TrxImpl& trx);
  void OpenView(TrxImpl& trx);
  void CloseView(TrxImpl& trx);
  // Numbers the commit, runs `end_undo(no)` and removes the transaction from the active set,
  // atomically for views.
  Status Commit(TrxImpl& trx, const std::function<Status(std::uint64_t no)>& end_undo);
  // The view purge works behind: the oldest open view, or one opened now.
  ReadView PurgeView();
  // A view for a one-statement reader that is not a transaction of its own.
  ReadView ViewNow();

  // The database is closing: transactions still open are left as they are (their undo logs
  // stay ACTIVE, and the next open rolls them back) and their handles no longer touch it.
  void AbandonAll();
  std::uint64_t max_trx_id();
  std::vector<TrxSummary> Transactions();
  std::size_t open_views();

 private:
  Status Persist(std::uint64_t value);  // TRX_SYS_TRX_ID_STORE, under the write lock
  ReadView MakeView(std::uint64_t creator);
  std::uint64_t Take();  // the counter's next value (mu_ held)

  BufferPool& pool_;
  Tablespace& system_;
  std::mutex mu_;
  std::uint64_t next_ = 1;
  std::uint64_t seq_ = 0;
  bool persist_due_ = false;
  std::map<std::uint64_t, TrxImpl*> active_;  // read-write transactions by id
  std::map<std::uint64_t, TrxImpl*> all_;     // every transaction by begin order
  std::vector<TrxImpl*> views_;               // transactions with an open view
};

}  // namespace strata::engine
