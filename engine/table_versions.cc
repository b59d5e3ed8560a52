// A record's older versions, rebuilt from its undo chain (DB_ROLL_PTR): the one a read view
// sees, and whether some version still holds a secondary entry (InnoDB's row0vers).
#include <fmt/format.h>

#include "engine/table_impl.h"
#include "ondisk/record_header.h"

namespace strata::engine {

using namespace strata::ondisk;

Result<bool> TableImpl::PreviousVersion(Tuple& record, bool& deleted) {
  const RollPtr rp = RollPtr::Decode(rec_.RollPtrOf(record));
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
  rec_.SetSystemFields(record, undo->old_trx_id, undo->old_roll_ptr);
  deleted = (undo->info_bits & kInfoDeleted) != 0;
  return true;
}

// row_vers_build_for_consistent_read: back along the roll pointers until a version the view
// sees. None when the row did not exist, or was deleted, in that version.
Result<std::optional<Tuple>> TableImpl::VisibleVersion(Tuple record, bool deleted, const ReadView& view) {
  for (;;) {
    if (view.Sees(rec_.TrxIdOf(record)))
      return deleted ? std::optional<Tuple>() : std::optional<Tuple>(std::move(record));
    auto prev = PreviousVersion(record, deleted);
    if (!prev.ok()) return prev.status();
    if (!*prev) return std::optional<Tuple>();
  }
}

// row_vers_old_has_index_entry: versions from this one back to the first the view sees.
Result<bool> TableImpl::VersionsHaveEntry(Tuple record, bool deleted, std::size_t index, const Tuple& entry,
                                          const ReadView& view) {
  for (;;) {
    if (!deleted && SameEntry(index, rec_.SecondaryRecord(index, record), entry)) return true;
    if (view.Sees(rec_.TrxIdOf(record))) return false;
    auto prev = PreviousVersion(record, deleted);
    if (!prev.ok()) return prev.status();
    if (!*prev) return false;
  }
}

// Undoes one change if the record still carries it (its roll pointer is this record's): a
// crash part-way through a statement or a rollback makes this run again on what is left.
// Secondary entries are fixed before the clustered record, which is what says whether the
// change is still there; off-page columns are freed last (a crash leaks, never double-frees).

}  // namespace strata::engine
