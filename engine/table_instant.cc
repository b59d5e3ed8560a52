// ALTER TABLE ... ADD/DROP COLUMN as MySQL 8.0.29+ does it with ALGORITHM=INSTANT: no row is
// touched. The table gets a new row version; records keep the version they were written in
// (their fields read through that version's layout, TableRecords::AddRowVersions), and new
// ones are written in the newest. The rewritten definition (SDI) is the commit point.
#include <fmt/format.h>

#include "engine/row_codec.h"
#include "engine/table_impl.h"

namespace strata::engine {

namespace {

// MySQL's name for a dropped column kept in the dictionary (cut to 64 characters).
std::string DroppedName(const Column& c, std::uint8_t version) {
  std::string name = fmt::format("!hidden!_dropped_v{}_p{}_{}", version, c.physical_pos, c.name);
  return name.size() > 64 ? name.substr(0, 64) : name;
}

// Whether an instant ALTER keeps the column as it was: only its name and place may change.
bool SameDefinition(Column a, const Column& b) {
  a.name = b.name;
  a.default_value = b.default_value;  // SET DEFAULT changes the dictionary only
  return a.type == b.type && a.length == b.length && a.scale == b.scale && a.is_unsigned == b.is_unsigned &&
         a.zerofill == b.zerofill && a.nullable == b.nullable && a.auto_increment == b.auto_increment &&
         a.charset == b.charset && a.binary_collation == b.binary_collation && a.collation_id == b.collation_id &&
         a.elements == b.elements;
}

}  // namespace

Result<TableSpec> InstantSpec(const TableSpec& old, TableSpec next,
                              const std::vector<std::optional<std::size_t>>& sources, const std::vector<Value>& fills) {
  if (old.row_version >= kMaxRowVersion)
    return Status::NotSupported(
        fmt::format("table {} has had {} instant ADD/DROP COLUMNs, the most MySQL allows", old.name, kMaxRowVersion));
  if (next.primary_key != old.primary_key) return Status::NotSupported("an instant ALTER keeps the primary key");
  const std::uint8_t version = old.row_version + 1;
  // The first versioned ALTER places every field where it sits (as dd_copy_table_columns).
  TableSpec before = old;
  if (old.row_version == 0) {
    const auto fields = IndexFields(old, 0);
    for (std::size_t p = 0; p < fields.size(); ++p) {
      if (fields[p].column >= 0)
        before.columns[static_cast<std::size_t>(fields[p].column)].physical_pos = static_cast<std::uint32_t>(p);
    }
  }
  std::uint32_t next_pos = static_cast<std::uint32_t>(IndexFields(before, 0).size());
  std::vector<bool> kept(before.columns.size(), false);
  for (std::size_t k = 0; k < next.columns.size(); ++k) {
    Column& c = next.columns[k];
    if (const auto s = sources[k]) {
      const Column& was = before.columns[*s];
      if (!SameDefinition(was, c)) return Status::NotSupported("column " + c.name + " changes its definition");
      kept[*s] = true;
      c.physical_pos = was.physical_pos;
      c.version_added = was.version_added;
      c.instant_default = was.instant_default;
      continue;
    }
    if (c.auto_increment) return Status::NotSupported("an AUTO_INCREMENT column is not added instantly");
    c.physical_pos = next_pos++;
    c.version_added = version;
    c.version_dropped = 0;
    c.instant_default.reset();
    if (!fills[k].is_null()) {
      auto stored = EncodeValue(c, fills[k]);
      if (!stored.ok()) return stored.status().WithContext("column " + c.name);
      if (stored->external || stored->bytes.size() > 8000)
        return Status::NotSupported("the default of column " + c.name + " is too long to add it instantly");
      c.instant_default = std::move(stored->bytes);
    }
  }
  // The indexes stay as they are: the same columns (renamed or not), none dropped or added.
  bool same_indexes = next.indexes.size() == old.indexes.size();
  for (std::size_t i = 0; same_indexes && i < next.indexes.size(); ++i) {
    const auto& a = old.indexes[i].columns;
    const auto& b = next.indexes[i].columns;
    same_indexes = a.size() == b.size() && old.indexes[i].unique == next.indexes[i].unique;
    for (std::size_t f = 0; same_indexes && f < b.size(); ++f) {
      const auto k = next.ColumnIndex(b[f]);
      same_indexes = k && sources[*k] && before.columns[*sources[*k]].name == a[f];
    }
  }
  if (!same_indexes) return Status::NotSupported("an instant ALTER keeps the indexes as they are");
  next.dropped_columns = before.dropped_columns;
  for (std::size_t s = 0; s < before.columns.size(); ++s) {
    if (kept[s]) continue;
    Column gone = before.columns[s];
    for (const auto& k : old.primary_key) {
      if (k == gone.name) return Status::NotSupported("a primary key column is not dropped instantly");
    }
    gone.version_dropped = version;
    gone.name = DroppedName(gone, version);
    gone.auto_increment = false;
    gone.default_value.reset();
    next.dropped_columns.push_back(std::move(gone));
  }
  if (next_pos + next.dropped_columns.size() > 1017)  // REC_MAX_N_FIELDS, less the system fields
    return Status::NotSupported("too many fields for an instant ALTER (dropped columns count)");
  next.row_version = version;
  return next;
}

Status TableImpl::AlterColumnsInstantly(const TableSpec& next_spec,
                                        const std::vector<std::optional<std::size_t>>& sources,
                                        const std::vector<Value>& fills) {
  STRATA_RETURN_IF_ERROR(CheckWritable());
  auto spec = InstantSpec(meta_.spec, next_spec, sources, fills);
  if (!spec.ok()) return spec.status();
  STRATA_RETURN_IF_ERROR(spec->Validate());
  const TableMeta before = meta_;
  meta_.spec = std::move(*spec);
  BuildShapes();
  if (Status s = WriteSdi(); !s.ok()) {
    meta_ = before;  // the definition on disk is the old one, or the new one after a recovery
    BuildShapes();
    return s;
  }
  return Status::Ok();
}

}  // namespace strata::engine
