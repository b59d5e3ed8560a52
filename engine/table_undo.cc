// Undo records applied to a table's rows: older versions for consistent reads, rollback, and
// purge of what no read view needs any more.
#include <fmt/format.h>

#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<bool> TableImpl::PreviousVersion(Tuple& record, bool& deleted) {
  const RollPtr rp = RollPtr::Decode(RollPtrOf(record));
  if (rp.insert) return false;
  std::optional<UndoRecord> undo;
  STRATA_RETURN_IF_ERROR(svc_.rseg->WithRecord(PageNo(rp.page_no), rp.offset, [&](ConstBytes page, std::size_t start) {
    auto r = UndoRecord::Decode(page, start, n_key());
    if (!r.ok()) return r.status();
    undo = std::move(*r);
    return Status::Ok();
  }));
  if (undo->table_id != meta_.table_id || !undo->is_update()) {
    return Status::Corruption(
        fmt::format("{}.{}: the roll pointer of a record leads to an undo record of table {} (type {})",
                    meta_.spec.database, meta_.spec.name, undo->table_id, ToString(undo->type)));
  }
  for (const auto& [p, d] : undo->updated) {
    if (p >= record.size()) return Status::Corruption("undo record updates a field past the record");
    record[p] = d;
  }
  SetSystemFields(record, undo->old_trx_id, undo->old_roll_ptr);
  deleted = (undo->info_bits & kInfoDeleted) != 0;
  return true;
}

// row_vers_build_for_consistent_read: back along the roll pointers until a version the view
// sees. None when the row did not exist, or was deleted, in that version.
Result<std::optional<Tuple>> TableImpl::VisibleVersion(Tuple record, bool deleted, const ReadView& view) {
  for (;;) {
    if (view.Sees(TrxIdOf(record))) return deleted ? std::optional<Tuple>() : std::optional<Tuple>(std::move(record));
    auto prev = PreviousVersion(record, deleted);
    if (!prev.ok()) return prev.status();
    if (!*prev) return std::optional<Tuple>();
  }
}

// row_vers_old_has_index_entry: versions from this one back to the first the view sees.
Result<bool> TableImpl::VersionsHaveEntry(Tuple record, bool deleted, std::size_t index, const Tuple& entry,
                                          const ReadView& view) {
  for (;;) {
    if (!deleted && SecondaryRecord(index, record) == entry) return true;
    if (view.Sees(TrxIdOf(record))) return false;
    auto prev = PreviousVersion(record, deleted);
    if (!prev.ok()) return prev.status();
    if (!*prev) return false;
  }
}

// Undoes one change if the record still carries it (its roll pointer is this record's): a
// crash part-way through a statement or a rollback makes this run again on what is left.
// Secondary entries are fixed before the clustered record, which is what says whether the
// change is still there; off-page columns are freed last (a crash leaks, never double-frees).
Status TableImpl::Undo(const UndoRecord& rec, std::uint64_t roll_ptr) {
  auto cur = trees_[0]->GetMarked(rec.key);
  if (!cur.ok()) return cur.status();
  if (!cur->has_value() || RollPtrOf((*cur)->record) != roll_ptr) return Status::Ok();
  const Tuple now = (*cur)->record;
  switch (rec.type) {
    case UndoRecordType::kInsert: {
      for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecRemove(i, SecondaryRecord(i, now)));
      STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
      return FreeExternal(now);
    }
    case UndoRecordType::kDeleteMark: {
      Tuple old = now;
      SetSystemFields(old, rec.old_trx_id, rec.old_roll_ptr);
      for (std::size_t i = 1; i < trees_.size(); ++i)
        STRATA_RETURN_IF_ERROR(SecInsertOrUnmark(i, SecondaryRecord(i, old)));
      return trees_[0]->Update(old, (rec.info_bits & kInfoDeleted) != 0);
    }
    case UndoRecordType::kUpdateExisting:
    case UndoRecordType::kUpdateDeleted: {
      Tuple old = now;
      for (const auto& [p, d] : rec.updated) {
        if (p >= old.size()) return Status::Corruption("undo record updates a field past the record");
        old[p] = d;
      }
      SetSystemFields(old, rec.old_trx_id, rec.old_roll_ptr);
      const bool old_deleted = (rec.info_bits & kInfoDeleted) != 0;
      const ReadView view = svc_.trx_sys->PurgeView();
      for (std::size_t i = 1; i < trees_.size(); ++i) {
        const Tuple after = SecondaryRecord(i, now), before = SecondaryRecord(i, old);
        if (!(after == before)) {
          // The new entry goes, unless a version some view may read still has it.
          auto needed = VersionsHaveEntry(old, old_deleted, i, after, view);
          if (!needed.ok()) return needed.status();
          STRATA_RETURN_IF_ERROR(*needed ? SecMark(i, after, true) : SecRemove(i, after));
          STRATA_RETURN_IF_ERROR(old_deleted ? SecMark(i, before, true) : SecInsertOrUnmark(i, before));
        } else {
          STRATA_RETURN_IF_ERROR(old_deleted ? SecMark(i, before, true) : SecInsertOrUnmark(i, before));
        }
      }
      STRATA_RETURN_IF_ERROR(trees_[0]->Update(old, old_deleted));
      for (std::size_t p = 0; p < now.size(); ++p) {
        if (now[p].external && !(now[p] == old[p])) STRATA_RETURN_IF_ERROR(FreeExternal(Tuple{now[p]}));
      }
      if (old_deleted && view.Sees(rec.old_trx_id)) {
        // A delete every view already sees, whose purge found the record taken over by the
        // insert just undone: remove the row now, as purge would have.
        for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecRemove(i, SecondaryRecord(i, old)));
        auto next = NextKey(0, rec.key);
        if (!next.ok()) return next.status();
        STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
        svc_.locks->InheritGaps(RecordKey(0, rec.key), *next);
        return FreeExternal(old);
      }
      return Status::Ok();
    }
    default:
      return Status::Corruption(fmt::format("undo record type {} in a row undo log", ToString(rec.type)));
  }
}

// row_purge: a delete-marked row whose delete every view sees leaves the table; entries an
// update left delete-marked in secondary indexes go once no view's version has them.
Status TableImpl::Purge(const UndoRecord& rec, std::uint64_t trx_id, const ReadView& view) {
  auto cur = trees_[0]->GetMarked(rec.key);
  if (!cur.ok()) return cur.status();
  if (rec.type == UndoRecordType::kDeleteMark && cur->has_value() && (*cur)->deleted &&
      TrxIdOf((*cur)->record) == trx_id) {
    const Tuple row = (*cur)->record;
    for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecRemove(i, SecondaryRecord(i, row)));
    auto next = NextKey(0, rec.key);
    if (!next.ok()) return next.status();
    STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
    svc_.locks->InheritGaps(RecordKey(0, rec.key), *next);
    return FreeExternal(row);
  }
  if (!rec.indexed) return Status::Ok();
  const Tuple old = PartialRecord(rec);
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    const Tuple entry = SecondaryRecord(i, old);
    auto m = trees_[i]->GetMarked(entry);
    if (!m.ok()) return m.status();
    if (!m->has_value() || !(*m)->deleted) continue;
    if (cur->has_value()) {
      auto needed = VersionsHaveEntry((*cur)->record, (*cur)->deleted, i, entry, view);
      if (!needed.ok()) return needed.status();
      if (*needed) continue;
    }
    STRATA_RETURN_IF_ERROR(SecRemove(i, entry));
  }
  return Status::Ok();
}

}  // namespace strata::engine
