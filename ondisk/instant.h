// MariaDB's instant ALTER TABLE, as its clustered index keeps it (10.3+ ADD COLUMN, 10.4+ DROP
// COLUMN and column reorder). MySQL 8.0's row versions are in record.h (RecordRowVersion).
//
//   root page: type 18 (not INDEX); PAGE_INSTANT (bytes 50-51) >> 3 = core fields, the fields of
//              rows written before the first instant ALTER. After a DROP or reorder the
//              infimum's 8 bytes are zero and the supremum's last byte holds the core rows' NULL
//              bitmap width.
//   metadata:  the first record of the leftmost leaf, info bit MIN_REC: it holds the defaults of
//              added columns. With DROP/reorder it is also delete-marked, and a 20-byte reference
//              after DB_ROLL_PTR leads to the column map, kept like a BLOB:
//                u32 n | u16 entry[n]   one per field after DB_ROLL_PTR, in physical order
//                entry: 0x8000 dropped, 0x4000 dropped and NOT NULL, low 10 bits: the live
//                column's place among the table's stored columns, or for a dropped one its
//                storage (0: variable <= 255 bytes, 1: variable and longer, L + 1: fixed L).
//
// Fields never move: a dropped column keeps its slot in every row, a column added later goes at
// the end of the row whatever its place in SELECT *.
#pragma once

#include <cstdint>
#include <vector>

#include "ondisk/record.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::ondisk {

struct MariaDbColumnMapEntry {
  static constexpr std::uint16_t kDropped = 0x8000;
  static constexpr std::uint16_t kDroppedNotNull = 0x4000;
  static constexpr std::uint16_t kColumnBits = 0x03FF;

  std::uint16_t raw = 0;

  bool dropped() const { return raw & kDropped; }
  // A live field's place among the table's stored columns.
  std::size_t column() const { return raw & kColumnBits; }
  // A dropped field's slot, from what the map keeps of it: only how it is stored.
  FieldDef DroppedField() const;
};

// The most entries a map holds (the low 10 bits number columns), and so its largest size.
inline constexpr std::size_t kMariaDbColumnMapMaxEntries = 1024;
inline constexpr std::size_t kMariaDbColumnMapMaxBytes = 4 + 2 * kMariaDbColumnMapMaxEntries;

// Whether the root page of a MariaDB instant clustered index says a column map exists (a DROP
// or reorder zeroed its infimum).
bool MariaDbRootHasColumnMap(ConstBytes root, std::size_t infimum);

// The column map in `blob`, the bytes the metadata record refers to. Corruption when the count
// does not match the length.
Result<std::vector<MariaDbColumnMapEntry>> DecodeMariaDbColumnMap(ConstBytes blob);

}  // namespace strata::ondisk
