// The .cfg file FLUSH TABLES ... FOR EXPORT writes beside a MariaDB or MySQL 5.6/5.7 table, and
// ALTER TABLE ... IMPORT TABLESPACE reads: the table's columns as SYS_COLUMNS records them and
// each index with its id, root page and fields, so that a copied .ibd can be adopted by another
// server. Format version 1 (MySQL 8.0 writes later versions, with SDI inside the .ibd).
//
// All integers big-endian; every name is a 4-byte length that counts its terminating NUL,
// then its bytes:
//
//   version 4 | hostname | "db/table" | autoinc 8 | page size 4 | table flags 4 | n_cols 4
//   per column: prtype 4, mtype 4, len 4, mbminmaxlen 4, ind 4, ord_part 4, max_prefix 4, name
//   n_indexes 4
//   per index: id 8, space 4, root page 4, type 4, trx_id_offset 4, n_user_defined_cols 4,
//              n_uniq 4, n_nullable 4, n_fields 4, name; per field: prefix_len 4, fixed_len 4, name
//
// The hidden columns (DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR, main type 8) are listed too, after the
// user's, and the clustered index lists every field of its records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ondisk/status.h"
#include "ondisk/endian.h"

namespace strata::ondisk {

inline constexpr std::uint32_t kCfgVersion1 = 1;

struct CfgColumn {
  std::uint32_t prtype = 0;  // as SYS_COLUMNS (sys_tables.h)
  std::uint32_t mtype = 0;
  std::uint32_t len = 0;
  std::uint32_t mbminmaxlen = 0;  // mbminlen + 5 * mbmaxlen (5.6/5.7) or its MariaDB equivalent
  std::uint32_t ind = 0;          // the column's position in the table
  std::uint32_t ord_part = 0;     // 1 when some index orders by it
  std::uint32_t max_prefix = 0;
  std::string name;
};

struct CfgField {
  std::uint32_t prefix_len = 0;  // bytes of a prefix key part, else 0
  std::uint32_t fixed_len = 0;   // bytes when fixed-width, else 0
  std::string name;
};

struct CfgIndex {
  std::uint64_t id = 0;
  std::uint32_t space = 0;
  std::uint32_t root_page = 0;
  std::uint32_t type = 0;  // SYS_INDEXES TYPE bits (sys_tables.h)
  std::uint32_t trx_id_offset = 0;
  std::uint32_t n_user_defined_cols = 0;  // the key parts as declared; the fields after them InnoDB adds
  std::uint32_t n_uniq = 0;
  std::uint32_t n_nullable = 0;
  std::string name;
  std::vector<CfgField> fields;
};

struct CfgFile {
  std::uint32_t version = kCfgVersion1;
  std::string hostname;
  std::string table;  // "database/table"
  std::uint64_t autoinc = 0;
  std::uint32_t page_size = 0;
  std::uint32_t table_flags = 0;
  std::vector<CfgColumn> columns;
  std::vector<CfgIndex> indexes;
};

// The .cfg in `bytes`. Corruption naming the byte offset when it is cut short or a count is more
// than the file could hold; NotSupported for a format version other than 1.
Result<CfgFile> DecodeCfg(ConstBytes bytes);

// The bytes of `cfg`, which DecodeCfg reads back equal.
std::vector<std::byte> EncodeCfg(const CfgFile& cfg);

}  // namespace strata::ondisk
