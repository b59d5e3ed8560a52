// MariaDB's instant ALTER TABLE (the bytes: ondisk/instant.h): the layout of today's rows of a
// table altered instantly, from its definition and the column map its metadata record leads to.
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
