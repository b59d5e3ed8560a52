// A table's statements inside a transaction: inserts, updates and deletes that write undo
// and take row locks, consistent reads through read views, and locking reads.
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "engine/row_codec.h"
#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

namespace {

bool SameKey(const IndexShape& shape, const Tuple& a, const Tuple& b, std::size_t n) {
  for (std::size_t i = 0; i < n && i < a.size() && i < b.size(); ++i) {
    if (CompareField(shape.compare[i], a[i].null, a[i].span(), b[i].null, b[i].span()) != 0) return false;
  }
  return true;
}

}  // namespace

// ---- record helpers ----------------------------------------------------------------------

std::uint64_t TableImpl::TrxIdOf(const Tuple& c) const { return LoadBe(c[trx_pos_].span(), 0, 6); }
std::uint64_t TableImpl::RollPtrOf(const Tuple& c) const { return LoadBe(c[roll_pos_].span(), 0, 7); }

void TableImpl::SetSystemFields(Tuple& c, std::uint64_t trx_id, std::uint64_t roll_ptr) const {
  c[trx_pos_] = Datum::Of(BigEndianField(trx_id, 6));
  c[roll_pos_] = Datum::Of(BigEndianField(roll_ptr, 7));
}

Tuple TableImpl::KeyOf(const Tuple& c) const {
  return Tuple(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(shapes_[0].n_key));
}

Tuple TableImpl::ClusteredKeyOfEntry(std::size_t index, const Tuple& entry) const {
  Tuple key;
  for (std::size_t k = 0; k < shapes_[0].n_key; ++k) key.push_back(entry[FieldOfColumn(index, fields_[0][k].column)]);
  return key;
}

std::string TableImpl::RecordKey(std::size_t index, const Tuple& record) const {
  return LockKey(shapes_[index].id, record, shapes_[index].n_key);
}

Result<std::string> TableImpl::NextKey(std::size_t index, const Tuple& record) {
  const IndexShape& shape = shapes_[index];
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

std::vector<std::pair<std::uint32_t, Datum>> TableImpl::IndexedValues(const Tuple& clustered) const {
  std::vector<std::uint32_t> positions;
  for (std::size_t i = 1; i < fields_.size(); ++i) {
    for (const auto& f : fields_[i]) {
      const std::size_t p = FieldOfColumn(0, f.column);
      if (p >= shapes_[0].n_key) positions.push_back(static_cast<std::uint32_t>(p));
    }
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  std::vector<std::pair<std::uint32_t, Datum>> out;
  for (auto p : positions) out.emplace_back(p, clustered[p]);
  return out;
}

Tuple TableImpl::PartialRecord(const UndoRecord& rec) const {
  Tuple t(fields_[0].size(), Datum::Null());
  for (std::size_t i = 0; i < rec.key.size() && i < t.size(); ++i) t[i] = rec.key[i];
  if (rec.indexed) {
    for (const auto& [p, d] : *rec.indexed) {
      if (p < t.size()) t[p] = d;
    }
  }
  return t;
}

// ---- locks and undo ------------------------------------------------------------------------

Status TableImpl::LockRecord(TrxImpl& trx, const std::string& key, std::uint64_t rec_trx, LockMode mode, LockKind kind,
                             LockWait& wait) {
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
  const std::size_t n = shapes_[index].n_unique;
  if (n == 0) return Status::Ok();
  Tuple prefix(secondary.begin(), secondary.begin() + static_cast<std::ptrdiff_t>(n));
  for (const auto& d : prefix) {
    if (d.null) return Status::Ok();
  }
  std::vector<Btree::Marked> same;
  STRATA_RETURN_IF_ERROR(trees_[index]->ScanMarked(prefix, true, [&](const Tuple& t, bool deleted) {
    if (!SameKey(shapes_[index], t, prefix, n)) return false;
    same.push_back({t, deleted});
    return true;
  }));
  for (const auto& m : same) {
    const Tuple other = ClusteredKeyOfEntry(index, m.record);
    if (other == own_key) continue;
    auto row = trees_[0]->GetMarked(other);
    if (!row.ok()) return row.status();
    const std::uint64_t owner = row->has_value() ? TrxIdOf((*row)->record) : 0;
    STRATA_RETURN_IF_ERROR(LockRecord(trx, RecordKey(0, other), owner, LockMode::kShared, LockKind::kRecord, wait));
    if (wait.needed) return Status::Ok();
    if (!m.deleted)
      return Status::AlreadyExists(DuplicateMessage(index, secondary)).Because(Status::Reason::kDuplicateKey);
  }
  return Status::Ok();
}

Status TableImpl::SecInsertOrUnmark(std::size_t index, const Tuple& entry) {
  auto m = trees_[index]->GetMarked(entry);
  if (!m.ok()) return m.status();
  if (m->has_value()) return (*m)->deleted ? trees_[index]->SetDeleteMark(entry, false) : Status::Ok();
  return trees_[index]->Insert(entry);
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

std::optional<std::uint64_t> TableImpl::AssignAutoinc(Row& row, InsertOptions options) const {
  std::optional<std::uint64_t> generated;
  for (std::size_t c = 0; c < meta_.spec.columns.size(); ++c) {
    const Column& col = meta_.spec.columns[c];
    if (!col.auto_increment) continue;
    const Value& v = row[c];
    const bool zero = v.is_null() || (options.zero_generates_auto_increment &&
                                      ((v.is_int() && v.as_int() == 0) || (v.is_uint() && v.as_uint() == 0)));
    if (zero) {
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
  const std::optional<std::uint64_t> generated = AssignAutoinc(row, options);
  const std::uint64_t row_id = next_row_id_;
  auto record = ClusteredRecord(row, row_id);
  if (!record.ok()) return record.status();
  const Tuple key = KeyOf(*record);
  // A record with this key, live or delete-marked, is locked before anything is decided.
  auto existing = trees_[0]->GetMarked(key);
  if (!existing.ok()) return existing.status();
  if (existing->has_value()) {
    STRATA_RETURN_IF_ERROR(LockRecord(trx, RecordKey(0, key), TrxIdOf((*existing)->record), LockMode::kExclusive,
                                      LockKind::kRecord, wait));
    if (wait.needed) return Status::Ok();
    if (!(*existing)->deleted)
      return Status::AlreadyExists(DuplicateMessage(0, *record)).Because(Status::Reason::kDuplicateKey);
  } else {
    STRATA_RETURN_IF_ERROR(InsertIntention(trx, 0, key, wait));
    if (wait.needed) return Status::Ok();
  }
  std::vector<Tuple> secondary;
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    secondary.push_back(SecondaryRecord(i, *record));
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
    undo.old_trx_id = TrxIdOf(old);
    undo.old_roll_ptr = RollPtrOf(old);
    for (std::size_t p = shapes_[0].n_key; p < old.size(); ++p) {
      if (p != trx_pos_ && p != roll_pos_ && !(old[p] == (*record)[p]))
        undo.updated.emplace_back(static_cast<std::uint32_t>(p), old[p]);
    }
    undo.indexed = IndexedValues(old);
  }
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) {
    (void)FreeExternal(*record);
    return roll.status();
  }
  SetSystemFields(*record, trx.id, *roll);
  if (existing->has_value()) {
    STRATA_RETURN_IF_ERROR(trees_[0]->Update(*record, false));
  } else if (Status s = trees_[0]->Insert(*record); !s.ok()) {
    (void)FreeExternal(*record);
    return s.IsAlreadyExists()
               ? Status::AlreadyExists(DuplicateMessage(0, *record)).Because(Status::Reason::kDuplicateKey)
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
  auto record = ClusteredRecord(row, 0);
  if (!record.ok()) return record.status();
  const Tuple key = KeyOf(*record);
  auto old = trees_[0]->GetMarked(key);
  if (!old.ok()) return old.status();
  if (!old->has_value()) return Status::NotFound("no row with this primary key");
  STRATA_RETURN_IF_ERROR(
      LockRecord(trx, RecordKey(0, key), TrxIdOf((*old)->record), LockMode::kExclusive, LockKind::kRecord, wait));
  if (wait.needed) return Status::Ok();
  if ((*old)->deleted) return Status::NotFound("no row with this primary key");
  const Tuple& before_rec = (*old)->record;
  std::vector<std::pair<Tuple, Tuple>> changed;  // per secondary index: old and new entry
  bool any_changed = false;
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    Tuple before = SecondaryRecord(i, before_rec), after = SecondaryRecord(i, *record);
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
  undo.old_trx_id = TrxIdOf(before_rec);
  undo.old_roll_ptr = RollPtrOf(before_rec);
  for (std::size_t p = shapes_[0].n_key; p < before_rec.size(); ++p) {
    if (p != trx_pos_ && p != roll_pos_ && !(before_rec[p] == (*record)[p]))
      undo.updated.emplace_back(static_cast<std::uint32_t>(p), before_rec[p]);
  }
  if (undo.updated.empty()) return Status::Ok();  // "Rows matched: 1  Changed: 0"
  if (any_changed) undo.indexed = IndexedValues(before_rec);
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) return roll.status();
  SetSystemFields(*record, trx.id, *roll);
  STRATA_RETURN_IF_ERROR(trees_[0]->Update(*record, false));
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
  auto key = PrimaryKey(primary_key);
  if (!key.ok()) return key.status();
  auto old = trees_[0]->GetMarked(*key);
  if (!old.ok()) return old.status();
  if (!old->has_value()) return Status::NotFound("no row with this primary key");
  STRATA_RETURN_IF_ERROR(
      LockRecord(trx, RecordKey(0, *key), TrxIdOf((*old)->record), LockMode::kExclusive, LockKind::kRecord, wait));
  if (wait.needed) return Status::Ok();
  if ((*old)->deleted) return Status::NotFound("no row with this primary key");
  Tuple record = (*old)->record;
  UndoRecord undo;
  undo.type = UndoRecordType::kDeleteMark;
  undo.key = *key;
  undo.old_trx_id = TrxIdOf(record);
  undo.old_roll_ptr = RollPtrOf(record);
  undo.indexed = IndexedValues(record);
  auto roll = WriteUndo(trx, undo);
  if (!roll.ok()) return roll.status();
  // The clustered record first, as for every change (row_upd_clust_step before the secondary
  // indexes): its roll pointer is what tells a rollback after a crash that the change began,
  // so secondary entries marked before it would stay marked for good.
  SetSystemFields(record, trx.id, *roll);
  STRATA_RETURN_IF_ERROR(trees_[0]->Update(record, true));
  for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecMark(i, SecondaryRecord(i, record), true));
  ++stats_.rows_deleted;
  ++trx.rows_modified;
  return Status::Ok();
}

// ---- reads ---------------------------------------------------------------------------------

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
  auto key = PrimaryKey(primary_key);
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
      auto cur = trees_[0]->GetMarked(*key);
      if (!cur.ok()) return cur.status();
      if (cur->has_value()) {
        // Equality on the whole primary key: the record alone is locked.
        STRATA_RETURN_IF_ERROR(
            LockRecord(trx, RecordKey(0, *key), TrxIdOf((*cur)->record), mode, LockKind::kRecord, wait));
        if (!wait.needed && !(*cur)->deleted) {
          auto row = RowOf((*cur)->record);
          if (!row.ok()) return row.status();
          out = std::move(*row);
        }
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
  const std::size_t index = IndexByName(options.index);
  if (index >= trees_.size())
    return Status::NotFound(fmt::format("no index '{}' on {}.{}", options.index, meta_.spec.database, meta_.spec.name));
  Tuple from;
  for (std::size_t i = 0; i < options.from.size(); ++i) {
    if (i >= fields_[index].size() || !fields_[index][i].key)
      return Status::InvalidArgument("more start values than key columns");
    const int c = fields_[index][i].column;
    if (c < 0) {
      const Value& v = options.from[i];
      from.push_back(Datum::Of(BigEndianField(v.is_uint() ? v.as_uint() : static_cast<std::uint64_t>(v.as_int()), 6)));
      continue;
    }
    auto d = EncodeValue(meta_.spec.columns[static_cast<std::size_t>(c)], options.from[i]);
    if (!d.ok()) return d.status();
    from.push_back(std::move(*d));
  }
  const bool locking = options.lock != RowLock::kNone || trx.isolation == Isolation::kSerializable;
  return locking ? ScanLocking(trx, index, std::move(from), options, fn)
                 : ScanConsistent(trx, index, from, options, fn);
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
      auto c = trees_[0]->GetMarked(ClusteredKeyOfEntry(index, t));
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
      if (visible.ok() && visible->has_value() && !(SecondaryRecord(index, **visible) == t))
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
  const IndexShape& shape = shapes_[index];
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
        Tuple ckey = index == 0 ? KeyOf(next->record) : ClusteredKeyOfEntry(index, next->record);
        auto cur = trees_[0]->GetMarked(ckey);
        if (!cur.ok()) return cur.status();
        const std::uint64_t owner = cur->has_value() ? TrxIdOf((*cur)->record) : 0;
        STRATA_RETURN_IF_ERROR(
            LockRecord(trx, RecordKey(index, next->record), index == 0 ? owner : 0, mode, kind, wait));
        if (!wait.needed && index != 0) {
          STRATA_RETURN_IF_ERROR(LockRecord(trx, RecordKey(0, ckey), owner, mode, LockKind::kRecord, wait));
        }
        if (!wait.needed) {
          found = next->record;
          const bool live = cur->has_value() && !(*cur)->deleted && !next->deleted &&
                            (index == 0 || SecondaryRecord(index, (*cur)->record) == next->record);
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
