// Undo records applied to a table's rows: rollback, and purge of what no read view needs any
// more (InnoDB's row0undo and row0purge). Older versions for reads are table_versions.cc.
#include <fmt/format.h>

#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

Status TableImpl::Undo(const UndoRecord& rec, std::uint64_t roll_ptr) {
  auto cur = trees_[0]->GetMarked(rec.key);
  if (!cur.ok()) return cur.status();
  if (!cur->has_value() || rec_.RollPtrOf((*cur)->record) != roll_ptr) return Status::Ok();
  const Tuple now = (*cur)->record;
  switch (rec.type) {
    case UndoRecordType::kInsert: {
      for (std::size_t i = 1; i < trees_.size(); ++i)
        STRATA_RETURN_IF_ERROR(SecRemove(i, rec_.SecondaryRecord(i, now)));
      STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
      return FreeExternal(now);
    }
    case UndoRecordType::kDeleteMark: {
      Tuple old = now;
      rec_.SetSystemFields(old, rec.old_trx_id, rec.old_roll_ptr);
      for (std::size_t i = 1; i < trees_.size(); ++i)
        STRATA_RETURN_IF_ERROR(SecInsertOrUnmark(i, rec_.SecondaryRecord(i, old)));
      return trees_[0]->Update(old, (rec.info_bits & kInfoDeleted) != 0);
    }
    case UndoRecordType::kUpdateExisting:
    case UndoRecordType::kUpdateDeleted: {
      Tuple old = now;
      for (const auto& [p, d] : rec.updated) {
        if (p >= old.size()) return Status::Corruption("undo record updates a field past the record");
        old[p] = d;
      }
      rec_.SetSystemFields(old, rec.old_trx_id, rec.old_roll_ptr);
      const bool old_deleted = (rec.info_bits & kInfoDeleted) != 0;
      const ReadView view = svc_.trx_sys->PurgeView();
      for (std::size_t i = 1; i < trees_.size(); ++i) {
        const Tuple after = rec_.SecondaryRecord(i, now), before = rec_.SecondaryRecord(i, old);
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
        for (std::size_t i = 1; i < trees_.size(); ++i)
          STRATA_RETURN_IF_ERROR(SecRemove(i, rec_.SecondaryRecord(i, old)));
        auto next = NextKey(0, rec.key);
        if (!next.ok()) return next.status();
        STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
        svc_.locks->InheritGaps(rec_.RecordKey(0, rec.key), *next);
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
      rec_.TrxIdOf((*cur)->record) == trx_id) {
    const Tuple row = (*cur)->record;
    for (std::size_t i = 1; i < trees_.size(); ++i) STRATA_RETURN_IF_ERROR(SecRemove(i, rec_.SecondaryRecord(i, row)));
    auto next = NextKey(0, rec.key);
    if (!next.ok()) return next.status();
    STRATA_RETURN_IF_ERROR(trees_[0]->Delete(rec.key));
    svc_.locks->InheritGaps(rec_.RecordKey(0, rec.key), *next);
    return FreeExternal(row);
  }
  if (!rec.indexed) return Status::Ok();
  const Tuple old = rec_.PartialRecord(rec);
  for (std::size_t i = 1; i < trees_.size(); ++i) {
    const Tuple entry = rec_.SecondaryRecord(i, old);
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
