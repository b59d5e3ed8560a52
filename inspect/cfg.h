// The .cfg file FLUSH TABLES ... FOR EXPORT writes beside a MariaDB or MySQL 5.6/5.7 table: the
// table's columns as SYS_COLUMNS records them and each index with its id, root page and fields,
// so that the copied .ibd can be imported elsewhere. For the inspector it is a dictionary of
// one table that travels with the file: its columns, and where every secondary index starts.
//
// Format version 1, all integers big-endian, every name a 4-byte length (with the NUL) and
// its bytes:
//
//   version 4 | hostname | "db/table" | autoinc 8 | page size 4 | table flags 4 | n_cols 4
//   per column: prtype 4, mtype 4, len 4, mbminmaxlen 4, ind 4, ord_part 4, max_prefix 4, name
//   n_indexes 4
//   per index: id 8, space 4, root page 4, type 4, trx_id_offset 4, n_user_defined_cols 4,
//              n_uniq 4, n_nullable 4, n_fields 4, name; per field: prefix_len 4, fixed_len 4, name
#pragma once

#include <filesystem>
#include <optional>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::inspect {

// The table a .cfg describes, laid out as InnoDB stores it, with its indexes' ids and roots.
// Corruption naming the byte offset when the file is cut short or inconsistent; NotSupported
// for other format versions (MySQL 8.0's carry SDI in the .ibd itself).
ondisk::Result<TableDef> TableFromCfg(ondisk::ConstBytes cfg, ondisk::Flavor flavor);

// The .cfg beside a tablespace file (t.cfg beside t.ibd), if there is one.
std::optional<std::filesystem::path> CfgBeside(const std::filesystem::path& ibd);

// TableFromCfg of the .cfg beside `file`, when it describes the table rooted in `file`;
// NotFound when there is no .cfg.
ondisk::Result<TableDef> TableFromCfgBeside(const SpaceFile& file);

}  // namespace strata::inspect
