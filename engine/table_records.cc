#include "engine/table_records.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/elements.h"
#include "engine/lock_sys.h"
#include "engine/row_codec.h"
#include "ondisk/record.h"
#include "ondisk/value.h"

namespace strata::engine {

using namespace strata::ondisk;

bool SameKey(const IndexShape& shape, const Tuple& a, const Tuple& b, std::size_t n) {
  for (std::size_t i = 0; i < n && i < a.size() && i < b.size(); ++i) {
    if (CompareField(shape.compare[i], a[i].null, a[i].span(), b[i].null, b[i].span()) != 0) return false;
  }
  return true;
}

std::string BigEndianField(std::uint64_t v, std::size_t width) {
  auto b = ondisk::EncodeUnsigned(v, width);
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

TableRecords::TableRecords(const TableSpec& spec, const std::vector<IndexMeta>& indexes) : spec_(&spec) {
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    fields_.push_back(IndexFields(spec, i));
    IndexShape s;
    s.id = indexes[i].id;
    s.clustered = i == 0;
    std::size_t keys = 0;
    for (const auto& f : fields_.back()) {
      if (f.column >= 0 || IsDroppedColumn(f.column)) {
        const Column& c = f.column >= 0 ? spec.columns[static_cast<std::size_t>(f.column)]
                                        : spec.dropped_columns[DroppedColumnOf(f.column)];
        s.leaf.fields.push_back(StorageOf(c));
        s.compare.push_back(CompareKindOf(c));
      } else {
        const bool row_id = f.column == kRowIdColumn;
        s.leaf.fields.push_back(FieldDef::Fixed(row_id                     ? "DB_ROW_ID"
                                                : f.column == kTrxIdColumn ? "DB_TRX_ID"
                                                                           : "DB_ROLL_PTR",
                                                row_id                     ? kDbRowIdSize
                                                : f.column == kTrxIdColumn ? kDbTrxIdSize
                                                                           : kDbRollPtrSize));
        s.compare.push_back(CompareKind::kBinary);
      }
      keys += f.key;
    }
    // Clustered records are ordered by the key alone; secondary records by every field (the
    // appended primary key makes them unique), and node pointers carry all of them.
    s.n_key = s.clustered ? keys : s.leaf.fields.size();
    s.n_unique = s.clustered ? keys : spec.indexes[i - 1].unique ? keys : 0;
    if (s.clustered && spec.row_version > 0) AddRowVersions(s);
    s.Finish();
    shapes_.push_back(std::move(s));
  }
  trx_pos_ = FieldOfColumn(0, kTrxIdColumn);
  roll_pos_ = FieldOfColumn(0, kRollPtrColumn);
}

// One layout per row version 0..spec.row_version, each with every field, those the version
// does not store absent: a column added after it, or dropped by it.
void TableRecords::AddRowVersions(IndexShape& s) const {
  auto versions = std::make_shared<std::vector<RecordLayout>>();
  s.absent_values.assign(s.leaf.fields.size(), Datum::Null());
  for (std::size_t v = 0; v <= spec_->row_version; ++v) {
    RecordLayout l = s.leaf;
    l.row_version = static_cast<std::uint8_t>(v);
    for (std::size_t i = 0; i < fields_[0].size(); ++i) {
      const int c = fields_[0][i].column;
      if (c < 0 && !IsDroppedColumn(c)) continue;  // system fields: always stored
      const Column& col =
          c >= 0 ? spec_->columns[static_cast<std::size_t>(c)] : spec_->dropped_columns[DroppedColumnOf(c)];
      l.fields[i].absent = col.version_added > v || (col.version_dropped && col.version_dropped <= v);
      if (v == 0 && c >= 0 && col.version_added && col.instant_default)
        s.absent_values[i] = Datum::Of(*col.instant_default);
    }
    l.null_bitmap_bits = l.n_nullable();
    versions->push_back(std::move(l));
  }
  s.leaf = versions->back();
  s.leaf.versions = std::move(versions);
}

std::size_t TableRecords::FieldOfColumn(std::size_t index, int column) const {
  const auto& f = fields_[index];
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i].column == column) return i;
  }
  return f.size();
}

std::size_t TableRecords::IndexByName(const std::string& name) const {
  if (name == "PRIMARY" || name == "GEN_CLUST_INDEX") return 0;
  for (std::size_t i = 0; i < spec_->indexes.size(); ++i) {
    if (spec_->indexes[i].name == name) return i + 1;
  }
  return n_indexes();
}

Result<Tuple> TableRecords::ClusteredRecord(const Row& row, std::uint64_t row_id) const {
  Tuple t;
  for (const auto& f : fields_[0]) {
    if (IsDroppedColumn(f.column)) {
      t.push_back(Datum::Null());  // not stored by the newest row version
    } else if (f.column == kRowIdColumn) {
      t.push_back(Datum::Of(BigEndianField(row_id, 6)));
    } else if (f.column == kTrxIdColumn) {
      t.push_back(Datum::Of(BigEndianField(0, 6)));  // set by the statement that writes the record
    } else if (f.column == kRollPtrColumn) {
      t.push_back(Datum::Of(BigEndianField(kInsertRollPtr, 7)));
    } else {
      auto d = EncodeValue(spec_->columns[static_cast<std::size_t>(f.column)], row[static_cast<std::size_t>(f.column)]);
      if (!d.ok()) return d.status();
      t.push_back(std::move(*d));
    }
  }
  return t;
}

Tuple TableRecords::SecondaryRecord(std::size_t index, const Tuple& clustered) const {
  Tuple t;
  for (const auto& f : fields_[index]) t.push_back(clustered[FieldOfColumn(0, f.column)]);
  return t;
}

Result<Tuple> TableRecords::PrimaryKey(const std::vector<Value>& values) const {
  Tuple key;
  if (spec_->primary_key.empty()) {
    if (values.size() != 1) return Status::InvalidArgument("a table without a primary key is looked up by its row id");
    const Value& v = values[0];
    const std::uint64_t id = v.is_uint() ? v.as_uint() : v.is_int() ? static_cast<std::uint64_t>(v.as_int()) : 0;
    key.push_back(Datum::Of(BigEndianField(id, 6)));
    return key;
  }
  if (values.size() != spec_->primary_key.size()) {
    return Status::InvalidArgument(
        fmt::format("the primary key has {} columns, {} values given", spec_->primary_key.size(), values.size()));
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto d = EncodeValue(spec_->columns[*spec_->ColumnIndex(spec_->primary_key[i])], values[i]);
    if (!d.ok()) return d.status();
    key.push_back(std::move(*d));
  }
  return key;
}

Result<Tuple> TableRecords::KeyPrefix(std::size_t index, const std::vector<Value>& values) const {
  Tuple from;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i >= fields_[index].size() || !fields_[index][i].key) {
      return Status::InvalidArgument("more start values than key columns");
    }
    const int c = fields_[index][i].column;
    if (c < 0) {
      const Value& v = values[i];
      from.push_back(Datum::Of(BigEndianField(v.is_uint() ? v.as_uint() : static_cast<std::uint64_t>(v.as_int()), 6)));
      continue;
    }
    auto d = EncodeValue(spec_->columns[static_cast<std::size_t>(c)], values[i]);
    if (!d.ok()) return d.status();
    from.push_back(std::move(*d));
  }
  return from;
}

Tuple TableRecords::KeyOf(const Tuple& c) const {
  return Tuple(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(shapes_[0].n_key));
}

Tuple TableRecords::ClusteredKeyOfEntry(std::size_t index, const Tuple& entry) const {
  Tuple key;
  for (std::size_t k = 0; k < shapes_[0].n_key; ++k) key.push_back(entry[FieldOfColumn(index, fields_[0][k].column)]);
  return key;
}

std::uint64_t TableRecords::TrxIdOf(const Tuple& c) const { return LoadBe(c[trx_pos_].span(), 0, 6); }
std::uint64_t TableRecords::RollPtrOf(const Tuple& c) const { return LoadBe(c[roll_pos_].span(), 0, 7); }

void TableRecords::SetSystemFields(Tuple& c, std::uint64_t trx_id, std::uint64_t roll_ptr) const {
  c[trx_pos_] = Datum::Of(BigEndianField(trx_id, 6));
  c[roll_pos_] = Datum::Of(BigEndianField(roll_ptr, 7));
}

std::vector<std::pair<std::uint32_t, Datum>> TableRecords::ChangedFields(const Tuple& before,
                                                                         const Tuple& after) const {
  std::vector<std::pair<std::uint32_t, Datum>> changed;
  for (std::size_t p = shapes_[0].n_key; p < before.size(); ++p) {
    if (p != trx_pos_ && p != roll_pos_ && !IsDroppedColumn(fields_[0][p].column) && !(before[p] == after[p])) {
      changed.emplace_back(static_cast<std::uint32_t>(p), before[p]);
    }
  }
  return changed;
}

std::vector<std::pair<std::uint32_t, Datum>> TableRecords::IndexedValues(const Tuple& clustered) const {
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

Tuple TableRecords::PartialRecord(const UndoRecord& rec) const {
  Tuple t(fields_[0].size(), Datum::Null());
  for (std::size_t i = 0; i < rec.key.size() && i < t.size(); ++i) t[i] = rec.key[i];
  if (rec.indexed) {
    for (const auto& [p, d] : *rec.indexed) {
      if (p < t.size()) t[p] = d;
    }
  }
  return t;
}

std::string TableRecords::RecordKey(std::size_t index, const Tuple& record) const {
  return LockKey(shapes_[index].id, record, shapes_[index].n_key);
}

std::string TableRecords::DuplicateMessage(std::size_t index, const Tuple& record) const {
  std::string shown;
  const std::size_t n = shapes_[index].n_unique;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = fields_[index][i].column;
    std::string v = record[i].bytes;
    if (c >= 0) {
      const Column& col = spec_->columns[static_cast<std::size_t>(c)];
      auto value = DecodeValue(col, record[i]);
      if (value.ok())
        v = col.has_elements() && value->is_uint() ? ElementsText(col, value->as_uint()) : value->ToString();
    }
    shown += (i ? "-" : "") + v;
  }
  const std::string name = index == 0 ? "PRIMARY" : spec_->indexes[index - 1].name;
  return fmt::format("Duplicate entry '{}' for key '{}.{}'", shown, spec_->name, name);
}

}  // namespace strata::engine
