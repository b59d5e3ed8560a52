// The .frm file MySQL 5.x and MariaDB keep beside each table's .ibd: the server's own
// definition of the table, every detail the client prints by (DECIMAL's scale, ENUM labels,
// fractional-second digits, ZEROFILL, ...), which InnoDB's SYS_COLUMNS does not keep.
// The bytes are ondisk/frm.h's; this turns them into the definition rows decode with.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "inspect/schema.h"
#include "inspect/space_file.h"
#include "ondisk/status.h"
#include "ondisk/types.h"

namespace strata::inspect {

// The table `name` that `frm` defines, laid out as InnoDB stores it (LayOutTable). A column of
// a type this reader does not decode keeps its width, so the others still decode, and reads as
// unknown. Corruption naming the byte offset when the file is cut short or inconsistent.
ondisk::Result<TableDef> TableFromFrm(ondisk::ConstBytes frm, const std::string& name);

// The table the .frm beside `file` defines, its clustered index placed in `file`; NotFound
// when there is no .frm, else the reason it does not give the table.
ondisk::Result<TableDef> TableFromFrmBeside(const SpaceFile& file);

// The .frm beside a tablespace file, if there is one (a partition's: its table's).
std::optional<std::filesystem::path> FrmBeside(const std::filesystem::path& ibd);

}  // namespace strata::inspect
