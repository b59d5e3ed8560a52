// The one layout step every source of a table definition ends in (SQL text, .frm, SYS_*,
// FTS auxiliary tables): from columns and the keys a definition names, the indexes InnoDB
// makes and the fields each holds, in the order its records store them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "inspect/schema.h"
#include "ondisk/status.h"

namespace strata::inspect {

// An index as a definition names it: its columns, each whole or a prefix.
struct IndexSpec {
  std::string name;
  bool primary = false, unique = false, skip = false;        // skip: FULLTEXT/SPATIAL/functional
  std::vector<std::pair<std::string, std::uint32_t>> parts;  // column, prefix length (0: whole)
  bool prefix_in_chars = false;                              // as CREATE TABLE gives it; SYS_FIELDS and .frm give bytes
};

// Adds to `t` (its columns given) the indexes InnoDB makes of `indexes`: first the clustered
// one, the PRIMARY KEY, else the first UNIQUE index of NOT NULL whole columns, else DB_ROW_ID;
// then DB_TRX_ID, DB_ROLL_PTR and every other stored column in table order (a key column
// stored as a prefix is stored again whole). Then each secondary index: its key parts, then
// the clustered key's fields it does not hold whole. Roots are not known here.
ondisk::Result<TableDef> LayOutTable(TableDef t, std::vector<IndexSpec> indexes);

}  // namespace strata::inspect
