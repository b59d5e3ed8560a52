// The .frm file MySQL 5.x and MariaDB keep beside each table's .ibd: the server's own
// definition of the table, every detail the client prints by (DECIMAL's scale, ENUM labels,
// fractional-second digits, ZEROFILL, ...), which InnoDB's SYS_COLUMNS does not keep.
// Little-endian throughout:
//
//   header (64 bytes)  FE 01, version; @4 u16 length of MariaDB's extra2 segment (MySQL: 3);
//                      @6 u16 where the keys are; @51 u32 server version
//   extra2 (MariaDB, from 64): type, length, data ...; 129 per-column flags (invisible),
//                      130 per-column data type names (UUID, INET6, ...)
//   forminfo           at the u32 that follows extra2 (MySQL: at 67): 288 bytes, @258 column
//                      count, @260 screens, @268 names, @270 ENUM/SET lists, @274 their bytes,
//                      @284 comments, @286 expressions (generated columns, defaults)
//   columns            after forminfo and the screens: 17 bytes each (@3 length, @8 pack flags:
//                      NULL, UNSIGNED, ZEROFILL, decimals; @12 ENUM/SET list; @13 type;
//                      @11 and @14 collation), then names, lists, comments, expressions
//   keys               count, parts; 8 bytes a key (flags: unique), 9 a part (column,
//                      bytes: a prefix when fewer than the column's), then the key names
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
