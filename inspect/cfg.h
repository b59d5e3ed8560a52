// The .cfg file FLUSH TABLES ... FOR EXPORT writes beside a MariaDB or MySQL 5.6/5.7 table: the
// table's columns as SYS_COLUMNS records them and each index with its id, root page and fields,
// so that the copied .ibd can be imported elsewhere. For the inspector it is a dictionary of
// one table that travels with the file: its columns, and where every secondary index starts.
//
// The bytes are ondisk/cfg.h's.
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
