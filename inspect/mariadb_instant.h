// MariaDB's instant ALTER TABLE, as its clustered index keeps it (10.3+ ADD COLUMN, 10.4+
// DROP COLUMN and column reorder):
//
//   root page: type 18 (not INDEX); PAGE_INSTANT (bytes 50-51) >> 3 = core fields, the fields
//              of rows written before the first instant ALTER. After a DROP or reorder the
//              infimum's 8 bytes are zero and the supremum's last byte holds the core rows'
//              NULL bitmap width.
//   metadata:  the first record of the leftmost leaf, info bit MIN_REC: it holds the defaults
//              of added columns. With DROP/reorder it is also delete-marked, and a 20-byte
//              reference after DB_ROLL_PTR leads to one BLOB page (type 10, data at 46):
//                u32 n | u16 entry[n]   one per field after DB_ROLL_PTR, in physical order
//                entry: 0x8000 dropped, 0x4000 dropped and NOT NULL, low 10 bits: the live
//                column's place among the table's stored columns, or for a dropped one its
//                storage (0: variable <= 255 bytes, 1: variable and longer, L + 1: fixed L).
//
// Fields never move: a dropped column keeps its slot in every row, a column added later goes
// at the end of the row whatever its place in SELECT *.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/index_page.h"

namespace strata::inspect {

struct MariaDbInstant {
  std::size_t core_fields = 0;
  bool has_column_map = false;         // a DROP or reorder happened: `leaf` comes from the map
  ondisk::RecordLayout leaf;           // today's rows, every field (dropped ones too), core_fields set
  std::vector<int> column_of;          // per leaf field: its column in TableDef::columns, -1 when dropped
  ondisk::RecordLayout metadata;       // the metadata record: `leaf` with the map's reference field
  std::size_t metadata_ref_field = 0;  // where that field is in `metadata`, when has_column_map
};

// Whether `root` is the root of a clustered index MariaDB altered instantly.
bool IsMariaDbInstantRoot(const SpaceFile& file, const ondisk::IndexPage& root);

// The instant layout of `index` (the clustered index of `table`, `root` its root page),
// reading the column map from the metadata record that opens `first_leaf` when there is one.
// Corruption naming the page when the map cannot be read or does not fit the definition.
ondisk::Result<MariaDbInstant> ReadMariaDbInstant(const SpaceFile& file, const TableDef& table, const IndexDef& index,
                                                  const ondisk::IndexPage& root, std::uint32_t first_leaf);
// The same, finding the root and the leftmost leaf itself; nullopt when `index` is not the
// clustered index of a table MariaDB altered instantly.
std::optional<ondisk::Result<MariaDbInstant>> ReadMariaDbInstant(const SpaceFile& file, const TableDef& table,
                                                                 const IndexDef& index);

}  // namespace strata::inspect
