// A column as SYS_COLUMNS (the data dictionary of MySQL 5.x and MariaDB, in ibdata1) records
// it, turned into the definition rows decode with. SYS_COLUMNS keeps what InnoDB needs to store
// a value (main type, the server's type code, flags, collation, byte length), not everything
// the server needs to print it:
//
// (PRTYPE and MTYPE: ondisk/sys_tables.h).
//
// DECIMAL's scale, ENUM/SET labels, BIT widths, fractional-second digits (the length gives them
// in pairs), FLOAT(M,D) and MariaDB's UUID/INET types are not there: such a column is stored
// with the right width, so the others decode, and its values are said unknown with the reason.
// ZEROFILL is not there either; it changes only how a number is padded, so an unsigned
// integer prints its value without the padding (and `inspect rows` says so on stderr). The
// .cfg of an exported table holds the same columns (cfg.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "inspect/schema.h"
#include "ondisk/status.h"
#include "ondisk/sys_tables.h"
#include "ondisk/types.h"

namespace strata::inspect {

using ondisk::SysColumn;

// The column `c` of a table in a tablespace of `flavor`. InvalidArgument naming the column when
// even its storage is unknown (a main type or character set this reader does not know): then
// no column after it can be found in a row either.
ondisk::Result<ColumnDef> ColumnFromSys(const SysColumn& c, ondisk::Flavor flavor);

// The names InnoDB's own dictionary gives (SYS_TABLES, a .cfg): "database/table" on `t`; an
// index's TYPE bits (1 clustered, 2 unique, 64 spatial) on `ix`, with its table's name.
void SetSysTableName(TableDef& t, const std::string& full);
void SetSysIndexKind(IndexDef& ix, const TableDef& table, std::uint32_t type);

// `table` (its names and indexes, with ids, roots and kinds, as SYS_TABLES/SYS_INDEXES give
// them) with the columns `sys` lists and its indexes laid out over them as InnoDB lays them
// out, each index's key parts (name, prefix bytes) from `fields` by index id.
using IndexFields = std::map<std::uint64_t, std::vector<std::pair<std::string, std::uint32_t>>>;
ondisk::Result<TableDef> TableFromSys(const TableDef& table, std::vector<SysColumn> sys, const IndexFields& fields,
                                      ondisk::Flavor flavor);

}  // namespace strata::inspect
