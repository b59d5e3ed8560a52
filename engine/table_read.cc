// A table's reads inside a transaction: point and range reads, consistent (through the read
// view the isolation level gives, older versions from undo) or locking (InnoDB's row0sel).
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/row_codec.h"
#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

const ReadView* TableImpl::ViewFor(TrxImpl& trx) {
  switch (trx.isolation) {
    case Isolation::kReadUncommitted:
      return nullptr;
    case Isolation::kReadCommitted:
      svc_.trx_sys->OpenView(trx);
      break;  // a view per statement
    default:
      if (!trx.view) svc_.trx_sys->OpenView(trx);  // the first consistent read takes the snapshot
  }
  return &*trx.view;
}

Result<std::optional<Row>> TableImpl::Get(TrxImpl& trx, const std::vector<Value>& primary_key, RowLock lock) {
  auto key = rec_.PrimaryKey(primary_key);
  if (!key.ok()) return key.status();
  const bool locking = lock != RowLock::kNone || trx.isolation == Isolation::kSerializable;
  if (!locking) {
    const ReadView* view = ViewFor(trx);
    std::shared_lock l(mu_);
    auto cur = trees_[0]->GetMarked(*key);
    if (!cur.ok()) return cur.status();
    if (!cur->has_value()) return std::optional<Row>();
    std::optional<Tuple> version;
    if (view) {
      auto v = VisibleVersion((*cur)->record, (*cur)->deleted, *view);
      if (!v.ok()) return v.status();
      version = std::move(*v);
    } else if (!(*cur)->deleted) {
      version = (*cur)->record;
    }
    if (!version) return std::optional<Row>();
    auto row = RowOf(*version);
    if (!row.ok()) return row.status();
    return std::optional<Row>(std::move(*row));
  }
  const LockMode mode = lock == RowLock::kExclusive ? LockMode::kExclusive : LockMode::kShared;
  const bool gaps = trx.isolation >= Isolation::kRepeatableRead;
  for (;;) {
    LockWait wait;
    std::optional<Row> out;
    {
      std::shared_lock l(mu_);
      Btree::Position at;
      auto cur = trees_[0]->GetMarked(*key, &at);
      if (!cur.ok()) return cur.status();
      if (cur->has_value()) {
        // Equality on the whole primary key: the record alone is locked.
        STRATA_RETURN_IF_ERROR(
            LockRecord(trx, rec_.RecordKey(0, *key), rec_.TrxIdOf((*cur)->record), mode, LockKind::kRecord, wait));
        if (!wait.needed && !(*cur)->deleted) {
          auto row = RowOf((*cur)->record);
          if (!row.ok()) return row.status();
          out = std::move(*row);
        }
        if (!wait.needed && mode == LockMode::kExclusive)  // the key is not needed again: it returns now
          trx.locked_record = {{this, std::move(*key), std::move(**cur), at}};
      } else if (gaps) {
        auto next = NextKey(0, *key);
        if (!next.ok()) return next.status();
        STRATA_RETURN_IF_ERROR(LockRecord(trx, *next, 0, mode, LockKind::kGap, wait));
      }
    }
    if (!wait.needed) return out;
    STRATA_RETURN_IF_ERROR(svc_.locks->Acquire(trx.locks, wait.key, wait.mode, wait.kind));
  }
}

Status TableImpl::Scan(TrxImpl& trx, const ScanOptions& options, const std::function<bool(const Row&)>& fn) {
  const std::size_t index = rec_.IndexByName(options.index);
  if (index >= trees_.size())
    return Status::NotFound(fmt::format("no index '{}' on {}.{}", options.index, meta_.spec.database, meta_.spec.name));
  auto from = rec_.KeyPrefix(index, options.from);
  if (!from.ok()) return from.status();
  const bool locking = options.lock != RowLock::kNone || trx.isolation == Isolation::kSerializable;
  return locking ? ScanLocking(trx, index, std::move(*from), options, fn)
                 : ScanConsistent(trx, index, *from, options, fn);
}

Status TableImpl::ScanConsistent(TrxImpl& trx, std::size_t index, const Tuple& from, const ScanOptions& options,
                                 const std::function<bool(const Row&)>& fn) {
  const ReadView* view = ViewFor(trx);
  std::shared_lock l(mu_);
  Status inner;
  auto version_of = [&](const Tuple& rec, bool deleted) -> Result<std::optional<Tuple>> {
    if (view) return VisibleVersion(rec, deleted, *view);
    return deleted ? std::optional<Tuple>() : std::optional<Tuple>(rec);
  };
  STRATA_RETURN_IF_ERROR(trees_[index]->ScanMarked(from, options.forward, [&](const Tuple& t, bool deleted) {
    Result<std::optional<Tuple>> visible = std::optional<Tuple>();
    if (index == 0) {
      visible = version_of(t, deleted);
    } else {
      // The entry counts when the row's visible version still has it (row_sel_sec_rec_is_for_clust_rec).
      auto c = trees_[0]->GetMarked(rec_.ClusteredKeyOfEntry(index, t));
      if (!c.ok()) {
        inner = c.status();
        return false;
      }
      if (!c->has_value()) {
        if (deleted) return true;
        inner = Status::Corruption(fmt::format("index '{}' has an entry without its row", options.index));
        return false;
      }
      visible = version_of((*c)->record, (*c)->deleted);
      if (visible.ok() && visible->has_value() && !SameEntry(index, rec_.SecondaryRecord(index, **visible), t))
        visible = std::optional<Tuple>();
    }
    if (!visible.ok()) {
      inner = visible.status();
      return false;
    }
    if (!visible->has_value()) return true;
    auto row = RowOf(**visible);
    if (!row.ok()) {
      inner = row.status();
      return false;
    }
    return fn(*row);
  }));
  return inner;
}

// One record at a time: find the next record, lock it (and, through a secondary index, its
// row), read its latest version, and only then let go of the table to hand the row to `fn`.
// Finding and locking happen under one hold of the table, so no insert slips in between.
Status TableImpl::ScanLocking(TrxImpl& trx, std::size_t index, Tuple from, const ScanOptions& options,
                              const std::function<bool(const Row&)>& fn) {
  const LockMode mode = options.lock == RowLock::kExclusive ? LockMode::kExclusive : LockMode::kShared;
  const bool gaps = trx.isolation >= Isolation::kRepeatableRead;
  const LockKind kind = gaps ? LockKind::kNextKey : LockKind::kRecord;
  const IndexShape& shape = rec_.shape(index);
  bool past = false;  // `from` is a record already handed out: skip it
  for (;;) {
    LockWait wait;
    std::optional<Row> row;
    std::optional<Tuple> found;
    {
      std::shared_lock l(mu_);
      std::optional<Btree::Marked> next;
      STRATA_RETURN_IF_ERROR(trees_[index]->ScanMarked(from, options.forward, [&](const Tuple& t, bool deleted) {
        if (past && SameKey(shape, t, from, shape.n_key)) return true;
        next = Btree::Marked{t, deleted};
        return false;
      }));
      if (!next) {
        if (gaps && options.forward)
          STRATA_RETURN_IF_ERROR(LockRecord(trx, SupremumKey(shape.id), 0, mode, LockKind::kGap, wait));
        if (!wait.needed) return Status::Ok();
      } else {
        Tuple ckey = index == 0 ? rec_.KeyOf(next->record) : rec_.ClusteredKeyOfEntry(index, next->record);
        auto cur = trees_[0]->GetMarked(ckey);
        if (!cur.ok()) return cur.status();
        const std::uint64_t owner = cur->has_value() ? rec_.TrxIdOf((*cur)->record) : 0;
        STRATA_RETURN_IF_ERROR(
            LockRecord(trx, rec_.RecordKey(index, next->record), index == 0 ? owner : 0, mode, kind, wait));
        if (!wait.needed && index != 0) {
          STRATA_RETURN_IF_ERROR(LockRecord(trx, rec_.RecordKey(0, ckey), owner, mode, LockKind::kRecord, wait));
        }
        if (!wait.needed) {
          found = next->record;
          const bool live = cur->has_value() && !(*cur)->deleted && !next->deleted &&
                            (index == 0 || SameEntry(index, rec_.SecondaryRecord(index, (*cur)->record), next->record));
          if (live) {
            auto r = RowOf((*cur)->record);
            if (!r.ok()) return r.status();
            row = std::move(*r);
          }
        }
      }
    }
    if (wait.needed) {
      STRATA_RETURN_IF_ERROR(svc_.locks->Acquire(trx.locks, wait.key, wait.mode, wait.kind));
      continue;
    }
    from = Tuple(found->begin(), found->begin() + static_cast<std::ptrdiff_t>(shape.n_key));
    past = true;
    if (row && !fn(*row)) return Status::Ok();
  }
}

}  // namespace strata::engine
