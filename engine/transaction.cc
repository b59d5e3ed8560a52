// Transactions on the database: begin, statements with their savepoints, rollback, recovery
// of what a crash left active, and the status report. Commit is the CommitPipeline's.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/db_impl.h"
#include "engine/table_impl.h"
#include "ondisk/undo.h"

namespace strata::engine {

using namespace strata::ondisk;

// ---- Transaction ---------------------------------------------------------------------------

Transaction::Transaction(DatabaseImpl* db, std::unique_ptr<TrxImpl> impl) : db_(db), impl_(std::move(impl)) {}

Transaction::~Transaction() {
  if (impl_ && impl_->state == TrxImpl::State::kActive) (void)Rollback();
}

Status Transaction::Commit() {
  if (impl_->state != TrxImpl::State::kActive) return Status::InvalidArgument("the transaction has already ended");
  return db_->pipeline().Commit(*impl_);
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

// ---- DatabaseImpl: transactions ----------------------------------------------------------------

Result<std::unique_ptr<Transaction>> DatabaseImpl::Begin(TransactionOptions options) {
  auto impl = std::make_unique<TrxImpl>();
  impl->isolation = options.isolation;
  trx_sys_->Begin(*impl);
  if (options.consistent_snapshot && options.isolation >= Isolation::kRepeatableRead) trx_sys_->OpenView(*impl);
  return std::unique_ptr<Transaction>(new Transaction(this, std::move(impl)));
}

Status DatabaseImpl::EnsureWritable(TrxImpl& trx) {
  if (pipeline_->writes_stopped() || pipeline_->halted()) return pipeline_->Stopped();
  if (trx.id) return Status::Ok();
  STRATA_RETURN_IF_ERROR(trx_sys_->AssignId(trx));
  lock_sys_->Register(trx.locks);
  return Status::Ok();
}

// A statement: on failure its own changes are rolled back (a deadlock takes the whole
// transaction); an autocommit statement commits on success.
Status DatabaseImpl::RunStatement(Transaction* given, const std::function<Status(TrxImpl&)>& body) {
  TrxImpl* trx = given ? given->impl_.get() : nullptr;
  std::unique_ptr<TrxImpl> own;
  if (!trx) {
    own = std::make_unique<TrxImpl>();
    trx_sys_->Begin(*own);
    trx = own.get();
  } else if (trx->state != TrxImpl::State::kActive) {
    return Status::InvalidArgument("the transaction is no longer active (rolled back after a deadlock, or ended)");
  }
  if (pipeline_->halted()) {
    if (own) pipeline_->Abandon(*own);
    return pipeline_->Stopped();
  }
  const std::uint64_t savepoint = trx->undo_no;
  Status s = body(*trx);
  if (!s.ok()) {
    // A deadlock takes the whole transaction, and an autocommit statement is all of its own.
    Status r = s.IsDeadlock() || own      ? RollbackAndEnd(*trx)
               : trx->undo_no > savepoint ? RollbackTrx(*trx, savepoint)
                                          : Status::Ok();
    if (!r.ok()) return r.WithContext("rolling back the failed statement (" + s.ToString() + ")");
    return s;
  }
  if (own) {
    Status c = pipeline_->Commit(*own);
    if (own->state == TrxImpl::State::kActive) (void)RollbackAndEnd(*own);  // refused: the database halted
    return c;
  }
  if (trx->isolation == Isolation::kReadCommitted && trx->view) trx_sys_->CloseView(*trx);
  return Status::Ok();
}

std::shared_future<Status> Transaction::CommitAsync() {
  if (impl_->state != TrxImpl::State::kActive) {
    std::promise<Status> p;
    p.set_value(Status::InvalidArgument("the transaction has already ended"));
    return p.get_future().share();
  }
  return db_->pipeline().CommitAsync(*impl_);
}

Status DatabaseImpl::RollbackAndEnd(TrxImpl& trx) {
  Status s = RollbackTrx(trx, 0);
  if (!s.ok()) {
    pipeline_->Abandon(trx);
    return s;
  }
  return pipeline_->End(trx, false);
}

// Undoes the transaction's records from the newest down to undo_no `to` (the caller holds
// nothing; each record is undone and then removed from its log).
Status DatabaseImpl::RollbackTrx(TrxImpl& trx, std::uint64_t to) {
  if (pipeline_->halted()) return pipeline_->Stopped();
  WriterLock lock(mu_);
  Status s = UndoDownTo(trx, to);
  if (!s.ok()) {
    s = s.WithContext(fmt::format("rolling back transaction {}", trx.id));
    pipeline_->Halt(s);
  }
  return s;
}

Status DatabaseImpl::UndoDownTo(TrxImpl& trx, std::uint64_t to) {
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
        mu_.AssertHeld();  // run here, within UndoDownTo
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
    STRATA_RETURN_IF_ERROR(checkpointer_->FreeCheck());
    if (TableImpl* t = TableById(rec->table_id)) STRATA_RETURN_IF_ERROR(t->Undo(*rec, roll));
    STRATA_RETURN_IF_ERROR(rseg_->PopTop(*log));
  }
  trx.undo_no = to;
  return Status::Ok();
}

// Reads the rollback segment and rolls back every transaction a crash left active (their
// undo logs still ACTIVE), before anyone else can see their rows.
Status DatabaseImpl::LoadTransactions(bool roll_back) {
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

// Hot-row group commit (hot_row.h): the batch runs in a transaction of this database and
// commits through the pipeline, handing leadership on once committed in memory.
Status DatabaseImpl::RunGrouped(const std::string& group, const std::function<Status(Transaction&)>& body) {
  if (read_only_) return Status::InvalidArgument("the database is read-only");
  return hot_rows_.Run(group, body,
                       {[this] { return Begin({}); },
                        [this](Transaction& t, const std::function<void()>& in_memory) {
                          return pipeline_->Commit(*t.impl_, in_memory);
                        }});
}

// ---- purge and settings ----------------------------------------------------------------------

Result<std::uint64_t> DatabaseImpl::Purge() {
  if (read_only_) return std::uint64_t{0};
  return purge_->RunAll();
}

std::uint64_t DatabaseImpl::history_list_length() const { return rseg_ ? rseg_->history_length() : 0; }

void DatabaseImpl::set_lock_wait_timeout(std::chrono::milliseconds t) { lock_sys_->set_wait_timeout(t); }

// ---- status --------------------------------------------------------------------------------

EngineStatus DatabaseImpl::StatusReport() {
  EngineStatus s;
  s.max_trx_id = trx_sys_->max_trx_id();
  // Purge is done below the oldest log still in the history (or everything, when it is empty).
  auto oldest = rseg_->Oldest();
  s.purged_below_no = oldest.ok() && oldest->has_value() ? (*oldest)->trx_no : s.max_trx_id;
  s.history_list_length = history_list_length();
  s.purged_logs = purge_ ? purge_->purged_logs() : 0;
  s.purged_records = purge_ ? purge_->purged_records() : 0;
  s.transactions = trx_sys_->Transactions();
  s.locks = lock_sys_->stats();
  return s;
}

// The TRANSACTIONS section as lock0lock.cc's lock_print_info_summary and
// lock_print_info_all_transactions print it.
std::string EngineStatus::Render() const {
  std::string out = "------------\nTRANSACTIONS\n------------\n";
  out += fmt::format("Trx id counter {}\n", max_trx_id);
  out += fmt::format("Purge done for trx's n:o < {} undo n:o < {} state: running\n", purged_below_no,
                     purged_below_undo_no);
  out += fmt::format("History list length {}\n", history_list_length);
  out += "LIST OF TRANSACTIONS FOR EACH SESSION:\n";
  for (const auto& t : transactions) {
    const std::string id =
        t.id ? std::to_string(t.id)
             : fmt::format("{}", 421000000000000ull + t.seq);  // not started: a placeholder id, as MySQL shows
    if (t.id == 0 && !t.has_view) {
      out += fmt::format("---TRANSACTION {}, not started\n", id);
      continue;
    }
    out += fmt::format("---TRANSACTION {}, ACTIVE {:.0f} sec{}\n", id, t.seconds, t.waiting ? " LOCK WAIT" : "");
    if (t.id)
      out += fmt::format("{} lock struct(s), undo log entries {}, rows modified {}\n", t.locks, t.undo_records,
                         t.rows_modified);
    if (t.has_view)
      out += fmt::format("Trx read view will not see trx with id >= {}, sees < {}\n", t.view_low_limit_id,
                         t.view_up_limit_id);
    out += fmt::format("isolation level {}\n", ToString(t.isolation));
  }
  out += fmt::format("Row locks: {} held or waited for, {} waits, {} lock wait timeouts, {} deadlocks\n", locks.locks,
                     locks.waits, locks.timeouts, locks.deadlocks);
  return out;
}

}  // namespace strata::engine
