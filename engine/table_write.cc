// A table's write statements inside a transaction: inserts, updates and deletes that take row
// locks (implicit ones made explicit, gap and insert-intention locks), write undo first, then
// change the clustered record and the secondary entries (InnoDB's row0ins and row0upd).
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/row_codec.h"
#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

// ---- record helpers ----------------------------------------------------------------------

Result<std::string> TableImpl::NextKey(std::size_t index, const Tuple& record) {
  const IndexShape& shape = rec_.shape(index);
  const std::size_t n = shape.n_key;
  Tuple from(record.begin(), record.begin() + static_cast<std::ptrdiff_t>(std::min(n, record.size())));
  std::string out = SupremumKey(shape.id);
  STRATA_RETURN_IF_ERROR(trees_[index]->ScanMarked(from, true, [&](const Tuple& t, bool) {
    if (SameKey(shape, t, from, from.size())) return true;
    out = LockKey(shape.id, t, n);
    return false;
  }));
  return out;
}

// ---- locks and undo ------------------------------------------------------------------------

Status TableImpl::LockRecord(TrxImpl& trx, const std::string& key, std::uint64_t rec_trx, LockMode mode, LockKind kind,
                             LockWait& wait) {
  lock_requests_.fetch_add(1, std::memory_order_relaxed);
  if (rec_trx != 0 && rec_trx != trx.id) svc_.locks->ConvertImplicit(rec_trx, key);
  if (svc_.locks->TryAcquire(trx.locks, key, mode, kind).ok()) return Status::Ok();
  wait = {true, key, mode, kind};
  return Status::Ok();
}

Status TableImpl::InsertIntention(TrxImpl& trx, std::size_t index, const Tuple& record, LockWait& wait) {
  if (!svc_.locks->AnyGapLocks()) return Status::Ok();
  auto next = NextKey(index, record);
  if (!next.ok()) return next.status();
  return LockRecord(trx, *next, 0, LockMode::kExclusive, LockKind::kInsertIntention, wait);
}

Result<std::uint64_t> TableImpl::WriteUndo(TrxImpl& trx, UndoRecord& rec) {
  const bool insert = rec.type == UndoRecordType::kInsert;
  auto& log = insert ? trx.insert_undo : trx.update_undo;
  if (!log) {
    auto created = svc_.rseg->Create(insert ? UndoPageType::kInsert : UndoPageType::kUpdate, trx.id);
    if (!created.ok()) return created.status();
    log = *created;
  }
  rec.undo_no = trx.undo_no;
  rec.table_id = meta_.table_id;
  auto roll = svc_.rseg->Append(*log, [&](std::uint16_t start) { return rec.Encode(start); });
  if (!roll.ok()) return roll.status();
  ++trx.undo_no;
  if (rec.type == UndoRecordType::kDeleteMark || rec.indexed) log->del_marks = true;  // purge has entries to remove
  return roll;
}

// AlreadyExists when another row holds the unique part of this secondary record. Rows whose
// entry matches are locked (shared) first, so that an uncommitted insert, update or delete
// of that value decides the outcome once it commits or rolls back.
Status TableImpl::CheckUnique(TrxImpl& trx, std::size_t index, const Tuple& secondary, const Tuple& own_key,
                              LockWait& wait) {
  const std::size_t n = rec_.shape(index).n_unique;
  if (n == 0) return Status::Ok();
  Tuple prefix(secondary.begin(), secondary.begin() + static_cast<std::ptrdiff_t>(n));
  for (const auto& d : prefix) {
    if (d.null) return Status::Ok();
  }
  std::vector<Btree::Marked> same;
  STRATA_RETURN_IF_ERROR(trees_[index]->ScanMarked(prefix, true, [&](const Tuple& t, bool deleted) {
    if (!SameKey(rec_.shape(index), t, prefix, n)) return false;
    same.push_back({t, deleted});
    return true;
  }));
  for (const auto& m : same) {
    const Tuple other = rec_.ClusteredKeyOfEntry(index, m.record);
    if (other == own_key) continue;
    auto row = trees_[0]->GetMarked(other);
    if (!row.ok()) return row.status();
    const std::uint64_t owner = row->has_value() ? rec_.TrxIdOf((*row)->record) : 0;
    STRATA_RETURN_IF_ERROR(
        LockRecord(trx, rec_.RecordKey(0, other), owner, LockMode::kShared, LockKind::kRecord, wait));
    if (wait.needed) return Status::Ok();
    if (!m.deleted)
      return Status::AlreadyExists(rec_.DuplicateMessage(index, secondary)).Because(Status::Reason::kDuplicateKey);
  }
  return Status::Ok();
}

// An entry equal under the index's collations but not byte for byte ('one' becoming 'ONE')
// takes the new bytes, as row_ins_sec_index_entry_by_modify does.
Status TableImpl::SecInsertOrUnmark(std::size_t index, const Tuple& entry) {
  auto m = trees_[index]->GetMarked(entry);
  if (!m.ok()) return m.status();
  if (!m->has_value()) return trees_[index]->Insert(entry);
  if (!((*m)->record == entry)) return trees_[index]->Update(entry, false);
  return (*m)->deleted ? trees_[index]->SetDeleteMark(entry, false) : Status::Ok();
}

Status TableImpl::SecMark(std::size_t index, const Tuple& entry, bool deleted) {
  Status s = trees_[index]->SetDeleteMark(entry, deleted);
  return s.IsNotFound() ? Status::Ok() : s;
}

Status TableImpl::SecRemove(std::size_t index, const Tuple& entry) {
  Status s = trees_[index]->Delete(entry);
  return s.IsNotFound() ? Status::Ok() : s;
}

// ---- write statements ----------------------------------------------------------------------

Status TableImpl::Write(TrxImpl& trx, const std::function<Status(LockWait&)>& body) {
  for (;;) {
    LockWait wait;
    Status s;
    {
      std::unique_lock lock(mu_);
      STRATA_RETURN_IF_ERROR(CheckWritable());
      if (hooks_.before_write) STRATA_RETURN_IF_ERROR(Guard(hooks_.before_write()));
      STRATA_RETURN_IF_ERROR(svc_.ensure_writable(trx));
      s = Guard(body(wait));
    }
    if (!wait.needed) return s;
    STRATA_RETURN_IF_ERROR(svc_.locks->Acquire(trx.locks, wait.key, wait.mode, wait.kind));
  }
}

Status TableImpl::Insert(TrxImpl& trx, const Row& row, InsertOptions options) {
  return Write(trx, [&](LockWait& wait) { return InsertLocked(trx, row, options, wait); });
}

Status TableImpl::Update(TrxImpl& trx, const Row& row) {
  return Write(trx, [&](LockWait& wait) { return UpdateLocked(trx, row, wait); });
}

Status TableImpl::Delete(TrxImpl& trx, const std::vector<Value>& primary_key) {
  return Write(trx, [&](LockWait& wait) { return DeleteLocked(trx, primary_key, wait); });
}

Result<std::optional<std::uint64_t>> TableImpl::AssignAutoinc(Row& row, InsertOptions options) const {
  std::optional<std::uint64_t> generated;
  for (std::size_t c = 0; c < meta_.spec.columns.size(); ++c) {
    const Column& col = meta_.spec.columns[c];
    if (!col.auto_increment) continue;
    const Value& v = row[c];
    const bool zero = v.is_null() || (options.zero_generates_auto_increment &&
                                      ((v.is_int() && v.as_int() == 0) || (v.is_uint() && v.as_uint() == 0)));
    if (zero) {
      // Past the type's last value there is none to hand out: MySQL's 167, and for BIGINT
      // UNSIGNED, whose counter cannot go past it either, 1467. Never a wrap to the minimum.
      // (InnoDB keeps BIGINT UNSIGNED's last value as the mark of a spent counter: it is never
      // handed out.)
      if (IntegerMax(col) == UINT64_MAX && autoinc_ >= UINT64_MAX - 1) {
        return Status::InvalidArgument("Failed to read auto-increment value from storage engine")
            .Because(Status::Reason::kAutoincExhausted);
      }
      if (autoinc_ >= IntegerMax(col)) {
        return Status::InvalidArgument(fmt::format("Out of range value for column '{}'", col.name))
            .Because(Status::Reason::kAutoincOutOfRange);
      }
      generated = autoinc_ + 1;
      row[c] = col.is_unsigned ? Value::UInt(*generated) : Value::Int(static_cast<std::int64_t>(*generated));
    }
  }
  return generated;
}

void TableImpl::NoteAutoinc(const Row& row) {
  for (std::size_t c = 0; c < meta_.spec.columns.size(); ++c) {
    if (!meta_.spec.columns[c].auto_increment) continue;
    const Value& v = row[c];
    const std::uint64_t used = v.is_uint()                    ? v.as_uint()
                               : v.is_int() && v.as_int() > 0 ? static_cast<std::uint64_t>(v.as_int())
                                                              : 0;
    autoinc_ = std::max(autoinc_, used);
  }
}

Status TableImpl::InsertLocked(TrxImpl& trx, const Row& input, InsertOptions options, LockWait& wait) {
  const auto& spec = meta_.spec;
  if (input.size() != spec.columns.size()) {
    return Status::InvalidArgument(fmt::format("Column count doesn't match value count: {} columns, {} values",
                                               spec.columns.size(), input.size()));
  }
  Row row = input;
  const auto assigned = AssignAutoinc(row, options);
  if (!assigned.ok()) return assigned.status();
  const std::optional<std::uint64_t> generated = *assigned;
  const std::uint64_t row_id = next_row_id_;
  auto record = rec_.ClusteredRecord(row, row_id);
  if (!record.ok()) return record.status();
  const Tuple key = rec_.KeyOf(*record);
  // A record with this key, live or delete-marked, is locked before anything is decided.
  auto existing = trees_[0]->GetMarked(key);
  if (!existing.ok()) return existing.status();
  if (existing->has_value()) {
    STRATA_RETURN_IF_ERROR(LockRecord(trx, rec_.RecordKey(0, key), rec_.TrxIdOf((*existing)->record),
                                      LockMode::kExclusive, LockKind::kRecord, wait));
    if (wait.needed) return Status::Ok();
    if (!(*existing)->deleted)
      return Status::AlreadyExists(rec_.DuplicateMessage(0, *record)).Because(Status::Reason::kDuplicateKey);
  } else {
    STRATA_RETURN_IF_ERROR(InsertIntention(trx, 0, key, wait));
    if (wait.needed) return Status::Ok();
  }
  std::vector<Tuple> secondary;
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    secondary.push_back(rec_.SecondaryRecord(i, *record));
    STRATA_RETURN_IF_ERROR(CheckUnique(trx, i, secondary.back(), key, wait));
    if (wait.needed) return Status::Ok();
    STRATA_RETURN_IF_ERROR(InsertIntention(trx, i, secondary.back(), wait));
    if (wait.needed) return Status::Ok();
  }
  STRATA_RETURN_IF_ERROR(Externalize(*record));
  UndoRecord undo;
  undo.key = key;
  if (existing->has_value()) {
    // Inserting over a delete-marked record updates it (TRX_UNDO_UPD_DEL_REC).
    const Tuple& old = (*existing)->record;
    undo.type = UndoRecordType::kUpdateDeleted;
    undo.info_bits = kInfoDeleted;
    undo.old_trx_id = rec_.TrxIdOf(old);
    undo.old_roll_ptr = rec_.RollPtrOf(old);
    undo.updated = rec_.ChangedFields(old, *record);
    undo.indexed = rec_.IndexedValues(old);
  }
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) {
    (void)FreeExternal(*record);
    return roll.status();
  }
  rec_.SetSystemFields(*record, trx.id, *roll);
  if (existing->has_value()) {
    STRATA_RETURN_IF_ERROR(trees_[0]->Update(*record, false));
  } else if (Status s = trees_[0]->Insert(*record); !s.ok()) {
    (void)FreeExternal(*record);
    return s.IsAlreadyExists()
               ? Status::AlreadyExists(rec_.DuplicateMessage(0, *record)).Because(Status::Reason::kDuplicateKey)
               : s;
  }
  for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecInsertOrUnmark(i, secondary[i - 1]));
  if (spec.primary_key.empty()) ++next_row_id_;
  NoteAutoinc(row);
  if (generated) last_insert_id_ = *generated;
  ++stats_.rows_inserted;
  ++trx.rows_modified;
  return PersistAutoinc();
}

Status TableImpl::UpdateLocked(TrxImpl& trx, const Row& row, LockWait& wait) {
  const auto& spec = meta_.spec;
  if (row.size() != spec.columns.size()) {
    return Status::InvalidArgument(
        fmt::format("Column count doesn't match value count: {} columns, {} values", spec.columns.size(), row.size()));
  }
  if (spec.primary_key.empty())
    return Status::NotSupported("update of a table without a primary key: use Delete and Insert");
  auto record = rec_.ClusteredRecord(row, 0);
  if (!record.ok()) return record.status();
  const Tuple key = rec_.KeyOf(*record);
  Btree::Marked old;
  std::optional<Btree::Position> at;
  if (auto& locked = trx.locked_record;
      locked && locked->table == this && locked->key == key && locked->at.clock == trees_[0]->modify_clock()) {
    // Located and locked by this transaction, and nothing in the tree moved since. Taken: the
    // update moves the clock anyway.
    old = std::move(locked->record);
    at = locked->at;
    locked.reset();
  } else {
    auto found = trees_[0]->GetMarked(key);
    if (!found.ok()) return found.status();
    if (!found->has_value()) return Status::NotFound("no row with this primary key");
    old = std::move(**found);
    STRATA_RETURN_IF_ERROR(LockRecord(trx, rec_.RecordKey(0, key), rec_.TrxIdOf(old.record), LockMode::kExclusive,
                                      LockKind::kRecord, wait));
    if (wait.needed) return Status::Ok();
  }
  if (old.deleted) return Status::NotFound("no row with this primary key");
  const Tuple& before_rec = old.record;
  std::vector<std::pair<Tuple, Tuple>> changed;  // per secondary index: old and new entry
  bool any_changed = false;
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    Tuple before = rec_.SecondaryRecord(i, before_rec), after = rec_.SecondaryRecord(i, *record);
    if (before == after) {
      changed.emplace_back();
      continue;
    }
    STRATA_RETURN_IF_ERROR(CheckUnique(trx, i, after, key, wait));
    if (wait.needed) return Status::Ok();
    any_changed = true;
    changed.emplace_back(std::move(before), std::move(after));
  }
  // A long column whose value did not change keeps its off-page copy.
  for (std::size_t p = 0; p < record->size(); ++p) {
    const Datum& o = before_rec[p];
    Datum& n = (*record)[p];
    if (!o.external || n.null || n.bytes.size() <= kExternRefSize) continue;
    auto stored = lobs_->Read(ExternRef::Decode(o.span(), o.bytes.size() - kExternRefSize));
    if (!stored.ok()) return stored.status();
    if (*stored == n.bytes) n = o;
  }
  STRATA_RETURN_IF_ERROR(Externalize(*record));
  UndoRecord undo;
  undo.type = UndoRecordType::kUpdateExisting;
  undo.key = key;
  undo.old_trx_id = rec_.TrxIdOf(before_rec);
  undo.old_roll_ptr = rec_.RollPtrOf(before_rec);
  undo.updated = rec_.ChangedFields(before_rec, *record);
  if (undo.updated.empty()) return Status::Ok();  // "Rows matched: 1  Changed: 0"
  if (any_changed) undo.indexed = rec_.IndexedValues(before_rec);
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) return roll.status();
  rec_.SetSystemFields(*record, trx.id, *roll);
  STRATA_RETURN_IF_ERROR(trees_[0]->Update(*record, false, at ? &*at : nullptr));
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    auto& [before, after] = changed[i - 1];
    if (before.empty()) continue;
    STRATA_RETURN_IF_ERROR(SecMark(i, before, true));
    STRATA_RETURN_IF_ERROR(SecInsertOrUnmark(i, after));
  }
  ++stats_.rows_updated;
  ++trx.rows_modified;
  return Status::Ok();
}

Status TableImpl::DeleteLocked(TrxImpl& trx, const std::vector<Value>& primary_key, LockWait& wait) {
  auto key = rec_.PrimaryKey(primary_key);
  if (!key.ok()) return key.status();
  auto old = trees_[0]->GetMarked(*key);
  if (!old.ok()) return old.status();
  if (!old->has_value()) return Status::NotFound("no row with this primary key");
  STRATA_RETURN_IF_ERROR(LockRecord(trx, rec_.RecordKey(0, *key), rec_.TrxIdOf((*old)->record), LockMode::kExclusive,
                                    LockKind::kRecord, wait));
  if (wait.needed) return Status::Ok();
  if ((*old)->deleted) return Status::NotFound("no row with this primary key");
  Tuple record = (*old)->record;
  UndoRecord undo;
  undo.type = UndoRecordType::kDeleteMark;
  undo.key = *key;
  undo.old_trx_id = rec_.TrxIdOf(record);
  undo.old_roll_ptr = rec_.RollPtrOf(record);
  undo.indexed = rec_.IndexedValues(record);
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) return roll.status();
  // The clustered record first, as for every change (row_upd_clust_step before the secondary
  // indexes): its roll pointer is what tells a rollback after a crash that the change began,
  // so secondary entries marked before it would stay marked for good.
  rec_.SetSystemFields(record, trx.id, *roll);
  STRATA_RETURN_IF_ERROR(trees_[0]->Update(record, true));
  for (std::size_t i = 1; i < trees_.size(); ++i)
    STRATA_RETURN_IF_ERROR(SecMark(i, rec_.SecondaryRecord(i, record), true));
  ++stats_.rows_deleted;
  ++trx.rows_modified;
  return Status::Ok();
}

}  // namespace strata::engine
