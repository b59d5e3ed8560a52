// The catalog: each table's definition as a MySQL 8.0 SDI document ("dd_object_type":
// "Table"), stored in the table's own .ibd (page 3 onwards), so that every file describes
// itself to `strata inspect schema` and to MySQL's ibd2sdi; and which physical fields each
// index holds, in InnoDB's order.
#pragma once

#include <string>
#include <vector>

#include "engine/schema.h"
#include "ondisk/types.h"

namespace strata::engine {

// A field of an index record: a user column (>= 0) or one of InnoDB's hidden columns.
inline constexpr int kRowIdColumn = -1;
inline constexpr int kTrxIdColumn = -2;
inline constexpr int kRollPtrColumn = -3;
// The field of spec.dropped_columns[j] is column kFirstDroppedColumn - j.
inline constexpr int kFirstDroppedColumn = -4;
inline int DroppedColumnField(std::size_t j) { return kFirstDroppedColumn - static_cast<int>(j); }
inline bool IsDroppedColumn(int column) { return column <= kFirstDroppedColumn; }
inline std::size_t DroppedColumnOf(int column) { return static_cast<std::size_t>(kFirstDroppedColumn - column); }
struct IndexField {
  int column = 0;
  bool key = false;  // part of the index's own key (not appended by InnoDB)
};

// Index 0 is the clustered index: the primary key (or DB_ROW_ID), DB_TRX_ID, DB_ROLL_PTR,
// then every other column (in a table with row versions: in physical_pos order, with the
// columns dropped instantly). Index i >= 1 is spec.indexes[i-1]: its columns, then the primary
// key columns it does not already have (or DB_ROW_ID).
std::vector<IndexField> IndexFields(const TableSpec& spec, std::size_t index);

struct IndexMeta {
  std::uint64_t id = 0;
  ondisk::PageNo root = ondisk::kNullPage;
};

struct TableMeta {
  TableSpec spec;
  std::uint64_t table_id = 0;
  std::uint32_t space_id = 0;
  std::uint32_t space_flags = 0;
  std::vector<IndexMeta> indexes;  // clustered first, then spec.indexes in order
};

std::string TableSdi(const TableMeta& meta);
std::string TablespaceSdi(const TableMeta& meta);
// Corruption naming what is missing when the document is not one this engine wrote.
Result<TableMeta> TableMetaFromSdi(const std::string& json);

}  // namespace strata::engine
