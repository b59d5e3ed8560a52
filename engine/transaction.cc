// Transactions on the Database: begin, statements with their savepoints, commit, rollback,
// recovery of what a crash left active, purge, and the status report.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/async_commit.h"
#include "engine/db.h"
#include "engine/table_impl.h"
#include "ondisk/undo.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

// The commit of a transaction that wrote: its undo logs ended in one mini-transaction.
Status EndUndoLogs(Rseg& rseg, TrxImpl& trx, std::uint64_t trx_no) {
  return rseg.Commit(trx.insert_undo ? &*trx.insert_undo : nullptr, trx.update_undo ? &*trx.update_undo : nullptr, trx_no);
}

}  // namespace

// ---- Transaction ---------------------------------------------------------------------------

Transaction::Transaction(Database* db, std::unique_ptr<TrxImpl> impl) : db_(db), impl_(std::move(impl)) {}

Transaction::~Transaction() {
  if (impl_ && impl_->state == TrxImpl::State::kActive) (void)Rollback();
}

Status Transaction::Commit() {
  if (impl_->state != TrxImpl::State::kActive) return Status::InvalidArgument("the transaction has already ended");
  return db_->CommitTrx(*impl_);
}

Status Transaction::Rollback() {
  if (impl_->state != TrxImpl::State::kActive) return Status::Ok();
  return db_->RollbackAndEnd(*impl_);
}

bool Transaction::active() const { return impl_->state == TrxImpl::State::kActive; }
std::uint64_t Transaction::Savepoint() const { return impl_->undo_no; }

Status Transaction::RollbackToSavepoint(std::uint64_t savepoint) {
  if (impl_->state != TrxImpl::State::kActive) return Status::Ok();
  return impl_->undo_no > savepoint ? db_->RollbackTrx(*impl_, savepoint) : Status::Ok();
}
std::uint64_t Transaction::id() const { return impl_->id; }
Isolation Transaction::isolation() const { return impl_->isolation; }

// ---- Database: transactions ----------------------------------------------------------------

Result<std::unique_ptr<Transaction>> Database::Begin(TransactionOptions options) {
  auto impl = std::make_unique<TrxImpl>();
  impl->isolation = options.isolation;
  trx_sys_->Begin(*impl);
  if (options.consistent_snapshot && options.isolation >= Isolation::kRepeatableRead) trx_sys_->OpenView(*impl);
  return std::unique_ptr<Transaction>(new Transaction(this, std::move(impl)));
}

Status Database::EnsureWritable(TrxImpl& trx) {
  if (writes_stopped_.load() || halted_.load()) return WriteStopped();
  if (trx.id) return Status::Ok();
  STRATA_RETURN_IF_ERROR(trx_sys_->AssignId(trx));
  lock_sys_->Register(trx.locks);
  return Status::Ok();
}

// A statement: on failure its own changes are rolled back (a deadlock takes the whole
// transaction); an autocommit statement commits on success.
Status Database::RunStatement(TrxImpl* trx, Isolation autocommit_isolation, const std::function<Status(TrxImpl&)>& body) {
  std::unique_ptr<TrxImpl> own;
  if (!trx) {
    own = std::make_unique<TrxImpl>();
    own->isolation = autocommit_isolation;
    trx_sys_->Begin(*own);
    trx = own.get();
  } else if (trx->state != TrxImpl::State::kActive) {
    return Status::InvalidArgument("the transaction is no longer active (rolled back after a deadlock, or ended)");
  }
  if (halted_.load()) {
    if (own) AbandonTrx(*own);
    return WriteStopped();
  }
  const std::uint64_t savepoint = trx->undo_no;
  Status s = body(*trx);
  if (!s.ok()) {
    // A deadlock takes the whole transaction, and an autocommit statement is all of its own.
    Status r = s.IsDeadlock() || own ? RollbackAndEnd(*trx)
               : trx->undo_no > savepoint ? RollbackTrx(*trx, savepoint)
                                          : Status::Ok();
    if (!r.ok()) return r.WithContext("rolling back the failed statement (" + s.ToString() + ")");
    return s;
  }
  if (own) {
    Status c = CommitTrx(*own);
    if (own->state == TrxImpl::State::kActive) (void)RollbackAndEnd(*own);  // refused: the database halted
    return c;
  }
  if (trx->isolation == Isolation::kReadCommitted && trx->view) trx_sys_->CloseView(*trx);
  return Status::Ok();
}

Status Database::CommitTrx(TrxImpl& trx, const std::function<void()>& in_memory) {
  if (halted_.load()) return WriteStopped();  // the transaction stays active: its end rolls it back
  if (trx.id == 0) {
    // Read-only: nothing of its own to make durable, but what it read may have been released
    // early by commits not yet durable; it reports success only once they are (INV-3).
    Status s = EndTrx(trx, true);
    if (in_memory) in_memory();
    const std::uint64_t seen = elr_lsn_.load();
    if (s.ok() && seen > 0 && pool_->redo_enabled()) s = MakeDurable(ondisk::Lsn(seen));
    return s;
  }
  const bool early = elr_enabled_.load() && elr_waiting_.load() < elr_max_.load();
  CommitTicket ticket = CommitInMemory(trx, early);
  if (ticket.released) ++elr_waiting_;
  if (in_memory) in_memory();
  Status s = CommitDurable(trx, ticket);
  if (ticket.released) --elr_waiting_;
  return s;
}

Database::CommitTicket Database::CommitInMemory(TrxImpl& trx, bool release_early) {
  CommitTicket t;
  {
    std::unique_lock lock(mu_);
    if (!options_.group_commit) serial_commit_mu_.lock();
    t.status = trx_sys_->Commit(trx, [&](std::uint64_t no) {
      return EndUndoLogs(*rseg_, trx, no);
    });
    t.lsn = log_->lsn();
  }
  // Early release needs the commit record in the log buffer (it is: the commit's
  // mini-transaction appended it) and a log that will be made durable (flush_log_at_trx_commit=1).
  if (t.status.ok() && release_early && pool_->redo_enabled() && flush_log_at_trx_commit_.load() == 1) {
    std::uint64_t seen = elr_lsn_.load();
    while (seen < t.lsn.value() && !elr_lsn_.compare_exchange_weak(seen, t.lsn.value())) {
    }
    trx.state = TrxImpl::State::kCommitted;
    lock_sys_->ReleaseAll(trx.locks);
    trx_sys_->Finish(trx);
    t.released = true;
  }
  return t;
}

Status Database::CommitDurable(TrxImpl& trx, const CommitTicket& ticket) {
  Status s = ticket.status;
  // Without early release nobody reads an undurable commit through a lock: the locks go
  // only after the commit is durable.
  if (s.ok()) s = MakeDurable(ticket.lsn);
  if (!options_.group_commit) serial_commit_mu_.unlock();
  if (s.ok()) ++commits_;
  if (!ticket.released) {
    trx.state = TrxImpl::State::kCommitted;
    lock_sys_->ReleaseAll(trx.locks);
    trx_sys_->Finish(trx);
  }
  return s;
}

Status Database::MakeDurable(ondisk::Lsn lsn) {
  if (!pool_->redo_enabled()) return Status::Ok();
  Status s;
  switch (flush_log_at_trx_commit_.load()) {
    case 0: break;
    case 2: s = log_->WriteUpTo(lsn); break;
    default: s = log_->FlushUpTo(lsn);
  }
  if (!s.ok()) StopWrites(s);
  return s;
}

Status Database::WaitDurable() { return pool_->redo_enabled() ? MakeDurable(log_->lsn()) : Status::Ok(); }

void Database::StopWrites(const Status& cause) {
  std::lock_guard lock(stop_mu_);
  if (write_stop_.ok()) write_stop_ = cause;
  writes_stopped_ = true;
}

void Database::Halt(const Status& cause) {
  std::lock_guard lock(stop_mu_);
  if (halt_.ok()) halt_ = cause;
  halted_ = true;
}

Status Database::WriteStopped() const {
  std::lock_guard lock(stop_mu_);
  if (!halt_.ok()) {
    return Status::IoError(fmt::format("the database stopped after a rollback failed ({}); it refuses every statement: "
                                       "reopen it, and recovery rolls back what the rollback left undone",
                                       halt_.ToString()));
  }
  if (write_stop_.ok()) return Status::Ok();
  return Status::IoError(fmt::format("the database stopped accepting writes after a redo log write failed ({}); no "
                                     "commit after the last durable one was acknowledged; reopen it once the cause is fixed",
                                     write_stop_.ToString()));
}

std::shared_future<Status> Transaction::CommitAsync() {
  auto ready = [](Status s) {
    std::promise<Status> p;
    p.set_value(std::move(s));
    return p.get_future().share();
  };
  if (impl_->state != TrxImpl::State::kActive) return ready(Status::InvalidArgument("the transaction has already ended"));
  if (impl_->id == 0) return ready(db_->CommitTrx(*impl_));
  Database::CommitTicket ticket = db_->CommitInMemory(*impl_, true);
  if (!ticket.released) return ready(db_->CommitDurable(*impl_, ticket));  // nothing to wait for in the background
  if (!db_->options_.group_commit) db_->serial_commit_mu_.unlock();
  ++db_->commits_;
  return db_->async_commits_->Add(ticket.lsn);
}

// Ends a transaction whose changes are all undone (or that made none).
Status Database::EndTrx(TrxImpl& trx, bool commit) {
  Status s;
  if (trx.id && (trx.insert_undo || trx.update_undo)) {
    std::unique_lock lock(mu_);
    s = trx_sys_->Commit(trx, [&](std::uint64_t no) {
      return EndUndoLogs(*rseg_, trx, no);
    });
  }
  trx.state = commit ? TrxImpl::State::kCommitted : TrxImpl::State::kRolledBack;
  lock_sys_->ReleaseAll(trx.locks);
  trx_sys_->Finish(trx);
  return s;
}

// A transaction whose rollback failed part way: its locks go and it leaves the active set, but
// its undo logs are not ended, so they stay ACTIVE on disk for the next open to roll back
// (the database has halted: nothing can see its half-undone rows meanwhile).
void Database::AbandonTrx(TrxImpl& trx) {
  trx.state = TrxImpl::State::kRolledBack;
  lock_sys_->ReleaseAll(trx.locks);
  trx_sys_->Finish(trx);
}

Status Database::RollbackAndEnd(TrxImpl& trx) {
  Status s = RollbackTrx(trx, 0);
  if (!s.ok()) {
    AbandonTrx(trx);
    return s;
  }
  return EndTrx(trx, false);
}

TableImpl* Database::TableById(std::uint64_t table_id) {
  for (auto& [key, t] : tables_) {
    if (t->impl_->meta().table_id == table_id) return t->impl_.get();
  }
  return nullptr;
}

// Undoes the transaction's records from the newest down to undo_no `to` (the caller holds
// nothing; each record is undone and then removed from its log).
Status Database::RollbackTrx(TrxImpl& trx, std::uint64_t to) {
  if (halted_.load()) return WriteStopped();
  std::unique_lock lock(mu_);
  Status s = UndoDownTo(trx, to);
  if (!s.ok()) {
    s = s.WithContext(fmt::format("rolling back transaction {}", trx.id));
    Halt(s);
  }
  return s;
}

Status Database::UndoDownTo(TrxImpl& trx, std::uint64_t to) {
  for (;;) {
    UndoLog* log = nullptr;
    std::uint64_t best = 0;
    std::optional<UndoRecord> rec;
    std::uint64_t roll = 0;
    for (auto* l : {trx.insert_undo ? &*trx.insert_undo : nullptr, trx.update_undo ? &*trx.update_undo : nullptr}) {
      if (!l || l->records == 0) continue;
      std::optional<UndoRecord> r;
      STRATA_RETURN_IF_ERROR(rseg_->WithRecord(l->top_page, l->top_offset, [&](ConstBytes page, std::size_t start) {
        auto h = UndoRecordHeader::Decode(page, start);
        if (!h.ok()) return h.status();
        TableImpl* t = TableById(h->table_id);
        auto d = UndoRecord::Decode(page, start, t ? t->n_key() : 0);
        if (!d.ok()) return d.status();
        r = std::move(*d);
        return Status::Ok();
      }));
      if (!log || r->undo_no > best) {
        log = l;
        best = r->undo_no;
        rec = std::move(r);
        roll = RollPtr{l->type == UndoPageType::kInsert, Rseg::kId, l->top_page.value(), l->top_offset}.Encode();
      }
    }
    if (!log || best < to) break;
    // Each undo step logs its changes: a long rollback must leave the log room as any writer
    // does (InnoDB's log_free_check in row_undo), or it could fill the log it runs on.
    STRATA_RETURN_IF_ERROR(FreeCheck());
    if (TableImpl* t = TableById(rec->table_id)) STRATA_RETURN_IF_ERROR(t->Undo(*rec, roll));
    STRATA_RETURN_IF_ERROR(rseg_->PopTop(*log));
  }
  trx.undo_no = to;
  return Status::Ok();
}

// Reads the rollback segment and rolls back every transaction a crash left active (their
// undo logs still ACTIVE), before anyone else can see their rows.
Status Database::LoadTransactions(bool roll_back) {
  std::uint64_t max_id = 0, max_no = 0;
  auto active = rseg_->Load(&max_id, &max_no);
  if (!active.ok()) return active.status().WithContext("reading the rollback segment");
  STRATA_RETURN_IF_ERROR(trx_sys_->Load(max_id, max_no));
  std::map<std::uint64_t, std::unique_ptr<TrxImpl>> recovered;
  for (const auto& log : *active) {
    auto& t = recovered[log.trx_id];
    if (!t) {
      t = std::make_unique<TrxImpl>();
      t->id = log.trx_id;
    }
    (log.type == UndoPageType::kInsert ? t->insert_undo : t->update_undo) = log;
    t->undo_no += log.records;
  }
  for (auto& [id, t] : recovered) {
    trx_sys_->Begin(*t);
    trx_sys_->AdoptRecovered(*t);
    lock_sys_->Register(t->locks);
    if (!roll_back) {
      // force_recovery >= 3: left as they are, but still active to every read view, so a
      // consistent read does not take their changes for committed ones.
      unrolled_.push_back(std::move(t));
      continue;
    }
    STRATA_RETURN_IF_ERROR(RollbackAndEnd(*t).WithContext(fmt::format(
        "rolling back transaction {} left active by a crash (--force-recovery 3 opens the tables without it)", id)));
    ++recovery_.rolled_back_trx;
  }
  return Status::Ok();
}

// ---- purge ---------------------------------------------------------------------------------

Result<std::uint64_t> Database::PurgeOneLog(const ReadView& view) {
  auto oldest = rseg_->Oldest();
  if (!oldest.ok()) return oldest.status();
  if (!oldest->has_value() || (*oldest)->trx_no >= view.low_limit_no) return std::uint64_t{0};
  const HistoryLog log = **oldest;
  std::unique_lock lock(mu_);
  std::vector<std::pair<TableImpl*, UndoRecord>> records;
  STRATA_RETURN_IF_ERROR(rseg_->ForEachRecord(log, [&](ConstBytes page, std::size_t start) {
    auto h = UndoRecordHeader::Decode(page, start);
    if (!h.ok()) return h.status();
    TableImpl* t = TableById(h->table_id);
    if (!t) return Status::Ok();  // the table was dropped
    auto r = UndoRecord::Decode(page, start, t->n_key());
    if (!r.ok()) return r.status();
    records.emplace_back(t, std::move(*r));
    return Status::Ok();
  }));
  for (const auto& [t, r] : records) STRATA_RETURN_IF_ERROR(t->Purge(r, log.trx_id, view));
  STRATA_RETURN_IF_ERROR(rseg_->RemoveFromHistory(log));
  ++purged_logs_;
  purged_records_ += records.size();
  return std::uint64_t{1};
}

Result<std::uint64_t> Database::Purge() {
  if (read_only_) return std::uint64_t{0};
  std::lock_guard p(purge_mu_);
  const ReadView view = trx_sys_->PurgeView();
  std::uint64_t n = 0;
  for (;;) {
    auto one = PurgeOneLog(view);
    if (!one.ok()) return one.status();
    if (*one == 0) return n;
    n += *one;
  }
}

// srv_purge_coordinator_thread, in short: purge whenever there is history the oldest view
// lets go of, else sleep a little.
void Database::PurgeLoop() {
  std::unique_lock l(bg_mu_);
  while (!bg_stop_) {
    l.unlock();
    std::uint64_t done = 0;
    {
      std::lock_guard p(purge_mu_);
      const ReadView view = trx_sys_->PurgeView();
      for (int i = 0; i < 300 && !bg_stop_; ++i) {
        auto one = PurgeOneLog(view);
        if (!one.ok() || *one == 0) break;
        done += *one;
      }
    }
    l.lock();
    if (done == 0) bg_cv_.wait_for(l, std::chrono::milliseconds(100), [this] { return bg_stop_.load(); });
  }
}

std::uint64_t Database::history_list_length() const { return rseg_ ? rseg_->history_length() : 0; }

void Database::set_lock_wait_timeout(std::chrono::milliseconds t) { lock_sys_->set_wait_timeout(t); }

Status Database::set_flush_log_at_trx_commit(int value) {
  if (value < 0 || value > 2) return Status::InvalidArgument(fmt::format("innodb_flush_log_at_trx_commit must be 0, 1 or 2, not {}", value));
  flush_log_at_trx_commit_ = value;
  return Status::Ok();
}

// ---- status --------------------------------------------------------------------------------

EngineStatus Database::StatusReport() {
  EngineStatus s;
  s.max_trx_id = trx_sys_->max_trx_id();
  // Purge is done below the oldest log still in the history (or everything, when it is empty).
  auto oldest = rseg_->Oldest();
  s.purged_below_no = oldest.ok() && oldest->has_value() ? (*oldest)->trx_no : s.max_trx_id;
  s.history_list_length = history_list_length();
  s.purged_logs = purged_logs_.load();
  s.purged_records = purged_records_.load();
  s.transactions = trx_sys_->Transactions();
  s.locks = lock_sys_->stats();
  return s;
}

// The TRANSACTIONS section as lock0lock.cc's lock_print_info_summary and
// lock_print_info_all_transactions print it.
std::string EngineStatus::Render() const {
  std::string out = "------------\nTRANSACTIONS\n------------\n";
  out += fmt::format("Trx id counter {}\n", max_trx_id);
  out += fmt::format("Purge done for trx's n:o < {} undo n:o < {} state: running\n", purged_below_no, purged_below_undo_no);
  out += fmt::format("History list length {}\n", history_list_length);
  out += "LIST OF TRANSACTIONS FOR EACH SESSION:\n";
  for (const auto& t : transactions) {
    const std::string id = t.id ? std::to_string(t.id) : fmt::format("{}", 421000000000000ull + t.seq);  // not started: a placeholder id, as MySQL shows
    if (t.id == 0 && !t.has_view) {
      out += fmt::format("---TRANSACTION {}, not started\n", id);
      continue;
    }
    out += fmt::format("---TRANSACTION {}, ACTIVE {:.0f} sec{}\n", id, t.seconds, t.waiting ? " LOCK WAIT" : "");
    if (t.id) out += fmt::format("{} lock struct(s), undo log entries {}, rows modified {}\n", t.locks, t.undo_records, t.rows_modified);
    if (t.has_view) out += fmt::format("Trx read view will not see trx with id >= {}, sees < {}\n", t.view_low_limit_id, t.view_up_limit_id);
    out += fmt::format("isolation level {}\n", ToString(t.isolation));
  }
  out += fmt::format("Row locks: {} held or waited for, {} waits, {} lock wait timeouts, {} deadlocks\n", locks.locks, locks.waits,
                     locks.timeouts, locks.deadlocks);
  return out;
}

}  // namespace strata::engine
