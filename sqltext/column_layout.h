// How a server stores a column of a given definition and how its values read: the record
// field InnoDB keeps it in (fixed bytes, or a length and at most so many bytes, off-page when
// long) and the format that prints its values. What reads a real server's rows from a CREATE
// TABLE statement alone (inspect rows --create-table) builds its table from these.
#pragma once

#include <string>

#include "ondisk/column_format.h"
#include "ondisk/record.h"
#include "ondisk/status.h"
#include "ondisk/types.h"
#include "sqltext/definition.h"

namespace strata::sqltext {

struct ColumnLayout {
  ondisk::FieldDef field;
  ondisk::ColumnFormat format;
  std::string sql_type;  // as the server prints it: "varchar(45)", "int unsigned"
};

// The layout of `col` in a table whose default character set or collation is `table` (its
// options; utf8mb4 when they name none), on a server of `flavor` (MySQL stores JSON as binary
// JSON, MariaDB as LONGTEXT). InvalidArgument naming the column for a type or character set
// whose storage is not known here: no column after it could be found in a row either.
ondisk::Result<ColumnLayout> LayoutOf(const ColumnText& col, const TableOptions& table, ondisk::Flavor flavor);

}  // namespace strata::sqltext
